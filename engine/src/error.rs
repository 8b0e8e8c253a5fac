//! Error types. Each names what is wrong and where, in words a player understands.

use thiserror::Error;

use crate::{Color, Piece, PieceKind, Square};

/// Why a single step is illegal in a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StepError {
    /// No steps remain in the turn.
    #[error("no steps are left in this turn")]
    NoStepsLeft,
    /// The step would leave the board.
    #[error("{0} has no neighbour in that direction")]
    OffBoard(Square),
    /// Nothing stands on the from-square.
    #[error("{0} is empty")]
    EmptySquare(Square),
    /// The letter in the token does not match the piece on the square.
    #[error("{square} holds {}, not {}", found.describe(), expected.describe())]
    WrongPiece {
        /// The from-square.
        square: Square,
        /// The piece the token named.
        expected: Piece,
        /// The piece actually there.
        found: Piece,
    },
    /// The destination is occupied.
    #[error("{square} is occupied by {}", piece.describe())]
    Occupied {
        /// The destination.
        square: Square,
        /// Its occupant.
        piece: Piece,
    },
    /// The own piece is frozen.
    #[error("the {} on {square} is frozen", piece.kind().name())]
    Frozen {
        /// Where it stands.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// A rabbit tried to step towards its own home rank.
    #[error("a rabbit cannot step backwards on its own")]
    RabbitBackward,
    /// A push is half done and this step does not complete it.
    #[error("the push must first be completed by a stronger piece stepping onto {0}")]
    PushNotCompleted(Square),
    /// An enemy piece was moved with no stronger unfrozen own piece able to push or pull it.
    #[error("no stronger unfrozen {} piece can push or pull the {} on {square}", side.name(), piece.kind().name())]
    NoPusher {
        /// The side to move.
        side: Color,
        /// The enemy piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// A push cannot start on the last step of a turn.
    #[error("a push cannot start on the last step of a turn")]
    PushOnLastStep,
    /// Elephants can never be dislodged.
    #[error("an elephant cannot be pushed or pulled")]
    ElephantDislodged,
    /// A step that is illegal for a reason not listed above.
    #[error("the step is not legal here")]
    Illegal,
}

/// Why a whole turn (or setup) is illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TurnError {
    /// The text could not be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// One step is illegal.
    #[error("step {index} \"{token}\": {error}")]
    Step {
        /// 1-based step number.
        index: usize,
        /// The step as written.
        token: String,
        /// Why it is illegal.
        error: StepError,
    },
    /// A capture token does not match what the steps capture.
    #[error("token \"{token}\": {reason}")]
    Capture {
        /// The token as written.
        token: String,
        /// What actually happened.
        reason: String,
    },
    /// The turn has no steps.
    #[error("a turn needs at least one step")]
    NoSteps,
    /// More than four steps.
    #[error("a turn has at most 4 steps, this one has {0}")]
    TooManySteps(usize),
    /// The turn ends with a push half done.
    #[error("the turn ends before the push onto {0} is completed")]
    IncompletePush(Square),
    /// The board is the same as at the start of the turn.
    #[error("the turn does not change the board")]
    Unchanged,
    /// The turn would create the same position for the third time.
    #[error("the turn repeats the same position with the same side to move a third time")]
    ThirdRepetition,
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// A setup was given where a turn of steps was expected, or the reverse.
    #[error("expected {expected}, got {got}")]
    WrongPhase {
        /// What was expected.
        expected: &'static str,
        /// What was given.
        got: &'static str,
    },
    /// The setup is not legal.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// Why a setup (initial placement) is illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A piece of the wrong colour.
    #[error("\"{token}\": it is {side}'s setup, not the other side's", side = side.name())]
    WrongColor {
        /// The token.
        token: String,
        /// The side setting up.
        side: Color,
    },
    /// A piece placed outside the side's two home ranks.
    #[error("\"{token}\": {side} places its pieces on {ranks}", side = side.name(), ranks = if *side == Color::Gold { "ranks 1 and 2" } else { "ranks 7 and 8" })]
    OutsideHomeRanks {
        /// The token.
        token: String,
        /// The side setting up.
        side: Color,
    },
    /// Two pieces on one square.
    #[error("\"{token}\": {square} is already taken")]
    SquareTaken {
        /// The token.
        token: String,
        /// The square.
        square: Square,
    },
    /// Too many pieces of a kind.
    #[error("\"{token}\": more than {max} {kind}s", kind = kind.name())]
    TooMany {
        /// The token.
        token: String,
        /// The kind.
        kind: PieceKind,
        /// The allowed number.
        max: u32,
    },
    /// Not all 16 pieces were placed.
    #[error("the setup places {placed} of the {max} {kind}s", kind = kind.name())]
    Missing {
        /// The kind.
        kind: PieceKind,
        /// How many were placed.
        placed: u32,
        /// How many must be.
        max: u32,
    },
}

/// A syntax error in some notation: which token or line, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A token that is not a step, capture or placement.
    #[error("token \"{token}\": {reason}")]
    Token {
        /// The token as written.
        token: String,
        /// What is wrong.
        reason: String,
    },
    /// A board string that is not `[` 64 cells `]`.
    #[error("board: {0}")]
    Board(String),
    /// A problem on a numbered line of a multi-line input.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A problem at a line and column of a multi-line input (both 1-based; the column counts
    /// characters, not bytes).
    #[error("line {line}, column {column}: {reason}")]
    At {
        /// 1-based line number.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What was found and what was expected.
        reason: String,
    },
    /// A side letter that is not g, s, w or b.
    #[error("\"{0}\" is not a side (expected g or s, or w or b)")]
    Side(String),
    /// Nothing to parse.
    #[error("the input is empty")]
    Empty,
}

/// Why a board cannot be a legal Arimaa position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// More pieces of a kind than a side owns.
    #[error("{side} has {count} {kind}s, more than {max}", side = color.name(), kind = kind.name())]
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many are on the board.
        count: u32,
        /// How many a side has.
        max: u32,
    },
    /// A piece on a trap with no friendly neighbour (it would have been captured).
    #[error("{} on trap {square} has no friendly neighbour", piece.describe())]
    UnguardedOnTrap {
        /// The trap.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// The text could not be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
}
