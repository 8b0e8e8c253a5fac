//! `tusk match merge`: the JSON-lines files of shards (or of interrupted runs) as one match.

use std::path::Path;

use anyhow::{Context, Result};

use super::args::MergeArgs;
use super::report;
use super::state::{self, GameJson};

/// Merges the files of `m`, prints the table, and writes the merged games and table when
/// asked.
pub(super) fn merge(m: &MergeArgs) -> Result<()> {
    let mut sets = Vec::new();
    for f in &m.files {
        sets.push((f.display().to_string(), load_finished_games(f)?));
    }
    let games = state::merge(sets)?;
    let rows = state::table(&[], &games);
    println!(
        "{} games from {} files ({})",
        games.len(),
        m.files.len(),
        state::reasons_text(&games)
    );
    print!("{}", state::table_text(&rows));
    if let Some(p) = &m.json {
        let mut f =
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?;
        for g in &games {
            state::append(&mut f, g).with_context(|| format!("writing {}", p.display()))?;
        }
    }
    if let Some(p) = &m.table_json {
        report::write_table_json(p, &rows, serde_json::Value::Null)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    Ok(())
}

/// The finished games of a `tusk match --json` file, for reading it whole (merge, compare): a
/// last line cut short by an interrupted run is skipped with a warning.
pub(super) fn load_finished_games(path: &Path) -> Result<Vec<GameJson>> {
    let (games, torn) = state::load(path)?;
    if torn.is_some() {
        eprintln!(
            "warning: {}: the last line is cut short and is skipped",
            path.display()
        );
    }
    Ok(games)
}
