//! `tusk analyze`: search a position and show the search as it deepens, then the best turn.

use std::io::Write;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use tusk_engine::notation::board::{to_aei_with_side, to_framed};
use tusk_engine::Color;
use tusk_search::{Control, Limits, Params, Report, ScoreKind, SearchConfig, Searcher};

use super::features::FeatureArgs;
use super::position::{ensure_not_over, PositionArgs};
use super::weights::WeightsArgs;
use crate::clock::policy::{Budget, Spending};
use crate::clock::MAX_SECONDS;

/// Arguments of `tusk analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Search this many steps deep.
    #[arg(long, value_name = "STEPS")]
    depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time: Option<f64>,
    /// Search this many nodes.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Search threads (more than this machine runs at once are capped, with a warning).
    #[arg(long, default_value_t = SearchConfig::DEFAULT_THREADS.to_string(), value_name = "T",
          allow_hyphen_values = true)]
    threads: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = SearchConfig::DEFAULT_HASH_MB.to_string(), value_name = "MB",
          allow_hyphen_values = true)]
    hash: String,
    /// Show the best K distinct turns.
    #[arg(long, default_value_t = 1, value_name = "K")]
    multipv: usize,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    weights: WeightsArgs,
    #[command(flatten)]
    features: FeatureArgs,
}

/// A JSON line of `--json` output.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum JsonLine<'a> {
    Position {
        position: String,
        label: String,
    },
    Info {
        depth: u32,
        partial: bool,
        seldepth: u32,
        #[serde(flatten)]
        score: JsonScore,
        nodes: u64,
        nps: u64,
        time_ms: u64,
        hashfull: u32,
        multipv: usize,
        pv: &'a [String],
        pv_labels: Vec<String>,
    },
    Bestmove {
        #[serde(rename = "move")]
        turn: &'a str,
        #[serde(flatten)]
        score: JsonScore,
        depth: u32,
        nodes: u64,
        time_ms: u64,
    },
}

/// A score: centirabbits, or a win or loss in a number of steps.
#[derive(Serialize)]
struct JsonScore {
    #[serde(skip_serializing_if = "Option::is_none")]
    score_cr: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win_in_steps: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss_in_steps: Option<u32>,
}

fn json_score(s: tusk_search::Score) -> JsonScore {
    let mut j = JsonScore {
        score_cr: None,
        win_in_steps: None,
        loss_in_steps: None,
    };
    match s.kind() {
        ScoreKind::Centirabbits(c) => j.score_cr = Some(c),
        ScoreKind::WinIn(n) => j.win_in_steps = Some(n),
        ScoreKind::LossIn(n) => j.loss_in_steps = Some(n),
    }
    j
}

/// The PV with turn labels: the first turn is `label` (e.g. `12g`), then they alternate.
pub fn labelled(number: u32, side: Color, pv: &[String]) -> Vec<String> {
    let (mut n, mut c) = (number, side);
    pv.iter()
        .map(|t| {
            let s = format!("{n}{} {t}", c.letter());
            if c == Color::Silver {
                n += 1;
            }
            c = !c;
            s
        })
        .collect()
}

/// A count in at most six characters up to 99.99 million: `9999`, `123.4k`, `2.46M`, `12.35M`.
fn human_count(n: u64) -> String {
    // From 999,950 on, one decimal of thousands would print 1000.0k.
    if n >= 999_950 {
        format!("{:.2}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{:.1}k", n as f64 / 1e3)
    } else {
        n.to_string()
    }
}

/// `x` as a user would write it: plainly when that is short, else in scientific notation
/// (`1e308`, not 309 digits).
fn number_text(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 16 {
        plain
    } else {
        format!("{x:e}")
    }
}

/// Runs `tusk analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<()> {
    let mut params = Params {
        weights: args.weights.load()?,
        ..Params::default()
    };
    args.features.apply(&mut params)?;
    let game = args.pos.load()?;
    if game.in_setup() {
        bail!("the position is in the setup phase; there is nothing to analyze yet");
    }
    ensure_not_over(&game)?;
    let threads = whole_number_option("--threads", &args.threads, SearchConfig::MAX_THREADS)?;
    let hash_mb = whole_number_option("--hash", &args.hash, SearchConfig::MAX_HASH_MB)?;
    if args.multipv == 0 {
        bail!("--multipv 0: must be at least 1");
    }
    if let Some(t) = args.time {
        if !(t > 0.0 && t <= MAX_SECONDS) {
            bail!(
                "--time {}: must be a number of seconds above 0 and at most {}",
                number_text(t),
                MAX_SECONDS
            );
        }
    }
    if args.depth == Some(0) {
        bail!("--depth 0: must be at least 1 step");
    }
    if args.nodes == Some(0) {
        bail!("--nodes 0: must be at least 1 node");
    }
    let mut out = std::io::stdout().lock();
    let pos = game.position();
    let label = game.move_label();
    if args.json {
        emit(
            &mut out,
            &JsonLine::Position {
                position: to_aei_with_side(pos),
                label: label.clone(),
            },
        )?;
    } else {
        writeln!(out, "position {} ({label} to play)", to_aei_with_side(pos))?;
        write!(out, "{}", to_framed(pos))?;
    }

    let control = Arc::new(Control::new());
    // The time policy the AEI engine follows, with a fixed budget: it stops the search after
    // an iteration (soft deadline, a stable best turn, a proven result), the control at the
    // hard deadline.
    let mut spending = Spending::new(args.time.map(Budget::fixed), 0.0, 1.0);
    spending.apply(&control);
    {
        let c = Arc::clone(&control);
        // A second Ctrl-C while stopping is the same request; failing to install the handler
        // (already installed in this process) only loses Ctrl-C.
        let _ = ctrlc::set_handler(move || c.stop());
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        multipv: args.multipv,
    };
    let mut searcher =
        Searcher::new(SearchConfig { threads, hash_mb }).context("cannot make the searcher")?;
    if searcher.threads() < threads {
        eprintln!(
            "tusk: --threads {threads}: capped at {}, the threads this machine runs at once",
            searcher.threads()
        );
    }
    searcher.set_params(params);
    let number = game.move_number();
    let side = game.side_to_move();
    if !args.json {
        writeln!(
            out,
            "{:>5} {:>4} {:>16} {:>10} {:>8} {:>8} {:>5}  pv",
            "depth", "sel", "score", "nodes", "nps", "time", "tt%"
        )?;
    }
    let mut io_error: Option<anyhow::Error> = None;
    let mut on_report = |r: &Report| {
        spending.on_report(r, &control);
        if io_error.is_some() {
            return;
        }
        let pv = game.line_text(&r.pv);
        let res = if args.json {
            emit(
                &mut out,
                &JsonLine::Info {
                    depth: r.depth,
                    partial: r.partial,
                    seldepth: r.seldepth,
                    score: json_score(r.score),
                    nodes: r.nodes,
                    nps: r.nps(),
                    time_ms: r.elapsed.as_millis() as u64,
                    hashfull: r.hashfull,
                    multipv: r.multipv,
                    pv: &pv,
                    pv_labels: labelled(number, side, &pv),
                },
            )
        } else {
            info_line(&mut out, r, &pv, number, side, args.multipv > 1).map_err(anyhow::Error::from)
        };
        if let Err(e) = res {
            io_error = Some(e);
            control.stop();
        }
    };
    let result = searcher.search(&game, &limits, &control, &mut on_report);
    if let Some(e) = io_error {
        return Err(e.context("writing the analysis"));
    }
    let Some(result) = result else {
        bail!("no legal turn to search in this position");
    };
    if result.threads < searcher.threads() {
        eprintln!(
            "tusk: only {} of {} search threads could be started",
            result.threads,
            searcher.threads()
        );
    }
    let best = game.turn_text(&result.best);
    if args.json {
        emit(
            &mut out,
            &JsonLine::Bestmove {
                turn: &best,
                score: json_score(result.score),
                depth: result.depth,
                nodes: result.nodes,
                time_ms: result.elapsed.as_millis() as u64,
            },
        )?;
    } else {
        writeln!(out, "bestmove {best}")?;
    }
    Ok(())
}

/// The value of option `flag` given as `text`: a whole number from 1 to `max`; any other value
/// gets the one message that says so.
fn whole_number_option(flag: &str, text: &str, max: usize) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => bail!("{flag} {text}: must be a whole number from 1 to {max}"),
    }
}

/// One text line of a report whose PV (`pv`) is already written.
fn info_line(
    out: &mut impl Write,
    r: &Report,
    pv: &[String],
    number: u32,
    side: Color,
    ranked: bool,
) -> std::io::Result<()> {
    let depth = format!("{}{}", r.depth, if r.partial { "+" } else { "" });
    let rank = if ranked {
        format!("#{} ", r.multipv)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{:>5} {:>4} {:>16} {:>10} {:>8} {:>7.3}s {:>4.1}%  {rank}{}",
        depth,
        r.seldepth,
        r.score.to_string(),
        r.nodes,
        format!("{}/s", human_count(r.nps())),
        r.elapsed.as_secs_f64(),
        r.hashfull as f64 / 10.0,
        labelled(number, side, pv).join("  ")
    )
}

fn emit(out: &mut impl Write, line: &JsonLine<'_>) -> Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Out-of-range numbers are echoed short: `--time 1e308` printed 309 digits.
    #[test]
    fn numbers_are_echoed_short() {
        assert_eq!(number_text(2.5), "2.5");
        assert_eq!(number_text(-1.0), "-1");
        assert_eq!(number_text(1e308), "1e308");
        assert_eq!(number_text(1e-300), "1e-300");
        assert_eq!(number_text(f64::NAN), "NaN");
        assert!(number_text(123_456_789_012.5).len() <= 16);
    }

    #[test]
    fn counts_fit_the_nps_column() {
        assert_eq!(human_count(9_999), "9999");
        assert_eq!(human_count(123_456), "123.5k");
        // Before: 2,460,000 was "2460.0k", wider than its column.
        assert_eq!(human_count(2_460_000), "2.46M");
        assert_eq!(human_count(12_345_678), "12.35M");
        assert_eq!(human_count(999_999), "1.00M");
        for n in [0, 9_999, 10_000, 999_999, 1_000_000, 99_000_000] {
            assert!(format!("{}/s", human_count(n)).len() <= 8, "{n}");
        }
    }
}
