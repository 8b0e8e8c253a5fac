//! Alignment: each of a side's three strongest ranks of pieces drawn towards the enemy pieces
//! it is the next stronger than (the pieces it "barely dominates", which it can push and pull
//! and which nothing weaker of its side can), most where those enemy pieces have advanced.
//!
//! For each side with both elephants on the board, its ranks from the elephant down are taken
//! in turn (the elephant, then its next-strongest kind present, then the next: three at most,
//! cats and rabbits never). Each rank's **target** is the strongest enemy kind weaker than it
//! (not a rabbit). Every pair of a piece of the rank and a piece of the target adds
//!
//! `share × goal(target) × (closeness(d) − 24) / 4096`
//!
//! to the feature of the rank's index (`alignment.0` for the elephant, `.1`, `.2`), where
//!
//! * `share` is 1, × 3/5 when the side has a weaker kind that still outranks the target,
//!   × 3/2 when it has no piece of the target's kind, × 2/3 when it has two of the rank, and
//!   × 2/3 when the enemy has two of the target;
//! * `goal(target)` is 58, 64, 64, 52, 40, 28, 20, 16 by the target's ranks from its own goal
//!   (0 .. 7): a target that has advanced towards the side's home matters most;
//! * `d` is the alignment distance: twice the steps to stand beside the target (the
//!   Manhattan distance less one, at most 9), plus the horizontal distance weighted by how far
//!   forward the piece stands (a file counts 3/4, 1/2, 1/4, 1/4, 1/2, 1, 1, 1 by ranks
//!   advanced; for the elephant 3/4, 3/4, 1/2, 1/4, 1/4, 1/2, 3/4, 3/4), and for a piece
//!   other than the elephant 2 more when the enemy elephant stands between it and the target
//!   on its rank (within a rank), 1 more on its file; `closeness(d)` falls from 64 at 0 to 0
//!   at 25. Pairs farther than about 12 count against the side (the shift of 24 keeps the
//!   term centred, so that advancing is not a penalty in itself).
//!
//! The feature is in these units (sharp's alignment score at one unit of weight per
//! centirabbit: a weight of 38 gives the elephant's pairs their full value); the weights ship
//! at 0 for the tuner, with sharp's values as a prior ([`SHARP_ALIGNMENT`]).
//!
//! The idea and the numbers come from sharp's `Placement::getAlignmentScore` (David Wu); the
//! distance here is Tusk's own and simpler (a Manhattan distance, where sharp walks around
//! pieces and counts the unfreezing steps).

use tusk_engine::{ByColor, Color, PieceKind, Position, Square};

use crate::weights::id;
use crate::Sink;

/// sharp's weights by rank index (`ALIGN_STRENGTH_VALUES` 380, 640, 300 millirabbits), in
/// centirabbits: a prior for `alignment`.
pub const SHARP_ALIGNMENT: [i32; 3] = [38, 64, 30];

/// The factor by the target's ranks from its own goal (`ALIGN_OPP_GDIST_FACTOR`).
const GOAL_FACTOR: [i32; 8] = [58, 64, 64, 52, 40, 28, 20, 16];

/// Closeness by alignment distance (`ALIGN_DISTANCE_FACTOR`), 0 from 25 on.
const CLOSENESS: [i32; 32] = [
    64, 62, 60, 58, 56, 53, 50, 47, 44, 40, 35, 30, 26, 22, 19, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1, 0,
    0, 0, 0, 0, 0, 0,
];

/// What closeness is centred on (`ALIGN_DISTANCE_SHIFT`).
const SHIFT: i32 = 24;

/// The horizontal distance's weight in quarters, by ranks advanced: a piece other than the
/// elephant, and the elephant.
const FILE_WEIGHT: [i32; 8] = [3, 2, 1, 1, 2, 4, 4, 4];
const ELEPHANT_FILE_WEIGHT: [i32; 8] = [3, 3, 2, 1, 1, 2, 3, 3];

/// The share's scale: 3/5, 3/2 and 2/3 of it are whole numbers in every combination.
const SHARE: i32 = 3600;

/// The feature's denominator: the share's scale times 4096.
const DENOMINATOR: i32 = SHARE * 4096;

/// Ranks `sq` stands advanced from `c`'s home rank, as an index.
pub(crate) fn advanced(c: Color, sq: Square) -> usize {
    usize::from(sq.ranks_from_home(c))
}

/// The alignment distance of a piece of kind `kind` on `from` to a target on `to`, with the
/// enemy elephant on `enemy_elephant` (see the module docs).
pub fn distance(
    c: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
    enemy_elephant: Square,
) -> usize {
    let (fx, fy) = (i32::from(from.file()), i32::from(from.rank()));
    let (tx, ty) = (i32::from(to.file()), i32::from(to.rank()));
    let (ex, ey) = (
        i32::from(enemy_elephant.file()),
        i32::from(enemy_elephant.rank()),
    );
    let manhattan = (fx - tx).abs() + (fy - ty).abs();
    let mut d = 2 * (manhattan - 1).clamp(0, 9);
    let weight = if kind == PieceKind::Elephant {
        ELEPHANT_FILE_WEIGHT
    } else {
        if (fy - ey).abs() <= 1 && (ex - fx) * (ex - tx) < 0 {
            d += 2;
        }
        if fx == ex && (ey - fy) * (ey - ty) < 0 {
            d += 1;
        }
        FILE_WEIGHT
    };
    d += (fx - tx).abs() * weight[advanced(c, from)] / 4;
    d.clamp(0, 31) as usize
}

/// Each side's elephant's square, when both sides have theirs.
pub(crate) fn elephants(pos: &Position) -> Option<ByColor<Square>> {
    let gold = pos
        .pieces_of(Color::Gold, PieceKind::Elephant)
        .into_iter()
        .next()?;
    let silver = pos
        .pieces_of(Color::Silver, PieceKind::Elephant)
        .into_iter()
        .next()?;
    Some(ByColor([gold, silver]))
}

/// The alignment features of both sides (see the module docs). Nothing is computed when the
/// sink wants none of them.
pub fn alignment_features<S: Sink>(pos: &Position, sink: &mut S) {
    if !(0..SHARP_ALIGNMENT.len()).any(|s| sink.wants(id::alignment.at(s))) {
        return;
    }
    let Some(elephants) = elephants(pos) else {
        return;
    };
    for c in Color::ALL {
        let enemy_elephant = elephants[!c];
        let count = |side: Color, k: PieceKind| pos.pieces_of(side, k).count();
        let mut rank_index = 0;
        for kind in [
            PieceKind::Elephant,
            PieceKind::Camel,
            PieceKind::Horse,
            PieceKind::Dog,
        ] {
            if count(c, kind) == 0 {
                continue;
            }
            let Some(target) = (1..kind as usize)
                .rev()
                .map(|i| PieceKind::ALL[i])
                .find(|&t| count(!c, t) > 0)
            else {
                break;
            };
            let mut share = SHARE;
            if (target as usize + 1..kind as usize).any(|i| count(c, PieceKind::ALL[i]) > 0) {
                share = share * 3 / 5;
            }
            if count(c, target) == 0 {
                share = share * 3 / 2;
            }
            if count(c, kind) >= 2 {
                share = share * 2 / 3;
            }
            if count(!c, target) >= 2 {
                share = share * 2 / 3;
            }
            let mut num = 0;
            for from in pos.pieces_of(c, kind) {
                for to in pos.pieces_of(!c, target) {
                    let d = distance(c, kind, from, to, enemy_elephant);
                    let goal = GOAL_FACTOR[7 - advanced(!c, to)];
                    num += share * goal * (CLOSENESS[d] - SHIFT);
                }
            }
            if num != 0 {
                sink.add_share(c, id::alignment.at(rank_index), num, DENOMINATOR);
            }
            rank_index += 1;
            if rank_index == SHARP_ALIGNMENT.len() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{features, Features, Weights};

    fn with_sharp_alignment() -> Weights {
        let mut w = Weights::default();
        for (s, &v) in SHARP_ALIGNMENT.iter().enumerate() {
            w[id::alignment.at(s)] = v;
        }
        w
    }

    /// `c`'s own feature for rank index `s`.
    fn get(f: &Features, c: Color, s: usize) -> f64 {
        f.values[id::alignment.at(s).index()][c.index()]
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Gold's elephant beside silver's camel (its target) scores more than far from it, and
    /// more than beside a camel still at home: the feature grows with closeness and with the
    /// target's advance, and turns negative far away.
    #[test]
    fn an_elephant_near_an_advanced_enemy_camel_is_aligned() {
        let w = with_sharp_alignment();
        let score = |e: &str, m: &str| {
            let p = pos(
                "g",
                &[("E", e), ("M", "b1"), ("e", "h8"), ("m", m), ("r", "a8")],
            );
            get(&features(&p, &w), Color::Gold, 0)
        };
        let near = score("d4", "d5");
        let far = score("a1", "d5");
        let near_home = score("d7", "d8");
        // Beside it (distance 0, closeness 64 - 24), the camel four ranks from its goal.
        assert_eq!(near, 40.0 * 40.0 / 4096.0);
        assert_eq!(near_home, 16.0 * 40.0 / 4096.0);
        assert!(far < 0.0, "{far}");
    }

    /// Only the strongest enemy kind below each rank is its target: with no silver camel,
    /// gold's elephant and camel both target the horse (the dog is nobody's), the elephant's
    /// share × 3/5 (gold's camel still outranks the horse) and both × 3/2 (gold has no horse).
    #[test]
    fn the_target_is_the_strongest_weaker_enemy_kind() {
        let p = pos(
            "g",
            &[
                ("E", "d4"),
                ("M", "a1"),
                ("e", "h8"),
                ("h", "d5"),
                ("d", "a2"),
            ],
        );
        let f = features(&p, &with_sharp_alignment());
        let elephant = 3.0 / 5.0 * 3.0 / 2.0 * 40.0 * 40.0 / 4096.0;
        assert!((get(&f, Color::Gold, 0) - elephant).abs() < 1e-12);
        // a1 to d5: twice 6 steps to stand beside it, 3 files at 3/4 (rounded down): 14,
        // closeness 19.
        assert_eq!(
            distance(Color::Gold, PieceKind::Camel, sq("a1"), sq("d5"), sq("h8")),
            14
        );
        let camel = 3.0 / 2.0 * 40.0 * (19.0 - 24.0) / 4096.0;
        assert!((get(&f, Color::Gold, 1) - camel).abs() < 1e-12);
        assert_eq!(get(&f, Color::Gold, 2), 0.0);
    }

    /// The enemy elephant between a piece and its target lengthens the distance, except
    /// for the elephant itself.
    #[test]
    fn the_enemy_elephant_in_the_way_adds_distance() {
        let d = |kind, e: &str| distance(Color::Gold, kind, sq("b4"), sq("f4"), sq(e));
        let clear = d(PieceKind::Camel, "d8");
        assert_eq!(d(PieceKind::Camel, "d5"), clear + 2);
        assert_eq!(d(PieceKind::Elephant, "d5"), clear);
        let on_file = distance(Color::Gold, PieceKind::Horse, sq("c2"), sq("c6"), sq("c4"));
        assert_eq!(on_file, 2 * 3 + 1);
    }

    /// Mirrored colours give mirrored features; the tuner sees them at zero weights too.
    #[test]
    fn colours_mirror_exactly_and_features_are_recorded_at_zero_weights() {
        let w = with_sharp_alignment();
        let mut seen = 0;
        for p in [
            crate::test_util::opening(),
            crate::test_util::seed_diagram("g"),
        ] {
            let f = features(&p, &w);
            let m = features(&p.flip(), &w);
            for s in 0..3 {
                for c in Color::ALL {
                    assert_eq!(get(&f, c, s), get(&m, !c, s));
                    seen += usize::from(get(&f, c, s) != 0.0);
                }
            }
        }
        assert!(seen >= 4, "{seen}");
        let p = pos("g", &[("E", "d4"), ("e", "h8"), ("m", "d5")]);
        assert!(get(&features(&p, &Weights::hand_set()), Color::Gold, 0) > 0.0);
    }
}
