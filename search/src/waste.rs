//! Wasted turns (issue 21, "tempo and waste"): sharp's reversibles and free captures, judged
//! where a turn ends in the tree and charged to the side that played it.
//!
//! * **Reversible turns.** A turn whose whole effect the opponent can undo with at most two of
//!   its steps (typically a push or pull of an enemy piece whose pusher then stepped back) gave
//!   the opponent the turn back with two steps to spare: [`Reversal::Full`]. A turn that moved
//!   one enemy piece and one own piece a step each, where the enemy piece can step back at once,
//!   is half undone for one step: [`Reversal::Partial`]. Exact: the opponent's one- and two-step
//!   sequences are tried on the board (first steps touching a square that differs from the
//!   turn's start, second steps only where the board is near enough), only for turns that moved
//!   at most two pieces, one of them the opponent's.
//! * **Free captures.** A turn that spent all its steps but at most one on one or two own pieces
//!   and left one of them where the opponent can capture it next turn ([`FreeCapture`]): the
//!   piece stands beside a trap its side guards with fewer than two pieces, or two squares from
//!   an unguarded trap beside a stronger enemy piece (sharp's filter), and the opponent's exact
//!   capture moves ([`tusk_eval::capture_moves`], asked only where the admissible capture bound
//!   allows) include a capture of that very piece.
//!
//! The penalties ([`penalty`]) are sharp's (`search/searchparams.h` and `search.cpp`) in
//! centirabbits: a full reversal 2,000 (a ban), a partial one 15 at the root and 30 deeper; a
//! free capture up to 800 near the horizon, less with a whole turn or more of depth left. They
//! are added to the value of the turn, not to the evaluation: the opponent's turn start keeps
//! its own value in the transposition table.

use tusk_engine::{
    Bitboard, Color, Pending, Piece, PieceKind, Position, Square, StepList, StepMask,
    ADJACENT_TRAP, NEIGHBOURS,
};
use tusk_eval::capture_moves::{capture_moves, CaptureMove, Visited};
use tusk_eval::captures::{capture_bound, KindSet};

/// The board at a turn start, to compare the board at the turn's end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TurnBoard {
    /// [`Position::board_key`] of that board (the turn-start key of every position of the turn).
    key: u64,
    /// Every piece's bitboard, by [`Piece::index`].
    pieces: [Bitboard; Piece::NUM],
}

impl TurnBoard {
    /// The board of `pos` (taken at a turn start).
    pub(crate) fn of(pos: &Position) -> TurnBoard {
        let mut pieces = [Bitboard::EMPTY; Piece::NUM];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                pieces[piece.index()] = pos.pieces(piece);
            }
        }
        TurnBoard {
            key: pos.board_key(),
            pieces,
        }
    }

    /// Whether `pos` is in the turn that started on this board.
    pub(crate) fn starts_turn_of(&self, pos: &Position) -> bool {
        self.key == pos.turn_start_key()
    }

    /// For each piece of `color`, the squares where this board and `pos` differ.
    fn differences<'a>(
        &'a self,
        pos: &'a Position,
        color: Color,
    ) -> impl Iterator<Item = Bitboard> + 'a {
        PieceKind::ALL.into_iter().map(move |kind| {
            let piece = Piece::new(color, kind);
            self.pieces[piece.index()] ^ pos.pieces(piece)
        })
    }

    /// Squares whose content differs between this board and `pos`, counted per piece bitboard
    /// (a piece moved counts 2).
    fn distance(&self, pos: &Position) -> u32 {
        Color::ALL
            .into_iter()
            .flat_map(|c| self.differences(pos, c))
            .map(Bitboard::count)
            .sum()
    }

    /// Whether the pieces of `color` stand in `pos` as on this board.
    fn same_pieces(&self, pos: &Position, color: Color) -> bool {
        self.differences(pos, color).all(Bitboard::is_empty)
    }
}

/// One piece that stands elsewhere at the turn's end than at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    /// The piece.
    pub(crate) piece: Piece,
    /// Where it stood at the turn start.
    pub(crate) from: Square,
    /// Where it stands now.
    pub(crate) to: Square,
}

/// What a turn changed when it moved one or two pieces and captured nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Changes {
    items: [Option<Change>; 2],
}

impl Changes {
    /// The changed pieces.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Change> + '_ {
        self.items.iter().flatten().copied()
    }

    /// How many pieces of `color` moved.
    pub(crate) fn count_of(&self, color: Color) -> usize {
        self.iter().filter(|c| c.piece.color() == color).count()
    }

    /// The squares the moved pieces left or reached: exactly the squares whose content
    /// differs from the turn's start board (per piece bitboard, the squares left and those
    /// reached are disjoint, and nothing else moved).
    fn squares(&self) -> Bitboard {
        self.iter().fold(Bitboard::EMPTY, |b, c| {
            b | Bitboard::from_square(c.from) | Bitboard::from_square(c.to)
        })
    }
}

/// The pieces the turn from `start` to `pos` moved, when nothing was captured and one or two
/// pieces stand elsewhere; `None` otherwise. Two pieces of one kind and colour are paired so
/// that they travelled the fewest squares.
pub(crate) fn changes(start: &TurnBoard, pos: &Position) -> Option<Changes> {
    let mut items = [None; 2];
    let mut n = 0;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let piece = Piece::new(color, kind);
            let before = start.pieces[piece.index()];
            let now = pos.pieces(piece);
            let gone = before & !now;
            let came = now & !before;
            let k = gone.count();
            if k != came.count() || n + k as usize > 2 {
                return None;
            }
            let mut gone = gone;
            let mut came = came;
            match k {
                0 => {}
                1 => {
                    items[n] = Some(Change {
                        piece,
                        from: gone.next()?,
                        to: came.next()?,
                    });
                    n += 1;
                }
                _ => {
                    let (a, b) = (gone.next()?, gone.next()?);
                    let (c, d) = (came.next()?, came.next()?);
                    let (c, d) = if a.distance(c) + b.distance(d) <= a.distance(d) + b.distance(c) {
                        (c, d)
                    } else {
                        (d, c)
                    };
                    items[0] = Some(Change {
                        piece,
                        from: a,
                        to: c,
                    });
                    items[1] = Some(Change {
                        piece,
                        from: b,
                        to: d,
                    });
                    n = 2;
                }
            }
        }
    }
    (n > 0).then_some(Changes { items })
}

/// How much of a turn the opponent can undo at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reversal {
    /// Not undone cheaply.
    None,
    /// One enemy piece and one own piece moved a step each, and the enemy piece can step back.
    Partial,
    /// The opponent restores the turn's start board in one or two steps.
    Full,
}

/// How much of the turn that led from `start` to `pos` (the opponent of its mover now to move,
/// at its turn start) the side to move can undo, `changes` being what the turn moved. `pos` is
/// left as it was. The second value is the steps tried (work to charge).
pub(crate) fn reversal(
    start: &TurnBoard,
    pos: &mut Position,
    changes: &Changes,
) -> (Reversal, u32) {
    let undoer = pos.side();
    if changes.count_of(undoer) == 0 {
        // Only the mover's own pieces moved: the undoer can bring none back without moving
        // one of its own.
        return (Reversal::None, 0);
    }
    let partial_shape = changes.count_of(undoer) == 1
        && changes.count_of(!undoer) == 1
        && changes.iter().all(|c| c.from.distance(c.to) == 1);
    let mut partial = false;
    let mut first = StepList::new();
    let mut second = StepList::new();
    // A step that captures nothing changes two squares of the board: one that neither leaves
    // nor reaches a square that differs from the start board takes the board two squares
    // farther, and one more step cannot bring it back. So the first step touches a changed
    // square (the brute-force test tries them all).
    let changed = changes.squares();
    pos.legal_steps_touching(StepMask::touching(changed, changed), &mut first);
    let mut played = first.len() as u32;
    for &a in first.iter() {
        let ua = pos.play_step_unchecked(a);
        let open_push = matches!(pos.pending(), Pending::Push { .. });
        let left = start.distance(pos);
        if left == 0 && !open_push {
            pos.undo_step(a, ua);
            return (Reversal::Full, played);
        }
        if partial_shape && !open_push && start.same_pieces(pos, undoer) {
            partial = true;
        }
        // One more step moves one piece (two squares of difference) and may capture one
        // (one more): farther than three and it cannot restore the board.
        if left <= 3 {
            pos.legal_steps(&mut second);
            played += second.len() as u32;
            for &b in second.iter() {
                let ub = pos.play_step_unchecked(b);
                let done =
                    start.distance(pos) == 0 && !matches!(pos.pending(), Pending::Push { .. });
                pos.undo_step(b, ub);
                if done {
                    pos.undo_step(a, ua);
                    return (Reversal::Full, played);
                }
            }
        }
        pos.undo_step(a, ua);
    }
    let r = if partial {
        Reversal::Partial
    } else {
        Reversal::None
    };
    (r, played)
}

/// A turn that left a piece it moved where the opponent captures it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FreeCapture {
    /// Steps the turn spent on pieces other than the captured one (0 or 1).
    pub(crate) other_steps: u8,
    /// The fewest steps the opponent needs for the capture.
    pub(crate) capture_steps: u8,
}

/// The trap near `sq` where the opponent of `owner` might capture the piece of `owner` on it
/// (sharp's `potentiallyFreeCapturableTrap`): the trap beside it when `owner` guards it with
/// fewer than two pieces, or the trap two squares away when `owner` does not guard it at all
/// and a stronger enemy piece stands beside the piece.
fn exposed_trap(pos: &Position, owner: Color, sq: Square) -> Option<Square> {
    let guards = |trap: Square| (NEIGHBOURS[trap.index()] & pos.occupied_by(owner)).count();
    if let Some(trap) = ADJACENT_TRAP[sq.index()].first() {
        return (guards(trap) < 2).then_some(trap);
    }
    let trap = Square::TRAPS.into_iter().find(|t| t.distance(sq) == 2)?;
    let kind = pos.piece_at(sq)?.kind();
    let dominated = (NEIGHBOURS[sq.index()] & pos.stronger_than(!owner, kind)).any();
    (dominated && guards(trap) == 0).then_some(trap)
}

/// The square the piece captured by `m` stood on before it: followed back from the trap
/// through the steps that moved it.
fn victim_square(m: &CaptureMove) -> Square {
    let mut at = m.trap;
    for s in m.steps().iter().rev() {
        if s.to() == at {
            at = s.from();
        }
    }
    at
}

/// Whether the turn that led to `pos` (the opponent of its mover now to move, at its turn
/// start), having moved `changes`, left a piece it moved free to capture (see the module
/// docs). `pos` is left as it was; `out` and `visited` are the capture-move generator's. The
/// second value is the steps the generator played (work to charge).
pub(crate) fn free_capture(
    pos: &mut Position,
    changes: &Changes,
    out: &mut Vec<CaptureMove>,
    visited: &mut Visited,
) -> (Option<FreeCapture>, u32) {
    let mover = !pos.side();
    if changes.count_of(!mover) > 0 {
        return (None, 0);
    }
    let exposed = changes
        .items
        .map(|c| c.and_then(|c| exposed_trap(pos, mover, c.to)));
    if exposed.iter().all(Option::is_none) {
        return (None, 0);
    }
    // The capture bound is admissible: where it rules out every exposed kind, so would the
    // generator.
    let mut kinds = KindSet::EMPTY;
    for (c, trap) in changes.iter().zip(exposed) {
        if trap.is_some() {
            kinds.insert(c.piece.kind());
        }
    }
    let steps = pos.steps_left();
    if capture_bound(pos, kinds, steps) > steps {
        return (None, 0);
    }
    let played = capture_moves(pos, out, visited);
    let mut capture_steps = u8::MAX;
    let mut other_steps = 0u8;
    for (c, trap) in changes.iter().zip(exposed) {
        let steps = trap.and_then(|trap| {
            out.iter()
                .filter(|m| {
                    m.trap == trap && m.captured == c.piece.kind() && victim_square(m) == c.to
                })
                .map(|m| m.steps().len() as u8)
                .min()
        });
        match steps {
            Some(k) => capture_steps = capture_steps.min(k),
            None => other_steps += c.from.distance(c.to),
        }
    }
    let found = (capture_steps != u8::MAX && other_steps <= 1).then_some(FreeCapture {
        other_steps,
        capture_steps,
    });
    (found, played)
}

/// What a wasted turn costs: sharp's values (its units are tenths of a centirabbit) unless
/// tuned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Charges {
    /// Centirabbits for a full reversal (sharp: 2,000).
    pub(crate) full_reversal: i32,
    /// The free-capture table as a percentage of sharp's.
    pub(crate) free_capture_pct: i32,
}

impl Charges {
    /// sharp's charges.
    pub(crate) const SHARP: Charges = Charges {
        full_reversal: 2_000,
        free_capture_pct: 100,
    };
}

/// The penalty, in centirabbits from the mover's view, for a turn ending with `reversal` and
/// `free`, with `depth` steps of search left after it; `root` when it is the root's turn.
pub(crate) fn penalty(
    charges: Charges,
    reversal: Reversal,
    free: Option<FreeCapture>,
    depth: i32,
    root: bool,
) -> i32 {
    let reversal = match reversal {
        Reversal::Full => charges.full_reversal,
        Reversal::Partial if root => 15,
        Reversal::Partial => 30,
        Reversal::None => 0,
    };
    let free = match free {
        None => 0,
        Some(f) => {
            let short = f.capture_steps < 4;
            let near_horizon = depth <= 4;
            match (f.other_steps, near_horizon) {
                (0, true) => {
                    if short {
                        800
                    } else {
                        600
                    }
                }
                (0, false) => {
                    if short {
                        300
                    } else {
                        150
                    }
                }
                (_, true) => {
                    if short {
                        600
                    } else {
                        400
                    }
                }
                (_, false) => 0,
            }
        }
    } * charges.free_capture_pct
        / 100;
    reversal + free
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::{Direction, Step};

    fn pos(side: char, pieces: &[(char, &str)]) -> Position {
        crate::test_util::position(Color::from_letter(side).unwrap(), pieces)
    }

    /// Plays the turn `steps` ("d4e" ...) from the turn start `p` and ends it; returns the
    /// turn start's board and the position after the turn.
    fn after_turn(p: &Position, steps: &[&str]) -> (TurnBoard, Position) {
        let start = TurnBoard::of(p);
        let mut q = p.clone();
        for s in steps {
            let from = Square::parse(&s[..2]).unwrap();
            let dir = Direction::from_letter(s.chars().nth(2).unwrap()).unwrap();
            let step = Step::try_new(from, dir).unwrap();
            assert!(q.is_legal_step(step), "{s} in {q:?}");
            q.play_step_unchecked(step);
        }
        assert!(q.can_end_turn());
        assert!(start.starts_turn_of(&q));
        q.end_turn();
        assert!(!start.starts_turn_of(&q));
        (start, q)
    }

    fn judge(p: &Position, steps: &[&str]) -> (Option<Changes>, Reversal, Option<FreeCapture>) {
        let (start, mut q) = after_turn(p, steps);
        let before = q.clone();
        let Some(ch) = changes(&start, &q) else {
            return (None, Reversal::None, None);
        };
        let (r, _) = reversal(&start, &mut q, &ch);
        let (f, _) = free_capture(&mut q, &ch, &mut Vec::new(), &mut Visited::new());
        assert!(q == before, "the tests leave the position as they found it");
        (Some(ch), r, f)
    }

    /// `judge` on the position and on its colour-flipped twin (ranks mirrored): the same
    /// verdicts.
    fn judge_both(
        side: char,
        pieces: &[(char, &str)],
        steps: &[&str],
    ) -> (Reversal, Option<FreeCapture>) {
        let p = pos(side, pieces);
        let (_, r, f) = judge(&p, steps);
        let flip = |sq: &str| {
            let s = Square::parse(sq).unwrap().flip_rank();
            format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1)
        };
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let flipped_pieces: Vec<(char, String)> =
            pieces.iter().map(|&(c, s)| (swap(c), flip(s))).collect();
        let flipped_refs: Vec<(char, &str)> = flipped_pieces
            .iter()
            .map(|(c, s)| (*c, s.as_str()))
            .collect();
        let flipped_steps: Vec<String> = steps
            .iter()
            .map(|s| {
                let d = Direction::from_letter(s.chars().nth(2).unwrap()).unwrap();
                format!("{}{}", flip(&s[..2]), d.flip_rank().letter())
            })
            .collect();
        let flipped_refs_steps: Vec<&str> = flipped_steps.iter().map(String::as_str).collect();
        let q = pos(if side == 'g' { 's' } else { 'g' }, &flipped_refs);
        let (_, r2, f2) = judge(&q, &flipped_refs_steps);
        assert_eq!((r, f), (r2, f2), "colour symmetry");
        (r, f)
    }

    /// Whether the side to move can put back `start`'s board with one or two steps, by trying
    /// them all. A step that captures loses a piece for good, so every other step changes two
    /// squares of the board: farther than four squares from `start`, nothing is tried.
    fn restores_by_brute_force(start: &TurnBoard, pos: &mut Position) -> bool {
        if start.distance(pos) > 4 {
            return false;
        }
        let restored =
            |p: &Position| start.distance(p) == 0 && !matches!(p.pending(), Pending::Push { .. });
        let mut first = StepList::new();
        pos.legal_steps(&mut first);
        for &a in first.iter() {
            let ua = pos.play_step_unchecked(a);
            let mut found = restored(pos);
            let mut second = StepList::new();
            pos.legal_steps(&mut second);
            for &b in second.iter() {
                let ub = pos.play_step_unchecked(b);
                found |= restored(pos);
                pos.undo_step(b, ub);
            }
            pos.undo_step(a, ua);
            if found {
                return true;
            }
        }
        false
    }

    /// Every turn of positions from random games: a full reversal exactly where the opponent
    /// can put the board back in two steps, whatever the filters (two pieces, no capture, one
    /// of the opponent's) leave out.
    #[test]
    fn full_reversals_are_exactly_the_turns_undone_in_two_steps() {
        use tusk_engine::TurnGen;
        let (mut turns, mut full, mut partial) = (0usize, 0usize, 0usize);
        for seed in 0..4u64 {
            for p in tusk_tests::random_game(seed, 30)
                .into_iter()
                .skip(8)
                .step_by(7)
            {
                if tusk_engine::turn_boundary_result(&p).is_some() {
                    continue;
                }
                let start = TurnBoard::of(&p);
                TurnGen::new().for_each_turn(&p, &mut |t| {
                    let mut q = t.position.clone();
                    let expected = restores_by_brute_force(&start, &mut q);
                    let got = changes(&start, &q)
                        .map_or(Reversal::None, |c| reversal(&start, &mut q, &c).0);
                    assert_eq!(got == Reversal::Full, expected, "{p:?} then {:?}", t.turn());
                    turns += 1;
                    full += usize::from(got == Reversal::Full);
                    partial += usize::from(got == Reversal::Partial);
                });
            }
        }
        println!("{turns} turns: {full} undone, {partial} half undone");
        assert!(turns > 10_000, "{turns} turns");
        assert!(
            full > 0 && partial > 0,
            "{full} full, {partial} partial in {turns}"
        );
    }

    #[test]
    fn a_push_whose_pusher_steps_back_is_undone_in_one_step() {
        // Gold's elephant pushes the silver horse from d4 to e4 and steps back to d3: silver
        // steps the horse back and has three steps to spare.
        let pieces = [('E', "d3"), ('h', "d4"), ('R', "a2"), ('r', "h7")];
        let (r, f) = judge_both('g', &pieces, &["d4e", "d3n", "d4s"]);
        assert_eq!(r, Reversal::Full);
        assert_eq!(f, None);
        assert_eq!(penalty(Charges::SHARP, r, f, 8, false), 2_000);
    }

    #[test]
    fn a_pull_and_a_push_undone_in_two_steps_is_full() {
        // Gold's elephant pulls the horse from d5 to d4 and pushes it on to e4, ending where it
        // began: the horse (kept unfrozen by the rabbit on f4) walks back by e5 in two steps.
        let pieces = [('E', "d4"), ('h', "d5"), ('r', "f4"), ('R', "a2")];
        let (r, _) = judge_both('g', &pieces, &["d4s", "d5s", "d4e", "d3n"]);
        assert_eq!(r, Reversal::Full);
        // The same push where the elephant then walks on: the elephant's walk is not undone.
        let pieces = [('E', "d3"), ('h', "d4"), ('R', "a2"), ('r', "h7")];
        let (r, _) = judge_both('g', &pieces, &["d4e", "d3n", "d4n"]);
        assert_eq!(
            r,
            Reversal::None,
            "the elephant moved two squares and stays moved"
        );
    }

    #[test]
    fn a_pull_whose_piece_can_step_back_is_half_undone() {
        // Gold's elephant steps d4 to d3 and pulls the silver horse from d5 to d4; a silver
        // rabbit on e4 keeps the horse unfrozen, so it steps back, and the elephant stays.
        let pieces = [('E', "d4"), ('h', "d5"), ('r', "e4"), ('R', "a2")];
        let (r, f) = judge_both('g', &pieces, &["d4s", "d5s"]);
        assert_eq!(r, Reversal::Partial);
        assert_eq!(f, None);
        assert_eq!(penalty(Charges::SHARP, r, f, 8, true), 15);
        assert_eq!(penalty(Charges::SHARP, r, f, 8, false), 30);
        // Without the rabbit the pulled horse is frozen beside the elephant: not undone.
        let pieces = [('E', "d4"), ('h', "d5"), ('R', "a2"), ('r', "h7")];
        let (r, _) = judge_both('g', &pieces, &["d4s", "d5s"]);
        assert_eq!(r, Reversal::None);
    }

    #[test]
    fn own_moves_alone_are_not_reversible() {
        let pieces = [('E', "d3"), ('h', "d6"), ('R', "a2"), ('r', "h7")];
        let (r, f) = judge_both('g', &pieces, &["a2n"]);
        assert_eq!(r, Reversal::None);
        assert_eq!(f, None);
    }

    #[test]
    fn a_piece_walked_beside_an_unguarded_trap_is_a_free_capture() {
        // The gold horse walks b3-b6 beside trap c6, which nothing else of gold guards; the
        // silver elephant on b7 pushes it in with two steps.
        let pieces = [('H', "b3"), ('e', "b7"), ('R', "a2"), ('r', "h7")];
        let (r, f) = judge_both('g', &pieces, &["b3n", "b4n", "b5n"]);
        assert_eq!(r, Reversal::None);
        let f = f.expect("free capture");
        assert_eq!(f.other_steps, 0);
        assert_eq!(f.capture_steps, 2);
        assert_eq!(penalty(Charges::SHARP, r, Some(f), 4, false), 800);
        assert_eq!(penalty(Charges::SHARP, r, Some(f), 8, false), 300);
        // One more step spent elsewhere (the rabbit): still charged near the horizon only.
        let charge = |f, depth| penalty(Charges::SHARP, Reversal::None, Some(f), depth, false);
        let (_, f) = judge_both('g', &pieces, &["b3n", "b4n", "b5n", "a2n"]);
        let f = f.expect("free capture");
        assert_eq!(f.other_steps, 1);
        assert_eq!((charge(f, 4), charge(f, 8)), (600, 0));
        // Where the capture takes the whole turn (the elephant two squares from the horse),
        // the charge is smaller.
        let pieces = [('H', "b3"), ('e', "a8"), ('R', "a2"), ('r', "h7")];
        let (_, f) = judge_both('g', &pieces, &["b3n", "b4n", "b5n"]);
        let f = f.expect("free capture in four steps");
        assert_eq!(f.capture_steps, 4);
        assert_eq!((charge(f, 4), charge(f, 8)), (600, 150));
    }

    #[test]
    fn a_guarded_trap_or_a_piece_out_of_reach_is_no_free_capture() {
        // A gold dog on d6 guards c6 too: two guards, nothing to capture.
        let pieces = [
            ('H', "b3"),
            ('D', "d6"),
            ('e', "b7"),
            ('R', "a2"),
            ('r', "h7"),
        ];
        let (_, f) = judge_both('g', &pieces, &["b3n", "b4n", "b5n"]);
        assert_eq!(f, None);
        // The silver elephant far away: nothing pushes the horse in.
        let pieces = [('H', "b3"), ('e', "h8"), ('R', "a2"), ('r', "h7")];
        let (_, f) = judge_both('g', &pieces, &["b3n", "b4n", "b5n"]);
        assert_eq!(f, None);
        // A capture of another gold horse is not this turn's fault: the horse that moved
        // stands safe on a4, the one on b6 was there before.
        let pieces = [
            ('H', "a2"),
            ('H', "b6"),
            ('e', "b7"),
            ('R', "h2"),
            ('r', "h7"),
        ];
        let (_, f) = judge_both('g', &pieces, &["a2n", "a3n"]);
        assert_eq!(f, None);
    }

    #[test]
    fn captures_and_three_pieces_are_not_judged() {
        let pieces = [
            ('E', "d3"),
            ('h', "d4"),
            ('R', "a2"),
            ('R', "b2"),
            ('r', "h7"),
        ];
        let p = pos('g', &pieces);
        let (ch, r, f) = judge(&p, &["a2n", "b2n", "d4e", "d3n"]);
        assert_eq!(
            (ch, r, f),
            (None, Reversal::None, None),
            "three pieces moved"
        );
        // A capture: the silver horse pushed from c4 onto the unguarded trap c3.
        let pieces = [('E', "c5"), ('h', "c4"), ('R', "a2"), ('r', "h7")];
        let p = pos('g', &pieces);
        let (ch, _, _) = judge(&p, &["c4s", "c5s"]);
        assert_eq!(ch, None, "a capture");
    }
}
