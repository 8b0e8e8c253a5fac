//! What a run tells people: the progress bar, the summary line on standard output, and how to
//! resume after Ctrl-C.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::writer::Tally;
use super::DatagenArgs;

/// `e 1, g 5`: the written games by reason code.
fn reasons_text(tally: &Tally) -> String {
    tally
        .reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints the summary: games written by reason, gold's wins, games dropped, positions
/// searched in `secs` seconds and the rates, threads and `effort`.
pub fn summary(
    a: &DatagenArgs,
    tally: &Tally,
    effort: &str,
    positions: u64,
    secs: f64,
) -> Result<()> {
    writeln!(
        std::io::stdout().lock(),
        "datagen: {} games written ({}; gold won {}), {} dropped at --max-turns {}, {} \
         positions searched, {:.1} s, {:.3} games/s, {:.1} positions/s ({} threads, {effort})",
        tally.finished,
        reasons_text(tally),
        tally.gold_wins,
        tally.dropped,
        a.max_turns,
        positions,
        secs,
        tally.played() as f64 / secs.max(1e-9),
        positions as f64 / secs.max(1e-9),
        a.threads
    )?;
    Ok(())
}

/// Tells, after Ctrl-C, that the `finished` games of this run are saved in `path` and how to
/// resume.
pub fn interrupted(finished: u64, path: &Path) {
    eprintln!(
        "interrupted: {finished} games of this run are saved in {}; run the same command again \
         to resume",
        path.display()
    );
}
