//! Tactical test sets for the searcher (`search/tests/data/*.txt`): loading, checking a played
//! turn against a position's accepted turns, and solve rates. Shared by `tests/tactics.rs`
//! and the `solve_rate` and `gen_tactics` examples (included with `#[path]`).
//!
//! A data line is tab-separated: the position (`<g|s> [<64 cells>]`, at a turn start), a label,
//! the number of accepted turns, the number of distinct legal turns, then accepted turns in
//! official notation. Which turns are accepted depends on the set:
//!
//! * `goal.txt` (label `goal N`: the fewest steps to goal): every turn that wins by goal at
//!   once. There are often hundreds, so the line lists one shortest goal turn as an example;
//!   the count is of every distinct goal-winning turn, by brute force.
//! * `goal_defence.txt` (label `defend`): the opponent could goal next turn if the side to
//!   move passed; accepted are exactly the turns after which it cannot (or after which the
//!   side to move has already won), all listed.
//! * `capture.txt` (label `capture <kind>`): accepted are the turns that capture a piece of
//!   the strongest capturable kind and leave the opponent no capture and no goal, all listed.
//! * `capture_long.txt` (label `capture <kind>`): the same, in positions where that kind can
//!   be captured only in three or four steps (an approach before the push or pull).
//! * `decisive.txt` (label `win`): the side to move cannot goal but can win at once by
//!   elimination or immobilisation; accepted are every turn that wins at once, all listed.
//! * `capture_defence.txt` (label `save <kind>`): the side to move can neither goal nor
//!   capture, and the opponent threatens no goal but, if the side to move passed, could
//!   capture a piece of `kind` (its strongest capturable kind, not a rabbit); accepted are
//!   exactly the turns after which the opponent can capture nothing and cannot goal (at most
//!   a tenth of the turns), all listed (made by `examples/gen_capture_defence.rs`).
//! * `capture_defence_games.txt` (label `keep <kind>`): as `capture_defence.txt`, but from
//!   turn starts of real games (Tusk against sharp from the expert setups) and with the rule
//!   a player defends by: accepted are exactly the turns after which the opponent can capture
//!   no piece of `kind` or stronger and cannot goal (weaker pieces may be left en prise; at
//!   most a tenth of the turns), all listed; kept only where sharp searching two turns plays
//!   one of them (made by `examples/gen_capture_defence_games.rs`, kept by
//!   `bin/scripts/validate_tactics.py`).
//! * `decisive_defence.txt` (label `survive`): the side to move cannot win at once, and the
//!   opponent threatens no goal but, if the side to move passed, could win at once by
//!   elimination or immobilisation; accepted are exactly the turns after which the opponent
//!   has no turn that wins at once, by any rule (at most a tenth of the turns), all listed
//!   (made by `examples/gen_decisive_defence.rs`).

#![allow(dead_code)]

use std::collections::HashSet;
use std::path::PathBuf;

use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::turn::{parse_turn, write_turn};
use tusk_engine::{turn_boundary_result, Game, Position, Turn};
use tusk_search::{Control, Limits, SearchConfig, Searcher};

/// The data sets, by file name.
pub const SETS: [&str; 8] = [
    "goal.txt",
    "goal_defence.txt",
    "capture.txt",
    "capture_long.txt",
    "decisive.txt",
    "capture_defence.txt",
    "capture_defence_games.txt",
    "decisive_defence.txt",
];

/// One tactical test position.
pub struct Tactic {
    /// The file and line, for messages.
    pub place: String,
    /// The position (a turn start, the game not over).
    pub position: Position,
    /// The label (see the module documentation).
    pub label: String,
    /// How many distinct turns are accepted.
    pub accepted_count: usize,
    /// How many distinct legal turns the position has.
    pub turns: usize,
    /// The accepted turns as written in the file.
    pub accepted: Vec<String>,
    /// Board keys of the positions the listed accepted turns reach.
    pub accepted_boards: HashSet<u64>,
}

impl Tactic {
    /// Whether the set accepts any turn that wins by goal (rather than a listed one).
    pub fn is_goal(&self) -> bool {
        self.label.starts_with("goal ")
    }

    /// Whether the set accepts any turn that wins at once.
    pub fn is_win(&self) -> bool {
        self.label == "win"
    }

    /// Whether playing `turn` here is accepted.
    pub fn accepts(&self, turn: &Turn) -> bool {
        let mut game = Game::from_position(self.position.clone(), 2);
        if game.play(&tusk_engine::Move::Turn(*turn)).is_err() {
            return false;
        }
        let us = self.position.side();
        if self.is_goal() {
            return matches!(game.result(), Some(r) if r.winner == us
                && r.reason == tusk_engine::EndReason::Goal);
        }
        if self.is_win() {
            return matches!(game.result(), Some(r) if r.winner == us);
        }
        self.accepted_boards.contains(&game.position().board_key())
    }
}

/// The path of a data file.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Reads one data set; panics (failing the test) naming the file and line on anything
/// malformed, and on a missing file.
pub fn load(name: &str) -> Vec<Tactic> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let place = format!("{name}:{}", i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(
            fields.len() >= 5,
            "{place}: expected at least 5 tab-separated fields"
        );
        let position =
            parse_aei(fields[0]).unwrap_or_else(|e| panic!("{place}: bad position: {e}"));
        let num = |s: &str, what: &str| -> usize {
            s.parse()
                .unwrap_or_else(|e| panic!("{place}: {what} {s:?}: {e}"))
        };
        let accepted_count = num(fields[2], "accepted count");
        let turns = num(fields[3], "turn count");
        let mut accepted_boards = HashSet::new();
        for t in &fields[4..] {
            let (_, after) =
                parse_turn(&position, t).unwrap_or_else(|e| panic!("{place}: turn {t:?}: {e}"));
            accepted_boards.insert(after.board_key());
        }
        out.push(Tactic {
            place,
            position,
            label: fields[1].to_string(),
            accepted_count,
            turns,
            accepted: fields[4..].iter().map(|s| s.to_string()).collect(),
            accepted_boards,
        });
    }
    out
}

/// What the tests (`tests/tactics.rs`) require of each set at depth 4: the positions solved,
/// every one for the sets that must be solved whole, a floor against regressions for the
/// others (why each floor is where it is: the doc comment of the test that asserts it).
pub const FLOORS: [(&str, usize); 8] = [
    ("goal.txt", 104),
    ("goal_defence.txt", 100),
    ("capture.txt", 10),
    ("capture_long.txt", 16),
    ("decisive.txt", 3),
    ("capture_defence.txt", 32),
    ("capture_defence_games.txt", 158),
    ("decisive_defence.txt", 14),
];

/// The floor of the set `name` in [`FLOORS`]; panics for a name that is not a set.
pub fn floor(name: &str) -> usize {
    FLOORS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, f)| f)
        .unwrap_or_else(|| panic!("{name} has no floor"))
}

/// The outcome of searching one position.
pub struct Attempt {
    /// Whether the played turn is accepted.
    pub solved: bool,
    /// The turn played, in notation (or why there was none).
    pub played: String,
}

/// Searches `t` to `depth` steps with a fresh single-threaded searcher and judges the turn.
pub fn attempt(t: &Tactic, depth: u32) -> Attempt {
    attempt_with(t, depth, &tusk_search::Params::default())
}

/// [`attempt`] with the search tunables `params`.
pub fn attempt_with(t: &Tactic, depth: u32, params: &tusk_search::Params) -> Attempt {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    attempt_within(t, &limits, params)
}

/// Searches `t` within `limits` with a fresh single-threaded searcher and judges the turn.
pub fn attempt_within(t: &Tactic, limits: &Limits, params: &tusk_search::Params) -> Attempt {
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 16,
    })
    .expect("a searcher");
    searcher.set_params(params.clone());
    let game = Game::from_position(t.position.clone(), 2);
    let control = Control::new();
    match searcher.search(&game, limits, &control, &mut |_| {}) {
        None => Attempt {
            solved: false,
            played: "no turn returned".into(),
        },
        Some(r) => Attempt {
            solved: t.accepts(&r.best),
            played: write_turn(&t.position, &r.best),
        },
    }
}

/// Solved and total positions of one data set at `depth`, and the positions missed (place,
/// turn played). Deterministic for a deterministic searcher: one fresh searcher per position.
pub fn solve_rate(name: &str, depth: u32) -> (usize, usize, Vec<String>) {
    solve_rate_with(name, depth, &tusk_search::Params::default())
}

/// [`solve_rate`] with the search tunables `params`.
pub fn solve_rate_with(
    name: &str,
    depth: u32,
    params: &tusk_search::Params,
) -> (usize, usize, Vec<String>) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    solve_rate_within(name, &limits, params)
}

/// Solved and total positions of one data set searched within `limits`, and the positions
/// missed (see [`solve_rate`]).
pub fn solve_rate_within(
    name: &str,
    limits: &Limits,
    params: &tusk_search::Params,
) -> (usize, usize, Vec<String>) {
    let set = load(name);
    let mut solved = 0;
    let mut missed = Vec::new();
    for t in &set {
        let a = attempt_within(t, limits, params);
        if a.solved {
            solved += 1;
        } else {
            missed.push(format!("{} ({}): played {}", t.place, t.label, a.played));
        }
    }
    (solved, set.len(), missed)
}

/// The result of a turn-start position: whether the game is already decided (no history).
pub fn decided(pos: &Position) -> bool {
    turn_boundary_result(pos).is_some()
}

// ---------------------------------------------------------------------------------------------
// Brute force over every turn: how the data sets are made and re-checked.
// ---------------------------------------------------------------------------------------------

/// Every distinct legal turn of a position, split into accepted ones (with their notation)
/// and the total.
pub struct Brute {
    /// Distinct legal turns.
    pub turns: usize,
    /// The accepted turns in notation, sorted.
    pub accepted: Vec<String>,
}

/// Brute force: every distinct turn of `pos`, accepted when `accept(resulting position)`.
pub fn brute(pos: &Position, accept: &dyn Fn(&Position) -> bool) -> Brute {
    let mut gen = tusk_engine::TurnGen::new();
    let mut accepted = Vec::new();
    let turns = gen.for_each_turn(pos, &mut |t| {
        if accept(t.position) {
            accepted.push(write_turn(pos, &t.turn()));
        }
    });
    accepted.sort();
    Brute { turns, accepted }
}

/// The winner of the turn-start position `q` reached by a turn of `us`, if decided.
fn won_by(q: &Position, us: tusk_engine::Color) -> Option<tusk_engine::EndReason> {
    turn_boundary_result(q).and_then(|r| (r.winner == us).then_some(r.reason))
}

/// Whether the side not to move in `pos` could goal if the side to move passed.
pub fn goal_threat(pos: &Position) -> bool {
    tusk_eval::goal::can_goal(&passed(pos))
}

/// The turns that win by goal at once.
pub fn goal_turns(pos: &Position) -> Brute {
    let us = pos.side();
    brute(pos, &|q| {
        won_by(q, us) == Some(tusk_engine::EndReason::Goal)
    })
}

/// The turns after which the opponent cannot goal (or the side to move has won at once).
pub fn defending_turns(pos: &Position) -> Brute {
    let us = pos.side();
    brute(pos, &|q| match turn_boundary_result(q) {
        Some(r) => r.winner == us,
        None => !tusk_eval::goal::can_goal(q),
    })
}

/// The turns that capture a piece of `kind` and leave the opponent neither a capture nor a
/// goal (nor a win).
pub fn free_capture_turns(pos: &Position, kind: tusk_engine::PieceKind) -> Brute {
    let us = pos.side();
    let them = !us;
    let before = pos.count(them, kind);
    brute(pos, &|q| {
        q.count(them, kind) < before
            && !matches!(turn_boundary_result(q), Some(r) if r.winner != us)
            && !tusk_eval::goal::can_goal(q)
            && tusk_eval::captures::capturable_kinds(q).is_empty()
    })
}

/// The same board with the other side to move: what the opponent could do if the side to
/// move passed.
pub fn passed(pos: &Position) -> Position {
    parse_aei(&format!(
        "{} {}",
        (!pos.side()).letter(),
        tusk_engine::notation::board::to_aei(pos)
    ))
    .expect("a valid board")
}

/// The turns after which the opponent can capture nothing and cannot goal (nor has won).
pub fn saving_turns(pos: &Position) -> Brute {
    let us = pos.side();
    brute(pos, &|q| match turn_boundary_result(q) {
        Some(r) => r.winner == us,
        None => {
            !tusk_eval::goal::can_goal(q) && tusk_eval::captures::capturable_kinds(q).is_empty()
        }
    })
}

/// The turns that keep the side to move's pieces of `kind` and stronger: after them the
/// opponent can capture no such piece and cannot goal (nor has won). Weaker pieces may be
/// left en prise: in a real game saving the camel at the price of a cat is the defence.
pub fn keeping_turns(pos: &Position, kind: tusk_engine::PieceKind) -> Brute {
    let us = pos.side();
    brute(pos, &|q| match turn_boundary_result(q) {
        Some(r) => r.winner == us,
        None => {
            !tusk_eval::goal::can_goal(q)
                && tusk_eval::captures::best_capture(q).is_none_or(|k| k < kind)
        }
    })
}

/// The turns that win at once, by any reason.
pub fn winning_turns(pos: &Position) -> Brute {
    let us = pos.side();
    brute(pos, &|q| won_by(q, us).is_some())
}

/// Whether the side to move in the turn-start position `q` has a turn that wins at once, by
/// any rule: the exact goal detector first (cheap), then [`winning_turns`].
pub fn can_win_at_once(q: &Position) -> bool {
    tusk_eval::goal::can_goal(q) || !winning_turns(q).accepted.is_empty()
}

/// The turns after which the opponent has no turn that wins at once (nor has won already).
pub fn surviving_turns(pos: &Position) -> Brute {
    let us = pos.side();
    brute(pos, &|q| match turn_boundary_result(q) {
        Some(r) => r.winner == us,
        None => !can_win_at_once(q),
    })
}

/// A data line: the position, its label, the counts of `b` and the turns `listed` (every
/// accepted one, or for goal positions one example), tab-separated, with its newline.
pub fn data_line(pos: &Position, label: &str, b: &Brute, listed: &[String]) -> String {
    let mut line = format!(
        "{}\t{label}\t{}\t{}",
        tusk_engine::notation::board::to_aei_with_side(pos),
        b.accepted.len(),
        b.turns
    );
    for t in listed {
        line.push('\t');
        line.push_str(t);
    }
    line.push('\n');
    line
}

/// The seed a generator example was given as its first argument, or `default`.
pub fn seed_arg(default: u64) -> u64 {
    std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("a numeric seed"))
        .unwrap_or(default)
}

/// Plays seeded random games (random setups, then up to `game_turns` random turns, all drawn
/// from `seed`) and offers each turn start to `take` (with the game's number), which returns
/// the data line of a position it keeps; at most one position a game, until `wanted` are
/// kept. Returns the lines and the number of games played (for the set's header).
pub fn lines_from_random_games(
    seed: u64,
    wanted: usize,
    game_turns: usize,
    take: &mut dyn FnMut(&Position, usize) -> Option<String>,
) -> (Vec<String>, usize) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut lines = Vec::new();
    let mut games = 0;
    while lines.len() < wanted {
        games += 1;
        let mut game = tusk_tests::random_setup_game(&mut rng);
        for _ in 0..game_turns {
            if !tusk_tests::play_random_turn(&mut game, &mut rng) || game.result().is_some() {
                break;
            }
            if let Some(line) = take(game.position(), games) {
                lines.push(line);
                // One position per game, so that the set spreads over many games.
                break;
            }
        }
        if games % 100 == 0 {
            eprintln!("{games} games: {} positions", lines.len());
        }
    }
    (lines, games)
}

/// Writes the data set `name`: a header saying `what` the set holds and how it was made (the
/// generator `example`, its `seed`, the `games` played), then the `lines`.
pub fn write_set(name: &str, what: &str, example: &str, seed: u64, games: usize, lines: &[String]) {
    let mut text = format!(
        "# Tusk searcher tactics: {what}\n# Made by `cargo run --release -p tusk-search --example {example} -- {seed}` from {games} seeded random games.\n# position<TAB>label<TAB>accepted turns<TAB>distinct turns<TAB>accepted turn...; see search/tests/support/tactics.rs.\n"
    );
    for l in lines {
        text.push_str(l);
    }
    let path = data_path(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("wrote {} positions to {}", lines.len(), path.display());
}

/// Recomputes a data line by brute force: (accepted count, total turns, accepted turns listed
/// as the file lists them: for goal positions the count only).
pub fn recompute(t: &Tactic) -> Brute {
    let label = t.label.as_str();
    if t.is_goal() {
        goal_turns(&t.position)
    } else if label == "defend" {
        defending_turns(&t.position)
    } else if let Some(kind) = label.strip_prefix("capture ") {
        free_capture_turns(&t.position, parse_kind(kind, &t.place))
    } else if t.is_win() {
        winning_turns(&t.position)
    } else if let Some(kind) = label.strip_prefix("keep ") {
        keeping_turns(&t.position, parse_kind(kind, &t.place))
    } else if label.starts_with("save ") {
        saving_turns(&t.position)
    } else if label == "survive" {
        surviving_turns(&t.position)
    } else {
        panic!("{}: unknown label {label:?}", t.place)
    }
}

/// The piece kind named in a label (`dog`), or a panic naming the data line.
fn parse_kind(name: &str, place: &str) -> tusk_engine::PieceKind {
    tusk_engine::PieceKind::ALL
        .into_iter()
        .find(|k| format!("{k:?}").eq_ignore_ascii_case(name))
        .unwrap_or_else(|| panic!("{place}: unknown piece kind {name:?}"))
}
