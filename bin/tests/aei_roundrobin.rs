//! Whole games under the real `roundrobin` controller of the `aei` package (1.4.1): Tusk against
//! the package's random mover (`simple_engine`) and against itself, with strict setup checks
//! and a short time control. Every game must end by goal, elimination or immobilisation
//! (never a timeout, an illegal move or a game-length limit) and Tusk must win every game
//! against the random mover.

mod aei_harness;
mod support;

use std::time::Duration;

use aei_harness::{run_controller, scratch_dir, tusk_cmdline};

/// One result line of roundrobin: `<winner> beat <loser> because of <code> playing side <s>`.
#[derive(Debug)]
struct GameResult {
    winner: String,
    loser: String,
    code: String,
}

fn results(stdout: &str) -> Vec<GameResult> {
    stdout
        .lines()
        .filter_map(|l| {
            let (winner, rest) = l.split_once(" beat ")?;
            let (loser, rest) = rest.split_once(" because of ")?;
            let (code, _) = rest.split_once(" playing side ")?;
            Some(GameResult {
                winner: winner.trim().to_string(),
                loser: loser.trim().to_string(),
                code: code.trim().to_string(),
            })
        })
        .collect()
}

#[test]
fn roundrobin_against_the_random_mover_and_itself() {
    let python = support::aei_python();
    let dir = scratch_dir("aei-roundrobin");
    let rounds = 2;
    // Three bots: each round plays Tusk-TuskToo, Tusk-Random and TuskToo-Random, so over two
    // rounds Tusk meets the random mover twice as gold and twice as silver.
    let config = format!(
        "[global]\n\
         rounds = {rounds}\n\
         loglevel = WARN\n\
         timecontrol = 1s/3s/100/5s\n\
         strict_setup = True\n\
         pgn_filename = games.pgn\n\
         bots = Tusk TuskToo Random\n\
         bot_depth = 4\n\
         bot_hash = 16\n\
         \n\
         [Tusk]\n\
         cmdline = {tusk}\n\
         \n\
         [TuskToo]\n\
         cmdline = {tusk}\n\
         \n\
         [Random]\n\
         cmdline = '{python}' -m pyrimaa.simple_engine\n",
        tusk = tusk_cmdline(),
        python = python.display()
    );
    std::fs::write(dir.join("roundrobin.cfg"), config).unwrap();
    let run = run_controller(
        &python,
        "pyrimaa.roundrobin",
        &["--config", "roundrobin.cfg"],
        &dir,
        Duration::from_secs(900),
    );
    let transcript = format!("stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(run.status.success(), "{transcript}");
    let games = results(&run.stdout);
    assert_eq!(games.len(), 3 * rounds, "{transcript}");
    for g in &games {
        assert!(
            ["g", "e", "m"].contains(&g.code.as_str()),
            "game ended by '{}' (not goal, elimination or immobilisation): {g:?}\n{transcript}",
            g.code
        );
        if g.winner == "Random" || g.loser == "Random" {
            assert_ne!(
                g.winner, "Random",
                "the random mover won: {g:?}\n{transcript}"
            );
        }
    }
    assert_eq!(
        games.iter().filter(|g| g.loser == "Random").count(),
        2 * rounds,
        "{transcript}"
    );
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[ResultCode").count(), 3 * rounds, "{pgn}");
}
