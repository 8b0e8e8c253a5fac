//! One search thread's alpha-beta over node moves (steps, two-step pushes and pulls, passes):
//! negamax that flips the sign only where the side to move changes, principal-variation search,
//! the transposition table, null move at turn starts, late-move reductions, goal-threat
//! extension and pruning, and the rules inside the tree (a turn must change the board; a turn
//! making a third occurrence of a board is not played; the official end checks at every turn
//! boundary, and the exact goal detector there).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use tusk_engine::{turn_boundary_result, Bitboard, Pending, PieceKind, Position, StepList};
use tusk_eval::capture_defences::CaptureDefence;
use tusk_eval::capture_moves::{CaptureMove, Visited};
use tusk_eval::{goal, WIN, WIN_THRESHOLD};

use crate::caches::{GoalAnswer, PositionCaches, Verdict, ONE_OFF_CACHE_BITS};
use crate::commute::redundant_order;
use crate::control::Control;
use crate::goal_defence::{Defence, DefenceWalk, ShortestDefence, GOAL_NODES};
use crate::moves::{generate, Scored};
use crate::node_move::NodeMove;
use crate::ordering::{capture_gain, grow, near_goal, pick, threat_region, touches, MoveHistory};
use crate::params::Params;
use crate::score::Score;
use crate::tree_captures::SequenceNode;
use crate::tree_tactics::TacticMove;
use crate::tt::{Bound, Tt};
use crate::waste::{self, TurnBoard};

/// Larger than any score.
pub(crate) const INF: i32 = Score::WIN + 1;
/// Deepest node height (node moves from the root) the search goes.
pub(crate) const MAX_HEIGHT: usize = 160;
/// Nodes between two looks at the clock and the stop flag.
const POLL_NODES: u64 = 256;

/// Capture-move generator steps charged as one searched node (`capmoves`, `exchange`). The
/// bench at depth 7 with capture moves (one run, the idle host) searched 1,592,422 nodes and
/// played 19,089,502 generator steps in 7.47 s, against 1,261,712 nodes in 4.49 s without:
/// about 95 ns a generator step against 3.6 µs a node, so 37 steps cost a node's time; 32 is
/// the power of two below. With it a node limit charges the feature what it costs in time.
pub(crate) const GENERATOR_STEPS_PER_NODE: u32 = 32;

/// One call of the exact capture detector, in generator steps: about a quarter of a node's
/// work (a judged board of the capture-defence generator, the threat question of
/// `tdefence` and `cthreat`).
pub(crate) const DETECTOR_STEPS: u32 = GENERATOR_STEPS_PER_NODE / 4;

/// The game's history for the repetition rule: every board key that stood at a turn start,
/// with how often, sorted by key ([`tusk_engine::Game::seen_boards`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct RepetitionHistory {
    keys: Vec<(u64, u32)>,
}

impl RepetitionHistory {
    pub(crate) fn new(game: &tusk_engine::Game) -> RepetitionHistory {
        RepetitionHistory {
            keys: game.seen_boards(),
        }
    }

    #[inline]
    fn times_seen(&self, key: u64) -> u32 {
        if self.keys.is_empty() {
            return 0;
        }
        match self.keys.binary_search_by(|e| e.0.cmp(&key)) {
            Ok(i) => self.keys[i].1,
            Err(_) => 0,
        }
    }
}

/// What every thread of one search shares.
pub(crate) struct SearchShared<'a> {
    pub(crate) tt: &'a Tt,
    pub(crate) params: &'a Params,
    pub(crate) control: &'a Control,
    pub(crate) repetitions: &'a RepetitionHistory,
    /// Set by the main thread to end the helpers, or by any thread on a stop.
    pub(crate) abort: AtomicBool,
    /// Nodes of every thread, flushed every [`POLL_NODES`].
    pub(crate) nodes: AtomicU64,
    pub(crate) node_limit: Option<u64>,
}

impl<'a> SearchShared<'a> {
    /// The state of a new search: no nodes counted yet, not aborted.
    pub(crate) fn new(
        tt: &'a Tt,
        params: &'a Params,
        control: &'a Control,
        repetitions: &'a RepetitionHistory,
        node_limit: Option<u64>,
    ) -> SearchShared<'a> {
        SearchShared {
            tt,
            params,
            control,
            repetitions,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
        }
    }
}

/// A stand-pat score and what the evaluation found on the way ([`Worker::static_eval_above`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stand {
    /// The score, from the side to move's view (exact, or an upper bound where a floor cut
    /// it short).
    pub(crate) score: i32,
    /// The score leaves out a capture the side to move must play to be credited with it
    /// ([`tusk_eval::StandPat::exchange`]).
    pub(crate) exchange: bool,
    /// The strongest own kind the opponent could capture next turn, where the evaluation
    /// asked ([`tusk_eval::StandPat::threatened`]).
    pub(crate) threatened: Option<PieceKind>,
}

/// One thread's search state.
pub(crate) struct Worker<'a> {
    pub(crate) sh: &'a SearchShared<'a>,
    pub(crate) pos: Position,
    /// Board keys of the turn starts reached inside the tree on the current line.
    path: Vec<u64>,
    pub(crate) lists: Vec<Vec<Scored>>,
    /// Per height: the quiescence search's capture moves.
    pub(crate) capture_lists: Vec<Vec<CaptureMove>>,
    /// Per height: the main search's tactic moves (`ttactic`).
    pub(crate) tactic_lists: Vec<Vec<TacticMove>>,
    /// Per height: the quiescence search's capture defences (`qdefence`).
    pub(crate) defence_lists: Vec<Vec<CaptureDefence>>,
    /// The capture-move and capture-defence generators' work table.
    pub(crate) capture_visited: Visited,
    pub(crate) scratch: StepList,
    pub(crate) move_history: MoveHistory,
    pv: Vec<[NodeMove; MAX_HEIGHT]>,
    pub(crate) pv_len: Vec<usize>,
    /// Per height: the goal-threat region of the current turn (empty: no threat).
    pub(crate) threat: Vec<Bitboard>,
    /// Per height: the turn's goal threat has been stopped by the steps played so far
    /// ([`crate::Feature::ThreatLift`]): the region restricts no step, and with
    /// `lift_prunes` the node is no longer searched as threatened either.
    lifted: Vec<bool>,
    /// Per height: the node move being searched there (read by the child for move-order
    /// pruning inside the turn).
    pub(crate) line: Vec<NodeMove>,
    /// Nodes searched by this thread.
    pub(crate) nodes: u64,
    unflushed: u64,
    /// The [`Position::hash`] of the last turn start where [`Worker::terminal`] found that the
    /// side to move cannot goal this turn (its evaluation skips the goal detector).
    no_goal_hash: u64,
    /// Capture-move generator steps not yet charged as nodes (fewer than
    /// [`GENERATOR_STEPS_PER_NODE`]).
    generator_steps: u32,
    pub(crate) seldepth: u32,
    pub(crate) stopped: bool,
    /// The evaluations, goal answers, threat regions and walk verdicts computed so far
    /// (kept by the searcher from one search to the next: `caches.rs`).
    caches: PositionCaches,
    /// The goal-defence walk at the horizon (`goal_defence.rs`).
    defence: DefenceWalk,
    /// With [`Params::waste`]: the boards of the turn starts on the current line, the last
    /// the current turn's (none for a root in the middle of a turn).
    turn_boards: Vec<TurnBoard>,
    /// The free-capture test's capture moves (`waste`).
    waste_captures: Vec<CaptureMove>,
}

impl<'a> Worker<'a> {
    /// A worker with tables of its own, for one-off searches.
    pub(crate) fn new(sh: &'a SearchShared<'a>, pos: Position) -> Worker<'a> {
        Worker::with_caches(sh, pos, PositionCaches::new(ONE_OFF_CACHE_BITS))
    }

    /// A worker that uses and extends `caches` (which must hold only what was computed with
    /// `sh`'s parameters), starting a new search in them.
    pub(crate) fn with_caches(
        sh: &'a SearchShared<'a>,
        pos: Position,
        mut caches: PositionCaches,
    ) -> Worker<'a> {
        caches.begin_search();
        let mut turn_boards = Vec::with_capacity(MAX_HEIGHT + 1);
        if sh.params.waste && pos.at_turn_start() {
            turn_boards.push(TurnBoard::of(&pos));
        }
        Worker {
            sh,
            pos,
            path: Vec::with_capacity(MAX_HEIGHT),
            lists: (0..MAX_HEIGHT + 1)
                .map(|_| Vec::with_capacity(640))
                .collect(),
            capture_lists: (0..MAX_HEIGHT + 1)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            defence_lists: (0..MAX_HEIGHT + 1)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            capture_visited: Visited::new(),
            scratch: StepList::new(),
            move_history: MoveHistory::new(MAX_HEIGHT + 1),
            pv: vec![[NodeMove::NONE; MAX_HEIGHT]; MAX_HEIGHT + 1],
            pv_len: vec![0; MAX_HEIGHT + 1],
            threat: vec![Bitboard::EMPTY; MAX_HEIGHT + 1],
            lifted: vec![false; MAX_HEIGHT + 1],
            line: vec![NodeMove::NONE; MAX_HEIGHT + 1],
            nodes: 0,
            unflushed: 0,
            generator_steps: 0,
            no_goal_hash: 0,
            seldepth: 0,
            stopped: false,
            caches,
            defence: DefenceWalk::refuting(),
            turn_boards,
            waste_captures: Vec::with_capacity(64),
            tactic_lists: (0..MAX_HEIGHT + 1).map(|_| Vec::new()).collect(),
        }
    }

    /// The worker's tables, for the next search with the same parameters.
    pub(crate) fn into_caches(self) -> PositionCaches {
        self.caches
    }

    /// The principal variation below height `h` (node moves).
    pub(crate) fn pv_at(&self, h: usize) -> &[NodeMove] {
        &self.pv[h][..self.pv_len[h]]
    }

    /// Counts a node and, every [`POLL_NODES`], looks at the clock, the stop flag and the node
    /// limit. Returns true when the search must stop.
    #[inline]
    pub(crate) fn count_node(&mut self, ply: i32) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if self.unflushed >= POLL_NODES {
            self.flush();
        }
        self.stopped
    }

    /// Charges `played` steps of the capture-move generator as nodes, one node per
    /// [`GENERATOR_STEPS_PER_NODE`] (the remainder carried to the next call), so that a node
    /// limit pays for the generator's work as it pays for the goal-defence walk's. The
    /// search stops at the next poll when the charge takes it over its limit.
    pub(crate) fn charge_generator_steps(&mut self, played: u32) {
        let steps = self.generator_steps + played;
        self.generator_steps = steps % GENERATOR_STEPS_PER_NODE;
        self.charge_nodes(u64::from(steps / GENERATOR_STEPS_PER_NODE));
    }

    /// Charges `n` nodes of work done outside the tree (the capture-move generator's steps,
    /// the move predictor's features of the root turns), so that a node limit pays for it.
    pub(crate) fn charge_nodes(&mut self, n: u64) {
        self.nodes += n;
        self.unflushed += n;
    }

    /// Records that the opponent cannot goal next turn from the current turn start (the
    /// evaluation proved it): the goal-threat region is empty, as [`threat_region`] would
    /// find at the cost of a goal search. The slot's entry for another board is replaced.
    fn note_no_goal_threat(&mut self) {
        let key = self.pos.board_key();
        let slot = self.caches.slot(key);
        if self.caches.threat[slot].key != key {
            self.caches.set_threat(slot, key, Bitboard::EMPTY);
        }
    }

    /// The goal-threat region of the current turn start (empty: no threat) and its cache slot,
    /// computed once per board key.
    fn cached_threat(&mut self) -> (Bitboard, usize) {
        let key = self.pos.board_key();
        let slot = self.caches.slot(key);
        if self.caches.threat[slot].key != key {
            let r = threat_region(&mut self.pos);
            self.caches.set_threat(slot, key, r);
        }
        (self.caches.threat[slot].region, slot)
    }

    /// At a horizon turn start: the loss (in at most this turn and the opponent's next, eight
    /// steps) when the opponent threatens a goal, the side to move cannot goal this turn, and
    /// the goal-defence walk finds no turn that stops it; `None` otherwise, and when the walk
    /// runs out of its budget. The walk's nodes count as searched nodes, so fixed-node
    /// searches pay for it (one per candidate defence; the goal search that checks it is not
    /// counted).
    fn undefended_goal(&mut self, ply: i32) -> Option<i32> {
        let (region, slot) = self.cached_threat();
        if region.is_empty() {
            return None;
        }
        if self.caches.verdict(slot) == Verdict::NotAsked {
            let open = goal::can_goal_within(&mut self.pos, GOAL_NODES) != Some(false) || {
                let budget = self.sh.params.goal_defence_nodes;
                let d = self.defence.find(&mut self.pos, region, budget);
                let walked = u64::from(self.defence.nodes);
                self.nodes += walked;
                self.unflushed += walked;
                d != Defence::Lost
            };
            let verdict = if open { Verdict::Open } else { Verdict::Lost };
            self.caches.set_verdict(slot, verdict);
        }
        (self.caches.verdict(slot) == Verdict::Lost).then(|| -(Score::WIN - (ply + 8)))
    }

    /// Whether the steps played so far this turn (mid-turn, under a goal threat) have stopped
    /// every goal of the opponent: with the turn ended here, the opponent's goal detector
    /// finds none ([`Feature::ThreatLift`]). A pending push, which forbids ending the turn,
    /// counts as not stopped. The answer is remembered by board like every turn start's.
    ///
    /// [`Feature::ThreatLift`]: crate::Feature::ThreatLift
    fn threat_stopped(&mut self) -> bool {
        if matches!(self.pos.pending(), Pending::Push { .. }) {
            return false;
        }
        let undo = self.pos.end_turn();
        let stopped = self.goal_this_turn().is_none();
        self.pos.undo_end_turn(undo);
        stopped
    }

    /// The fewest steps that stop the opponent's goal threat at the current (threatened) turn
    /// start, by the goal-defence walk within `goal_defence_nodes`, cached by board key. The
    /// walk's nodes count as searched nodes.
    fn shortest_defence(&mut self) -> ShortestDefence {
        let key = self.pos.board_key();
        if let Some(d) = self.caches.shortest(key) {
            return d;
        }
        let (region, _) = self.cached_threat();
        let budget = self.sh.params.goal_defence_nodes;
        let d = self.defence.shortest(&mut self.pos, region, budget);
        let walked = u64::from(self.defence.nodes);
        self.nodes += walked;
        self.unflushed += walked;
        self.caches.set_shortest(key, d);
        d
    }

    /// Adds this thread's nodes to the shared count and checks whether to stop.
    pub(crate) fn flush(&mut self) {
        let total = self.sh.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
        self.unflushed = 0;
        let sh = self.sh;
        if sh.abort.load(Relaxed)
            || sh.control.must_stop()
            || sh.node_limit.is_some_and(|l| total >= l)
        {
            self.stopped = true;
        }
    }

    /// The static score of the current position from the side to move's view, a goal this
    /// turn (the evaluator's exact detector) turned into a win `ply` steps from the root.
    /// With the exchange or the capture-quiescence feature on it is the quiescence search's
    /// stand-pat score ([`tusk_eval::stand_pat_above_by`]).
    #[inline]
    pub(crate) fn static_eval(&mut self, ply: i32) -> i32 {
        self.static_eval_above(ply, -INF).score
    }

    /// [`Worker::static_eval`], or only an upper bound of it when that bound is at most
    /// `floor` (the opponent's next-turn threats, the costly terms, can only lower the score,
    /// so they are skipped where the score could not rise above `floor` anyway), with what the
    /// evaluation found on the way ([`Stand`]; nothing with a bound).
    #[inline]
    pub(crate) fn static_eval_above(&mut self, ply: i32, floor: i32) -> Stand {
        // The evaluation does not depend on the board the turn started on.
        let key = self.pos.hash();
        let slot = self.caches.slot(key);
        let found = if self.caches.eval[slot].0 == key {
            self.caches.eval[slot].1
        } else {
            let w = &self.sh.params.weights;
            let rule = self.sh.params.capture_rule();
            let stand = if rule != tusk_eval::CaptureRule::Counted {
                tusk_eval::stand_pat_above_by(&mut self.pos, w, floor, rule)
            } else if self.no_goal_hash == key && self.pos.at_turn_start() {
                tusk_eval::evaluate_above_noting_no_goal(&mut self.pos, w, floor)
            } else {
                tusk_eval::evaluate_above_noting(&mut self.pos, w, floor)
            };
            if stand.opponent_goal_ruled_out && self.pos.at_turn_start() {
                self.note_no_goal_threat();
            }
            match stand.score {
                tusk_eval::Bounded::Exact(e) => {
                    let found = Stand {
                        score: e,
                        exchange: stand.exchange,
                        threatened: stand.threatened,
                    };
                    self.caches.eval[slot] = (key, found);
                    found
                }
                // Below every win score, so no conversion is needed.
                tusk_eval::Bounded::AtMost(u) => {
                    return Stand {
                        score: u.clamp(-Score::WIN_BOUND + 1, Score::WIN_BOUND - 1),
                        ..Stand::default()
                    }
                }
            }
        };
        let e = found.score;
        let score = if e >= WIN_THRESHOLD {
            Score::WIN - (ply + (WIN - e))
        } else {
            e.clamp(-Score::WIN_BOUND + 1, Score::WIN_BOUND - 1)
        };
        Stand { score, ..found }
    }

    #[inline]
    fn rep_count(&self, key: u64) -> u32 {
        self.sh.repetitions.times_seen(key) + self.path.iter().filter(|&&k| k == key).count() as u32
    }

    /// The official end checks for the side to move at its turn start (the other side just
    /// moved), then the goal detector, then (with [`Feature::EliminationThreat`]) the
    /// elimination detector and (with [`Feature::ImmobilisationThreat`]) the immobilisation
    /// detector: the score from the side to move's view if the game is decided here, `ply`
    /// steps from the root.
    ///
    /// [`Feature::EliminationThreat`]: crate::Feature::EliminationThreat
    /// [`Feature::ImmobilisationThreat`]: crate::Feature::ImmobilisationThreat
    #[inline]
    pub(crate) fn terminal(&mut self, ply: i32) -> Option<i32> {
        if let Some(r) = turn_boundary_result(&self.pos) {
            return Some(if r.winner == self.pos.side() {
                Score::WIN - ply
            } else {
                -(Score::WIN - ply)
            });
        }
        if let Some(k) = self.goal_this_turn() {
            return Some(Score::WIN - (ply + i32::from(k)));
        }
        if self.sh.params.elimination_threat && can_eliminate(&self.pos) {
            return Some(Score::WIN - (ply + ELIMINATION_STEPS));
        }
        (self.sh.params.immobilisation_threat && self.can_immobilise())
            .then_some(Score::WIN - (ply + i32::from(self.pos.steps_left())))
    }

    /// Whether the side to move can immobilise the other side this turn
    /// ([`tusk_eval::immobilisation::can_immobilise`]; no where it did not look), its steps
    /// charged as generator work and its answer remembered by [`Position::hash`] where it
    /// searched.
    fn can_immobilise(&mut self) -> bool {
        let params = &self.sh.params;
        let limits = tusk_eval::immobilisation::Limits {
            mobile: params.immobilise_mobile,
            steps: params.immobilise_steps,
        };
        if !tusk_eval::immobilisation::worth_searching(&self.pos, limits.mobile) {
            return false;
        }
        let key = self.pos.hash();
        let slot = self.caches.slot(key);
        if self.caches.immobilise[slot].0 == key {
            return self.caches.immobilise[slot].1;
        }
        let mut steps = 0;
        let found = tusk_eval::immobilisation::can_immobilise(&mut self.pos, limits, &mut steps);
        self.charge_generator_steps(steps);
        let found = found == Some(true);
        self.caches.immobilise[slot] = (key, found);
        found
    }

    /// [`goal::goal_in`] at the current turn start, remembered by [`Position::hash`] (the
    /// board, the side to move and the four steps left: all the detector reads there).
    /// Iterative deepening and transpositions reach many turn starts again: in the bench at
    /// depth 5, half of the turn-start checks were of a board checked before.
    #[inline]
    fn goal_this_turn(&mut self) -> Option<u8> {
        let key = self.pos.hash();
        let slot = self.caches.slot(key);
        if self.caches.goal[slot].0 == key {
            if let GoalAnswer::Known(answer) = self.caches.goal[slot].1 {
                return answer;
            }
        }
        let answer = goal::goal_in_mut(&mut self.pos);
        self.caches.goal[slot] = (key, GoalAnswer::Known(answer));
        answer
    }

    /// Ends the turn of the side to move (which must be allowed to end it) and searches the
    /// opponent's turn. The value is from the side that ended the turn's view; `None` if ending
    /// here would make a third repetition. `quiesce` searches the opponent's turn start with the
    /// quiescence search; `null` skips the repetition bookkeeping (a null move).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn turn_end(
        &mut self,
        depth: i32,
        ply: i32,
        h: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
        ext: i32,
    ) -> Option<i32> {
        let waste_start = if self.sh.params.waste {
            self.turn_boards
                .last()
                .filter(|b| b.starts_turn_of(&self.pos))
                .copied()
        } else {
            None
        };
        let undo = self.pos.end_turn();
        let key = self.pos.board_key();
        if self.rep_count(key) >= 2 {
            self.pos.undo_end_turn(undo);
            return None;
        }
        let v = match self.terminal(ply) {
            Some(t) => {
                self.pv_len[h] = 0;
                -t
            }
            None => {
                // The goal detector found no goal this turn: the evaluation need not ask.
                self.no_goal_hash = self.pos.hash();
                // A wasted turn costs its mover `penalty`: the opponent's turn is searched
                // with the window moved by it, and its value charged with it.
                let penalty = match waste_start {
                    Some(start) => self.waste_penalty(&start, depth, h == 1),
                    None => 0,
                };
                let shift = |bound: i32| {
                    if bound.abs() < Score::WIN_BOUND {
                        bound + penalty
                    } else {
                        bound
                    }
                };
                let (a, b) = (shift(alpha), shift(beta));
                let a = a.min(b - 1);
                if self.sh.params.waste {
                    self.turn_boards.push(TurnBoard::of(&self.pos));
                }
                self.path.push(key);
                let v = -self.search(depth, ply, h, -b, -a, pv, ext);
                self.path.pop();
                if self.sh.params.waste {
                    self.turn_boards.pop();
                }
                if v.abs() < Score::WIN_BOUND {
                    v - penalty
                } else {
                    v
                }
            }
        };
        self.pos.undo_end_turn(undo);
        Some(v)
    }

    /// What the turn just ended (the opponent of its mover to move) wastes, in centirabbits
    /// from its mover's view (`waste.rs`), `start` being its turn start, `depth` the steps of
    /// search left after it; `root` when it is the root's turn.
    fn waste_penalty(&mut self, start: &TurnBoard, depth: i32, root: bool) -> i32 {
        let Some(changes) = waste::changes(start, &self.pos) else {
            return 0;
        };
        let (reversal, tried) = waste::reversal(start, &mut self.pos, &changes);
        let params = self.sh.params;
        // With the free-capture charge at 0 its capture search is not run (nor charged).
        let (free, played) = if params.free_capture_pct == 0 {
            (None, 0)
        } else {
            waste::free_capture(
                &mut self.pos,
                &changes,
                &mut self.waste_captures,
                &mut self.capture_visited,
            )
        };
        self.charge_generator_steps(tried + played);
        let charges = waste::Charges {
            full_reversal: params.reversal_penalty,
            free_capture_pct: params.free_capture_pct,
        };
        waste::penalty(charges, reversal, free, depth, root)
    }

    /// Plays node move `m` (not a pass) from height `h` and searches the child, same side to
    /// move; returns its value.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn step_child(
        &mut self,
        m: NodeMove,
        depth: i32,
        ply: i32,
        h: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
        ext: i32,
    ) -> i32 {
        self.line[h] = m;
        let a = m.first();
        let ua = self.pos.play_step_unchecked(a);
        let v = if m.len() == 2 {
            let b = m.second();
            let ub = self.pos.play_step_unchecked(b);
            let v = self.search(depth - 2, ply + 2, h + 1, alpha, beta, pv, ext);
            self.pos.undo_step(b, ub);
            v
        } else {
            self.search(depth - 1, ply + 1, h + 1, alpha, beta, pv, ext)
        };
        self.pos.undo_step(a, ua);
        v
    }

    /// Searches move `m` at height `h` with window (alpha, beta) from the mover's view; `None`
    /// when the move is illegal here (a pass making a third repetition).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        m: NodeMove,
        depth: i32,
        ply: i32,
        h: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
        ext: i32,
    ) -> Option<i32> {
        if m.is_pass() {
            // A pass costs the steps it skips (as in sharp), so every turn costs four steps of
            // depth however it is split: otherwise a short turn would hand its unused steps to
            // the opponent and lines with early passes would be searched deeper than full ones.
            let skipped = i32::from(self.pos.steps_left());
            self.turn_end(depth - skipped, ply, h + 1, alpha, beta, pv, ext)
        } else {
            Some(self.step_child(m, depth, ply, h, alpha, beta, pv, ext))
        }
    }

    /// Alpha-beta search of the current position, `depth` steps deep, `ply` steps and `h`
    /// node moves from the root, window (alpha, beta) from the side to move's view. `ext` is
    /// the goal-threat extension (steps) this line may still receive.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        mut depth: i32,
        ply: i32,
        h: usize,
        mut alpha: i32,
        beta: i32,
        pv: bool,
        mut ext: i32,
    ) -> i32 {
        self.pv_len[h] = 0;
        if self.stopped {
            return 0;
        }
        let params = self.sh.params;
        if self.pos.steps_left() == 0 {
            // The turn must end here.
            if !self.pos.can_end_turn() {
                return -(Score::WIN - ply);
            }
            return match self.turn_end(depth, ply, h + 1, alpha, beta, pv, ext) {
                Some(v) => {
                    self.set_pv(h, NodeMove::PASS);
                    v
                }
                None => -(Score::WIN - ply),
            };
        }
        let turn_start = self.pos.at_turn_start();
        if depth <= 0 && !(pv && turn_start && ext >= 4 && params.goal_threat) {
            // The goal-defence walk only where its answer can matter: where the quiescence
            // value is above alpha, and where the loss it could prove is below beta.
            if turn_start && params.goal_defence && -(Score::WIN - (ply + 8)) < beta {
                let v = self.qsearch(ply, h, alpha, beta);
                if v > alpha && !self.stopped {
                    if let Some(loss) = self.undefended_goal(ply) {
                        self.pv_len[h] = 0;
                        return loss;
                    }
                }
                return v;
            }
            return self.qsearch(ply, h, alpha, beta);
        }
        if turn_start {
            self.threat[h] = if params.goal_threat {
                self.cached_threat().0
            } else {
                Bitboard::EMPTY
            };
            self.lifted[h] = false;
        } else if h > 0 {
            self.threat[h] = self.threat[h - 1];
            self.lifted[h] = self.lifted[h - 1];
            if params.threat_lift
                && self.threat[h].any()
                && !self.lifted[h]
                && self.threat_stopped()
            {
                self.lifted[h] = true;
            }
        }
        // `threatened`: searched at full depth (no reductions, pruning or null move);
        // `restricted`: only steps that can stop the threat.
        let under_threat = self.threat[h].any();
        let threatened = under_threat && !(self.lifted[h] && params.lift_prunes);
        let restricted = under_threat && !self.lifted[h];
        if depth <= 0 {
            if restricted {
                // Extend rather than stand pat (on the principal variation only: everywhere,
                // it made depth 8 of the bench 20 times slower): the defence is searched, then the
                // opponent's goal detector at the next turn start judges it.
                depth = 4;
                ext -= 4;
            } else {
                return self.qsearch(ply, h, alpha, beta);
            }
        }
        if h >= MAX_HEIGHT - 8 {
            return self.static_eval(ply);
        }
        if self.count_node(ply) {
            return 0;
        }

        // Mate-distance pruning: nothing here beats winning at once or loses sooner than now.
        alpha = alpha.max(-(Score::WIN - ply));
        let beta = beta.min(Score::WIN - ply);
        if alpha >= beta {
            return alpha;
        }
        // The opponent's capture threat at this turn start, where `cthreat` asked for it (so
        // that `tdefence` need not ask again).
        let mut capture_threat = None;
        if turn_start && params.capture_threat_extension && h > 0 && depth < 4 && !under_threat {
            let threat = self.capture_threat();
            capture_threat = Some(threat);
            if threat.is_some_and(|kind| !self.stopped_in_one_step(kind)) {
                // No single step saves the piece the opponent threatens: the turn is searched
                // in full, so that the horizon judges the defence, not the threat's price.
                depth = 4;
            }
        }
        let alpha0 = alpha;
        let key = self.pos.search_key();
        let mut tt_mv = NodeMove::NONE;
        if params.tt {
            if let Some(e) = self.sh.tt.probe(key, ply) {
                if params.tt_move {
                    tt_mv = e.mv;
                }
                if !pv && e.depth >= depth {
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score >= beta,
                        Bound::Upper => e.score <= alpha,
                    };
                    if cut {
                        return e.score;
                    }
                }
            }
        }

        if turn_start && threatened && params.defence_extension && h > 0 && (1..4).contains(&depth)
        {
            // A line reached a goal threat with part of a turn of depth left: a mid-turn stand
            // pat would judge the defence by the evaluation's goal-threat term. Where no turn
            // stops the goal the node is lost (the side to move cannot goal first: the turn
            // boundary's goal detector found none); where the shortest defence is longer than
            // the depth left, the depth is extended to it.
            match self.shortest_defence() {
                ShortestDefence::Lost => {
                    self.pv_len[h] = 0;
                    return -(Score::WIN - (ply + 8));
                }
                ShortestDefence::Steps(k) if i32::from(k) > depth => {
                    let more = i32::from(k) - depth;
                    if ext >= more {
                        depth += more;
                        ext -= more;
                    }
                }
                _ => {}
            }
        }
        if params.reverse_futility
            && !pv
            && !threatened
            && h > 0
            && depth <= params.rfp_max_depth
            && beta.abs() < Score::WIN_BOUND
        {
            // The static score beats beta by a margin per step left: cut. Asked only for
            // whether it reaches `beta + margin`, so the costly next-turn terms are skipped
            // where the cheap upper bound already falls short.
            let margin = params.rfp_margin * depth;
            let Stand {
                score: e, exchange, ..
            } = self.static_eval_above(ply, beta + margin - 1);
            if !exchange && e >= beta + margin && e < Score::WIN_BOUND {
                return e - margin;
            }
        }
        if params.null_move
            && !pv
            && turn_start
            && !threatened
            && depth >= params.null_min_depth
            && beta.abs() < Score::WIN_BOUND
            && h > 0
            && self.static_eval(ply) >= beta
        {
            let undo = self.pos.end_turn();
            let v = match self.terminal(ply) {
                Some(t) => -t,
                None => {
                    if params.waste {
                        self.turn_boards.push(TurnBoard::of(&self.pos));
                    }
                    let v = -self.search(
                        depth - 4 - params.null_reduction,
                        ply,
                        h + 1,
                        -beta,
                        -beta + 1,
                        false,
                        ext,
                    );
                    if params.waste {
                        self.turn_boards.pop();
                    }
                    v
                }
            };
            self.pos.undo_end_turn(undo);
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if v >= Score::WIN_BOUND { beta } else { v };
            }
        }

        // Whole capture moves of three or four steps first (`tcapture`), then the
        // approach-and-push tactics (`ttactic`), then capture defences (`tdefence`).
        let mut sequences = SequenceNode {
            depth,
            ply,
            h,
            beta,
            pv,
            ext,
            best: -INF,
            alpha,
            searched: 0,
            capture_threat,
        };
        let cut = (params.tree_captures && self.search_tree_captures(&mut sequences))
            || (params.tree_tactics && self.search_tree_tactics(&mut sequences))
            || (params.tree_defences && self.search_tree_defences(&mut sequences));
        if self.stopped {
            return 0;
        }
        if cut {
            if params.tt {
                self.sh.tt.store(
                    key,
                    ply,
                    NodeMove::NONE,
                    sequences.best,
                    depth,
                    Bound::Lower,
                );
            }
            return sequences.best;
        }
        alpha = sequences.alpha;

        let mut list = std::mem::take(&mut self.lists[h]);
        generate(&mut self.pos, &mut list, &mut self.scratch);
        if params.commute && !turn_start && !threatened {
            // Moves independent of the one that led here in this turn and sorting before it
            // were searched in the other order: dropped before they are scored.
            let prev = self.line[h - 1];
            list.retain(|&(m, _)| !redundant_order(prev, m));
        }
        let region = if restricted {
            grow(self.threat[h], self.pos.steps_left().saturating_sub(1))
        } else {
            Bitboard::EMPTY
        };
        self.move_history
            .score(&self.pos, &mut list, tt_mv, h, region, params.ordering);

        let side = self.pos.side();
        let mut best = sequences.best;
        let mut best_mv = NodeMove::NONE;
        let mut searched = 0usize;
        let mut restrict = restricted;
        let mut i = 0;
        while i < list.len() || (restrict && searched == 0) {
            if i == list.len() {
                // Under a goal threat nothing near the threat was legal: search everything.
                restrict = false;
                i = 0;
                continue;
            }
            pick(&mut list, i);
            let (m, _) = list[i];
            i += 1;
            let gain = if m.len() > 0 {
                capture_gain(&self.pos, m)
            } else {
                0
            };
            if restrict && !m.is_pass() && gain <= 0 && !touches(m, region) {
                continue;
            }
            let quiet = gain <= 0;
            let reducible = quiet && m != tt_mv && !self.move_history.is_killer(h, m);
            if params.late_move_pruning
                && reducible
                && !pv
                && !threatened
                && (1..=2).contains(&depth)
                && searched >= params.lmp_moves[depth as usize - 1]
                && !m.is_pass()
                && !(params.lmp_goal_zone && near_goal(&self.pos, m))
            {
                continue;
            }
            let v = if searched == 0 {
                self.child(m, depth, ply, h, alpha, beta, pv, ext)
            } else {
                let mut r = 0;
                if params.lmr
                    && reducible
                    && !threatened
                    && depth >= params.lmr_min_depth
                    && searched >= params.lmr_full_moves
                    && !m.is_pass()
                {
                    r = 1 + i32::from(searched >= params.lmr_deep_moves);
                    if pv {
                        r -= 1;
                    }
                }
                let mut v = self.child(m, depth - r, ply, h, alpha, alpha + 1, false, ext);
                if let Some(x) = v {
                    if !self.stopped && x > alpha && r > 0 {
                        v = self.child(m, depth, ply, h, alpha, alpha + 1, false, ext);
                    }
                }
                if let Some(x) = v {
                    if !self.stopped && pv && x > alpha && x < beta {
                        v = self.child(m, depth, ply, h, alpha, beta, true, ext);
                    }
                }
                v
            };
            if self.stopped {
                self.lists[h] = list;
                return 0;
            }
            let Some(v) = v else { continue };
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_mv = m;
                    alpha = v;
                    self.set_pv(h, m);
                    if v >= beta {
                        if quiet {
                            self.move_history.cutoff(side, h, m, depth);
                        }
                        break;
                    }
                }
            }
            if quiet && v <= alpha0 {
                self.move_history.failed(side, m, depth);
            }
        }
        self.lists[h] = list;

        if searched == 0 && sequences.searched == 0 {
            // No legal continuation: at a turn start the side to move loses (immobilised, or
            // every turn repeats a third time); mid-turn this line is not a legal turn.
            return -(Score::WIN - ply);
        }
        if params.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.sh.tt.store(key, ply, best_mv, best, depth, bound);
        }
        best
    }

    /// The strongest kind of the side to move's pieces the opponent could capture if the turn
    /// ended now ([`tusk_eval::threat::NextTurnThreat::capture_of_mut`]), charged as a
    /// detector call of generator work.
    pub(crate) fn capture_threat(&mut self) -> Option<tusk_engine::PieceKind> {
        self.charge_generator_steps(DETECTOR_STEPS);
        tusk_eval::threat::NextTurnThreat::capture_of_mut(&mut self.pos)
    }

    /// Whether a single step stops the opponent's capture of `kind`
    /// ([`tusk_eval::capture_defences::stopped_in_one_step`]), charged as a detector call a
    /// legal step (about 32 of them).
    fn stopped_in_one_step(&mut self, kind: tusk_engine::PieceKind) -> bool {
        self.charge_generator_steps(32 * DETECTOR_STEPS);
        tusk_eval::capture_defences::stopped_in_one_step(&mut self.pos, kind)
    }

    /// Makes the principal variation at height `h` the single steps `steps` (a capture move
    /// of the quiescence search) followed by the child's at `h + 1`.
    #[inline]
    pub(crate) fn set_pv_steps(&mut self, h: usize, steps: &[tusk_engine::Step]) {
        let k = steps.len();
        let n = self.pv_len[h + 1].min(MAX_HEIGHT - k);
        let (head, tail) = self.pv.split_at_mut(h + 1);
        for (slot, &s) in head[h].iter_mut().zip(steps) {
            *slot = NodeMove::one(s);
        }
        head[h][k..k + n].copy_from_slice(&tail[0][..n]);
        self.pv_len[h] = n + k;
    }

    /// Plays the steps `steps` (at most a turn's, [`crate::quiesce::MAX_SEQUENCE`]) from the
    /// current position, runs `f` there and takes the steps back: `f`'s answer.
    pub(crate) fn with_steps_played<R>(
        &mut self,
        steps: &[tusk_engine::Step],
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        debug_assert!(steps.len() <= crate::quiesce::MAX_SEQUENCE);
        let mut undo = [None; crate::quiesce::MAX_SEQUENCE];
        for (u, &s) in undo.iter_mut().zip(steps) {
            *u = Some(self.pos.play_step_unchecked(s));
        }
        let r = f(self);
        for (u, &s) in undo.iter().zip(steps).rev() {
            if let Some(u) = *u {
                self.pos.undo_step(s, u);
            }
        }
        r
    }

    /// Makes `m` followed by the child's PV the PV at height `h`.
    pub(crate) fn set_pv(&mut self, h: usize, m: NodeMove) {
        let n = self.pv_len[h + 1].min(MAX_HEIGHT - 1);
        let (head, tail) = self.pv.split_at_mut(h + 1);
        head[h][0] = m;
        head[h][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[h] = n + 1;
    }
}

impl Worker<'_> {
    /// Nodes counted but not yet added to the shared count.
    pub(crate) fn unflushed_nodes(&self) -> u64 {
        self.unflushed
    }
}

/// Steps charged to a win by elimination found at a turn start: the turn's four, an upper
/// bound (a capture takes two to four).
const ELIMINATION_STEPS: i32 = 4;

/// Whether the side to move at a turn start wins this turn by elimination: the side that just
/// moved has one rabbit left and the side to move can capture a rabbit this turn (exact: the
/// capture detector). Capturing that rabbit ends the game for the side to move whatever else
/// the turn does (its own last rabbit lost in the same turn included, official rules), a goal
/// by the other side apart, which needs that rabbit. Only run with one rabbit left, so it
/// costs nothing elsewhere.
fn can_eliminate(p: &tusk_engine::Position) -> bool {
    if p.count(!p.side(), tusk_engine::PieceKind::Rabbit) != 1 {
        return false;
    }
    let mut rabbit = tusk_eval::captures::KindSet::EMPTY;
    rabbit.insert(tusk_engine::PieceKind::Rabbit);
    tusk_eval::captures::can_capture(p, rabbit)
}

#[cfg(test)]
mod tests {
    use super::can_eliminate;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::EndReason;

    /// Whether some turn of the side to move wins by elimination, by brute force.
    fn eliminates_by_brute_force(pos: &tusk_engine::Position) -> bool {
        tusk_tests::some_turn_wins_by(pos, EndReason::Elimination)
    }

    #[test]
    fn the_elimination_detector_agrees_with_brute_force() {
        // (position, whether the side to move can eliminate): silver's elephant over gold's
        // last rabbit beside the trap at c3; with a second gold rabbit; with gold's elephant
        // guarding c3 (the rabbit is pulled to c5 and pushed into c6 instead); with silver's
        // elephant five steps from the capture; and gold to move with silver's last rabbit
        // out of reach.
        let cases = [
            (
                "s [r                         e       R                            E]",
                true,
            ),
            (
                "s [r                         e       R                    R       E]",
                false,
            ),
            (
                "s [r                         e       R        E                    ]",
                true,
            ),
            (
                "s [r e                               R                            E]",
                false,
            ),
            (
                "g [r                         e       R                            E]",
                false,
            ),
        ];
        for (text, expected) in cases {
            let pos = parse_aei(text).expect("a valid position");
            assert_eq!(
                (can_eliminate(&pos), eliminates_by_brute_force(&pos)),
                (expected, expected),
                "{text}: (detector, brute force)"
            );
        }
    }

    /// With `immo`, a turn start where the side to move can freeze the other side's last
    /// mobile piece (gold's rabbit on a1, silver's elephant two steps from b1; and the same
    /// with the colours swapped) is a win within the turn, asked twice (the second answer from
    /// the cache); without it, or where gold also has a dog that can step, it is not.
    #[test]
    fn the_immobilisation_detector_scores_a_win_at_the_turn_start() {
        use crate::score::Score;
        let win = Some(Score::WIN - 4);
        let cases = [
            (
                "s [       r                                          e     R       ]",
                win,
            ),
            (
                "g [r         E                                                    R]",
                win,
            ),
            (
                "s [       r                                          e     R      D]",
                None,
            ),
        ];
        for (text, expected) in cases {
            let pos = parse_aei(text).expect("a valid position");
            assert_eq!(
                with_worker(pos.clone(), crate::params::Params::default(), None, |w| w
                    .terminal(0)),
                None,
                "{text} without immo"
            );
            let params = crate::params::Params {
                immobilisation_threat: true,
                ..crate::params::Params::default()
            };
            let answers = with_worker(pos, params, None, |w| (w.terminal(0), w.terminal(0)));
            assert_eq!(answers, (expected, expected), "{text}");
        }
    }

    /// Runs `f` on a worker of one thread at `pos` with `params` and a node limit, its
    /// transposition table, control and history fresh.
    fn with_worker<R>(
        pos: tusk_engine::Position,
        params: crate::params::Params,
        node_limit: Option<u64>,
        f: impl FnOnce(&mut super::Worker<'_>) -> R,
    ) -> R {
        use super::{SearchShared, Worker};
        use crate::control::Control;
        use crate::tt::Tt;
        let tt = Tt::try_new(1).expect("a 1 MiB transposition table");
        let control = Control::new();
        let repetitions = super::RepetitionHistory::default();
        let shared = SearchShared::new(&tt, &params, &control, &repetitions, node_limit);
        f(&mut Worker::new(&shared, pos))
    }

    /// The worker's cached goal detector answers as the detector does, asked again and again
    /// for boards that differ only in the side to move (each board and the same board after a
    /// pass), on the fixtures and on random sparse boards, both colours.
    #[test]
    fn the_turn_start_goal_cache_answers_as_the_detector() {
        use rand::{rngs::SmallRng, SeedableRng};
        let mut boards = tusk_tests::fixture_positions();
        let mut rng = SmallRng::seed_from_u64(32);
        boards.extend((0..2_000).map(|_| tusk_tests::random_board(&mut rng, true)));
        let boards: Vec<_> = boards.into_iter().filter(|p| p.at_turn_start()).collect();
        let start = boards[0].clone();
        let (mut goals, mut differ) = (0, 0);
        with_worker(start, crate::params::Params::default(), None, |worker| {
            for board in &boards {
                let mut passed = board.clone();
                passed.end_turn();
                let pair = [board.clone(), passed];
                let expected = [
                    tusk_eval::goal::goal_in(&pair[0]),
                    tusk_eval::goal::goal_in(&pair[1]),
                ];
                goals += expected.iter().filter(|e| e.is_some()).count();
                differ += usize::from(expected[0] != expected[1]);
                for round in 0..3 {
                    for (p, want) in pair.iter().zip(expected) {
                        worker.pos = p.clone();
                        assert_eq!(worker.goal_this_turn(), want, "round {round}: {p:?}");
                        assert_eq!(worker.pos.hash(), p.hash(), "the position is restored");
                    }
                }
            }
        });
        // The boards test something: goals, and answers that depend on the side to move.
        assert!(
            goals > 200 && differ > 200,
            "{goals} goals, {differ} pairs differ"
        );
    }

    /// The turn start of `pieces` (letter and square, `('E', "d4")`) with gold to move.
    fn gold_to_move(pieces: &[(char, &str)]) -> tusk_engine::Position {
        crate::test_util::position(tusk_engine::Color::Gold, pieces)
    }

    /// The value of a turn ended after `steps` (`"d4e"`, ...) from the turn start of `pieces`
    /// (gold to move), at height `h`, window (alpha, beta), the opponent's turn searched by the
    /// quiescence search; with or without the waste feature.
    fn turn_value(
        pieces: &[(char, &str)],
        steps: &[&str],
        h: usize,
        window: (i32, i32),
        waste: bool,
    ) -> i32 {
        use crate::params::Params;
        let params = Params {
            waste,
            ..Params::default()
        };
        turn_value_with(pieces, steps, h, window, params).0
    }

    /// [`turn_value`] with any parameters; also the work the worker counted, in generator
    /// steps (each node 32, plus the steps not yet charged as a node).
    fn turn_value_with(
        pieces: &[(char, &str)],
        steps: &[&str],
        h: usize,
        window: (i32, i32),
        params: crate::params::Params,
    ) -> (i32, u64) {
        use super::GENERATOR_STEPS_PER_NODE;
        use tusk_engine::{Direction, Square, Step};
        let pos = gold_to_move(pieces);
        with_worker(pos, params, None, |worker| {
            for s in steps {
                let from = Square::parse(&s[..2]).expect("a square");
                let dir = Direction::from_letter(s.chars().nth(2).unwrap()).expect("a direction");
                let step = Step::try_new(from, dir).expect("a step");
                assert!(worker.pos.is_legal_step(step), "{s}");
                worker.pos.play_step_unchecked(step);
            }
            let v = worker
                .turn_end(0, steps.len() as i32, h, window.0, window.1, false, 0)
                .expect("not a repetition");
            let per_node = u64::from(GENERATOR_STEPS_PER_NODE);
            (
                v,
                worker.nodes * per_node + u64::from(worker.generator_steps),
            )
        })
    }

    /// A turn the opponent undoes costs its mover the penalty of `waste.rs` on top of the
    /// same search's value, at the root and deeper, and the window moves with it.
    #[test]
    fn a_wasted_turn_costs_its_mover_the_penalty() {
        use super::INF;
        // Gold's elephant pushes the silver horse from d4 to e4 and steps back: silver steps
        // the horse back (a full reversal, 2,000).
        let push = [('E', "d3"), ('h', "d4"), ('R', "a2"), ('r', "h7")];
        let steps = ["d4e", "d3n", "d4s"];
        let plain = turn_value(&push, &steps, 1, (-INF, INF), false);
        assert!(plain.abs() < 5_000, "{plain}");
        assert_eq!(
            turn_value(&push, &steps, 1, (-INF, INF), true),
            plain - 2_000
        );
        assert_eq!(
            turn_value(&push, &steps, 3, (-INF, INF), true),
            plain - 2_000
        );
        // A narrow window around the charged value still finds it exactly.
        let charged = plain - 2_000;
        assert_eq!(
            turn_value(&push, &steps, 3, (charged - 1, charged + 1), true),
            charged
        );
        // Gold's elephant steps back and pulls the horse (unfrozen by the rabbit beside it):
        // the horse can step back but the elephant stays (partial: 15 at the root, 30 deeper).
        let pull = [('E', "d4"), ('h', "d5"), ('r', "e4"), ('R', "a2")];
        let steps = ["d4s", "d5s"];
        let plain = turn_value(&pull, &steps, 1, (-INF, INF), false);
        assert_eq!(turn_value(&pull, &steps, 1, (-INF, INF), true), plain - 15);
        assert_eq!(turn_value(&pull, &steps, 3, (-INF, INF), true), plain - 30);
        // A quiet rabbit step wastes nothing.
        let steps = ["a2n"];
        let plain = turn_value(&pull, &steps, 3, (-INF, INF), false);
        assert_eq!(turn_value(&pull, &steps, 3, (-INF, INF), true), plain);
    }

    /// A turn that leaves the piece it moved free to capture costs sharp's charge scaled by
    /// `free_capture_pct`; at 0 the capture search is not even run (no generator steps
    /// charged), so the variant costs what the reversal check costs.
    #[test]
    fn a_free_capture_costs_its_share_and_nothing_at_zero() {
        use super::INF;
        use crate::params::Params;
        // The gold horse walks b3-b6 beside trap c6, which nothing of gold guards; the silver
        // elephant on b7 pushes it in with two steps (800 near the horizon, `waste.rs`).
        let pieces = [('H', "b3"), ('e', "b7"), ('R', "a2"), ('r', "h7")];
        let steps = ["b3n", "b4n", "b5n"];
        let with = |waste, free_capture_pct| Params {
            waste,
            free_capture_pct,
            ..Params::default()
        };
        let run = |p| turn_value_with(&pieces, &steps, 3, (-INF, INF), p);
        let (plain, plain_work) = run(with(false, 100));
        assert!(plain.abs() < 5_000, "{plain}");
        let (full, full_work) = run(with(true, 100));
        assert_eq!(full, plain - 800);
        assert!(full_work > plain_work, "{full_work} {plain_work}");
        assert_eq!(run(with(true, 25)).0, plain - 200);
        assert_eq!(run(with(true, 0)), (plain, plain_work));
    }

    /// Under a goal threat the steps of a turn are restricted to those near the threat; with
    /// [`crate::Feature::ThreatLift`] only until the threat is stopped. Gold's dog stops silver's
    /// rabbit on h3 with one step (f2 to g2 freezes it wherever it steps), and gold's horse on
    /// b6 captures the silver dog on c7 with the three steps left (b6 to b7, then pushes it
    /// into the trap at c6). An inner turn start (height 1), searched four steps deep, finds
    /// the defence and the capture only with the lift; without it the capture's first step,
    /// far from the threat and capturing nothing, is never searched after the defence.
    #[test]
    fn a_stopped_goal_threat_frees_the_rest_of_the_turn() {
        use super::INF;
        use crate::params::Params;
        use tusk_engine::{Color, PieceKind};
        let pieces = [
            ('r', "h3"),
            ('D', "f2"),
            ('H', "b6"),
            ('d', "c7"),
            ('R', "a1"),
            ('c', "a2"),
            ('r', "h8"),
        ];
        let pos = gold_to_move(&pieces);
        let run = |threat_lift, lift_prunes| {
            let params = Params {
                threat_lift,
                lift_prunes,
                ..Params::default()
            };
            with_worker(pos.clone(), params, None, |worker| {
                assert!(
                    !worker.cached_threat().0.is_empty(),
                    "silver threatens a goal"
                );
                let v = worker.search(4, 1, 1, -INF, INF, true, 0);
                let mut after = pos.clone();
                // Gold's turn of the principal variation (a pass or four steps end it).
                for &m in &worker.pv[1][..worker.pv_len[1]] {
                    if m.is_pass() || after.steps_left() == 0 {
                        break;
                    }
                    after.play_step_unchecked(m.first());
                    if m.len() == 2 {
                        after.play_step_unchecked(m.second());
                    }
                }
                let dogs = after.pieces_of(Color::Silver, PieceKind::Dog).count();
                (v, dogs)
            })
        };
        let (lifted, dogs_lifted) = run(true, true);
        let (restricted, dogs_restricted) = run(false, true);
        // Lifted without pruning the rest of the turn: the same turn and score here (four
        // steps left at the start: nothing is reduced or pruned at this depth either way).
        assert_eq!(run(true, false), (lifted, dogs_lifted));
        assert_eq!(dogs_lifted, 0, "the defence and the capture: {lifted}");
        assert_eq!(dogs_restricted, 1, "the defence only: {restricted}");
        assert!(lifted > restricted + 100, "{lifted} {restricted}");
        assert!(
            lifted.abs() < 5_000,
            "gold neither wins nor loses: {lifted}"
        );
    }

    /// Generator steps are charged one node per 32, the remainder carried, and a charge that
    /// reaches the node limit stops the search at the next poll.
    #[test]
    fn generator_steps_are_charged_as_nodes() {
        use super::GENERATOR_STEPS_PER_NODE;
        assert_eq!(GENERATOR_STEPS_PER_NODE, 32);
        let empty = tusk_engine::Position::empty(tusk_engine::Color::Gold);
        with_worker(
            empty,
            crate::params::Params::default(),
            Some(10),
            |worker| {
                worker.charge_generator_steps(100);
                assert_eq!(worker.nodes, 3, "100 steps: 3 nodes, 4 steps carried");
                worker.charge_generator_steps(27);
                assert_eq!(worker.nodes, 3, "31 steps carried");
                worker.charge_generator_steps(1);
                assert_eq!(worker.nodes, 4, "the carried steps make a node");
                worker.charge_generator_steps(0);
                assert_eq!(worker.nodes, 4);
                worker.flush();
                assert!(!worker.stopped, "4 of 10 nodes");
                worker.charge_generator_steps(6 * 32);
                worker.flush();
                assert!(worker.stopped, "10 of 10 nodes");
            },
        );
    }
    /// The search of `pos` at `depth` steps from its turn start (full window) with `params`:
    /// the score and the board after the steps of its principal variation's first turn.
    fn searched(
        pos: tusk_engine::Position,
        depth: i32,
        params: crate::params::Params,
    ) -> (i32, tusk_engine::Position) {
        searched_at(pos, depth, 0, params)
    }

    /// [`searched`] as a node at height `h` (a node below the root).
    fn searched_at(
        pos: tusk_engine::Position,
        depth: i32,
        h: usize,
        params: crate::params::Params,
    ) -> (i32, tusk_engine::Position) {
        use super::INF;
        with_worker(pos, params, None, |worker| {
            let v = worker.search(depth, 0, h, -INF, INF, true, 0);
            let mut board = worker.pos.clone();
            for m in worker.pv_at(h).iter().take_while(|m| m.len() > 0) {
                board.play_step_unchecked(m.first());
                if m.len() == 2 {
                    board.play_step_unchecked(m.second());
                }
            }
            (v, board)
        })
    }

    /// With `tcapture`, a capture that needs the whole turn (two steps of approach, then the
    /// push) is played out by a search of one step of depth, where the plain search can only
    /// price it: its principal variation is the capture, and its score counts the rabbit won
    /// in full. Colour-mirrored, the same.
    #[test]
    fn a_whole_turn_capture_is_played_out_beyond_the_depth_left() {
        use crate::params::Params;
        use tusk_engine::notation::board::to_aei;
        use tusk_engine::notation::turn::play_steps;
        let pos = gold_to_move(&[
            ('E', "f5"),
            ('R', "a2"),
            ('R', "b2"),
            ('r', "c5"),
            ('r', "h7"),
            ('r', "g7"),
        ]);
        let with = Params {
            tree_captures: true,
            ..Params::default()
        };
        for (p, capture) in [
            (pos.clone(), "Ef5w Ee5w rc5n Ed5w"),
            (pos.flip(), "ef4w ee4w Rc4s ed4w"),
        ] {
            let (plain, plain_pv) = searched(p.clone(), 1, Params::default());
            let (captured, after) = searched(p.clone(), 1, with.clone());
            let want = play_steps(&p, capture).expect("the capture is legal").1;
            assert_eq!(
                to_aei(&after),
                to_aei(&want),
                "plain: {}",
                to_aei(&plain_pv)
            );
            assert!(
                captured >= plain + 20,
                "the capture counted in full: {captured} against {plain}"
            );
        }
    }

    /// Gold to move: its dog on d3, frozen by the silver elephant on e3, is pushed into c3
    /// next turn unless a guard comes to the trap, and only the rabbit on a2 can come, in two
    /// steps (b2, then b3 or c2).
    fn frozen_dog_beside_a_trap() -> tusk_engine::Position {
        gold_to_move(&[
            ('D', "d3"),
            ('R', "a2"),
            ('R', "h2"),
            ('E', "h1"),
            ('e', "e3"),
            ('r', "a7"),
            ('r', "h7"),
        ])
    }

    /// Asserts that the search `plain` (its value and the board its principal variation
    /// reaches) leaves the dog of [`frozen_dog_beside_a_trap`] to be captured next turn and
    /// the search `with` a feature defends it and scores higher.
    fn assert_defended(
        (plain, mut plain_after): (i32, tusk_engine::Position),
        (with, mut after): (i32, tusk_engine::Position),
    ) {
        use tusk_engine::notation::board::to_aei;
        use tusk_eval::threat::NextTurnThreat;
        assert_eq!(
            NextTurnThreat::capture_of_mut(&mut plain_after),
            Some(tusk_engine::PieceKind::Dog),
            "left to be captured: {}",
            to_aei(&plain_after)
        );
        assert_eq!(
            NextTurnThreat::capture_of_mut(&mut after),
            None,
            "the defence is the principal variation: {}",
            to_aei(&after)
        );
        assert!(with > plain, "the defence counted: {with} against {plain}");
    }

    /// With `tdefence`, a threat that only a two-step defence parries (the frozen dog beside
    /// the trap cannot step away; the rabbit walks up to guard the trap) is parried by a
    /// search of one step of depth, where the plain search takes one step and leaves the dog
    /// to be pushed in: the principal variation with the feature leaves no capture next turn,
    /// and scores higher. Colour-mirrored, the same.
    #[test]
    fn a_two_step_capture_defence_is_played_out_beyond_the_depth_left() {
        use crate::params::Params;
        let with = Params {
            tree_defences: true,
            ..Params::default()
        };
        let pos = frozen_dog_beside_a_trap();
        for p in [pos.clone(), pos.flip()] {
            assert_defended(
                searched(p.clone(), 1, Params::default()),
                searched(p.clone(), 1, with.clone()),
            );
        }
    }

    /// With `cthreat`, a turn start below the root with one step of depth left, where no
    /// single step saves the threatened dog (the position of the `tdefence` test), is
    /// searched a whole turn deep: the principal variation is a defence (the rabbit's walk to
    /// the trap) and scores higher than the plain one-step search, which leaves the dog. At
    /// the root (height 0) the depth is not extended. Colour-mirrored, the same.
    #[test]
    fn a_firm_capture_threat_extends_the_turn_below_the_root() {
        use crate::params::Params;
        let with = Params {
            capture_threat_extension: true,
            ..Params::default()
        };
        let pos = frozen_dog_beside_a_trap();
        for p in [pos.clone(), pos.flip()] {
            let plain = searched_at(p.clone(), 1, 1, Params::default());
            assert_defended(plain, searched_at(p.clone(), 1, 1, with.clone()));
            let at_root = searched_at(p.clone(), 1, 0, with.clone());
            assert_defended(at_root, searched_at(p.clone(), 1, 1, with.clone()));
        }
    }
}
