//! Tusk under the real `analyze` controller of the `aei` package (1.4.1), on a position file
//! whose right move is forced: gold must reach goal this turn, or silver reaches goal next.

mod aei_harness;
mod support;

use std::time::Duration;

use aei_harness::{game_at, legal, run_controller, scratch_dir, tusk_cmdline};
use tusk_engine::{Color, EndReason};

/// Gold's rabbit on g6 reaches g8 in two steps; silver's rabbit on b2 reaches b1 in one, and
/// nothing of gold's can stop it in time. Every turn but a goal loses.
const POSITION_FILE: &str = "\
2g
 +-----------------+
8| . . . . . . . . |
7| r . . e . . . . |
6| . . x . . x R . |
5| . . . . . . . . |
4| . . . . E . . . |
3| . . x . . x . . |
2| . r . . . . . R |
1| . . . . . . . . |
 +-----------------+
   a b c d e f g h
";

/// The same position as `setposition` gives it.
const POSITION: &str = "g [        r  e          R             E            r     R        ]";

#[test]
fn analyze_finds_the_forced_goal() {
    let python = support::aei_python();
    let dir = scratch_dir("aei-analyze");
    std::fs::write(dir.join("position.txt"), POSITION_FILE).unwrap();
    let config = format!(
        "[global]\n\
         default_engine = tusk\n\
         \n\
         [tusk]\n\
         cmdline = {}\n\
         bot_depth = 8\n\
         bot_hash = 16\n",
        tusk_cmdline()
    );
    std::fs::write(dir.join("analyze.cfg"), config).unwrap();
    let run = run_controller(
        &python,
        "pyrimaa.analyze",
        &["-c", "analyze.cfg", "position.txt"],
        &dir,
        Duration::from_secs(300),
    );
    let transcript = format!("stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(run.status.success(), "{transcript}");
    let best = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove: "))
        .unwrap_or_else(|| panic!("no bestmove printed\n{transcript}"))
        .trim()
        .to_string();
    let mut game = game_at(POSITION);
    assert!(legal(&game, &best), "illegal bestmove {best}\n{transcript}");
    game.play_text(&best).unwrap();
    let result = game.result();
    assert!(
        result.is_some_and(|r| r.winner == Color::Gold && r.reason == EndReason::Goal),
        "bestmove {best} does not reach goal ({result:?})\n{transcript}"
    );
}
