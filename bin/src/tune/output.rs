//! The result of a run: the table of the linear weights (start, fitted, written) and the
//! weights file.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use tusk_eval::{weights_file, Weights};

/// Prints each linear weight: its starting value, the fitted one and the one written (rounded).
pub fn weights_table(
    out: &mut impl Write,
    start: &Weights,
    fitted: &[f64],
    written: &Weights,
) -> Result<()> {
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
            fitted[p.index()],
            written[p]
        )?;
    }
    Ok(())
}

/// Writes `weights` as a weights file at `path`, creating its directory.
pub fn write_weights(path: &Path, weights: &Weights) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, weights_file::to_json(weights))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
