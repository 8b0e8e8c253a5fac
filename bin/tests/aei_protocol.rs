//! `tusk aei` driven over pipes, one child process per test: the handshake, the game it keeps,
//! one `bestmove` per `go` (none for a late `stop` or a ponder), commands mid-search, and
//! survival of bad input.

mod aei_harness;

use std::time::{Duration, Instant};

use aei_harness::{count, game_at, legal, Engine, START};
use tusk_engine::notation::board::to_aei_with_side;
use tusk_engine::notation::turn::write_turn;
use tusk_engine::{Game, TurnGen};

/// A board `<side> [64 cells]` with the given pieces (`('E', "d4")`), all else empty.
fn board(side: char, pieces: &[(char, &str)]) -> String {
    let mut cells = [' '; 64];
    for &(piece, square) in pieces {
        let b = square.as_bytes();
        let file = usize::from(b[0] - b'a');
        let rank = usize::from(b[1] - b'1');
        cells[(7 - rank) * 8 + file] = piece;
    }
    format!("{side} [{}]", cells.iter().collect::<String>())
}

/// An engine after the handshake, a new game and `position`, searching to a fixed depth of
/// one turn (so every `go` ends on its own).
fn engine_at(position: &str) -> Engine {
    let mut e = engine_unlimited_at(position);
    e.send("setoption name depth value 4");
    e
}

/// An engine after the handshake, a new game and `position`, with no depth and no clock: a
/// search runs until it is stopped.
fn engine_unlimited_at(position: &str) -> Engine {
    let mut e = Engine::start();
    e.handshake();
    e.send("newgame");
    e.send(&format!("setposition {position}"));
    e
}

/// The first legal turn of the side to move (the engine's own enumeration order).
fn first_turn(game: &Game) -> String {
    let turns = game.legal_turns(&mut TurnGen::new());
    let (t, _) = turns.first().expect("a legal turn");
    write_turn(game.position(), t)
}

#[test]
fn handshake_is_the_first_output_and_complete() {
    let mut e = Engine::start();
    // A command before `aei` must not produce the first line.
    e.send("isready");
    let lines = e.handshake();
    assert_eq!(lines[0], "protocol-version 1", "{lines:?}");
    assert_eq!(count(&lines, "id name "), 1, "{lines:?}");
    assert_eq!(count(&lines, "id author "), 1, "{lines:?}");
    assert_eq!(count(&lines, "id version "), 1, "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("aeiok"));
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(e.sync().is_empty());
    // A second `aei` is only warned about.
    e.send("aei");
    let before = e.sync();
    assert!(
        before.iter().all(|l| l.starts_with("log Warning")),
        "{before:?}"
    );
}

#[test]
fn setups_for_both_colours_varied_unless_seeded() {
    let mut e = Engine::start();
    e.handshake();
    let mut gold_setups = std::collections::HashSet::new();
    for _ in 0..8 {
        let mut game = Game::new();
        e.send("newgame");
        e.send("go");
        let gold = e.bestmove();
        assert!(legal(&game, &gold), "gold setup {gold}");
        game.play_text(&gold).unwrap();
        e.send(&format!("makemove {gold}"));
        e.send("go");
        let silver = e.bestmove();
        assert!(legal(&game, &silver), "silver setup {silver}");
        gold_setups.insert(gold);
    }
    assert!(gold_setups.len() >= 2, "setups never vary: {gold_setups:?}");
    e.send("setoption name seed value 5");
    e.send("newgame");
    e.send("go");
    let a = e.bestmove();
    e.send("newgame");
    e.send("go");
    assert_eq!(e.bestmove(), a, "a fixed seed fixes the setup");
}

#[test]
fn one_bestmove_per_go_through_a_game_against_itself() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name depth value 4");
    e.send("newgame");
    let mut game = Game::new();
    let mut gos = 0;
    while game.result().is_none() && game.moves().len() < 16 {
        e.send("go");
        gos += 1;
        let mv = e.bestmove();
        assert!(
            legal(&game, &mv),
            "{} {mv}\n{}",
            game.move_label(),
            game.record()
        );
        game.play_text(&mv).unwrap();
        e.send(&format!("makemove {mv}"));
    }
    e.sync();
    assert_eq!(count(&e.transcript, "bestmove"), gos);
}

#[test]
fn late_stop_gets_nothing() {
    let mut e = engine_at(START);
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv));
    e.send("stop");
    e.send("stop");
    let after = e.sync();
    assert_eq!(count(&after, "bestmove"), 0, "{after:?}");
    assert_eq!(count(&e.transcript, "bestmove"), 1);
}

#[test]
fn stop_right_after_go_answers_once() {
    let mut e = engine_unlimited_at(START);
    e.send_raw(b"go\nstop\n");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv), "{mv}");
    e.send("stop");
    e.sync();
    assert_eq!(count(&e.transcript, "bestmove"), 1, "{:?}", e.transcript);
}

#[test]
fn isready_and_setoption_are_handled_mid_search() {
    // Untimed and without a depth, a real search runs until it is stopped.
    let mut e = engine_unlimited_at(START);
    e.send("go");
    e.send("setoption name moveused value 1");
    e.send("setoption name opponent value someone with spaces");
    e.send("isready");
    let before = e.wait_for("readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("log Error")),
        "{before:?}"
    );
    e.send("stop");
    e.sync();
    assert_eq!(count(&e.transcript, "bestmove"), 1, "{:?}", e.transcript);
    let mv = e
        .transcript
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap()
        .to_string();
    assert!(legal(&game_at(START), &mv));
}

#[test]
fn a_clock_ends_the_search_and_moveused_moves_it() {
    // 30 s per move and no reserve; the controller then says 29 s of the turn are gone, so
    // the search must answer within about a second instead of thinking for many.
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name tcmove value 30");
    e.send("setoption name tcreserve value 0");
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.sync();
    let t = Instant::now();
    e.send("go");
    e.send("setoption name moveused value 29");
    let mv = e.bestmove();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "answered after {:?}",
        t.elapsed()
    );
    assert!(legal(&game_at(START), &mv));
    // A short clock on its own, without stop: tcmove 1.
    e.send("setoption name tcmove value 1");
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.sync();
    let t = Instant::now();
    e.send("go");
    let mv = e.bestmove();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "answered after {:?}",
        t.elapsed()
    );
    assert!(legal(&game_at(START), &mv));
}

#[test]
fn quit_twice_exits() {
    let mut e = engine_unlimited_at(START);
    e.send("go");
    e.send_raw(b"quit\nquit\n");
    let status = e.wait_exit(Duration::from_secs(10)).expect("tusk exits");
    assert!(status.success(), "{status}");
}

#[test]
fn quit_during_a_search_exits() {
    let mut e = engine_unlimited_at(START);
    e.send("go ponder");
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(10)).expect("tusk exits");
    assert!(status.success(), "{status}");
}

#[test]
fn end_of_input_exits() {
    let mut e = engine_unlimited_at(START);
    e.send("go");
    e.close_input();
    let status = e.wait_exit(Duration::from_secs(10)).expect("tusk exits");
    assert!(status.success(), "{status}");
}

#[test]
fn crlf_input() {
    let mut e = Engine::start();
    e.send_raw(b"aei\r\n");
    let lines = e.wait_for("aeiok");
    assert_eq!(lines[0], "protocol-version 1");
    e.send_raw(b"isready\r\nsetoption name depth value 4\r\nsetoption name opponent value X Y\r\n");
    e.wait_for("readyok");
    e.send_raw(format!("newgame\r\nsetposition {START}\r\ngo\r\n").as_bytes());
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv), "{mv}");
    e.send_raw(format!("makemove {mv}\r\ngo\r\n").as_bytes());
    let reply = e.bestmove();
    let mut game = game_at(START);
    game.play_text(&mv).unwrap();
    assert!(legal(&game, &reply), "{reply}");
    e.sync();
    assert_eq!(count(&e.transcript, "log Error"), 0, "{:?}", e.transcript);
}

#[test]
fn garbage_lines_are_reported_and_survived() {
    let mut e = engine_at(START);
    e.sync();
    let garbage: [&[u8]; 10] = [
        b"frobnicate 12\n",
        b"\x00\x01\x02\n",
        b"\xff\xfe garbage\n",
        b"setposition g [abc]\n",
        b"setposition\n",
        b"setoption foo\n",
        b"setoption name hash value lots\n",
        b"go fast\n",
        b"makemove\n",
        b"isready please\n",
    ];
    for g in garbage {
        e.send_raw(g);
    }
    e.send_raw(b"\n   \n");
    let before = e.sync();
    assert_eq!(count(&before, "log Error"), garbage.len(), "{before:?}");
    assert_eq!(before.len(), garbage.len(), "{before:?}");
    // The position is still the one set before the garbage.
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv), "{mv}");
}

#[test]
fn strict_option_exits_on_an_unknown_command() {
    let mut e = Engine::start();
    e.handshake();
    e.send("frobnicate");
    let before = e.sync();
    assert_eq!(count(&before, "log Error"), 1);
    e.send("setoption name strict value 1");
    e.send("frobnicate");
    let status = e.wait_exit(Duration::from_secs(10)).expect("tusk exits");
    assert!(status.success());
    e.collect_for(Duration::from_millis(200));
    assert_eq!(
        count(&e.transcript, "log Error: unknown command"),
        2,
        "{:?}",
        e.transcript
    );
}

#[test]
fn options_unknown_warn_and_bad_values_err() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name frob value 1");
    e.send("setoption name tcmove value fast");
    e.send("setoption name hash value 0");
    e.send("setoption name threads value 2");
    e.send("setoption name hash value 16");
    for name in [
        "tcmove",
        "tcreserve",
        "tcpercent",
        "tcmax",
        "tctotal",
        "tcturns",
        "tcturntime",
        "greserve",
        "sreserve",
        "gused",
        "sused",
        "lastmoveused",
        "moveused",
        "opponent_rating",
        "rating",
        "rated",
        "depth",
    ] {
        e.send(&format!("setoption name {name} value 0"));
    }
    e.send("setoption name depth value 4");
    e.send("setoption name opponent value bot Sharp");
    e.send("setoption name event value Arimaa World Championship");
    let before = e.sync();
    assert_eq!(count(&before, "log Warning"), 1, "{before:?}");
    assert!(before[0].contains("frob"), "{before:?}");
    assert_eq!(count(&before, "log Error"), 2, "{before:?}");
    assert_eq!(before.len(), 3, "{before:?}");
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("go");
    assert!(legal(&game_at(START), &e.bestmove()));
}

#[test]
fn illegal_makemove_keeps_the_position() {
    let mut e = engine_at(START);
    for bad in [
        "Ed2n",                     // d2 holds the camel
        "Ee2n Ee3n Ee4n Ee5n Ee6n", // five steps
        "Ee2w",                     // d2 is occupied
        "Ra1 Rb1",                  // a setup after the setups
        "Ee2n Ee3s",                // the board is unchanged
        "ed7s",                     // silver's piece on gold's turn
    ] {
        e.send(&format!("makemove {bad}"));
    }
    let before = e.sync();
    assert_eq!(count(&before, "log Error"), 6, "{before:?}");
    e.send("go");
    let mv = e.bestmove();
    assert!(
        legal(&game_at(START), &mv),
        "still gold to move at the start: {mv}"
    );
}

#[test]
fn malformed_setposition_keeps_the_position() {
    let mut e = engine_at(START);
    e.send("setposition g [rrrrrrrr]");
    e.send(&format!("setposition {}", START.replacen('g', "x", 1)));
    let before = e.sync();
    assert_eq!(count(&before, "log Error"), 2, "{before:?}");
    e.send("go");
    assert!(legal(&game_at(START), &e.bestmove()));
}

#[test]
fn capture_tokens_are_optional_and_a_wrong_one_is_tolerated() {
    // Gold's elephant on d2 pushes the silver rabbit on d3 into the unguarded trap c3.
    let pos = board(
        'g',
        &[
            ('E', "d2"),
            ('R', "a1"),
            ('R', "h1"),
            ('r', "d3"),
            ('r', "a8"),
            ('r', "h8"),
        ],
    );
    let mut after = game_at(&pos);
    after.play_text("rd3w rc3x Ed2n").unwrap();
    for (mv, warned) in [
        ("rd3w rc3x Ed2n", false),
        ("rd3w Ed2n", false),
        ("rd3w dc3x Ed2n", true),
    ] {
        let mut e = engine_at(&pos);
        e.send(&format!("makemove {mv}"));
        let before = e.sync();
        assert_eq!(
            count(&before, "log Warning"),
            usize::from(warned),
            "{mv}: {before:?}"
        );
        assert_eq!(count(&before, "log Error"), 0, "{mv}: {before:?}");
        e.send("go");
        let reply = e.bestmove();
        assert!(legal(&after, &reply), "{mv}: silver's reply {reply}");
    }
}

#[test]
fn ponder_never_answers() {
    let mut e = engine_at(START);
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    e.send("makemove Ee2n");
    e.sync();
    e.send("go ponder");
    e.send("stop");
    e.sync();
    e.send("go ponder");
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("go ponder");
    e.send(&format!("setposition {START}"));
    e.sync();
    assert_eq!(count(&e.transcript, "bestmove"), 0, "{:?}", e.transcript);
    // A plain go while pondering ends the ponder and is answered once.
    e.send("go ponder");
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(START), &mv));
    e.sync();
    assert_eq!(count(&e.transcript, "bestmove"), 1, "{:?}", e.transcript);
}

#[test]
fn own_move_counts_only_when_echoed() {
    let mut e = engine_at(START);
    e.send("go");
    let first = e.bestmove();
    // Not echoed: still gold to move at the start.
    e.send("go");
    let again = e.bestmove();
    assert!(legal(&game_at(START), &again), "{again}");
    let mut game = game_at(START);
    game.play_text(&first).unwrap();
    e.send(&format!("makemove {first}"));
    let reply = first_turn(&game);
    game.play_text(&reply).unwrap();
    e.send(&format!("makemove {reply}"));
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game, &mv), "{mv} after {first} / {reply}");
}

#[test]
fn never_a_third_repetition() {
    // Silver's first legal step from Q (below) is reversible; the game cycles twice through
    // P0 -Ed4n-> P1 -undo-> P2 -Ed5s-> Q -step-> P0, so at Q the step would make P0 a third
    // time.
    let q = board(
        's',
        &[
            ('E', "d4"),
            ('D', "b8"),
            ('R', "a1"),
            ('R', "h1"),
            ('r', "a8"),
            ('e', "h4"),
        ],
    );
    let q_game = game_at(&q);
    let step = first_turn(&q_game);
    assert_eq!(
        step.split(' ').count(),
        1,
        "the first turn is one step: {step}"
    );
    assert!(step.starts_with('e'), "the elephant's step: {step}");
    let (from, dir) = (&step[1..3], &step[3..4]);
    let mut after = q_game.clone();
    after.play_text(&step).unwrap();
    let p0 = to_aei_with_side(after.position());
    let to = {
        let (f, r) = (from.as_bytes()[0], from.as_bytes()[1]);
        let (f, r) = match dir {
            "n" => (f, r + 1),
            "s" => (f, r - 1),
            "e" => (f + 1, r),
            _ => (f - 1, r),
        };
        String::from_utf8(vec![f, r]).unwrap()
    };
    let back = format!(
        "e{to}{}",
        match dir {
            "n" => "s",
            "s" => "n",
            "e" => "w",
            _ => "e",
        }
    );
    let cycle = ["Ed4n", back.as_str(), "Ed5s", step.as_str()];
    let mut e = engine_at(&p0);
    let mut game = game_at(&p0);
    for mv in cycle.iter().chain(&cycle[..3]) {
        game.play_text(mv).unwrap();
        e.send(&format!("makemove {mv}"));
    }
    assert!(
        game.clone().play_text(&step).is_err(),
        "the step repeats a third time"
    );
    let before = e.sync();
    assert_eq!(count(&before, "log Error"), 0, "{before:?}");
    e.send("go");
    let mv = e.bestmove();
    assert_ne!(mv, step);
    assert!(legal(&game, &mv), "{mv}");
}

#[test]
fn a_lost_position_still_gets_a_legal_move() {
    // Gold's rabbit on a7 reaches goal next turn whatever silver does.
    let pos = board('s', &[('R', "a7"), ('R', "b1"), ('e', "e5"), ('r', "h8")]);
    let mut e = engine_at(&pos);
    e.send("setoption name depth value 8");
    e.send("go");
    let mv = e.bestmove();
    assert!(legal(&game_at(&pos), &mv), "{mv}");
}

#[test]
fn plain_tusk_speaks_aei_when_input_is_not_a_terminal() {
    let mut e = Engine::start_args(&[]);
    let lines = e.handshake();
    assert_eq!(lines[0], "protocol-version 1", "{lines:?}");
    e.send("setoption name depth value 4");
    e.send("newgame");
    e.send(&format!("setposition {START}"));
    e.send("go");
    assert!(legal(&game_at(START), &e.bestmove()));
}
