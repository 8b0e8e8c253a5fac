//! The position: where every piece stands, whose turn it is, how many steps remain and what
//! push or pull the last step left pending.

use crate::bitboard::NEIGHBOURS;
use crate::zobrist;
use crate::{Bitboard, ByColor, Color, Piece, PieceKind, Square};

/// An odd constant (from the golden ratio) that scrambles the turn-start key before it is
/// mixed into [`Position::search_key`], so it cannot cancel the board key it often equals.
const TURN_START_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// What the previous step of the current turn left open.
///
/// A pull opportunity is kept only while it can actually be taken (some weaker enemy piece
/// stands next to the vacated square and a step remains), so two positions that allow the
/// same continuations compare and hash equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pending {
    /// Nothing: any legal step may follow.
    #[default]
    None,
    /// An enemy piece of strength `victim` was just pushed off `square`. The next step must be
    /// an unfrozen own piece stronger than `victim` stepping onto `square`.
    Push {
        /// The square the victim left.
        square: Square,
        /// The kind of the pushed piece.
        victim: PieceKind,
    },
    /// An own piece of strength `puller` just stepped off `square` (and did not complete a
    /// push). The next step may pull an adjacent weaker enemy piece onto `square`, even if the
    /// puller was captured on the trap it stepped onto.
    Pull {
        /// The square the puller left.
        square: Square,
        /// The kind of the puller.
        puller: PieceKind,
    },
}

impl Pending {
    /// The Zobrist key of this state (0 for `None`).
    #[inline]
    pub(crate) const fn key(self) -> u64 {
        match self {
            Pending::None => 0,
            Pending::Push { square, victim } => zobrist::push_key(victim, square),
            Pending::Pull { square, puller } => zobrist::pull_key(puller, square),
        }
    }
}

/// An Arimaa position at step granularity.
///
/// Holds one bitboard per coloured piece, an occupancy board per colour, a square-to-piece
/// table, the side to move, the steps left in its turn (0..=4; 0 means the turn must end),
/// the [`Pending`] push/pull state, the board key at the start of the turn (to forbid turns
/// that change nothing) and an incrementally maintained Zobrist hash of everything except
/// the turn-start key.
///
/// Equality compares every field. Two turn-start positions with the same pieces and side to
/// move are equal and share [`Position::board_key`]: exactly what the repetition rule compares.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pieces: [Bitboard; Piece::NUM],
    occupied: ByColor<Bitboard>,
    board: [Option<Piece>; Square::NUM],
    side: Color,
    steps_left: u8,
    pending: Pending,
    turn_start: u64,
    hash: u64,
}

impl Position {
    /// An empty board with `side` to move at the start of its turn.
    pub fn empty(side: Color) -> Position {
        let mut p = Position {
            pieces: [Bitboard::EMPTY; Piece::NUM],
            occupied: ByColor([Bitboard::EMPTY; 2]),
            board: [None; Square::NUM],
            side,
            steps_left: 4,
            pending: Pending::None,
            turn_start: 0,
            hash: zobrist::side_key(side),
        };
        p.turn_start = p.board_key();
        p
    }

    /// The side whose turn it is.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Steps left in the current turn (4 at its start, 0 when it must end).
    #[inline]
    pub fn steps_left(&self) -> u8 {
        self.steps_left
    }

    /// Whether no step of the current turn has been taken yet.
    #[inline]
    pub fn at_turn_start(&self) -> bool {
        self.steps_left == 4
    }

    /// The open push or pull left by the last step.
    #[inline]
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// The Zobrist hash of pieces, side, steps left and pending push/pull. It leaves out the
    /// board the turn started on, so two mid-turn states with equal boards but different turn
    /// starts share it: use it only where the turn start is the same for every state compared
    /// (deduplication inside one turn). A transposition table must use [`Position::search_key`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key a transposition table must use: it covers everything that decides what may
    /// follow, that is the pieces, the side to move, the steps left, the pending push or pull
    /// and the board the turn started on (a turn may not end on that board). Equal states give
    /// equal keys; states that differ in any of these differ in their key except by a 64-bit
    /// hash collision. Costs one multiply over [`Position::hash`]. At a turn start the turn-start
    /// board is the current one, so the key is a function of [`Position::hash`] alone there.
    ///
    /// The game history (the third-repetition rule) is not part of any key: the searcher
    /// applies that rule itself at turn boundaries.
    #[inline]
    pub fn search_key(&self) -> u64 {
        self.hash ^ self.turn_start.wrapping_mul(TURN_START_MIX)
    }

    /// The Zobrist key of the pieces and the side to move only (what repetition compares).
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.hash ^ zobrist::steps_key(self.steps_left) ^ self.pending.key()
    }

    /// The board key at the start of the current turn.
    #[inline]
    pub fn turn_start_key(&self) -> u64 {
        self.turn_start
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The squares holding `piece`.
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.index()]
    }

    /// The squares holding pieces of `color` and `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    /// The squares holding any piece of `color`.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        self.occupied[color]
    }

    /// The squares holding any piece.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied.0[0] | self.occupied.0[1]
    }

    /// The empty squares.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        !self.occupied()
    }

    /// Pieces of `color` strictly stronger than `kind`.
    #[inline]
    pub fn stronger_than(&self, color: Color, kind: PieceKind) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for k in (kind.index() + 1)..PieceKind::NUM {
            b |= self.pieces[color.index() * 6 + k];
        }
        b
    }

    /// Pieces of `color` strictly weaker than `kind`.
    #[inline]
    pub fn weaker_than(&self, color: Color, kind: PieceKind) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for k in 0..kind.index() {
            b |= self.pieces[color.index() * 6 + k];
        }
        b
    }

    /// The frozen pieces of `color`: next to a stronger enemy piece and to no friendly piece.
    #[inline]
    pub fn frozen(&self, color: Color) -> Bitboard {
        let them = (!color).index() * 6;
        let us = color.index() * 6;
        let mut stronger = Bitboard::EMPTY;
        let mut frozen = Bitboard::EMPTY;
        for k in (0..PieceKind::NUM).rev() {
            frozen |= self.pieces[us + k] & stronger.neighbours();
            stronger |= self.pieces[them + k];
        }
        frozen - self.occupied[color].neighbours()
    }

    /// Whether the piece on `sq` (if any) is frozen.
    pub fn is_frozen(&self, sq: Square) -> bool {
        match self.piece_at(sq) {
            Some(p) => self.frozen(p.color()).contains(sq),
            None => false,
        }
    }

    /// Number of pieces of `color` and `kind` on the board.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        self.pieces_of(color, kind).count()
    }

    /// Whether a rabbit of `color` stands on its goal rank.
    #[inline]
    pub fn rabbit_on_goal(&self, color: Color) -> bool {
        let goal = match color {
            Color::Gold => Bitboard::RANK_8,
            Color::Silver => Bitboard::RANK_1,
        };
        (self.pieces_of(color, PieceKind::Rabbit) & goal).any()
    }

    /// Whether the current turn may end now: at least one step taken, no push half-done,
    /// and the board differs from the one the turn started with.
    #[inline]
    pub fn can_end_turn(&self) -> bool {
        self.steps_left < 4
            && !matches!(self.pending, Pending::Push { .. })
            && self.board_key() != self.turn_start
    }

    // ----- the only code that writes the boards -----

    /// Puts `piece` on the empty square `sq`, updating every board and the hash.
    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        let b = Bitboard::from_square(sq);
        self.pieces[piece.index()] |= b;
        self.occupied[piece.color()] |= b;
        self.board[sq.index()] = Some(piece);
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Removes `piece` from `sq`, updating every board and the hash.
    #[inline]
    pub(crate) fn remove(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.board[sq.index()], Some(piece));
        let b = Bitboard::from_square(sq);
        self.pieces[piece.index()] ^= b;
        self.occupied[piece.color()] ^= b;
        self.board[sq.index()] = None;
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Moves `piece` from `from` to the empty `to`.
    #[inline]
    pub(crate) fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.pieces[piece.index()] ^= b;
        self.occupied[piece.color()] ^= b;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.hash ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
    }

    /// Restores the steps left, the pending state and the hash saved before a step.
    #[inline(always)]
    pub(crate) fn restore_turn_state(&mut self, steps_left: u8, pending: Pending, hash: u64) {
        self.steps_left = steps_left;
        self.pending = pending;
        self.hash = hash;
    }

    /// Sets the steps left and the pending state, keeping the hash right.
    #[inline(always)]
    pub(crate) fn set_turn_state(&mut self, steps_left: u8, pending: Pending) {
        self.hash ^= zobrist::steps_key(self.steps_left) ^ self.pending.key();
        self.steps_left = steps_left;
        self.pending = pending;
        self.hash ^= zobrist::steps_key(steps_left) ^ pending.key();
    }

    /// Sets the side to move, keeping the hash right.
    #[inline]
    pub(crate) fn set_side(&mut self, side: Color) {
        self.hash ^= zobrist::side_key(self.side) ^ zobrist::side_key(side);
        self.side = side;
    }

    #[inline]
    pub(crate) fn set_turn_start(&mut self, key: u64) {
        self.turn_start = key;
    }

    /// Sets the hash directly; used only by undo, which restores a saved value.
    #[inline]
    pub(crate) fn restore_hash(&mut self, hash: u64) {
        self.hash = hash;
    }

    /// The hash recomputed from scratch. Exists to test the incremental one.
    pub fn compute_hash(&self) -> u64 {
        let mut h =
            zobrist::side_key(self.side) ^ zobrist::steps_key(self.steps_left) ^ self.pending.key();
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                h ^= zobrist::piece_key(p, sq);
            }
        }
        h
    }

    /// Checks that the bitboards, the square table and the hash agree. For tests.
    pub fn is_consistent(&self) -> bool {
        let mut occ = [Bitboard::EMPTY; 2];
        for sq in Square::all() {
            let mut holders = 0;
            for p in 0..Piece::NUM {
                if self.pieces[p].contains(sq) {
                    holders += 1;
                    if self.board[sq.index()].map(|x| x.index()) != Some(p) {
                        return false;
                    }
                    occ[p / 6] |= Bitboard::from_square(sq);
                }
            }
            if holders > 1 || (holders == 0 && self.board[sq.index()].is_some()) {
                return false;
            }
        }
        occ == self.occupied.0 && self.compute_hash() == self.hash
    }

    /// The unguarded pieces standing on traps (a legal position has none).
    pub fn unguarded_on_traps(&self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for t in Square::TRAPS {
            if let Some(p) = self.piece_at(t) {
                if (NEIGHBOURS[t.index()] & self.occupied[p.color()]).is_empty() {
                    out |= Bitboard::from_square(t);
                }
            }
        }
        out
    }

    /// The position with colours swapped and ranks mirrored (gold's view becomes silver's).
    /// The side to move is swapped too, so the result is the same game seen by the other side.
    pub fn flip(&self) -> Position {
        let mut p = Position::empty(!self.side);
        for sq in Square::all() {
            if let Some(pc) = self.piece_at(sq) {
                p.put(pc.flip_color(), sq.flip_rank());
            }
        }
        let pending = match self.pending {
            Pending::None => Pending::None,
            Pending::Push { square, victim } => Pending::Push {
                square: square.flip_rank(),
                victim,
            },
            Pending::Pull { square, puller } => Pending::Pull {
                square: square.flip_rank(),
                puller,
            },
        };
        p.set_turn_state(self.steps_left, pending);
        p.turn_start = if self.steps_left == 4 {
            p.board_key()
        } else {
            // The turn start of a flipped mid-turn position is not recoverable from the key
            // alone; keep "differs from the current board" as the original does.
            if self.board_key() == self.turn_start {
                p.board_key()
            } else {
                !p.board_key()
            }
        };
        p
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", crate::notation::board::to_aei(self))?;
        if self.steps_left != 4 || self.pending != Pending::None {
            write!(f, " (steps left {}, {:?})", self.steps_left, self.pending)?;
        }
        Ok(())
    }
}
