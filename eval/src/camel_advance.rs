//! Camel advance: a side's camel (its strongest kind below the elephant, when it has exactly one
//! piece of that kind) standing far forward near the enemy elephant with few friends around,
//! where the elephant can push it about and drag it to a trap over the next turns. A penalty.
//!
//! For the side's camel on square `m`, with the enemy elephant on `e` and its own on `o`:
//!
//! ```text
//! penalty = (near(e, m) × square(m) × crowd × own_elephant / 4096)
//!           × trap(left) × trap(right) / 4096 × frozen / 4096 × 4 / 3
//! ```
//!
//! in millirabbits, integer arithmetic in that order, where:
//!
//! * `near` is 0 to 310: by the elephants' files (`FILE_NEAR`, 120 on the same wing to 0 on
//!   the far one) plus by their Manhattan distance (`DISTANCE_NEAR`, 190 beside to 0 from nine
//!   steps on);
//! * `square` (0 to 80, in 64ths) by the camel's square, from its own side's view: 0 on its
//!   two home ranks, most on the sixth rank (`SQUARE`);
//! * `crowd` (64 alone down to 0) by the own pieces around and ahead of it: 2 for each behind
//!   it (diagonally or straight), 4 beside it, 2 two files away; ahead, on every rank up to the
//!   goal, 6 straight or diagonally ahead, 3 two files to a side, half as much again on the
//!   rank before the goal rank (`CROWD`; the own elephant counts);
//! * `own_elephant` (48 to 72) by its distance from its own elephant (`OWN_ELEPHANT`: far
//!   from help is worse);
//! * `trap(left)`, `trap(right)` (64 down to 5, one per enemy home trap): the side's hold on
//!   that trap, by its smooth control `c` ([`crate::trap_influence`]) and by what that
//!   control would be without the enemy elephant (`c` plus the elephant's share,
//!   [`crate::trap_influence::elephant_influence`]), each read in steps of 5 from `TRAP_HOLD`
//!   and averaged; a held trap lessens the penalty, fully for the trap diagonally across from
//!   a camel on the other wing, little for the trap on the camel's own wing (`DIAGONAL`);
//! * `frozen` is 72 when the camel is frozen, else 64.
//!
//! The feature, for the side itself: minus the penalty in rabbits (millirabbits / 1000), so a
//! weight of 100 counts it as sharp does. The weight ships at 0 for the tuner.
//!
//! The idea and the numbers come from sharp's `Placement::getSheriffAdvancementThreat` (David
//! Wu); the code here is Tusk's own.

use tusk_engine::{Color, Position, Square};

use crate::alignment::{advanced, elephants};
use crate::imbalance::ranks_below_elephant;
use crate::trap_influence::elephant_influence;
use crate::traps::is_home_trap;
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// Closeness by the files of the enemy elephant and the camel: `FILE_STEPS[elephant][camel]`
/// indexes [`FILE_NEAR`].
const FILE_STEPS: [[usize; 8]; 8] = [
    [0, 0, 2, 3, 5, 6, 7, 7],
    [0, 0, 2, 3, 5, 6, 7, 7],
    [1, 1, 0, 2, 4, 5, 6, 6],
    [3, 3, 1, 0, 2, 4, 5, 5],
    [5, 5, 4, 2, 0, 1, 3, 3],
    [6, 6, 5, 4, 2, 0, 1, 1],
    [7, 7, 6, 5, 3, 2, 0, 0],
    [7, 7, 6, 5, 3, 2, 0, 0],
];

/// The base penalty by [`FILE_STEPS`], millirabbits.
const FILE_NEAR: [i32; 8] = [120, 100, 80, 60, 45, 20, 5, 0];

/// The base penalty by the Manhattan distance of the enemy elephant and the camel,
/// millirabbits.
const DISTANCE_NEAR: [i32; 15] = [190, 190, 170, 150, 110, 75, 40, 20, 10, 0, 0, 0, 0, 0, 0];

/// The camel's square, `[ranks advanced][file]`, in 64ths.
const SQUARE: [[i32; 8]; 8] = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [6, 8, 8, 12, 12, 8, 8, 6],
    [20, 22, 28, 26, 26, 28, 22, 20],
    [40, 46, 52, 54, 54, 52, 46, 40],
    [68, 72, 64, 80, 80, 64, 72, 68],
    [54, 66, 60, 78, 78, 60, 66, 54],
    [16, 36, 42, 56, 56, 42, 36, 16],
];

/// How much the side's hold on an enemy trap counts, `[ranks advanced][files]`, the camel's
/// files counted from the board's edge on the other wing from the trap (a camel on the far
/// wing, diagonally across, counts its hold fully), in 64ths.
const DIAGONAL: [[i32; 8]; 8] = [
    [64, 64, 64, 50, 38, 22, 20, 20],
    [64, 64, 64, 50, 38, 22, 20, 20],
    [64, 64, 60, 50, 38, 22, 20, 20],
    [64, 64, 56, 40, 32, 22, 14, 12],
    [64, 64, 56, 40, 20, 24, 10, 10],
    [64, 64, 64, 30, 10, 0, 16, 8],
    [64, 64, 64, 40, 24, 30, 8, 8],
    [64, 64, 64, 40, 24, 20, 10, 8],
];

/// The penalty left by the side's control of an enemy trap, in steps of 5 (from -40 for the
/// control, from -20 for the control without the enemy elephant), in 64ths.
const TRAP_HOLD: [i32; 21] = [
    64, 64, 64, 64, 62, 59, 55, 51, 47, 43, 39, 35, 31, 27, 23, 20, 16, 12, 9, 7, 5,
];

/// The penalty left by the crowd of own pieces around the camel (25 or more: none), in 64ths.
const CROWD: [i32; 26] = [
    64, 61, 58, 55, 52, 49, 46, 43, 41, 38, 36, 33, 30, 27, 24, 21, 19, 17, 15, 14, 13, 12, 12, 12,
    12, 0,
];

/// The penalty by the camel's Manhattan distance from its own elephant, in 64ths.
const OWN_ELEPHANT: [i32; 15] = [48, 48, 50, 52, 54, 58, 62, 64, 67, 68, 69, 70, 71, 72, 72];

/// The penalty for a frozen camel, in 64ths (64 when not frozen).
const FROZEN: i32 = 72;

/// Whether the term's weight is not zero (the smooth trap control it reads is then needed).
pub fn is_used(w: &Weights) -> bool {
    w[id::camel_advance_pct] != 0
}

/// The index of `value / 5 + offset` (rounded toward zero, as sharp's integer division) in a
/// table of 21.
fn hold_index(value: i32, offset: i32) -> usize {
    (value / 5 + offset).clamp(0, 20) as usize
}

/// The crowd of `c`'s own pieces around and ahead of its piece on `sq` (see the module docs).
fn crowd(pos: &Position, c: Color, sq: Square) -> i32 {
    let own = pos.occupied_by(c);
    let (file, adv) = (i32::from(sq.file()), advanced(c, sq) as i32);
    // The own piece `df` files across and `dr` ranks ahead (from `c`'s view), if on the board.
    let at = |df: i32, dr: i32| -> i32 {
        let (f, a) = (file + df, adv + dr);
        if !(0..8).contains(&f) || !(0..8).contains(&a) {
            return 0;
        }
        let rank = match c {
            Color::Gold => a,
            Color::Silver => 7 - a,
        };
        i32::from(own.contains(Square::new(f as u8, rank as u8)))
    };
    let mut n = 2 * (at(-1, -1) + at(0, -1) + at(1, -1) + at(-2, 0) + at(2, 0))
        + 4 * (at(-1, 0) + at(1, 0));
    let to_goal = 7 - adv;
    for dr in 1..=to_goal {
        let mut row = 3 * (at(-2, dr) + at(2, dr)) + 6 * (at(-1, dr) + at(0, dr) + at(1, dr));
        if dr == to_goal - 1 {
            row = row * 3 / 2;
        }
        n += row;
    }
    n
}

/// The camel-advance penalty of `c`, millirabbits (see the module docs); 0 when `c` has not
/// exactly one piece of its strongest kind below the elephant, or either side lacks its
/// elephant.
pub fn penalty(pos: &Position, ctx: &Context, w: &Weights, c: Color) -> i32 {
    let camels = ranks_below_elephant(pos, c)[0];
    if camels.count() != 1 {
        return 0;
    }
    let Some(elephants) = elephants(pos) else {
        return 0;
    };
    let m = camels.into_iter().next().expect("one piece");
    let (file, adv) = (usize::from(m.file()), advanced(c, m));
    let square = SQUARE[adv][file];
    if square == 0 {
        return 0;
    }
    let e = elephants[!c];
    let near = FILE_NEAR[FILE_STEPS[usize::from(e.file())][file]]
        + DISTANCE_NEAR[usize::from(e.distance(m)).min(14)];
    let crowd = CROWD[crowd(pos, c, m).min(25) as usize];
    let own = OWN_ELEPHANT[usize::from(elephants[c].distance(m)).min(14)];

    let enemy_elephant = elephant_influence(pos, ctx, w, !c);
    let mut traps = [64i32; 2];
    for (t, trap) in Square::TRAPS.iter().enumerate() {
        if is_home_trap(t, c) {
            continue;
        }
        let control = match c {
            Color::Gold => ctx.influence[t],
            Color::Silver => -ctx.influence[t],
        };
        let without_elephant = control.saturating_add(enemy_elephant[t]);
        let hold =
            (TRAP_HOLD[hold_index(control, 8)] + TRAP_HOLD[hold_index(without_elephant, 4)]) / 2;
        // The west trap (file c) is diagonally across from a camel on the east, and the east
        // one (file f) from a camel on the west.
        let (wing, across) = if trap.file() < 4 {
            (0, 7 - file)
        } else {
            (1, file)
        };
        traps[wing] = 64 - (64 - hold) * DIAGONAL[adv][across] / 64;
    }
    let frozen = if ctx.frozen[c].contains(m) {
        FROZEN
    } else {
        64
    };
    let mut p = near * square * crowd * own / 4096;
    p = p * traps[0] * traps[1] / 4096;
    p = p * frozen / 4096;
    p * 4 / 3
}

/// The camel-advance features of both sides (see the module docs). Reads the smooth control,
/// `ctx.influence`; nothing is computed when the sink does not want the weight.
pub fn camel_advance_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::camel_advance_pct) {
        return;
    }
    for c in Color::ALL {
        let p = penalty(pos, ctx, w, c);
        if p != 0 {
            sink.add_share(c, id::camel_advance_pct, -p, 1000);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::ByColor;

    /// Each side's penalty (millirabbits) with the shipped weights' trap control.
    fn penalties(p: &Position) -> ByColor<i32> {
        let w = Weights::default();
        let ctx = Context::new(p, &w);
        ByColor([
            penalty(p, &ctx, &w, Color::Gold),
            penalty(p, &ctx, &w, Color::Silver),
        ])
    }

    /// Both elephants and a rabbit each, with the gold camel on `camel` and `extra` pieces.
    fn camel_at(camel: &str, extra: &[(&str, &str)]) -> Position {
        let mut list = vec![
            ("M", camel),
            ("E", "b2"),
            ("e", "d4"),
            ("m", "h8"),
            ("R", "a1"),
            ("r", "a8"),
        ];
        list.extend_from_slice(extra);
        pos("s", &list)
    }

    #[test]
    fn a_lone_camel_far_forward_beside_the_enemy_elephant_is_penalised() {
        let forward = penalties(&camel_at("d5", &[]))[Color::Gold];
        assert!(forward > 100, "{forward}");
        // At home, nothing; farther from the enemy elephant, less.
        assert_eq!(penalties(&camel_at("d2", &[]))[Color::Gold], 0);
        let away = penalties(&camel_at("h5", &[]))[Color::Gold];
        assert!(away < forward, "{away} {forward}");
    }

    #[test]
    fn friends_around_and_ahead_of_the_camel_lessen_it() {
        let alone = penalties(&camel_at("d5", &[]))[Color::Gold];
        let one = penalties(&camel_at("d5", &[("H", "c5")]))[Color::Gold];
        let three =
            penalties(&camel_at("d5", &[("H", "c5"), ("H", "e5"), ("D", "d6")]))[Color::Gold];
        assert!(alone > one && one > three, "{alone} {one} {three}");
    }

    #[test]
    fn only_a_single_strongest_piece_below_the_elephant_counts() {
        // Without a camel the horse stands in for it; two horses share the job: no penalty.
        let horse = pos(
            "s",
            &[
                ("H", "d5"),
                ("E", "b2"),
                ("e", "d4"),
                ("R", "a1"),
                ("r", "a8"),
            ],
        );
        assert!(penalties(&horse)[Color::Gold] > 0);
        let two = pos(
            "s",
            &[
                ("H", "d5"),
                ("H", "g2"),
                ("E", "b2"),
                ("e", "d4"),
                ("R", "a1"),
                ("r", "a8"),
            ],
        );
        assert_eq!(penalties(&two)[Color::Gold], 0);
        // No enemy elephant: nothing to fear.
        let alone = pos("s", &[("M", "d5"), ("E", "b2"), ("R", "a1"), ("r", "a8")]);
        assert_eq!(penalties(&alone)[Color::Gold], 0);
    }

    #[test]
    fn colours_mirror_exactly() {
        let p = camel_at("d5", &[("H", "c5"), ("d", "e6")]);
        let q = p.flip();
        let (a, b) = (penalties(&p), penalties(&q));
        assert_eq!(a[Color::Gold], b[Color::Silver]);
        assert_eq!(a[Color::Silver], b[Color::Gold]);
    }

    /// Two positions of a lost ladder game (the gold camel pushed up the d-file by sharp's
    /// elephant), with sharp's own values of this penalty from its developer mode's `evalPos`
    /// (`SheriffScore`, millirabbits): Tusk's trap control differs slightly from sharp's, so
    /// within 15.
    #[test]
    fn it_agrees_with_sharp_on_a_dragged_camel() {
        for (aei, gold, silver) in [
            (
                "s [rrrrrrrrd c mc d h M      H        e Eh       H D C  CD RRRRRRRR]",
                369,
                0,
            ),
            (
                "g [rrrrrrrrd cM c d h em     H          Eh       H D C  CD RRRRRRRR]",
                513,
                25,
            ),
        ] {
            let got = penalties(&parse_aei(aei).unwrap());
            assert!((got[Color::Gold] - gold).abs() <= 15, "{aei}: {got:?}");
            assert!((got[Color::Silver] - silver).abs() <= 15, "{aei}: {got:?}");
        }
    }
}
