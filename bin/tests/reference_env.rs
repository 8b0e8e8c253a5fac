//! The test-time reference environment: `aei` 1.4.1 installs and its `pyrimaa.board` agrees with
//! Tusk on the published opening count. Every test that drives the real controllers relies on it.

mod support;

use std::process::Command;

#[test]
fn pyrimaa_installs_and_counts_the_opening() {
    let python = support::aei_python();
    let out = Command::new(&python)
        .args([
            "-c",
            &format!(
                "from pyrimaa import board\n\
                 pos = board.parse_short_pos(board.Color.GOLD, 4, '{}')\n\
                 print(len(pos.get_moves()))",
                // The board part of "g [...]".
                &tusk_engine::notation::board::STANDARD_OPENING[2..]
            ),
        ])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3353");
}
