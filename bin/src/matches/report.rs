//! What a match tells people: the progress bar and its line, the final table, the SPRT
//! verdict, and the table as JSON.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};

use super::state::{self, GameJson, Row};
use super::stats::{
    elo_summary, pair_elo_estimate, EloSummary, Hypothesis, PairScores, Sprt, SprtModel,
};

/// The SPRT's state after some games of the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The first engine's wins.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
    /// Its complete pairs.
    pub pairs: PairScores,
    /// Its games outside a complete pair (not counted by the pair model).
    pub unpaired: u64,
    /// The log-likelihood ratio of H1 against H0, by the test's model.
    pub llr: f64,
    /// The decision, once the LLR has left its bounds.
    pub decision: Option<Hypothesis>,
}

impl SprtState {
    /// The state of `sprt` after `candidate`'s games among `games` (the games of two engines).
    pub fn of(sprt: &Sprt, candidate: &str, games: &[GameJson]) -> SprtState {
        let (wins, losses) = state::table(&[], games)
            .iter()
            .find(|r| r.name == candidate)
            .map_or((0, 0), |r| (r.wins, r.losses));
        let (pairs, unpaired) = state::pair_scores(candidate, games);
        let llr = match sprt.model {
            SprtModel::Pairs => sprt.llr_pairs(pairs),
            SprtModel::Games => sprt.llr(wins, losses),
        };
        SprtState {
            wins,
            losses,
            pairs,
            unpaired,
            llr,
            decision: sprt.decide_llr(llr),
        }
    }
}

/// The SPRT after `games` (the test is about `names[0]`); `None` without a test.
pub fn sprt_state(sprt: Option<Sprt>, names: &[String], games: &[GameJson]) -> Option<SprtState> {
    let s = sprt?;
    let first = names.first()?;
    Some(SprtState::of(&s, first, games))
}

/// A progress bar over `planned` games, `done` of them already played.
pub fn progress_bar(planned: usize, done: usize) -> ProgressBar {
    let pb = ProgressBar::new(planned as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_position(done as u64);
    pb
}

/// ` Elo +35 ± 20`, or after a clean sweep ` Elo > +137 (95%)`; empty without games.
fn elo_text(wins: u64, losses: u64) -> String {
    match elo_summary(wins, losses) {
        Some(EloSummary::Estimate(e)) if e.elo.is_finite() => {
            format!(" Elo {:+.0} ± {:.0}", e.elo, e.error())
        }
        Some(EloSummary::Above(bound)) => format!(" Elo > {bound:+.0} (95%)"),
        Some(EloSummary::Below(bound)) => format!(" Elo < {bound:+.0} (95%)"),
        _ => String::new(),
    }
}

/// The progress bar's message: with two engines the first one's score, Elo and LLR; with
/// more the leader.
pub fn progress_message(names: &[String], games: &[GameJson], sprt: Option<Sprt>) -> String {
    let rows = state::table(names, games);
    if names.len() != 2 {
        return rows
            .first()
            .map(|r| format!("leader {} {:.1}%", r.name, r.score))
            .unwrap_or_default();
    }
    let Some(r) = rows.iter().find(|r| r.name == names[0]) else {
        return String::new();
    };
    let mut m = format!("{} {}-{} ({:.1}%)", r.name, r.wins, r.losses, r.score);
    m.push_str(&elo_text(r.wins, r.losses));
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        let st = SprtState::of(&s, &names[0], games);
        m.push_str(&format!(" LLR {:.2} [{lo:.2}, {hi:.2}]", st.llr));
    }
    m
}

/// Prints the closing summary: games and reasons, the table, and the SPRT line; returns the
/// SPRT as JSON (null without a test) for the table file.
pub fn print_summary(
    names: &[String],
    finished: &[GameJson],
    planned: usize,
    sprt: Option<Sprt>,
    decided: Option<Hypothesis>,
) -> (Vec<Row>, serde_json::Value) {
    let rows = state::table(names, finished);
    println!(
        "{} games ({}), {}",
        finished.len(),
        state::reasons_text(finished),
        if finished.len() < planned {
            format!("{} of {planned} planned", finished.len())
        } else {
            "all planned games played".to_string()
        }
    );
    print!("{}", state::table_text(&rows));
    if let Some(note) = repeats_note(finished) {
        println!("{note}");
    }
    let sprt_json = match (sprt, sprt_state(sprt, names, finished)) {
        (Some(s), Some(st)) => {
            println!("{}", sprt_line(&s, &names[0], &st, decided));
            sprt_json(&s, &st, decided)
        }
        _ => serde_json::Value::Null,
    };
    (rows, sprt_json)
}

/// A warning when some games repeat earlier ones move for move ([`state::repeated_games`]).
fn repeats_note(finished: &[GameJson]) -> Option<String> {
    let repeated = state::repeated_games(finished);
    (repeated > 0).then(|| {
        format!(
            "note: {repeated} of {} games repeat an earlier game move for move ({} distinct): \
             engines at a fixed depth or node count replay a game from the same opening; \
             vary the openings with --random-turns K (or --setups random)",
            finished.len(),
            finished.len() - repeated
        )
    })
}

/// What the test counted: `after 120 pairs (240 games; 40 lost both, 50 split, 30 won both;
/// pair Elo +20 ± 30)`, with `, 1 game unpaired` when some are; `after 240 games` for the game
/// model.
fn counted_text(s: &Sprt, st: &SprtState) -> String {
    match s.model {
        SprtModel::Games => format!("after {} games", st.wins + st.losses),
        SprtModel::Pairs => {
            let p = st.pairs;
            let elo = match pair_elo_estimate(p) {
                Some(e) if e.elo.is_finite() && e.error().is_finite() => {
                    format!("; pair Elo {:+.0} ± {:.0}", e.elo, e.error())
                }
                _ => String::new(),
            };
            let unpaired = match st.unpaired {
                0 => String::new(),
                1 => ", 1 game unpaired".to_string(),
                n => format!(", {n} games unpaired"),
            };
            format!(
                "after {} pairs ({} games; {} lost both, {} split, {} won both{elo}){unpaired}",
                p.pairs(),
                2 * p.pairs(),
                p.lost_both,
                p.split,
                p.won_both
            )
        }
    }
}

/// `SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 model=pairs: LLR 1.234 [-2.944, 2.944] after 20
/// pairs (...): undecided`.
pub fn sprt_line(s: &Sprt, first: &str, st: &SprtState, decided: Option<Hypothesis>) -> String {
    let (lo, hi) = s.bounds();
    let verdict = match decided {
        Some(Hypothesis::H1) => format!("H1 accepted: {first} is stronger by about {} Elo", s.elo1),
        Some(Hypothesis::H0) => format!("H0 accepted: {first} is not {} Elo stronger", s.elo1),
        None => "undecided".to_string(),
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={} model={}: LLR {:.3} [{lo:.3}, {hi:.3}] {}: {verdict}",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        model_name(s.model),
        st.llr,
        counted_text(s, st)
    )
}

/// `pairs` or `games`, as `--sprt` spells the model.
fn model_name(m: SprtModel) -> &'static str {
    match m {
        SprtModel::Pairs => "pairs",
        SprtModel::Games => "games",
    }
}

/// The SPRT's settings, LLR, bounds, what it counted and its result as JSON.
pub fn sprt_json(s: &Sprt, st: &SprtState, decided: Option<Hypothesis>) -> serde_json::Value {
    let (lo, hi) = s.bounds();
    serde_json::json!({
        "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
        "model": model_name(s.model),
        "llr": st.llr, "lower": lo, "upper": hi,
        "wins": st.wins, "losses": st.losses,
        "pairs": {
            "lost_both": st.pairs.lost_both, "split": st.pairs.split,
            "won_both": st.pairs.won_both, "unpaired": st.unpaired,
        },
        "result": match decided {
            Some(Hypothesis::H1) => "H1",
            Some(Hypothesis::H0) => "H0",
            None => "undecided",
        },
    })
}

/// Writes `{"table": rows, "sprt": sprt}` to `path`.
pub fn write_table_json(path: &Path, rows: &[Row], sprt: serde_json::Value) -> std::io::Result<()> {
    let v = serde_json::json!({ "table": rows, "sprt": sprt });
    let text = serde_json::to_string_pretty(&v).map_err(std::io::Error::other)?;
    std::fs::write(path, text + "\n")
}

/// The plural ending of a count's noun: `""` for one, `"s"` otherwise (`1 file`, `2 files`).
pub fn plural_s(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::Color;

    fn won_by(id: u64, winner: &str, loser: &str) -> GameJson {
        state::won_game(id, winner, loser, Color::Gold)
    }

    #[test]
    fn repeated_games_are_pointed_out() {
        let mut games: Vec<GameJson> = (0..4).map(|i| won_by(i, "new", "old")).collect();
        for (i, g) in games.iter_mut().enumerate() {
            g.moves = vec![format!("1g {i}")];
        }
        assert_eq!(repeats_note(&games), None);
        games[3].moves = games[1].moves.clone();
        let note = repeats_note(&games).unwrap();
        assert!(
            note.starts_with(
                "note: 1 of 4 games repeat an earlier game move for move (3 distinct)"
            ),
            "{note}"
        );
        assert!(note.contains("--random-turns K"), "{note}");
    }

    #[test]
    fn the_progress_line_gives_a_bound_after_a_clean_sweep() {
        let names = vec!["new".to_string(), "old".to_string()];
        let sweep: Vec<GameJson> = (0..20).map(|i| won_by(i, "new", "old")).collect();
        let sprt = Sprt::parse("elo0=0,elo1=10").unwrap();
        let m = progress_message(&names, &sweep, Some(sprt));
        assert!(
            m.starts_with("new 20-0 (100.0%) Elo > +317 (95%) LLR "),
            "{m}"
        );
        let lost: Vec<GameJson> = (0..20).map(|i| won_by(i, "old", "new")).collect();
        let m = progress_message(&names, &lost, None);
        assert_eq!(m, "new 0-20 (0.0%) Elo < -317 (95%)");
        let mut mixed = sweep.clone();
        mixed.extend((20..30).map(|i| won_by(i, "old", "new")));
        let m = progress_message(&names, &mixed, None);
        assert!(m.starts_with("new 20-10 (66.7%) Elo +120 ± "), "{m}");
        assert_eq!(progress_message(&names, &[], None), "new 0-0 (0.0%)");
    }
}
