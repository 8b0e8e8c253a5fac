//! `tusk eval`: the static evaluation of a position, term by term, or (`--features`) feature
//! by feature; or (`--batch FILE`) of every position of a file, one JSON line each.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use tusk_engine::notation::board::{parse_aei, to_aei_with_side, to_framed};
use tusk_engine::notation::turn::play_steps;
use tusk_engine::{turn_boundary_result, Color, Position};
use tusk_eval::{explain, features, Features, Term, Weights};

use super::position::{ensure_not_over, PositionArgs};
use super::weights::WeightsArgs;

/// Arguments of `tusk eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    weights: WeightsArgs,
    /// Print every feature (gold, silver, difference, weight, contribution) after the terms.
    #[arg(long)]
    features: bool,
    /// Evaluate every position of FILE (`-` for standard input), one a line: `g [<64 cells>]`
    /// as AEI gives it, or a JSON object with such a `"position"` and, optionally, `"steps"`:
    /// steps the side to move takes first (`"Ee2n Ee3n"`, checked), to evaluate the position in
    /// the middle of its turn (blank lines and `#` comments skipped). Writes one JSON object a
    /// line: the position, the steps left, the score from the side to move's view and every
    /// term as `[gold, silver]`, in centirabbits.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "setposition", "record", "features"])]
    batch: Option<PathBuf>,
}

/// Runs `tusk eval`: the board, then every term for gold, for silver and the difference, and
/// the score from the side to move's view in centirabbits; with `--features`, every feature.
pub fn run(args: &EvalArgs) -> Result<()> {
    let weights = args.weights.load()?;
    if let Some(path) = &args.batch {
        return run_batch(path, &weights);
    }
    let game = args.pos.load()?;
    if game.in_setup() {
        bail!("the position is in the setup phase; there is nothing to evaluate yet");
    }
    ensure_not_over(&game)?;
    let pos = game.position();
    let f = features(pos, &weights);
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", to_aei_with_side(pos))?;
    write!(out, "{}", to_framed(pos))?;
    writeln!(out, "{}", f.breakdown())?;
    if args.features {
        writeln!(out)?;
        write!(out, "{}", feature_table(&f, &weights))?;
    }
    Ok(())
}

/// `tusk eval --batch`: one JSON line per position of `path` (see [`EvalArgs`]). A line that is
/// not a position, or a position whose game is already decided, is an error naming the file
/// and line.
fn run_batch(path: &Path, weights: &Weights) -> Result<()> {
    let name = path.display().to_string();
    let reader: Box<dyn BufRead> = if name == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("{name}:{}: cannot read", i + 1))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let pos = batch_position(text).with_context(|| format!("{name}:{}", i + 1))?;
        writeln!(out, "{}", batch_line(&pos, weights))?;
    }
    out.flush()?;
    Ok(())
}

/// The position of one `--batch` line: AEI's `g [<64 cells>]`, or a JSON object whose
/// `"position"` is one, with the side to move's optional `"steps"` played on it; not a decided
/// game.
fn batch_position(text: &str) -> Result<Position> {
    let (aei, steps) = if text.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(text).context("not valid JSON")?;
        let Some(p) = value.get("position").and_then(|p| p.as_str()) else {
            bail!("the JSON object has no \"position\" string");
        };
        let steps = match value.get("steps") {
            None => None,
            Some(serde_json::Value::String(s)) => Some(s.clone()),
            Some(_) => bail!("\"steps\" must be a string of steps like \"Ee2n Ee3n\""),
        };
        (p.to_string(), steps)
    } else {
        (text.to_string(), None)
    };
    let pos = parse_aei(&aei)?;
    if let Some(result) = turn_boundary_result(&pos) {
        bail!(
            "the game is already decided ({} wins by {})",
            result.winner.name(),
            result.reason.name()
        );
    }
    // The turn is not ended: the side to move keeps the steps it has left.
    match steps {
        Some(steps) => Ok(play_steps(&pos, &steps)
            .with_context(|| format!("steps \"{steps}\""))?
            .1),
        None => Ok(pos),
    }
}

/// One `--batch` output line: the position, the score from the side to move's view and
/// every term as `[gold, silver]`.
fn batch_line(pos: &Position, weights: &Weights) -> serde_json::Value {
    let b = explain(pos, weights);
    let terms: serde_json::Map<String, serde_json::Value> = Term::ALL
        .iter()
        .map(|&t| {
            let pair = [b.get(t, Color::Gold), b.get(t, Color::Silver)];
            (t.name().to_string(), serde_json::json!(pair))
        })
        .collect();
    serde_json::json!({
        "position": to_aei_with_side(pos),
        "steps_left": pos.steps_left(),
        "score": b.score(),
        "terms": terms,
    })
}

/// Every weight's feature for gold and silver, the difference (gold - silver), the weight and
/// what it contributes (gold's contribution minus silver's, centirabbits); then the total and
/// how it relates to the score.
pub fn feature_table(f: &Features, w: &Weights) -> String {
    let mut s = format!(
        "{:<24} {:>9} {:>9} {:>10} {:>7} {:>12}\n",
        "feature", "gold", "silver", "difference", "weight", "contribution"
    );
    let mut total = 0i64;
    for p in Weights::params().filter(|&p| Weights::is_linear(p)) {
        let [g, sv] = f.values[p.index()];
        let [cg, cs] = f.contributions[p.index()];
        total += cg - cs;
        s.push_str(&format!(
            "{:<24} {:>9.3} {:>9.3} {:>10.3} {:>7} {:>12}\n",
            Weights::name(p),
            g,
            sv,
            g - sv,
            w[p],
            cg - cs
        ));
    }
    let gold_view = if f.side == Color::Gold {
        f.score()
    } else {
        -f.score()
    };
    s.push_str(&format!(
        "{:<24} {:>9} {:>9} {:>10} {:>7} {:>12}\n",
        "total (gold - silver)", "", "", "", "", total
    ));
    if let Some(steps) = f.goal {
        s.push_str(&format!(
            "{} to move reaches goal in {steps} step(s): the score is a win, not this sum (the \
             captures this turn and the next-turn threats were not computed)\n",
            f.side.name()
        ));
        return s;
    }
    let gold_view_of = |x: f64| if f.side == Color::Gold { x } else { -x };
    let mut model = String::new();
    if !f.variance.is_none() {
        let points = f.variance.points;
        s.push_str(&format!(
            "variance adjustment of the total: {:+} from gold's view (variance points: gold \
             {:.1}, silver {:.1}; scale {})\n",
            i64::from(gold_view) - total,
            points[Color::Gold],
            points[Color::Silver],
            f.variance.scale
        ));
        model = format!(
            " ({:+.2} after the variance adjustment)",
            gold_view_of(f.model_score(w))
        );
    }
    s.push_str(&format!(
        "Σ weight × difference = {:+.2} from gold's view{model}; the evaluation rounds each \
         share toward zero ({:+} centirabbits, within {:.1}); shape parameters are fixed and \
         have no feature\n",
        gold_view_of(f.linear_score(w)),
        gold_view,
        f.rounding_bound
    ));
    s
}
