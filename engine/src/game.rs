//! A whole game: setups, turns, the repetition rule and the end-of-game checks in the
//! official order.

use std::collections::HashMap;

use crate::error::TurnError;
use crate::notation::turn::{
    check_setup, parse_setup, parse_turn, place_setup, play_turn, write_line, write_turn,
};
use crate::{Color, Move, Position, Setup, Turn, TurnGen};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A rabbit reached its goal rank.
    Goal,
    /// A side lost all its rabbits.
    Elimination,
    /// The side to move had no legal step.
    Immobilization,
    /// Every legal turn of the side to move would repeat a position a third time.
    Repetition,
}

impl EndReason {
    /// The one-letter code used by game records (`g`, `e`, `m`, `r`).
    pub fn code(self) -> char {
        match self {
            EndReason::Goal => 'g',
            EndReason::Elimination => 'e',
            EndReason::Immobilization => 'm',
            EndReason::Repetition => 'r',
        }
    }

    /// A word for people.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Elimination => "elimination",
            EndReason::Immobilization => "immobilization",
            EndReason::Repetition => "repetition",
        }
    }
}

/// The winner and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Who won.
    pub winner: Color,
    /// Why.
    pub reason: EndReason,
}

/// A game in progress or finished. Owns the current position, every move played, and the
/// count of every turn-start position (board and side to move) for the repetition rule.
///
/// [`Game::play`] either plays a legal move or returns an error and leaves the game exactly
/// as it was.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
    positions: Vec<Position>,
    seen: HashMap<u64, u32>,
    first_number: u32,
    first_side: Color,
    setups_left: u8,
    steps_taken: String,
    result: Option<GameResult>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A new game: empty board, gold to place its setup (move `1g`).
    pub fn new() -> Game {
        Game {
            position: Position::empty(Color::Gold),
            moves: Vec::new(),
            positions: vec![Position::empty(Color::Gold)],
            seen: HashMap::new(),
            first_number: 1,
            first_side: Color::Gold,
            setups_left: 2,
            result: None,
            steps_taken: String::new(),
        }
    }

    /// A game that starts at a given position, numbered `move_number` (the number written in
    /// front of the side letter, e.g. 2 for `2g`). Repetition history starts here.
    ///
    /// At a turn start the end-of-game checks are applied at once, as if the other side had
    /// just moved. A mid-turn position (steps already taken, as a position file's move line
    /// gives them) continues its turn: nothing is decided until that turn ends, its turn-start
    /// board is the one the turn may not end on, and the first move played completes the turn
    /// (it may be empty, ending the turn at once, when the board has already changed).
    pub fn from_position(position: Position, move_number: u32) -> Game {
        let side = position.side();
        let mut g = Game {
            positions: vec![position.clone()],
            position,
            moves: Vec::new(),
            seen: HashMap::new(),
            first_number: move_number.max(1),
            first_side: side,
            setups_left: 0,
            result: None,
            steps_taken: String::new(),
        };
        if g.position.at_turn_start() {
            *g.seen.entry(g.position.board_key()).or_insert(0) += 1;
            g.result = g.end_check();
        }
        g
    }

    /// The current position: the start of the side to move's turn, except in a game made by
    /// [`Game::from_position`] from a mid-turn position, before its first move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move (or to set up).
    pub fn side_to_move(&self) -> Color {
        self.position.side()
    }

    /// Whether the side to move must still place its setup.
    pub fn in_setup(&self) -> bool {
        self.setups_left > 0
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before each move, and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The number of the move about to be played (`2` in `2g`).
    pub fn move_number(&self) -> u32 {
        move_number_at(self.first_number, self.first_side, self.moves.len()).0
    }

    /// The label of the move about to be played, e.g. `2g`.
    pub fn move_label(&self) -> String {
        format!("{}{}", self.move_number(), self.side_to_move().letter())
    }

    /// Every board key (pieces and side to move) that has stood at a turn start, with how
    /// often, sorted by key: the repetition history a search or perft continues from.
    pub fn seen_boards(&self) -> Vec<(u64, u32)> {
        let mut v: Vec<(u64, u32)> = self.seen.iter().map(|(&k, &n)| (k, n)).collect();
        v.sort_unstable();
        v
    }

    /// How many times the board `key` (pieces and side to move) has stood at a turn start.
    pub fn times_seen(&self, key: u64) -> u32 {
        self.seen.get(&key).copied().unwrap_or(0)
    }

    /// Whether a turn ending on board `key` would be a third repetition.
    pub fn would_repeat_third_time(&self, key: u64) -> bool {
        self.times_seen(key) >= 2
    }

    /// Every distinct legal turn of the side to move, excluding third repetitions.
    pub fn legal_turns(&self, gen: &mut TurnGen) -> Vec<(Turn, Position)> {
        let mut v = Vec::new();
        if self.in_setup() || self.result.is_some() {
            return v;
        }
        gen.for_each_turn_excluding(
            &self.position,
            &|k| self.would_repeat_third_time(k),
            &mut |t| v.push((t.turn(), t.position.clone())),
        );
        v
    }

    /// Plays a move given in notation: a setup (`Ra1 Rb1 ...`) during the setup phase, a turn
    /// (`Ee2n Ee3n`) after it. On error the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<(), TurnError> {
        if self.result.is_some() {
            return Err(TurnError::GameOver);
        }
        if self.in_setup() {
            let setup = parse_setup(self.side_to_move(), text)?;
            self.play(&Move::Setup(setup))
        } else {
            let (turn, _) = parse_turn(&self.position, text)?;
            self.play(&Move::Turn(turn))
        }
    }

    /// Plays a move given by another program, as controllers do: like [`Game::play_text`],
    /// but when the only fault is a wrong capture token the steps are played without the
    /// capture tokens, and that fault is returned as `Ok(Some(error))` for the caller to
    /// report. On error the game is unchanged.
    pub fn play_text_lenient(&mut self, text: &str) -> Result<Option<TurnError>, TurnError> {
        match self.play_text(text) {
            Ok(()) => Ok(None),
            Err(e @ TurnError::Capture { .. }) => {
                self.play_text(&crate::notation::turn::without_capture_tokens(text))?;
                Ok(Some(e))
            }
            Err(e) => Err(e),
        }
    }

    /// Plays a move. On error the game is unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), TurnError> {
        if self.result.is_some() {
            return Err(TurnError::GameOver);
        }
        match (mv, self.in_setup()) {
            (Move::Setup(s), true) => self.play_setup(s),
            (Move::Turn(t), false) => self.play_turn(t),
            (Move::Setup(_), false) => Err(TurnError::WrongPhase {
                expected: "a turn of steps",
                got: "a setup",
            }),
            (Move::Turn(_), true) => Err(TurnError::WrongPhase {
                expected: "a setup",
                got: "a turn of steps",
            }),
        }
    }

    fn play_setup(&mut self, setup: &Setup) -> Result<(), TurnError> {
        let side = self.side_to_move();
        check_setup(side, setup, &self.position)?;
        let mut next = self.position.clone();
        place_setup(&mut next, setup);
        next.end_turn();
        self.position = next;
        self.moves.push(Move::Setup(setup.clone()));
        self.setups_left -= 1;
        self.positions.push(self.position.clone());
        if self.setups_left == 0 {
            *self.seen.entry(self.position.board_key()).or_insert(0) += 1;
        }
        Ok(())
    }

    fn play_turn(&mut self, turn: &Turn) -> Result<(), TurnError> {
        if turn.len() > 4 {
            return Err(TurnError::TooManySteps(turn.len()));
        }
        let next = play_turn(&self.position, turn)?;
        if self.would_repeat_third_time(next.board_key()) {
            return Err(TurnError::ThirdRepetition);
        }
        self.position = next;
        *self.seen.entry(self.position.board_key()).or_insert(0) += 1;
        self.moves.push(Move::Turn(*turn));
        self.positions.push(self.position.clone());
        self.result = self.end_check();
        Ok(())
    }

    /// The official end checks at a turn boundary: [`turn_boundary_result`], then B (the side
    /// to move) with only third-repetition turns. Never called mid-turn.
    fn end_check(&self) -> Option<GameResult> {
        if let Some(r) = turn_boundary_result(&self.position) {
            return Some(r);
        }
        if self.seen.values().any(|&n| n >= 2) {
            let mut gen = TurnGen::new();
            if gen.count_excluding(&self.position, &|k| self.would_repeat_third_time(k)) == 0 {
                return Some(GameResult {
                    winner: !self.position.side(),
                    reason: EndReason::Repetition,
                });
            }
        }
        None
    }

    /// The game record so far: one line per move, `1g Ra1 ...`, `2g Ee2n ...`.
    pub fn record(&self) -> String {
        let mut out = String::new();
        for i in 0..self.moves.len() {
            let (n, side) = move_number_at(self.first_number, self.first_side, i);
            let text = self.move_text(i).unwrap_or_default();
            out.push_str(&format!("{n}{} {text}\n", side.letter()));
        }
        out
    }

    /// Records the steps already taken in the turn of a mid-turn starting position (a position
    /// file's move line, e.g. `Ee2n Ee3n`), so that the first turn is written whole: those
    /// steps, then the ones played from here. No effect on the rules, which the position's
    /// turn-start board already carries.
    pub fn with_steps_taken(mut self, steps: &str) -> Game {
        self.steps_taken = steps.split_whitespace().collect::<Vec<_>>().join(" ");
        self
    }

    /// The whole notation of the turn that completes the current one with `turn` (steps from
    /// the current position): the steps already taken in a mid-turn start, then `turn`'s.
    pub fn turn_text(&self, turn: &crate::Turn) -> String {
        self.whole_turn_text(self.moves.len(), write_turn(&self.position, turn))
    }

    /// A line of play from the current position in notation, one string per turn (see
    /// [`write_line`]): the first turn whole as [`Game::turn_text`] writes it, a mid-turn
    /// start's steps already taken included.
    pub fn line_text(&self, line: &[crate::Turn]) -> Vec<String> {
        let mut out = write_line(&self.position, line);
        if let Some(first) = out.first_mut() {
            *first = self.whole_turn_text(self.moves.len(), std::mem::take(first));
        }
        out
    }

    fn whole_turn_text(&self, index: usize, rest: String) -> String {
        match (index, self.steps_taken.is_empty(), rest.is_empty()) {
            (0, false, true) => self.steps_taken.clone(),
            (0, false, false) => format!("{} {rest}", self.steps_taken),
            _ => rest,
        }
    }

    /// The notation of move `index` (0-based) as played (a mid-turn start's first turn whole,
    /// see [`Game::with_steps_taken`]).
    pub fn move_text(&self, index: usize) -> Option<String> {
        let mv = self.moves.get(index)?;
        Some(match mv {
            Move::Setup(s) => s.to_string(),
            Move::Turn(t) => self.whole_turn_text(index, write_turn(&self.positions[index], t)),
        })
    }
}

/// The official end-of-game checks that need only the position, in the official order, at a
/// turn boundary: `pos` is the start of the turn of B (the side to move) and A has just moved.
/// A's goal, B's goal, B without rabbits (A wins), A without rabbits (B wins), B without a
/// legal step (A wins). The last official check, B having only turns that would repeat a
/// position a third time, needs the history and is [`Game`]'s.
///
/// Meaningful only at a turn start (`pos.at_turn_start()`); mid-turn, nothing is decided until
/// the turn ends, and this returns `None`.
pub fn turn_boundary_result(pos: &Position) -> Option<GameResult> {
    use crate::PieceKind::Rabbit;
    if !pos.at_turn_start() {
        return None;
    }
    let b = pos.side();
    let a = !b;
    let win = |winner, reason| Some(GameResult { winner, reason });
    if pos.rabbit_on_goal(a) {
        return win(a, EndReason::Goal);
    }
    if pos.rabbit_on_goal(b) {
        return win(b, EndReason::Goal);
    }
    if pos.count(b, Rabbit) == 0 {
        return win(a, EndReason::Elimination);
    }
    if pos.count(a, Rabbit) == 0 {
        return win(b, EndReason::Elimination);
    }
    if !pos.has_legal_step() {
        return win(a, EndReason::Immobilization);
    }
    None
}

/// The number and side of the move `index` moves after (`first_number`, `first_side`).
fn move_number_at(first_number: u32, first_side: Color, index: usize) -> (u32, Color) {
    let half = index as u32 + if first_side == Color::Silver { 1 } else { 0 };
    let number = first_number + half / 2;
    let side = if half.is_multiple_of(2) {
        Color::Gold
    } else {
        Color::Silver
    };
    (number, side)
}
