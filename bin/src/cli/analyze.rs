//! `tusk analyze`: search a position and show the search as it deepens, then the best turn.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use tusk_engine::notation::board::{to_aei_with_side, to_framed};
use tusk_engine::Color;
use tusk_search::{Control, Limits, Params, Report, ScoreKind, SearchConfig, Searcher};

use super::position::{ensure_not_over, PositionArgs};
use super::weights::WeightsArgs;

/// Arguments of `tusk analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Search this many steps deep.
    #[arg(long, value_name = "STEPS")]
    depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Search this many nodes.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB")]
    hash: usize,
    /// Show the best K distinct turns.
    #[arg(long, default_value_t = 1, value_name = "K")]
    multipv: usize,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    weights: WeightsArgs,
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

fn human_count(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{:.1}k", n as f64 / 1e3)
    } else {
        n.to_string()
    }
}

/// Runs `tusk analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<()> {
    let weights = args.weights.load()?;
    let game = args.pos.load()?;
    if game.in_setup() {
        bail!("the position is in the setup phase; there is nothing to analyze yet");
    }
    ensure_not_over(&game)?;
    if args.threads == 0 || args.threads > 1024 {
        bail!("--threads {}: must be between 1 and 1024", args.threads);
    }
    if args.hash == 0 || args.hash > 1 << 20 {
        bail!("--hash {}: must be between 1 and 1048576 MiB", args.hash);
    }
    if args.multipv == 0 {
        bail!("--multipv 0: must be at least 1");
    }
    if let Some(t) = args.time {
        if !(t.is_finite() && t > 0.0) {
            bail!("--time {t}: must be a positive number of seconds");
        }
    }
    if args.depth == Some(0) {
        bail!("--depth 0: must be at least 1 step");
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
    if let Some(t) = args.time {
        let d = Duration::from_secs_f64(t);
        control.set_soft(Some(d));
        control.set_hard(Some(d));
    }
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
    let mut searcher = Searcher::new(SearchConfig {
        threads: args.threads,
        hash_mb: args.hash,
    });
    searcher.set_params(Params {
        weights,
        ..Params::default()
    });
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
        if io_error.is_some() {
            return;
        }
        let mut r = r.clone();
        if let Some(first) = r.pv.first_mut() {
            *first = whole_first(&game, first);
        }
        let r = &r;
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
                    pv: &r.pv,
                    pv_labels: labelled(number, side, &r.pv),
                },
            )
        } else {
            info_line(&mut out, r, number, side, args.multipv > 1).map_err(anyhow::Error::from)
        };
        if let Err(e) = res {
            io_error = Some(e);
            control_stop(&control);
        }
    };
    let result = searcher.search(&game, &limits, &control, &mut on_report);
    if let Some(e) = io_error {
        return Err(e.context("writing the analysis"));
    }
    let Some(mut result) = result else {
        bail!("no legal turn to search in this position");
    };
    result.best_text = game.turn_text(&result.best);
    if args.json {
        emit(
            &mut out,
            &JsonLine::Bestmove {
                turn: &result.best_text,
                score: json_score(result.score),
                depth: result.depth,
                nodes: result.nodes,
                time_ms: result.elapsed.as_millis() as u64,
            },
        )?;
    } else {
        writeln!(out, "bestmove {}", result.best_text)?;
    }
    Ok(())
}

fn control_stop(c: &Control) {
    c.stop();
}

fn info_line(
    out: &mut impl Write,
    r: &Report,
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
        labelled(number, side, &r.pv).join("  ")
    )
}

fn emit(out: &mut impl Write, line: &JsonLine<'_>) -> Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    writeln!(out)?;
    Ok(())
}

/// The first PV turn written whole: a mid-turn start's steps already taken, then the rest.
fn whole_first(game: &tusk_engine::Game, rest: &str) -> String {
    if game.position().at_turn_start() {
        return rest.to_string();
    }
    match tusk_engine::notation::turn::play_steps(game.position(), rest) {
        Ok((turn, _)) => game.turn_text(&turn),
        Err(_) => rest.to_string(),
    }
}
