//! Match statistics as small pure functions: Elo from a score, its 95% interval, the
//! likelihood of superiority, and a sequential probability ratio test (SPRT).
//!
//! Arimaa has no draws, so a game is a Bernoulli trial. The Elo model is the logistic one:
//! expected score `1 / (1 + 10^(-elo/400))`.
//!
//! `tusk match` plays its games in pairs: one opening, the colours swapped. The two games of a
//! pair are not independent (an opening that favours one colour tends to split the pair), so
//! the SPRT counts pairs by default, as fastchess's pentanomial SPRT does: without draws a
//! pair scores 0, 1 or 2 of 2 ([`PairScores`]), and the likelihood of each hypothesis is the
//! largest that any distribution of those three with the hypothesis's mean score gives
//! (the generalised SPRT of fishtest and fastchess; [`pair_log_likelihood`]). Where openings
//! split pairs more often than chance, the pair model has the smaller variance and decides
//! sooner; on independent games it agrees with the game model.
//!
//! When one side won every game the score is 100%, its Elo +∞ and the normal interval
//! collapses to a point; [`elo_summary`] then gives a one-sided bound instead, as fastchess
//! and cutechess do: the exact (Clopper–Pearson) 95% lower bound on the winning chance after
//! `n` wins in `n` games, `0.05^(1/n)`, the chance under which `n` straight wins happen only
//! 5% of the time (at 20-0: 0.8609, Elo > +316.6). A clean loss is the mirror image.

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The confidence of the one-sided bound after a clean sweep.
pub const SWEEP_CONFIDENCE: f64 = 0.95;

/// Elo difference for an expected score `s` in (0, 1); ±infinity at 1 and 0.
pub fn score_to_elo(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval (bounds may be infinite when the score interval
/// reaches 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate from the score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval (the "±" figure), infinite if a bound is.
    pub fn error(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Elo of a player with `wins` and `losses` (draws count half), and the 95% interval from the
/// normal approximation of the mean score: `s ± 1.96 σ/√n` mapped through
/// [`score_to_elo`]. `None` when no game was played.
pub fn elo_estimate(wins: u64, losses: u64, draws: u64) -> Option<EloEstimate> {
    let n = (wins + losses + draws) as f64;
    if n == 0.0 {
        return None;
    }
    let s = (wins as f64 + 0.5 * draws as f64) / n;
    let var = (wins as f64 * (1.0 - s).powi(2)
        + losses as f64 * s.powi(2)
        + draws as f64 * (0.5 - s).powi(2))
        / n;
    let sd = (var / n).sqrt();
    Some(EloEstimate {
        elo: score_to_elo(s),
        lower: score_to_elo(s - Z95 * sd),
        upper: score_to_elo(s + Z95 * sd),
    })
}

/// The exact one-sided lower bound, at [`SWEEP_CONFIDENCE`], on the winning chance of a
/// player who won all of `games` games (Clopper–Pearson at `n` successes in `n`):
/// `(1 − confidence)^(1/n)`. `games` must be at least 1.
pub fn sweep_score_bound(games: u64) -> f64 {
    (1.0 - SWEEP_CONFIDENCE).powf(1.0 / games as f64)
}

/// What the games say about a player's Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloSummary {
    /// Wins and losses both: the estimate and its 95% interval ([`elo_estimate`]).
    Estimate(EloEstimate),
    /// Every game won: the Elo is above this bound at [`SWEEP_CONFIDENCE`].
    Above(f64),
    /// Every game lost: the Elo is below this bound at [`SWEEP_CONFIDENCE`].
    Below(f64),
}

impl EloSummary {
    /// The lower end of the 95% interval, `None` when it is unbounded.
    pub fn lower(&self) -> Option<f64> {
        match *self {
            EloSummary::Estimate(e) => e.lower.is_finite().then_some(e.lower),
            EloSummary::Above(bound) => Some(bound),
            EloSummary::Below(_) => None,
        }
    }

    /// The upper end of the 95% interval, `None` when it is unbounded.
    pub fn upper(&self) -> Option<f64> {
        match *self {
            EloSummary::Estimate(e) => e.upper.is_finite().then_some(e.upper),
            EloSummary::Above(_) => None,
            EloSummary::Below(bound) => Some(bound),
        }
    }

    /// The point estimate, `None` when it is infinite (a clean sweep or loss).
    pub fn elo(&self) -> Option<f64> {
        match *self {
            EloSummary::Estimate(e) => e.elo.is_finite().then_some(e.elo),
            EloSummary::Above(_) | EloSummary::Below(_) => None,
        }
    }
}

/// The Elo of a player with `wins` and `losses`: the estimate with its interval, or after
/// a clean sweep (loss) the one-sided bound of [`sweep_score_bound`]. `None` without games.
pub fn elo_summary(wins: u64, losses: u64) -> Option<EloSummary> {
    match (wins, losses) {
        (0, 0) => None,
        (n, 0) => Some(EloSummary::Above(score_to_elo(sweep_score_bound(n)))),
        (0, n) => Some(EloSummary::Below(-score_to_elo(sweep_score_bound(n)))),
        (w, l) => elo_estimate(w, l, 0).map(EloSummary::Estimate),
    }
}

/// The mean of paired differences `d` (one per pair, as the counts of each value given) and
/// half the width of its 95% interval from the normal approximation, `1.96 sd/√n` with the
/// sample standard deviation. `None` with fewer than two pairs.
pub fn mean_difference(counts: &[(i64, u64)]) -> Option<(f64, f64)> {
    let n: u64 = counts.iter().map(|&(_, c)| c).sum();
    if n < 2 {
        return None;
    }
    let nf = n as f64;
    let mean = counts
        .iter()
        .map(|&(d, c)| d as f64 * c as f64)
        .sum::<f64>()
        / nf;
    let ss: f64 = counts
        .iter()
        .map(|&(d, c)| c as f64 * (d as f64 - mean).powi(2))
        .sum();
    let sd = (ss / (nf - 1.0)).sqrt();
    Some((mean, Z95 * sd / nf.sqrt()))
}

/// Two-sided exact sign test: were `a` and `b` equally likely outcomes, the probability of
/// `a + b` trials splitting at least as unevenly as `a` against `b`:
/// `min(1, 2 P(X <= min(a, b)))` with `X ~ Binomial(a + b, 1/2)`; 1 when there are no trials.
/// Summed in a scaled form (each term relative to the last, the largest), so no
/// intermediate overflows or underflows; the result is 0 only where the true value is below
/// f64's smallest number (a split such as 0 against 5,000).
pub fn sign_test_p(a: u64, b: u64) -> f64 {
    let n = a + b;
    let k = a.min(b);
    // ln P(X = 0) = -n ln 2; P(X = i + 1) = P(X = i) (n - i) / (i + 1). `scaled` is
    // P(X <= i) / P(X = i), which grows by `scaled / ratio + 1` from one term to the next.
    let mut ln_term = -(n as f64) * std::f64::consts::LN_2;
    let mut scaled = 1.0;
    for i in 0..k {
        let ratio = (n - i) as f64 / (i + 1) as f64;
        ln_term += ratio.ln();
        scaled = scaled / ratio + 1.0;
    }
    (2.0 * scaled * ln_term.exp()).min(1.0)
}

/// Likelihood of superiority: the probability that the player with `wins` against
/// `losses` (draws ignored) is the stronger, `½(1 + erf((W − L)/√(2(W + L))))`.
/// 0.5 when no decisive game was played.
pub fn los(wins: u64, losses: u64) -> f64 {
    let n = (wins + losses) as f64;
    if n == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * n).sqrt()))
}

/// The error function, with a fractional error below 1.2e-7 (a Chebyshev fit of erfc,
/// the `erfcc` of Numerical Recipes).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// A candidate's results over complete pairs (the two games of one opening, the colours
/// swapped): the pairs it lost both games of, split, and won both games of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairScores {
    /// Pairs scoring 0 of 2.
    pub lost_both: u64,
    /// Pairs scoring 1 of 2.
    pub split: u64,
    /// Pairs scoring 2 of 2.
    pub won_both: u64,
}

impl PairScores {
    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.lost_both + self.split + self.won_both
    }

    /// Counts one more pair, of `score` games won (0, 1 or 2).
    pub fn record(&mut self, score: u8) {
        match score {
            0 => self.lost_both += 1,
            1 => self.split += 1,
            _ => self.won_both += 1,
        }
    }
}

/// The log-likelihood of `pairs` under the most likely distribution of pair scores whose mean
/// score of a game is `s` (in (0, 1)).
///
/// A pair's score per game is 0, ½ or 1, with chances `1 - s - u`, `2u` and `s - u` for some
/// `u` in `[0, min(s, 1 - s)]` (the mean is then `s`). The log-likelihood `n0 ln(1 - s - u) +
/// n1 ln(2u) + n2 ln(s - u)` is concave in `u`; its maximum is the smaller root of `N u² -
/// (n0 s + n1 + n2 (1 - s)) u + n1 s (1 - s) = 0`, where its derivative vanishes. A count of
/// zero contributes nothing, whatever its chance.
pub fn pair_log_likelihood(pairs: PairScores, s: f64) -> f64 {
    let n = pairs.pairs() as f64;
    if n == 0.0 {
        return 0.0;
    }
    let (n0, n1, n2) = (
        pairs.lost_both as f64,
        pairs.split as f64,
        pairs.won_both as f64,
    );
    let b = n0 * s + n1 + n2 * (1.0 - s);
    let c = n1 * s * (1.0 - s);
    let disc = (b * b - 4.0 * n * c).max(0.0);
    // The smaller root, written so that it does not cancel when c is small.
    let u = if b > 0.0 {
        (2.0 * c / (b + disc.sqrt())).clamp(0.0, s.min(1.0 - s))
    } else {
        0.0
    };
    let term = |count: f64, chance: f64| {
        if count == 0.0 {
            0.0
        } else {
            count * chance.ln()
        }
    };
    term(n0, 1.0 - s - u) + term(n1, 2.0 * u) + term(n2, s - u)
}

/// Elo from `pairs` with a 95% interval from the spread of the pair scores (`s ± 1.96 σ/√N`,
/// `σ` the standard deviation of a pair's mean score over the `N` pairs), mapped through
/// [`score_to_elo`]: a pair's mean score is 1, ½ or 0 as a game's is with draws, so this is
/// [`elo_estimate`] with pairs won for wins, split pairs for draws and pairs lost for losses.
/// `None` without pairs.
pub fn pair_elo_estimate(pairs: PairScores) -> Option<EloEstimate> {
    elo_estimate(pairs.won_both, pairs.lost_both, pairs.split)
}

/// What an SPRT counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Complete pairs of games (`model=pairs`, the default): [`Sprt::llr_pairs`].
    #[default]
    Pairs,
    /// Single games as independent trials (`model=games`): [`Sprt::llr`].
    Games,
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// H0: the Elo difference is `elo0` (the change is not an improvement).
    H0,
    /// H1: the Elo difference is `elo1`.
    H1,
}

/// A malformed `--sprt` value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A part without `=`.
    #[error("--sprt \"{part}\": expected key=value")]
    NotKeyValue {
        /// The part.
        part: String,
    },
    /// A `model` other than `pairs` and `games`.
    #[error("--sprt model: \"{value}\" is not a model (use pairs or games)")]
    Model {
        /// The value given.
        value: String,
    },
    /// A value that is not a number.
    #[error("--sprt {key}: \"{value}\" is not a number")]
    NotANumber {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A key other than elo0, elo1, alpha, beta, model.
    #[error("--sprt: unknown key \"{key}\" (use elo0, elo1, alpha, beta, model)")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// elo0 or elo1 missing (or not finite).
    #[error("--sprt needs elo0 and elo1")]
    MissingElo,
    /// elo0 not below elo1.
    #[error("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order {
        /// elo0.
        elo0: f64,
        /// elo1.
        elo1: f64,
    },
    /// alpha or beta outside (0, 0.5).
    #[error("--sprt: {name} must be in (0, 0.5), got {value}")]
    Rate {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
}

/// A sequential probability ratio test between Elo differences `elo0` (H0) and `elo1` (H1),
/// with false-positive rate `alpha` and false-negative rate `beta`, on pairs of games or on
/// games ([`SprtModel`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// What the test counts.
    pub model: SprtModel,
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05,model=pairs` (alpha and beta default to
    /// 0.05, the model to pairs).
    pub fn parse(s: &str) -> Result<Sprt, SprtError> {
        let mut t = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pairs,
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| SprtError::NotKeyValue {
                part: part.to_string(),
            })?;
            if k.trim() == "model" {
                t.model = match v.trim() {
                    "pairs" => SprtModel::Pairs,
                    "games" => SprtModel::Games,
                    other => {
                        return Err(SprtError::Model {
                            value: other.to_string(),
                        })
                    }
                };
                continue;
            }
            let v: f64 = v.trim().parse().map_err(|_| SprtError::NotANumber {
                key: k.to_string(),
                value: v.to_string(),
            })?;
            match k.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => {
                    return Err(SprtError::UnknownKey {
                        key: other.to_string(),
                    })
                }
            }
        }
        if !t.elo0.is_finite() || !t.elo1.is_finite() {
            return Err(SprtError::MissingElo);
        }
        if t.elo0 >= t.elo1 {
            return Err(SprtError::Order {
                elo0: t.elo0,
                elo1: t.elo1,
            });
        }
        for (name, value) in [("alpha", t.alpha), ("beta", t.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Rate { name, value });
            }
        }
        Ok(t)
    }

    /// The log-likelihood ratio of H1 against H0 after `pairs`: [`pair_log_likelihood`] at
    /// H1's expected score less that at H0's.
    pub fn llr_pairs(&self, pairs: PairScores) -> f64 {
        pair_log_likelihood(pairs, elo_to_score(self.elo1))
            - pair_log_likelihood(pairs, elo_to_score(self.elo0))
    }

    /// The decision at log-likelihood ratio `llr`, if it has left the bounds.
    pub fn decide_llr(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }

    /// The log-likelihood ratio of H1 against H0 after `wins` and `losses` (the game model).
    pub fn llr(&self, wins: u64, losses: u64) -> f64 {
        let p0 = elo_to_score(self.elo0);
        let p1 = elo_to_score(self.elo1);
        wins as f64 * (p1 / p0).ln() + losses as f64 * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// Wald's bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Exact values from Python's integers: 2 * sum(comb(n, i) for i in range(k + 1)) / 2**n.
    #[test]
    fn the_sign_test_matches_exact_binomial_sums() {
        for (a, b, p) in [
            (12, 27, 0.023702702470473014),
            (27, 12, 0.023702702470473014),
            (0, 10, 0.001953125),
            (3, 9, 0.14599609375),
            (5000, 5200, 0.04878796312682245),
            (17, 17, 1.0),
            (1, 0, 1.0),
            (0, 0, 1.0),
        ] {
            let got = sign_test_p(a, b);
            assert!(
                close(got, p, 1e-9 * p.max(1e-300)),
                "{a}-{b}: {got} against {p}"
            );
        }
        // Far beyond f64's range for 2^-n: still a probability, and tiny.
        let p = sign_test_p(0, 5000);
        assert!(p == 0.0 || p < 1e-300);
        assert!(sign_test_p(2_000_000, 2_001_000) > 0.5);
    }

    // Known values, worked with the formulas in the doc comments (Python's math module):
    // 60-40: s = 0.6, Elo = 400·log10(0.6/0.4) = 70.4365; σ² of a game = 0.6·0.4² + 0.4·0.6²
    // = 0.24, σ of the mean = √(0.24/100) = 0.048990, 0.6 ∓ 1.96·0.048990 = 0.503979 / 0.696021
    // → Elo 2.7669 / 143.9092; LOS = ½(1 + erf(20/√200)) = ½(1 + erf(√2)) = 0.977250.
    // 30-10: Elo 190.8485, interval 81.9606 / 353.1191, LOS 0.999217.
    // 50-50: Elo 0, interval ±68.9888, LOS 0.5. 7-3: Elo 147.1907, interval −58.9462 / 715.8346.
    #[test]
    fn elo_interval_and_los_match_known_values() {
        for (w, l, elo, lo, hi, p) in [
            (60, 40, 70.4365036, 2.7668732, 143.9092330, 0.9772499),
            (30, 10, 190.8485019, 81.9605947, 353.1190698, 0.9992173),
            (50, 50, 0.0, -68.9887511, 68.9887511, 0.5),
            (7, 3, 147.1907141, -58.9462302, 715.8345613, 0.8970484),
        ] {
            let e = elo_estimate(w, l, 0).unwrap();
            assert!(close(e.elo, elo, 1e-6), "{w}-{l}: elo {}", e.elo);
            assert!(close(e.lower, lo, 1e-6), "{w}-{l}: lower {}", e.lower);
            assert!(close(e.upper, hi, 1e-6), "{w}-{l}: upper {}", e.upper);
            assert!(close(los(w, l), p, 2e-7), "{w}-{l}: los {}", los(w, l));
        }
        assert_eq!(elo_estimate(0, 0, 0), None);
        let all = elo_estimate(5, 0, 0).unwrap();
        assert_eq!(all.elo, f64::INFINITY);
        assert_eq!(los(0, 0), 0.5);
        // Draws count half: 1 win, 1 loss, 2 draws is an even score.
        assert!(close(elo_estimate(1, 1, 2).unwrap().elo, 0.0, 1e-12));
    }

    // A clean sweep of n games: the winning chance p with p^n = 0.05 (Python's math module):
    // n = 20: p = 0.05^(1/20) = 0.8608917, Elo = -400·log10(1/p − 1) = +316.638132;
    // n = 8: p = 0.6876560, Elo +137.095245; n = 1: p = 0.05, Elo −511.501440.
    #[test]
    fn a_clean_sweep_gets_the_exact_one_sided_bound() {
        assert!(close(sweep_score_bound(20), 0.860_891_659, 1e-9));
        for (n, bound) in [(20, 316.638132), (8, 137.095245), (1, -511.501440)] {
            match elo_summary(n, 0) {
                Some(EloSummary::Above(b)) => assert!(close(b, bound, 1e-6), "{n}-0: {b}"),
                other => panic!("{n}-0: {other:?}"),
            }
            match elo_summary(0, n) {
                Some(EloSummary::Below(b)) => assert!(close(b, -bound, 1e-6), "0-{n}: {b}"),
                other => panic!("0-{n}: {other:?}"),
            }
        }
        let sweep = elo_summary(20, 0).unwrap();
        assert_eq!((sweep.elo(), sweep.upper()), (None, None));
        assert!(close(sweep.lower().unwrap(), 316.638132, 1e-6));
        assert_eq!(elo_summary(0, 0), None);
        // Both sides won: the estimate and its interval, as elo_estimate gives them.
        let mixed = elo_summary(60, 40).unwrap();
        assert_eq!(
            mixed,
            EloSummary::Estimate(elo_estimate(60, 40, 0).unwrap())
        );
        assert!(close(mixed.lower().unwrap(), 2.7668732, 1e-6));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -35.5, 0.0, 10.0, 191.0] {
            assert!(close(score_to_elo(elo_to_score(e)), e, 1e-9));
        }
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650.
        for (x, v) in [
            (0.5, 0.5204998778),
            (1.0, 0.8427007929),
            (2.0, 0.9953222650),
        ] {
            assert!(close(erf(x), v, 2e-7), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -v, 2e-7));
        }
        assert!(close(erf(0.0), 0.0, 2e-7));
    }

    // 60-40 with elo0 = 0, elo1 = 10: p0 = 0.5, p1 = 0.514387; LLR = 60·ln(p1/p0) +
    // 40·ln((1−p1)/(1−p0)) = 0.534231; bounds ±ln(19) = ±2.944439.
    #[test]
    fn sprt_llr_and_bounds_match_known_values() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        assert!(close(s.llr(60, 40), 0.534230912, 1e-8));
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944438979, 1e-8) && close(hi, 2.944438979, 1e-8));
        let decide = |w, l| s.decide_llr(s.llr(w, l));
        assert_eq!(decide(60, 40), None);
        assert_eq!(decide(600, 400), Some(Hypothesis::H1));
        assert_eq!(decide(400, 600), Some(Hypothesis::H0));
        assert_eq!(Sprt::parse("elo0=0,elo1=5").unwrap().alpha, 0.05);
        assert_eq!(
            Sprt::parse("elo0=0,elo1=5").unwrap().model,
            SprtModel::Pairs
        );
        assert_eq!(
            Sprt::parse("elo0=0,elo1=5,model=games").unwrap().model,
            SprtModel::Games
        );
        for bad in [
            "elo0=5,elo1=0",
            "elo1=3",
            "elo0=0,elo1=5,alpha=2",
            "x=1",
            "elo0",
            "elo0=0,elo1=5,model=pentanomial",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    /// Runs the SPRT on simulated games with a true Elo difference `true_elo` until it
    /// decides (or 200,000 games), `runs` times; returns how often it accepted H1.
    fn h1_rate(sprt: &Sprt, true_elo: f64, runs: u32, seed: u64) -> f64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let p = elo_to_score(true_elo);
        let mut h1 = 0;
        for _ in 0..runs {
            let (mut w, mut l) = (0u64, 0u64);
            let decision = loop {
                if rng.gen_bool(p) {
                    w += 1
                } else {
                    l += 1
                }
                if let Some(d) = sprt.decide_llr(sprt.llr(w, l)) {
                    break Some(d);
                }
                if w + l >= 200_000 {
                    break None;
                }
            };
            assert!(decision.is_some(), "undecided after 200,000 games");
            if decision == Some(Hypothesis::H1) {
                h1 += 1;
            }
        }
        f64::from(h1) / f64::from(runs)
    }

    // Wald's bounds keep the real error rates at or a little under the nominal ones, so
    // over 1,000 seeded runs the rates land near (mostly under) 5%: the binomial standard
    // error of a 5% rate over 1,000 runs is 0.7%.
    #[test]
    fn sprt_error_rates_on_simulated_matches() {
        let sprt = Sprt::parse("elo0=0,elo1=20,alpha=0.05,beta=0.05").unwrap();
        let false_positive = h1_rate(&sprt, 0.0, 1000, 1);
        assert!(
            (0.015..=0.07).contains(&false_positive),
            "α̂ = {false_positive}"
        );
        let false_negative = 1.0 - h1_rate(&sprt, 20.0, 1000, 2);
        assert!(
            (0.015..=0.07).contains(&false_negative),
            "β̂ = {false_negative}"
        );
        // A clearly stronger engine is accepted nearly always, a clearly weaker one never.
        assert!(h1_rate(&sprt, 60.0, 300, 3) > 0.99);
        assert!(h1_rate(&sprt, -40.0, 300, 4) < 0.01);
    }

    fn pairs(lost_both: u64, split: u64, won_both: u64) -> PairScores {
        PairScores {
            lost_both,
            split,
            won_both,
        }
    }

    // Reference values from a separate computation (Python): the log-likelihood maximised by
    // a golden-section search over the chance of a split pair, at the expected scores of Elo
    // 10 and 0, and subtracted. The first three are the pair counts of round 56's and 58's
    // self-play files.
    #[test]
    fn the_pair_llr_matches_a_numerical_maximum() {
        let s = Sprt::parse("elo0=0,elo1=10").unwrap();
        for ((n0, n1, n2), llr) in [
            ((28, 117, 55), 1.682933494),
            ((36, 133, 31), -0.674386277),
            ((39, 81, 17), -1.673198384),
            ((0, 10, 0), -0.291964673),
            ((10, 0, 10), -0.008283072),
            ((5, 20, 15), 0.546294553),
        ] {
            let got = s.llr_pairs(pairs(n0, n1, n2));
            assert!(close(got, llr, 1e-7), "{n0}/{n1}/{n2}: {got} against {llr}");
        }
        assert_eq!(s.llr_pairs(PairScores::default()), 0.0);
        // Splits are half a point a game, so many of them mean an even score: H0.
        assert_eq!(
            s.decide_llr(s.llr_pairs(pairs(0, 200, 0))),
            Some(Hypothesis::H0)
        );
    }

    // Pairs of independent games at a 55% score: the pair model says what the game model says.
    #[test]
    fn on_independent_games_the_pair_llr_is_the_game_llr() {
        let s = Sprt::parse("elo0=0,elo1=10").unwrap();
        let n = 10_000.0;
        let (p, q) = (0.55, 0.45);
        let counts = pairs(
            (n * q * q) as u64,
            (n * 2.0 * p * q) as u64,
            (n * p * p) as u64,
        );
        let wins = counts.split + 2 * counts.won_both;
        let losses = counts.split + 2 * counts.lost_both;
        let (by_pairs, by_games) = (s.llr_pairs(counts), s.llr(wins, losses));
        assert!(
            (by_pairs / by_games - 1.0).abs() < 0.01,
            "{by_pairs} against {by_games}"
        );
        // And its Elo interval is the game model's.
        let e = pair_elo_estimate(counts).unwrap();
        let g = elo_estimate(wins, losses, 0).unwrap();
        assert!(close(e.elo, g.elo, 1e-9));
        assert!((e.error() / g.error() - 1.0).abs() < 0.01);
        assert_eq!(pair_elo_estimate(PairScores::default()), None);
    }

    /// Runs the SPRT on simulated pairs until it decides, `runs` times: in each pair the
    /// opening favours one colour by `bias` (a coin says which), so the two games are
    /// correlated; the candidate's score is `elo_to_score(true_elo)` on average. Returns how
    /// often it accepted H1 and the mean number of games it took.
    fn pair_h1_rate(sprt: &Sprt, true_elo: f64, bias: f64, runs: u32, seed: u64) -> (f64, f64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let p = elo_to_score(true_elo);
        let (mut h1, mut games) = (0, 0u64);
        for _ in 0..runs {
            let (mut counts, mut w, mut l) = (PairScores::default(), 0u64, 0u64);
            let decision = loop {
                let gold = if rng.gen_bool(0.5) { bias } else { -bias };
                let won = u8::from(rng.gen_bool(p + gold)) + u8::from(rng.gen_bool(p - gold));
                match won {
                    0 => counts.lost_both += 1,
                    1 => counts.split += 1,
                    _ => counts.won_both += 1,
                }
                w += u64::from(won);
                l += u64::from(2 - won);
                let llr = match sprt.model {
                    SprtModel::Pairs => sprt.llr_pairs(counts),
                    SprtModel::Games => sprt.llr(w, l),
                };
                if let Some(d) = sprt.decide_llr(llr) {
                    break d;
                }
            };
            games += w + l;
            if decision == Hypothesis::H1 {
                h1 += 1;
            }
        }
        (
            f64::from(h1) / f64::from(runs),
            games as f64 / f64::from(runs),
        )
    }

    // With openings that favour a colour by 30 points, the pair model keeps its error rates
    // near the nominal 5% and needs fewer games than the game model, whose variance is then
    // too large (it stays valid but slow).
    #[test]
    fn the_pair_sprt_keeps_its_error_rates_and_decides_sooner_on_correlated_pairs() {
        let by_pairs = Sprt::parse("elo0=0,elo1=20").unwrap();
        let by_games = Sprt::parse("elo0=0,elo1=20,model=games").unwrap();
        let (fp, pair_games_h0) = pair_h1_rate(&by_pairs, 0.0, 0.3, 600, 5);
        assert!((0.01..=0.08).contains(&fp), "α̂ = {fp}");
        let (tp, pair_games_h1) = pair_h1_rate(&by_pairs, 20.0, 0.3, 600, 6);
        assert!((0.92..=0.99).contains(&tp), "1 - β̂ = {tp}");
        let (_, game_games_h0) = pair_h1_rate(&by_games, 0.0, 0.3, 600, 5);
        let (_, game_games_h1) = pair_h1_rate(&by_games, 20.0, 0.3, 600, 6);
        assert!(
            pair_games_h0 < 0.8 * game_games_h0 && pair_games_h1 < 0.8 * game_games_h1,
            "games to a decision: pairs {pair_games_h0:.0} / {pair_games_h1:.0}, \
             games {game_games_h0:.0} / {game_games_h1:.0}"
        );
    }

    #[test]
    fn the_mean_difference_and_its_interval_follow_the_sample() {
        assert_eq!(mean_difference(&[]), None);
        assert_eq!(mean_difference(&[(1, 1), (2, 0)]), None);
        // d = 1, 1, -1, 1: mean 0.5, sample variance (3 × 0.25 + 2.25) / 3 = 1.
        let (mean, half) = mean_difference(&[(1, 3), (-1, 1), (0, 0)]).unwrap();
        assert!((mean - 0.5).abs() < 1e-12);
        assert!((half - Z95 * 1.0 / 2.0).abs() < 1e-12, "{half}");
        // All pairs the same: no spread.
        assert_eq!(mean_difference(&[(2, 5)]), Some((2.0, 0.0)));
    }
}
