//! A search stopped before its first iteration ends, process-level: in a position with 42,172
//! distinct turns (from a match record) where silver reaches goal this turn, a few thousand
//! nodes or a fraction of a second cannot finish the first iteration, yet Tusk must play the
//! goal, and `analyze` must show a line before it answers.

mod aei_harness;

use std::process::Command;

use aei_harness::{game_at, Engine};
use tusk_engine::{Color, EndReason};

/// Silver to move; `rb4w ra4s ra3s ra2s` reaches goal.
const POSITION: &str = "s [rrrccrrr  d  d     m   r  h      r e  hD RR  HR    MER   HRRR R ]";

/// Panics unless `turn` is legal in [`POSITION`] and wins by silver's goal.
fn assert_goal(turn: &str, context: &str) {
    let mut game = game_at(POSITION);
    game.play_text(turn)
        .unwrap_or_else(|e| panic!("{turn} does not play: {e}\n{context}"));
    let result = game.result();
    assert!(
        result.is_some_and(|r| r.winner == Color::Silver && r.reason == EndReason::Goal),
        "{turn} is no goal ({result:?})\n{context}"
    );
}

#[test]
fn analyze_plays_the_goal_and_shows_a_line_at_any_small_limit() {
    for limit in [["--nodes", "2000"], ["--nodes", "10000"], ["--time", "0.2"]] {
        let o = Command::new(env!("CARGO_BIN_EXE_tusk"))
            .args(["analyze", "--setposition", POSITION])
            .args(limit)
            .output()
            .expect("tusk runs");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let context = format!("{limit:?}:\n{out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "{context}");
        let lines: Vec<&str> = out.lines().collect();
        let header = lines
            .iter()
            .position(|l| l.trim_start().starts_with("depth"))
            .unwrap_or_else(|| panic!("no table header\n{context}"));
        let last = lines.len() - 1;
        let best = lines[last]
            .strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("the last line is not bestmove\n{context}"));
        assert!(last > header + 1, "no info line before bestmove\n{context}");
        assert!(
            lines[header + 1].contains("win in 4 steps"),
            "the first line shows the win\n{context}"
        );
        assert_goal(best, &context);
    }
}

#[test]
fn aei_plays_the_goal_at_2000_nodes_and_at_half_a_second_a_move() {
    for options in [
        &[("nodes", "2000")][..],
        &[("tcmove", "0.5"), ("tcreserve", "0")][..],
    ] {
        let mut e = Engine::start();
        e.handshake();
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        e.send("newgame");
        e.send(&format!("setposition {POSITION}"));
        e.send("go");
        let best = e.bestmove();
        assert_goal(&best, &format!("{options:?}: {:?}", e.transcript));
    }
}
