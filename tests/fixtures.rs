//! Differential tests against data generated with the independent `pyrimaa.board`
//! (`tests/data/gen_fixtures.py`): turn counts, played moves with notation, whole games.

use std::collections::HashSet;
use tusk_engine::notation::board::{parse_aei, to_aei};
use tusk_engine::notation::record::Record;
use tusk_engine::notation::turn::{parse_turn, write_turn};

use tusk_engine::{Color, EndReason, StepList, TurnGen};
use tusk_tests::{data_lines, data_path, turn_counts, TURN_COUNT_POSITIONS};

/// The number of played moves in `moves.txt`, and how many of them capture.
const MOVES: usize = 1_166;
const MOVES_WITH_CAPTURES: usize = 368;
/// The number of whole games in `games.txt`.
const GAMES: usize = 30;

/// Every fixture position: the number of distinct legal turns and of legal first steps
/// equal pyrimaa's `len(get_moves())` and `len(get_steps())`, and the listing path (which
/// plays every last step and shows each resulting position) lists exactly as many distinct
/// boards as the counting path (which only computes the resulting keys) counts.
#[test]
fn distinct_turn_and_first_step_counts_match_pyrimaa() {
    let fixtures = turn_counts();
    assert_eq!(fixtures.len(), TURN_COUNT_POSITIONS);
    let mut gen = TurnGen::new();
    let mut list = StepList::new();
    let mut wrong = Vec::new();
    let mut keys = HashSet::new();
    for f in &fixtures {
        let turns = gen.count(&f.position);
        keys.clear();
        let listed = gen.for_each_turn(&f.position, &mut |t| {
            assert_eq!(t.position.side(), !f.position.side());
            keys.insert(t.position.board_key());
        });
        assert_eq!((listed, keys.len()), (turns, turns), "{}", f.line);
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
    assert_eq!(lines.len(), MOVES);
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
    assert_eq!(captures, MOVES_WITH_CAPTURES);
}

/// Whole random games recorded by pyrimaa replay to the same final position and the same
/// winner and reason. Every game block (a `# game N result <g|s> <reason>` header, the
/// record, a `final` board) must be complete; an unknown winner or reason fails.
#[test]
fn whole_games_replay_to_pyrimaa_result() {
    let path = data_path("games.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    let mut games = 0;
    let mut tally = std::collections::BTreeMap::new();
    for block in text.split("\n\n").filter(|b| b.contains("# game")) {
        let header = block
            .lines()
            .find(|l| l.starts_with("# game"))
            .expect("a game header");
        let words: Vec<&str> = header.split_whitespace().collect();
        assert_eq!(
            words.len(),
            6,
            "header {header:?}: expected `# game N result <g|s> <reason>`"
        );
        assert_eq!(words[3], "result", "header {header:?}");
        let winner = match words[4] {
            "g" => Color::Gold,
            "s" => Color::Silver,
            other => panic!("{header}: unknown winner {other:?}"),
        };
        let reason = match words[5] {
            "goal" => EndReason::Goal,
            "elimination" => EndReason::Elimination,
            "immobilization" => EndReason::Immobilization,
            other => panic!("{header}: unknown end reason {other:?}"),
        };
        *tally
            .entry(format!("{} {}", words[4], words[5]))
            .or_insert(0) += 1;
        let final_line = block
            .lines()
            .find(|l| l.starts_with("final "))
            .unwrap_or_else(|| panic!("{header}: no final position"));
        let final_pos = parse_aei(&final_line["final ".len()..])
            .unwrap_or_else(|e| panic!("{header}: final position: {e}"));
        let record: String = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("final"))
            .map(|l| format!("{l}\n"))
            .collect();
        let game = Record::parse(&record)
            .unwrap_or_else(|e| panic!("{header}: {e}"))
            .replay(None)
            .unwrap_or_else(|e| panic!("{header}: {e}"));
        assert_eq!(game.position(), &final_pos, "{header}");
        let result = game
            .result()
            .unwrap_or_else(|| panic!("{header}: not over"));
        assert_eq!((result.winner, result.reason), (winner, reason), "{header}");
        games += 1;
    }
    assert_eq!(games, GAMES);
    // The tally of `# game` headers in the file (pyrimaa's results).
    let want: Vec<(&str, usize)> = vec![
        ("g elimination", 5),
        ("g goal", 10),
        ("g immobilization", 2),
        ("s elimination", 1),
        ("s goal", 10),
        ("s immobilization", 2),
    ];
    let got: Vec<(&str, usize)> = tally.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(got, want);
}
