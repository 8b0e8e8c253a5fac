//! Mid-turn exactness: positions with steps already taken in the current turn behave as the
//! official rules say (issue 7). The brute-force comparisons over many random mid-turn
//! positions live in the workspace tests; these pin the named cases.

use tusk_engine::notation::board::{parse_aei, to_framed};
use tusk_engine::notation::record::PositionFile;
use tusk_engine::notation::turn::play_steps;
use tusk_engine::{Color, EndReason, Game, Pending, Position, TurnGen};

const START: &str = tusk_engine::notation::board::STANDARD_OPENING;

/// A board in AEI form from `(piece letter, square)` pairs.
fn board(side: char, pieces: &[(char, &str)]) -> String {
    let mut cells = [' '; 64];
    for &(c, sq) in pieces {
        let b = sq.as_bytes();
        let file = usize::from(b[0] - b'a');
        let rank = usize::from(b[1] - b'1');
        cells[(7 - rank) * 8 + file] = c;
    }
    format!("{side} [{}]", cells.iter().collect::<String>())
}

fn after(board: &str, steps: &str) -> Position {
    let p = parse_aei(board).expect("valid board");
    play_steps(&p, steps).expect("legal steps").1
}

/// The opening after `2g Ee2n Ee3n Ee4n`: 14 completions by one more step, plus ending the
/// turn at once (the board differs from the turn start), 15 distinct turns.
#[test]
fn ending_at_once_counts_as_a_turn() {
    let p = after(START, "Ee2n Ee3n Ee4n");
    assert_eq!(p.steps_left(), 1);
    let mut gen = TurnGen::new();
    assert_eq!(gen.count(&p), 15);
    let turns = gen.turns(&p);
    assert_eq!(turns.len(), 15);
    assert!(
        turns.iter().any(|(t, _)| t.is_empty()),
        "ending at once is listed"
    );
    // One more step from e5: north to e6, east to f5, west to d5; or back to e4 (a new board,
    // since the turn began with the elephant on e2). The other 11 single steps: the gold pieces
    // on rank 2 and the rabbit behind e2 moving into the space the elephant left, and pieces
    // stepping forward from rank 2.
    let one_step = turns.iter().filter(|(t, _)| t.len() == 1).count();
    assert_eq!(one_step, 14);

    // The same board as a position file with its move line gives the same count.
    let text = "2g Ee2n Ee3n Ee4n\n +-----------------+\n8| r r r r r r r r |\n\
                7| d h c e m c h d |\n6| . . x . . x . . |\n5| . . . . E . . . |\n\
                4| . . . . . . . . |\n3| . . x . . x . . |\n2| D H C M . C H D |\n\
                1| R R R R R R R R |\n +-----------------+\n   a b c d e f g h\n";
    let pf = PositionFile::parse(text).expect("valid position file");
    assert_eq!(pf.position, p);
    let game = Game::from_position(pf.position, pf.move_number);
    assert_eq!(game.result(), None);
    assert_eq!(game.legal_turns(&mut gen).len(), 15);
}

/// Going back to the turn-start board is never a turn, even mid-turn.
#[test]
fn returning_to_the_turn_start_is_excluded() {
    let p = after(START, "Ee2n Ee3n Ee4s");
    // Elephant on e3: ending now is legal (e3 differs from e2), Ee3s would restore the start.
    let mut gen = TurnGen::new();
    let turns = gen.turns(&p);
    let start = parse_aei(START).unwrap();
    for (_, q) in &turns {
        assert_ne!(q.board_key() ^ side_flip(), start.board_key());
    }
    assert!(turns.iter().any(|(t, _)| t.is_empty()));
    let back = after(START, "Ee2n Ee3s");
    assert!(!back.can_end_turn(), "the board is the turn-start board");
    assert_eq!(back.steps_left(), 2);
}

fn side_flip() -> u64 {
    tusk_engine::zobrist::side_key(Color::Silver)
}

/// Same board, side, steps left and pending state, different turn starts: different search
/// keys (and different legal continuations), while `hash` alone cannot tell them apart.
#[test]
fn search_key_separates_turn_starts() {
    // Opening after Ee2n Ee3s: elephant back on e2, two steps left, turn began with it on e2.
    let a = after(START, "Ee2n Ee3s");
    // The elephant starts on e4 (otherwise the opening) and steps Ee4s Ee3s to e2.
    let e4 = "g [rrrrrrrrdhcemchd                    E           DHCM CHDRRRRRRRR]";
    let b = after(e4, "Ee4s Ee3s");
    assert_eq!(a.board_key(), b.board_key());
    assert_eq!(a.steps_left(), b.steps_left());
    assert_eq!(a.pending(), b.pending());
    assert_eq!(a.hash(), b.hash(), "hash() leaves the turn start out");
    assert_ne!(a.search_key(), b.search_key());
    // Their continuations differ: b may end now, a may not.
    assert!(!a.can_end_turn() && b.can_end_turn());
    // (Their counts happen to be equal: each excludes one board the other allows.)
    let mut gen = TurnGen::new();
    let ends = |p: &Position, gen: &mut TurnGen| {
        let mut v: Vec<u64> = gen.turns(p).iter().map(|(_, q)| q.board_key()).collect();
        v.sort_unstable();
        v
    };
    assert_ne!(ends(&a, &mut gen), ends(&b, &mut gen));
    // Equal states give equal keys.
    assert_eq!(a.search_key(), after(START, "Ee2n Ee3s").search_key());
}

/// A mid-turn position with no legal step left but a legal end of turn is not a loss by
/// immobilisation: end-of-game checks happen at turn boundaries only.
#[test]
fn no_step_left_mid_turn_is_not_immobilisation() {
    let p = after(START, "Ee2n Ee3n Ee4n Ee5n");
    assert_eq!(p.steps_left(), 0);
    assert!(!p.has_legal_step());
    let mut game = Game::from_position(p, 2);
    assert_eq!(game.result(), None);
    let mut gen = TurnGen::new();
    assert_eq!(game.legal_turns(&mut gen).len(), 1);
    // The only move left is ending the turn; then silver is to move and the game goes on.
    game.play_text("")
        .expect("ending the turn at once is legal");
    assert_eq!(game.side_to_move(), Color::Silver);
    assert_eq!(game.result(), None);

    // A turn start where the side to move is truly stuck is immobilisation.
    let stuck = parse_aei(&board('s', &[('r', "a8"), ('E', "a7"), ('R', "h1")])).expect("valid");
    let g = Game::from_position(stuck, 10);
    assert_eq!(
        g.result().map(|r| (r.winner, r.reason)),
        Some((Color::Gold, EndReason::Immobilization))
    );
}

/// A move line may stop half-way through a push (the pusher must follow) or after a step a
/// weaker enemy piece may still follow (a pull).
#[test]
fn partial_lines_leave_pushes_and_pulls_open() {
    // Gold elephant d4, silver rabbit d5 with d6 empty: "rd5n" starts a push into d5.
    let board = &board('g', &[('E', "d4"), ('r', "d5"), ('R', "a2"), ('r', "h8")]);
    let p = after(board, "rd5n");
    assert!(matches!(p.pending(), Pending::Push { .. }));
    let mut gen = TurnGen::new();
    let turns = gen.turns(&p);
    assert!(!turns.is_empty());
    assert!(turns
        .iter()
        .all(|(t, _)| t.steps().next().map(|s| s.to_string()) == Some("d4n".into())));
    // "Ed4e" leaves d4 with the weaker rabbit on d5 beside it: the rabbit may follow (a pull).
    let q = after(board, "Ed4e");
    assert!(matches!(q.pending(), Pending::Pull { .. }));
    let turns = gen.turns(&q);
    assert!(turns
        .iter()
        .any(|(t, _)| t.steps().next().map(|s| s.to_string()) == Some("d5s".into())));

    // The same states read from position files whose move lines stop there.
    for (line, pos) in [("rd5n", &p), ("Ed4e", &q)] {
        let text = format!("2g {line}\n{}", to_framed(pos));
        let pf = PositionFile::parse(&text).expect("valid position file");
        assert_eq!(&pf.position, pos, "{line}");
        assert_eq!(pf.position.search_key(), pos.search_key(), "{line}");
    }
}
