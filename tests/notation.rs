//! Notation: every printer's output parses back to the same value and prints the same text,
//! and no parser panics on garbage.

use proptest::prelude::*;
use tusk_engine::notation::board::{
    from_pieces, parse_aei, parse_framed, to_aei, to_aei_with_side, to_framed,
};
use tusk_engine::notation::record::{PositionFile, Record};
use tusk_engine::notation::token::Token;
use tusk_engine::notation::turn::{parse_setup, parse_turn, write_turn};
use tusk_engine::setup::random_setup;
use tusk_engine::{Color, Game, Move, TurnGen};
use tusk_tests::random_game;
use tusk_tests::reference::{cells_of, Last, RefPos};

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// print(parse(x)) == x for turns: every distinct turn of a random position, written with
    /// its capture tokens, parses back to the same steps and the same resulting position.
    #[test]
    fn turns_round_trip(seed in 0u64..1_000_000, len in 0usize..40) {
        let pos = random_game(seed, len).pop().unwrap();
        let mut gen = TurnGen::new();
        for (turn, after) in gen.turns(&pos).into_iter().step_by(7) {
            let text = write_turn(&pos, &turn);
            let (parsed, p2) = parse_turn(&pos, &text).unwrap();
            prop_assert_eq!(parsed, turn);
            prop_assert_eq!(&p2, &after);
            prop_assert_eq!(write_turn(&pos, &parsed), text.clone());
            // Capture tokens may be left out.
            let bare: Vec<&str> = text.split_whitespace().filter(|w| !w.ends_with('x')).collect();
            let (p3, _) = parse_turn(&pos, &bare.join(" ")).unwrap();
            prop_assert_eq!(p3, turn);
        }
    }

    /// Positions round-trip through the AEI board and the framed position file.
    #[test]
    fn positions_round_trip(seed in 0u64..1_000_000, len in 0usize..60) {
        let pos = random_game(seed, len).pop().unwrap();
        let aei = to_aei_with_side(&pos);
        let back = parse_aei(&aei).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(to_aei_with_side(&back), aei);
        let framed = to_framed(&pos);
        let lines: Vec<&str> = framed.lines().collect();
        let again = from_pieces(pos.side(), &parse_framed(&lines, 1).unwrap()).unwrap();
        prop_assert_eq!(&again, &pos);
        let pf = PositionFile { move_number: 7, position: pos.clone(), steps_taken: String::new() };
        let text = pf.write();
        prop_assert_eq!(PositionFile::parse(&text).unwrap(), pf);
    }

    /// Game records round-trip: a random game's record replays to the same game and prints
    /// the same text.
    #[test]
    fn records_round_trip(seed in 0u64..1_000_000, len in 0usize..25) {
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(seed);
        let mut game = Game::new();
        for c in Color::ALL {
            game.play(&Move::Setup(random_setup(c, &mut rng))).unwrap();
        }
        let mut gen = TurnGen::new();
        for _ in 0..len {
            let turns = game.legal_turns(&mut gen);
            if turns.is_empty() { break; }
            let i = rand::Rng::gen_range(&mut rng, 0..turns.len());
            game.play(&Move::Turn(turns[i].0)).unwrap();
        }
        let text = game.record();
        let rec = Record::parse(&text).unwrap();
        let replayed = rec.replay(None).unwrap();
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.record(), text);
    }

    /// Setups round-trip: a random setup printed and read back is the same setup.
    #[test]
    fn setups_round_trip(seed in 0u64..1_000_000) {
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(seed);
        for c in Color::ALL {
            let s = random_setup(c, &mut rng);
            let text = s.to_string();
            let back = parse_setup(c, &text).unwrap();
            prop_assert_eq!(&back, &s);
            prop_assert_eq!(back.to_string(), text);
            let d = tusk_engine::setup::default_setup(c, seed, &tusk_engine::Position::empty(c));
            prop_assert_eq!(parse_setup(c, &d.to_string()).unwrap(), d);
        }
    }

    /// Garbage never panics any parser.
    #[test]
    fn garbage_never_panics(s in "\\PC{0,80}", t in "[ rRcCdDhHmMeExX\\[\\]gsnw1-8a-h|+-]{0,90}") {
        for text in [&s, &t] {
            let _ = parse_aei(text);
            let _ = Token::parse(text);
            let _ = Record::parse(text);
            let _ = Record::parse(text).map(|r| r.replay(None));
            let _ = PositionFile::parse(text);
            let _ = parse_setup(Color::Gold, text);
            let start = parse_aei(tusk_engine::notation::board::STANDARD_OPENING).unwrap();
            let _ = parse_turn(&start, text);
            let mut g = Game::new();
            let _ = g.play_text(text);
        }
    }
}

/// Every mangled token of a real turn gives an error, never a panic, and the error names the
/// token.
#[test]
fn mangled_turns_name_the_bad_token() {
    let pos = parse_aei(tusk_engine::notation::board::STANDARD_OPENING).unwrap();
    let e = parse_turn(&pos, "Ee2n Ee3n Ed2n").unwrap_err().to_string();
    assert!(e.contains("step 3 \"Ed2n\""), "{e}");
    assert!(e.contains("holds a gold camel"), "{e}");
    let e = parse_turn(&pos, "Ee2n Md2e Me2n").unwrap_err().to_string();
    assert!(
        e.contains("step 3 \"Me2n\": e3 is occupied by a gold elephant"),
        "{e}"
    );
    let e = parse_turn(&pos, "Ra1n").unwrap_err().to_string();
    assert!(e.contains("a2 is occupied"), "{e}");
    let e = parse_turn(&pos, "Ee2n Ee3x").unwrap_err().to_string();
    assert!(e.contains("\"Ee3x\""), "{e}");
    let e = parse_turn(&pos, "Ee2n Qe3n").unwrap_err().to_string();
    assert!(e.contains("\"Qe3n\""), "{e}");
    let e = parse_turn(&pos, "").unwrap_err().to_string();
    assert!(e.contains("at least one step"), "{e}");
}

/// Old colour letters and tags are accepted in records.
#[test]
fn record_accepts_w_b_and_tags() {
    let text = "Event: Casual Game\nWhite: a\nChat: -=+=-\n2s White: hi\n-=+=-\n\n\
                1w Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
                1b ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n\
                2w Ee2n Ee3n\n2b ee7s\n";
    let rec = Record::parse(text).unwrap();
    assert_eq!(rec.tag("event"), Some("Casual Game"));
    assert_eq!(rec.tag("Chat"), Some("2s White: hi"));
    assert_eq!(rec.moves.len(), 4);
    let g = rec.replay(None).unwrap();
    assert_eq!(g.move_label(), "3g");
    assert_eq!(g.record().lines().nth(2), Some("2g Ee2n Ee3n"));
}

/// A record with an illegal move names the move and the step.
#[test]
fn record_errors_name_the_move() {
    let text = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2\n\
                1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n\
                2g Ee2n Ee3n Ee4n Ee5n\n2s ee7s\n";
    let e = Record::parse(text)
        .unwrap()
        .replay(None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("move 2s: step 1 \"ee7s\": e6 is occupied by a gold elephant"),
        "{e}"
    );
}

/// Distinct completions of the turn in `position_file_with_steps_taken` (two steps left).
const POSITION_FILE_TURNS: usize = 602;

/// A position file in the notation document's layout whose move line lists two steps
/// already taken: the board shown is after them, two steps remain.
#[test]
fn position_file_with_steps_taken() {
    let text = "7g Da1n Cc1n\n +-----------------+\n8| r   r   r   r   |\n7|   m   h   e   c |\n6| r   x r r x r   |\n5| h   d     c   d |\n4|   E   H   M     |\n3| R   x R R H R   |\n2| D   C     C   D |\n1|   R   R   R   R |\n +-----------------+\n   a b c d e f g h\n";
    let pf = PositionFile::parse(text).unwrap();
    assert_eq!(pf.move_number, 7);
    assert_eq!(pf.position.side(), Color::Gold);
    assert_eq!(pf.position.steps_left(), 2);
    assert_eq!(pf.steps_taken, "Da1n Cc1n");
    assert_eq!(PositionFile::parse(&pf.write()).unwrap(), pf);
    // The turn goes on from the board shown, and may not return to the board it began with
    // (the dog back on a1 and the cat back on c1). The independent reference, started from
    // that turn-start board and playing the two steps itself, gives the exact completions.
    let start = {
        let mut c = cells_of(&pf.position);
        c[0] = c[8].take(); // the dog a2 back to a1
        c[2] = c[10].take(); // the cat c2 back to c1
        c
    };
    let r = RefPos {
        cells: start,
        gold_to_move: true,
        steps_left: 4,
        last: Last::Nothing,
    }
    .play(&[(0, 8), (2, 10)]);
    assert_eq!(r.cells, cells_of(&pf.position));
    let want = r.turn_boards(&start);
    let mut gen = TurnGen::new();
    let mut got = std::collections::HashSet::new();
    let n = gen.for_each_turn(&pf.position, &mut |t| {
        got.insert(to_aei(t.position));
    });
    assert_eq!(n, want.len());
    assert_eq!(got, want);
    assert_eq!(gen.count(&pf.position), POSITION_FILE_TURNS);
    assert_eq!(want.len(), POSITION_FILE_TURNS);
    // A move line whose steps cannot have led to the board is rejected with a reason.
    let bad = text.replace("7g Da1n Cc1n", "7g Da1n Cb1n");
    let e = PositionFile::parse(&bad).unwrap_err().to_string();
    assert!(e.contains("Cb1n"), "{e}");
}

/// A turn value (not text) with an illegal step is rejected with the step's number and token,
/// and the game is left exactly as it was.
#[test]
fn game_rejects_illegal_turn_values_and_stays_unchanged() {
    use tusk_engine::{Direction, Square, Step, Turn};
    let start = parse_aei(tusk_engine::notation::board::STANDARD_OPENING).unwrap();
    let mut game = Game::from_position(start.clone(), 2);
    let sq = |s: &str| Square::parse(s).unwrap();
    let turn = Turn::from_steps(&[
        Step::try_new(sq("e2"), Direction::North).unwrap(),
        Step::try_new(sq("a4"), Direction::North).unwrap(),
    ])
    .unwrap();
    let e = game.play(&Move::Turn(turn)).unwrap_err().to_string();
    assert!(e.contains("step 2") && e.contains("a4 is empty"), "{e}");
    let back = Turn::from_steps(&[
        Step::try_new(sq("e2"), Direction::North).unwrap(),
        Step::try_new(sq("e3"), Direction::South).unwrap(),
    ])
    .unwrap();
    let e = game.play(&Move::Turn(back)).unwrap_err().to_string();
    assert!(e.contains("does not change the board"), "{e}");
    assert_eq!(game.position(), &start);
    assert!(game.moves().is_empty());
    assert_eq!(game.play_text("Ee2n"), Ok(()));
    assert_eq!(game.move_label(), "2s");
}

#[test]
fn lenient_play_tolerates_only_a_wrong_capture_token() {
    use tusk_engine::notation::turn::without_capture_tokens;
    // Gold's elephant on d2 pushes the silver rabbit on d3 into the unguarded trap c3.
    let pos =
        parse_aei("g [r      r                                   r       E    R      R]").unwrap();
    assert_eq!(without_capture_tokens(" rd3w  dc3x Ed2n "), "rd3w Ed2n");
    assert_eq!(without_capture_tokens("Ra1 Rb1"), "Ra1 Rb1");
    let mut strict = Game::from_position(pos.clone(), 2);
    strict.play_text("rd3w rc3x Ed2n").unwrap();
    for (text, tolerated) in [
        ("rd3w rc3x Ed2n", false),
        ("rd3w Ed2n", false),
        ("rd3w dc3x Ed2n", true),
    ] {
        let mut g = Game::from_position(pos.clone(), 2);
        let fault = g.play_text_lenient(text).unwrap();
        assert_eq!(fault.is_some(), tolerated, "{text}");
        assert_eq!(g.position(), strict.position(), "{text}");
    }
    // Any other fault is an error, and the game is unchanged.
    let mut g = Game::from_position(pos.clone(), 2);
    assert!(g.play_text_lenient("rd3w dc3x Ed2s").is_err());
    assert_eq!(g.position(), &pos);
}

/// A line of turns written from a turn start: each turn from the position the one before it
/// leaves, captures included; a last turn cut short is written as far as it goes; a line that
/// turns illegal stops before the bad turn.
#[test]
fn write_line_writes_each_turn_from_where_it_starts() {
    use tusk_engine::notation::turn::{play_steps, write_line};
    let start = parse_aei(tusk_engine::notation::board::STANDARD_OPENING).unwrap();
    let texts = ["Ee2n Ee3n Ee4n Ee5n", "ed7s ed6s ed5s", "Ee6w Ed6s"];
    let mut game = Game::from_position(start.clone(), 2);
    let mut turns = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let (turn, _) = play_steps(game.position(), text).unwrap();
        turns.push(turn);
        if i + 1 < texts.len() {
            game.play_text(text).unwrap();
        }
    }
    assert_eq!(write_line(&start, &turns), texts);
    assert_eq!(
        Game::from_position(start.clone(), 2).line_text(&turns),
        texts
    );
    assert!(write_line(&start, &[]).is_empty());
    // A second copy of the first turn is not legal where it would stand (the elephant is
    // gone from e2): the line stops before it.
    let bad = [turns[0], turns[1], turns[0]];
    assert_eq!(write_line(&start, &bad), texts[..2]);
    // A capture by a push is written between its steps.
    let p =
        parse_aei("g [r   e  r                          dE                    R      R]").unwrap();
    let (push, _) = play_steps(&p, "dc4s Ed4w").unwrap();
    assert_eq!(write_line(&p, &[push]), ["dc4s dc3x Ed4w"]);
}

/// From a mid-turn start (a position file's move line), the first turn of a line is its
/// remaining steps alone for `write_line`, and whole, the steps already taken first, for
/// `Game::line_text`; later turns are written as usual.
#[test]
fn a_line_from_a_mid_turn_start_writes_its_first_turn_whole() {
    use tusk_engine::notation::turn::{play_steps, write_line};
    let start = parse_aei(tusk_engine::notation::board::STANDARD_OPENING).unwrap();
    let (_, mid) = play_steps(&start, "Ee2n Ee3n").unwrap();
    let game = Game::from_position(mid.clone(), 2).with_steps_taken("Ee2n Ee3n");
    let (rest, after_rest) = play_steps(&mid, "Ee4n Ee5n").unwrap();
    let mut next = after_rest.clone();
    next.end_turn();
    let (reply, _) = play_steps(&next, "ed7s ed6s").unwrap();
    assert_eq!(write_line(&mid, &[rest, reply]), ["Ee4n Ee5n", "ed7s ed6s"]);
    assert_eq!(
        game.line_text(&[rest, reply]),
        ["Ee2n Ee3n Ee4n Ee5n", "ed7s ed6s"]
    );
    // Ending the turn at once: an empty remainder.
    let empty = tusk_engine::Turn::new();
    let (_, done) = play_steps(&mid, "").unwrap();
    let mut reply_start = done.clone();
    reply_start.end_turn();
    let (reply, _) = play_steps(&reply_start, "ed7s").unwrap();
    assert_eq!(game.line_text(&[empty, reply]), ["Ee2n Ee3n", "ed7s"]);
}
