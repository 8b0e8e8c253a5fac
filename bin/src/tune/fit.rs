//! The loss and the optimiser: the predicted result of a position is `sigmoid(eval / K)` with
//! `eval = Σ weight × feature difference` (side to move's view), the loss the mean squared
//! error (or the cross-entropy) against the game result, plus an L2 pull towards the starting
//! weights. `K` is fitted first (golden-section search with the starting weights), then the
//! weights by Adam on mini-batches, the gradient in closed form from the stored features:
//!
//! ```text
//! d loss / d w_j = mean_i  g(p_i, y_i) / K × x_ij  +  2 λ (w_j - w0_j)
//! g = 2 (p - y) p (1 - p)   (squared error),   g = p - y   (cross-entropy)
//! ```
//!
//! Pure functions of a [`Matrix`] and slices; the gradient is summed in parallel (rayon) over
//! chunks of the batch.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use super::matrix::Matrix;

/// Which loss is minimised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LossKind {
    /// Mean squared error between the predicted and the actual result (Texel's choice).
    Mse,
    /// Mean cross-entropy (log loss).
    Xent,
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss of one prediction `p` against result `y`.
#[inline]
fn point_loss(kind: LossKind, p: f64, y: f64) -> f64 {
    match kind {
        LossKind::Mse => (p - y) * (p - y),
        LossKind::Xent => {
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        }
    }
}

/// d loss / d (eval / K) of one prediction.
#[inline]
fn point_slope(kind: LossKind, p: f64, y: f64) -> f64 {
    match kind {
        LossKind::Mse => 2.0 * (p - y) * p * (1.0 - p),
        LossKind::Xent => p - y,
    }
}

/// Rows per parallel chunk.
const CHUNK: usize = 4096;

/// The mean data loss over rows `rows` of `m` with weights `w` and scale `k`.
pub fn loss(m: &Matrix, rows: &[u32], w: &[f64], k: f64, kind: LossKind) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let sum: f64 = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&r| {
                    let p = sigmoid(m.eval(r as usize, w) / k);
                    point_loss(kind, p, f64::from(m.result(r as usize)))
                })
                .sum::<f64>()
        })
        .sum();
    sum / rows.len() as f64
}

/// The loss of every row of `m`, in order, with weights `w` and scale `k`.
pub fn row_losses(m: &Matrix, w: &[f64], k: f64, kind: LossKind) -> Vec<f64> {
    (0..m.len())
        .into_par_iter()
        .map(|r| {
            let p = sigmoid(m.eval(r, w) / k);
            point_loss(kind, p, f64::from(m.result(r)))
        })
        .collect()
}

/// The L2 pull: `l2 × Σ (w - w0)²` over the fitted entries.
pub fn l2_term(w: &[f64], w0: &[f64], fitted: &[bool], l2: f64) -> f64 {
    l2 * w
        .iter()
        .zip(w0)
        .zip(fitted)
        .filter(|(_, &f)| f)
        .map(|((a, b), _)| (a - b) * (a - b))
        .sum::<f64>()
}

/// The gradient of the mean data loss over `rows` with respect to every weight, into `out`
/// (zero for weights no row uses).
pub fn gradient(m: &Matrix, rows: &[u32], w: &[f64], k: f64, kind: LossKind, out: &mut [f64]) {
    out.iter_mut().for_each(|g| *g = 0.0);
    if rows.is_empty() {
        return;
    }
    let n = w.len();
    let sum = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0f64; n];
            for &r in chunk {
                let r = r as usize;
                let (eval, slope) = m.eval_and_slope(r, w);
                let p = sigmoid(eval / k);
                let s = point_slope(kind, p, f64::from(m.result(r))) / k * slope;
                let (cols, vals) = m.row(r);
                for (&c, &v) in cols.iter().zip(vals) {
                    g[usize::from(c)] += s * f64::from(v);
                }
            }
            g
        })
        .reduce(
            || vec![0.0; n],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let scale = 1.0 / rows.len() as f64;
    for (o, s) in out.iter_mut().zip(sum) {
        *o = s * scale;
    }
}

/// The gradient of the whole objective (data loss plus the L2 pull) over the fitted entries
/// (zero elsewhere).
#[allow(clippy::too_many_arguments)]
pub fn objective_gradient(
    m: &Matrix,
    rows: &[u32],
    w: &[f64],
    w0: &[f64],
    fitted: &[bool],
    k: f64,
    l2: f64,
    kind: LossKind,
    out: &mut [f64],
) {
    gradient(m, rows, w, k, kind, out);
    for j in 0..w.len() {
        out[j] = if fitted[j] {
            out[j] + 2.0 * l2 * (w[j] - w0[j])
        } else {
            0.0
        };
    }
}

/// The scale `K` (centirabbits) minimising the loss with weights `w`: a golden-section
/// search over `ln K` in [ln 10, ln 20000].
pub fn fit_k(m: &Matrix, rows: &[u32], w: &[f64], kind: LossKind) -> f64 {
    let f = |lk: f64| loss(m, rows, w, lk.exp(), kind);
    let (mut a, mut b) = (10f64.ln(), 20_000f64.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-6 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Adam's state for one vector of weights.
#[derive(Clone, Debug)]
pub struct Adam {
    lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    /// Adam with step size `lr` (weight units, centirabbits as a rule) and the usual betas.
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step along gradient `g`, on the entries marked `fitted`.
    pub fn step(&mut self, w: &mut [f64], g: &[f64], fitted: &[bool]) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        for j in 0..w.len() {
            if !fitted[j] {
                continue;
            }
            self.m[j] = self.beta1 * self.m[j] + (1.0 - self.beta1) * g[j];
            self.v[j] = self.beta2 * self.v[j] + (1.0 - self.beta2) * g[j] * g[j];
            let mh = self.m[j] / c1;
            let vh = self.v[j] / c2;
            w[j] -= self.lr * mh / (vh.sqrt() + self.eps);
        }
    }
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Passes over the training rows.
    pub epochs: usize,
    /// Adam's step size.
    pub lr: f64,
    /// The L2 pull towards the starting weights (per squared weight unit).
    pub l2: f64,
    /// Rows per Adam step.
    pub batch: usize,
    /// Shuffles the rows each epoch.
    pub seed: u64,
    /// The loss.
    pub kind: LossKind,
    /// The logistic scale.
    pub k: f64,
}

/// Fits the entries of `w0` marked `fitted` on rows `train` of `m`; `on_epoch(epoch,
/// weights)` is called after each epoch (for reporting). Returns the fitted weights.
pub fn fit(
    m: &Matrix,
    train: &[u32],
    w0: &[f64],
    fitted: &[bool],
    cfg: &FitConfig,
    on_epoch: &mut dyn FnMut(usize, &[f64]),
) -> Vec<f64> {
    let mut w = w0.to_vec();
    let mut adam = Adam::new(w.len(), cfg.lr);
    let mut order = train.to_vec();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut g = vec![0.0; w.len()];
    let batch = cfg.batch.max(1);
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        for rows in order.chunks(batch) {
            objective_gradient(m, rows, &w, w0, fitted, cfg.k, cfg.l2, cfg.kind, &mut g);
            adam.step(&mut w, &g, fitted);
        }
        on_epoch(epoch, &w);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::super::matrix::Row;
    use super::*;
    use rand::Rng;

    /// A random sparse matrix of `n` rows over `cols` weights, results drawn from
    /// `sigmoid(true · x / k)`: the probabilities themselves (`soft`) or 0/1 draws.
    fn synthetic(n: usize, truth: &[f64], k: f64, soft: bool, seed: u64) -> Matrix {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut m = Matrix::default();
        for _ in 0..n {
            let mut entries = Vec::new();
            for (c, _) in truth.iter().enumerate() {
                if rng.gen_bool(0.6) {
                    entries.push((c as u16, rng.gen_range(-3.0f32..3.0)));
                }
            }
            let e: f64 = entries
                .iter()
                .map(|&(c, v)| truth[usize::from(c)] * f64::from(v))
                .sum();
            let p = sigmoid(e / k);
            let y = if soft {
                p as f32
            } else {
                f32::from(u8::from(rng.gen_bool(p)))
            };
            m.push(&entries, y);
        }
        m
    }

    fn all(m: &Matrix) -> Vec<u32> {
        (0..m.len() as u32).collect()
    }

    /// `m`'s rows again, each with variance points drawn from 0 to 150 for each side (scale
    /// 450: the variance adjustment applies).
    fn with_variance(m: &Matrix, seed: u64) -> Matrix {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Matrix::default();
        for i in 0..m.len() {
            let (cols, vals) = m.row(i);
            let row = Row {
                entries: cols.iter().copied().zip(vals.iter().copied()).collect(),
                variance: [rng.gen_range(0.0..150.0), rng.gen_range(0.0..150.0), 450.0],
            };
            out.push_row(&row, m.result(i));
        }
        out
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let truth = [120.0, -40.0, 15.0, 300.0, 0.0];
        let plain = synthetic(500, &truth, 150.0, false, 1);
        let adjusted = with_variance(&plain, 7);
        let rows = all(&plain);
        let w = vec![100.0, -10.0, 30.0, 250.0, 5.0];
        let w0 = vec![90.0, 0.0, 20.0, 260.0, 5.0];
        let fitted = [true, true, true, true, false];
        // The adjustment changes the model (and so the gradient) on every row.
        assert!((0..plain.len()).all(|i| plain.eval(i, &w) != adjusted.eval(i, &w)));
        for (m, kind) in [&plain, &adjusted]
            .into_iter()
            .flat_map(|m| [(m, LossKind::Mse), (m, LossKind::Xent)])
        {
            let (k, l2) = (170.0, 1e-4);
            let mut g = vec![0.0; w.len()];
            objective_gradient(m, &rows, &w, &w0, &fitted, k, l2, kind, &mut g);
            let objective = |w: &[f64]| loss(m, &rows, w, k, kind) + l2_term(w, &w0, &fitted, l2);
            for j in 0..w.len() {
                if !fitted[j] {
                    assert_eq!(g[j], 0.0);
                    continue;
                }
                let h = 1e-3;
                let (mut up, mut down) = (w.clone(), w.clone());
                up[j] += h;
                down[j] -= h;
                let numeric = (objective(&up) - objective(&down)) / (2.0 * h);
                assert!(
                    (numeric - g[j]).abs() <= 1e-7 + 1e-4 * numeric.abs(),
                    "{kind:?} weight {j}: analytic {} numeric {numeric}",
                    g[j]
                );
                assert!(
                    g[j].abs() > 1e-7,
                    "{kind:?} weight {j}: a gradient to check"
                );
            }
        }
    }

    #[test]
    fn k_is_recovered_from_results_of_known_weights() {
        let truth = [120.0, -40.0, 15.0, 300.0];
        let m = synthetic(4000, &truth, 250.0, true, 2);
        let k = fit_k(&m, &all(&m), &truth, LossKind::Mse);
        assert!((k - 250.0).abs() < 0.5, "K {k}");
    }

    #[test]
    fn a_fit_on_exact_results_recovers_the_true_weights() {
        // Soft results: the true weights are the exact minimum. Start far from them, no pull.
        let truth = [120.0, -40.0, 15.0, 300.0, 60.0, -200.0];
        let m = synthetic(6000, &truth, 200.0, true, 3);
        let rows = all(&m);
        let w0 = vec![0.0; truth.len()];
        let fitted = vec![true; truth.len()];
        for kind in [LossKind::Mse, LossKind::Xent] {
            let cfg = FitConfig {
                epochs: 400,
                lr: 2.0,
                l2: 0.0,
                batch: 1024,
                seed: 4,
                kind,
                k: 200.0,
            };
            let w = fit(&m, &rows, &w0, &fitted, &cfg, &mut |_, _| {});
            for (j, (got, want)) in w.iter().zip(&truth).enumerate() {
                assert!(
                    (got - want).abs() < 1.0,
                    "{kind:?} weight {j}: {got} instead of {want}"
                );
            }
            assert!(
                loss(&m, &rows, &w, 200.0, kind) <= loss(&m, &rows, &truth, 200.0, kind) + 1e-6
            );
        }
    }

    #[test]
    fn a_fit_on_game_like_results_recovers_the_weights_within_sampling_error() {
        // 0/1 results drawn from the true probabilities, as game results are.
        let truth = [120.0, -40.0, 15.0, 300.0];
        let m = synthetic(60_000, &truth, 200.0, false, 5);
        let rows = all(&m);
        let cfg = FitConfig {
            epochs: 60,
            lr: 2.0,
            l2: 0.0,
            batch: 4096,
            seed: 6,
            kind: LossKind::Xent,
            k: 200.0,
        };
        let w = fit(&m, &rows, &[0.0; 4], &[true; 4], &cfg, &mut |_, _| {});
        for (j, (got, want)) in w.iter().zip(&truth).enumerate() {
            assert!(
                (got - want).abs() <= 0.08 * want.abs().max(50.0),
                "weight {j}: {got} instead of {want}"
            );
        }
    }

    #[test]
    fn unused_and_unfitted_weights_stay_where_they_start() {
        // Weights 1 and 2 never appear in a row: they stay where they start; weight 3 is not
        // fitted and stays too (the results were made with its value, 7).
        let mut m = Matrix::default();
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..2000 {
            let x = rng.gen_range(-2.0f32..2.0);
            let e = f64::from(x) * 100.0 + 7.0;
            m.push(&[(0, x), (3, 1.0)], sigmoid(e / 150.0) as f32);
        }
        let w0 = vec![10.0, 5.0, 42.0, 7.0];
        let cfg = FitConfig {
            epochs: 100,
            lr: 1.0,
            l2: 1e-9,
            batch: 500,
            seed: 1,
            kind: LossKind::Mse,
            k: 150.0,
        };
        let w = fit(
            &m,
            &all(&m),
            &w0,
            &[true, true, true, false],
            &cfg,
            &mut |_, _| {},
        );
        assert!((w[0] - 100.0).abs() < 1.0, "{w:?}");
        assert_eq!((w[1], w[2]), (5.0, 42.0));
        assert_eq!(w[3], 7.0);
    }
}

#[cfg(test)]
mod speed {
    use super::*;
    use rand::Rng;

    /// An epoch over a million positions with as many features as Tusk's (13 non-zero of 42)
    /// takes seconds: measured and printed (run with --include-ignored, in release).
    #[test]
    #[ignore = "a timing: a million rows, about 100 MB"]
    fn an_epoch_over_a_million_positions_takes_seconds() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut m = Matrix::default();
        let mut entries = Vec::new();
        for _ in 0..1_000_000 {
            entries.clear();
            for c in 0..42u16 {
                if rng.gen_ratio(13, 42) {
                    entries.push((c, rng.gen_range(-3.0f32..3.0)));
                }
            }
            m.push(&entries, f32::from(u8::from(rng.gen_bool(0.5))));
        }
        let rows: Vec<u32> = (0..m.len() as u32).collect();
        let w0 = vec![10.0; 42];
        let cfg = FitConfig {
            epochs: 3,
            lr: 0.5,
            l2: 1e-7,
            batch: 16384,
            seed: 1,
            kind: LossKind::Mse,
            k: 400.0,
        };
        let t = std::time::Instant::now();
        fit(&m, &rows, &w0, &[true; 42], &cfg, &mut |_, _| {});
        let epoch = t.elapsed().as_secs_f64() / 3.0;
        let t = std::time::Instant::now();
        let l = loss(&m, &rows, &w0, 400.0, LossKind::Mse);
        let pass = t.elapsed().as_secs_f64();
        eprintln!(
            "a million rows, {:.1} MB: {epoch:.3} s an epoch, {pass:.3} s a loss pass (loss {l:.4}), \
             {} threads",
            m.bytes() as f64 / 1e6,
            rayon::current_num_threads()
        );
        assert!(epoch < 30.0, "{epoch} s an epoch");
    }
}
