//! The fitting, with its printout: the logistic scale K (given or fitted with the starting
//! weights), then the weights epoch by epoch with the losses on the training and validation
//! positions, then the losses before and after, and after rounding.

use std::io::Write;
use std::time::Instant;

use anyhow::{anyhow, Result};
use tusk_eval::Weights;

use super::dataset::Dataset;
use super::fit::{self, FitConfig, LossKind};
use super::matrix::{self, Matrix};
use super::TuneArgs;

/// The fitting's inputs: both sets of positions, the starting weights as a vector with the
/// entries that are fitted, the loss and the logistic scale K.
pub struct Training<'a> {
    train: &'a Matrix,
    valid: &'a Matrix,
    tr: Vec<u32>,
    va: Vec<u32>,
    w0: Vec<f64>,
    fitted: Vec<bool>,
    kind: LossKind,
    k: f64,
}

/// The fitted weights (unrounded), the time the epochs took, and the losses (training,
/// validation) of the starting weights.
pub struct Fitted {
    /// The fitted weight vector.
    pub w: Vec<f64>,
    /// Seconds the epochs took.
    pub secs: f64,
    /// The starting weights' losses, training and validation.
    pub before: (f64, f64),
}

/// The loss's name in the table's header.
fn loss_name(kind: LossKind) -> &'static str {
    match kind {
        LossKind::Mse => "squared error",
        LossKind::Xent => "cross-entropy",
    }
}

impl<'a> Training<'a> {
    /// Training on `data` from the weights `start` with `--loss`; K is `--k` or fitted on the
    /// training positions, and printed with the time it took.
    pub fn new(
        out: &mut impl Write,
        data: &'a Dataset,
        start: &Weights,
        a: &TuneArgs,
    ) -> Result<Training<'a>> {
        let (train, valid) = (&data.train, &data.valid);
        let mut t = Training {
            train,
            valid,
            tr: (0..train.len() as u32).collect(),
            va: (0..valid.len() as u32).collect(),
            w0: matrix::to_vector(start),
            fitted: matrix::fitted_mask_keeping(&a.keep).map_err(|e| anyhow!(e))?,
            kind: a.loss,
            k: 0.0,
        };
        let clock = Instant::now();
        t.k = match a.k {
            Some(k) => k,
            None => fit::fit_k(train, &t.tr, &t.w0, t.kind),
        };
        writeln!(
            out,
            "K = {:.1} centirabbits ({}; {:.1} s)",
            t.k,
            if a.k.is_some() {
                "given"
            } else {
                "fitted with the starting weights"
            },
            clock.elapsed().as_secs_f64()
        )?;
        Ok(t)
    }

    /// The losses of `w` on the training and the validation positions.
    fn losses(&self, w: &[f64]) -> (f64, f64) {
        (
            fit::loss(self.train, &self.tr, w, self.k, self.kind),
            fit::loss(self.valid, &self.va, w, self.k, self.kind),
        )
    }

    /// Fits the weights with Adam (`--epochs`, `--lr`, `--l2`, `--batch`, `--seed`), printing
    /// a table of both losses: the starting weights', then one line an epoch.
    pub fn fit(&self, out: &mut impl Write, a: &TuneArgs) -> Result<Fitted> {
        writeln!(
            out,
            "{:>6} {:>14} {:>16}   ({})",
            "epoch",
            "training",
            "validation",
            loss_name(self.kind)
        )?;
        let (t0, v0) = self.losses(&self.w0);
        writeln!(out, "{:>6} {t0:>14.6} {v0:>16.6}   (starting weights)", 0)?;
        let cfg = FitConfig {
            epochs: a.epochs,
            lr: a.lr,
            l2: a.l2,
            batch: a.batch,
            seed: a.seed,
            kind: self.kind,
            k: self.k,
        };
        let clock = Instant::now();
        let w = fit::fit(
            self.train,
            &self.tr,
            &self.w0,
            &self.fitted,
            &cfg,
            &mut |epoch, w| {
                let (tl, vl) = self.losses(w);
                // A closed standard output (`| head`) only silences the report.
                let _ = writeln!(std::io::stdout().lock(), "{epoch:>6} {tl:>14.6} {vl:>16.6}");
            },
        );
        Ok(Fitted {
            w,
            secs: clock.elapsed().as_secs_f64(),
            before: (t0, v0),
        })
    }

    /// Prints the time the fit took and the losses before, after, and after rounding to
    /// `written`, with the L2 pull (`l2`) of the fitted weights; `epochs` were run.
    pub fn report(
        &self,
        out: &mut impl Write,
        f: &Fitted,
        written: &Weights,
        epochs: usize,
        l2: f64,
    ) -> Result<()> {
        let ((t0, v0), secs) = (f.before, f.secs);
        let (t1, v1) = self.losses(&f.w);
        let (t2, v2) = self.losses(&matrix::to_vector(written));
        writeln!(
            out,
            "fitted in {secs:.1} s ({:.2} s an epoch); training {t0:.6} -> {t1:.6}, validation \
             {v0:.6} -> {v1:.6}; rounded to integers: training {t2:.6}, validation {v2:.6} (L2 \
             pull {:.6})",
            secs / epochs as f64,
            fit::l2_term(&f.w, &self.w0, &self.fitted, l2)
        )?;
        Ok(())
    }
}
