//! Rules tests: one test per rule of Arimaa, checked through the public API of `tusk-engine`.
//!
//! The rules come from the seed documents in `shared/seeds`: 003 (the official rules and the
//! order of the end-of-game checks) wins over everything else; 000 and 001 give the worked
//! examples used here; 002 gives the notation (capture tokens, setups).
//!
//! Most tests are written from gold's point of view and then run a second time on the
//! mirrored board (colours swapped, ranks flipped, north and south swapped), so that every
//! rule is checked for both colours. See [`View`].

use std::collections::HashSet;

use tusk_engine::error::SetupError;
use tusk_engine::notation::board::{parse_aei, to_aei};
use tusk_engine::notation::turn::{parse_setup, parse_turn, play_steps, write_turn};
use tusk_engine::{
    Color, Direction, EndReason, Game, GameResult, Pending, Piece, PieceKind, Position, Square,
    Step, StepError, StepList, TurnError, TurnGen,
};

use tusk_tests::random_board;
use tusk_tests::reference::RefPos;
use Color::{Gold, Silver};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A square from its name, e.g. `"e4"`.
fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s:?}"))
}

/// A step from `"e4n"` (square and direction letter, no piece letter).
fn step(s: &str) -> Step {
    assert_eq!(s.len(), 3, "a step is written like e4n, got {s:?}");
    let dir = Direction::from_letter(s.as_bytes()[2] as char)
        .unwrap_or_else(|| panic!("bad direction in {s:?}"));
    Step::try_new(sq(&s[..2]), dir).unwrap_or_else(|| panic!("{s} leaves the board"))
}

/// A turn-start position with `side` to move, from pieces like `["Ed4", "rd5"]`.
fn board(side: Color, pieces: &[&str]) -> Position {
    let mut cells = [' '; 64];
    for p in pieces {
        let letter = p.chars().next().unwrap();
        assert!(
            Piece::from_letter(letter).is_some(),
            "bad piece letter in {p:?}"
        );
        let s = sq(&p[1..]);
        let i = (7 - s.rank() as usize) * 8 + s.file() as usize;
        assert_eq!(cells[i], ' ', "two pieces on {s}");
        cells[i] = letter;
    }
    let text = format!("{} [{}]", side.letter(), cells.iter().collect::<String>());
    parse_aei(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Mirrors one token top to bottom and swaps its colour: `Ed4` -> `ed5`, `rb3e` -> `Rb6e`,
/// `d4n` -> `d5s`, `rc3x` -> `Rc6x`, `e4` -> `e5`.
fn mirror_token(t: &str) -> String {
    let c: Vec<char> = t.chars().collect();
    let rank = |r: char| {
        assert!(('1'..='8').contains(&r), "bad rank in {t:?}");
        (b'1' + (b'8' - r as u8)) as char
    };
    let dir = |d: char| match d {
        'n' => 's',
        's' => 'n',
        other => other,
    };
    let piece = |p: char| {
        if p.is_ascii_uppercase() {
            p.to_ascii_lowercase()
        } else {
            p.to_ascii_uppercase()
        }
    };
    match c.len() {
        2 => format!("{}{}", c[0], rank(c[1])),
        3 if c[1].is_ascii_digit() => format!("{}{}{}", c[0], rank(c[1]), dir(c[2])),
        3 => format!("{}{}{}", piece(c[0]), c[1], rank(c[2])),
        4 => format!("{}{}{}{}", piece(c[0]), c[1], rank(c[2]), dir(c[3])),
        _ => panic!("cannot mirror {t:?}"),
    }
}

/// The point of view a test is written in: gold's own (`View(false)`), or the mirrored board
/// where every gold piece is silver and the other way round (`View(true)`). Tests name
/// pieces, squares, steps and colours as gold sees them and let the view translate.
#[derive(Clone, Copy, Debug)]
struct View(bool);

const VIEWS: [View; 2] = [View(false), View(true)];

impl View {
    /// Text (space-separated tokens) in this view.
    fn t(self, s: &str) -> String {
        if self.0 {
            s.split_whitespace()
                .map(mirror_token)
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            s.split_whitespace().collect::<Vec<_>>().join(" ")
        }
    }

    /// A colour in this view.
    fn c(self, c: Color) -> Color {
        if self.0 {
            !c
        } else {
            c
        }
    }

    /// A piece letter in this view.
    fn pc(self, letter: char) -> Piece {
        let l = if self.0 {
            if letter.is_ascii_uppercase() {
                letter.to_ascii_lowercase()
            } else {
                letter.to_ascii_uppercase()
            }
        } else {
            letter
        };
        Piece::from_letter(l).unwrap()
    }

    fn sq(self, s: &str) -> Square {
        sq(&self.t(s))
    }

    fn step(self, s: &str) -> Step {
        step(&self.t(s))
    }

    /// A turn-start position, `side` and pieces named in this view.
    fn pos(self, side: Color, pieces: &[&str]) -> Position {
        let ps: Vec<String> = pieces.iter().map(|p| self.t(p)).collect();
        let refs: Vec<&str> = ps.iter().map(String::as_str).collect();
        board(self.c(side), &refs)
    }

    /// Whether `spec` (e.g. `"Ed4"`) stands in `pos`.
    fn has(self, pos: &Position, spec: &str) -> bool {
        let spec = self.t(spec);
        let p = Piece::from_letter(spec.chars().next().unwrap()).unwrap();
        pos.piece_at(sq(&spec[1..])) == Some(p)
    }

    /// Whether square `s` is empty in `pos`.
    fn empty(self, pos: &Position, s: &str) -> bool {
        pos.piece_at(self.sq(s)).is_none()
    }

    /// Plays the tokens on a copy of `pos` without ending the turn; panics if illegal.
    fn play(self, pos: &Position, text: &str) -> Position {
        let text = self.t(text);
        play_steps(pos, &text)
            .unwrap_or_else(|e| panic!("{self:?} {text} in {pos:?}: {e}"))
            .1
    }

    /// Plays a whole turn (checked like a game would); panics if illegal.
    fn turn(self, pos: &Position, text: &str) -> Position {
        let text = self.t(text);
        parse_turn(pos, &text)
            .unwrap_or_else(|e| panic!("{self:?} {text} in {pos:?}: {e}"))
            .1
    }

    /// The error of a whole turn that must be illegal.
    fn turn_err(self, pos: &Position, text: &str) -> TurnError {
        let text = self.t(text);
        match parse_turn(pos, &text) {
            Ok((_, after)) => {
                panic!("{self:?} {text} in {pos:?} should be illegal, gave {after:?}")
            }
            Err(e) => e,
        }
    }

    /// The turn read from `text` and written back by `write_turn` (with capture tokens).
    fn rewrite(self, pos: &Position, text: &str) -> String {
        let text = self.t(text);
        let (turn, _) =
            play_steps(pos, &text).unwrap_or_else(|e| panic!("{self:?} {text} in {pos:?}: {e}"));
        write_turn(pos, &turn)
    }

    /// Asserts that the legal steps leaving `from` are exactly `expected`.
    fn expect_steps(self, pos: &Position, from: &str, expected: &[&str]) {
        let mut got = steps_from(pos, self.sq(from));
        got.sort();
        let mut want: Vec<String> = expected.iter().map(|s| self.t(s)).collect();
        want.sort();
        assert_eq!(
            got,
            want,
            "{self:?}: legal steps from {} in {pos:?}",
            self.t(from)
        );
    }

    /// A game from the position, checked not to be over at once.
    fn game(self, side: Color, pieces: &[&str]) -> Game {
        let g = Game::from_position(self.pos(side, pieces), 10);
        assert_eq!(
            g.result(),
            None,
            "{self:?}: the game must not be over at the start"
        );
        g
    }

    /// Plays a turn in a game; panics if illegal.
    fn play_game(self, g: &mut Game, text: &str) {
        let text = self.t(text);
        g.play_text(&text)
            .unwrap_or_else(|e| panic!("{self:?} {text} in {:?}: {e}", g.position()));
    }

    /// The result `winner` (in this view) by `reason`.
    fn won(self, winner: Color, reason: EndReason) -> Option<GameResult> {
        Some(GameResult {
            winner: self.c(winner),
            reason,
        })
    }
}

/// Every legal step of `pos` written like `d4n`.
fn all_steps(pos: &Position) -> Vec<String> {
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The legal steps of `pos` leaving `from`, written like `d4n`.
fn steps_from(pos: &Position, from: Square) -> Vec<String> {
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    list.iter()
        .filter(|s| s.from() == from)
        .map(|s| s.to_string())
        .collect()
}

/// Plays one step that must be legal, returning what it captured.
fn do_step(pos: &mut Position, s: Step) -> Option<(Piece, Square)> {
    assert_eq!(pos.check_step(s), Ok(()), "{s} in {pos:?}");
    pos.play_step_unchecked(s).captured()
}

/// Checks every distinct turn `TurnGen` yields from `pos`: each replays step by step with
/// every step legal, ends with no push half done and a changed board, reaches the position
/// reported, and no two turns reach the same board; the boards are exactly those of the
/// independent reference's brute force. Returns the resulting boards.
fn check_all_turns(pos: &Position) -> HashSet<String> {
    let turns = TurnGen::new().turns(pos);
    assert_eq!(turns.len(), TurnGen::new().count(pos));
    let start = to_aei(pos);
    let mut boards = HashSet::new();
    for (turn, after) in &turns {
        assert!((1..=4).contains(&turn.len()), "{turn:?}");
        let mut q = pos.clone();
        for s in turn.steps() {
            do_step(&mut q, s);
        }
        assert!(
            !matches!(q.pending(), Pending::Push { .. }),
            "turn {turn:?} ends with a push half done: {q:?}"
        );
        assert!(q.can_end_turn(), "turn {turn:?} cannot end: {q:?}");
        q.end_turn();
        assert_eq!(to_aei(&q), to_aei(after), "turn {turn:?}");
        assert_eq!(q.side(), !pos.side());
        assert_eq!(after.side(), !pos.side());
        assert_ne!(
            to_aei(after),
            start,
            "turn {turn:?} leaves the board unchanged"
        );
        assert!(
            boards.insert(to_aei(after)),
            "two turns reach {}",
            to_aei(after)
        );
    }
    let r = RefPos::from_position(pos);
    assert_eq!(
        boards,
        r.turn_boards(&r.cells),
        "against the reference: {pos:?}"
    );
    boards
}

/// The number of distinct turns of the position in `turn_must_change_the_board` (checked
/// against the reference by `check_all_turns`).
const TURN_MUST_CHANGE_TURNS: usize = 1_518;

/// The position used by the worked examples of seeds 000 and 004 (the "second diagram").
/// The diagram in 004 omits the silver rabbit on e6 that both texts name ("the gold horse on
/// d6 ... freezes the silver rabbit on e6"); it is added here, as silver's eighth rabbit.
const SEED: &[&str] = &[
    "rh8", //
    "ra7", "Rb7", "cc7", "df7", "rg7", //
    "Da6", "db6", "Hd6", "re6", //
    "ed5", //
    "rc4", "rf4", //
    "Db3", "rc3", "Ed3", "Re3", "Rg3", //
    "hc2", "rd2", "hf2", //
    "Cc1", "Cd1", "Re1", "Rf1", "Rg1", "Rh1",
];

fn seed(side: Color) -> Position {
    board(side, SEED)
}

const GOLD_SETUP: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
const SILVER_SETUP: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7";

// ---------------------------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------------------------

/// 003 "Play" / 001 "Play": every piece moves one square at a time north, south, east or
/// west, onto an empty square; occupied squares and the board's edges stop it.
#[test]
fn simple_steps_go_four_ways_and_stop_at_pieces_and_edges() {
    for v in VIEWS {
        // An open board: the dog has exactly its four steps, each a real move.
        let p = v.pos(Gold, &["Dd4"]);
        v.expect_steps(&p, "d4", &["d4n", "d4s", "d4e", "d4w"]);
        for (s, to) in [("d4n", "d5"), ("d4s", "d3"), ("d4e", "e4"), ("d4w", "c4")] {
            let q = v.play(&p, &format!("D{s}"));
            assert!(
                v.empty(&q, "d4") && v.has(&q, &format!("D{to}")),
                "{v:?} {s}"
            );
            assert_eq!(q.steps_left(), 3);
            assert_eq!(q.side(), v.c(Gold), "the turn goes on until it is ended");
        }

        // Edges: a corner piece has two steps, an edge piece three.
        let p = v.pos(Gold, &["Dh1"]);
        v.expect_steps(&p, "h1", &["h1n", "h1w"]);
        let p = v.pos(Gold, &["Da4"]);
        v.expect_steps(&p, "a4", &["a4n", "a4s", "a4e"]);
        assert!(matches!(v.turn_err(&p, "Da4w"), TurnError::Parse(_)));

        // Occupied squares block, whoever stands there.
        let p = v.pos(Gold, &["Dd4", "Cd5", "ee4"]);
        v.expect_steps(&p, "d4", &["d4s", "d4w"]);
        assert_eq!(
            p.check_step(v.step("d4n")),
            Err(StepError::Occupied {
                square: v.sq("d5"),
                piece: v.pc('C')
            })
        );
        assert_eq!(
            p.check_step(v.step("d4e")),
            Err(StepError::Occupied {
                square: v.sq("e4"),
                piece: v.pc('e')
            })
        );
        assert_eq!(
            p.check_step(v.step("c4e")),
            Err(StepError::EmptySquare(v.sq("c4")))
        );
    }
    // No step leaves the board, in any corner.
    for (s, dirs) in [
        ("a1", [Direction::South, Direction::West]),
        ("h1", [Direction::South, Direction::East]),
        ("a8", [Direction::North, Direction::West]),
        ("h8", [Direction::North, Direction::East]),
    ] {
        for d in dirs {
            assert_eq!(Step::try_new(sq(s), d), None, "{s} {d:?}");
        }
    }
}

/// 003 "Play": "the rabbits cannot move backward" (gold not south, silver not north), but
/// "although rabbits cannot move backwards on their own, they may be pushed or pulled back".
#[test]
fn rabbits_never_step_backwards_but_can_be_dislodged_backwards() {
    for v in VIEWS {
        // A gold rabbit: forward and sideways only.
        let p = v.pos(Gold, &["Rd4"]);
        v.expect_steps(&p, "d4", &["d4n", "d4e", "d4w"]);
        assert_eq!(p.check_step(v.step("d4s")), Err(StepError::RabbitBackward));
        assert!(matches!(
            v.turn_err(&p, "Rd4s"),
            TurnError::Step {
                index: 1,
                error: StepError::RabbitBackward,
                ..
            }
        ));
        // Not even later in the turn.
        let q = v.play(&p, "Rd4e");
        assert_eq!(q.check_step(v.step("e4s")), Err(StepError::RabbitBackward));

        // A silver rabbit on its own turn: south is its forward.
        let p = v.pos(Silver, &["rd5"]);
        v.expect_steps(&p, "d5", &["d5s", "d5e", "d5w"]);
        assert_eq!(p.check_step(v.step("d5n")), Err(StepError::RabbitBackward));

        // Silver pushes the gold rabbit back (south) ...
        let p = v.pos(Silver, &["Rd4", "ce4"]);
        let q = v.turn(&p, "Rd4s ce4w");
        assert!(v.has(&q, "Rd3") && v.has(&q, "cd4") && v.empty(&q, "e4"));
        // ... or pulls it back.
        let p = v.pos(Silver, &["Rd4", "cd3"]);
        let q = v.turn(&p, "cd3s Rd4s");
        assert!(v.has(&q, "Rd3") && v.has(&q, "cd2") && v.empty(&q, "d4"));
        // Gold pushes and pulls the silver rabbit back (north).
        let p = v.pos(Gold, &["rd4", "Ce4"]);
        let q = v.turn(&p, "rd4n Ce4w");
        assert!(v.has(&q, "rd5") && v.has(&q, "Cd4"));
        let p = v.pos(Gold, &["rd4", "Cd5"]);
        let q = v.turn(&p, "Cd5n rd4n");
        assert!(v.has(&q, "rd5") && v.has(&q, "Cd6"));
    }
}

// ---------------------------------------------------------------------------------------------
// Freezing
// ---------------------------------------------------------------------------------------------

/// 003 "Play": "A piece which is next to an opponent's stronger piece is considered to be
/// frozen and cannot move on its own ... However if there is a friendly piece next to it the
/// piece is unfrozen". 000: pieces of equal strength do not freeze each other.
#[test]
fn freezing_needs_a_stronger_enemy_and_no_friend() {
    for v in VIEWS {
        // Next to a stronger enemy and alone: frozen, no step at all.
        let p = v.pos(Gold, &["Dd4", "md5"]);
        assert!(p.frozen(v.c(Gold)).contains(v.sq("d4")));
        assert!(p.is_frozen(v.sq("d4")));
        assert!(!p.is_frozen(v.sq("d5")));
        v.expect_steps(&p, "d4", &[]);
        assert!(!p.has_legal_step());
        assert_eq!(
            p.check_step(v.step("d4s")),
            Err(StepError::Frozen {
                square: v.sq("d4"),
                piece: v.pc('D')
            })
        );

        // Any friendly neighbour, even a rabbit, unfreezes it.
        let p = v.pos(Gold, &["Dd4", "md5", "Rc4"]);
        assert!(!p.is_frozen(v.sq("d4")));
        v.expect_steps(&p, "d4", &["d4s", "d4e"]);
        // When the friend leaves, the dog is frozen again.
        let q = v.play(&p, "Rc4n");
        assert!(q.is_frozen(v.sq("d4")));
        assert!(matches!(
            q.check_step(v.step("d4s")),
            Err(StepError::Frozen { .. })
        ));
        v.expect_steps(&q, "d4", &[]);

        // Equal strength does not freeze, either way.
        let p = v.pos(Gold, &["Dd4", "dd5"]);
        assert!(p.frozen(v.c(Gold)).is_empty() && p.frozen(v.c(Silver)).is_empty());
        v.expect_steps(&p, "d4", &["d4s", "d4e", "d4w"]);

        // A weaker enemy does not freeze; the weaker piece is the frozen one.
        let p = v.pos(Gold, &["Dd4", "cd5"]);
        assert!(p.frozen(v.c(Gold)).is_empty());
        assert!(p.frozen(v.c(Silver)).contains(v.sq("d5")));

        // Silver to move: its frozen cat cannot step.
        let p = v.pos(Silver, &["He4", "ce5", "Rh2"]);
        assert!(p.is_frozen(v.sq("e5")));
        assert!(matches!(
            p.check_step(v.step("e5n")),
            Err(StepError::Frozen { .. })
        ));
        v.expect_steps(&p, "e5", &[]);
    }
}

/// 000 / 003: "A frozen piece can freeze another still weaker piece just as it would
/// otherwise. The silver elephant on d5 freezes the gold horse on d6, which itself freezes
/// the silver rabbit on e6." Also the other freezing claims of the seed diagram.
#[test]
fn seed_frozen_piece_still_freezes_weaker_pieces() {
    for side in [Gold, Silver] {
        let p = seed(side);
        let gold = p.frozen(Gold);
        let silver = p.frozen(Silver);
        // The chain: e d5 freezes H d6, which freezes r e6.
        assert!(gold.contains(sq("d6")), "the gold horse on d6 is frozen");
        assert!(
            silver.contains(sq("e6")),
            "the frozen horse still freezes the rabbit on e6"
        );
        // "The silver rabbit on a7 is frozen, but the one on d2 is able to move."
        assert!(silver.contains(sq("a7")));
        assert!(!silver.contains(sq("d2")));
        // "The gold rabbit on b7 is frozen, but the gold cat on c1 is not."
        assert!(gold.contains(sq("b7")));
        assert!(!gold.contains(sq("c1")));
        // "The dogs on a6 and b6 do not freeze each other."
        assert!(!gold.contains(sq("a6")) && !silver.contains(sq("b6")));
        // Elephants are never frozen.
        assert!(!gold.contains(sq("d3")) && !silver.contains(sq("d5")));
    }
    let g = seed(Gold);
    assert!(steps_from(&g, sq("d6")).is_empty());
    assert!(steps_from(&g, sq("b7")).is_empty());
    assert!(matches!(
        g.check_step(step("b7n")),
        Err(StepError::Frozen { .. })
    ));
    let s = seed(Silver);
    assert!(steps_from(&s, sq("e6")).is_empty());
    assert!(steps_from(&s, sq("a7")).is_empty());
    assert_eq!(steps_from(&s, sq("d2")), vec!["d2e".to_string()]);
    assert!(matches!(
        s.check_step(step("e6s")),
        Err(StepError::Frozen { .. })
    ));
}

/// 003 "Play": a frozen piece "cannot move on its own; though it can be pushed or pulled by
/// opponent's stronger pieces". And since it cannot move, it cannot push or pull either.
#[test]
fn frozen_pieces_can_be_dislodged_but_cannot_push_or_pull() {
    for v in VIEWS {
        // The silver rabbit a7 is frozen by the gold dog, and the dog pushes or pulls it.
        let p = v.pos(Gold, &["Da6", "ra7", "Rh2"]);
        assert!(p.is_frozen(v.sq("a7")));
        let q = v.turn(&p, "ra7n Da6n");
        assert!(v.has(&q, "ra8") && v.has(&q, "Da7"));
        let q = v.turn(&p, "Da6s ra7s");
        assert!(v.has(&q, "Da5") && v.has(&q, "ra6"));

        // A gold camel frozen by the silver elephant can neither push nor pull the weaker
        // silver rabbit next to it.
        let p = v.pos(Gold, &["Md4", "ee4", "rd5"]);
        assert!(p.is_frozen(v.sq("d4")));
        assert!(!p.has_legal_step());
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
        assert!(matches!(
            p.check_step(v.step("d4s")),
            Err(StepError::Frozen { .. })
        ));
        assert!(matches!(
            v.turn_err(&p, "rd5n Md4n"),
            TurnError::Step { index: 1, .. }
        ));
        assert!(matches!(
            v.turn_err(&p, "Md4s rd5s"),
            TurnError::Step { index: 1, .. }
        ));

        // Unfrozen by a friend, the same camel pushes and pulls.
        let p = v.pos(Gold, &["Md4", "ee4", "rd5", "Rc4"]);
        assert!(!p.is_frozen(v.sq("d4")));
        let q = v.turn(&p, "rd5n Md4n");
        assert!(v.has(&q, "rd6") && v.has(&q, "Md5"));
        let q = v.turn(&p, "Md4s rd5s");
        assert!(v.has(&q, "Md3") && v.has(&q, "rd4"));
    }
}

// ---------------------------------------------------------------------------------------------
// Push and pull
// ---------------------------------------------------------------------------------------------

/// 003 "Play": "To push an opponent's piece with your stronger piece, first move the
/// opponent's piece to one of the empty orthogonally adjacent squares and then move your piece
/// into its place." Strictly stronger, unfrozen, adjacent, and an empty square for the victim.
#[test]
fn push_needs_a_stronger_neighbour_and_an_empty_square() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Hd4", "dd5", "Ra2"]);
        // The dog can be pushed to each of its three empty neighbours.
        v.expect_steps(&p, "d5", &["d5n", "d5e", "d5w"]);
        for (s, to) in [("d5n", "d6"), ("d5e", "e5"), ("d5w", "c5")] {
            let q = v.turn(&p, &format!("d{s} Hd4n"));
            assert!(v.has(&q, &format!("d{to}")) && v.has(&q, "Hd5") && v.empty(&q, "d4"));
        }
        // After the first half only the completion is legal.
        let q = v.play(&p, "dd5n");
        assert_eq!(
            q.pending(),
            Pending::Push {
                square: v.sq("d5"),
                victim: PieceKind::Dog
            }
        );
        assert_eq!(all_steps(&q), vec![v.t("d4n")]);
        assert_eq!(
            q.check_step(v.step("d4s")),
            Err(StepError::PushNotCompleted(v.sq("d5")))
        );
        assert_eq!(
            q.check_step(v.step("a2n")),
            Err(StepError::PushNotCompleted(v.sq("d5")))
        );
        assert!(!q.can_end_turn());

        // No empty square next to the victim: no push.
        let p = v.pos(Gold, &["Hd4", "dd5", "rc5", "re5", "rd6"]);
        v.expect_steps(&p, "d5", &[]);
        assert_eq!(all_steps(&p), {
            let mut w = vec![v.t("d4s"), v.t("d4e"), v.t("d4w")];
            w.sort();
            w
        });
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::Occupied { .. })
        ));

        // Equal strength cannot push; nor can a weaker piece (which is frozen anyway).
        let p = v.pos(Gold, &["Dd4", "dd5", "Ra2"]);
        v.expect_steps(&p, "d5", &[]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
        let p = v.pos(Gold, &["Cd4", "dd5", "Ra2"]);
        v.expect_steps(&p, "d5", &[]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
        // A rabbit can never push.
        let p = v.pos(Gold, &["Rd4", "rd5"]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
        // The pusher must be adjacent to the victim.
        let p = v.pos(Gold, &["Hd3", "dd5", "Ra2"]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
    }
}

/// 003 "Play": "A push or pull requires two consecutive steps and must be completed within
/// the same turn." A turn ending after the first half of a push is rejected, and the turn
/// generator never yields one.
#[test]
fn push_must_be_completed_in_the_same_turn() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Hd4", "dd5", "Ra2", "rh7"]);
        assert_eq!(
            v.turn_err(&p, "dd5n"),
            TurnError::IncompletePush(v.sq("d5"))
        );
        assert_eq!(
            v.turn_err(&p, "Ra2n dd5w"),
            TurnError::IncompletePush(v.sq("d5"))
        );
        assert_eq!(
            v.turn_err(&p, "Ra2n Ra3n dd5e"),
            TurnError::IncompletePush(v.sq("d5"))
        );
        // The first half alone is accepted step by step, but cannot end the turn.
        let q = v.play(&p, "dd5n");
        assert!(!q.can_end_turn());
        // Every generated turn replays to a completed push.
        let boards = check_all_turns(&p);
        let pushed = v.turn(&p, "dd5n Hd4n");
        assert!(boards.contains(&to_aei(&pushed)));
    }
    // The same on the seed position, which has many pushes, for both sides.
    check_all_turns(&seed(Gold));
    check_all_turns(&seed(Silver));
}

/// 003 "Play": the two steps of a push must both be in the turn, so a push cannot start on
/// the fourth (last) step.
#[test]
fn push_cannot_start_on_the_last_step() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Hd4", "dd5", "Ra2"]);
        let q = v.play(&p, "Ra2n Ra3n Ra4n");
        assert_eq!(q.steps_left(), 1);
        assert_eq!(q.check_step(v.step("d5n")), Err(StepError::PushOnLastStep));
        v.expect_steps(&q, "d5", &[]);
        assert!(matches!(
            v.turn_err(&p, "Ra2n Ra3n Ra4n dd5n"),
            TurnError::Step {
                index: 4,
                error: StepError::PushOnLastStep,
                ..
            }
        ));
        // On steps 3 and 4 it is fine.
        let q = v.turn(&p, "Ra2n Ra3n dd5n Hd4n");
        assert!(v.has(&q, "dd6") && v.has(&q, "Hd5") && v.has(&q, "Ra4"));
        // Five steps are never allowed.
        assert!(matches!(
            v.turn_err(&p, "Ra2n Ra3n Ra4n Ra5n Ra6n"),
            TurnError::TooManySteps(_)
        ));
    }
}

/// 003 "Play": "To pull an opponent's piece with your stronger piece, first move your piece
/// to one of the unoccupied adjacent squares and then move the opponent's piece into the
/// square that was just vacated." Strictly stronger; the pull may be the fourth step; it is
/// optional.
#[test]
fn pull_needs_a_stronger_piece_and_may_be_the_last_step() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Hd4", "dd5", "Ra2"]);
        for (s, to) in [("d4s", "d3"), ("d4e", "e4"), ("d4w", "c4")] {
            let q = v.play(&p, &format!("H{s}"));
            assert_eq!(
                q.pending(),
                Pending::Pull {
                    square: v.sq("d4"),
                    puller: PieceKind::Horse
                }
            );
            // The dog can now only be pulled onto d4 (the horse is no longer next to it).
            v.expect_steps(&q, "d5", &["d5s"]);
            let q = v.turn(&p, &format!("H{s} dd5s"));
            assert!(v.has(&q, &format!("H{to}")) && v.has(&q, "dd4") && v.empty(&q, "d5"));
        }
        // The pull is optional.
        let q = v.turn(&p, "Hd4s");
        assert!(v.has(&q, "dd5"));
        // A pull may be the fourth step.
        let q = v.turn(&p, "Ra2n Ra3n Hd4s dd5s");
        assert!(v.has(&q, "dd4") && v.has(&q, "Hd3"));
        // Only onto the vacated square.
        let q = v.play(&p, "Hd4s");
        assert!(matches!(
            q.check_step(v.step("d5e")),
            Err(StepError::NoPusher { .. })
        ));
        // Only right after the puller's step.
        assert!(matches!(
            v.turn_err(&p, "Hd4s Ra2n dd5s"),
            TurnError::Step { index: 3, .. }
        ));

        // Equal strength cannot pull.
        let p = v.pos(Gold, &["Dd4", "dd5"]);
        let q = v.play(&p, "Dd4s");
        assert_eq!(q.pending(), Pending::None);
        assert!(matches!(
            q.check_step(v.step("d5s")),
            Err(StepError::NoPusher { .. })
        ));
        assert!(matches!(
            v.turn_err(&p, "Dd4s dd5s"),
            TurnError::Step { index: 2, .. }
        ));
        // A rabbit cannot pull.
        let p = v.pos(Gold, &["Rd4", "rd3", "Ca1"]);
        let q = v.play(&p, "Rd4e");
        assert!(matches!(
            q.check_step(v.step("d3n")),
            Err(StepError::NoPusher { .. })
        ));
    }
}

/// 003 "Special Situations": "A push or pull is considered atomic ... Thus it is possible for
/// the pulling piece to step into a trap and be removed from the game while completing the
/// pull." 000/004: silver horse f2 -> f3 (captured), gold rabbit f1 pulled to f2.
#[test]
fn pull_completes_after_the_puller_dies_on_a_trap() {
    for v in VIEWS {
        let p = v.pos(Silver, &["hf2", "Rf1", "Ra2", "rh7"]);
        let mut q = p.clone();
        assert_eq!(
            do_step(&mut q, v.step("f2n")),
            Some((v.pc('h'), v.sq("f3")))
        );
        assert!(v.empty(&q, "f3"));
        assert_eq!(
            q.pending(),
            Pending::Pull {
                square: v.sq("f2"),
                puller: PieceKind::Horse
            }
        );
        v.expect_steps(&q, "f1", &["f1n"]);
        let r = v.turn(&p, "hf2n hf3x Rf1n");
        assert!(v.has(&r, "Rf2") && v.empty(&r, "f1") && v.empty(&r, "f3"));
        assert_eq!(r.count(v.c(Silver), PieceKind::Horse), 0);
        assert_eq!(v.rewrite(&p, "hf2n Rf1n"), v.t("hf2n hf3x Rf1n"));
    }

    // The seed version (004): first the rabbit f4 steps aside so f3 is unguarded.
    let p = seed(Silver);
    let q = play_steps(&p, "hf2n").unwrap().1;
    assert_eq!(
        q.piece_at(sq("f3")),
        Piece::from_letter('h'),
        "f4 guards f3"
    );
    let (_, q) = parse_turn(&p, "rf4e hf2n hf3x Rf1n").unwrap();
    assert_eq!(q.piece_at(sq("f2")), Piece::from_letter('R'));
    assert_eq!(q.piece_at(sq("f3")), None);
    assert_eq!(q.piece_at(sq("f1")), None);
    assert_eq!(q.count(Silver, PieceKind::Horse), 1);
}

/// 000 / 001: pulling in the seed diagram. "The silver elephant on d5 could step to d4 (or c5
/// or e5) and pull the gold horse from d6 to d5." "The gold rabbit on g3 could not itself
/// step back to g2, but the silver horse could take a step right and then pull it down."
/// "An adjacent friendly piece does not protect against pulling or pushing: on Silver's turn,
/// their horse on c2 could push the gold cat from c1 to b1, or pull it to c2, even though the
/// gold cat has a friendly piece next to it on d1."
#[test]
fn seed_push_and_pull_examples() {
    let p = seed(Silver);
    for s in ["ed5s", "ed5w", "ed5e"] {
        let (_, q) = parse_turn(&p, &format!("{s} Hd6s")).unwrap();
        assert_eq!(q.piece_at(sq("d5")), Piece::from_letter('H'), "{s}");
    }
    assert_eq!(
        seed(Gold).check_step(step("g3s")),
        Err(StepError::RabbitBackward)
    );
    let (_, q) = parse_turn(&p, "hf2e hg2e Rg3s").unwrap();
    assert_eq!(q.piece_at(sq("g2")), Piece::from_letter('R'));
    assert_eq!(q.piece_at(sq("h2")), Piece::from_letter('h'));

    let (_, q) = parse_turn(&p, "Cc1w hc2s").unwrap();
    assert_eq!(q.piece_at(sq("b1")), Piece::from_letter('C'));
    assert_eq!(q.piece_at(sq("c1")), Piece::from_letter('h'));
    let (_, q) = parse_turn(&p, "hc2w Cc1n").unwrap();
    assert_eq!(q.piece_at(sq("c2")), Piece::from_letter('C'));
    assert_eq!(q.piece_at(sq("b2")), Piece::from_letter('h'));
    assert_eq!(
        q.piece_at(sq("c3")),
        Piece::from_letter('r'),
        "c4 still guards c3"
    );

    // "The gold elephant on d3 could push the silver rabbit on d2 to e2 and then occupy d2.
    // The rabbit on d2 can't be pushed to d1, c2, or d3, because those squares are occupied."
    let g = seed(Gold);
    let (_, q) = parse_turn(&g, "rd2e Ed3s").unwrap();
    assert_eq!(q.piece_at(sq("e2")), Piece::from_letter('r'));
    assert_eq!(q.piece_at(sq("d2")), Piece::from_letter('E'));
    for s in ["d2s", "d2w", "d2n"] {
        assert!(
            matches!(g.check_step(step(s)), Err(StepError::Occupied { .. })),
            "{s}"
        );
    }
}

/// 000 / 001: "An elephant cannot be ... pushed or pulled since there is nothing stronger",
/// and "a dog may dislodge an enemy rabbit or cat, but not a dog": equal strength never
/// dislodges.
#[test]
fn elephants_and_equals_cannot_be_dislodged() {
    for v in VIEWS {
        for side in [Gold, Silver] {
            // The side to move tries to dislodge the other elephant.
            let (mine, theirs) = if side == Gold {
                ("d4", "d5")
            } else {
                ("d5", "d4")
            };
            let dir_away = if side == Gold { "n" } else { "s" };
            let dir_back = if side == Gold { "s" } else { "n" };
            let p = v.pos(side, &["Ed4", "ed5"]);
            assert!(p.frozen(Gold).is_empty() && p.frozen(Silver).is_empty());
            v.expect_steps(&p, theirs, &[]);
            for d in [dir_away, "e", "w"] {
                assert_eq!(
                    p.check_step(v.step(&format!("{theirs}{d}"))),
                    Err(StepError::ElephantDislodged)
                );
            }
            let q = v.play(
                &p,
                &format!("{}{mine}{dir_back}", if side == Gold { 'E' } else { 'e' }),
            );
            assert_eq!(
                q.pending(),
                Pending::None,
                "nothing can be pulled by {side:?}"
            );
            assert_eq!(
                q.check_step(v.step(&format!("{theirs}{dir_back}"))),
                Err(StepError::ElephantDislodged)
            );
        }
        // Equal camels: no push, no pull.
        let p = v.pos(Gold, &["Md4", "md5"]);
        v.expect_steps(&p, "d5", &[]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
        let q = v.play(&p, "Md4s");
        assert!(matches!(
            q.check_step(v.step("d5s")),
            Err(StepError::NoPusher { .. })
        ));
        // Equal rabbits neither.
        let p = v.pos(Gold, &["Rd4", "rd5", "Ca1"]);
        assert!(matches!(
            p.check_step(v.step("d5n")),
            Err(StepError::NoPusher { .. })
        ));
    }
}

/// 003 "Play": "when your stronger piece is completing a push it cannot pull an opponent's
/// weaker piece along with it." 000: "the gold elephant on d3 could not push the silver rabbit
/// from d2 to e2 and at the same time pull the other silver rabbit from c3 to d3."
#[test]
fn no_simultaneous_push_and_pull() {
    for v in VIEWS {
        // Minimal: gold elephant d3, silver rabbits d2 and c3 (c3 guarded by c4).
        let p = v.pos(Gold, &["Ed3", "rd2", "rc3", "rc4", "Ra2"]);
        let q = v.play(&p, "rd2e Ed3s");
        assert_eq!(
            q.pending(),
            Pending::None,
            "completing a push leaves no pull open"
        );
        assert!(matches!(
            q.check_step(v.step("c3e")),
            Err(StepError::NoPusher { .. })
        ));
        v.expect_steps(&q, "c3", &[]);
        assert!(matches!(
            v.turn_err(&p, "rd2e Ed3s rc3e"),
            TurnError::Step { index: 3, .. }
        ));
        // Without the push, the same elephant step does open the pull.
        let p2 = v.pos(Gold, &["Ed3", "rc3", "rc4", "Ra2"]);
        let q2 = v.play(&p2, "Ed3s");
        assert_eq!(
            q2.pending(),
            Pending::Pull {
                square: v.sq("d3"),
                puller: PieceKind::Elephant
            }
        );
        let r2 = v.turn(&p2, "Ed3s rc3e");
        assert!(v.has(&r2, "rd3") && v.has(&r2, "Ed2"));
        // And after the push, the elephant may step again and then pull.
        let r = v.turn(&p, "rd2e Ed3s Ed2w re2w");
        assert!(v.has(&r, "Ec2") && v.has(&r, "rd2"));
    }

    // The seed position itself: after the push the c3 rabbit cannot follow as a pull. There
    // the gold dog b3 could push it, so the step is the start of a push that the turn does
    // not complete.
    let g = seed(Gold);
    let q = play_steps(&g, "rd2e Ed3s").unwrap().1;
    assert_eq!(q.pending(), Pending::None);
    assert_eq!(
        parse_turn(&g, "rd2e Ed3s rc3e").unwrap_err(),
        TurnError::IncompletePush(sq("c3"))
    );
    let q = play_steps(&g, "rd2e Ed3s rc3e").unwrap().1;
    assert_eq!(
        q.pending(),
        Pending::Push {
            square: sq("c3"),
            victim: PieceKind::Rabbit
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Traps
// ---------------------------------------------------------------------------------------------

/// 003 "Play": "Any piece that is on a trap square is immediately removed from the game
/// unless there is a friendly piece next to the trap square"; 000: "a piece may voluntarily
/// step into a trap square, even if it is lost thereby". 002: captures are written `Dc3x`.
#[test]
fn stepping_onto_an_unguarded_trap_captures() {
    for v in VIEWS {
        for trap in ["c3", "f3", "c6", "f6"] {
            let t = sq(trap);
            let below = Square::new(t.file(), t.rank() - 1).to_string();
            let spec = format!("D{below}");
            let p = v.pos(Gold, &[spec.as_str()]);
            let mut q = p.clone();
            let captured = do_step(&mut q, v.step(&format!("{below}n")));
            assert_eq!(captured, Some((v.pc('D'), v.sq(trap))), "{v:?} {trap}");
            assert!(v.empty(&q, trap));
            assert_eq!(q.count(v.c(Gold), PieceKind::Dog), 0);
        }
        let p = v.pos(Gold, &["Dc2", "rb3"]);
        assert_eq!(v.rewrite(&p, "Dc2n"), v.t("Dc2n Dc3x"));
        let q = v.turn(&p, "Dc2n Dc3x");
        assert!(v.empty(&q, "c3") && v.empty(&q, "c2"));
        // The capture token may be left out, but a wrong one is an error.
        assert_eq!(to_aei(&v.turn(&p, "Dc2n")), to_aei(&q));
        assert!(matches!(
            v.turn_err(&p, "Dc2n Rc3x"),
            TurnError::Capture { .. }
        ));
        assert!(matches!(
            v.turn_err(&p, "Dc2e Dc3x"),
            TurnError::Capture { .. }
        ));
        // An enemy neighbour (the silver rabbit b3) does not guard; a friendly one does.
        let p = v.pos(Gold, &["Dc2", "Rb3"]);
        let mut q = p.clone();
        assert_eq!(do_step(&mut q, v.step("c2n")), None);
        assert!(v.has(&q, "Dc3"));
        assert_eq!(v.rewrite(&p, "Dc2n"), v.t("Dc2n"));
        assert!(matches!(
            v.turn_err(&p, "Dc2n Dc3x"),
            TurnError::Capture { .. }
        ));
        // The dog may step off the guarded trap again.
        let q = v.turn(&p, "Dc2n Dc3n");
        assert!(v.has(&q, "Dc4"));
    }
}

/// 001: "Also a piece on a trap square is captured if all adjacent friendly pieces move away"
/// - voluntarily, or by being pushed or pulled away by the enemy.
#[test]
fn guard_leaving_or_dislodged_captures_the_lone_trap_piece() {
    for v in VIEWS {
        // The only guard steps away.
        let p = v.pos(Gold, &["Cc3", "Rd3"]);
        let mut q = p.clone();
        assert_eq!(
            do_step(&mut q, v.step("d3n")),
            Some((v.pc('C'), v.sq("c3")))
        );
        assert_eq!(v.rewrite(&p, "Rd3n"), v.t("Rd3n Cc3x"));
        let q = v.turn(&p, "Rd3n Cc3x");
        assert!(v.empty(&q, "c3") && v.has(&q, "Rd4"));
        assert_eq!(q.count(v.c(Gold), PieceKind::Cat), 0);

        // The only guard is pushed away.
        let p = v.pos(Gold, &["Ed4", "rc4", "rc3"]);
        assert_eq!(v.rewrite(&p, "rc4n Ed4w"), v.t("rc4n rc3x Ed4w"));
        let q = v.turn(&p, "rc4n rc3x Ed4w");
        assert!(v.empty(&q, "c3") && v.has(&q, "rc5") && v.has(&q, "Ec4"));
        assert_eq!(q.count(v.c(Silver), PieceKind::Rabbit), 1);

        // The only guard is pulled away.
        let p = v.pos(Gold, &["Eb4", "rc4", "rc3"]);
        assert_eq!(v.rewrite(&p, "Eb4n rc4w"), v.t("Eb4n rc4w rc3x"));
        let q = v.turn(&p, "Eb4n rc4w rc3x");
        assert!(v.empty(&q, "c3") && v.has(&q, "rb4") && v.has(&q, "Eb5"));
        assert_eq!(q.count(v.c(Silver), PieceKind::Rabbit), 1);
    }
}

/// 002: "When a piece is trapped as a result of a push, the removal is recorded before the
/// step to complete the push. For example: rb3e rc3x Hb2n." Also 000: "The silver elephant
/// could capture the gold horse by pushing it from d6 to c6."
#[test]
fn capture_by_push_is_written_between_the_push_steps() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Hb2", "rb3", "Rh2", "rh7"]);
        let mut q = p.clone();
        assert_eq!(
            do_step(&mut q, v.step("b3e")),
            Some((v.pc('r'), v.sq("c3")))
        );
        assert_eq!(
            q.pending(),
            Pending::Push {
                square: v.sq("b3"),
                victim: PieceKind::Rabbit
            }
        );
        assert_eq!(do_step(&mut q, v.step("b2n")), None);
        assert_eq!(v.rewrite(&p, "rb3e Hb2n"), v.t("rb3e rc3x Hb2n"));
        let r = v.turn(&p, "rb3e rc3x Hb2n");
        assert!(v.empty(&r, "c3") && v.has(&r, "Hb3"));
        assert!(matches!(
            v.turn_err(&p, "rb3e Hb2n rc3x"),
            TurnError::Capture { .. }
        ));
    }
    let p = seed(Silver);
    let turn = parse_turn(&p, "Hd6w ed5n").unwrap().0;
    assert_eq!(write_turn(&p, &turn), "Hd6w Hc6x ed5n");
    let (_, q) = parse_turn(&p, "Hd6w Hc6x ed5n").unwrap();
    assert_eq!(q.count(Gold, PieceKind::Horse), 0);
    assert_eq!(q.piece_at(sq("d6")), Piece::from_letter('e'));
}

/// 000: "The silver rabbit on c3 is still alive because of the silver rabbit on c4 as well
/// as the silver horse on c2 - however, if the silver pieces protecting the c3 trap were to
/// leave their positions ... the silver rabbit on c3 would be lost."
#[test]
fn seed_guarded_trap_piece_survives_until_its_last_guard_leaves() {
    let p = seed(Silver);
    assert!(p.unguarded_on_traps().is_empty());
    let (_, q) = parse_turn(&p, "rc4e").unwrap();
    assert_eq!(
        q.piece_at(sq("c3")),
        Piece::from_letter('r'),
        "the horse c2 still guards"
    );
    let (_, q) = parse_turn(&p, "hc2w").unwrap();
    assert_eq!(
        q.piece_at(sq("c3")),
        Piece::from_letter('r'),
        "the rabbit c4 still guards"
    );
    let turn = parse_turn(&p, "rc4e hc2w").unwrap().0;
    assert_eq!(write_turn(&p, &turn), "rc4e hc2w rc3x");
    let (_, q) = parse_turn(&p, "rc4e hc2w rc3x").unwrap();
    assert_eq!(q.piece_at(sq("c3")), None);
    assert_eq!(q.count(Silver, PieceKind::Rabbit), 7);
    // Gold's pieces next to the trap (b3, d3) never guard a silver piece.
    let (_, q) = parse_turn(&p, "hc2w rc4e").unwrap();
    assert_eq!(q.piece_at(sq("c3")), None);
}

// ---------------------------------------------------------------------------------------------
// Turns
// ---------------------------------------------------------------------------------------------

/// 003 "Play": "A player may pass some of the steps, but may not pass the whole turn or make
/// a move equivalent to passing the whole turn." 001: "A turn must make a net change".
#[test]
fn turn_must_change_the_board() {
    for v in VIEWS {
        let p = v.pos(Gold, &["Dd2", "Ca1", "Hd4", "dd5", "Rh2", "rh7"]);
        assert_eq!(v.turn_err(&p, "Dd2n Dd3s"), TurnError::Unchanged);
        assert!(!v.play(&p, "Dd2n Dd3s").can_end_turn());
        assert_eq!(v.turn_err(&p, "Dd2n Dd3e De3s De2w"), TurnError::Unchanged);
        assert_eq!(v.turn_err(&p, "Dd2n Ca1n Dd3s Ca2s"), TurnError::Unchanged);
        // A pull undone by a push is no change either.
        assert_eq!(v.turn_err(&p, "Hd4w dd5s dd4n Hc4e"), TurnError::Unchanged);
        // An empty turn is no turn.
        assert_eq!(parse_turn(&p, ""), Err(TurnError::NoSteps));
        // Passing through the start board is fine if the turn ends elsewhere.
        let q = v.turn(&p, "Dd2n Dd3s Dd2e");
        assert!(v.has(&q, "De2"));
        // The generator never yields the start board.
        let boards = check_all_turns(&p);
        assert!(!boards.contains(&to_aei(&p)));
        assert_eq!(boards.len(), TURN_MUST_CHANGE_TURNS, "{v:?}");
    }
}

/// 001 / 003 "Special Situations": "If after a turn the same board position and side to move
/// would occur for the third time, then that move is illegal and the player must select a
/// different move."
#[test]
fn third_time_repetition_is_illegal() {
    for v in VIEWS {
        let p0 = v.pos(Gold, &["Dd2", "Ra2", "dd7", "rh7"]);
        let mut g = Game::from_position(p0.clone(), 2);
        assert_eq!(g.times_seen(p0.board_key()), 1);
        let cycle = ["Dd2n", "dd7s", "Dd3s", "dd6n"];
        for t in cycle {
            v.play_game(&mut g, t);
        }
        assert_eq!(g.times_seen(p0.board_key()), 2, "second time is allowed");
        for t in &cycle[..3] {
            v.play_game(&mut g, t);
        }
        assert!(g.would_repeat_third_time(p0.board_key()));
        // Silver's dd6n would make the start position a third time.
        let before = g.position().clone();
        let moves = g.moves().len();
        assert_eq!(g.play_text(&v.t("dd6n")), Err(TurnError::ThirdRepetition));
        assert_eq!(g.position(), &before, "a rejected turn changes nothing");
        assert_eq!(g.moves().len(), moves);
        // A turn reaching the same board by other steps is rejected too.
        assert_eq!(
            g.play_text(&v.t("dd6e de6w dd6n")),
            Err(TurnError::ThirdRepetition)
        );
        // The generator offers that board; the game's legal turns exclude it.
        assert!(TurnGen::new()
            .turns(g.position())
            .iter()
            .any(|(_, q)| q.board_key() == p0.board_key()));
        let legal = g.legal_turns(&mut TurnGen::new());
        assert!(legal.iter().all(|(_, q)| q.board_key() != p0.board_key()));
        let r = RefPos::from_position(g.position());
        let all = r.turn_boards(&r.cells);
        assert!(all.contains(&to_aei(&p0)));
        assert_eq!(legal.len(), all.len() - 1, "all but the third repetition");
        assert_eq!(TurnGen::new().count(g.position()), all.len());
        assert_eq!(g.result(), None);
        // Any other turn is fine.
        v.play_game(&mut g, "dd6s");
        assert_eq!(g.result(), None);
    }
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

/// 003 "Object": "Be the first to get one of your rabbits to the other side of the board":
/// gold wins with a rabbit on rank 8, silver with a rabbit on rank 1.
#[test]
fn rabbit_reaching_its_goal_wins() {
    for v in VIEWS {
        let mut g = v.game(Gold, &["Re7", "Ra2", "rh7"]);
        v.play_game(&mut g, "Re7n");
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));
        assert!(g.position().rabbit_on_goal(v.c(Gold)));
        assert_eq!(g.play_text(&v.t("rh7s")), Err(TurnError::GameOver));
        assert!(g.legal_turns(&mut TurnGen::new()).is_empty());

        // Reaching goal on the first step and moving on with other pieces still wins.
        let mut g = v.game(Gold, &["Re7", "Ra2", "rh7"]);
        v.play_game(&mut g, "Re7n Ra2n Ra3n");
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));

        // Silver's rabbit reaching rank 1.
        let mut g = v.game(Silver, &["rd2", "Ra2", "rh7"]);
        v.play_game(&mut g, "rd2s");
        assert_eq!(g.result(), v.won(Silver, EndReason::Goal));

        // A rabbit one step short does not win.
        let mut g = v.game(Gold, &["Re6", "Ra2", "rh7"]);
        v.play_game(&mut g, "Re6n");
        assert_eq!(g.result(), None);
    }
}

/// 003 "Special Situations": "if the opponent's rabbit is moved back out of the goal row
/// before the end of the turn, the player does not lose."
#[test]
fn rabbit_pushed_onto_goal_and_off_again_does_not_end_the_game() {
    for v in VIEWS {
        let pieces = ["Ed3", "rd2", "Ra2", "rh7"];
        let mid = v.play(&v.pos(Gold, &pieces), "rd2s Ed3s");
        assert!(
            mid.rabbit_on_goal(v.c(Silver)),
            "mid-turn the silver rabbit is on d1"
        );
        let mut g = v.game(Gold, &pieces);
        v.play_game(&mut g, "rd2s Ed3s Ed2e rd1n");
        assert_eq!(g.result(), None);
        assert!(!g.position().rabbit_on_goal(v.c(Silver)));
        assert!(v.has(g.position(), "rd2") && v.has(g.position(), "Ee2"));
    }
}

/// 003 "Special Situations": "A player may push or pull the opponent's rabbit into the goal
/// row it is trying to reach. If at the end of the turn the rabbit remains there, the player
/// loses."
#[test]
fn rabbit_left_on_opponents_goal_makes_the_opponent_win() {
    for v in VIEWS {
        let mut g = v.game(Gold, &["Ed3", "rd2", "Ra2", "rh7"]);
        v.play_game(&mut g, "rd2s Ed3s");
        assert_eq!(
            g.result(),
            v.won(Silver, EndReason::Goal),
            "the mover loses"
        );
        // By a pull as well.
        let mut g = v.game(Gold, &["Md1", "rd2", "Ra2", "rh7"]);
        v.play_game(&mut g, "Md1e rd2s");
        assert_eq!(g.result(), v.won(Silver, EndReason::Goal));
    }
}

/// 003 "Notes": the goal of the player who moved (A) is checked before the goal of the
/// player to move (B): with rabbits of both sides on goal at the end of a turn, the mover
/// wins.
#[test]
fn both_rabbits_on_goal_the_mover_wins() {
    for v in VIEWS {
        for order in ["rd2s Ed3s Re7n", "Re7n rd2s Ed3s"] {
            let mut g = v.game(Gold, &["Ed3", "rd2", "Re7", "rh7"]);
            v.play_game(&mut g, order);
            assert!(g.position().rabbit_on_goal(Gold) && g.position().rabbit_on_goal(Silver));
            assert_eq!(g.result(), v.won(Gold, EndReason::Goal), "{v:?} {order}");
        }
    }
}

/// 003 "Special Situations": "If a player loses all the rabbits then that player loses the
/// game." 000: "A player can win by capturing the last remaining enemy rabbit".
#[test]
fn capturing_the_last_enemy_rabbit_wins() {
    for v in VIEWS {
        let mut g = v.game(Gold, &["Hb2", "rb3", "Rh2", "ch6"]);
        v.play_game(&mut g, "rb3e rc3x Hb2n");
        assert_eq!(g.position().count(v.c(Silver), PieceKind::Rabbit), 0);
        assert_eq!(g.result(), v.won(Gold, EndReason::Elimination));
        // Losing one's own last rabbit loses.
        let mut g = v.game(Gold, &["Rf2", "Hb2", "rh7"]);
        v.play_game(&mut g, "Rf2n Rf3x");
        assert_eq!(g.result(), v.won(Silver, EndReason::Elimination));
        // Capturing a rabbit that is not the last one does not end the game.
        let mut g = v.game(Gold, &["Hb2", "rb3", "Rh2", "rh7"]);
        v.play_game(&mut g, "rb3e rc3x Hb2n");
        assert_eq!(g.result(), None);
    }
}

/// 003 "Special Situations": "If in the rare case both players lose all rabbits on the same
/// move then the player making the move wins the game." (003 Notes: B's rabbits are checked
/// before A's.)
#[test]
fn both_sides_lose_their_last_rabbit_the_mover_wins() {
    for v in VIEWS {
        for order in ["rb3e rc3x Hb2n Rf2n", "Rf2n Rf3x rb3e Hb2n"] {
            let mut g = v.game(Gold, &["Hb2", "rb3", "Rf2", "ch6"]);
            v.play_game(&mut g, order);
            assert_eq!(g.position().count(Gold, PieceKind::Rabbit), 0);
            assert_eq!(g.position().count(Silver, PieceKind::Rabbit), 0);
            assert_eq!(
                g.result(),
                v.won(Gold, EndReason::Elimination),
                "{v:?} {order}"
            );
        }
    }
}

/// 003 "Special Situations": "If a player is unable to make a move because all the pieces are
/// frozen or have no place to move, then that player has lost the game."
#[test]
fn side_to_move_without_a_legal_step_loses() {
    for v in VIEWS {
        // Blocked: the gold rabbit a7 cannot go north (a8), east (b7) or back.
        let p = v.pos(Gold, &["Ra7", "ra8", "rb7"]);
        assert!(!p.has_legal_step());
        assert_eq!(TurnGen::new().count(&p), 0);
        let g = Game::from_position(p, 10);
        assert_eq!(g.result(), v.won(Silver, EndReason::Immobilization));

        // Frozen, after silver's turn: the silver dog arrives next to the lone gold rabbit.
        let mut g = v.game(Silver, &["Rd4", "dd6", "rh7"]);
        v.play_game(&mut g, "dd6s");
        assert!(!g.position().has_legal_step());
        assert_eq!(g.result(), v.won(Silver, EndReason::Immobilization));

        // One legal step is enough to play on.
        let mut g = v.game(Silver, &["Rd4", "dd6", "rh7"]);
        v.play_game(&mut g, "dd6e");
        assert_eq!(g.result(), None);
    }
}

/// 003 "Special Situations" and "Notes": "If in the rare case the only moves a player has are
/// not allowed [third repetitions] then the player loses"; last check: "Check if the only
/// moves player B has are 3rd time repetitions. If so player A wins."
///
/// Gold's only piece is a rabbit shut in on a2/b2 by silver rabbits a3, b3 and c2 (equal, so
/// no freezing): from a2 its only turn is to b2 and back. Silver shuttles its cat h8/g8.
#[test]
fn only_third_repetitions_left_loses_by_repetition() {
    for v in VIEWS {
        let pieces = ["Rb2", "ra3", "rb3", "rc2", "ch8"];
        let mut g = Game::from_position(v.pos(Silver, &pieces), 10);
        assert_eq!(g.result(), None);
        let plan = ["ch8w", "Rb2w", "cg8e", "Ra2e", "ch8w", "Rb2w"];
        for t in plan {
            v.play_game(&mut g, t);
            assert_eq!(g.result(), None, "{v:?} after {t}");
            if g.side_to_move() == v.c(Gold) {
                assert_eq!(
                    TurnGen::new().count(g.position()),
                    1,
                    "gold has a single turn"
                );
            }
        }
        v.play_game(&mut g, "cg8e");
        // Gold (rabbit a2, cat h8) has one turn, Ra2e, whose position (silver to move) has
        // stood twice already: at the start and after move 4.
        assert!(g.position().has_legal_step());
        assert_eq!(TurnGen::new().count(g.position()), 1);
        assert_eq!(g.result(), v.won(Silver, EndReason::Repetition));
        assert!(g.legal_turns(&mut TurnGen::new()).is_empty());
        assert_eq!(g.play_text(&v.t("Ra2e")), Err(TurnError::GameOver));
    }
}

/// 003 "Notes", the order of the checks: A's goal, B's goal, B lost all rabbits, A lost all
/// rabbits, B has no move, B has only third repetitions. Positions where two conditions hold
/// at once.
#[test]
fn end_checks_follow_the_official_order() {
    for v in VIEWS {
        // A game loaded at a position checks as if the other side (A) had just moved: with
        // rabbits of both sides on goal, that side wins.
        let g = Game::from_position(v.pos(Gold, &["Ra8", "ra1"]), 10);
        assert_eq!(g.result(), v.won(Silver, EndReason::Goal));
        let g = Game::from_position(v.pos(Silver, &["Ra8", "ra1"]), 10);
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));

        // A's goal before B's goal (different winners): see both_rabbits_on_goal_the_mover_wins.
        let mut g = v.game(Gold, &["Ed3", "rd2", "Re7", "rh7"]);
        v.play_game(&mut g, "rd2s Ed3s Re7n");
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));

        // A's goal before B's elimination: gold reaches goal and takes the last silver rabbit.
        let mut g = v.game(Gold, &["Re7", "Hb2", "rb3", "ch6"]);
        v.play_game(&mut g, "rb3e rc3x Hb2n Re7n");
        assert_eq!(g.position().count(v.c(Silver), PieceKind::Rabbit), 0);
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));

        // B's goal before A's elimination: gold pushes the silver rabbit onto d1 and loses its
        // own last rabbit in a trap.
        let mut g = v.game(Gold, &["Ed3", "rd2", "Rf2", "rh7"]);
        v.play_game(&mut g, "rd2s Ed3s Rf2n Rf3x");
        assert_eq!(g.position().count(v.c(Gold), PieceKind::Rabbit), 0);
        assert_eq!(g.result(), v.won(Silver, EndReason::Goal));

        // B's goal before B's immobilisation (different winners): the silver rabbit pushed
        // onto d1 is frozen there by the elephant, and silver has nothing else.
        let mut g = v.game(Gold, &["Ed3", "rd2", "Ra2"]);
        v.play_game(&mut g, "rd2s Ed3s");
        assert!(!g.position().has_legal_step());
        assert_eq!(g.result(), v.won(Silver, EndReason::Goal));

        // A's goal before B's immobilisation: the gold rabbit reaches g8 and the silver rabbit
        // h8 stays frozen by the dog h7.
        let mut g = v.game(Gold, &["Rg7", "Dh7", "rh8"]);
        v.play_game(&mut g, "Rg7n");
        assert!(!g.position().has_legal_step());
        assert_eq!(g.result(), v.won(Gold, EndReason::Goal));

        // B's elimination before A's elimination: see both_sides_lose_their_last_rabbit.
        let mut g = v.game(Gold, &["Hb2", "rb3", "Rf2", "ch6"]);
        v.play_game(&mut g, "rb3e rc3x Hb2n Rf2n");
        assert_eq!(g.result(), v.won(Gold, EndReason::Elimination));

        // A's elimination before B's immobilisation (different winners): gold's last rabbit
        // dies in f3 while silver's only piece, the rabbit h8, is frozen by the dog h7.
        let mut g = v.game(Gold, &["Rf2", "Dh7", "rh8"]);
        v.play_game(&mut g, "Rf2n Rf3x");
        assert!(!g.position().has_legal_step());
        assert_eq!(g.result(), v.won(Silver, EndReason::Elimination));

        // B's elimination before B's immobilisation (same winner, the reason tells): silver's
        // last rabbit is captured and its remaining cat is frozen by the horse.
        let mut g = v.game(Gold, &["Hb2", "rb3", "Ra2", "cb4", "Db5"]);
        v.play_game(&mut g, "rb3e rc3x Hb2n");
        assert!(!g.position().has_legal_step());
        assert_eq!(g.result(), v.won(Gold, EndReason::Elimination));
    }
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// 003 "Setup" / 002: each side places all 16 of its pieces (1 elephant, 1 camel, 2 horses,
/// 2 dogs, 2 cats, 8 rabbits) on its own two home ranks, one per square, in any arrangement.
#[test]
fn setup_places_sixteen_own_pieces_on_the_home_ranks() {
    let s = parse_setup(Gold, GOLD_SETUP).unwrap();
    assert_eq!(s.placements().len(), 16);
    assert_eq!(
        parse_setup(Silver, SILVER_SETUP)
            .unwrap()
            .placements()
            .len(),
        16
    );
    // Any order and arrangement is fine.
    let shuffled: Vec<&str> = GOLD_SETUP.split_whitespace().rev().collect();
    let by_square = |setup: &tusk_engine::Setup| {
        let mut v: Vec<(usize, Piece)> = setup
            .placements()
            .iter()
            .map(|p| (p.square.index(), p.piece))
            .collect();
        v.sort_by_key(|&(i, _)| i);
        v
    };
    assert_eq!(
        by_square(&parse_setup(Gold, &shuffled.join(" ")).unwrap()),
        by_square(&s)
    );
    // Rabbits in front, the elephant in a corner: unusual, but legal.
    let odd = "Ea1 Mb1 Hc1 Hd1 De1 Df1 Cg1 Ch1 Ra2 Rb2 Rc2 Rd2 Re2 Rf2 Rg2 Rh2";
    assert_eq!(parse_setup(Gold, odd).unwrap().placements().len(), 16);

    let err = |side, text: &str| match parse_setup(side, text) {
        Err(TurnError::Setup(e)) => e,
        other => panic!("{text}: expected a setup error, got {other:?}"),
    };
    // Outside the home ranks.
    assert!(matches!(
        err(Gold, &GOLD_SETUP.replace("Ra1", "Ra3")),
        SetupError::OutsideHomeRanks { .. }
    ));
    assert!(matches!(
        err(Gold, &GOLD_SETUP.replace("Ra1", "Ra8")),
        SetupError::OutsideHomeRanks { .. }
    ));
    assert!(matches!(
        err(Silver, &SILVER_SETUP.replace("ra8", "ra6")),
        SetupError::OutsideHomeRanks { .. }
    ));
    assert!(matches!(
        err(Silver, &SILVER_SETUP.replace("ra8", "ra1")),
        SetupError::OutsideHomeRanks { .. }
    ));
    // The other side's pieces.
    assert!(matches!(
        err(Gold, &GOLD_SETUP.replace("Ra1", "ra1")),
        SetupError::WrongColor { .. }
    ));
    assert!(matches!(
        err(Silver, GOLD_SETUP),
        SetupError::WrongColor { .. }
    ));
    assert!(matches!(
        err(Gold, SILVER_SETUP),
        SetupError::WrongColor { .. }
    ));
    // Too many of a kind.
    assert_eq!(
        err(Gold, &GOLD_SETUP.replace("Ha2", "Ra2")),
        SetupError::TooMany {
            token: "Ra2".into(),
            kind: PieceKind::Rabbit,
            max: 8
        }
    );
    assert!(matches!(
        err(Silver, &SILVER_SETUP.replace("ed7", "md7")),
        SetupError::TooMany {
            kind: PieceKind::Camel,
            max: 1,
            ..
        }
    ));
    // Missing pieces.
    assert_eq!(
        err(Gold, &GOLD_SETUP.replace(" Hh2", "")),
        SetupError::Missing {
            kind: PieceKind::Horse,
            placed: 1,
            max: 2
        }
    );
    assert!(matches!(
        err(Silver, &SILVER_SETUP.replace("ed7 ", "")),
        SetupError::Missing {
            kind: PieceKind::Elephant,
            placed: 0,
            ..
        }
    ));
    // Two pieces on one square.
    assert_eq!(
        err(Gold, &GOLD_SETUP.replace("Hh2", "Hh1")),
        SetupError::SquareTaken {
            token: "Hh1".into(),
            square: sq("h1")
        }
    );
    // Not a setup at all.
    assert!(matches!(parse_setup(Gold, ""), Err(TurnError::Parse(_))));
    assert!(matches!(
        parse_setup(Gold, "Ra1n"),
        Err(TurnError::WrongPhase { .. })
    ));
}

/// 003 "Setup" and "Play": gold sets up first, then silver, then gold makes the first turn
/// (move 2g in the notation of 002), and turns alternate.
#[test]
fn game_starts_with_gold_setup_then_silver_setup_then_gold_turn() {
    let mut g = Game::new();
    assert!(g.in_setup());
    assert_eq!(g.side_to_move(), Gold);
    assert_eq!(g.move_label(), "1g");
    assert!(g.legal_turns(&mut TurnGen::new()).is_empty());
    // Not silver's setup, and not a turn of steps.
    assert!(matches!(
        g.play_text(SILVER_SETUP),
        Err(TurnError::Setup(SetupError::WrongColor { .. }))
    ));
    assert!(matches!(
        g.play_text("Ee2n"),
        Err(TurnError::WrongPhase { .. })
    ));
    assert_eq!(
        g.play_text(&GOLD_SETUP.replace(" Hh2", "")),
        Err(TurnError::Setup(SetupError::Missing {
            kind: PieceKind::Horse,
            placed: 1,
            max: 2
        }))
    );
    assert_eq!(g.moves().len(), 0);

    g.play_text(GOLD_SETUP).unwrap();
    assert!(g.in_setup());
    assert_eq!(g.side_to_move(), Silver);
    assert_eq!(g.move_label(), "1s");
    assert_eq!(g.position().count(Gold, PieceKind::Rabbit), 8);
    // Silver cannot place on gold's squares or ranks, nor set up gold's pieces again.
    assert!(matches!(
        g.play_text(GOLD_SETUP),
        Err(TurnError::Setup(SetupError::WrongColor { .. }))
    ));
    assert!(matches!(
        g.play_text(&SILVER_SETUP.replace("ra8", "ra3")),
        Err(TurnError::Setup(SetupError::OutsideHomeRanks { .. }))
    ));

    g.play_text(SILVER_SETUP).unwrap();
    assert!(!g.in_setup());
    assert_eq!(g.side_to_move(), Gold);
    assert_eq!(g.move_label(), "2g");
    assert_eq!(g.result(), None);
    for c in [Gold, Silver] {
        for k in PieceKind::ALL {
            assert_eq!(g.position().count(c, k), k.initial_count(), "{c:?} {k:?}");
        }
    }
    // Gold's first turn: every distinct turn the reference finds, no more.
    let r = RefPos::from_position(g.position());
    assert_eq!(
        g.legal_turns(&mut TurnGen::new()).len(),
        r.turn_boards(&r.cells).len()
    );
    // A setup is no turn.
    assert!(matches!(
        g.play_text(GOLD_SETUP),
        Err(TurnError::WrongPhase { .. })
    ));
    // Silver cannot move first: its elephant is an enemy piece to gold, and nothing pushes it.
    assert!(matches!(
        g.play_text("ed7s"),
        Err(TurnError::Step { index: 1, .. })
    ));
    g.play_text("Ee2n Ee3n Md2n Md3n").unwrap();
    assert_eq!(g.move_label(), "2s");
    g.play_text("ed7s ed6s").unwrap();
    assert_eq!(g.move_label(), "3g");
    let record = g.record();
    assert!(record.starts_with("1g Ra1 "), "{record}");
    assert!(record.contains("\n1s ra8 "), "{record}");
    assert!(record.contains("\n2g Ee2n Ee3n Md2n Md3n\n"), "{record}");
    assert!(record.contains("\n2s ed7s ed6s\n"), "{record}");
}

// ---------------------------------------------------------------------------------------------
// The seed's win in three steps
// ---------------------------------------------------------------------------------------------

/// 000 / 004: "if it were Gold's turn to move, Gold could win in three steps: The dog on a6
/// can push the enemy rabbit from a7 to a8. Now on a7, the gold dog unfreezes its own rabbit
/// on b7, which can then step to b8 for the victory."
#[test]
fn seed_gold_wins_in_three_steps() {
    let p = seed(Gold);
    // The rabbit b7 is frozen to begin with.
    assert!(matches!(
        parse_turn(&p, "Rb7n"),
        Err(TurnError::Step {
            index: 1,
            error: StepError::Frozen { .. },
            ..
        })
    ));
    assert_eq!(
        parse_turn(&p, "ra7n").unwrap_err(),
        TurnError::IncompletePush(sq("a7"))
    );
    let mid = play_steps(&p, "ra7n Da6n").unwrap().1;
    assert!(
        !mid.is_frozen(sq("b7")),
        "the dog on a7 unfreezes the rabbit"
    );
    assert_eq!(steps_from(&mid, sq("b7")), vec!["b7n".to_string()]);

    let mut g = Game::from_position(p, 20);
    assert_eq!(g.result(), None);
    g.play_text("ra7n Da6n Rb7n").unwrap();
    assert_eq!(
        g.result(),
        Some(GameResult {
            winner: Gold,
            reason: EndReason::Goal
        })
    );
    assert_eq!(g.position().piece_at(sq("b8")), Piece::from_letter('R'));
    assert_eq!(g.position().piece_at(sq("a8")), Piece::from_letter('r'));
    assert_eq!(g.move_text(0).as_deref(), Some("ra7n Da6n Rb7n"));
}

// ---------------------------------------------------------------------------------------------
// Cross-checks against the independent step-rule reference (`tusk_tests::reference`), written
// straight from 003, on many random positions.
// ---------------------------------------------------------------------------------------------

fn sorted_pairs(list: &StepList) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = list
        .iter()
        .map(|s| (s.from().index(), s.to().index()))
        .collect();
    v.sort();
    v
}

/// 003 "Play" as a whole: on random games, after every step, the engine's legal steps,
/// frozen pieces, captures and "may the turn end here" agree with a reference written
/// directly from the rules text.
#[test]
fn step_rules_agree_with_an_independent_reference_on_random_games() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0x7e57_a41a);
    let mut steps_checked = 0usize;
    for game in 0..60 {
        let mut pos = random_board(&mut rng, game % 3 == 0);
        let mut r = RefPos::from_position(&pos);
        'turns: for _turn in 0..80 {
            let start_pos = pos.clone();
            let start_ref = r.clone();
            let mut ended = false;
            for _attempt in 0..20 {
                pos = start_pos.clone();
                r = start_ref.clone();
                loop {
                    let mut list = StepList::new();
                    pos.legal_steps(&mut list);
                    let mut want = r.legal();
                    want.sort();
                    want.dedup();
                    assert_eq!(
                        sorted_pairs(&list),
                        want,
                        "legal steps in {pos:?} ({:?})",
                        r.last
                    );
                    for i in 0..64 {
                        assert_eq!(
                            pos.is_frozen(Square::from_index(i as u8)),
                            r.frozen(i),
                            "frozen {} in {pos:?}",
                            Square::from_index(i as u8)
                        );
                    }
                    let can_end = r.can_end(&start_ref.cells);
                    assert_eq!(pos.can_end_turn(), can_end, "can_end_turn in {pos:?}");
                    if can_end && (list.is_empty() || rng.gen_bool(0.3)) {
                        pos.end_turn();
                        r = r.end_turn();
                        ended = true;
                        break;
                    }
                    if list.is_empty() {
                        break;
                    }
                    let s = list[rng.gen_range(0..list.len())];
                    assert_eq!(pos.check_step(s), Ok(()));
                    pos.play_step_unchecked(s);
                    r = r.apply(s.from().index(), s.to().index());
                    steps_checked += 1;
                    assert_eq!(to_aei(&pos), r.aei(), "after {s}");
                    assert!(pos.is_consistent());
                }
                if ended {
                    break;
                }
            }
            if !ended {
                break 'turns;
            }
        }
    }
    assert!(steps_checked > 5_000, "only {steps_checked} steps checked");
}

/// 003 "Play": a turn is one to four steps, any push completed, changing the board. The
/// engine's distinct turns (by resulting board) equal a brute-force enumeration of step
/// sequences under the reference rules, on random positions.
#[test]
fn distinct_turns_agree_with_brute_force_enumeration() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0x5eed_0001);
    let mut positions = vec![seed(Gold), seed(Silver)];
    for i in 0..120 {
        positions.push(random_board(&mut rng, i % 4 != 0));
    }
    for pos in &positions {
        let r = RefPos::from_position(pos);
        let want = r.turn_boards(&r.cells);
        let got: HashSet<String> = TurnGen::new()
            .turns(pos)
            .iter()
            .map(|(_, q)| to_aei(q))
            .collect();
        assert_eq!(TurnGen::new().count(pos), want.len(), "{pos:?}");
        assert_eq!(got, want, "{pos:?}");
    }
}
