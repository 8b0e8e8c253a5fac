//! What a match tells people: the progress bar and its line, the final table, the SPRT
//! verdict, and the table as JSON.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};

use super::state::{self, GameJson, Row};
use super::stats::{elo_summary, EloSummary, Hypothesis, Sprt};

/// The SPRT's state after some games of the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The first engine's wins.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
    /// The decision, once the LLR has left its bounds.
    pub decision: Option<Hypothesis>,
}

/// The SPRT after `games` (the test is about `names[0]`); `None` without a test.
pub fn sprt_state(sprt: Option<Sprt>, names: &[String], games: &[GameJson]) -> Option<SprtState> {
    let s = sprt?;
    let rows = state::table(names, games);
    let r = rows.iter().find(|r| r.name == names[0])?;
    Some(SprtState {
        wins: r.wins,
        losses: r.losses,
        decision: s.decide(r.wins, r.losses),
    })
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
        m.push_str(&format!(
            " LLR {:.2} [{lo:.2}, {hi:.2}]",
            s.llr(r.wins, r.losses)
        ));
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
            println!("{}", sprt_line(&s, &names[0], st.wins, st.losses, decided));
            sprt_json(&s, st.wins, st.losses, decided)
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

/// `SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR 1.234 [-2.944, 2.944] after 40 games: ...`.
pub fn sprt_line(s: &Sprt, first: &str, w: u64, l: u64, decided: Option<Hypothesis>) -> String {
    let (lo, hi) = s.bounds();
    let verdict = match decided {
        Some(Hypothesis::H1) => format!("H1 accepted: {first} is stronger by about {} Elo", s.elo1),
        Some(Hypothesis::H0) => format!("H0 accepted: {first} is not {} Elo stronger", s.elo1),
        None => "undecided".to_string(),
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{lo:.3}, {hi:.3}] after {} games: {verdict}",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        s.llr(w, l),
        w + l
    )
}

/// The SPRT's settings, LLR, bounds and result as JSON.
pub fn sprt_json(s: &Sprt, w: u64, l: u64, decided: Option<Hypothesis>) -> serde_json::Value {
    let (lo, hi) = s.bounds();
    serde_json::json!({
        "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
        "llr": s.llr(w, l), "lower": lo, "upper": hi,
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
