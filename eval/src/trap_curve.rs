//! Trap control as a smooth curve: what each trap is worth to the side whose home trap it
//! is, as a function of that side's smooth control of it ([`crate::trap_influence`]).
//!
//! The curve is piecewise linear through [`POINTS`] points, at controls [`LOWEST`],
//! `LOWEST + STEP`, .. [`HIGHEST`] (values outside are clamped); its values are the weights
//! `trap_curve.0` .. `trap_curve.16`, in centirabbits. A control between two points gets the
//! two points' values interpolated linearly, so the evaluation stays linear in the weights.
//!
//! One curve is enough: a trap is the home trap of one side and the away trap of the other,
//! and the score counts the defender's value minus the attacker's, so any pair of home and
//! away curves acts as the one curve `home(x) - away(-x)` (two curves could not be told apart
//! by the tuner).
//!
//! Features: per home trap of a side, at its control `x`: `1 - t` for point `i` and `t` for
//! point `i + 1`, where `x = LOWEST + STEP × (i + t)` (exact shares of [`STEP`]; a control on
//! a point is a whole feature).

use tusk_engine::Color;

use crate::traps::is_home_trap;
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The number of points of the curve.
pub const POINTS: usize = 17;

/// The control of the first point.
pub const LOWEST: i32 = -120;

/// The control between two points.
pub const STEP: i32 = 15;

/// The control of the last point.
pub const HIGHEST: i32 = LOWEST + STEP * (POINTS as i32 - 1);

/// sharp's value of a trap to its defender at each point, `-68 × logistic((-control - 25) /
/// 20)` centirabbits (`TrapControl::getEval`, `TC_SCORE_VALUE` 680 millirabbits): a prior
/// for the tuner (see [`crate::Weights::with_sharp_priors`]); the shipped set carries it.
pub const SHARP_CURVE: [i32; POINTS] = [
    -67, -67, -65, -63, -58, -50, -38, -26, -15, -8, -4, -2, -1, 0, 0, 0, 0,
];

/// The point at or below `control` (clamped to the curve) and the remainder above it, in
/// control units (`0 <= remainder < STEP`; 0 at the last point).
#[inline]
pub const fn bucket(control: i32) -> (usize, i32) {
    let x = if control < LOWEST {
        0
    } else if control > HIGHEST {
        HIGHEST - LOWEST
    } else {
        control - LOWEST
    };
    ((x / STEP) as usize, x % STEP)
}

/// The control of trap `t` from `color`'s view (positive: `color` holds it).
#[inline]
pub fn control_for(ctx: &Context, t: usize, color: Color) -> i32 {
    match color {
        Color::Gold => ctx.influence[t],
        Color::Silver => -ctx.influence[t],
    }
}

/// Whether any point of the curve has a non-zero weight (otherwise the curve scores nothing
/// and the smooth control need not be computed for scoring).
#[inline]
pub fn is_used(w: &Weights) -> bool {
    w[id::trap_curve].iter().any(|&v| v != 0)
}

/// The trap-curve features: each side's two home traps, at its control of each.
pub fn curve_features<S: Sink>(ctx: &Context, sink: &mut S) {
    for c in Color::ALL {
        for t in (0..4).filter(|&t| is_home_trap(t, c)) {
            let (i, r) = bucket(control_for(ctx, t, c));
            if r == 0 {
                sink.add(c, id::trap_curve.at(i), 1);
            } else {
                sink.add_share(c, id::trap_curve.at(i), STEP - r, STEP);
                sink.add_share(c, id::trap_curve.at(i + 1), r, STEP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};
    use crate::{FeatureSink, ScoreSink, Weights};
    use tusk_engine::{ByColor, Position};

    fn term(p: &Position, w: &Weights) -> ByColor<i32> {
        let mut sink = ScoreSink::new(w);
        curve_features(&Context::new(p, w), &mut sink);
        sink.totals()
    }

    #[test]
    fn buckets_clamp_and_split() {
        assert_eq!(bucket(-500), (0, 0));
        assert_eq!(bucket(LOWEST), (0, 0));
        assert_eq!(bucket(LOWEST + 1), (0, 1));
        assert_eq!(bucket(0), (8, 0));
        assert_eq!(bucket(7), (8, 7));
        assert_eq!(bucket(-7), (7, 8));
        assert_eq!(bucket(HIGHEST), (POINTS - 1, 0));
        assert_eq!(bucket(10_000), (POINTS - 1, 0));
        assert_eq!(HIGHEST, 120);
    }

    #[test]
    fn the_value_interpolates_between_two_points() {
        // A curve rising by 30 a point: the value is 2 × control + 240 exactly.
        let mut w = Weights::hand_set();
        for i in 0..POINTS {
            w[id::trap_curve.at(i)] = 30 * i as i32;
        }
        let p = opening();
        let ctx = Context::new(&p, &w);
        let t = term(&p, &w);
        let expect = |c: Color| -> i32 {
            (0..4)
                .filter(|&t| is_home_trap(t, c))
                .map(|t| 2 * control_for(&ctx, t, c).clamp(LOWEST, HIGHEST) + 240)
                .sum()
        };
        assert_eq!(t[Color::Gold], expect(Color::Gold));
        assert_eq!(t[Color::Silver], expect(Color::Silver));
        // The recorded features of a side sum to its two home traps.
        let mut sink = FeatureSink::new(&w, Color::Gold);
        curve_features(&ctx, &mut sink);
        let per_point: f64 = (0..POINTS)
            .map(|i| sink.features.values[id::trap_curve.at(i).index()][0])
            .sum();
        assert!((per_point - 2.0).abs() < 1e-12, "{per_point}");
    }

    #[test]
    fn a_home_trap_lost_to_the_enemy_costs_its_owner() {
        let w = Weights::hand_set().with_sharp_priors();
        // Silver's elephant and camel settle beside gold's c3 trap; gold's pieces are away.
        let besieged = pos(
            "g",
            &[
                ("e", "c4"),
                ("m", "b3"),
                ("h", "d3"),
                ("R", "a1"),
                ("R", "h2"),
                ("E", "g5"),
                ("r", "a7"),
            ],
        );
        let held = pos(
            "g",
            &[
                ("e", "c6"),
                ("m", "b6"),
                ("h", "d6"),
                ("R", "a1"),
                ("R", "h2"),
                ("E", "g5"),
                ("r", "a7"),
            ],
        );
        let ctx = Context::new(&besieged, &w);
        assert!(ctx.influence[0] < -60, "{:?}", ctx.influence);
        let lost = term(&besieged, &w)[Color::Gold];
        let safe = term(&held, &w)[Color::Gold];
        assert!(lost < safe - 40, "besieged {lost}, quiet {safe}");
    }

    #[test]
    fn scoring_skips_the_smooth_control_only_while_nothing_reads_it() {
        // The hand-set weights (curve off, the capped trap terms on) do not read it.
        let hand = Weights::hand_set();
        assert!(!is_used(&hand));
        assert_eq!(hand[id::trap_home], 35);
        assert_eq!(hand[id::trap_away], 50);
        let p = opening();
        assert_eq!(Context::for_scoring(&p, &hand).influence, [0; 4]);
        assert_ne!(Context::new(&p, &hand).influence, [0; 4]);
        // sharp's priors carry its curve in place of the capped terms; the shipped weights
        // (weights.rs pins them) read the curve too.
        let priors = Weights::hand_set().with_sharp_priors();
        assert!(is_used(&priors));
        assert_eq!(priors[id::trap_home], 0);
        assert_eq!(priors[id::trap_away], 0);
        let shipped = Weights::default();
        assert!(is_used(&shipped));
        assert_eq!(
            Context::for_scoring(&p, &shipped).influence,
            Context::new(&p, &shipped).influence
        );
    }

    #[test]
    fn colours_mirror_exactly() {
        let w = Weights::hand_set().with_sharp_priors();
        let p = pos(
            "s",
            &[
                ("e", "c4"),
                ("m", "b3"),
                ("H", "d3"),
                ("R", "a1"),
                ("R", "h2"),
                ("E", "f5"),
                ("d", "g6"),
                ("r", "a7"),
            ],
        );
        let (a, b) = (term(&p, &w), term(&p.flip(), &w));
        assert_eq!(a[Color::Gold], b[Color::Silver]);
        assert_eq!(a[Color::Silver], b[Color::Gold]);
        assert_ne!(a[Color::Gold], a[Color::Silver]);
    }
}
