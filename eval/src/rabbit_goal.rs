//! Rabbit goal threats as sharp weighs them: every rabbit off its home rank is worth a threat
//! to its side, by its distance to goal, how walled in its way is, who holds the strongest
//! pieces round the goal squares on its wing, its side's control of the enemy trap on that
//! wing, and whether it is frozen; the rabbits of one side then add up sub-additively over
//! neighbouring files.
//!
//! For a rabbit `ydist` ranks from its goal rank (1 .. 6), on folded file `x` (a/h = 0 ..
//! d/e = 3):
//!
//! * **trap part** `= TRAP_BY_YDIST[ydist] × TRAP_BY_FILE[x] × FROZEN[f] × TRAP_CONTROL[t]`,
//!   with `t` its side's smooth control ([`crate::trap_influence`], -100 .. 100) of the enemy
//!   home trap on its wing (d- and e-files: two thirds of the nearer trap, one third of the
//!   farther) mapped onto 0 .. 60;
//! * **goal part** `= GOAL_BY_YDIST[ydist] × GOAL_BY_FILE[x] × FROZEN[f] × BLOCKED[b] ×
//!   GOAL_SUPPORT[s + 40]`, with `b` its blockedness (enemy pieces in a window ahead of it,
//!   weighted by where they stand, [`blockedness`]) and `s` its side's strongest-piece points
//!   round the goal squares of its wing ([`goal_area_points`]);
//! * `f` indexes frozen (0 or 1) × 3 + its unfreezing distance (at most 2).
//!
//! The rabbit's score `r = trap part + goal part` is spread over seven files centred on it
//! with the squared shares of [`SPREAD`]; the side's threat is the sum over files of the
//! square root of what lands there. A lone rabbit counts in full (the shares add up to 1);
//! two rabbits on one file count `√2` times one.
//!
//! Unit: sharp's (a thousandth of a rabbit). Feature (`rabbit_goal_pct`, weight in percent of
//! sharp's value): the side's threat in rabbits. Ships at 0 for the tuner.
//!
//! The idea, the structure and every table come from sharp's `eval/rabgoal.cpp` (David Wu);
//! the code is Tusk's own, on Tusk's trap control and unfreezing distance.

use tusk_engine::{Bitboard, ByColor, Color, Direction, PieceKind, Position, Square, NEIGHBOURS};

use crate::rabbit_threat::{fold, window_place, BLOCKER_PLANES, RABBIT_BLOCKER};
use crate::trap_influence::steps_to_free;
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The trap part by ranks to goal (sharp's `RAB_YDIST_TC_VALUES`).
pub const TRAP_BY_YDIST: [f64; 8] = [2000.0, 790.0, 490.0, 380.0, 270.0, 150.0, 70.0, 0.0];
/// The trap part by folded file (sharp's `RAB_XPOS_TC`).
pub const TRAP_BY_FILE: [f64; 4] = [0.97398, 0.985342, 0.887231, 1.02873];
/// The goal part by ranks to goal (sharp's `RAB_YDIST_VALUES`).
pub const GOAL_BY_YDIST: [f64; 8] = [3000.0, 2200.0, 1770.0, 1400.0, 1040.0, 640.0, 270.0, 0.0];
/// The goal part by folded file (sharp's `RAB_XPOS`).
pub const GOAL_BY_FILE: [f64; 4] = [1.04329, 0.986563, 0.920916, 1.04774];
/// Both parts by frozen × 3 + unfreezing distance (sharp's `RAB_FROZEN_UFDIST`).
pub const FROZEN: [f64; 6] = [1.05, 0.935, 0.920, 0.970, 0.970, 0.860];

/// The trap part by the wing trap's control mapped onto 0 .. 60 (sharp's `RAB_TC`).
pub const TRAP_CONTROL: [f64; 61] = [
    0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.08, 0.094, 0.112, 0.131, 0.149, 0.168, 0.186,
    0.194, 0.213, 0.231, 0.250, 0.265, 0.283, 0.301, 0.319, 0.337, 0.355, 0.370, 0.385, 0.398,
    0.411, 0.424, 0.439, 0.451, 0.462, 0.476, 0.490, 0.506, 0.525, 0.545, 0.568, 0.591, 0.615,
    0.639, 0.652, 0.685, 0.708, 0.730, 0.752, 0.774, 0.795, 0.815, 0.835, 0.853, 0.871, 0.889,
    0.904, 0.922, 0.940, 0.956, 0.974, 0.992, 1.010, 1.030,
];

/// The goal part by blockedness 0 .. 60 (sharp's `RAB_BLOCKER`): about 1.4 for an open way,
/// falling steeply between 20 and 30 to about 0.1 for a wall.
pub const BLOCKED: [f64; 61] = [
    1.440, 1.428, 1.416, 1.404, 1.392, 1.380, 1.368, 1.356, 1.344, 1.332, 1.320, 1.308, 1.296,
    1.284, 1.272, 1.260, 1.248, 1.236, 1.228, 1.217, 1.185, 1.125, 1.041, 0.981, 0.826, 0.750,
    0.673, 0.540, 0.427, 0.301, 0.225, 0.195, 0.178, 0.167, 0.162, 0.158, 0.154, 0.150, 0.146,
    0.143, 0.139, 0.135, 0.132, 0.128, 0.125, 0.122, 0.120, 0.119, 0.117, 0.116, 0.115, 0.114,
    0.113, 0.112, 0.111, 0.110, 0.110, 0.109, 0.108, 0.107, 0.107,
];

/// The goal part by the goal-area points + 40, 0 .. 80 (sharp's `RAB_SFPGOAL`): 0.2 where
/// the defender holds the strongest pieces round the goal squares, 1.15 where the attacker
/// does.
pub const GOAL_SUPPORT: [f64; 81] = [
    0.214, 0.216, 0.218, 0.221, 0.224, 0.228, 0.232, 0.236, 0.242, 0.248, 0.256, 0.266, 0.276,
    0.286, 0.296, 0.306, 0.316, 0.326, 0.336, 0.346, 0.356, 0.366, 0.376, 0.386, 0.397, 0.409,
    0.421, 0.433, 0.446, 0.460, 0.472, 0.484, 0.494, 0.504, 0.515, 0.526, 0.538, 0.551, 0.564,
    0.579, 0.595, 0.612, 0.632, 0.655, 0.680, 0.705, 0.733, 0.759, 0.787, 0.815, 0.842, 0.867,
    0.890, 0.910, 0.925, 0.940, 0.955, 0.970, 0.980, 0.990, 1.000, 1.010, 1.020, 1.030, 1.040,
    1.050, 1.060, 1.070, 1.080, 1.090, 1.100, 1.105, 1.110, 1.115, 1.120, 1.125, 1.130, 1.135,
    1.140, 1.145, 1.150,
];

/// The shares of a rabbit's score on the files from three left of it to three right of it
/// (sharp's `RABBIT_SCORE_CONVOLUTION`); they add up to 1 and are applied squared.
pub const SPREAD: [f64; 7] = [0.07, 0.13, 0.19, 0.22, 0.19, 0.13, 0.07];

/// The edge's own help to the defender by folded file: a rabbit six ranks from goal, and
/// one nearer.
const EDGE_BLOCKER: [[i32; 4]; 2] = [[8, 4, 2, 0], [10, 5, 2, 0]];

/// Points for holding alone the strongest, second and third strongest kind present in a
/// goal-area disk, by its radius 1 .. 5.
const STRONGEST_POINTS: [[i32; 3]; 5] =
    [[7, 4, 2], [28, 14, 7], [24, 12, 6], [16, 8, 4], [8, 4, 2]];

/// Points per piece (and again per non-rabbit) of the side, less the enemy's, by disk radius
/// 1 .. 5.
const PRESENCE_POINTS: [i32; 5] = [0, 3, 2, 1, 0];

/// The goal-area centres of a side's rabbits, by wing (left, centre, right): the squares one
/// rank before the goal rank on the b-, d- and e-, and g-files.
const fn goal_centres(color: Color) -> [Bitboard; 3] {
    let rank = match color {
        Color::Gold => 6,
        Color::Silver => 1,
    };
    [
        Bitboard::from_square(Square::new(1, rank)),
        Bitboard(
            Bitboard::from_square(Square::new(3, rank)).0
                | Bitboard::from_square(Square::new(4, rank)).0,
        ),
        Bitboard::from_square(Square::new(6, rank)),
    ]
}

/// The goal-area disks `[side][wing][radius - 1]`: each centre grown by one step five times.
const GOAL_AREAS: [[[Bitboard; 5]; 3]; 2] = {
    let mut out = [[[Bitboard::EMPTY; 5]; 3]; 2];
    let mut c = 0;
    while c < 2 {
        let centres = goal_centres(if c == 0 { Color::Gold } else { Color::Silver });
        let mut w = 0;
        while w < 3 {
            let mut area = centres[w];
            let mut r = 0;
            while r < 5 {
                area = Bitboard(area.0 | area.neighbours().0);
                out[c][w][r] = area;
                r += 1;
            }
            w += 1;
        }
        c += 1;
    }
    out
};

/// The points of `color` for holding the strongest pieces in `area`: going down from the
/// elephant to the cat over the kinds either side has there, the first three such kinds
/// score `points[i]` for the side that alone has it (nothing when both have it).
fn strongest_points(pos: &Position, color: Color, points: &[i32; 3], area: Bitboard) -> i32 {
    let mut total = 0;
    let mut place = 0;
    for kind in PieceKind::ALL.into_iter().rev() {
        if kind == PieceKind::Rabbit || place == points.len() {
            break;
        }
        let ours = (pos.pieces_of(color, kind) & area).any();
        let theirs = (pos.pieces_of(!color, kind) & area).any();
        match (ours, theirs) {
            (false, false) => continue,
            (true, false) => total += points[place],
            (false, true) => total -= points[place],
            (true, true) => {}
        }
        place += 1;
    }
    total
}

/// `color`'s pieces in `area`, each non-rabbit twice, less the enemy's.
fn presence(pos: &Position, color: Color, area: Bitboard) -> i32 {
    let side = |c: Color| {
        let all = pos.occupied_by(c) & area;
        (all.count() + (all - pos.pieces_of(c, PieceKind::Rabbit)).count()) as i32
    };
    side(color) - side(!color)
}

/// The goal-area points of `color`'s rabbits on `wing` (0 left, 1 centre, 2 right): who holds
/// the strongest pieces and how many, in disks of radius 1 to 5 round the squares before the
/// goal (sharp's strongest-piece points; positive: `color`'s).
pub fn goal_area_points(pos: &Position, color: Color, wing: usize) -> i32 {
    let areas = &GOAL_AREAS[color.index()][wing];
    let mut points = 0;
    for (r, &area) in areas.iter().enumerate() {
        points += strongest_points(pos, color, &STRONGEST_POINTS[r], area);
        points += PRESENCE_POINTS[r] * presence(pos, color, area);
    }
    points / 2
}

/// The goal-area points of `color`'s rabbits by file, each wing's found when a rabbit first
/// needs it: the b-, d/e- and g-wing points on their files, the c- and f-files halfway
/// between their two wings.
struct GoalAreaPoints<'a> {
    pos: &'a Position,
    color: Color,
    wings: [Option<i32>; 3],
}

impl<'a> GoalAreaPoints<'a> {
    fn new(pos: &'a Position, color: Color) -> Self {
        GoalAreaPoints {
            pos,
            color,
            wings: [None; 3],
        }
    }

    /// The points of wing `w` (0 left, 1 centre, 2 right).
    fn wing(&mut self, w: usize) -> i32 {
        let (pos, color) = (self.pos, self.color);
        *self.wings[w].get_or_insert_with(|| goal_area_points(pos, color, w))
    }

    /// The points of a rabbit on `file`.
    fn on_file(&mut self, file: u8) -> i32 {
        match file {
            0 | 1 => self.wing(0),
            2 => (self.wing(0) + self.wing(1)) / 2,
            3 | 4 => self.wing(1),
            5 => (self.wing(2) + self.wing(1)) / 2,
            _ => self.wing(2),
        }
    }
}

/// The blocker weight in `table` of a piece on `at` for a rabbit of `color` on `rabbit` (0
/// outside the window).
fn window_weight(table: &[[i32; 5]; 11], color: Color, rabbit: Square, at: Square) -> i32 {
    window_place(color, rabbit, at).map_or(0, |(row, aside)| table[row][aside])
}

/// How walled in the way of `color`'s rabbit on `sq` is: enemy pieces in the window from
/// three ranks behind it to the goal rank and four files aside, by [`BLOCKER`] (officers) and
/// [`RABBIT_BLOCKER`] (rabbits, and any piece on the goal rank, plus one); a thick goal rank
/// (pieces wedged between enemy pieces there, see below); and the edge's help.
///
/// The goal-rank squares within about three files of the rabbit count when both their
/// side squares hold enemy pieces (or the edge) and they hold an enemy piece that is not
/// dominated (one more) or a dominated piece of the rabbit's side that is no stronger than
/// either enemy neighbour and weaker than one (one more, and half its rabbit weight unless a
/// neighbour is itself dominated): a brick in the wall.
pub fn blockedness(pos: &Position, dominated: Bitboard, color: Color, sq: Square) -> i32 {
    let enemy = !color;
    let goal_rank = crate::goal::goal_rank(color);
    let planes = &BLOCKER_PLANES[color.index()][sq.index()];
    let all_theirs = pos.occupied_by(enemy);
    let theirs = all_theirs & planes.window;
    let on_goal = theirs & goal_rank;
    let rabbits = (theirs & pos.pieces_of(enemy, PieceKind::Rabbit)) | on_goal;
    let mut b =
        planes.officers(theirs - rabbits) + planes.rabbits(rabbits) + on_goal.count() as i32;
    // The thick goal rank: occupied goal-rank squares whose side squares hold enemy pieces
    // (or are off the board), within the files the rabbit's file reaches.
    const START: [u8; 8] = [0, 0, 0, 1, 2, 3, 4, 4];
    const END: [u8; 8] = [3, 3, 4, 5, 6, 7, 7, 7];
    let file = usize::from(sq.file());
    let files = Bitboard((0xFFu64 >> (7 - END[file] + START[file])) << START[file]);
    let east_closed = all_theirs.shift(Direction::West) | Bitboard::FILE_H;
    let west_closed = all_theirs.shift(Direction::East) | Bitboard::FILE_A;
    let wedged = goal_rank
        & pos.occupied()
        & east_closed
        & west_closed
        & Bitboard(files.0 * 0x0101_0101_0101_0101);
    // An enemy piece there that is not dominated is one more brick.
    b += ((wedged & all_theirs) - dominated).count() as i32;
    // A dominated piece of the rabbit's side there, no stronger than either enemy neighbour
    // and weaker than one, is a brick too.
    for at in (wedged - all_theirs) & dominated {
        b += own_brick(pos, dominated, color, sq, at);
    }
    let near = usize::from(sq.ranks_to_goal(color) < 6);
    b + EDGE_BLOCKER[near][usize::from(fold(sq.file()))]
}

/// What a dominated piece of `color` on `at`, wedged between enemy pieces (or the edge) on
/// the goal rank of `color`'s rabbits, adds to the blockedness of `color`'s rabbit on
/// `rabbit`: when the piece is no stronger than either goal-rank neighbour and weaker than
/// one, one, plus half its rabbit blocker weight unless a neighbour is itself dominated;
/// otherwise nothing.
fn own_brick(pos: &Position, dominated: Bitboard, color: Color, rabbit: Square, at: Square) -> i32 {
    let Some(piece) = pos.piece_at(at) else {
        return 0;
    };
    let sides = NEIGHBOURS[at.index()] & crate::goal::goal_rank(color);
    let (mut stronger, mut weaker) = (false, false);
    for s in sides {
        let k = pos.piece_at(s).map(|p| p.kind());
        stronger |= k.is_some_and(|k| k > piece.kind());
        weaker |= k.is_some_and(|k| k < piece.kind());
    }
    match (weaker, stronger) {
        (false, true) if (sides & dominated).any() => 1,
        (false, true) => 1 + window_weight(&RABBIT_BLOCKER, color, rabbit, at) / 2,
        _ => 0,
    }
}

/// The control (-100 .. 100, positive: `color`'s) that weighs the trap part of `color`'s
/// rabbit on `file`: the enemy home trap on its wing, two thirds and one third on the d- and
/// e-files.
fn wing_control(influence: &[i32; 4], color: Color, file: u8) -> i32 {
    let own = |t: usize| match color {
        Color::Gold => influence[t],
        Color::Silver => -influence[t],
    };
    let (left, right) = match color {
        Color::Gold => (own(2), own(3)),
        Color::Silver => (own(0), own(1)),
    };
    match file {
        0..=2 => left,
        3 => (left * 2 + right) / 3,
        4 => (right * 2 + left) / 3,
        _ => right,
    }
}

/// The rabbits of one side added up sub-additively: each rabbit's score spread over the seven
/// files centred on it with the squared shares of [`SPREAD`], then the square roots of the
/// files' sums added. One rabbit counts in full; two with equal scores on one file `√2` times
/// one; two three or more files apart nearly in full.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spread([f64; 8 + SPREAD.len() - 1]);

impl Spread {
    /// Adds a rabbit on `file` (0 .. 7) scoring `score`.
    pub fn add(&mut self, file: u8, score: f64) {
        let square = score * score;
        for (slot, share) in self.0[usize::from(file)..].iter_mut().zip(SPREAD) {
            *slot += square * share * share;
        }
    }

    /// The side's total.
    pub fn total(&self) -> f64 {
        self.0.iter().map(|s| s.sqrt()).sum()
    }
}

/// The rabbit goal threat of each side in sharp's units (see the module docs). Reads the
/// smooth trap control (`ctx.influence`) and the dominated pieces (`ctx.dominated`).
pub fn rabbit_goal_threat(pos: &Position, ctx: &Context) -> ByColor<i32> {
    let dominated = ctx.dominated[Color::Gold] | ctx.dominated[Color::Silver];
    let mut out = ByColor([0; 2]);
    for c in Color::ALL {
        let rabbits = pos.pieces_of(c, PieceKind::Rabbit);
        if rabbits.is_empty() {
            continue;
        }
        // The goal-area points, each wing's found for the first rabbit off its home rank
        // that needs it.
        let mut support = GoalAreaPoints::new(pos, c);
        let mut spread = Spread::default();
        // Silver's rabbits in gold's order mirrored, so that a position and its colour-
        // mirrored twin add up the same numbers in the same order (exact symmetry).
        let in_order = match c {
            Color::Gold => rabbits,
            Color::Silver => rabbits.flip_ranks(),
        };
        for mirrored in in_order {
            let sq = match c {
                Color::Gold => mirrored,
                Color::Silver => mirrored.flip_rank(),
            };
            let ydist = usize::from(sq.ranks_to_goal(c));
            if ydist == 0 || ydist >= 7 {
                continue;
            }
            let x = usize::from(fold(sq.file()));
            // Frozen × 3 + the unfreezing distance, at most 2 (0 when not frozen).
            let freedom = match steps_to_free(pos, c, ctx.frozen[c], sq) {
                0 => 0,
                uf => 3 + uf.min(2),
            };
            let control = wing_control(&ctx.influence, c, sq.file());
            let control_index = ((control * 15) / 50 + 30).clamp(0, 60) as usize;
            let trap = TRAP_BY_YDIST[ydist]
                * TRAP_BY_FILE[x]
                * FROZEN[freedom]
                * TRAP_CONTROL[control_index];
            let blocked = blockedness(pos, dominated, c, sq).clamp(0, 60) as usize;
            let points = support.on_file(sq.file());
            let goal = GOAL_BY_YDIST[ydist]
                * GOAL_BY_FILE[x]
                * FROZEN[freedom]
                * BLOCKED[blocked]
                * GOAL_SUPPORT[(points + 40).clamp(0, 80) as usize];
            spread.add(sq.file(), trap + goal);
        }
        out[c] = spread.total() as i32;
    }
    out
}

/// Whether the rabbit goal threat is computed: its weight or the variance adjustment's share
/// is not zero (the smooth trap control it reads is then needed).
pub fn is_used(w: &Weights) -> bool {
    w[id::rabbit_goal_pct] != 0 || w[id::variance_pct] != 0
}

/// The rabbit goal features of both sides (see the module docs), and the threat itself for
/// the variance adjustment ([`crate::variance`]): zero when neither the sink wants the
/// features nor `w` the adjustment.
pub fn rabbit_goal_features<S: Sink>(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    sink: &mut S,
) -> ByColor<i32> {
    if !sink.wants(id::rabbit_goal_pct) && w[id::variance_pct] == 0 {
        return ByColor([0; 2]);
    }
    let threat = rabbit_goal_threat(pos, ctx);
    for c in Color::ALL {
        if threat[c] != 0 {
            sink.add_share(c, id::rabbit_goal_pct, threat[c], 1000);
        }
    }
    threat
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// The blockedness as first written: a walk over the enemy pieces in the window, each
    /// weighed by its place, and over the wedged goal-rank squares one by one.
    fn blockedness_by_walk(pos: &Position, dominated: Bitboard, color: Color, sq: Square) -> i32 {
        let enemy = !color;
        let goal_rank = crate::goal::goal_rank(color);
        let theirs = pos.occupied_by(enemy);
        let rabbits = pos.pieces_of(enemy, PieceKind::Rabbit);
        let mut b = 0;
        for s in theirs {
            let Some((row, aside)) = window_place(color, sq, s) else {
                continue;
            };
            b += if goal_rank.contains(s) {
                RABBIT_BLOCKER[row][aside] + 1
            } else if rabbits.contains(s) {
                RABBIT_BLOCKER[row][aside]
            } else {
                crate::rabbit_threat::BLOCKER[row][aside]
            };
        }
        let (lo, hi) = ([0, 0, 0, 1, 2, 3, 4, 4], [3, 3, 4, 5, 6, 7, 7, 7]);
        let file = usize::from(sq.file());
        for at in goal_rank {
            if at.file() < lo[file] || at.file() > hi[file] {
                continue;
            }
            let Some(piece) = pos.piece_at(at) else {
                continue;
            };
            let closed = |f: i32| {
                !(0..8).contains(&f)
                    || pos
                        .piece_at(Square::new(f as u8, at.rank()))
                        .is_some_and(|p| p.color() == enemy)
            };
            let f = i32::from(at.file());
            if !(closed(f - 1) && closed(f + 1)) {
                continue;
            }
            let is_dominated = dominated.contains(at);
            if piece.color() == enemy {
                b += i32::from(!is_dominated);
            } else if is_dominated {
                b += own_brick(pos, dominated, color, sq, at);
            }
        }
        let near = usize::from(sq.ranks_to_goal(color) < 6);
        b + EDGE_BLOCKER[near][usize::from(fold(sq.file()))]
    }

    /// The blockedness by bit planes equals the walk over the pieces for every rabbit square
    /// of both sides, on the fixtures and random boards, with the dominated pieces as the
    /// evaluation finds them and with every piece counted dominated (so that the own pieces
    /// wedged in the goal rank are tried).
    #[test]
    fn blockedness_by_planes_equals_the_walk() {
        use rand::{rngs::SmallRng, SeedableRng};
        let mut positions = tusk_tests::fixture_positions();
        let mut rng = SmallRng::seed_from_u64(43);
        positions.extend((0..500).map(|_| tusk_tests::random_board(&mut rng, true)));
        let w = Weights::default();
        let (mut bricks, mut walled) = (0, 0);
        for p in &positions {
            let ctx = Context::new(p, &w);
            let found = ctx.dominated[Color::Gold] | ctx.dominated[Color::Silver];
            for dominated in [found, p.occupied()] {
                for c in Color::ALL {
                    for s in 0..64 {
                        let s = Square::from_index(s);
                        let walk = blockedness_by_walk(p, dominated, c, s);
                        assert_eq!(
                            blockedness(p, dominated, c, s),
                            walk,
                            "{c:?} rabbit on {s:?} in {p:?}"
                        );
                        walled += i32::from(walk > 20);
                    }
                    let goal = crate::goal::goal_rank(c);
                    bricks +=
                        ((p.occupied_by(c) & goal).neighbours() & p.occupied_by(!c) & goal).count();
                }
            }
        }
        assert!(walled > 1_000, "only {walled} walled-in squares seen");
        assert!(
            bricks > 100,
            "only {bricks} own pieces beside enemy pieces on a goal rank"
        );
    }

    fn threat(p: &Position) -> ByColor<i32> {
        let w = Weights::default();
        rabbit_goal_threat(p, &Context::new(p, &w))
    }

    fn blocked(p: &Position, c: Color, s: &str) -> i32 {
        let d = crate::trap_influence::dominated(p);
        blockedness(p, d[Color::Gold] | d[Color::Silver], c, sq(s))
    }

    #[test]
    fn one_rabbit_counts_in_full_and_rabbits_on_one_file_sub_additively() {
        let total = |rabbits: &[(u8, f64)]| {
            let mut s = Spread::default();
            for &(file, score) in rabbits {
                s.add(file, score);
            }
            s.total()
        };
        assert!((total(&[(3, 1000.0)]) - 1000.0).abs() < 1e-9);
        assert!((total(&[(0, 1000.0)]) - 1000.0).abs() < 1e-9);
        assert!((total(&[(3, 1000.0), (3, 1000.0)]) - 2f64.sqrt() * 1000.0).abs() < 1e-6);
        // Seven files apart nothing overlaps.
        assert!((total(&[(0, 1000.0), (7, 1000.0)]) - 2000.0).abs() < 1e-9);
        let neighbours = total(&[(3, 1000.0), (4, 1000.0)]);
        assert!(neighbours > 1400.0 && neighbours < 2000.0, "{neighbours}");
        assert_eq!(total(&[]), 0.0);
    }

    #[test]
    fn blockers_ahead_count_most_and_rabbits_and_the_goal_rank_less() {
        let alone = pos("g", &[("R", "d5"), ("E", "a1"), ("e", "h1")]);
        assert_eq!(blocked(&alone, Color::Gold, "d5"), 0);
        let dog = pos("g", &[("R", "d5"), ("d", "d6"), ("E", "a1"), ("e", "h1")]);
        assert_eq!(blocked(&dog, Color::Gold, "d5"), 10);
        let rabbit = pos("g", &[("R", "d5"), ("r", "d6"), ("E", "a1"), ("e", "h1")]);
        assert_eq!(blocked(&rabbit, Color::Gold, "d5"), 6);
        // On the goal rank a piece weighs as a rabbit, plus one.
        let goal = pos("g", &[("R", "d5"), ("d", "d8"), ("E", "a1"), ("e", "h1")]);
        assert_eq!(blocked(&goal, Color::Gold, "d5"), 4 + 1);
        // A thick goal rank: d8 between two enemy pieces is a brick (one more).
        let thick = pos(
            "g",
            &[
                ("R", "d5"),
                ("d", "c8"),
                ("d", "d8"),
                ("c", "e8"),
                ("E", "a1"),
                ("e", "h1"),
            ],
        );
        assert_eq!(
            blocked(&thick, Color::Gold, "d5"),
            (2 + 1) + (4 + 1) + (2 + 1) + 1
        );
        // The edge helps the defender, a little less on the rank next to home.
        let edge = pos("g", &[("R", "a5"), ("R", "a2"), ("E", "d1"), ("e", "h1")]);
        assert_eq!(blocked(&edge, Color::Gold, "a5"), 10);
        assert_eq!(blocked(&edge, Color::Gold, "a2"), 8);
        // Behind the rabbit only near pieces count; outside the window nothing does.
        let behind = pos(
            "g",
            &[
                ("R", "d5"),
                ("d", "d4"),
                ("h", "d1"),
                ("E", "a1"),
                ("e", "h1"),
            ],
        );
        assert_eq!(blocked(&behind, Color::Gold, "d5"), 4);
        // Silver's view mirrors gold's.
        assert_eq!(blocked(&thick.flip(), Color::Silver, "d4"), 12);
    }

    #[test]
    fn goal_area_points_go_to_the_side_holding_the_strongest_pieces_there() {
        // Gold's elephant on b7, alone in the area round gold's left goal squares: 7 + 28 +
        // 24 + 16 + 8 for the strongest kind over the five disks, plus its presence (2 at
        // weights 3, 2, 1), halved.
        let lone = pos("s", &[("E", "b7"), ("e", "h1"), ("R", "a2")]);
        assert_eq!(goal_area_points(&lone, Color::Gold, 0), (83 + 12) / 2);
        // The centre squares d7/e7 are two steps away: no points in the first disk.
        assert_eq!(goal_area_points(&lone, Color::Gold, 1), (76 + 12) / 2);
        // Silver's elephant beside it: the elephants cancel, and nothing else is there.
        let both = pos("s", &[("E", "b7"), ("e", "b8"), ("R", "a2")]);
        assert_eq!(goal_area_points(&both, Color::Gold, 0), 0);
        // Silver's horse alone near gold's left goal squares: the points are silver's.
        let horse = pos("s", &[("E", "h2"), ("e", "h1"), ("h", "b8"), ("R", "a2")]);
        assert!(goal_area_points(&horse, Color::Gold, 0) < 0);
        // Silver's goal areas mirror gold's.
        assert_eq!(
            goal_area_points(&lone.flip(), Color::Silver, 0),
            goal_area_points(&lone, Color::Gold, 0)
        );
    }

    #[test]
    fn a_free_rabbit_near_a_goal_its_side_holds_is_a_big_threat_and_a_walled_one_is_not() {
        let free = pos("s", &[("R", "b6"), ("E", "c7"), ("e", "g2"), ("r", "h7")]);
        let walled = pos(
            "s",
            &[
                ("R", "b6"),
                ("E", "c7"),
                ("e", "g2"),
                ("h", "a7"),
                ("d", "b7"),
                ("m", "b8"),
                ("c", "a8"),
                ("r", "h7"),
            ],
        );
        let (f, w) = (threat(&free)[Color::Gold], threat(&walled)[Color::Gold]);
        // More than a rabbit (1,000) when free, a small fraction of that when walled in.
        assert!(f > 1500, "free {f}");
        assert!(w * 4 < f, "walled {w} vs free {f}");
        // Two ranks further back it is worth less.
        let back = pos("s", &[("R", "b4"), ("E", "c7"), ("e", "g2"), ("r", "h7")]);
        let b = threat(&back)[Color::Gold];
        assert!(b < f * 3 / 4, "back {b} vs free {f}");
        // Rabbits on their home rank are no threat.
        let home = pos("s", &[("R", "b1"), ("R", "c1"), ("E", "c7"), ("e", "g2")]);
        assert_eq!(threat(&home)[Color::Gold], 0);
    }

    #[test]
    fn a_frozen_rabbit_threatens_less_than_a_free_one() {
        // The gold rabbit on c5 frozen by the silver dog on b5, or free with the dog on a6.
        let frozen = pos(
            "s",
            &[
                ("R", "c5"),
                ("d", "b5"),
                ("E", "h2"),
                ("e", "h1"),
                ("r", "h8"),
            ],
        );
        let free = pos(
            "s",
            &[
                ("R", "c5"),
                ("d", "a6"),
                ("E", "h2"),
                ("e", "h1"),
                ("r", "h8"),
            ],
        );
        assert!(frozen.frozen(Color::Gold).contains(sq("c5")));
        // (The dog beside it also blocks more: 7, against 4 on a6.)
        assert!(threat(&frozen)[Color::Gold] < threat(&free)[Color::Gold]);
        assert!(FROZEN[3..].iter().all(|&f| f < FROZEN[0]));
    }

    #[test]
    fn colours_mirror_exactly() {
        let positions = [
            pos(
                "s",
                &[
                    ("R", "b6"),
                    ("R", "e5"),
                    ("R", "f5"),
                    ("E", "c5"),
                    ("e", "g2"),
                    ("h", "a7"),
                    ("r", "e4"),
                    ("r", "h7"),
                    ("r", "c2"),
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
