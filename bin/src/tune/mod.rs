//! `tusk tune`: fits the evaluation's weights to game results, Texel's way. Games come from
//! `tusk datagen` and `tusk match --json` files ([`data`]); each sampled position's features
//! are computed once into a sparse [`matrix`]; the logistic scale and then the weights are
//! fitted by [`fit`]; the result is written as a weights file (see `eval/README.md`).

pub mod data;
pub mod fit;
pub mod matrix;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use tusk_eval::{weights_file, Weights};

use crate::cli::weights::WeightsArgs;
use crate::matches::schedule::mix;
use data::{GameSample, Rejected, SampleConfig, Source};
use fit::{FitConfig, LossKind};
use matrix::Matrix;

/// Arguments of `tusk tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Game files: `tusk datagen` output and `tusk match --json` files, in any mix (the format
    /// is told line by line).
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Where to write the fitted weights file.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 100, value_name = "N")]
    epochs: usize,
    /// Adam's step size, in weight units (centirabbits or percent).
    #[arg(long, default_value_t = 0.5, value_name = "X")]
    lr: f64,
    /// L2 pull towards the starting weights: this times the sum of squared changes is added
    /// to the loss.
    #[arg(long, default_value_t = 1e-7, value_name = "X")]
    l2: f64,
    /// Share of the games held back to validate (by game, not by position).
    #[arg(long, default_value_t = 0.1, value_name = "F")]
    validation: f64,
    /// Seeds the sampling, the split and the order of the mini-batches.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Positions taken from each game, at most.
    #[arg(long, default_value_t = 16, value_name = "K")]
    positions_per_game: usize,
    /// Turns skipped at the start of each game, after the setups.
    #[arg(long, default_value_t = 8, value_name = "N")]
    skip_turns: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_name = "N")]
    batch: usize,
    /// The loss: mean squared error or cross-entropy.
    #[arg(long, value_enum, default_value_t = LossKind::Mse)]
    loss: LossKind,
    /// Use this logistic scale (centirabbits) instead of fitting it.
    #[arg(long, value_name = "CR")]
    k: Option<f64>,
    /// Worker threads for sampling and gradients (default: every core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// The starting weights (and the shape parameters, which stay): a weights file.
    #[command(flatten)]
    weights: WeightsArgs,
}

/// Whether game `ordinal` is held back for validation: a seeded hash below `share`.
pub fn is_validation(seed: u64, ordinal: u64, share: f64) -> bool {
    let h = mix(seed ^ 0x5641_4c49_4441_5445, ordinal);
    let unit = (h >> 11) as f64 / (1u64 << 53) as f64;
    unit < share
}

/// Counts over the data, for the report.
#[derive(Default, Debug)]
struct Tally {
    datagen: u64,
    matches: u64,
    used: u64,
    not_by_rules: u64,
    illegal: u64,
    differs: u64,
    candidates: u64,
    decided: u64,
    not_quiet: u64,
    resolved: u64,
}

/// Runs `tusk tune`.
pub fn run(a: &TuneArgs) -> Result<()> {
    if !(0.0..1.0).contains(&a.validation) {
        bail!(
            "--validation {}: must be at least 0 and below 1",
            a.validation
        );
    }
    if a.epochs == 0 || a.batch == 0 || a.positions_per_game == 0 {
        bail!("--epochs, --batch and --positions-per-game must be at least 1");
    }
    if !(a.lr > 0.0 && a.lr.is_finite() && a.l2 >= 0.0 && a.l2.is_finite()) {
        bail!("--lr must be positive and --l2 at least 0");
    }
    if let Some(k) = a.k {
        if !(k > 0.0 && k.is_finite()) {
            bail!("--k {k}: must be a positive number of centirabbits");
        }
    }
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global()
            .context("setting up the worker threads")?;
    }
    let start = a.weights.load()?;
    let started = Instant::now();
    let mut out = std::io::stdout().lock();

    let mut records = Vec::new();
    for path in &a.data {
        records.extend(data::read_games(path).map_err(|e| anyhow!(e))?);
    }
    let mut tally = Tally::default();
    for r in &records {
        match r.source {
            Source::Datagen => tally.datagen += 1,
            Source::Match => tally.matches += 1,
        }
    }
    let cfg = SampleConfig {
        skip_turns: a.skip_turns,
        positions_per_game: a.positions_per_game,
        seed: a.seed,
    };
    let pb = ProgressBar::new(records.len() as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games sampled [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let sampled: Vec<Result<GameSample, (Rejected, String)>> = records
        .par_iter()
        .enumerate()
        .map(|(i, r)| {
            let s = data::replay(r).map(|g| data::sample(&g, i as u64, &cfg, &start));
            pb.inc(1);
            s
        })
        .collect();
    pb.finish_and_clear();

    let (mut train, mut valid) = (Matrix::default(), Matrix::default());
    let mut first_rejects = Vec::new();
    for (i, s) in sampled.into_iter().enumerate() {
        match s {
            Ok(s) => {
                tally.used += 1;
                tally.candidates += s.candidates;
                tally.decided += s.decided;
                tally.not_quiet += s.not_quiet;
                tally.resolved += s.resolved;
                if is_validation(a.seed, i as u64, a.validation) {
                    valid.append(&s.rows);
                } else {
                    train.append(&s.rows);
                }
            }
            Err((why, text)) => {
                match why {
                    Rejected::NotByTheRules => tally.not_by_rules += 1,
                    Rejected::Illegal => tally.illegal += 1,
                    Rejected::ResultDiffers => tally.differs += 1,
                }
                if why != Rejected::NotByTheRules && first_rejects.len() < 5 {
                    first_rejects.push(format!("{}: {text}", records[i].origin));
                }
            }
        }
    }
    writeln!(
        out,
        "games: {} read ({} datagen, {} match), {} used; skipped: {} not ended by the rules, {} \
         not replaying legally, {} ending otherwise than recorded",
        records.len(),
        tally.datagen,
        tally.matches,
        tally.used,
        tally.not_by_rules,
        tally.illegal,
        tally.differs
    )?;
    for r in &first_rejects {
        writeln!(out, "  skipped {r}")?;
    }
    writeln!(
        out,
        "positions: {} turn starts after the first {} turns; {} won by goal within the turn, {} \
         not quiet after the quiescence search; {} taken ({} of them quiescence leaves): {} \
         training, {} validation ({:.1} non-zero features a position, {:.1} MB; {:.1} s)",
        tally.candidates,
        a.skip_turns,
        tally.decided,
        tally.not_quiet,
        train.len() + valid.len(),
        tally.resolved,
        train.len(),
        valid.len(),
        (train.entries() + valid.entries()) as f64 / (train.len() + valid.len()).max(1) as f64,
        (train.bytes() + valid.bytes()) as f64 / 1e6,
        started.elapsed().as_secs_f64()
    )?;
    if train.is_empty() {
        bail!("no training positions: give more games, or lower --skip-turns or --validation");
    }

    let tr: Vec<u32> = (0..train.len() as u32).collect();
    let va: Vec<u32> = (0..valid.len() as u32).collect();
    let w0 = matrix::to_vector(&start);
    let fitted = matrix::fitted_mask();
    let kind = a.loss;
    let t = Instant::now();
    let k = match a.k {
        Some(k) => k,
        None => fit::fit_k(&train, &tr, &w0, kind),
    };
    writeln!(
        out,
        "K = {k:.1} centirabbits ({}; {:.1} s)",
        if a.k.is_some() {
            "given"
        } else {
            "fitted with the starting weights"
        },
        t.elapsed().as_secs_f64()
    )?;
    let losses = |w: &[f64]| {
        (
            fit::loss(&train, &tr, w, k, kind),
            fit::loss(&valid, &va, w, k, kind),
        )
    };
    let name = match kind {
        LossKind::Mse => "squared error",
        LossKind::Xent => "cross-entropy",
    };
    writeln!(
        out,
        "{:>6} {:>14} {:>16}   ({name})",
        "epoch", "training", "validation"
    )?;
    let (t0, v0) = losses(&w0);
    writeln!(out, "{:>6} {t0:>14.6} {v0:>16.6}   (starting weights)", 0)?;
    let fit_cfg = FitConfig {
        epochs: a.epochs,
        lr: a.lr,
        l2: a.l2,
        batch: a.batch,
        seed: a.seed,
        kind,
        k,
    };
    let t = Instant::now();
    let w = fit::fit(&train, &tr, &w0, &fitted, &fit_cfg, &mut |epoch, w| {
        let (tl, vl) = losses(w);
        // A closed standard output (`| head`) only silences the report.
        let _ = writeln!(std::io::stdout().lock(), "{epoch:>6} {tl:>14.6} {vl:>16.6}");
    });
    let secs = t.elapsed().as_secs_f64();
    let written = matrix::rounded(&start, &w);
    let (t1, v1) = losses(&w);
    let (t2, v2) = losses(&matrix::to_vector(&written));
    writeln!(
        out,
        "fitted in {secs:.1} s ({:.2} s an epoch); training {t0:.6} -> {t1:.6}, validation \
         {v0:.6} -> {v1:.6}; rounded to integers: training {t2:.6}, validation {v2:.6} (L2 \
         pull {:.6})",
        secs / a.epochs as f64,
        fit::l2_term(&w, &w0, &fitted, a.l2)
    )?;
    writeln!(
        out,
        "{:<24} {:>8} {:>10} {:>8}",
        "weight", "start", "fitted", "written"
    )?;
    for p in Weights::params().filter(|&p| Weights::is_linear(p)) {
        writeln!(
            out,
            "{:<24} {:>8} {:>10.2} {:>8}",
            Weights::name(p),
            start[p],
            w[p.index()],
            written[p]
        )?;
    }
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&a.out, weights_file::to_json(&written))
        .with_context(|| format!("writing {}", a.out.display()))?;
    writeln!(out, "wrote {}", a.out.display())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validation_split_is_seeded_and_near_its_share() {
        let n = (0..10_000).filter(|&i| is_validation(1, i, 0.1)).count();
        assert!((900..1100).contains(&n), "{n}");
        assert_eq!(
            (0..100)
                .filter(|&i| is_validation(1, i, 0.1))
                .collect::<Vec<_>>(),
            (0..100)
                .filter(|&i| is_validation(1, i, 0.1))
                .collect::<Vec<_>>()
        );
        assert_ne!(
            (0..100)
                .filter(|&i| is_validation(1, i, 0.1))
                .collect::<Vec<_>>(),
            (0..100)
                .filter(|&i| is_validation(2, i, 0.1))
                .collect::<Vec<_>>()
        );
        assert_eq!((0..100).filter(|&i| is_validation(1, i, 0.0)).count(), 0);
    }
}
