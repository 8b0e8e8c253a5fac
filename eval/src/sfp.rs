//! The strongest-free-piece balance: what a structure (a hostage, a frame) is worth by the
//! pieces it ties down on both sides, as sharp (David Wu, `eval/evalstrats.cpp`) reckons it.
//!
//! Each side's pieces are counted by kind in fixed point ([`Counts`], [`ONE`] a piece), and
//! the pieces a structure ties down are taken off in part. [`sfp_score`] then compares the two
//! armies from the top: kinds grouped from the elephant down while one side has none of the
//! next, each group a tier whose value falls steeply (500, 140, 50, ... of sharp's units, a
//! rabbit about 1,000), shared by how the two sides' counts in it compare. A logistic of the
//! score ([`logistic`]) is the share of the tied-down piece's value the structure earns.
//! [`advancement_factor`] (0.7 to 1.2) says whether the side's pieces that gain by the
//! structure stand free to use it: away from the structure, off the home ranks, central.
//!
//! The tables are sharp's; the code is Tusk's own, in fixed point where sums are taken over
//! pieces, so that a position and its colour-mirrored twin score exactly the same.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square};

use crate::trap_influence::steps_to_free;
use crate::Context;

/// The kind of the piece on `sq`, a square the caller knows is occupied (a rabbit if it is
/// not): the structures' valuations read the kinds of the pieces they tie down.
#[inline]
pub fn kind_at(pos: &Position, sq: Square) -> PieceKind {
    pos.piece_at(sq).map_or(PieceKind::Rabbit, |p| p.kind())
}

/// One piece in the fixed-point counts of [`Counts`]: 100 × 4096 × 2, so that every share
/// the structures take off is a whole number.
pub const ONE: i64 = 819_200;

/// The advancement factor's percent by distance from the trap, ranks to goal and distance from
/// the centre (sharp's `SFPAdvGood_Percent_Rad`, `_GYDist`, `_Centrality`).
const ADVANCE_BY_DISTANCE: [i64; 16] = [
    30, 40, 58, 76, 84, 91, 96, 100, 100, 100, 100, 100, 100, 100, 100, 100,
];
const ADVANCE_BY_GOAL: [i64; 8] = [80, 100, 100, 95, 90, 85, 70, 50];
const ADVANCE_BY_CENTRE: [i64; 7] = [100, 100, 100, 86, 70, 50, 30];

/// How much a kind gains from a structure against the weakest kind it ties down, by their
/// difference in rank + 6 (sharp's `ADVGOODDIFFTABLE`).
const ADVANCE_BY_RANK_GAP: [f64; 13] = [
    3.0, 3.0, 3.0, 2.9, 2.8, 2.5, 1.0, 0.5, 0.35, 0.18, 0.10, 0.10, 0.10,
];

/// The value of a tier of the strongest-free-piece count (sharp's `SFP_TIER_VAL`).
const TIER_VALUE: [f64; 10] = [500.0, 140.0, 50.0, 20.0, 10.0, 5.0, 2.0, 1.0, 1.0, 1.0];

/// The share of a tier's value by the two sides' counts in it, in percent (sharp's
/// `SFP_TIER_PROP`): `[ours][theirs]`.
const TIER_SHARE: [[f64; 10]; 10] = [
    [
        0., -100., -200., -290., -370., -440., -500., -550., -590., -620.,
    ],
    [
        100., 0., -50., -120., -190., -250., -300., -340., -370., -390.,
    ],
    [200., 50., 0., -20., -70., -120., -160., -200., -230., -220.],
    [290., 120., 20., 0., -10., -40., -80., -110., -140., -160.],
    [370., 190., 70., 10., 0., -5., -25., -60., -90., -120.],
    [440., 250., 120., 40., 5., 0., -2., -20., -50., -70.],
    [500., 300., 160., 80., 25., 2., 0., -1., -15., -40.],
    [550., 340., 200., 110., 60., 15., 1., 0., -1., -10.],
    [590., 370., 230., 140., 100., 50., 15., 1., 0., 0.],
    [620., 390., 220., 160., 120., 70., 40., 10., 0., 0.],
];

/// Pieces of each kind, in fixed point ([`ONE`] a piece), indexed by [`PieceKind::index`].
pub type Counts = [i64; PieceKind::NUM];

/// `color`'s pieces of each kind, whole ([`ONE`] each).
pub fn army(pos: &Position, color: Color) -> Counts {
    let mut counts: Counts = [0; PieceKind::NUM];
    for kind in PieceKind::ALL {
        counts[kind.index()] = i64::from(pos.count(color, kind)) * ONE;
    }
    counts
}

/// A table of gold's side read for `color`'s square `sq`.
#[inline]
pub fn from_side<T: Copy>(table: &[[T; 8]; 8], color: Color, sq: Square) -> T {
    let rank = match color {
        Color::Gold => sq.rank(),
        Color::Silver => 7 - sq.rank(),
    };
    table[usize::from(rank)][usize::from(sq.file())]
}

/// One tier's score: [`TIER_SHARE`] by the counts, times [`TIER_VALUE`] by the tier,
/// interpolated between whole counts and tiers, in sharp's unit.
fn tier_score(tier: f64, ours: f64, theirs: f64) -> i32 {
    let split = |x: f64| {
        let whole = (x.max(0.0) as usize).min(8);
        (whole, (x - whole as f64).clamp(0.0, 1.0))
    };
    let (t0, tf) = split(tier);
    let (p0, pf) = split(ours);
    let (o0, of) = split(theirs);
    let row = |p: usize| TIER_SHARE[p][o0] * (1.0 - of) + TIER_SHARE[p][o0 + 1] * of;
    let share = row(p0) * (1.0 - pf) + row(p0 + 1) * pf;
    let value = TIER_VALUE[t0] * (1.0 - tf) + TIER_VALUE[t0 + 1] * tf;
    (share * value / 100.0).round() as i32
}

/// The strongest-free-piece score of `ours` against `theirs` (sharp's `computeSFPScore`):
/// from the elephant down to the cats, kinds grouped while one side has none, each group a
/// tier scored by `tier_score`; positive when our strongest pieces outnumber theirs. The
/// unit is sharp's (a rabbit about 1,000).
pub fn sfp_score(ours: &Counts, theirs: &Counts) -> i32 {
    let count = |c: &Counts, k: usize| c[k] as f64 / ONE as f64;
    let mut score = 0;
    let mut tier = 0.0;
    let mut k = PieceKind::Elephant.index();
    loop {
        let (mut a, mut b, mut inc) = (0.0, 0.0, 0.0);
        loop {
            a += count(ours, k);
            b += count(theirs, k);
            inc += count(ours, k).max(count(theirs, k));
            k -= 1;
            if k == 0 {
                break;
            }
            let both_none = a == 0.0 && b == 0.0;
            let ours_none = a == 0.0 && ours[k] == 0;
            let theirs_none = b == 0.0 && theirs[k] == 0;
            if !(both_none || ours_none || theirs_none) {
                break;
            }
        }
        score += tier_score(tier, a, b);
        tier += inc;
        if k == 0 {
            return score;
        }
    }
}

/// For each of our kinds, how much it gains by a structure whose weakest tied-down enemy kind
/// is `tied` (sharp's `advancementGood`): more the fewer of our own pieces outrank it (counted
/// in `ours`), scaled by
/// `ADVANCE_BY_RANK_GAP`, at least 0; 0 for the elephant.
pub fn advancement_gain(ours: &Counts, tied: PieceKind) -> [f64; PieceKind::NUM] {
    let mut gain = [0.0; PieceKind::NUM];
    let mut outranked_by = 0.0;
    for k in (0..PieceKind::Elephant.index()).rev() {
        outranked_by += ours[k + 1] as f64 / ONE as f64;
        let gap = (k as i32 - tied.index() as i32 + 6).clamp(0, 12) as usize;
        let g = 3.0 / (outranked_by + 1.5) / (outranked_by + 1.2) * ADVANCE_BY_RANK_GAP[gap];
        gain[k] = (g - 0.1).max(0.0);
    }
    gain
}

/// The advancement factor (sharp's `computeSFPAdvGoodFactor`), 0.7 to 1.2: whether `side`'s
/// pieces that gain by the structure at `trap` stand free to use the advantage elsewhere
/// (away from the trap, off their home ranks but not on the goal rank, central), each piece
/// weighted by its gain; 1 when nothing gains.
pub fn advancement_factor(pos: &Position, side: Color, trap: Square, gain: &[f64; 6]) -> f64 {
    let mut total_gain = 0.0;
    let mut total = 0.0;
    for kind in PieceKind::ALL.into_iter().skip(1) {
        let g = gain[kind.index()];
        if g < 0.001 {
            continue;
        }
        let pieces = pos.pieces_of(side, kind);
        if pieces.is_empty() {
            continue;
        }
        total_gain += f64::from(pieces.count()) * g;
        // An integer sum per kind, the same in any order.
        let mut percent = 0i64;
        for sq in pieces {
            let centre = |x: u8| 3u8.saturating_sub(x).max(x.saturating_sub(4));
            percent += ADVANCE_BY_DISTANCE[usize::from(trap.distance(sq))]
                * ADVANCE_BY_GOAL[usize::from(sq.ranks_to_goal(side))]
                * ADVANCE_BY_CENTRE[usize::from(centre(sq.file()) + centre(sq.rank()))];
        }
        total += percent as f64 / 1_000_000.0 * g;
    }
    if total_gain < 0.001 {
        return 1.0;
    }
    let share = total / total_gain;
    ((share - 0.5) * total_gain.min(3.0) / 2.7 + 1.0).clamp(0.7, 1.2)
}

/// `scale × tanh(score / div)` as sharp rounds it (`computeLogistic`: to whole units of
/// `scale`), at least 0.
pub fn logistic(score: i32, div: f64, scale: i32) -> i32 {
    let x = -2.0 * f64::from(score) / div;
    ((f64::from(scale) * (-1.0 + 2.0 / (1.0 + x.exp()))) as i32).max(0)
}

/// The steps `color`'s nearest piece of `pieces` needs to stand beside `target`, at most
/// `max`: its Manhattan distance less one plus its unfreezing distance, over every piece (a
/// cheap stand-in for sharp's walk over the board, `moveAdjDistUF`).
pub fn approach_distance(
    pos: &Position,
    ctx: &Context,
    color: Color,
    pieces: Bitboard,
    target: Square,
    max: i32,
) -> i32 {
    let mut best = max;
    for a in pieces {
        let free = steps_to_free(pos, color, ctx.frozen[color], a) as i32;
        best = best.min(i32::from(a.distance(target)) - 1 + free);
    }
    best.max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(kinds: [i64; 6]) -> Counts {
        kinds.map(|n| n * ONE)
    }

    #[test]
    fn the_strongest_free_piece_score_counts_the_top_pieces_each_side_outnumbers() {
        let full = counts([8, 2, 2, 2, 1, 1]);
        assert_eq!(sfp_score(&full, &full), 0);
        // Their camel gone: our camel is the strongest free piece, sharp's 140.
        assert_eq!(sfp_score(&full, &counts([8, 2, 2, 2, 0, 1])), 140);
        assert_eq!(sfp_score(&counts([8, 2, 2, 2, 0, 1]), &full), -140);
        // Our elephant gone: a whole tier at the top, sharp's -500.
        assert_eq!(sfp_score(&counts([8, 2, 2, 2, 1, 0]), &full), -500);
        // A cat less counts for little.
        let cat = sfp_score(&full, &counts([8, 1, 2, 2, 1, 1]));
        assert!(cat > 0 && cat < 20, "{cat}");
        // Fractional counts interpolate: their elephant half tied down.
        let mut half = full;
        half[PieceKind::Elephant.index()] = ONE / 2;
        let s = sfp_score(&full, &half);
        assert!(s > 0 && s < 500, "{s}");
    }

    #[test]
    fn the_pieces_that_gain_are_the_top_ones_and_the_factor_stays_within_its_bounds() {
        let full = counts([8, 2, 2, 2, 1, 1]);
        // A horse tied down: the camel (one of ours above it) gains most, the cats least.
        let gain = advancement_gain(&full, PieceKind::Horse);
        assert_eq!(gain[PieceKind::Elephant.index()], 0.0);
        assert!(gain[PieceKind::Camel.index()] > gain[PieceKind::Horse.index()]);
        assert!(gain[PieceKind::Horse.index()] >= gain[PieceKind::Cat.index()]);
        // Our camel, which gains, right beside the structure at the c3 trap, or free in the
        // centre away from it.
        let near = crate::test_util::pos(
            "g",
            &[
                ("E", "d1"),
                ("M", "c4"),
                ("e", "e8"),
                ("m", "a8"),
                ("R", "a1"),
                ("r", "a7"),
            ],
        );
        let far = crate::test_util::pos(
            "g",
            &[
                ("E", "d1"),
                ("M", "e5"),
                ("e", "e8"),
                ("m", "a8"),
                ("R", "a1"),
                ("r", "a7"),
            ],
        );
        let trap = Square::TRAPS[0];
        let a = advancement_factor(&near, Color::Gold, trap, &gain);
        let b = advancement_factor(&far, Color::Gold, trap, &gain);
        assert!(a < 1.0 && b > 1.0, "{a} < 1 < {b}");
        assert!((0.7..=1.2).contains(&a) && (0.7..=1.2).contains(&b));
        assert_eq!(advancement_factor(&near, Color::Gold, trap, &[0.0; 6]), 1.0);
    }

    #[test]
    fn the_logistic_is_sharps_rounded_tanh() {
        assert_eq!(logistic(0, 280.0, 10_000), 0);
        assert_eq!(logistic(280, 280.0, 10_000), 7615);
        assert_eq!(logistic(240, 240.0, 900), 685);
        assert_eq!(logistic(-280, 280.0, 10_000), 0);
    }
}
