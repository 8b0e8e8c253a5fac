//! `tusk eval`: the static evaluation of a position, term by term, or (`--features`) feature
//! by feature.

use std::io::Write;

use anyhow::{bail, Result};
use clap::Args;
use tusk_engine::notation::board::{to_aei_with_side, to_framed};
use tusk_engine::Color;
use tusk_eval::{features, Features, Weights};

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
}

/// Runs `tusk eval`: the board, then every term for gold, for silver and the difference, and
/// the score from the side to move's view in centirabbits; with `--features`, every feature.
pub fn run(args: &EvalArgs) -> Result<()> {
    let weights = args.weights.load()?;
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
    s.push_str(&format!(
        "Σ weight × difference = {:+.2} from gold's view; the evaluation rounds each share \
         toward zero ({:+} centirabbits, within {:.1}); shape parameters are fixed and have no \
         feature\n",
        if f.side == Color::Gold {
            f.linear_score(w)
        } else {
            -f.linear_score(w)
        },
        gold_view,
        f.rounding_bound
    ));
    s
}
