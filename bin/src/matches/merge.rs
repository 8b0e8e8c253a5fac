//! `tusk match merge`: the JSON-lines files of shards (or of interrupted runs) as one match.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::args::MergeArgs;
use super::report;
use super::state::{self, GameJson, Row};
use super::stats::Sprt;

/// Merges the files of `m`, prints the table, and writes the merged games and table when
/// asked.
pub(super) fn merge(m: &MergeArgs) -> Result<()> {
    let mut sets = Vec::new();
    for f in &m.files {
        sets.push((f.display().to_string(), load_finished_games(f)?));
    }
    let games = state::merge(sets)?;
    let rows = state::table(&[], &games);
    let (n, files) = (games.len(), m.files.len());
    println!(
        "{n} game{} from {files} file{} ({})",
        report::plural_s(n),
        report::plural_s(files),
        state::reasons_text(&games)
    );
    print!("{}", state::table_text(&rows));
    let sprt_json = match (&m.sprt, &m.candidate) {
        (Some(spec), Some(candidate)) => {
            let sprt = Sprt::parse(spec).with_context(|| format!("--sprt {spec}"))?;
            let (line, json) = sprt_verdict(&sprt, candidate, &rows, &games)?;
            println!("{line}");
            json
        }
        _ => serde_json::Value::Null,
    };
    if let Some(p) = &m.json {
        let mut f =
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?;
        for g in &games {
            state::append(&mut f, g).with_context(|| format!("writing {}", p.display()))?;
        }
    }
    if let Some(p) = &m.table_json {
        report::write_table_json(p, &rows, sprt_json)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    Ok(())
}

/// The SPRT line and JSON of `candidate` against the other engine of `rows` (the table of two
/// engines) on `games`, as a match prints them, the decision taken on what was counted.
fn sprt_verdict(
    sprt: &Sprt,
    candidate: &str,
    rows: &[Row],
    games: &[GameJson],
) -> Result<(String, serde_json::Value)> {
    let names = || {
        rows.iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if rows.len() != 2 {
        bail!(
            "--sprt needs the games of exactly two engines; the files hold {}: {}",
            rows.len(),
            names()
        );
    }
    if !rows.iter().any(|r| r.name == candidate) {
        bail!(
            "--candidate {candidate}: no engine of that name in the files (they hold {})",
            names()
        );
    }
    let st = report::SprtState::of(sprt, candidate, games);
    Ok((
        report::sprt_line(sprt, candidate, &st, st.decision),
        report::sprt_json(sprt, &st, st.decision),
    ))
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
