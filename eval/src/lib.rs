//! # tusk-eval
//!
//! Tusk's static evaluation of an Arimaa position, in centirabbits (an opening rabbit = 100)
//! from the side to move's view, and the [`Breakdown`] that shows every term for gold and
//! silver.
//!
//! Terms: HarLog [`material`]; piece placement by strength class ([`placement`]); trap
//! control, by the capped control of each trap ([`traps`]) and as a piecewise-linear curve of
//! its smooth control ([`trap_influence`], [`trap_curve`]); the shape of the home-trap
//! defence ([`trap_defence`]) and trap danger ([`traps`]); rabbit advancement by game phase
//! and goal pressure ([`rabbits`]); the opponent's goal threat next turn and captures within
//! reach now and next turn (from the exact detectors in [`goal`] and [`captures`]); frozen
//! pieces, hostages, single-guarded trap pieces and elephant mobility ([`mobility`]), the
//! elephant's reach in four steps ([`elephant_reach`]); the
//! capture risk of pieces near traps ([`capture_risk`]), rabbits as goal threats
//! ([`rabbit_threat`]), pieces framed on a trap ([`frames`]), the strongest pieces' alignment
//! with the enemy pieces they dominate ([`alignment`]), their balance over the wings
//! ([`imbalance`]), sharp's rabbit goal threats ([`rabbit_goal`]), hostages held near the
//! side's home traps ([`hostage_threat`]), a lone camel far forward near the enemy
//! elephant ([`camel_advance`]) and the steps the side to move has left ([`tempo`]). A goal
//! the side to move can reach this turn scores [`WIN`] minus the steps it takes.
//!
//! Every parameter lives in [`Weights`], a flat vector with stable names, read from and written
//! to JSON files by [`weights_file`] (the shipped set is compiled in). The evaluation is linear
//! in its weights: every term emits features through a [`Sink`] (see [`mod@features`]), so that
//! the score is `Σ weight × feature` (up to documented integer rounding); [`features()`]
//! records them for `tusk eval --features` and the tuner. The evaluation is exactly
//! colour-symmetric: a position and its colour-mirrored twin ([`Position::flip`]) score the
//! same. Nothing here allocates (the material table is built at compile time).

#![forbid(unsafe_code)]

pub mod alignment;
pub mod blockade_value;
pub mod camel_advance;
pub mod capture_defences;
pub mod capture_moves;
pub mod capture_risk;
pub mod captures;
pub mod elephant_reach;
pub mod features;
pub mod frame_value;
pub mod frames;
pub mod goal;
pub mod hostage_threat;
pub mod hostage_value;
pub mod imbalance;
pub mod immobilisation;
pub mod material;
pub mod mobility;
pub mod placement;
pub mod rabbit_goal;
pub mod rabbit_threat;
pub mod rabbits;
pub mod sfp;
pub mod shape;
pub mod tempo;
pub mod threat;
pub mod trap_curve;
pub mod trap_defence;
pub mod trap_influence;
pub mod traps;
pub mod variance;
pub mod weights;
pub mod weights_file;

#[cfg(test)]
pub(crate) mod test_util;

use std::fmt;

use tusk_engine::{Bitboard, ByColor, Color, PieceKind, Position};

pub use captures::KindSet;
pub use features::{FeatureSink, Features, ScoreSink, Sink};
pub use threat::NextTurnThreat;
use variance::VariancePoints;
pub use weights::{id, Kind, Param, Weights};
pub use weights_file::{LoadError, Loaded, WeightsError};

/// An evaluation in centirabbits (hundredths of a rabbit) from the side to move's view. (The
/// searcher's `Score` is another thing: it also encodes wins and losses in a number of steps.)
pub type Centirabbits = i32;

/// The score of a goal the side to move reaches this turn, before subtracting its steps.
pub const WIN: Centirabbits = 30_000;

/// Scores at or above this (or at or below its negation) are wins (or losses), not judgement.
pub const WIN_THRESHOLD: Centirabbits = WIN - 100;

/// What every term needs: per-kind piece values, how many enemy pieces outrank each kind, the
/// frozen pieces and the control of each trap. Computed once per evaluation, from the shape
/// parameters only (no weight enters it; [`Context::for_scoring`] only asks whether the trap
/// curve is in use).
#[derive(Clone, Debug)]
pub struct Context {
    /// What each kind of each side is worth here (centirabbits), from the material table.
    pub values: ByColor<[i32; PieceKind::NUM]>,
    /// For each side and kind, how many enemy pieces are stronger.
    pub stronger: ByColor<[u8; PieceKind::NUM]>,
    /// The frozen pieces of each side.
    pub frozen: ByColor<Bitboard>,
    /// The capped-line control of each trap in [`tusk_engine::Square::TRAPS`] order (positive:
    /// gold's), from [`traps::trap_control`]: what trap danger, hostages and rabbits weigh.
    pub control: [i32; 4],
    /// The smooth control of each trap in the same order (positive: gold's), from
    /// [`trap_influence::trap_influence`]: what the trap curve reads.
    pub influence: [i32; 4],
    /// For each side and kind, the unfrozen enemy pieces stronger than a piece of that kind
    /// (computed with the smooth control, empty without it): what the smooth control and the
    /// capture risk read.
    pub attackers: ByColor<[Bitboard; PieceKind::NUM]>,
    /// The pieces of each side with a stronger enemy piece beside them (computed with the
    /// smooth control, empty without it).
    pub dominated: ByColor<Bitboard>,
}

impl Context {
    /// Computes the context of `pos`, all of it.
    pub fn new(pos: &Position, w: &Weights) -> Context {
        Context::with_influence(pos, w, true)
    }

    /// The context a scoring evaluation needs: the smooth trap control is left at zero when no
    /// weight reads it (every weight of the trap curve, the capture risk and the rabbit
    /// threats 0, where those terms score nothing whatever the control), which saves its cost
    /// while they are untuned. The recording sink always gets the full context
    /// ([`Context::new`]).
    pub fn for_scoring(pos: &Position, w: &Weights) -> Context {
        let influence = trap_curve::is_used(w)
            || capture_risk::is_used(w)
            || rabbit_threat::is_used(w)
            || rabbit_goal::is_used(w)
            || camel_advance::is_used(w)
            || hostage_value::is_used(w)
            || blockade_value::is_used(w);
        Context::with_influence(pos, w, influence)
    }

    fn with_influence(pos: &Position, w: &Weights, influence: bool) -> Context {
        let mut stronger = ByColor([[0u8; PieceKind::NUM]; 2]);
        for c in Color::ALL {
            let mut n = 0u8;
            for k in (0..PieceKind::NUM).rev() {
                stronger[c][k] = n;
                n += pos.count(!c, PieceKind::from_index(k)) as u8;
            }
        }
        let value_cap = w[id::piece_value_cap].max(1);
        let value_pct = w[id::piece_value_pct].max(1);
        let mut ctx = Context {
            values: ByColor([
                material::piece_values(pos, Color::Gold, value_pct, value_cap),
                material::piece_values(pos, Color::Silver, value_pct, value_cap),
            ]),
            stronger,
            frozen: ByColor([pos.frozen(Color::Gold), pos.frozen(Color::Silver)]),
            control: [0; 4],
            influence: [0; 4],
            attackers: ByColor([[Bitboard::EMPTY; PieceKind::NUM]; 2]),
            dominated: ByColor([Bitboard::EMPTY; 2]),
        };
        ctx.control = traps::trap_control(pos, &ctx, w);
        if influence {
            ctx.attackers = trap_influence::stronger_unfrozen(pos, &ctx.frozen);
            ctx.dominated = trap_influence::dominated(pos);
            ctx.influence = trap_influence::trap_influence(pos, &ctx, w);
        }
        ctx
    }
}

/// The terms of the evaluation, in the order the breakdown lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// HarLog material.
    Material,
    /// Piece-square tables by strength class.
    Placement,
    /// Traps held: the capped shares, home and away, and the trap curve.
    TrapControl,
    /// The shape of each home trap's defence: guards, the square behind, the side square.
    TrapDefence,
    /// Pieces on or beside a trap the enemy holds.
    TrapDanger,
    /// Rabbit advancement and goal pressure.
    Rabbits,
    /// A goal the side could make if its opponent passed (charged to the threatening side).
    GoalThreat,
    /// Captures within reach: now for the side to move, next turn for its opponent.
    Captures,
    /// Frozen pieces.
    Frozen,
    /// Frozen pieces beside a trap the enemy holds.
    Hostages,
    /// Pieces on a trap with a single guard.
    SingleGuard,
    /// Elephant mobility and blockade.
    Elephant,
    /// Pieces near a trap the enemy holds, by the steps the enemy needs to capture them.
    CaptureRisk,
    /// Rabbits as goal threats: the wing's trap and how open their way is.
    RabbitThreat,
    /// Pieces framed on a trap, their pinned guards, and the pieces that hold the frame.
    Frames,
    /// The strongest pieces drawn towards the enemy pieces they barely dominate.
    Alignment,
    /// The elephant and camel on one wing; a wing the strongest pieces leave weak.
    Imbalance,
    /// Rabbits as goal threats as sharp weighs them: distance, blockers, goal-area strength.
    RabbitGoal,
    /// Enemy pieces held hostage near the side's home traps, by the steps to capture them.
    HostageThreat,
    /// A lone camel far forward near the enemy elephant, with few friends around.
    CamelAdvance,
    /// The side to move's steps left in its turn.
    Tempo,
    /// The variance adjustment of the whole score by the rabbit goal threats (on the side to
    /// move's line).
    Variance,
}

impl Term {
    /// Number of terms.
    pub const NUM: usize = 22;
    /// Every term, in breakdown order.
    pub const ALL: [Term; Term::NUM] = [
        Term::Material,
        Term::Placement,
        Term::TrapControl,
        Term::TrapDefence,
        Term::TrapDanger,
        Term::Rabbits,
        Term::GoalThreat,
        Term::Captures,
        Term::Frozen,
        Term::Hostages,
        Term::SingleGuard,
        Term::Elephant,
        Term::CaptureRisk,
        Term::RabbitThreat,
        Term::Frames,
        Term::Alignment,
        Term::Imbalance,
        Term::RabbitGoal,
        Term::HostageThreat,
        Term::CamelAdvance,
        Term::Tempo,
        Term::Variance,
    ];

    /// The name shown in the breakdown.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Placement => "placement",
            Term::TrapControl => "trap control",
            Term::TrapDefence => "trap defence",
            Term::TrapDanger => "trap danger",
            Term::Rabbits => "rabbits",
            Term::GoalThreat => "goal threat",
            Term::Captures => "captures",
            Term::Frozen => "frozen",
            Term::Hostages => "hostages",
            Term::SingleGuard => "single guard",
            Term::Elephant => "elephant",
            Term::CaptureRisk => "capture risk",
            Term::RabbitThreat => "rabbit threat",
            Term::Frames => "frames",
            Term::Alignment => "alignment",
            Term::Imbalance => "imbalance",
            Term::RabbitGoal => "rabbit goal",
            Term::HostageThreat => "hostage threat",
            Term::CamelAdvance => "camel advance",
            Term::Tempo => "tempo",
            Term::Variance => "variance",
        }
    }
}

/// Every term of an evaluation for gold and for silver, and the goal the side to move has.
/// `Display` prints it as a table. Copyable and allocation-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The side to move.
    pub side: Color,
    /// The fewest steps to a goal this turn for the side to move, if it has one.
    pub goal: Option<u8>,
    /// Each term's value for each side (centirabbits, positive is good for that side), in
    /// [`Term::ALL`] order.
    pub terms: [ByColor<Centirabbits>; Term::NUM],
}

impl Breakdown {
    /// The value of `term` for `color`.
    pub fn get(&self, term: Term, color: Color) -> Centirabbits {
        self.terms[term as usize][color]
    }

    /// The sum of every term for `color`.
    pub fn total(&self, color: Color) -> Centirabbits {
        self.terms.iter().map(|t| t[color]).sum()
    }

    /// The score from the side to move's view: [`WIN`] minus the steps when it can goal this
    /// turn, otherwise its total minus its opponent's (kept below the win scores).
    pub fn score(&self) -> Centirabbits {
        if let Some(steps) = self.goal {
            return WIN - Centirabbits::from(steps);
        }
        features::judgement(i64::from(self.total(self.side)) - i64::from(self.total(!self.side)))
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:>8} {:>8} {:>12}",
            "term", "gold", "silver", "gold-silver"
        )?;
        for t in Term::ALL {
            let g = self.get(t, Color::Gold);
            let s = self.get(t, Color::Silver);
            writeln!(f, "{:<14} {:>8} {:>8} {:>12}", t.name(), g, s, g - s)?;
        }
        let g = self.total(Color::Gold);
        let s = self.total(Color::Silver);
        writeln!(f, "{:<14} {:>8} {:>8} {:>12}", "total", g, s, g - s)?;
        if let Some(steps) = self.goal {
            writeln!(
                f,
                "{} to move reaches goal in {steps} step(s): a win",
                self.side.name()
            )?;
        }
        write!(
            f,
            "score for {} (to move): {:+} centirabbits",
            self.side.name(),
            self.score()
        )
    }
}

/// Evaluates `pos` in full, term by term. Allocation-free; copies the position once (see
/// [`explain_mut`], which does not).
pub fn explain(pos: &Position, w: &Weights) -> Breakdown {
    explain_mut(&mut pos.clone(), w)
}

/// [`explain`] working on `pos` itself (the detectors search on it), which it leaves exactly as
/// it found it.
pub fn explain_mut(pos: &mut Position, w: &Weights) -> Breakdown {
    features_mut(pos, w).breakdown()
}

/// Every feature of `pos` for both sides and what each contributes with `w` (see
/// [`mod@features`]). Allocation-free; copies the position once.
pub fn features(pos: &Position, w: &Weights) -> Features {
    features_mut(&mut pos.clone(), w)
}

/// [`features()`] working on `pos` itself, which it leaves exactly as it found it.
pub fn features_mut(pos: &mut Position, w: &Weights) -> Features {
    let mut sink = FeatureSink::new(w, pos.side());
    sink.features.goal = goal::goal_in_mut(pos);
    let ctx = Context::new(pos, w);
    let variance = positional_features(pos, &ctx, w, &mut sink);
    sink.set_variance(variance);
    // With a goal this turn the score is a win; the positional terms are still shown, the
    // tactical ones (captures now, the opponent's next turn) are not computed.
    if sink.features.goal.is_none() {
        threat::capture_now_features(pos, &ctx, w, &mut sink);
        let threat = NextTurnThreat::of_mut(pos);
        let firm = threat::firm(pos, threat, w);
        threat::next_turn_features(pos.side(), pos.steps_left(), &ctx, threat, firm, &mut sink);
    }
    sink.features
}

/// Each side's share, in percent, of a charge on its pieces that the side to move can act on
/// first: `pct` for the side to move with a whole turn left, growing back towards 100 as its
/// steps run out (`100 - (100 - pct) × steps left / 4`), and 100 for the other side. Used by
/// the capture risk (`capture_risk_mover_pct`) and the frozen pieces (`frozen_mover_pct`).
#[inline]
pub(crate) fn side_shares(pos: &Position, pct: i32) -> ByColor<i32> {
    let mover = 100 - (100 - pct) * i32::from(pos.steps_left()) / 4;
    let mut shares = ByColor::new(100, 100);
    shares[pos.side()] = mover;
    shares
}

/// Emits every feature of `pos` but the tactical ones: the captures within reach this turn
/// ([`threat::capture_now_features`]) and the opponent's next-turn threats
/// ([`threat::next_turn_features`]). Returns the variance points the rabbit goal threats give
/// ([`variance`]).
fn positional_features<S: Sink>(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    sink: &mut S,
) -> VariancePoints {
    material::material_features(pos, sink);
    placement::placement_features(pos, ctx, sink);
    traps::control_features(ctx, w, sink);
    trap_curve::curve_features(ctx, sink);
    trap_defence::defence_features(pos, sink);
    traps::danger_features(pos, ctx, w, sink);
    rabbits::rabbit_features(pos, ctx, w, sink);
    mobility::frozen_features(pos, ctx, w, sink);
    mobility::hostage_features(pos, ctx, w, sink);
    mobility::single_guard_features(pos, ctx, sink);
    mobility::elephant_features(pos, sink);
    elephant_reach::elephant_reach_features(pos, ctx, sink);
    blockade_value::blockade_value_features(pos, ctx, sink);
    capture_risk::risk_features(pos, ctx, w, sink);
    rabbit_threat::rabbit_threat_features(pos, ctx, w, sink);
    frames::frame_features(pos, ctx, sink);
    frame_value::frame_value_features(pos, ctx, sink);
    alignment::alignment_features(pos, sink);
    imbalance::imbalance_features(pos, sink);
    let rabbit_goal = rabbit_goal::rabbit_goal_features(pos, ctx, w, sink);
    hostage_threat::hostage_threat_features(pos, ctx, sink);
    hostage_value::hostage_value_features(pos, ctx, w, sink);
    camel_advance::camel_advance_features(pos, ctx, w, sink);
    tempo::tempo_features(pos, sink);
    VariancePoints::from_threat(rabbit_goal, w[id::variance_pct], w[id::variance_scale])
}

/// The score of `pos` in centirabbits from the side to move's view: [`WIN`] minus the steps
/// when it can reach goal this turn. Allocation-free; copies the position once (the searcher
/// calls [`evaluate_mut`], which does not).
pub fn evaluate(pos: &Position, w: &Weights) -> Centirabbits {
    evaluate_mut(&mut pos.clone(), w)
}

/// [`evaluate`] working on `pos` itself (the goal and capture detectors search on it), which it
/// leaves exactly as it found it, hash included. No copy, no allocation.
pub fn evaluate_mut(pos: &mut Position, w: &Weights) -> Centirabbits {
    // No score is at most `Centirabbits::MIN`, so this is always exact.
    evaluate_above(pos, w, Centirabbits::MIN).score()
}

/// A score that may be known only as an upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// The evaluation itself.
    Exact(Centirabbits),
    /// The evaluation is at most this (and this is at most the floor that was asked for).
    AtMost(Centirabbits),
}

impl Bounded {
    /// The number either way: the evaluation, or its upper bound.
    pub const fn score(self) -> Centirabbits {
        match self {
            Bounded::Exact(s) | Bounded::AtMost(s) => s,
        }
    }
}

/// [`evaluate_mut`] for a searcher: the opponent's next-turn threats (the costliest terms) are
/// not computed when the score without them is already at most `floor`, and that upper bound
/// is returned instead. They can only lower the score while their weights are not negative;
/// otherwise the bound adds the most they could raise it ([`threat::threat_slack`]), so it is
/// an upper bound for any weights. With `floor` below every score the result is always exact
/// and equals [`evaluate_mut`]'s. `pos` is left exactly as it was.
pub fn evaluate_above(pos: &mut Position, w: &Weights, floor: Centirabbits) -> Bounded {
    evaluate_lazily(pos, w, floor, CaptureRule::Counted, false).score
}

/// What a quiescence search may stand pat on: a score, and whether it left a capture to be
/// played out (see [`stand_pat_above`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandPat {
    /// The score (exact, or an upper bound at most the floor asked for).
    pub score: Bounded,
    /// The side to move can capture this turn and the opponent could capture a piece worth at
    /// least as much next turn: the score leaves out the side to move's capture
    /// (`capture_now_pct`) but for the share `capture_exchange_pct` of it, and a searcher
    /// must play the capture as a move to be credited with the rest. Always false with an
    /// [`Bounded::AtMost`] score.
    pub exchange: bool,
    /// The opponent's next-turn goal detector ran (the score is exact and not a goal this
    /// turn) and proved that the opponent could not goal next turn if the side to move ended
    /// its turn now. False where it did not run or could not rule a goal out. A searcher may
    /// keep this for the board ([`Position::board_key`]): it is a fact of the pieces and the
    /// side to move alone.
    pub opponent_goal_ruled_out: bool,
    /// The strongest kind of the side to move's pieces the opponent could capture next turn
    /// if the turn ended now, where the evaluation asked (an exact score that is not a goal
    /// this turn); `None` where none, or where it did not ask.
    pub threatened: Option<PieceKind>,
}

/// [`evaluate_above`] for a quiescence search's stand-pat: where the side to move can capture
/// this turn and the opponent threatens to capture a piece worth at least as much (by the
/// material table's values here) next turn, standing pat may not count both
/// its capture (at `capture_now_pct`) and a defence of its own piece (the threat at only
/// `capture_threat_pct`): one turn rarely does both. The score then leaves the capture out but
/// for the share `capture_exchange_pct` of its credit (it is what the side gets by defending,
/// the capture still threatened for its next turn) and [`StandPat::exchange`] says the
/// searcher must play the capture to be credited with it, after which the opponent's capture
/// is played or evaluated in turn. Everywhere else it equals [`evaluate_above`]. An upper
/// bound stays one: the bound counts the capture.
pub fn stand_pat_above(pos: &mut Position, w: &Weights, floor: Centirabbits) -> StandPat {
    evaluate_lazily(pos, w, floor, CaptureRule::Exchange, false)
}

/// Where a quiescence search's stand-pat leaves the side to move's capture out, for the
/// searcher to play it as a move ([`stand_pat_above_by`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    /// Nowhere: the capture counts at `capture_now_pct` (the evaluation itself).
    Counted,
    /// Where the opponent threatens a piece worth at least as much next turn
    /// ([`stand_pat_above`]).
    Exchange,
    /// At every turn start, and mid-turn where [`CaptureRule::Exchange`] leaves it out: at a
    /// turn start the whole turn is left for the capture and the opponent's reply, so a
    /// searcher that plays them out judges the trade instead of a fixed share of the piece.
    TurnStart,
}

/// [`evaluate_above`] for a quiescence search's stand-pat, leaving the side to move's capture
/// out where `rule` says ([`StandPat::exchange`] then true); [`stand_pat_above`] is
/// [`CaptureRule::Exchange`]. An upper bound stays one: the bound counts the capture.
pub fn stand_pat_above_by(
    pos: &mut Position,
    w: &Weights,
    floor: Centirabbits,
    rule: CaptureRule,
) -> StandPat {
    evaluate_lazily(pos, w, floor, rule, false)
}

/// [`evaluate_above`] with what the evaluation learned on the way ([`StandPat`]; its
/// `exchange` is always false): a searcher that also asks whether the opponent threatens a
/// goal next turn can take [`StandPat::opponent_goal_ruled_out`] instead of running the goal
/// detector again.
pub fn evaluate_above_noting(pos: &mut Position, w: &Weights, floor: Centirabbits) -> StandPat {
    evaluate_lazily(pos, w, floor, CaptureRule::Counted, false)
}

/// [`evaluate_above_noting`] for a caller that has already run the goal detector for the side
/// to move here ([`goal::goal_in`]) and found no goal this turn: the evaluation does not run
/// it again. The same score as [`evaluate_above_noting`] where that is so; where the side to
/// move can goal, the score is not the win it should be, so the caller must be sure.
pub fn evaluate_above_noting_no_goal(
    pos: &mut Position,
    w: &Weights,
    floor: Centirabbits,
) -> StandPat {
    evaluate_lazily(pos, w, floor, CaptureRule::Counted, true)
}

/// The evaluation without the opponent's next-turn threats, or only a lower bound of it
/// ([`threatless_unless_above`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threatless {
    /// The evaluation without the threats: [`evaluate_above`]'s with a floor above every
    /// score.
    Exact(Centirabbits),
    /// That evaluation is at least this, which is above the ceiling that was asked for.
    AtLeast(Centirabbits),
}

/// The evaluation without the opponent's next-turn threats, as [`evaluate_above`] gives it
/// with a floor above every score (what a root's static pass scores each turn's opponent
/// with), or, where the score without the side to move's capture this turn is already above
/// `ceiling`, only that lower bound: with `capture_now_pct` not negative the capture can only
/// raise the score (the adjustments after it are monotone), so the hunt for it, a four-step
/// capture search, is skipped. A caller that needs to know only which of many positions
/// scores lowest passes the lowest exact score so far. `pos` is left exactly as it was.
pub fn threatless_unless_above(
    pos: &mut Position,
    w: &Weights,
    ceiling: Centirabbits,
) -> Threatless {
    let (us, ctx, mut sink, variance) = match goal_or_positional(pos, w, false) {
        Err(goal) => return Threatless::Exact(goal),
        Ok(part) => part,
    };
    if w[id::capture_now_pct] >= 0 {
        let without_capture = threatless_upper(w, pos.steps_left(), us, &sink, variance);
        if without_capture > ceiling {
            return Threatless::AtLeast(without_capture);
        }
    }
    let capture = captures::best_capture_mut(pos);
    threat::capture_now_feature(pos, capture, &ctx, w, &mut sink);
    Threatless::Exact(threatless_upper(w, pos.steps_left(), us, &sink, variance))
}

/// What every form of the evaluation computes first: the side to move's goal this turn
/// (`Err`: its win score; not looked for with `no_goal`), else the side to move, the context
/// and the positional terms in a scoring sink (everything but the side to move's capture this
/// turn and the opponent's next-turn threats), with the variance points.
#[inline(always)]
fn goal_or_positional<'w>(
    pos: &mut Position,
    w: &'w Weights,
    no_goal: bool,
) -> Result<(Color, Context, ScoreSink<'w>, VariancePoints), Centirabbits> {
    if !no_goal {
        if let Some(steps) = goal::goal_in_mut(pos) {
            return Err(WIN - Centirabbits::from(steps));
        }
    }
    let ctx = Context::for_scoring(pos, w);
    let mut sink = ScoreSink::new(w);
    let variance = positional_features(pos, &ctx, w, &mut sink);
    Ok((pos.side(), ctx, sink, variance))
}

/// The side to move `us`'s score from `sink` (every term but the opponent's next-turn threats)
/// with `steps_left` steps left, raised by the most those threats could add
/// ([`threat::threat_slack`]) and adjusted for the variance: an upper bound of the evaluation,
/// monotone in `sink`'s total. The adjustment is monotone in the total, so it keeps the bound
/// (one more for its rounding).
#[inline]
fn threatless_upper(
    w: &Weights,
    steps_left: u8,
    us: Color,
    sink: &ScoreSink,
    variance: VariancePoints,
) -> Centirabbits {
    let slack = threat::threat_slack(w, steps_left);
    if slack == 0 && variance.is_none() {
        sink.score(us)
    } else {
        let linear = sink.difference(us) + slack;
        features::judgement(variance.adjust_integer(us, linear) + i64::from(!variance.is_none()))
    }
}

/// [`evaluate_above_noting`] (with [`CaptureRule::Counted`]) or [`stand_pat_above_by`];
/// `no_goal`: the caller knows the side to move cannot goal this turn.
fn evaluate_lazily(
    pos: &mut Position,
    w: &Weights,
    floor: Centirabbits,
    rule: CaptureRule,
    no_goal: bool,
) -> StandPat {
    let (us, ctx, mut sink, variance) = match goal_or_positional(pos, w, no_goal) {
        Err(goal) => {
            return StandPat {
                score: Bounded::Exact(goal),
                exchange: false,
                opponent_goal_ruled_out: false,
                threatened: None,
            }
        }
        Ok(part) => part,
    };
    let without_capture = sink;
    let capture = captures::best_capture_mut(pos);
    threat::capture_now_feature(pos, capture, &ctx, w, &mut sink);
    let upper = threatless_upper(w, pos.steps_left(), us, &sink, variance);
    if upper <= floor {
        return StandPat {
            score: Bounded::AtMost(upper),
            exchange: false,
            opponent_goal_ruled_out: false,
            threatened: None,
        };
    }
    let threat = NextTurnThreat::of_mut(pos);
    let exchange = match (rule, capture, threat.capture) {
        (CaptureRule::Counted, _, _) | (_, None, _) => false,
        (CaptureRule::TurnStart, Some(_), _) if pos.at_turn_start() => true,
        (_, Some(c), Some(t)) => ctx.values[us][t.index()] >= ctx.values[!us][c.index()],
        (_, Some(_), None) => false,
    };
    if exchange {
        // The capture's credit is what `capture_now_feature` added to the positional sink.
        let credit = sink.difference(us) - without_capture.difference(us);
        sink = without_capture;
        sink.add_points(us, credit * i64::from(w[id::capture_exchange_pct]) / 100);
    }
    let firm = threat::firm(pos, threat, w);
    threat::next_turn_features(us, pos.steps_left(), &ctx, threat, firm, &mut sink);
    StandPat {
        score: Bounded::Exact(features::judgement(
            variance.adjust_integer(us, sink.difference(us)),
        )),
        exchange,
        // `goal` is true where the detector ran out of nodes: false is a proof.
        opponent_goal_ruled_out: !threat.goal,
        threatened: threat.capture,
    }
}

#[cfg(test)]
mod tests {
    /// The static pass's evaluation: exact where it says so and equal to `evaluate_above`'s
    /// with a floor above every score; a lower bound above the ceiling otherwise, and never
    /// a bound with a negative `capture_now_pct` (where the capture lowers the score) or a
    /// ceiling above every score. On random-game turn starts and the seed diagram.
    #[test]
    fn threatless_scores_are_exact_or_a_lower_bound_above_the_ceiling() {
        let shipped = Weights::default();
        let mut negative = Weights::default();
        negative[id::capture_now_pct] = -70;
        let mut positions: Vec<Position> = (0..6)
            .flat_map(|seed| tusk_tests::random_game(seed, 100))
            .filter(|p| p.at_turn_start())
            .step_by(3)
            .collect();
        positions.push(crate::test_util::seed_diagram("g"));
        positions.push(crate::test_util::seed_diagram("s"));
        let (mut bounds, mut exact) = (0, 0);
        for w in [&shipped, &negative] {
            for p in &mut positions {
                let before = p.clone();
                let e = evaluate_above(p, w, i32::MAX).score();
                assert_eq!(
                    threatless_unless_above(p, w, i32::MAX),
                    Threatless::Exact(e)
                );
                for ceiling in [e - 300, e - 1, e, e + 1] {
                    match threatless_unless_above(p, w, ceiling) {
                        Threatless::Exact(x) => {
                            assert_eq!(x, e);
                            exact += 1;
                        }
                        Threatless::AtLeast(b) => {
                            assert!(b > ceiling && b <= e, "{b} for {e}, ceiling {ceiling}");
                            assert!(w[id::capture_now_pct] >= 0);
                            bounds += 1;
                        }
                    }
                }
                assert_eq!(*p, before);
            }
        }
        assert!(
            bounds > 100 && exact > 100,
            "{bounds} bounds, {exact} exact"
        );
    }

    /// The in-place forms give the same scores as the copying ones and leave the position
    /// exactly as they found it, on positions with goals, captures and threats in reach, at
    /// turn starts and mid-turn.
    #[test]
    fn in_place_evaluation_restores_the_position() {
        use tusk_engine::StepList;
        let w = Weights::hand_set();
        let mut list = StepList::new();
        let mut checked = 0;
        for side in ["g", "s"] {
            let mut p = crate::test_util::seed_diagram(side);
            for i in 0..40 {
                let before = p.clone();
                let expected = evaluate(&p, &w);
                assert_eq!(evaluate_mut(&mut p, &w), expected);
                assert_eq!(p, before);
                assert_eq!(p.search_key(), before.search_key());
                assert_eq!(explain_mut(&mut p, &w).score(), expected);
                assert_eq!(p, before);
                let exact = Bounded::Exact(expected);
                assert_eq!(evaluate_above(&mut p, &w, -WIN - 1), exact);
                assert_eq!(evaluate_above(&mut p, &w, -WIN - 1), exact);
                // With a floor the score may come back as a bound, never a wrong one.
                for floor in [expected - 1, expected, expected + 40] {
                    match evaluate_above(&mut p, &w, floor) {
                        Bounded::Exact(e) => assert_eq!(e, expected),
                        Bounded::AtMost(u) => assert!(u >= expected && u <= floor),
                    }
                }
                assert_eq!(p, before);
                checked += 1;
                crate::test_util::walk_step(&mut p, i, &mut list);
            }
        }
        assert_eq!(checked, 80);
    }

    use super::*;
    use crate::test_util::{opening, pos, seed_diagram};

    /// Whether the opponent of the side to move could goal next turn if the turn ended now.
    fn opponent_can_goal(p: &Position) -> bool {
        let mut q = p.clone();
        q.end_turn();
        goal::can_goal(&q)
    }

    /// The stand pat's threatened kind is the opponent's strongest next-turn capture wherever
    /// the score is exact and not a goal this turn, and nothing with a bound: along walks from
    /// the seed diagram (both sides to move) and the opening, at turn starts and mid-turn.
    #[test]
    fn the_threatened_kind_is_the_opponents_strongest_capture() {
        let w = Weights::default();
        let mut list = tusk_engine::StepList::new();
        let (mut threatened, mut safe) = (0, 0);
        for mut p in [seed_diagram("g"), seed_diagram("s"), opening()] {
            for i in 0..80 {
                let pushing = matches!(p.pending(), tusk_engine::Pending::Push { .. });
                let stand = stand_pat_above(&mut p, &w, Centirabbits::MIN);
                if !pushing && goal::goal_in(&p).is_none() {
                    let want = NextTurnThreat::capture_of_mut(&mut p.clone());
                    assert_eq!(stand.threatened, want, "{p:?}");
                    if want.is_some() {
                        threatened += 1;
                    } else {
                        safe += 1;
                    }
                }
                let bounded = stand_pat_above(&mut p, &w, WIN);
                if let Bounded::AtMost(_) = bounded.score {
                    assert_eq!(bounded.threatened, None);
                }
                crate::test_util::walk_step(&mut p, i, &mut list);
            }
        }
        assert!(
            threatened >= 20 && safe >= 20,
            "{threatened} threatened, {safe} safe"
        );
    }

    /// Where the exchange rule leaves the side to move's capture out of the stand-pat, it
    /// keeps `capture_exchange_pct` of the capture's credit: all of it at 100 (the
    /// evaluation's own score), none at 0 (lower), and in between at 50; elsewhere the
    /// stand-pat is the evaluation whatever the share. Along walks from the seed diagram and
    /// the opening, both sides to move, at turn starts and mid-turn.
    #[test]
    fn the_exchange_stand_pat_keeps_its_share_of_the_capture() {
        let with_share = |pct: i32| {
            let mut w = Weights::default();
            w[id::capture_exchange_pct] = pct;
            w
        };
        let (none, half, all) = (with_share(0), with_share(50), with_share(100));
        let mut list = tusk_engine::StepList::new();
        let (mut exchanges, mut others) = (0, 0);
        for mut p in [seed_diagram("g"), seed_diagram("s"), opening()] {
            for i in 0..400 {
                if !matches!(p.pending(), tusk_engine::Pending::Push { .. }) {
                    let counted = evaluate_above(&mut p, &all, Centirabbits::MIN);
                    let score = |w: &Weights, p: &mut Position| {
                        let stand = stand_pat_above(p, w, Centirabbits::MIN);
                        match stand.score {
                            Bounded::Exact(e) => (e, stand.exchange),
                            Bounded::AtMost(u) => panic!("a bound {u} below every floor"),
                        }
                    };
                    let (s0, exchange) = score(&none, &mut p);
                    let (s50, _) = score(&half, &mut p);
                    let (s100, _) = score(&all, &mut p);
                    assert_eq!(Bounded::Exact(s100), counted, "{p:?}");
                    if exchange {
                        assert!(s0 < s50 && s50 < s100, "{s0} {s50} {s100}: {p:?}");
                        exchanges += 1;
                    } else {
                        assert!(s0 == s100 && s50 == s100, "{s0} {s50} {s100}: {p:?}");
                        others += 1;
                    }
                }
                crate::test_util::walk_step(&mut p, i, &mut list);
            }
        }
        assert!(
            exchanges >= 10 && others >= 50,
            "{exchanges} exchanges, {others} others"
        );
    }

    /// `evaluate_above_noting` scores as `evaluate_above` does (and so does
    /// `evaluate_above_noting_no_goal` wherever the side to move cannot goal this turn), and
    /// rules the opponent's goal out only where the opponent cannot goal: a silver rabbit one
    /// step from its goal rank is a threat, the same rabbit at home is not; and along walks
    /// from the seed diagram (goal threats) and the opening (none), at turn starts and
    /// mid-turn.
    #[test]
    fn the_opponents_goal_is_ruled_out_only_where_it_cannot_goal() {
        let w = Weights::default();
        let threat = pos("g", &[("E", "d4"), ("R", "h1"), ("r", "c2"), ("e", "h8")]);
        let quiet = pos("g", &[("E", "d4"), ("R", "h1"), ("r", "c7"), ("e", "h8")]);
        for (p, ruled_out) in [(threat, false), (quiet, true)] {
            let mut q = p.clone();
            let stand = evaluate_above_noting(&mut q, &w, Centirabbits::MIN);
            assert_eq!(q, p);
            assert_eq!(stand.opponent_goal_ruled_out, ruled_out, "{p:?}");
            assert_eq!(stand.score, Bounded::Exact(evaluate(&p, &w)));
            assert!(!stand.exchange);
        }
        let mut list = tusk_engine::StepList::new();
        let (mut ruled_out, mut open, mut told_no_goal) = (0, 0, 0);
        for mut p in [seed_diagram("g"), seed_diagram("s"), opening()] {
            for i in 0..60 {
                let stand = evaluate_above_noting(&mut p, &w, Centirabbits::MIN);
                assert_eq!(stand.score, evaluate_above(&mut p, &w, Centirabbits::MIN));
                if goal::goal_in(&p).is_none() {
                    // Told there is no goal this turn, it skips the detector: the same.
                    let before = p.clone();
                    let told = evaluate_above_noting_no_goal(&mut p, &w, Centirabbits::MIN);
                    assert_eq!(told, stand, "{p:?}");
                    assert_eq!(p, before);
                    told_no_goal += 1;
                }
                if p.pending() == tusk_engine::Pending::None || p.can_end_turn() {
                    if stand.opponent_goal_ruled_out {
                        assert!(!opponent_can_goal(&p), "{p:?}");
                        ruled_out += 1;
                    } else {
                        open += 1;
                    }
                }
                // A bound proves nothing.
                let bounded = evaluate_above_noting(&mut p, &w, WIN);
                if let Bounded::AtMost(_) = bounded.score {
                    assert!(!bounded.opponent_goal_ruled_out);
                }
                crate::test_util::walk_step(&mut p, i, &mut list);
            }
        }
        assert!(
            ruled_out >= 40 && open >= 40,
            "{ruled_out} ruled out, {open} not"
        );
        assert!(told_no_goal >= 100, "{told_no_goal}");
    }

    #[test]
    fn the_opening_scores_zero_for_either_side() {
        let w = Weights::hand_set();
        let p = opening();
        assert_eq!(evaluate(&p, &w), 0);
        assert_eq!(evaluate(&p.flip(), &w), 0);
    }

    #[test]
    fn a_goal_this_turn_is_a_win_score() {
        let w = Weights::hand_set();
        let p = pos("g", &[("R", "d7"), ("r", "a7"), ("E", "a1"), ("e", "h8")]);
        assert_eq!(evaluate(&p, &w), WIN - 1);
        assert!(explain(&p, &w).to_string().contains("goal in 1 step"));
        // The breakdown still shows the positional terms (here a rabbit more for gold).
        let q = pos(
            "g",
            &[
                ("R", "d7"),
                ("R", "b2"),
                ("r", "a7"),
                ("E", "a1"),
                ("e", "h8"),
            ],
        );
        assert_eq!(evaluate(&q, &w), WIN - 1);
        let b = explain(&q, &w);
        assert!(b.get(Term::Material, Color::Gold) > 0, "{b}");
        assert_eq!(b.score(), WIN - 1);
    }

    #[test]
    fn an_extra_piece_is_better() {
        let w = Weights::hand_set();
        let a = pos(
            "g",
            &[
                ("R", "a2"),
                ("D", "d2"),
                ("r", "a7"),
                ("E", "h1"),
                ("e", "h8"),
            ],
        );
        let b = pos("g", &[("R", "a2"), ("r", "a7"), ("E", "h1"), ("e", "h8")]);
        assert!(evaluate(&a, &w) > evaluate(&b, &w));
    }

    #[test]
    fn seed_diagram_gold_to_move_wins_by_goal() {
        // "If it were Gold's turn to move, Gold could win in three steps."
        let w = Weights::hand_set();
        let p = seed_diagram("g");
        assert_eq!(goal::goal_in(&p), Some(3));
        assert_eq!(evaluate(&p, &w), WIN - 3);
        assert_eq!(evaluate(&p.flip(), &w), WIN - 3);
    }

    #[test]
    fn seed_diagram_silver_to_move_captures_the_horse_and_fears_the_goal() {
        // "Silver to move could capture the gold horse on d6 by pushing it to c6."
        let w = Weights::hand_set();
        let p = seed_diagram("s");
        assert_eq!(captures::best_capture(&p), Some(PieceKind::Horse));
        let b = explain(&p, &w);
        assert!(b.get(Term::Captures, Color::Silver) > 0);
        // Gold's goal in three is a threat silver must meet.
        assert_eq!(b.get(Term::GoalThreat, Color::Gold), w[id::goal_threat]);
        assert_eq!(b.get(Term::GoalThreat, Color::Silver), 0);
    }

    #[test]
    fn seed_diagram_frozen_pieces_hostages_and_traps() {
        let w = Weights::hand_set();
        let p = seed_diagram("s");
        let ctx = Context::new(&p, &w);
        // "The silver rabbit on a7 is frozen ... the gold rabbit on b7 is frozen, but the gold
        // cat on c1 is not"; the silver elephant d5 freezes the gold horse d6.
        let sq = |s| tusk_engine::Square::parse(s).unwrap();
        assert!(ctx.frozen[Color::Silver].contains(sq("a7")));
        assert!(ctx.frozen[Color::Gold].contains(sq("b7")));
        assert!(ctx.frozen[Color::Gold].contains(sq("d6")));
        assert!(!ctx.frozen[Color::Gold].contains(sq("c1")));
        let b = explain(&p, &w);
        assert!(b.get(Term::Frozen, Color::Gold) < b.get(Term::Frozen, Color::Silver));
        // The frozen horse beside c6, which silver holds, is a hostage.
        assert!(ctx.control[2] < 0, "silver holds c6: {:?}", ctx.control);
        assert!(b.get(Term::Hostages, Color::Gold) < 0);
        // Gold's elephant d3 and dog b3 hold c3 although a silver rabbit sits on it.
        assert!(ctx.control[0] > 0, "gold holds c3: {:?}", ctx.control);
        // That rabbit has two guards (c4, c2): not yet a single-guard case.
        assert_eq!(b.get(Term::SingleGuard, Color::Silver), 0);
    }

    #[test]
    fn the_breakdown_table_lists_every_term() {
        let w = Weights::hand_set();
        let text = explain(&opening(), &w).to_string();
        for t in Term::ALL {
            assert!(text.contains(t.name()), "{text}");
        }
        assert!(text.contains("gold-silver") && text.contains("total"));
    }
}
