//! Rabbit goal threats: what each rabbit is worth as a threat to reach goal, by how far it
//! has come, how walled in its way is, who holds the enemy trap on its wing and who has the
//! strongest pieces round that trap.
//!
//! For every rabbit, with `r` its ranks advanced from its home rank (0 .. 6):
//!
//! * **blockedness**: the sum, over enemy pieces in a window ahead of and beside it (up to
//!   four files aside, from three ranks behind it to the goal rank), of a weight by their
//!   place relative to the rabbit (straight ahead counts most, see [`BLOCKER`]; enemy rabbits
//!   less, [`RABBIT_BLOCKER`]), plus one per enemy piece on the goal rank, plus the edge's
//!   own help to the defender ([`EDGE_BLOCKER`]: a rabbit on the a- or h-file is easier to
//!   stop); its **free share** is a falling logistic of it (1 for an open way, about 0.1 for a
//!   wall, [`free_share`]);
//! * **wing trap share**: its side's smooth control ([`crate::trap_influence`]) of the enemy
//!   home trap on its wing (for the d- and e-files two thirds of the nearer trap and one
//!   third of the farther), mapped linearly from -100 .. 100 onto 0 .. 1;
//! * **support**: whether its side has the strongest piece within two steps of that trap
//!   (+1), the enemy (-1), or neither (0, equal or none), which scales the free share by
//!   `rabbit_path_support` (in percent).
//!
//! Features per rabbit: the wing trap share for `rabbit_trap_threat.r`, the free share × the
//! support share for `rabbit_path_threat.r`. The weights ship at half of sharp's
//! ([`SHARP_TRAP`], [`SHARP_PATH`]): at full value a rabbit run outweighed a free capture. Several rabbits on one wing are counted in full (sharp
//! combines them sub-additively).
//!
//! The idea and the numbers of the prior come from sharp's `eval/rabgoal.cpp` (David Wu); the
//! blocker window, the free-share curve and the support count here are Tusk's own
//! simplification.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square};

use crate::trap_influence::DISK2;
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// Blocker weight of an enemy officer at `[ranks ahead + 3][files aside]` (ranks ahead from
/// -3 to 7, files aside 0 .. 4).
pub const BLOCKER: [[i32; 5]; 11] = [
    [1, 1, 0, 0, 0],
    [2, 1, 1, 0, 0],
    [4, 2, 1, 1, 0],
    [0, 7, 3, 2, 1],
    [10, 7, 4, 2, 1],
    [7, 6, 3, 2, 1],
    [7, 5, 3, 2, 1],
    [6, 5, 3, 2, 1],
    [6, 5, 3, 2, 1],
    [6, 5, 3, 2, 1],
    [6, 5, 3, 2, 1],
];

/// Blocker weight of an enemy rabbit, as [`BLOCKER`] (and, in [`crate::rabbit_goal`], of any
/// enemy piece on the goal rank).
pub const RABBIT_BLOCKER: [[i32; 5]; 11] = [
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 3, 1, 0, 0],
    [6, 2, 1, 0, 0],
    [5, 2, 1, 0, 0],
    [4, 2, 1, 0, 0],
    [4, 2, 1, 0, 0],
    [4, 2, 1, 0, 0],
    [4, 2, 1, 0, 0],
    [4, 2, 1, 0, 0],
];

/// Where `at` stands in the blocker window of `color`'s rabbit on `rabbit`: `[ranks ahead +
/// 3][files aside]` (ranks ahead from -3 to 7, files aside 0 .. 4), or `None` outside it.
pub(crate) const fn window_place(
    color: Color,
    rabbit: Square,
    at: Square,
) -> Option<(usize, usize)> {
    let aside = (at.file() as i32 - rabbit.file() as i32).unsigned_abs() as usize;
    let ahead = match color {
        Color::Gold => at.rank() as i32 - rabbit.rank() as i32,
        Color::Silver => rabbit.rank() as i32 - at.rank() as i32,
    };
    if aside <= 4 && ahead >= -3 && ahead <= 7 {
        Some(((ahead + 3) as usize, aside))
    } else {
        None
    }
}

/// The blocker window of one rabbit as bit planes: `officer[b]` holds the squares whose
/// [`BLOCKER`] weight has bit `b` set, `rabbit[b]` those whose [`RABBIT_BLOCKER`] weight has,
/// and `window` every square of the window (four files aside, from three ranks behind the
/// rabbit to its goal rank). A set of pieces weighs `Σ 2^b × |set ∩ plane[b]|`: a handful of
/// population counts instead of a walk over the pieces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockerPlanes {
    /// The bit planes of the officers' weights (at most 10: four planes).
    pub officer: [Bitboard; 4],
    /// The bit planes of the rabbits' weights (at most 6: three planes).
    pub rabbit: [Bitboard; 3],
    /// The whole window.
    pub window: Bitboard,
}

impl BlockerPlanes {
    /// The officers' weight of the pieces `set` (those inside the window).
    #[inline]
    pub fn officers(&self, set: Bitboard) -> i32 {
        weigh(set, &self.officer)
    }

    /// The rabbits' weight of the pieces `set` (those inside the window).
    #[inline]
    pub fn rabbits(&self, set: Bitboard) -> i32 {
        weigh(set, &self.rabbit)
    }
}

/// `Σ 2^b × |set ∩ planes[b]|`.
#[inline]
fn weigh<const N: usize>(set: Bitboard, planes: &[Bitboard; N]) -> i32 {
    let mut total = 0;
    for (b, &plane) in planes.iter().enumerate() {
        total += ((set & plane).count() as i32) << b;
    }
    total
}

/// The blocker planes of a rabbit `[side][square]` (see [`BlockerPlanes`]).
pub(crate) const BLOCKER_PLANES: [[BlockerPlanes; 64]; 2] = {
    let empty = BlockerPlanes {
        officer: [Bitboard::EMPTY; 4],
        rabbit: [Bitboard::EMPTY; 3],
        window: Bitboard::EMPTY,
    };
    let mut out = [[empty; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Gold } else { Color::Silver };
        let mut r = 0;
        while r < 64 {
            let rabbit = Square::from_index(r as u8);
            let mut t = 0usize;
            while t < 64 {
                if let Some((row, col)) = window_place(color, rabbit, Square::from_index(t as u8)) {
                    let bit = 1u64 << t;
                    let planes = &mut out[c][r];
                    planes.window.0 |= bit;
                    // The planes hold weights of 0 .. 15 and 0 .. 7 (checked when compiled).
                    assert!(BLOCKER[row][col] >= 0 && BLOCKER[row][col] < 16);
                    assert!(RABBIT_BLOCKER[row][col] >= 0 && RABBIT_BLOCKER[row][col] < 8);
                    let mut b = 0;
                    while b < 4 {
                        if BLOCKER[row][col] & (1 << b) != 0 {
                            planes.officer[b].0 |= bit;
                        }
                        if b < 3 && RABBIT_BLOCKER[row][col] & (1 << b) != 0 {
                            planes.rabbit[b].0 |= bit;
                        }
                        b += 1;
                    }
                }
                t += 1;
            }
            r += 1;
        }
        c += 1;
    }
    out
};

/// The edge's help to the defender by the rabbit's file folded (a/h = 0 .. d/e = 3).
pub const EDGE_BLOCKER: [i32; 4] = [10, 5, 2, 0];

/// Sharp's values for the wing trap share by ranks advanced (`RAB_YDIST_TC_VALUES`, in
/// centirabbits): a prior for `rabbit_trap_threat`.
pub const SHARP_TRAP: [i32; 8] = [0, 7, 15, 27, 38, 49, 79, 0];

/// Sharp's values for an open way by ranks advanced (`RAB_YDIST_VALUES` × its largest
/// blocker factor 1.44 × its support factor for an even fight near the goal, 0.815,
/// centirabbits): a prior for `rabbit_path_threat`.
pub const SHARP_PATH: [i32; 8] = [0, 32, 75, 122, 164, 207, 257, 0];

/// The largest blockedness the free share distinguishes.
const MAX_BLOCKED: usize = 60;

/// The free share by blockedness, in 1024ths: `0.08 + 0.92 / (1 + e^((b - 24.5) / 2.2))`.
const FREE: [i32; MAX_BLOCKED + 1] = {
    let falling = crate::shape::logistic_table::<{ MAX_BLOCKED + 1 }>(24.5, -2.2, 942.08);
    let mut out = [0i32; MAX_BLOCKED + 1];
    let mut i = 0;
    while i <= MAX_BLOCKED {
        out[i] = 82 + falling[i];
        i += 1;
    }
    out
};

/// The free share (in 1024ths) of a rabbit with blockedness `b`.
pub fn free_share(b: i32) -> i32 {
    FREE[b.clamp(0, MAX_BLOCKED as i32) as usize]
}

/// The blockedness of the rabbit of `color` on `sq` (see the module docs).
pub fn blockedness(pos: &Position, color: Color, sq: Square) -> i32 {
    let enemy = !color;
    let planes = &BLOCKER_PLANES[color.index()][sq.index()];
    let theirs = pos.occupied_by(enemy) & planes.window;
    let rabbits = theirs & pos.pieces_of(enemy, PieceKind::Rabbit);
    let goal_rank = crate::goal::goal_rank(color);
    EDGE_BLOCKER[usize::from(fold(sq.file()))]
        + planes.officers(theirs - rabbits)
        + planes.rabbits(rabbits)
        + (theirs & goal_rank).count() as i32
}

/// A file folded left-right: a/h = 0 .. d/e = 3.
#[inline]
pub(crate) const fn fold(file: u8) -> u8 {
    if file >= 4 {
        7 - file
    } else {
        file
    }
}

/// The enemy home traps on the wing of a rabbit of `color` on `sq` (indices into
/// [`Square::TRAPS`]) with their shares in thirds: the nearer one 3/3 (a-c, f-h files) or 2/3
/// with the farther 1/3 (d, e files).
fn wing_traps(color: Color, sq: Square) -> [(usize, i32); 2] {
    let base = match color {
        Color::Gold => 2,
        Color::Silver => 0,
    };
    match sq.file() {
        0..=2 => [(base, 3), (base + 1, 0)],
        3 => [(base, 2), (base + 1, 1)],
        4 => [(base + 1, 2), (base, 1)],
        _ => [(base + 1, 3), (base, 0)],
    }
}

/// The strongest piece kind of `color` within two steps of `trap`, if any.
fn strongest_near(pos: &Position, color: Color, trap: Square) -> Option<PieceKind> {
    let area: Bitboard = DISK2[trap.index()];
    PieceKind::ALL
        .into_iter()
        .rev()
        .find(|&k| (pos.pieces_of(color, k) & area).any())
}

/// +1 when `color` has the strongest piece within two steps of `trap`, -1 when the enemy
/// has, 0 when neither (equal strongest, or none).
fn support(pos: &Position, color: Color, trap: Square) -> usize {
    match (
        strongest_near(pos, color, trap),
        strongest_near(pos, !color, trap),
    ) {
        (Some(a), Some(b)) if a > b => 2,
        (Some(_), None) => 2,
        (Some(a), Some(b)) if a < b => 0,
        (None, Some(_)) => 0,
        _ => 1,
    }
}

/// Whether any rabbit-threat weight is not zero (the smooth trap control it reads is then
/// needed).
pub fn is_used(w: &Weights) -> bool {
    w[id::rabbit_trap_threat].iter().any(|&x| x != 0)
        || w[id::rabbit_path_threat].iter().any(|&x| x != 0)
}

/// The rabbit-threat features of both sides (see the module docs). Reads the smooth control,
/// `ctx.influence`.
pub fn rabbit_threat_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::rabbit_path_threat.at(1)) && !is_used(w) {
        return;
    }
    for c in Color::ALL {
        let own_control = |t: usize| match c {
            Color::Gold => ctx.influence[t],
            Color::Silver => -ctx.influence[t],
        };
        // The support at each trap, found for the first rabbit that needs it.
        let mut supports: [Option<usize>; 4] = [None; 4];
        for sq in pos.pieces_of(c, PieceKind::Rabbit) {
            let r = usize::from(sq.ranks_from_home(c));
            if r >= 7 {
                continue;
            }
            let [(near, a), (far, b)] = wing_traps(c, sq);
            let control = (own_control(near) * a + own_control(far) * b) / 3;
            sink.add_share(
                c,
                id::rabbit_trap_threat.at(r),
                (control + 100).clamp(0, 200),
                200,
            );
            let at = *supports[near].get_or_insert_with(|| support(pos, c, Square::TRAPS[near]));
            let support = w[id::rabbit_path_support.at(at)];
            let free = free_share(blockedness(pos, c, sq));
            sink.add_share2(c, id::rabbit_path_threat.at(r), free, 1024, support, 100);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::ScoreSink;
    use tusk_engine::ByColor;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// The blockedness as first written: a walk over the enemy pieces, each weighed by its
    /// place in the window.
    fn blockedness_by_walk(pos: &Position, color: Color, sq: Square) -> i32 {
        let enemy = !color;
        let (rx, ry) = (i32::from(sq.file()), i32::from(sq.rank()));
        let forward = |rank: i32| match color {
            Color::Gold => rank - ry,
            Color::Silver => ry - rank,
        };
        let goal_rank = match color {
            Color::Gold => 7,
            Color::Silver => 0,
        };
        let rabbits = pos.pieces_of(enemy, PieceKind::Rabbit);
        let mut b = EDGE_BLOCKER[usize::from(fold(sq.file()))];
        for s in pos.occupied_by(enemy) {
            let dx = (i32::from(s.file()) - rx).unsigned_abs() as usize;
            let dy = forward(i32::from(s.rank()));
            if dx > 4 || !(-3..=7).contains(&dy) {
                continue;
            }
            let row = (dy + 3) as usize;
            b += if rabbits.contains(s) {
                RABBIT_BLOCKER[row][dx]
            } else {
                BLOCKER[row][dx]
            };
            if i32::from(s.rank()) == goal_rank {
                b += 1;
            }
        }
        b
    }

    /// The blockedness by bit planes equals the walk over the pieces for every rabbit square
    /// of both sides, on the fixtures and random boards (whatever stands on the square).
    #[test]
    fn blockedness_by_planes_equals_the_walk() {
        use rand::{rngs::SmallRng, SeedableRng};
        let mut positions = tusk_tests::fixture_positions();
        let mut rng = SmallRng::seed_from_u64(41);
        positions.extend((0..500).map(|_| tusk_tests::random_board(&mut rng, true)));
        let mut blocked = 0;
        for p in &positions {
            for c in Color::ALL {
                for s in 0..64 {
                    let s = Square::from_index(s);
                    let walk = blockedness_by_walk(p, c, s);
                    assert_eq!(blockedness(p, c, s), walk, "{c:?} rabbit on {s:?} in {p:?}");
                    blocked += i32::from(walk > 20);
                }
            }
        }
        assert!(blocked > 1_000, "only {blocked} walled-in squares seen");
    }

    fn threat(p: &Position) -> ByColor<i32> {
        let w = Weights::default().with_sharp_priors();
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        rabbit_threat_features(p, &ctx, &w, &mut sink);
        sink.totals()
    }

    #[test]
    fn the_free_share_falls_from_one_to_a_tenth() {
        assert!((1015..=1024).contains(&free_share(0)), "{}", free_share(0));
        assert!(free_share(-5) == free_share(0));
        assert!((0..60).all(|b| free_share(b) >= free_share(b + 1)));
        assert!((560..=640).contains(&free_share(24)), "{}", free_share(24));
        assert!((82..=120).contains(&free_share(40)), "{}", free_share(40));
        assert_eq!(free_share(1000), free_share(60));
    }

    #[test]
    fn blockers_ahead_count_most_and_rabbits_less() {
        // A gold rabbit on d5; only the edge term for the d-file (0) without blockers (the
        // silver rabbit on h7 is in the window but weighs 0 four files aside).
        let alone = pos("g", &[("R", "d5"), ("e", "h1"), ("E", "a1"), ("r", "h7")]);
        assert_eq!(blockedness(&alone, Color::Gold, sq("d5")), 0);
        // On h8 it stands on the goal rank, in the window: one.
        let guard = pos("g", &[("R", "d5"), ("e", "h1"), ("E", "a1"), ("r", "h8")]);
        assert_eq!(blockedness(&guard, Color::Gold, sq("d5")), 1);
        let ahead = pos("g", &[("R", "d5"), ("d", "d6"), ("E", "a1"), ("r", "h7")]);
        assert_eq!(blockedness(&ahead, Color::Gold, sq("d5")), 10);
        let rabbit_ahead = pos("g", &[("R", "d5"), ("r", "d6"), ("E", "a1"), ("e", "h1")]);
        assert_eq!(blockedness(&rabbit_ahead, Color::Gold, sq("d5")), 6);
        // On the goal rank: one more.
        let on_goal = pos("g", &[("R", "d5"), ("d", "d8"), ("E", "a1"), ("r", "h7")]);
        assert_eq!(blockedness(&on_goal, Color::Gold, sq("d5")), 7 + 1);
        // An edge rabbit is easier to stop.
        let edge = pos("g", &[("R", "a5"), ("E", "a1"), ("e", "h1"), ("r", "h8")]);
        assert_eq!(blockedness(&edge, Color::Gold, sq("a5")), 10);
        // Silver's view mirrors gold's.
        assert_eq!(blockedness(&ahead.flip(), Color::Silver, sq("d4")), 10);
    }

    #[test]
    fn a_free_advanced_rabbit_on_a_held_wing_is_a_big_threat_and_a_walled_one_is_not() {
        // A gold rabbit on b6 with the gold elephant beside silver's c6 trap and no silver
        // piece on that wing; then the same with four silver pieces in front of it.
        let free = pos(
            "s",
            &[
                ("R", "b6"),
                ("E", "c5"),
                ("e", "g2"),
                ("r", "h7"),
                ("R", "h1"),
            ],
        );
        let walled = pos(
            "s",
            &[
                ("R", "b6"),
                ("E", "c5"),
                ("e", "g2"),
                ("h", "a7"),
                ("d", "b7"),
                ("c", "c7"),
                ("m", "b8"),
                ("r", "h7"),
                ("R", "h1"),
            ],
        );
        let (f, w) = (threat(&free)[Color::Gold], threat(&walled)[Color::Gold]);
        assert!(f > 200, "free {f}");
        assert!(w < f / 2, "walled {w} vs free {f}");
        // A rabbit on its home rank is no threat at all beyond its trap share (zero prior).
        let home = pos("s", &[("R", "b1"), ("E", "c5"), ("e", "g2"), ("r", "h7")]);
        assert_eq!(threat(&home)[Color::Gold], 0);
    }

    #[test]
    fn colours_mirror_exactly() {
        let positions = [
            pos(
                "s",
                &[
                    ("R", "b6"),
                    ("R", "e5"),
                    ("E", "c5"),
                    ("e", "g2"),
                    ("h", "a7"),
                    ("r", "e4"),
                    ("r", "h7"),
                    ("R", "h1"),
                ],
            ),
            crate::test_util::seed_diagram("s"),
            crate::test_util::opening(),
        ];
        for p in positions {
            let (a, b) = (threat(&p), threat(&p.flip()));
            assert_eq!(a[Color::Gold], b[Color::Silver]);
            assert_eq!(a[Color::Silver], b[Color::Gold]);
        }
    }
}
