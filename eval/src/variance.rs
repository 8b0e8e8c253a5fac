//! The variance adjustment: a side's rabbit goal threats are chances of winning *soon*, not
//! points of long-term advantage, so they are worth most to the side that is behind and cost
//! most to the side that is ahead. The idea and its form are sharp's (David Wu,
//! `eval/eval.cpp`, `Variance::getAdjustment`); the code is Tusk's.
//!
//! Each side has *variance points* `a` (the side to move) and `b` (its opponent), in
//! centirabbits: `variance_pct` percent of its rabbit goal threat at full value
//! ([`crate::rabbit_goal`], whatever `rabbit_goal_pct` weighs it). With `P` =
//! `variance_scale` centirabbits and `s` the rest of the evaluation from the side to move's
//! view, the long-term chance of a win is `L = σ((s − a + b) / P)` (the variance points taken
//! out), the odds of an immediate win and loss are `a / 2P` and `b / 2P`, and the chance of a
//! win is `p = (a/2P + L) / (1 + a/2P + b/2P)`. The adjusted score is `P · logit(p)`: equal to
//! `s` when neither side has variance points, with slope 1 in each side's points at `s` = 0
//! (one point is a centirabbit), more when the side is behind and less when it is ahead.
//!
//! The adjustment is not linear in the weights, so it has no features: the evaluation (and
//! the tuner's model) applies it to the linear total, and `variance_pct` and
//! `variance_scale` are shape parameters (the tuner keeps them). `tusk eval` shows it on the
//! side to move's line `variance`. Colour symmetry is exact: the integer form is computed for
//! the side ahead and negated for the other.

use tusk_engine::{ByColor, Color};

/// Each side's variance points, in centirabbits, and the scale `P` (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VariancePoints {
    /// Variance points by colour.
    pub points: ByColor<f64>,
    /// The logistic's scale `P`, centirabbits.
    pub scale: f64,
}

impl VariancePoints {
    /// The variance points of a position whose rabbit goal threats (sharp's units, ten to
    /// the centirabbit) are `threat`, with `pct` percent counted and scale `scale`.
    pub fn from_threat(threat: ByColor<i32>, pct: i32, scale: i32) -> VariancePoints {
        let share = |t: i32| f64::from(t) * f64::from(pct) / 1000.0;
        VariancePoints {
            points: ByColor([share(threat[Color::Gold]), share(threat[Color::Silver])]),
            scale: f64::from(scale),
        }
    }

    /// Whether the adjustment changes nothing (no points, or no scale).
    pub fn is_none(&self) -> bool {
        self.scale <= 0.0 || (self.points[Color::Gold] == 0.0 && self.points[Color::Silver] == 0.0)
    }

    /// The adjusted score, as a real, of `s` (the linear total from `side`'s view).
    pub fn adjust(&self, side: Color, s: f64) -> f64 {
        if self.is_none() {
            return s;
        }
        adjusted(s, self.points[side], self.points[!side], self.scale).unwrap_or(s)
    }

    /// d [`VariancePoints::adjust`] / d `s` (between 0 and 1).
    pub fn slope(&self, side: Color, s: f64) -> f64 {
        if self.is_none() {
            return 1.0;
        }
        let (a, b, p) = (self.points[side], self.points[!side], self.scale);
        let x = (s - a + b) / p;
        let (l, lc) = (sigmoid(x), sigmoid(-x));
        let total = 1.0 + a / (2.0 * p) + b / (2.0 * p);
        let (win, loss) = ((a / (2.0 * p) + l) / total, (b / (2.0 * p) + lc) / total);
        l * lc / total * (1.0 / win + 1.0 / loss)
    }

    /// The adjusted integer score of `s` (the linear total from `side`'s view), rounded to
    /// the nearest centirabbit; exactly odd in colour (see the module docs).
    pub fn adjust_integer(&self, side: Color, s: i64) -> i64 {
        if self.is_none() {
            return s;
        }
        let (a, b) = (self.points[side], self.points[!side]);
        // Computed for the side ahead (or, level, the side with more points): the other's is
        // its negation, whatever the floating point does.
        if s < 0 || (s == 0 && a < b) {
            return -rounded(-s, b, a, self.scale);
        }
        rounded(s, a, b, self.scale)
    }
}

/// The logistic function.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `P · logit(p)` of the module docs for a side with total `s` and points `a` against `b`;
/// `None` where it is not finite (a certain win or loss in floating point).
fn adjusted(s: f64, a: f64, b: f64, p: f64) -> Option<f64> {
    let x = (s - a + b) / p;
    let total = 1.0 + a / (2.0 * p) + b / (2.0 * p);
    let win = (a / (2.0 * p) + sigmoid(x)) / total;
    let loss = (b / (2.0 * p) + sigmoid(-x)) / total;
    let v = (win.ln() - loss.ln()) * p;
    v.is_finite().then_some(v)
}

/// [`adjusted`] rounded to an integer, `s` itself where it is not finite.
fn rounded(s: i64, a: f64, b: f64, p: f64) -> i64 {
    match adjusted(s as f64, a, b, p) {
        Some(v) => v.round() as i64,
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(gold: f64, silver: f64) -> VariancePoints {
        VariancePoints {
            points: ByColor([gold, silver]),
            scale: 450.0,
        }
    }

    #[test]
    fn no_points_change_nothing() {
        let v = points(0.0, 0.0);
        for s in [-5000, -300, 0, 7, 450, 20000] {
            assert_eq!(v.adjust_integer(Color::Gold, s), s);
            assert_eq!(v.adjust(Color::Silver, s as f64), s as f64);
            assert_eq!(v.slope(Color::Gold, s as f64), 1.0);
        }
        let off = VariancePoints {
            points: ByColor([100.0, 0.0]),
            scale: 0.0,
        };
        assert_eq!(off.adjust_integer(Color::Gold, 123), 123);
    }

    #[test]
    fn a_point_is_a_centirabbit_when_level_and_worth_more_behind_than_ahead() {
        // Level without them: 10 points of the side to move (in its total of 10) are worth
        // about 10.
        let level = points(10.0, 0.0).adjust_integer(Color::Gold, 10);
        assert!((9..=10).contains(&level), "{level}");
        // Behind by two scales: worth about 0.5 (1 + e²) ≈ 4.2 each; ahead by two scales,
        // about 0.57 (sharp's figures). `s` is the score without the points.
        let gain = |s: f64| (points(2.0, 0.0).adjust(Color::Gold, s + 2.0) - s) / 2.0;
        assert!((gain(-900.0) - 4.19).abs() < 0.15, "{}", gain(-900.0));
        assert!((gain(900.0) - 0.567).abs() < 0.03, "{}", gain(900.0));
        // The opponent's threats cost the side ahead more than their face value: 900 ahead
        // without them, 880 with 20 points against.
        let ahead = points(0.0, 20.0).adjust(Color::Gold, 880.0);
        assert!(ahead < 880.0 - 40.0, "{ahead}");
    }

    #[test]
    fn the_adjustment_is_odd_in_colour_and_monotone() {
        let v = points(37.5, 81.25);
        for s in -3000..3000 {
            let g = v.adjust_integer(Color::Gold, s);
            assert_eq!(v.adjust_integer(Color::Silver, -s), -g, "s {s}");
            assert!(v.adjust_integer(Color::Gold, s + 1) >= g, "s {s}");
        }
        // Far from level the floating point saturates; the score stays ordered and finite.
        for s in [-1_000_000, -50_000, 50_000, 1_000_000] {
            let g = v.adjust_integer(Color::Gold, s);
            assert_eq!(v.adjust_integer(Color::Silver, -s), -g);
            assert_eq!(g.signum(), s.signum());
        }
    }

    #[test]
    fn the_slope_matches_finite_differences_and_stays_in_zero_one() {
        for (a, b) in [(0.0, 40.0), (25.0, 0.0), (60.0, 120.0), (300.0, 5.0)] {
            let v = points(a, b);
            for s in [-2000.0, -450.0, -30.0, 0.0, 12.5, 450.0, 2000.0] {
                let h = 1e-3;
                let numeric =
                    (v.adjust(Color::Gold, s + h) - v.adjust(Color::Gold, s - h)) / (2.0 * h);
                let slope = v.slope(Color::Gold, s);
                assert!(
                    (numeric - slope).abs() < 1e-5,
                    "a {a} b {b} s {s}: {numeric} {slope}"
                );
                assert!(
                    (0.0..=1.0 + 1e-12).contains(&slope),
                    "a {a} b {b} s {s}: {slope}"
                );
            }
        }
    }

    #[test]
    fn points_come_from_the_threat_in_sharps_units() {
        let v = VariancePoints::from_threat(ByColor([1000, 250]), 31, 450);
        assert_eq!(v.points[Color::Gold], 31.0);
        assert_eq!(v.points[Color::Silver], 7.75);
        assert_eq!(v.scale, 450.0);
    }
}
