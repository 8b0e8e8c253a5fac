//! `tusk tune`: fits the evaluation's weights to game results, Texel's way. Games come from
//! `tusk datagen` and `tusk match --json` files ([`data`]); positions scored by a teacher
//! (another engine's judgement) from scored files ([`scored`]); each sampled position's features
//! are computed once into a sparse [`matrix`]; the logistic scale and then the weights are
//! fitted by [`fit`]; the result is written as a weights file (see `eval/README.md`).
//!
//! By job: [`dataset`] reads, samples and splits the games and reports them; [`train`] fits K
//! and then the weights, printing the losses; [`output`] prints the table of weights and
//! writes the file; [`scan`] is the line search over one parameter (`--scan`), for the shape
//! parameters the gradient cannot fit.

pub mod data;
pub mod dataset;
pub mod fit;
pub mod matrix;
pub mod output;
pub mod scan;
pub mod scored;
pub mod train;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::cli::weights::WeightsArgs;
use crate::matches::schedule::mix;
use fit::LossKind;
use train::Training;

/// Arguments of `tusk tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Game files: `tusk datagen` output and `tusk match --json` files, in any mix (the format
    /// is told line by line).
    #[arg(long, required_unless_present = "scored", num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Scored position files: one `{"position": "g [...]", "score": CR}` a line, a teacher's
    /// score from the side to move's view (with `"steps": "Ee2n"`, of the position after the
    /// side to move plays those steps, in the middle of its turn); the target is the logistic
    /// of score / K, so `--k` is needed (see README.md).
    #[arg(long, num_args = 1.., value_name = "FILE", requires = "k")]
    scored: Vec<PathBuf>,
    /// Keep the scored positions the side to move can end by a capture (skipped otherwise,
    /// like every position that is not quiet): a teacher's search score has played the
    /// capture out, so these fit the weight of a capture within reach (`capture_now_pct`).
    #[arg(long, requires = "scored")]
    scored_captures: bool,
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
    /// Weights left at their starting values: names or groups (`goal_threat,trap_curve`).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    keep: Vec<String>,
    /// Worker threads for sampling and gradients (default: every core).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Instead of fitting the weights, a line search over one parameter: `NAME=V1,V2,...`
    /// (e.g. `capture_risk_mover_pct=0,25,50,75,100`). Every value is measured on the same
    /// sampled positions (K fitted per value unless `--k` is given); the table shows the
    /// losses and the validation loss's difference from the starting value with its standard
    /// error, and `--out` gets the starting weights with the value of least training loss.
    /// Repeat it to scan several parameters, each from the starting weights on its own; the
    /// file then takes each one's best value (their interplay is not measured).
    #[arg(long, value_parser = scan::parse_scan, value_name = "NAME=V1,V2,...")]
    scan: Vec<scan::Scan>,
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

/// Refuses a validation share, counts, step sizes or K out of range, naming the argument.
fn check(a: &TuneArgs) -> Result<()> {
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
    matrix::fitted_mask_keeping(&a.keep).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(k) = a.k {
        if !(k > 0.0 && k.is_finite()) {
            bail!("--k {k}: must be a positive number of centirabbits");
        }
    }
    Ok(())
}

/// Sets up `--threads` worker threads (at least one) for sampling and gradients.
fn use_threads(threads: usize) -> Result<()> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()
        .context("setting up the worker threads")
}

/// Runs `tusk tune`: checks the arguments, samples the games, fits K and then the weights
/// (printing the losses as it goes), and writes the weights file with a table of the weights.
pub fn run(a: &TuneArgs) -> Result<()> {
    check(a)?;
    if let Some(t) = a.threads {
        use_threads(t)?;
    }
    let start = a.weights.load()?;
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let data = dataset::load(a, &start)?;
    data.report(&mut out, a.skip_turns, started)?;
    if data.train.is_empty() {
        bail!(
            "no training positions: give more games or scored positions, or lower --skip-turns \
             or --validation"
        );
    }
    if !a.scan.is_empty() {
        return run_scans(&mut out, &a.scan, &data, &start, a);
    }
    let training = Training::new(&mut out, &data, &start, a)?;
    let fitted = training.fit(&mut out, a)?;
    let written = matrix::rounded(&start, &fitted.w);
    training.report(&mut out, &fitted, &written, a.epochs, a.l2)?;
    output::weights_table(&mut out, &start, &fitted.w, &written)?;
    output::write_weights(&a.out, &written)?;
    writeln!(out, "wrote {}", a.out.display())?;
    Ok(())
}

/// `--scan`: measures each value of each scan, prints the tables and writes the starting
/// weights with each scanned parameter at its value of least training loss.
fn run_scans(
    out: &mut impl Write,
    scans: &[scan::Scan],
    data: &dataset::Dataset,
    start: &tusk_eval::Weights,
    a: &TuneArgs,
) -> Result<()> {
    let mut written = start.clone();
    let mut changed = Vec::new();
    for s in scans {
        let name = tusk_eval::Weights::name(s.param);
        let clock = Instant::now();
        let points = scan::run_scan(
            s,
            start,
            &data.train_positions,
            &data.valid_positions,
            a.loss,
            a.k,
        );
        scan::print_table(out, name, start[s.param], &points)?;
        let Some(best) = scan::best(&points) else {
            bail!("--scan {name}: no value to measure");
        };
        writeln!(
            out,
            "least training loss: {name} = {} (validation {:.6}, {:+.6} ± {:.6} against {}; \
             {:.1} s)",
            best.value,
            best.valid,
            best.versus_start.0,
            best.versus_start.1,
            start[s.param],
            clock.elapsed().as_secs_f64()
        )?;
        written[s.param] = best.value;
        if best.value != start[s.param] {
            changed.push(format!("{name} = {}", best.value));
        }
    }
    output::write_weights(&a.out, &written)?;
    writeln!(
        out,
        "wrote {} (the starting weights{})",
        a.out.display(),
        if changed.is_empty() {
            String::new()
        } else {
            format!(" with {}", changed.join(", "))
        }
    )?;
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
