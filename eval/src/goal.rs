//! The exact static goal detector: can the side to move put a rabbit on its goal rank within
//! the steps left in this turn, and in how few steps?
//!
//! It is a depth-first search over legal steps pruned by an admissible lower bound on the
//! steps any rabbit still needs, so it answers exactly what enumerating every turn would. Most
//! positions are rejected by the bound alone (no rabbit close enough), in a few nanoseconds.
//!
//! The bound for one rabbit is the larger of
//! * its distance to the goal rank, plus one if it is frozen (something else must move first);
//! * the cheapest path to the goal rank going forward or sideways, where entering an empty
//!   square costs one step, a square held by an own piece two (a step must vacate it first;
//!   a step vacates only its own square apart from a trap emptied by a capture, so traps cost
//!   one), and a square held by an enemy piece three (it moves only by a push, which refills
//!   the square with the pusher, or a pull, which takes two steps).

use crate::captures::Fruitless;
use tusk_engine::{
    Bitboard, Color, Direction, Pending, PieceKind, Position, Square, Step, StepList, StepMask,
    NEIGHBOURS,
};

/// The goal rank of `color`.
#[inline]
pub const fn goal_rank(color: Color) -> Bitboard {
    match color {
        Color::Gold => Bitboard::RANK_8,
        Color::Silver => Bitboard::RANK_1,
    }
}

/// The direction a rabbit of `color` advances in.
#[inline]
pub const fn forward(color: Color) -> Direction {
    match color {
        Color::Gold => Direction::North,
        Color::Silver => Direction::South,
    }
}

/// The squares at most `n` ranks from the goal rank of `color`.
#[inline]
pub const fn within_ranks_of_goal(color: Color, n: u8) -> Bitboard {
    if n >= 7 {
        return Bitboard::FULL;
    }
    match color {
        Color::Gold => Bitboard(!0u64 << (8 * (7 - n as u32))),
        Color::Silver => Bitboard((1u64 << (8 * (n as u32 + 1))) - 1),
    }
}

/// The squares a rabbit of `color` reaches in one forward or sideways step from `b`.
#[inline]
fn rabbit_moves(b: Bitboard, color: Color) -> Bitboard {
    b.shift(forward(color)) | b.shift(Direction::East) | b.shift(Direction::West)
}

/// The squares a rabbit of `color` on any of `starts` can reach in at most `n` forward or
/// sideways steps, whatever stands in its way.
#[inline]
fn path_reach(color: Color, starts: Bitboard, n: u8) -> Bitboard {
    let mut reach = starts;
    for _ in 0..n {
        reach |= rabbit_moves(reach, color);
    }
    reach
}

/// For each radius 0 .. 14, the squares within that many steps of each square.
const REACH_DISKS: [[Bitboard; 64]; 15] = {
    let mut out = [[Bitboard::EMPTY; 64]; 15];
    let mut r = 0;
    while r < 15 {
        out[r] = crate::trap_influence::disks(r as u8);
        r += 1;
    }
    out
};

/// The frozen ones of `color`'s rabbits `rabbits`: beside an enemy piece other than a rabbit
/// and beside no own piece (the rabbits' share of [`Position::frozen`], found with two
/// spreads instead of six).
#[inline]
fn frozen_rabbits(pos: &Position, color: Color, rabbits: Bitboard) -> Bitboard {
    let enemy_officers = pos.occupied_by(!color) - pos.pieces_of(!color, PieceKind::Rabbit);
    (rabbits & enemy_officers.neighbours()) - pos.occupied_by(color).neighbours()
}

/// What entering each square costs a rabbit of one side on its way to goal.
///
/// An empty square or a trap costs 1; a square held by an own piece 2 (one step must vacate
/// it first); a square held by an enemy piece 3 (only a push or pull moves it: a pull takes
/// two steps, a push refills the square with the pusher, which must move on). While a pull is
/// open, the enemy pieces it could take cost 2. An enemy piece with no stronger own piece
/// within `limit - 2` squares cannot be moved in time at all (the attacker must first come
/// next to it, and the rabbit must still step in): its square is barred.
struct PathCosts {
    cheap: Bitboard,
    dear: Bitboard,
    dearer: Bitboard,
    /// The squares of own pieces (off the traps).
    own: Bitboard,
}

impl PathCosts {
    /// The costs for `color`'s rabbits `starts` on paths costing at most `path_limit`, the
    /// enemy pieces counted movable by own stronger pieces within `limit - 2` squares.
    /// `dearer` is found only where such a path could use it: a square entered by the j-th
    /// move of a path costs at least `j - 1` before it, so one costing 2 or 3 (3 for an enemy
    /// piece; 2 beside a frozen rabbit, whose bound pays one more) is used only `path_limit - 2`
    /// moves from the starts or nearer.
    #[inline(always)]
    fn new(pos: &Position, color: Color, limit: u8, starts: Bitboard, path_limit: u8) -> PathCosts {
        let own = pos.occupied_by(color) - Bitboard::TRAPS;
        let enemy = pos.occupied_by(!color) - Bitboard::TRAPS;
        let pullable = match pos.pending() {
            Pending::Pull { square, puller } if pos.side() == color => {
                enemy & NEIGHBOURS[square.index()] & pos.weaker_than(!color, puller)
            }
            _ => Bitboard::EMPTY,
        };
        let mut movable = Bitboard::EMPTY;
        if limit >= 3 {
            // The enemy pieces a path can use (never the elephant: nothing is stronger),
            // each movable when an own stronger piece stands within `limit - 2` squares.
            let candidates = (enemy - pullable - pos.pieces_of(!color, PieceKind::Elephant))
                & path_reach(color, starts, path_limit.saturating_sub(2));
            if candidates.any() {
                let disks = &REACH_DISKS[usize::from(limit - 2).min(REACH_DISKS.len() - 1)];
                for sq in candidates {
                    let Some(piece) = pos.piece_at(sq) else {
                        continue;
                    };
                    if (pos.stronger_than(color, piece.kind()) & disks[sq.index()]).any() {
                        movable |= Bitboard::from_square(sq);
                    }
                }
            }
        }
        PathCosts {
            cheap: !(own | enemy),
            dear: own | pullable,
            dearer: (enemy & movable) - pullable,
            own,
        }
    }

    /// The cheapest path cost from any of the rabbits `starts` of `color` to its goal rank,
    /// or `limit + 1` if above `limit`.
    fn path_bound(&self, color: Color, starts: Bitboard, limit: u8) -> u8 {
        path_cost(color, starts, [self.cheap, self.dear, self.dearer], limit)
    }

    /// A lower bound for the frozen rabbit on `sq`: one step must free it before it moves,
    /// and that step is none of the steps its path needs, except that it may vacate a path
    /// square at the same time (an enemy freezer beside it dislodged, an open pull taking
    /// one, or an own piece two squares away stepping next to it): those squares cost one
    /// less.
    fn frozen_bound(&self, color: Color, sq: Square, limit: u8) -> u8 {
        if limit == 0 {
            return 1;
        }
        let n1 = NEIGHBOURS[sq.index()];
        let n2 = n1.neighbours() - n1 - Bitboard::from_square(sq);
        let pullable = self.dear - self.own;
        let easier = (pullable & n1) | (self.own & n2);
        let cheap = self.cheap | easier;
        let dear = (self.dear - easier) | (self.dearer & n1);
        let dearer = self.dearer - n1;
        1 + path_cost(
            color,
            Bitboard::from_square(sq),
            [cheap, dear, dearer],
            limit - 1,
        )
    }

    /// A lower bound on the steps `color` needs to bring one of its rabbits `near` to goal,
    /// `frozen` being its frozen pieces, or `limit + 1` if above `limit`. For an unfrozen
    /// rabbit the path cost is at least its distance; a frozen one needs at least its
    /// distance plus one (something else must move first) and its path cost.
    #[inline(always)]
    fn bound(&self, color: Color, near: Bitboard, frozen: Bitboard, limit: u8) -> u8 {
        let mut best = limit + 1;
        let free = near - frozen;
        if free.any() {
            best = self.path_bound(color, free, limit);
        }
        for sq in near & frozen {
            if best <= 1 {
                break;
            }
            let cap = (best - 1).min(limit);
            if sq.ranks_to_goal(color) < cap {
                best = best.min(self.frozen_bound(color, sq, cap));
            }
        }
        best.min(limit + 1)
    }
}

/// The cheapest cost from `starts` to the goal rank of `color` stepping forward or sideways,
/// entering squares of `costs[0]` for 1, `costs[1]` for 2 and `costs[2]` for 3 (others are
/// barred), or `limit + 1` if above `limit`.
fn path_cost(color: Color, starts: Bitboard, costs: [Bitboard; 3], limit: u8) -> u8 {
    let goal = goal_rank(color);
    // prev: squares a rabbit can stand on after paying at most c - 1; moves, moves2, moves3:
    // the squares one step from where it stands after paying c - 1, c - 2 and c - 3 (each
    // spread once, when it is new).
    let mut prev = starts;
    let mut moves2 = Bitboard::EMPTY;
    let mut moves3 = Bitboard::EMPTY;
    for c in 1..=limit {
        let moves = rabbit_moves(prev, color);
        let cur = prev | (moves & costs[0]) | (moves2 & costs[1]) | (moves3 & costs[2]);
        if (cur & goal).any() {
            return c;
        }
        moves3 = moves2;
        moves2 = moves;
        prev = cur;
    }
    limit + 1
}

/// A lower bound on the steps the side to move needs to reach goal (`limit + 1` if above).
pub fn goal_bound(pos: &Position, limit: u8) -> u8 {
    bound_with_reach(pos, limit, limit)
}

/// A lower bound (`limit + 1` if above) on the steps the side to move needs to reach goal
/// with `limit` steps left, in every position one step off [`bound_zone`]`(pos, n)` away from
/// `pos` for any `n > limit` (the zone only grows with `n`), computed once for all of them.
///
/// Such a step moves no near rabbit and nothing on or beside the squares their paths can
/// cross, so it changes no path square's occupant, no near rabbit's freezing, no capture on a
/// trap there, and opens no pull of a piece there; it can only bring a stronger own piece one
/// square closer to an enemy piece on a path (or take one away, or consume an open pull, which
/// only raise the bound). So this is the bound of `limit` with the stronger pieces' reach
/// spread one square further (`PathCosts` of `limit + 1`), which is at most the bound of each
/// such child.
fn off_zone_bound(pos: &Position, limit: u8) -> u8 {
    bound_with_reach(pos, limit, limit + 1)
}

/// The side to move's rabbits within `limit` ranks of goal, the only ones its goal bound of
/// `limit` looks at; `Err` with the bound itself where none need looking at (0: a rabbit
/// already on goal; `limit + 1`: none near).
#[inline]
fn near_rabbits(pos: &Position, limit: u8) -> Result<Bitboard, u8> {
    let us = pos.side();
    let rabbits = pos.pieces_of(us, PieceKind::Rabbit);
    if (rabbits & goal_rank(us)).any() {
        return Err(0);
    }
    let near = rabbits & within_ranks_of_goal(us, limit);
    if near.is_empty() {
        return Err(limit + 1);
    }
    Ok(near)
}

/// The goal bound of `limit` (`limit + 1` if above), the enemy pieces on the rabbits' paths
/// counted movable by the own stronger pieces within `reach_limit - 2` squares of them.
#[inline]
fn bound_with_reach(pos: &Position, limit: u8, reach_limit: u8) -> u8 {
    let us = pos.side();
    let near = match near_rabbits(pos, limit) {
        Ok(near) => near,
        Err(bound) => return bound,
    };
    let costs = PathCosts::new(pos, us, reach_limit, near, limit);
    costs.bound(us, near, frozen_rabbits(pos, us, near), limit)
}

/// Whether the side to move can goal with its next single step.
#[inline]
fn goal_in_one(pos: &Position) -> bool {
    if pos.steps_left() == 0 || matches!(pos.pending(), Pending::Push { .. }) {
        return false;
    }
    let us = pos.side();
    let goal = goal_rank(us);
    let runners = pos.pieces_of(us, PieceKind::Rabbit) - pos.frozen(us);
    (runners.shift(forward(us)) & goal & pos.empty_squares()).any()
}

/// The squares a step must touch to lower the goal bound of the side to move, with
/// `remaining` steps left before it, to at most `remaining - 1` after it: for every rabbit
/// within `remaining` ranks of goal, its neighbours and the squares it could cross (forward or
/// sideways, ignoring occupancy) in `remaining - 2` moves.
///
/// A path in the `remaining - 1` steps left after the step crosses squares within
/// `remaining - 1` moves of its rabbit (a rabbit that moves is itself in the zone). A square
/// its j-th move enters costs at most `remaining - j` (each earlier move costs one or more),
/// so the farthest squares it enters only when they cost one: empty (or a trap), and a step
/// empties one only by leaving it, from a square beside the zone; a square costing more (an
/// own or enemy piece, one open to a pull) counts only `remaining - 2` moves out or nearer.
/// Otherwise the bound of `remaining - 1` depends only on the pieces there, on pieces beside
/// the square of an open pull, and on captures on traps there; so a step whose origin is not
/// in or beside this zone and whose destination is not in it leaves that bound unchanged,
/// bar the reach of the stronger pieces ([`off_zone_bound`]).
fn bound_zone(pos: &Position, remaining: u8) -> Bitboard {
    let us = pos.side();
    let near = pos.pieces_of(us, PieceKind::Rabbit) & within_ranks_of_goal(us, remaining);
    path_reach(us, near, remaining.saturating_sub(2)) | near.neighbours()
}

/// The steps that touch [`bound_zone`]`(pos, remaining)`: those starting in or beside it or
/// ending in it. Every other step is off the zone (see [`off_zone_bound`]).
#[derive(Clone, Copy)]
struct ZoneSteps {
    from: Bitboard,
    to: Bitboard,
}

impl ZoneSteps {
    #[inline]
    fn of(pos: &Position, remaining: u8) -> ZoneSteps {
        let z = bound_zone(pos, remaining);
        ZoneSteps {
            from: z | z.neighbours(),
            to: z,
        }
    }

    /// The mask that asks the step generator for these steps.
    #[inline]
    fn mask(self) -> StepMask {
        StepMask::touching(self.from, self.to)
    }

    /// Whether `step` touches the zone.
    #[inline]
    fn touches(self, step: Step) -> bool {
        self.from.contains(step.from()) || self.to.contains(step.to())
    }
}

/// Whether a goal is reachable in at most `remaining` steps, given that `bound` (at most
/// `remaining`) is a lower bound on the steps to goal here (the goal bound, or
/// [`off_zone_bound`] after a step off the zone). `fruitless` remembers nodes already
/// refuted. Each node visited takes one of `nodes`; once none is left every search answers
/// false at once (the caller must then treat a false answer as unknown).
fn search<T: Trace>(
    pos: &mut Position,
    remaining: u8,
    bound: u8,
    fruitless: &mut Fruitless,
    nodes: &mut u32,
    trace: &mut T,
) -> bool {
    if *nodes == 0 {
        return false;
    }
    *nodes -= 1;
    if remaining == 1 {
        if !goal_in_one(pos) {
            return false;
        }
        if T::RECORDS {
            trace.add(goal_in_one_squares(pos));
        }
        return true;
    }
    if fruitless.contains(pos, remaining) {
        return false;
    }
    let us = pos.side();
    let mut steps = StepList::new();
    // With no slack every step must lower the bound, so it must touch the zone; with slack,
    // the steps touching it are tried first.
    let zone = ZoneSteps::of(pos, remaining);
    let passes: &[bool] = if bound == remaining {
        &[true]
    } else {
        &[true, false]
    };
    for &relevant in passes {
        // The steps off the zone share one bound, known before any is played.
        let off_bound = if relevant {
            None
        } else {
            let b = off_zone_bound(pos, remaining - 1);
            if b >= remaining {
                break;
            }
            Some(b)
        };
        if relevant {
            pos.legal_steps_touching(zone.mask(), &mut steps);
        } else {
            pos.legal_steps(&mut steps);
        }
        for &step in steps.iter() {
            if !relevant && zone.touches(step) {
                continue;
            }
            let undo = pos.play_step_unchecked(step);
            let found = pos.rabbit_on_goal(us) || {
                let b = off_bound.unwrap_or_else(|| goal_bound(pos, remaining - 1));
                b < remaining && search(pos, remaining - 1, b, fruitless, nodes, trace)
            };
            pos.undo_step(step, undo);
            if found {
                if T::RECORDS {
                    trace
                        .add(Bitboard::from_square(step.from()) | Bitboard::from_square(step.to()));
                }
                return true;
            }
        }
    }
    if *nodes > 0 {
        fruitless.insert(pos, remaining);
    }
    false
}

/// The fewest steps (at most `remaining`) to a goal, or `remaining + 1` if there is none, given
/// that `bound` (at most `remaining`) is a lower bound on the steps to goal here (as for
/// [`search`]). One depth-first search that narrows its budget whenever it finds a goal,
/// instead of one search per length. `fruitless` remembers nodes refuted with their whole
/// budget.
fn search_min(pos: &mut Position, remaining: u8, bound: u8, fruitless: &mut Fruitless) -> u8 {
    if remaining == 1 {
        return if goal_in_one(pos) { 1 } else { 2 };
    }
    if fruitless.contains(pos, remaining) {
        return remaining + 1;
    }
    let us = pos.side();
    let mut steps = StepList::new();
    let zone = ZoneSteps::of(pos, remaining);
    // The fewest steps found so far, plus one (`remaining + 1`: none yet).
    let mut best = remaining + 1;
    // The bound shared by the children off the zone, for the budget it was computed for.
    let mut off_bound: Option<(u8, u8)> = None;
    for relevant in [true, false] {
        // A step off the zone leaves the bound as it is, so it helps only with slack left.
        if !relevant && bound + 1 >= best {
            break;
        }
        if relevant {
            pos.legal_steps_touching(zone.mask(), &mut steps);
        } else {
            pos.legal_steps(&mut steps);
        }
        for &step in steps.iter() {
            if !relevant && zone.touches(step) {
                continue;
            }
            // Only goals in fewer than `best - 1` steps after this one improve on `best`.
            let budget = best - 2;
            let shared = if relevant || budget == 0 {
                None
            } else {
                let b = match off_bound {
                    Some((for_budget, b)) if for_budget == budget => b,
                    _ => off_zone_bound(pos, budget),
                };
                off_bound = Some((budget, b));
                if b > budget {
                    // No step off the zone can lead to a shorter goal.
                    break;
                }
                Some(b)
            };
            let undo = pos.play_step_unchecked(step);
            let found = if pos.rabbit_on_goal(us) {
                Some(1)
            } else if budget == 0 {
                None
            } else if budget == 1 {
                // The bound admits every goal in one step, so the single step decides.
                goal_in_one(pos).then_some(2)
            } else {
                let b = shared.unwrap_or_else(|| goal_bound(pos, budget));
                if b <= budget {
                    let r = search_min(pos, budget, b, fruitless);
                    (r <= budget).then_some(r + 1)
                } else {
                    None
                }
            };
            pos.undo_step(step, undo);
            if let Some(n) = found {
                best = n;
                if best <= bound.max(1) {
                    return best;
                }
            }
        }
    }
    if best > remaining {
        fruitless.insert(pos, remaining);
    }
    best
}

/// The fewest steps (1..=steps left) with which the side to move can end its turn with one of
/// its rabbits on the goal rank, or `None` if it cannot this turn. `Some(0)` if a rabbit of
/// the side to move already stands on goal. Exact: it agrees with enumerating every turn.
/// Allocation-free; copies the position once (see [`goal_in_mut`], which does not).
pub fn goal_in(pos: &Position) -> Option<u8> {
    goal_in_mut(&mut pos.clone())
}

/// [`goal_in`] searching on `pos` itself, which it leaves exactly as it found it.
pub fn goal_in_mut(pos: &mut Position) -> Option<u8> {
    let limit = pos.steps_left();
    let lower = goal_bound(pos, limit);
    if lower == 0 {
        return Some(0);
    }
    if lower > limit {
        return None;
    }
    let steps = search_min(pos, limit, lower, &mut Fruitless::new());
    (steps <= limit).then_some(steps)
}

/// Whether the side to move can goal this turn ([`goal_in`] is `Some`), by one depth-first
/// search over the steps left that stops at the first goal it finds (the steps near the
/// rabbits' paths first). Exact; allocation-free; copies the position once (see
/// [`can_goal_mut`]).
pub fn can_goal(pos: &Position) -> bool {
    can_goal_mut(&mut pos.clone())
}

/// [`can_goal`] searching on `pos` itself, which it leaves exactly as it found it.
pub fn can_goal_mut(pos: &mut Position) -> bool {
    can_goal_within(pos, u32::MAX) == Some(true)
}

/// [`can_goal_mut`] with at most `nodes` nodes of search: `Some(answer)` when the search ends
/// within them (exact), `None` when it does not. A goal found is always real; only "no goal"
/// needs the whole search. Most positions take a handful of nodes; a side with several
/// rabbits one or two steps from goal behind its own pieces can take tens of thousands, which
/// is too many for a term of the evaluation (see [`crate::NextTurnThreat`]).
pub fn can_goal_within(pos: &mut Position, nodes: u32) -> Option<bool> {
    let limit = pos.steps_left();
    let lower = goal_bound(pos, limit);
    if lower == 0 {
        return Some(true);
    }
    if lower > limit {
        return Some(false);
    }
    let mut fruitless = Fruitless::new();
    let mut left = nodes;
    // One search with the whole budget: it finds a goal of any length up to `limit`, and a
    // deepening from `lower` spent more instructions (see the eval README, Speed).
    if search(pos, limit, lower, &mut fruitless, &mut left, &mut NoTrace) {
        return Some(true);
    }
    (left > 0).then_some(false)
}

/// The squares one goal of the side to move uses this turn: the origin and destination of
/// every step of the first goal [`can_goal_within`]'s search finds. A turn of the other side
/// that leaves every piece on these squares, on their neighbours and beside the traps among
/// them where it found them cannot stop that goal (see [`refutation_region`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoalSquares(pub Bitboard);

/// [`can_goal_within`] that also says where its goal goes: `Some(Some(squares))` with the
/// squares of the goal found ([`GoalSquares`]), `Some(None)` when there is no goal, `None`
/// when the search ran out of its `nodes` first. A rabbit already on goal gives the empty set.
pub fn goal_squares_within(pos: &mut Position, nodes: u32) -> Option<Option<GoalSquares>> {
    let limit = pos.steps_left();
    let lower = goal_bound(pos, limit);
    if lower == 0 {
        return Some(Some(GoalSquares(
            pos.pieces_of(pos.side(), PieceKind::Rabbit) & goal_rank(pos.side()),
        )));
    }
    if lower > limit {
        return Some(None);
    }
    let mut fruitless = Fruitless::new();
    let mut left = nodes;
    let mut squares = SquareTrace(Bitboard::EMPTY);
    if search(pos, limit, lower, &mut fruitless, &mut left, &mut squares) {
        return Some(Some(GoalSquares(squares.0)));
    }
    (left > 0).then_some(None)
}

/// Where a turn of the side not to move must change something to stop the goal whose squares
/// are `goal`: those squares and their neighbours (a piece beside a step's origin freezes or
/// unfreezes the piece that steps, a piece on a destination blocks it), and the neighbours of
/// every trap among them (a guard beside a trap decides what a step next to it captures). A
/// turn whose steps change no square of this region leaves every step of that goal legal, with
/// the same captures, so the goal still stands.
pub fn refutation_region(goal: GoalSquares) -> Bitboard {
    let near = goal.0 | goal.0.neighbours();
    let traps = near & Bitboard::TRAPS;
    near | traps.neighbours()
}

/// What the goal search notes of the goal it finds: nothing ([`NoTrace`], the detector's own
/// use, compiled away), or its squares ([`SquareTrace`]).
trait Trace {
    /// Whether this trace records anything (false: the calls are never made).
    const RECORDS: bool;
    /// Adds squares a step of the goal found uses.
    fn add(&mut self, squares: Bitboard);
}

/// The detector's trace: records nothing.
struct NoTrace;

impl Trace for NoTrace {
    const RECORDS: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Bitboard) {}
}

/// The squares of the goal found.
struct SquareTrace(Bitboard);

impl Trace for SquareTrace {
    const RECORDS: bool = true;
    #[inline]
    fn add(&mut self, squares: Bitboard) {
        self.0 |= squares;
    }
}

/// The squares of one goal in one step ([`goal_in_one`] true): a rabbit that can step onto the
/// goal rank, and the goal square it steps to.
fn goal_in_one_squares(pos: &Position) -> Bitboard {
    let us = pos.side();
    let runners = pos.pieces_of(us, PieceKind::Rabbit) - pos.frozen(us);
    let to = runners.shift(forward(us)) & goal_rank(us) & pos.empty_squares();
    match to.first() {
        Some(sq) => {
            let t = Bitboard::from_square(sq);
            t | t.shift(forward(us).opposite())
        }
        None => Bitboard::EMPTY,
    }
}

/// Rabbits of `color` that could reach goal in one full turn if nothing moved against them
/// (the lower bound of [`goal_in`] is at most 4): a cheap measure of goal pressure.
pub fn goal_pressure(pos: &Position, color: Color) -> Bitboard {
    let rabbits = pos.pieces_of(color, PieceKind::Rabbit) & within_ranks_of_goal(color, 4);
    let mut out = Bitboard::EMPTY;
    if rabbits.is_empty() {
        return out;
    }
    let frozen = frozen_rabbits(pos, color, rabbits);
    let costs = PathCosts::new(pos, color, 4, rabbits, 4);
    // The bound of several rabbits is the least of theirs: one test rejects them all.
    if rabbits.count() > 1 && costs.bound(color, rabbits, frozen, 4) > 4 {
        return out;
    }
    for sq in rabbits {
        if costs.bound(color, Bitboard::from_square(sq), frozen, 4) <= 4 {
            out |= Bitboard::from_square(sq);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use rand::{rngs::SmallRng, SeedableRng};

    /// Calls `check(position, n, i)` on the fixtures and `boards` random sparse boards (rabbits
    /// anywhere, from `seed`), each in both colours, at each step `i` of a turn (`n` numbers
    /// the board); `check` must leave the position as it found it.
    fn each_position_of_a_turn(
        seed: u64,
        boards: usize,
        mut check: impl FnMut(&mut Position, usize, usize),
    ) {
        let mut positions = tusk_tests::fixture_positions();
        let mut rng = SmallRng::seed_from_u64(seed);
        positions.extend((0..boards).map(|_| tusk_tests::random_board(&mut rng, true)));
        let mut walk = StepList::new();
        for (n, start) in positions.iter().enumerate() {
            for mut p in [start.clone(), start.flip()] {
                for i in 0..4 {
                    check(&mut p, n, i);
                    crate::test_util::walk_step(&mut p, n + i, &mut walk);
                }
            }
        }
    }

    /// `off_zone_bound` is at most the goal bound of every child reached by a step off the
    /// zone, for every bound limit the searches ask it for (the search's `remaining - 1` and
    /// `goal_in`'s smaller budgets), on the fixtures and on random sparse boards (rabbits
    /// anywhere), both colours, at each step of the turn.
    #[test]
    fn the_off_zone_bound_is_at_most_every_off_zone_childs_bound() {
        // Children checked, those whose own bound is within the limit, and of those the ones
        // where the shared bound is as tight.
        let (mut children, mut within, mut equal) = (0u32, 0u32, 0u32);
        let mut steps = StepList::new();
        each_position_of_a_turn(27, 3_000, |p, n, _| {
            let remaining = p.steps_left();
            if remaining >= 2 && !p.rabbit_on_goal(p.side()) {
                let zone = ZoneSteps::of(p, remaining);
                p.legal_steps(&mut steps);
                for &step in steps.iter() {
                    if zone.touches(step) {
                        continue;
                    }
                    let mut child = p.clone();
                    child.play_step_unchecked(step);
                    for limit in 1..remaining {
                        let shared = off_zone_bound(p, limit);
                        let own = goal_bound(&child, limit);
                        assert!(
                            shared <= own,
                            "position {n}, step {step:?}, limit {limit}: shared {shared} > {own}"
                        );
                        children += 1;
                        if own <= limit {
                            within += 1;
                            equal += u32::from(shared == own);
                        }
                    }
                }
            }
        });
        // The check must have met many children with a goal in reach, and there the shared
        // bound should be as tight as their own (it was in all 89,644 when written).
        assert!(
            within > 10_000,
            "{children} children, {within} within the limit"
        );
        assert!(equal * 10 >= within * 9, "{equal} of {within} as tight");
    }

    /// The goal bound as it was first written: the enemy pieces made dearer wherever they
    /// stand (own stronger pieces spread `reach_limit - 2` squares, kind by kind) and the
    /// rabbits' freezing read from [`Position::frozen`].
    fn bound_by_spreading(pos: &Position, limit: u8, reach_limit: u8) -> u8 {
        let us = pos.side();
        let near = match near_rabbits(pos, limit) {
            Ok(near) => near,
            Err(bound) => return bound,
        };
        let mut costs = PathCosts::new(pos, us, 0, near, limit);
        if reach_limit >= 3 {
            let enemy = pos.occupied_by(!us) - Bitboard::TRAPS;
            let mut movable = Bitboard::EMPTY;
            let mut stronger = Bitboard::EMPTY;
            for k in (0..PieceKind::NUM - 1).rev() {
                stronger |= pos.pieces_of(us, PieceKind::from_index(k + 1));
                let mut reach = stronger;
                for _ in 0..reach_limit - 2 {
                    reach |= reach.neighbours();
                }
                movable |= pos.pieces_of(!us, PieceKind::from_index(k)) & reach;
            }
            let pullable = costs.dear - costs.own;
            costs.dearer = (enemy & movable) - pullable;
        }
        costs.bound(us, near, pos.frozen(us), limit)
    }

    /// The goal bound with the dearer squares found only where a path can go, and the
    /// rabbits' freezing found by [`frozen_rabbits`], equals [`bound_by_spreading`] for every
    /// limit and reach the searches use, on the fixtures and random sparse boards, both
    /// colours, at each step of the turn.
    #[test]
    fn the_goal_bound_equals_the_bound_by_spreading() {
        let (mut checked, mut dearer_used) = (0u32, 0u32);
        each_position_of_a_turn(31, 3_000, |p, n, i| {
            let us = p.side();
            let rabbits = p.pieces_of(us, PieceKind::Rabbit);
            assert_eq!(
                frozen_rabbits(p, us, rabbits),
                p.frozen(us) & rabbits,
                "position {n}, step {i}"
            );
            for limit in 1..=4 {
                for reach_limit in [limit, limit + 1] {
                    let fast = bound_with_reach(p, limit, reach_limit);
                    let slow = bound_by_spreading(p, limit, reach_limit);
                    assert_eq!(
                        fast, slow,
                        "position {n}, step {i}, limits {limit} {reach_limit}"
                    );
                    checked += 1;
                    let near = rabbits & within_ranks_of_goal(us, limit);
                    dearer_used += u32::from(
                        slow <= limit
                            && PathCosts::new(p, us, reach_limit, near, limit).dearer.any(),
                    );
                }
            }
        });
        assert!(checked > 100_000, "{checked} bounds checked");
        assert!(
            dearer_used > 1_000,
            "only {dearer_used} bounds with movable enemy pieces on a path"
        );
    }

    #[test]
    fn open_file_goal_in_two() {
        let p = pos("g", &[("R", "d6"), ("r", "a8"), ("E", "a1"), ("e", "h8")]);
        assert_eq!(goal_in(&p), Some(2));
        assert_eq!(goal_in(&p.flip()), Some(2));
    }

    #[test]
    fn blocked_rabbit_needs_more_steps_or_cannot() {
        // A silver elephant in front freezes the lone rabbit.
        let p = pos("g", &[("R", "d6"), ("e", "d7"), ("r", "a8"), ("E", "a1")]);
        assert_eq!(
            goal_in(&p),
            None,
            "the rabbit is frozen by the elephant and alone"
        );
        // An own dog in front: step round it or move it aside, three steps either way.
        let q = pos(
            "g",
            &[
                ("R", "d6"),
                ("D", "d7"),
                ("r", "a8"),
                ("E", "a1"),
                ("e", "h8"),
            ],
        );
        assert_eq!(goal_bound(&q, 4), 3);
        assert_eq!(goal_in(&q), Some(3));
    }

    #[test]
    fn seed_diagram_gold_wins_in_three() {
        // The rules walk-through: gold's dog a6 pushes the rabbit a7 to a8 and unfreezes b7.
        assert_eq!(goal_in(&crate::test_util::seed_diagram("g")), Some(3));
    }

    #[test]
    fn a_bounded_search_is_exact_within_its_nodes_and_unknown_beyond() {
        // Gold's position of a real game (34g): rabbits on b7 and a5 behind its own pieces.
        // Silver passing, gold to move: no goal, but the search needs thousands of nodes.
        let mut p = tusk_engine::notation::board::parse_aei(
            "g [rHr     rRmMcr  De r  r R E   r   rC D        dC RR  R R        ]",
        )
        .unwrap();
        let exact = can_goal(&p);
        assert_eq!(can_goal_within(&mut p, u32::MAX), Some(exact));
        assert_eq!(can_goal_within(&mut p, 1), None);
        // A goal in two on an open file is found within a few nodes.
        let mut open = pos("g", &[("R", "d6"), ("r", "a8"), ("E", "a1"), ("e", "h8")]);
        assert_eq!(can_goal_within(&mut open, 8), Some(true));
        // The opening is rejected by the bound alone, with no node at all.
        assert_eq!(
            can_goal_within(&mut crate::test_util::opening(), 0),
            Some(false)
        );
    }

    #[test]
    fn far_rabbits_are_rejected_by_the_bound() {
        let p = crate::test_util::opening();
        assert_eq!(goal_bound(&p, 4), 5);
        assert_eq!(goal_in(&p), None);
    }

    /// The squares of the goal found agree with the detector (a goal exactly where it finds
    /// one) and hold a rabbit of the side to move and a goal square, on the fixtures and
    /// random sparse boards, both colours, at each step of the turn.
    #[test]
    fn the_goal_squares_agree_with_the_detector() {
        let (mut goals, mut none) = (0u32, 0u32);
        each_position_of_a_turn(57, 2_000, |p, n, i| {
            let before = p.clone();
            let squares = goal_squares_within(p, u32::MAX);
            assert_eq!(*p, before, "position {n}, step {i}: left unchanged");
            let detector = can_goal_within(p, u32::MAX);
            assert_eq!(
                squares.map(|s| s.is_some()),
                detector,
                "position {n}, step {i}"
            );
            match squares {
                Some(Some(GoalSquares(sq))) => {
                    let us = p.side();
                    assert!((sq & goal_rank(us)).any(), "position {n}, step {i}");
                    assert!(
                        (sq & p.pieces_of(us, PieceKind::Rabbit)).any(),
                        "position {n}, step {i}"
                    );
                    goals += 1;
                }
                _ => none += 1,
            }
        });
        assert!(goals > 500 && none > 500, "{goals} goals, {none} without");
    }

    /// Whatever the side not to move does with one or two steps that leave every piece of a
    /// goal's refutation region where it was, the goal still stands once its turn ends: the
    /// claim the goal-defence walk rests on. On the turn starts of seeded random games where
    /// the opponent would have a goal were the turn to end at once.
    #[test]
    fn a_turn_off_the_refutation_region_leaves_the_goal() {
        let mut checked = 0u32;
        let mut threatened = 0u32;
        let mut first = StepList::new();
        let mut second = StepList::new();
        let same_in = |a: &Position, b: &Position, region: Bitboard| {
            Color::ALL.iter().all(|&c| {
                PieceKind::ALL
                    .iter()
                    .all(|&k| (a.pieces_of(c, k) & region) == (b.pieces_of(c, k) & region))
            })
        };
        let still_goals = |q: &Position| {
            let mut e = q.clone();
            e.end_turn();
            can_goal(&e)
        };
        for seed in 0..40 {
            for p in tusk_tests::random_game(seed, 120) {
                if !p.at_turn_start() {
                    continue;
                }
                let mut e = p.clone();
                e.end_turn();
                let Some(Some(goal)) = goal_squares_within(&mut e, u32::MAX) else {
                    continue;
                };
                threatened += 1;
                let region = refutation_region(goal);
                p.legal_steps(&mut first);
                for &a in first.as_slice() {
                    let mut q = p.clone();
                    q.play_step_unchecked(a);
                    if q.can_end_turn() && same_in(&p, &q, region) {
                        assert!(still_goals(&q), "seed {seed}: {a:?}");
                        checked += 1;
                    }
                    q.legal_steps(&mut second);
                    for &b in second.as_slice() {
                        let mut r = q.clone();
                        r.play_step_unchecked(b);
                        if r.can_end_turn() && same_in(&p, &r, region) {
                            assert!(still_goals(&r), "seed {seed}: {a:?} {b:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(threatened >= 20, "{threatened} threatened turn starts");
        assert!(checked > 10_000, "{checked} turns checked");
    }
}
