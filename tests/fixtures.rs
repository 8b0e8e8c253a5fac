//! Differential tests against data generated with the independent `pyrimaa.board`
//! (`tests/data/gen_fixtures.py`): turn counts, played moves with notation, whole games.

use tusk_engine::notation::board::{parse_aei, to_aei};
use tusk_engine::notation::record::Record;
use tusk_engine::notation::turn::{parse_turn, write_turn};
use tusk_engine::{Color, EndReason, StepList, TurnGen};
use tusk_tests::{data_lines, data_path, turn_counts};

/// Every fixture position: the number of distinct legal turns and of legal first steps
/// equal pyrimaa's `len(get_moves())` and `len(get_steps())`.
#[test]
fn distinct_turn_and_first_step_counts_match_pyrimaa() {
    let fixtures = turn_counts();
    assert!(
        fixtures.len() >= 2_000,
        "only {} fixture positions",
        fixtures.len()
    );
    let mut gen = TurnGen::new();
    let mut list = StepList::new();
    let mut wrong = Vec::new();
    for f in &fixtures {
        let turns = gen.count(&f.position);
        // The listing path (which plays every last step) agrees with the counting path (which
        // only computes the resulting keys), on a tenth of the positions.
        if f.line.len() % 10 == 0 {
            let listed = gen.turns(&f.position);
            let mut keys: Vec<u64> = listed.iter().map(|(_, p)| p.board_key()).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!((listed.len(), keys.len()), (turns, turns), "{}", f.line);
        }
        f.position.legal_steps(&mut list);
        if turns != f.turns || list.len() != f.first_steps {
            wrong.push(format!(
                "{}: ours {turns} turns / {} steps",
                f.line,
                list.len()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} positions disagree:\n{}",
        wrong.len(),
        fixtures.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

/// Every played move: our notation of the steps equals pyrimaa's (capture tokens included),
/// and reading that notation gives pyrimaa's resulting position.
#[test]
fn played_moves_match_pyrimaa_notation_and_result() {
    let lines = data_lines("moves.txt");
    assert!(lines.len() >= 500, "only {} moves", lines.len());
    let mut captures = 0;
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "bad fixture line {line}");
        let before = parse_aei(fields[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        let (turn, after) =
            parse_turn(&before, fields[1]).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(
            to_aei(&after),
            fields[2].trim(),
            "resulting board of {line}"
        );
        assert_eq!(after.side(), !before.side());
        assert_eq!(write_turn(&before, &turn), fields[1], "notation of {line}");
        captures += usize::from(fields[1].contains('x'));
    }
    assert!(captures >= 100, "only {captures} moves with captures");
}

/// Whole random games recorded by pyrimaa replay to the same final position and the same
/// winner and reason.
#[test]
fn whole_games_replay_to_pyrimaa_result() {
    let text = std::fs::read_to_string(data_path("games.txt")).expect("games.txt");
    let mut games = 0;
    for block in text.split("\n\n").filter(|b| b.contains("final")) {
        let header = block
            .lines()
            .find(|l| l.starts_with("# game"))
            .expect("a game header");
        let words: Vec<&str> = header.split_whitespace().collect();
        let winner = match words[4] {
            "g" => Color::Gold,
            _ => Color::Silver,
        };
        let reason = match words[5] {
            "goal" => EndReason::Goal,
            "elimination" => EndReason::Elimination,
            _ => EndReason::Immobilization,
        };
        let final_line = block
            .lines()
            .find(|l| l.starts_with("final "))
            .expect("a final position");
        let final_pos = parse_aei(&final_line["final ".len()..]).unwrap();
        let record: String = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("final"))
            .map(|l| format!("{l}\n"))
            .collect();
        let game = Record::parse(&record)
            .unwrap()
            .replay(None)
            .unwrap_or_else(|e| panic!("{header}: {e}"));
        assert_eq!(game.position(), &final_pos, "{header}");
        let result = game
            .result()
            .unwrap_or_else(|| panic!("{header}: not over"));
        assert_eq!((result.winner, result.reason), (winner, reason), "{header}");
        games += 1;
    }
    assert!(games >= 20, "only {games} games");
}
