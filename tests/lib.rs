//! Shared support for Tusk's tests and benchmarks: fixture loading, seeded random games and
//! boards, and (in [`mod@reference`]) an independent
//! reference of the step rules.

pub mod reference;

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tusk_engine::notation::board::{from_pieces, parse_aei};
use tusk_engine::setup::random_setup;
use tusk_engine::{
    turn_boundary_result, Color, EndReason, Game, Move, Piece, Position, Setup, Square, StepList,
    Turn, TurnGen,
};

/// The path of a file under `tests/data/` (or under `$TUSK_TEST_DATA` when set, to check
/// freshly generated fixtures before they replace the committed ones).
pub fn data_path(name: &str) -> PathBuf {
    std::env::var_os("TUSK_TEST_DATA")
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"),
            PathBuf::from,
        )
        .join(name)
}

/// The lines of a data file with their 1-based line numbers, comments (`#`) and blank lines
/// removed. Panics (failing the test) when the file cannot be read.
pub fn data_lines_numbered(name: &str) -> Vec<(usize, String)> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// The lines of a data file, comments (`#`) and blank lines removed. Panics (failing the
/// test) when the file cannot be read.
pub fn data_lines(name: &str) -> Vec<String> {
    data_lines_numbered(name)
        .into_iter()
        .map(|(_, l)| l)
        .collect()
}

/// The number of positions in `turn_counts.txt`.
pub const TURN_COUNT_POSITIONS: usize = 3_183;

/// One line of `turn_counts.txt`: a position and pyrimaa's counts for it.
pub struct TurnCount {
    /// The line as written (for messages).
    pub line: String,
    /// The position.
    pub position: Position,
    /// `len(get_moves())`: distinct legal turns.
    pub turns: usize,
    /// `len(get_steps())`: legal first steps.
    pub first_steps: usize,
}

/// Reads `turn_counts.txt` (`<g|s> [<64 cells>] <turns> <first steps>` per line). The one
/// reader of that file for tests, eval tests and benchmarks. Panics, naming the line, on a
/// missing file or a malformed line.
pub fn turn_counts() -> Vec<TurnCount> {
    data_lines_numbered("turn_counts.txt")
        .into_iter()
        .map(|(n, line)| {
            let close = line
                .find(']')
                .unwrap_or_else(|| panic!("turn_counts.txt line {n}: no board in brackets"));
            let position = parse_aei(&line[..=close])
                .unwrap_or_else(|e| panic!("turn_counts.txt line {n}: bad board: {e}"));
            let nums: Vec<usize> = line[close + 1..]
                .split_whitespace()
                .map(|w| {
                    w.parse()
                        .unwrap_or_else(|e| panic!("turn_counts.txt line {n}: count {w:?}: {e}"))
                })
                .collect();
            let [turns, first_steps] = nums[..] else {
                panic!("turn_counts.txt line {n}: expected two counts, got {nums:?}");
            };
            TurnCount {
                position,
                turns,
                first_steps,
                line,
            }
        })
        .collect()
}

/// The positions of `turn_counts.txt`, in file order.
pub fn fixture_positions() -> Vec<Position> {
    turn_counts().into_iter().map(|t| t.position).collect()
}

/// A game after both setups.
pub fn game_from_setups(gold: Setup, silver: Setup) -> Game {
    let mut game = Game::new();
    for s in [gold, silver] {
        game.play(&Move::Setup(s)).expect("legal setups");
    }
    game
}

/// A game after two random setups drawn from `rng`.
pub fn random_setup_game(rng: &mut SmallRng) -> Game {
    let gold = random_setup(Color::Gold, rng);
    let silver = random_setup(Color::Silver, rng);
    game_from_setups(gold, silver)
}

/// Plays one random legal turn in `game`: a random walk of one to four legal steps that may
/// end the turn (third repetitions refused by the game); after twenty failed walks, a turn
/// drawn uniformly from [`Game::legal_turns`]. Returns false, leaving the game unchanged,
/// when the game is over or has no legal turn. The one random-turn generator of tests and
/// benchmarks.
pub fn play_random_turn(game: &mut Game, rng: &mut SmallRng) -> bool {
    if game.result().is_some() || game.in_setup() {
        return false;
    }
    let mut list = StepList::new();
    for _attempt in 0..20 {
        let mut p = game.position().clone();
        let want = rng.gen_range(1..=4usize);
        let mut steps = Vec::with_capacity(4);
        while p.steps_left() > 0 {
            p.legal_steps(&mut list);
            let Some(&s) = list.choose(rng) else {
                break;
            };
            p.play_step_unchecked(s);
            steps.push(s);
            if steps.len() >= want && p.can_end_turn() {
                break;
            }
        }
        if !p.can_end_turn() {
            continue;
        }
        let turn = Turn::from_steps(&steps).expect("at most four steps");
        if game.play(&Move::Turn(turn)).is_ok() {
            return true;
        }
    }
    let options = game.legal_turns(&mut TurnGen::new());
    let Some((turn, _)) = options.choose(rng) else {
        return false;
    };
    game.play(&Move::Turn(*turn))
        .expect("generated turns are legal");
    true
}

/// Plays up to `turns` random turns (fewer if the game ends); returns every turn-start
/// position reached, the current one first.
pub fn play_random_turns(game: &mut Game, rng: &mut SmallRng, turns: usize) -> Vec<Position> {
    let mut out = vec![game.position().clone()];
    for _ in 0..turns {
        if !play_random_turn(game, rng) {
            break;
        }
        out.push(game.position().clone());
    }
    out
}

/// A seeded random game: random setups, then `turns` random turns (fewer if the game
/// ends). Returns every turn-start position, the start first.
pub fn random_game(seed: u64, turns: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = random_setup_game(&mut rng);
    play_random_turns(&mut game, &mut rng, turns)
}

/// Whether some turn of the side to move ends the game at once with its win for `reason`
/// (goal, elimination, immobilisation), by brute force over every turn: the reference the
/// end-of-game detectors are tested against.
pub fn some_turn_wins_by(pos: &Position, reason: EndReason) -> bool {
    let us = pos.side();
    let mut found = false;
    TurnGen::new().for_each_turn(pos, &mut |t| {
        found |=
            turn_boundary_result(t.position).is_some_and(|r| r.winner == us && r.reason == reason);
    });
    found
}

/// A random walk of `steps` single steps from `pos` (ending turns at random where legal),
/// calling `check` on every position reached.
pub fn random_walk(pos: &Position, seed: u64, steps: usize, mut check: impl FnMut(&Position)) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut p = pos.clone();
    let mut list = StepList::new();
    for _ in 0..steps {
        p.legal_steps(&mut list);
        let end = p.can_end_turn() && (list.is_empty() || rng.gen_bool(0.3));
        if end {
            p.end_turn();
        } else if let Some(&s) = list.choose(&mut rng) {
            p.play_step_unchecked(s);
        } else {
            break;
        }
        check(&p);
    }
}

/// A random turn-start board: either two random full armies on their home ranks
/// (`sparse == false`) or 2 to 11 random pieces scattered off the traps, within each side's
/// piece counts. The side to move is random. The game may already be decided.
pub fn random_board(rng: &mut SmallRng, sparse: bool) -> Position {
    let mut pieces: Vec<(Piece, Square)> = Vec::new();
    if sparse {
        let mut squares: Vec<Square> = Square::all().collect();
        squares.shuffle(rng);
        let n = rng.gen_range(2..12);
        for s in squares {
            if pieces.len() == n {
                break;
            }
            if s.is_trap() {
                continue;
            }
            let letter = "RCDHMErcdhme".as_bytes()[rng.gen_range(0..12)] as char;
            let piece = Piece::from_letter(letter).expect("a piece letter");
            let have = pieces.iter().filter(|(p, _)| *p == piece).count();
            if have < piece.kind().initial_count() as usize {
                pieces.push((piece, s));
            }
        }
    } else {
        for c in Color::ALL {
            for pl in random_setup(c, rng).placements() {
                pieces.push((pl.piece, pl.square));
            }
        }
    }
    let side = if rng.gen_bool(0.5) {
        Color::Gold
    } else {
        Color::Silver
    };
    from_pieces(side, &pieces).expect("random boards are valid")
}
