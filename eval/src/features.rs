//! The evaluation as a sum of weight × feature: every term emits its features through a
//! [`Sink`], which either scores them at once ([`ScoreSink`], the searcher's hot path) or
//! records them ([`FeatureSink`], for `tusk eval --features` and the tuner).
//!
//! A feature is emitted as a count (`add`: the score gains `weight × x`) or as a share of the
//! weight (`add_share`: `weight × num / den`; `add_share2`: `weight × num / den × num2 /
//! den2`). The integer evaluation rounds each division toward zero, in that order, exactly as
//! the hand-written terms always did, so the default weights give the same scores as before
//! the terms were made linear; the recorded feature is the exact fraction. Hence:
//!
//! * the recorded contributions (integers) add up to the evaluation exactly;
//! * `Σ weight × feature` (reals) differs from it only by those roundings: less than one
//!   centirabbit per inexact `add_share`, and `1 + num2/den2` per inexact `add_share2`; the
//!   recording sink adds these up in [`Features::rounding_bound`].
//!
//! The variance adjustment ([`crate::variance`]) is then applied to the linear total: not a
//! feature, it is recorded as the position's variance points, and the model the tuner fits
//! is [`Features::model_score`].
//!
//! New terms should emit whole features (`add`) where they can, so that no rounding arises.
//! Both sinks are generic parameters of the terms (monomorphised, allocation-free).

use tusk_engine::{ByColor, Color};

use crate::variance::VariancePoints;
use crate::weights::{Param, Weights};
use crate::{Breakdown, Centirabbits, Term, WIN, WIN_THRESHOLD};

/// Where a term puts its features.
pub trait Sink {
    /// Whether features of weight `p` are worth computing (the scoring sink skips zero
    /// weights; the recording sink wants everything).
    fn wants(&self, p: Param) -> bool;
    /// Feature `p` of `side` grows by `x`: the evaluation gains `weight × x` for `side`.
    fn add(&mut self, side: Color, p: Param, x: i32);
    /// Feature `p` of `side` grows by `num / den` (`den > 0`): the evaluation gains
    /// `weight × num / den`, rounded toward zero.
    fn add_share(&mut self, side: Color, p: Param, num: i32, den: i32);
    /// Feature `p` of `side` grows by `num / den × num2 / den2` (both denominators
    /// positive): the evaluation gains `weight × num / den × num2 / den2`, rounded toward zero
    /// after each division.
    fn add_share2(&mut self, side: Color, p: Param, num: i32, den: i32, num2: i32, den2: i32);
}

/// The contribution of one `add_share2`, as the integer evaluation computes it.
#[inline]
pub(crate) fn share2(w: i64, num: i32, den: i32, num2: i32, den2: i32) -> i64 {
    w * i64::from(num) / i64::from(den) * i64::from(num2) / i64::from(den2)
}

/// A judgement from a side's total minus its opponent's: never a win or loss score.
#[inline]
pub fn judgement(diff: i64) -> Centirabbits {
    let lim = i64::from(WIN_THRESHOLD - 1);
    diff.clamp(-lim, lim) as Centirabbits
}

/// The scoring sink: multiplies each feature by its weight at once and keeps one total per
/// side. What the searcher's evaluation uses.
#[derive(Clone, Copy)]
pub struct ScoreSink<'w> {
    w: &'w Weights,
    total: [i64; 2],
}

impl<'w> ScoreSink<'w> {
    /// An empty sink scoring with `w`.
    #[inline]
    pub fn new(w: &'w Weights) -> ScoreSink<'w> {
        ScoreSink { w, total: [0; 2] }
    }

    /// The score from `side`'s view: its total minus its opponent's (clamped below the win
    /// scores, see [`judgement`]).
    #[inline]
    pub fn score(&self, side: Color) -> Centirabbits {
        judgement(self.difference(side))
    }

    /// `side`'s total minus its opponent's, unclamped.
    #[inline]
    pub fn difference(&self, side: Color) -> i64 {
        self.total[side.index()] - self.total[(!side).index()]
    }

    /// `side`'s total grows by `points` centirabbits that no single feature carries (a share
    /// of a credit already scored with these weights, [`crate::stand_pat_above`]'s).
    #[inline]
    pub(crate) fn add_points(&mut self, side: Color, points: i64) {
        self.total[side.index()] += points;
    }

    /// Each side's total so far (saturated to `i32`), for term tests.
    pub fn totals(&self) -> ByColor<i32> {
        let t = |x: i64| x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        ByColor([t(self.total[0]), t(self.total[1])])
    }
}

impl Sink for ScoreSink<'_> {
    #[inline]
    fn wants(&self, p: Param) -> bool {
        self.w[p] != 0
    }

    #[inline]
    fn add(&mut self, side: Color, p: Param, x: i32) {
        self.total[side.index()] += i64::from(self.w[p]) * i64::from(x);
    }

    #[inline]
    fn add_share(&mut self, side: Color, p: Param, num: i32, den: i32) {
        self.total[side.index()] += i64::from(self.w[p]) * i64::from(num) / i64::from(den);
    }

    #[inline]
    fn add_share2(&mut self, side: Color, p: Param, num: i32, den: i32, num2: i32, den2: i32) {
        self.total[side.index()] += share2(i64::from(self.w[p]), num, den, num2, den2);
    }
}

/// Every feature of a position for both sides, and what each contributes with the weights
/// it was recorded with. Made by [`crate::features()`]; allocation-free and copyable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// The side to move.
    pub side: Color,
    /// The fewest steps to a goal this turn for the side to move, if it has one: then the
    /// evaluation is a win score, and only the positional features were recorded (not the
    /// captures this turn nor the opponent's next-turn threats): they explain, they do not
    /// score.
    pub goal: Option<u8>,
    /// Each feature's value for each side (`[gold, silver]`), by [`Param::index`]; zero for
    /// shape parameters.
    pub values: [[f64; 2]; Weights::LEN],
    /// What each weight contributed to each side's total, in centirabbits, as the integer
    /// evaluation rounds it.
    pub contributions: [[i64; 2]; Weights::LEN],
    /// An upper bound on `|model score - score|` ([`Features::model_score`]) from the
    /// integer roundings (see the module docs).
    pub rounding_bound: f64,
    /// The variance points of the adjustment applied to the linear total ([`crate::variance`]).
    pub variance: VariancePoints,
}

impl Features {
    /// The value of feature `p` from `side`'s view minus its opponent's.
    pub fn difference(&self, p: Param, side: Color) -> f64 {
        let v = self.values[p.index()];
        v[side.index()] - v[(!side).index()]
    }

    /// The evaluation these features give ([`crate::evaluate`]'s score): a win score when the
    /// side to move can goal, else the contributions of the side to move minus its
    /// opponent's.
    pub fn score(&self) -> Centirabbits {
        if let Some(steps) = self.goal {
            return WIN - Centirabbits::from(steps);
        }
        judgement(self.variance.adjust_integer(self.side, self.linear_total()))
    }

    /// The contributions of the side to move minus its opponent's: the integer linear total
    /// before the variance adjustment.
    fn linear_total(&self) -> i64 {
        let (us, them) = (self.side.index(), (!self.side).index());
        self.contributions.iter().map(|c| c[us] - c[them]).sum()
    }

    /// `Σ weight × feature difference` from the side to move's view, in real numbers: the
    /// linear part of the tuner's model.
    pub fn linear_score(&self, w: &Weights) -> f64 {
        Weights::params()
            .map(|p| f64::from(w[p]) * self.difference(p, self.side))
            .sum()
    }

    /// What the tuner's model predicts: [`Features::linear_score`] with the variance
    /// adjustment ([`crate::variance`]); within [`Features::rounding_bound`] of the score.
    pub fn model_score(&self, w: &Weights) -> f64 {
        self.variance.adjust(self.side, self.linear_score(w))
    }

    /// The per-term breakdown of these features' contributions.
    pub fn breakdown(&self) -> Breakdown {
        let mut terms = [ByColor([0; 2]); Term::NUM];
        for p in Weights::params() {
            let t = Weights::group_of(p).0.term as usize;
            for c in Color::ALL {
                let v = self.contributions[p.index()][c.index()];
                terms[t][c] = (i64::from(terms[t][c]) + v)
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                    as i32;
            }
        }
        let linear = self.linear_total();
        let adjustment = self.variance.adjust_integer(self.side, linear) - linear;
        terms[Term::Variance as usize][self.side] =
            adjustment.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        Breakdown {
            side: self.side,
            goal: self.goal,
            terms,
        }
    }
}

/// The recording sink: keeps every feature of each side and its contribution.
pub struct FeatureSink<'w> {
    w: &'w Weights,
    /// What has been recorded.
    pub features: Features,
}

impl<'w> FeatureSink<'w> {
    /// An empty sink for a position with `side` to move, contributions weighed with `w`.
    pub fn new(w: &'w Weights, side: Color) -> FeatureSink<'w> {
        FeatureSink {
            w,
            features: Features {
                side,
                goal: None,
                values: [[0.0; 2]; Weights::LEN],
                contributions: [[0; 2]; Weights::LEN],
                rounding_bound: 0.0,
                variance: VariancePoints::default(),
            },
        }
    }

    /// Records the variance points of the position (the adjustment's rounding joins the
    /// bound: its slope is at most 1, so it does not grow the others).
    pub fn set_variance(&mut self, variance: VariancePoints) {
        if !variance.is_none() {
            self.features.rounding_bound += 1.0;
        }
        self.features.variance = variance;
    }

    #[inline]
    fn record(&mut self, side: Color, p: Param, value: f64, contribution: i64) {
        let f = &mut self.features;
        f.values[p.index()][side.index()] += value;
        f.contributions[p.index()][side.index()] += contribution;
    }
}

impl Sink for FeatureSink<'_> {
    fn wants(&self, _p: Param) -> bool {
        true
    }

    fn add(&mut self, side: Color, p: Param, x: i32) {
        let c = i64::from(self.w[p]) * i64::from(x);
        self.record(side, p, f64::from(x), c);
    }

    fn add_share(&mut self, side: Color, p: Param, num: i32, den: i32) {
        let w = i64::from(self.w[p]);
        let c = w * i64::from(num) / i64::from(den);
        if c * i64::from(den) != w * i64::from(num) {
            self.features.rounding_bound += 1.0;
        }
        self.record(side, p, f64::from(num) / f64::from(den), c);
    }

    fn add_share2(&mut self, side: Color, p: Param, num: i32, den: i32, num2: i32, den2: i32) {
        let w = i64::from(self.w[p]);
        let c = share2(w, num, den, num2, den2);
        let exact = w * i64::from(num) * i64::from(num2);
        if c * i64::from(den) * i64::from(den2) != exact {
            self.features.rounding_bound += 1.0 + (f64::from(num2) / f64::from(den2)).abs();
        }
        let value = f64::from(num) / f64::from(den) * f64::from(num2) / f64::from(den2);
        self.record(side, p, value, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::id;

    #[test]
    fn the_sinks_agree_and_bound_their_rounding() {
        let mut w = Weights::hand_set();
        w[id::trap_home] = 35;
        w[id::frozen_pct] = -7;
        let mut s = ScoreSink::new(&w);
        let mut r = FeatureSink::new(&w, Color::Gold);
        for sink in [&mut s as &mut dyn Sink, &mut r as &mut dyn Sink] {
            sink.add(Color::Gold, id::trap_home, 2); // 70
            sink.add_share(Color::Silver, id::trap_home, 100, 150); // 23.33 -> 23
            sink.add_share(Color::Gold, id::frozen_pct, -250, 100); // 17.5 -> 17
            sink.add_share2(Color::Silver, id::frozen_pct, 333, 100, 75, 150); // -23 * 0.5
        }
        // Gold 70 + 17 = 87; silver 23 + (-23 * 75 / 150 = -11) = 12.
        assert_eq!(s.totals(), ByColor([87, 12]));
        assert_eq!(s.score(Color::Gold), 75);
        let f = r.features;
        assert_eq!(f.score(), 75);
        assert_eq!(f.values[id::trap_home.index()], [2.0, 100.0 / 150.0]);
        assert_eq!(f.contributions[id::frozen_pct.index()], [17, -11]);
        let exact = f.linear_score(&w);
        let want = 70.0 + 17.5 - 35.0 * 100.0 / 150.0 + 7.0 * 3.33 * 0.5;
        assert!((exact - want).abs() < 1e-9, "{exact} {want}");
        assert!((exact - 75.0).abs() <= f.rounding_bound);
        assert_eq!(f.rounding_bound, 1.0 + 1.0 + 1.5);
    }

    #[test]
    fn judgements_stay_below_the_win_scores() {
        assert_eq!(judgement(12), 12);
        assert_eq!(judgement(i64::from(WIN) * 3), WIN_THRESHOLD - 1);
        assert_eq!(judgement(-i64::from(WIN) * 3), -(WIN_THRESHOLD - 1));
    }
}
