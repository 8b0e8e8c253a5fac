//! `--weights FILE`, shared by `tusk eval`, `analyze`, `bench`, `datagen` and `tune`: reads a
//! weights file (see `eval/README.md`), warning on standard error about names it leaves out.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use tusk_eval::weights_file::{self, Loaded};
use tusk_eval::Weights;

/// The `--weights` option.
#[derive(Args, Clone, Debug, Default)]
pub struct WeightsArgs {
    /// Evaluation weights from a JSON file (`{"name": integer, ...}`; names left out keep
    /// the shipped values). Without it, the shipped weights compiled into Tusk.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

impl WeightsArgs {
    /// The weights to use: the file's, or the shipped ones.
    pub fn load(&self) -> Result<Weights> {
        match &self.weights {
            None => Ok(Weights::default()),
            Some(path) => load(path),
        }
    }
}

/// Reads a weights file, printing a warning on standard error when it leaves names out.
pub fn load(path: &Path) -> Result<Weights> {
    let Loaded { weights, missing } = weights_file::load(path)?;
    if let Some(text) = missing_note(&missing) {
        eprintln!("warning: {}: {text}", path.display());
    }
    Ok(weights)
}

/// The warning for names a file leaves out, or `None` when it names every weight.
pub fn missing_note(missing: &[&str]) -> Option<String> {
    const SHOWN: usize = 6;
    if missing.is_empty() {
        return None;
    }
    let mut list = missing
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if missing.len() > SHOWN {
        list.push_str(&format!(" and {} more", missing.len() - SHOWN));
    }
    Some(format!(
        "{} weight{} not in the file keep{} the shipped value{}: {list}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
        if missing.len() == 1 { "s" } else { "" },
        if missing.len() == 1 { "" } else { "s" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_missing_note_counts_and_lists_names() {
        assert_eq!(missing_note(&[]), None);
        assert_eq!(
            missing_note(&["trap_home"]).unwrap(),
            "1 weight not in the file keeps the shipped value: trap_home"
        );
        let many = ["a", "b", "c", "d", "e", "f", "g", "h"];
        assert_eq!(
            missing_note(&many).unwrap(),
            "8 weights not in the file keep the shipped values: a, b, c, d, e, f and 2 more"
        );
    }
}
