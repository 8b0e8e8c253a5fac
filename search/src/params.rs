//! Every search tunable and feature switch in one place, so measurements can turn features off
//! one at a time (`tusk bench --without lmr`) and no bare margins live in the search code.

use tusk_eval::Weights;

/// A search feature that can be switched off for measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// Probing and storing the transposition table (cutoffs, and the hash move if on).
    Tt,
    /// The transposition table's move tried first.
    TtMove,
    /// Move ordering beyond generation order: captures, goal steps, killers, history.
    Ordering,
    /// Null move at turn starts.
    NullMove,
    /// Late-move reductions.
    Lmr,
    /// Quiescence search of captures at the horizon (off: static evaluation).
    Quiescence,
    /// Goal-threat handling: extend a threatened turn at the horizon and search only the steps
    /// that can matter to the threat.
    GoalThreat,
    /// Aspiration windows at the root.
    Aspiration,
    /// Reduced depth for late root turns.
    RootReductions,
    /// Searching two independent moves of one turn in one order only.
    Commute,
    /// Whole capture moves in the quiescence search: every shortest step sequence within the
    /// steps left that captures (approach, push or pull, capture) as one move (off: only the
    /// two-step pushes and pulls that capture at once).
    CaptureMoves,
    /// At the horizon, a turn start threatened with a goal that no turn can stop (and where the
    /// side to move cannot goal first) is scored as lost instead of standing pat.
    GoalDefence,
    /// In the quiescence search, where the side to move can capture and the opponent threatens
    /// to capture a piece worth at least as much next turn, standing pat counts only the
    /// defence and the capture is played as a whole capture move, the opponent's reply capture
    /// after it
    /// ([`tusk_eval::stand_pat_above`]).
    Exchange,
    /// At a turn start threatened with a goal and reached with one to three steps of depth
    /// left, on every line: the fewest steps that stop every goal are found (the goal-defence
    /// walk, one to four steps deep in turn); with none the node is lost, and where the
    /// shortest defence is longer than the depth left the depth is extended to it, so that the
    /// defence is judged by the opponent's exact goal detector instead of a mid-turn stand pat.
    DefenceExtension,
    /// Late-move pruning: one or two steps from the horizon, off the principal variation and
    /// not under a goal threat, the quiet moves ordered after the first few (not the table's
    /// move, a killer or a pass) are not searched at all. On by default.
    LateMovePruning,
    /// Late-move pruning spares the moves near the mover's goal: a step (or the steps of a
    /// push or pull) on the three ranks before its goal while the mover has a rabbit on them
    /// or the rank below (`ordering::near_goal`). Without it, pruning the last
    /// steps of a turn can hide the step that completes a goal threat (the goal-defence
    /// extension's test position). Off by default.
    LmpGoalZone,
    /// At every turn start, besides the goal detector: the side to move wins at once when the
    /// side that just moved has one rabbit left and the side to move can capture a rabbit
    /// this turn (the exact capture detector): elimination, scored as a win within the turn
    /// (four steps, an upper bound). Off by default.
    EliminationThreat,
    /// The quiescence search plays the side to move's captures out at every turn start:
    /// standing pat there leaves its capture out (and mid-turn where [`Feature::Exchange`]
    /// would), and the capture is played as a whole capture move, after which the opponent's
    /// reply is met at its turn start in the same way
    /// ([`tusk_eval::CaptureRule::TurnStart`]). Off by default.
    CaptureQuiescence,
    /// Reverse futility pruning: off the principal variation, not under a goal threat and
    /// at most [`Params::rfp_max_depth`] steps from the horizon, a node whose static score
    /// beats beta by [`Params::rfp_margin`] per step of depth left is cut without a search
    /// (the side to move keeps the steps it has; the evaluation already holds the exact
    /// capture and goal detectors of the next turn). On by default since round 26.
    ReverseFutility,
    /// In the quiescence search, in the middle of a turn where the opponent could capture a
    /// piece of the side to move next turn: besides standing pat and capturing, the side may
    /// play a capture defence, every shortest step sequence that leaves a weaker threat
    /// ([`tusk_eval::capture_defences`], of at most [`Params::capture_defence_len`] steps).
    /// Off by default.
    CaptureDefences,
    /// Wasted turns charged where a turn ends in the tree (sharp's reversibles and free
    /// captures; `waste.rs`): a turn the opponent can undo with two of its steps costs 2,000
    /// centirabbits, one it can half undo with one step 15 at the root and 30 deeper, and a
    /// turn spent on a piece that the opponent can then capture up to 800 near the horizon.
    /// Off by default.
    Waste,
    /// With [`Feature::GoalThreat`]: the restriction of a threatened turn to the steps near the
    /// threat holds only while the threat stands. Mid-turn, once the steps played have stopped
    /// every goal of the opponent (its goal detector, asked as if the turn ended there), the
    /// steps left are no longer restricted; they keep the threatened turn's full depth
    /// (`Params::lift_prunes` off, the default) or are reduced and pruned like any others
    /// (on). Without it a defence of one step left the three after it restricted too: a
    /// capture elsewhere after the defence was never searched. Off by default until a match
    /// proves it.
    ThreatLift,
    /// After the first iteration, the root turns are ordered by the move predictor
    /// ([`crate::predictor`]: a model of whole turns fitted on the turns chosen in real
    /// games), the iteration's best kept first, and keep that order through the later
    /// iterations (unless [`Feature::PredictorRerank`]); with [`Feature::RootReductions`]
    /// the reductions then follow the model's ranking. Off by default.
    Predictor,
    /// With [`Feature::Predictor`]: after every later iteration too, the root turns after
    /// the best are ranked again by the model, the search-gap feature taken from that
    /// iteration's fail-soft bounds (how far each turn was refuted) instead of the first
    /// iteration's scores; the other features are computed once. Off by default.
    PredictorRerank,
    /// Whole capture moves in the main search (issue 22's capture moves as moves of the
    /// tree, as sharp generates them first at every node): at a node with depth left and at
    /// least three steps left, every capture move of three or four steps
    /// ([`tusk_eval::capture_moves`]; two-step captures are pushes and pulls, node moves
    /// already) that wins material is searched first, at full depth, never reduced or pruned,
    /// consuming its steps of depth. So a capture that needs more steps than the depth left
    /// is still played out instead of being priced by the evaluation. Off by default.
    TreeCaptures,
    /// Approach-and-push tactics in the main search (part of sharp's relevant tactics): at a
    /// node with depth left and at least three steps left, every three- or four-step move in
    /// which one own piece walks up to an enemy trap guard, or to an enemy piece near a trap
    /// the side to move holds alone, and pushes or pulls it (`tree_tactics.rs`) is searched
    /// after the capture moves and before the node's own moves, at full depth, never reduced
    /// or pruned, consuming its steps of depth. Off by default.
    TreeTactics,
    /// Whole capture defences in the main search (sharp's capture defences among its relevant
    /// tactics): at a turn start with depth left where the opponent could capture a piece of
    /// the side to move if the turn ended now, every shortest defence of two to four steps
    /// ([`tusk_eval::capture_defences`]: the threatened piece steps away, a guard comes, the
    /// attacker is pushed off or frozen, the way is blocked) is searched after the captures
    /// and tactics and before the node's own moves, at full depth, never reduced or pruned,
    /// consuming its steps of depth (`tree_defences.rs`). So a threat the opponent's turn can
    /// parry is seen parried however little depth is left. Off by default.
    TreeDefences,
    /// A capture-threat extension: a turn start with one to three steps of depth left, not
    /// under a goal threat, where the opponent could capture a piece of the side to move next
    /// turn and no single step stops it, is searched a whole turn deep (depth 4), so that the
    /// horizon after it judges the defence found or the capture allowed instead of the
    /// evaluation's price of a threat. Off by default.
    CaptureThreatExtension,
    /// At every turn start, besides the goal detector (and `elim`): the side to move wins at
    /// once when it can end its turn leaving the side that just moved no legal step, by the
    /// exact immobilisation detector ([`tusk_eval::immobilisation`], asked only where at most
    /// four pieces of that side could move), scored as a win within the turn (the steps left
    /// charged, an upper bound). Off by default.
    ImmobilisationThreat,
}

impl Feature {
    /// Every feature.
    pub const ALL: [Feature; 29] = [
        Feature::Tt,
        Feature::TtMove,
        Feature::Ordering,
        Feature::NullMove,
        Feature::Lmr,
        Feature::Quiescence,
        Feature::GoalThreat,
        Feature::Aspiration,
        Feature::RootReductions,
        Feature::Commute,
        Feature::CaptureMoves,
        Feature::GoalDefence,
        Feature::Exchange,
        Feature::DefenceExtension,
        Feature::LateMovePruning,
        Feature::LmpGoalZone,
        Feature::EliminationThreat,
        Feature::CaptureQuiescence,
        Feature::ReverseFutility,
        Feature::CaptureDefences,
        Feature::Waste,
        Feature::ThreatLift,
        Feature::Predictor,
        Feature::PredictorRerank,
        Feature::TreeCaptures,
        Feature::TreeTactics,
        Feature::TreeDefences,
        Feature::CaptureThreatExtension,
        Feature::ImmobilisationThreat,
    ];

    /// The name used on the command line (`tt`, `ttmove`, `ordering`, `null`, `lmr`, `qsearch`,
    /// `threat`, `aspiration`, `rootred`, `commute`, `capmoves`, `goaldef`, `exchange`,
    /// `defext`, `lmp`, `lmpgoal`, `elim`, `qcapture`, `rfp`, `qdefence`, `waste`,
    /// `threatlift`, `predictor`, `rerank`, `tcapture`, `ttactic`, `tdefence`, `cthreat`,
    /// `immo`).
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Tt => "tt",
            Feature::TtMove => "ttmove",
            Feature::Ordering => "ordering",
            Feature::NullMove => "null",
            Feature::Lmr => "lmr",
            Feature::Quiescence => "qsearch",
            Feature::GoalThreat => "threat",
            Feature::Aspiration => "aspiration",
            Feature::RootReductions => "rootred",
            Feature::Commute => "commute",
            Feature::CaptureMoves => "capmoves",
            Feature::GoalDefence => "goaldef",
            Feature::Exchange => "exchange",
            Feature::DefenceExtension => "defext",
            Feature::LateMovePruning => "lmp",
            Feature::LmpGoalZone => "lmpgoal",
            Feature::EliminationThreat => "elim",
            Feature::CaptureQuiescence => "qcapture",
            Feature::ReverseFutility => "rfp",
            Feature::CaptureDefences => "qdefence",
            Feature::Waste => "waste",
            Feature::ThreatLift => "threatlift",
            Feature::Predictor => "predictor",
            Feature::PredictorRerank => "rerank",
            Feature::TreeCaptures => "tcapture",
            Feature::TreeTactics => "ttactic",
            Feature::TreeDefences => "tdefence",
            Feature::CaptureThreatExtension => "cthreat",
            Feature::ImmobilisationThreat => "immo",
        }
    }

    /// Every feature's name, comma-separated, in [`Feature::ALL`] order (for messages).
    pub const NAMES: &'static str =
        "tt, ttmove, ordering, null, lmr, qsearch, threat, aspiration, rootred, commute, capmoves, \
         goaldef, exchange, defext, lmp, lmpgoal, elim, qcapture, rfp, qdefence, waste, threatlift, \
         predictor, rerank, tcapture, ttactic, tdefence, cthreat, immo";

    /// The feature called `name` (see [`Feature::name`]).
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The features of a comma-separated list of names (spaces around names and empty items
    /// ignored); `Err` holds the first name that is not a feature.
    pub fn parse_list(list: &str) -> Result<Vec<Feature>, String> {
        list.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|n| Feature::from_name(n).ok_or_else(|| n.to_string()))
            .collect()
    }
}

/// A numeric search tunable that can be set by name (`tusk bench --param rfp_margin=30`, the
/// AEI option of the same name), so a variant can be measured in a match without a new build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tunable {
    /// [`Params::null_min_depth`].
    NullMinDepth,
    /// [`Params::null_reduction`].
    NullReduction,
    /// [`Params::lmr_min_depth`].
    LmrMinDepth,
    /// [`Params::lmr_full_moves`].
    LmrFullMoves,
    /// [`Params::lmr_deep_moves`].
    LmrDeepMoves,
    /// [`Params::aspiration_window`].
    AspirationWindow,
    /// [`Params::max_extension`].
    MaxExtension,
    /// [`Params::goal_defence_nodes`].
    GoalDefenceNodes,
    /// [`Params::lmp_moves`] one step from the horizon.
    LmpMoves1,
    /// [`Params::lmp_moves`] two steps from the horizon.
    LmpMoves2,
    /// [`Params::rfp_max_depth`].
    RfpMaxDepth,
    /// [`Params::rfp_margin`].
    RfpMargin,
    /// [`Params::capture_defence_len`].
    CaptureDefenceLen,
    /// [`Params::immobilise_mobile`].
    ImmobiliseMobile,
    /// [`Params::immobilise_steps`].
    ImmobiliseSteps,
    /// [`Params::reversal_penalty`].
    ReversalPenalty,
    /// [`Params::free_capture_pct`].
    FreeCapturePct,
    /// [`Params::lift_prunes`].
    LiftPrunes,
    /// [`Params::root_full_moves`].
    RootFullMoves,
    /// [`Params::root_reduce`]`[0]`, in thousandths of the root list.
    RootReduce1,
    /// [`Params::root_reduce`]`[1]`, in thousandths of the root list.
    RootReduce2,
    /// [`Params::root_reduce`]`[2]`, in thousandths of the root list.
    RootReduce3,
    /// [`Params::brief_moves`].
    BriefMoves,
}

/// Why a tunable assignment (`name=value`) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TunableError {
    /// The text is not of the form `name=value`.
    #[error("{0}: expected NAME=VALUE")]
    Malformed(String),
    /// No tunable has this name.
    #[error("{0}: unknown tunable (known: {names})", names = Tunable::NAMES)]
    Unknown(String),
    /// The value is not a whole number within the tunable's range.
    #[error("{name}={value}: expected a whole number from {min} to {max}")]
    OutOfRange {
        /// The tunable's name.
        name: &'static str,
        /// The value given.
        value: String,
        /// The least value allowed.
        min: i64,
        /// The greatest value allowed.
        max: i64,
    },
}

impl Tunable {
    /// Every tunable.
    pub const ALL: [Tunable; 23] = [
        Tunable::NullMinDepth,
        Tunable::NullReduction,
        Tunable::LmrMinDepth,
        Tunable::LmrFullMoves,
        Tunable::LmrDeepMoves,
        Tunable::AspirationWindow,
        Tunable::MaxExtension,
        Tunable::GoalDefenceNodes,
        Tunable::LmpMoves1,
        Tunable::LmpMoves2,
        Tunable::RfpMaxDepth,
        Tunable::RfpMargin,
        Tunable::CaptureDefenceLen,
        Tunable::ImmobiliseMobile,
        Tunable::ImmobiliseSteps,
        Tunable::ReversalPenalty,
        Tunable::FreeCapturePct,
        Tunable::LiftPrunes,
        Tunable::RootFullMoves,
        Tunable::RootReduce1,
        Tunable::RootReduce2,
        Tunable::RootReduce3,
        Tunable::BriefMoves,
    ];

    /// Every tunable's name, comma-separated, in [`Tunable::ALL`] order (for messages).
    pub const NAMES: &'static str = "null_min_depth, null_reduction, lmr_min_depth, \
         lmr_full_moves, lmr_deep_moves, aspiration_window, max_extension, goal_defence_nodes, \
         lmp_moves1, lmp_moves2, rfp_max_depth, rfp_margin, capture_defence_len, \
         immobilise_mobile, immobilise_steps, reversal_penalty, free_capture_pct, lift_prunes, \
         root_full_moves, root_reduce1, root_reduce2, root_reduce3, brief_moves";

    /// The name used on the command line and as an AEI option: the field's name, with
    /// `lmp_moves1` and `lmp_moves2` for the two entries of [`Params::lmp_moves`].
    pub const fn name(self) -> &'static str {
        match self {
            Tunable::NullMinDepth => "null_min_depth",
            Tunable::NullReduction => "null_reduction",
            Tunable::LmrMinDepth => "lmr_min_depth",
            Tunable::LmrFullMoves => "lmr_full_moves",
            Tunable::LmrDeepMoves => "lmr_deep_moves",
            Tunable::AspirationWindow => "aspiration_window",
            Tunable::MaxExtension => "max_extension",
            Tunable::GoalDefenceNodes => "goal_defence_nodes",
            Tunable::LmpMoves1 => "lmp_moves1",
            Tunable::LmpMoves2 => "lmp_moves2",
            Tunable::RfpMaxDepth => "rfp_max_depth",
            Tunable::RfpMargin => "rfp_margin",
            Tunable::CaptureDefenceLen => "capture_defence_len",
            Tunable::ImmobiliseMobile => "immobilise_mobile",
            Tunable::ImmobiliseSteps => "immobilise_steps",
            Tunable::ReversalPenalty => "reversal_penalty",
            Tunable::FreeCapturePct => "free_capture_pct",
            Tunable::LiftPrunes => "lift_prunes",
            Tunable::RootFullMoves => "root_full_moves",
            Tunable::RootReduce1 => "root_reduce1",
            Tunable::RootReduce2 => "root_reduce2",
            Tunable::RootReduce3 => "root_reduce3",
            Tunable::BriefMoves => "brief_moves",
        }
    }

    /// The tunable called `name` (see [`Tunable::name`]).
    pub fn from_name(name: &str) -> Option<Tunable> {
        Tunable::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The least and greatest values allowed: wide enough for any experiment, narrow enough
    /// that no value breaks the search (a depth of steps stays within a few turns, a count
    /// of moves within a move list, a margin within the score range).
    pub const fn range(self) -> (i64, i64) {
        match self {
            Tunable::NullMinDepth => (4, 64),
            Tunable::NullReduction => (0, 16),
            Tunable::LmrMinDepth => (1, 64),
            Tunable::LmrFullMoves | Tunable::LmrDeepMoves => (0, 1_000),
            Tunable::AspirationWindow => (1, 10_000),
            Tunable::MaxExtension => (0, 32),
            Tunable::GoalDefenceNodes => (0, 1_000_000),
            Tunable::LmpMoves1 | Tunable::LmpMoves2 => (1, 1_000),
            Tunable::RfpMaxDepth => (0, 16),
            Tunable::RfpMargin => (0, 10_000),
            Tunable::CaptureDefenceLen => (1, 4),
            Tunable::ImmobiliseMobile => (0, tusk_eval::immobilisation::MAX_MOBILE as i64),
            Tunable::ImmobiliseSteps => (0, 1_000_000),
            Tunable::ReversalPenalty => (0, 10_000),
            Tunable::FreeCapturePct => (0, 400),
            Tunable::LiftPrunes => (0, 1),
            Tunable::RootFullMoves => (0, 1_000_000),
            Tunable::RootReduce1 | Tunable::RootReduce2 | Tunable::RootReduce3 => (0, 1_000),
            Tunable::BriefMoves => (0, 1_000_000),
        }
    }

    /// Reads `name=value` (spaces around either ignored) into a tunable and a value in its
    /// range.
    pub fn parse_assignment(text: &str) -> Result<(Tunable, i64), TunableError> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| TunableError::Malformed(text.trim().to_string()))?;
        let name = name.trim();
        let t = Tunable::from_name(name).ok_or_else(|| TunableError::Unknown(name.to_string()))?;
        Ok((t, t.parse_value(value)?))
    }

    /// Reads `value` (spaces around it ignored) as a whole number in this tunable's range.
    pub fn parse_value(self, value: &str) -> Result<i64, TunableError> {
        let value = value.trim();
        let (min, max) = self.range();
        match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(TunableError::OutOfRange {
                name: self.name(),
                value: value.to_string(),
                min,
                max,
            }),
        }
    }

    /// The assignments of a comma-separated list (`rfp_margin=30, rfp_max_depth=4`; empty
    /// items ignored); `Err` for the first one refused.
    pub fn parse_list(list: &str) -> Result<Vec<(Tunable, i64)>, TunableError> {
        list.split(',')
            .filter(|a| !a.trim().is_empty())
            .map(Tunable::parse_assignment)
            .collect()
    }
}

/// The search's tunables. `Params::default()` is what the engine plays with.
#[derive(Clone, Debug)]
pub struct Params {
    /// The evaluation weights.
    pub weights: Weights,
    /// Use the transposition table.
    pub tt: bool,
    /// Try the table's move first (measured harmful while a pass cost no depth; with passes
    /// charged it saves time to depth, see search/README.md).
    pub tt_move: bool,
    /// Order moves (otherwise only the hash move goes first).
    pub ordering: bool,
    /// Null move at turn starts.
    pub null_move: bool,
    /// Least remaining depth (steps) for a null move.
    pub null_min_depth: i32,
    /// Steps taken off the depth by a null move, besides the four of the skipped turn.
    pub null_reduction: i32,
    /// Late-move reductions.
    pub lmr: bool,
    /// Least remaining depth (steps) for a reduction.
    pub lmr_min_depth: i32,
    /// Moves searched in full before reductions start.
    pub lmr_full_moves: usize,
    /// Moves searched before reductions take two steps instead of one.
    pub lmr_deep_moves: usize,
    /// Quiescence search at the horizon.
    pub quiescence: bool,
    /// Goal-threat extension and pruning.
    pub goal_threat: bool,
    /// The goal-threat restriction lifted mid-turn once the threat is stopped (see
    /// [`Feature::ThreatLift`]).
    pub threat_lift: bool,
    /// With [`Feature::ThreatLift`]: whether the steps left after the lift are reduced and
    /// pruned like any others (true, the tunable `lift_prunes` at 1) or keep the full depth
    /// a threatened turn has (false, the default: only the restriction to the threat's region
    /// is lifted).
    pub lift_prunes: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// First aspiration half-window, centirabbits.
    pub aspiration_window: i32,
    /// The most steps of extension one line may receive for goal threats.
    pub max_extension: i32,
    /// Reduced depth for late root turns (see `root_reduce`); off by default (measured: see
    /// search/README.md).
    pub root_reductions: bool,
    /// Root turns searched in full before any is reduced.
    pub root_full_moves: usize,
    /// The shares of the root list after which turns lose one, two and three steps.
    pub root_reduce: [f64; 3],
    /// A depth-limited search's brief last iteration (sharp's `briefLastDepth`): once the
    /// limit's depth is searched, the best `brief_moves` root turns of it are searched one
    /// step deeper and the best of them is played. 0 (the default) turns it off.
    pub brief_moves: usize,
    /// Search two independent node moves of one turn in one order only (see `commute.rs`).
    pub commute: bool,
    /// Whole capture moves of up to four steps in the quiescence search (see `quiesce.rs`).
    pub capture_moves: bool,
    /// Score a threatened horizon turn start with no goal defence as lost (`goal_defence.rs`).
    pub goal_defence: bool,
    /// Resolve capture exchanges in the quiescence search (see [`Feature::Exchange`]).
    pub exchange: bool,
    /// Play every capture out at turn starts in the quiescence search (see
    /// [`Feature::CaptureQuiescence`]).
    pub capture_quiescence: bool,
    /// Prove losses and extend to the shortest goal defence at threatened turn starts reached
    /// with one to three steps of depth (see [`Feature::DefenceExtension`]).
    pub defence_extension: bool,
    /// Nodes the goal-defence walk may take at one horizon node before its answer counts as
    /// unknown (and the search stands pat as without it).
    pub goal_defence_nodes: u32,
    /// Late-move pruning (see [`Feature::LateMovePruning`]).
    pub late_move_pruning: bool,
    /// Moves searched one and two steps from the horizon (index 0 and 1) before the quiet
    /// ones left are pruned.
    pub lmp_moves: [usize; 2],
    /// Late-move pruning spares the moves near the mover's goal (see
    /// [`Feature::LmpGoalZone`]).
    pub lmp_goal_zone: bool,
    /// The elimination threat at turn starts (see [`Feature::EliminationThreat`]).
    pub elimination_threat: bool,
    /// Reverse futility pruning (see [`Feature::ReverseFutility`]).
    pub reverse_futility: bool,
    /// Most steps of depth left at which reverse futility pruning cuts.
    pub rfp_max_depth: i32,
    /// Centirabbits the static score must beat beta by, per step of depth left, for reverse
    /// futility pruning to cut.
    pub rfp_margin: i32,
    /// Capture defences in the quiescence search (see [`Feature::CaptureDefences`]).
    pub capture_defences: bool,
    /// The longest capture defence the quiescence search plays (steps).
    pub capture_defence_len: u8,
    /// Wasted turns charged in the search (see [`Feature::Waste`]).
    pub waste: bool,
    /// With [`Params::waste`]: centirabbits charged for a turn the opponent undoes with at most
    /// two steps (sharp's 2,000, a ban).
    pub reversal_penalty: i32,
    /// With [`Params::waste`]: the free-capture charges as a percentage of sharp's (up to 800
    /// centirabbits near the horizon at 100); at 0 the free-capture search is not run, and
    /// only the reversals are charged.
    pub free_capture_pct: i32,
    /// Root turns ordered by the move predictor after the first iteration (see
    /// [`Feature::Predictor`]).
    pub predictor: bool,
    /// With [`Params::predictor`], the root turns ranked again after every later iteration
    /// (see [`Feature::PredictorRerank`]).
    pub predictor_rerank: bool,
    /// Whole capture moves searched first in the main search (see [`Feature::TreeCaptures`]).
    pub tree_captures: bool,
    /// Approach-and-push tactics searched after the captures (see [`Feature::TreeTactics`]).
    pub tree_tactics: bool,
    /// Whole capture defences searched after the tactics (see [`Feature::TreeDefences`]).
    pub tree_defences: bool,
    /// The capture-threat extension (see [`Feature::CaptureThreatExtension`]).
    pub capture_threat_extension: bool,
    /// The immobilisation threat at turn starts (see [`Feature::ImmobilisationThreat`]).
    pub immobilisation_threat: bool,
    /// The most pieces of the other side that may still be able to move for the
    /// immobilisation detector to look at a turn start (at most
    /// [`tusk_eval::immobilisation::MAX_MOBILE`]). Two by default: with three or four its
    /// calls cost depth in the endgames (search/README.md, round 44).
    pub immobilise_mobile: u32,
    /// The steps the immobilisation detector may play at one turn start before it gives up
    /// (charged as generator work).
    pub immobilise_steps: u32,
    /// The move predictor's model (the shipped one by default).
    pub predictor_model: crate::predictor::Predictor,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            weights: Weights::default(),
            tt: true,
            tt_move: true,
            ordering: true,
            null_move: true,
            // From 6 steps left. From 5 (a quiescence search of the reply to the skipped turn
            // at depth 9) it searched sharp's game at depth 11 in 7.2 M nodes instead of 9.5 M
            // at 10g and bench depth 9 in 6.0 M instead of 8.4 M, but at 1 s a move it lost
            // 16-24 to the same engine without null move (40 games), so it waits for depth 10.
            null_min_depth: 6,
            // Sharp's game at depth 11: 10g 18.4 M nodes with 1, 9.6 M with 2; 14g 5.5 M and
            // 2.6 M; 18g 3.5 M and 1.5 M (3 or more searches the null move to the horizon).
            null_reduction: 2,
            lmr: true,
            // Bench depth 9 and sharp's game at depth 11 (see the README): reducing from two
            // steps left, after three moves, and by two steps after eight, searched 14g in
            // 5.5 M nodes where 3 / 4 / 12 took 14.7 M, with the same tactics solved.
            lmr_min_depth: 2,
            lmr_full_moves: 3,
            lmr_deep_moves: 8,
            quiescence: true,
            goal_threat: true,
            threat_lift: false,
            // With the lift on: decisive_defence.txt 19 of 20 at depth 8 keeping the depth (as
            // without the lift), 18 pruning (search/README.md).
            lift_prunes: false,
            // Measured at bench depth 8: 12,736,988 nodes without, 12,954,972 with.
            aspiration: false,
            aspiration_window: 60,
            max_extension: 8,
            // Bench depth 9: 3x faster to depth, but 0.2 s-a-move self-play lost with it
            // (46-54, then 43-57 with the root list re-sorted), so off by default.
            root_reductions: false,
            root_full_moves: 8,
            root_reduce: [0.12, 0.30, 0.80],
            brief_moves: 0,
            commute: true,
            capture_moves: false,
            goal_defence: false,
            // Won its match (search/README.md) but fails the capture-defence tactics floor:
            // off until that is settled.
            exchange: false,
            // Judges threatened pieces more as sharp does, but falls below the capture-defence
            // floors and regrets 101 more on the oracle screen at 100,000 nodes (eval/README.md,
            // round 22); no match played: off.
            capture_quiescence: false,
            defence_extension: false,
            // On the 603 threatened turn starts of the goal-defence tactics set and 40 seeded
            // random games, a walk finds a defence in 16 nodes at the median (559 of 580 within
            // 2,000) and proves a loss in 1,870 (12 of 23 within 2,000).
            goal_defence_nodes: 2_000,
            // Against the same engine without it, both at 5,000 nodes (seed 707): 215-185 in
            // 400 games, +26 Elo [-8, +61], LOS 93 %; on fresh openings (seed 808) 204-196, so
            // 419-381 in 800; bench depth 9 34 % fewer nodes. At 5,000 nodes it hardly acts
            // (search/README.md): a match at 100,000 nodes or more is its real test.
            late_move_pruning: true,
            lmp_moves: [8, 16],
            // Makes late-move pruning and the goal-defence extension work together (the
            // extension's test passes with both on); bench depth 9 5,369,122 nodes with it,
            // 4,630,254 without (6,985,180 without late-move pruning). Not measured in games:
            // off until a match at a depth where it acts.
            lmp_goal_zone: false,
            // decisive_defence.txt 16 of 20 at depth 4 with it, 14 without; 17 and 18 at depth 8
            // (search/README.md). Acts only with one rabbit left: not measured in games, off
            // until a match says so.
            elimination_threat: false,
            // Against the same engine without it at 50,000 nodes a move (seed 2402): 216-184 in
            // 400 games, +27.9 Elo [-6.1, +62.4], LOS 94.5 % (search/README.md): on.
            reverse_futility: true,
            rfp_max_depth: 3,
            rfp_margin: 60,
            // Mid-turn only, one step: capture_defence_games.txt 161/183 at depth 4 (158
            // without), every floor kept; against the defaults at 50,000 nodes 59-68 in 127
            // games (search/README.md), undecided and leaning against: off.
            capture_defences: false,
            // Every sequence of each length is judged by the capture detector: one step costs
            // about 25 detector calls a node, two steps about 600 (see search/README.md).
            capture_defence_len: 1,
            // sharp's reversibles and free captures at sharp's charges: 26-40 in 66 games
            // against the defaults at 50,000 nodes (search/README.md), far from a gain; with a
            // quarter of the free-capture charge 40-41 in 81, undecided: off.
            waste: false,
            reversal_penalty: crate::waste::Charges::SHARP.full_reversal,
            free_capture_pct: crate::waste::Charges::SHARP.free_capture_pct,
            predictor: false,
            predictor_rerank: false,
            tree_captures: false,
            tree_tactics: false,
            tree_defences: false,
            capture_threat_extension: false,
            immobilisation_threat: false,
            immobilise_mobile: 2,
            immobilise_steps: 2_000,
            predictor_model: crate::predictor::Predictor::shipped(),
        }
    }
}

impl Params {
    /// Switches `feature` on or off.
    pub fn set(&mut self, feature: Feature, on: bool) {
        match feature {
            Feature::Tt => self.tt = on,
            Feature::TtMove => self.tt_move = on,
            Feature::Ordering => self.ordering = on,
            Feature::NullMove => self.null_move = on,
            Feature::Lmr => self.lmr = on,
            Feature::Quiescence => self.quiescence = on,
            Feature::GoalThreat => self.goal_threat = on,
            Feature::Aspiration => self.aspiration = on,
            Feature::RootReductions => self.root_reductions = on,
            Feature::Commute => self.commute = on,
            Feature::CaptureMoves => self.capture_moves = on,
            Feature::GoalDefence => self.goal_defence = on,
            Feature::Exchange => self.exchange = on,
            Feature::DefenceExtension => self.defence_extension = on,
            Feature::LateMovePruning => self.late_move_pruning = on,
            Feature::LmpGoalZone => self.lmp_goal_zone = on,
            Feature::EliminationThreat => self.elimination_threat = on,
            Feature::CaptureQuiescence => self.capture_quiescence = on,
            Feature::ReverseFutility => self.reverse_futility = on,
            Feature::CaptureDefences => self.capture_defences = on,
            Feature::Waste => self.waste = on,
            Feature::ThreatLift => self.threat_lift = on,
            Feature::Predictor => self.predictor = on,
            Feature::PredictorRerank => self.predictor_rerank = on,
            Feature::TreeCaptures => self.tree_captures = on,
            Feature::TreeTactics => self.tree_tactics = on,
            Feature::TreeDefences => self.tree_defences = on,
            Feature::CaptureThreatExtension => self.capture_threat_extension = on,
            Feature::ImmobilisationThreat => self.immobilisation_threat = on,
        }
    }

    /// Switches the features of `on` on, then those of `off` off (so `off` wins where both
    /// name one): what `with` and `without` mean in the AEI options and on the command line.
    pub fn switch(&mut self, on: &[Feature], off: &[Feature]) {
        for &f in on {
            self.set(f, true);
        }
        for &f in off {
            self.set(f, false);
        }
    }

    /// The value of tunable `t`.
    pub fn tunable(&self, t: Tunable) -> i64 {
        match t {
            Tunable::NullMinDepth => i64::from(self.null_min_depth),
            Tunable::NullReduction => i64::from(self.null_reduction),
            Tunable::LmrMinDepth => i64::from(self.lmr_min_depth),
            Tunable::LmrFullMoves => self.lmr_full_moves as i64,
            Tunable::LmrDeepMoves => self.lmr_deep_moves as i64,
            Tunable::AspirationWindow => i64::from(self.aspiration_window),
            Tunable::MaxExtension => i64::from(self.max_extension),
            Tunable::GoalDefenceNodes => i64::from(self.goal_defence_nodes),
            Tunable::LmpMoves1 => self.lmp_moves[0] as i64,
            Tunable::LmpMoves2 => self.lmp_moves[1] as i64,
            Tunable::RfpMaxDepth => i64::from(self.rfp_max_depth),
            Tunable::RfpMargin => i64::from(self.rfp_margin),
            Tunable::CaptureDefenceLen => i64::from(self.capture_defence_len),
            Tunable::ImmobiliseMobile => i64::from(self.immobilise_mobile),
            Tunable::ImmobiliseSteps => i64::from(self.immobilise_steps),
            Tunable::ReversalPenalty => i64::from(self.reversal_penalty),
            Tunable::FreeCapturePct => i64::from(self.free_capture_pct),
            Tunable::LiftPrunes => i64::from(self.lift_prunes),
            Tunable::RootFullMoves => self.root_full_moves as i64,
            Tunable::RootReduce1 => (self.root_reduce[0] * 1000.0).round() as i64,
            Tunable::RootReduce2 => (self.root_reduce[1] * 1000.0).round() as i64,
            Tunable::RootReduce3 => (self.root_reduce[2] * 1000.0).round() as i64,
            Tunable::BriefMoves => self.brief_moves as i64,
        }
    }

    /// Sets tunable `t` to `value`, clamped to [`Tunable::range`] (the parsers refuse values
    /// outside it before they get here).
    pub fn set_tunable(&mut self, t: Tunable, value: i64) {
        let (min, max) = t.range();
        let v = value.clamp(min, max);
        // In range, every value fits its field (the ranges are far inside i32 and u32).
        let (int, count) = (v as i32, v as usize);
        match t {
            Tunable::NullMinDepth => self.null_min_depth = int,
            Tunable::NullReduction => self.null_reduction = int,
            Tunable::LmrMinDepth => self.lmr_min_depth = int,
            Tunable::LmrFullMoves => self.lmr_full_moves = count,
            Tunable::LmrDeepMoves => self.lmr_deep_moves = count,
            Tunable::AspirationWindow => self.aspiration_window = int,
            Tunable::MaxExtension => self.max_extension = int,
            Tunable::GoalDefenceNodes => self.goal_defence_nodes = v as u32,
            Tunable::LmpMoves1 => self.lmp_moves[0] = count,
            Tunable::LmpMoves2 => self.lmp_moves[1] = count,
            Tunable::RfpMaxDepth => self.rfp_max_depth = int,
            Tunable::RfpMargin => self.rfp_margin = int,
            Tunable::CaptureDefenceLen => self.capture_defence_len = v as u8,
            Tunable::ImmobiliseMobile => self.immobilise_mobile = v as u32,
            Tunable::ImmobiliseSteps => self.immobilise_steps = v as u32,
            Tunable::ReversalPenalty => self.reversal_penalty = int,
            Tunable::FreeCapturePct => self.free_capture_pct = int,
            Tunable::LiftPrunes => self.lift_prunes = v == 1,
            Tunable::RootFullMoves => self.root_full_moves = count,
            Tunable::RootReduce1 => self.root_reduce[0] = v as f64 / 1000.0,
            Tunable::RootReduce2 => self.root_reduce[1] = v as f64 / 1000.0,
            Tunable::RootReduce3 => self.root_reduce[2] = v as f64 / 1000.0,
            Tunable::BriefMoves => self.brief_moves = count,
        }
    }

    /// Sets each tunable of `assignments` in order (a later one wins).
    pub fn tune(&mut self, assignments: &[(Tunable, i64)]) {
        for &(t, v) in assignments {
            self.set_tunable(t, v);
        }
    }

    /// Where the quiescence search's stand-pat leaves the side to move's capture to be played
    /// as a move: `qcapture` wins over `exchange`, which wins over the plain evaluation.
    pub fn capture_rule(&self) -> tusk_eval::CaptureRule {
        if self.capture_quiescence {
            tusk_eval::CaptureRule::TurnStart
        } else if self.exchange {
            tusk_eval::CaptureRule::Exchange
        } else {
            tusk_eval::CaptureRule::Counted
        }
    }

    /// Whether `feature` is on.
    pub fn get(&self, feature: Feature) -> bool {
        match feature {
            Feature::Tt => self.tt,
            Feature::TtMove => self.tt_move,
            Feature::Ordering => self.ordering,
            Feature::NullMove => self.null_move,
            Feature::Lmr => self.lmr,
            Feature::Quiescence => self.quiescence,
            Feature::GoalThreat => self.goal_threat,
            Feature::Aspiration => self.aspiration,
            Feature::RootReductions => self.root_reductions,
            Feature::Commute => self.commute,
            Feature::CaptureMoves => self.capture_moves,
            Feature::GoalDefence => self.goal_defence,
            Feature::Exchange => self.exchange,
            Feature::DefenceExtension => self.defence_extension,
            Feature::LateMovePruning => self.late_move_pruning,
            Feature::LmpGoalZone => self.lmp_goal_zone,
            Feature::EliminationThreat => self.elimination_threat,
            Feature::CaptureQuiescence => self.capture_quiescence,
            Feature::ReverseFutility => self.reverse_futility,
            Feature::CaptureDefences => self.capture_defences,
            Feature::Waste => self.waste,
            Feature::ThreatLift => self.threat_lift,
            Feature::Predictor => self.predictor,
            Feature::PredictorRerank => self.predictor_rerank,
            Feature::TreeCaptures => self.tree_captures,
            Feature::TreeTactics => self.tree_tactics,
            Feature::TreeDefences => self.tree_defences,
            Feature::CaptureThreatExtension => self.capture_threat_extension,
            Feature::ImmobilisationThreat => self.immobilisation_threat,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_switches_work() {
        let mut p = Params::default();
        for f in Feature::ALL {
            assert_eq!(Feature::from_name(f.name()), Some(f));
            p.set(f, true);
            assert!(p.get(f));
            p.set(f, false);
            assert!(!p.get(f));
        }
        assert_eq!(Feature::from_name("bogus"), None);
        assert_eq!(Feature::ALL.map(|f| f.name()).join(", "), Feature::NAMES);
    }

    #[test]
    fn tunables_round_trip_by_name_and_value() {
        assert_eq!(Tunable::ALL.map(|t| t.name()).join(", "), Tunable::NAMES);
        for t in Tunable::ALL {
            assert_eq!(Tunable::from_name(t.name()), Some(t));
            let (min, max) = t.range();
            assert!(min <= Params::default().tunable(t) && Params::default().tunable(t) <= max);
            for v in [min, max, (min + max) / 2] {
                let mut p = Params::default();
                p.set_tunable(t, v);
                assert_eq!(p.tunable(t), v, "{}", t.name());
                // Only this tunable moved.
                for other in Tunable::ALL.into_iter().filter(|&o| o != t) {
                    assert_eq!(p.tunable(other), Params::default().tunable(other));
                }
            }
        }
        let mut p = Params::default();
        p.tune(&Tunable::parse_list(" rfp_margin = 30,,lmp_moves2=20, rfp_margin=45").unwrap());
        assert_eq!(
            (p.rfp_margin, p.lmp_moves, p.rfp_max_depth),
            (45, [8, 20], 3)
        );
    }

    #[test]
    fn bad_tunable_assignments_say_what_is_wrong() {
        let e = |t: &str| Tunable::parse_list(t).unwrap_err().to_string();
        assert_eq!(e("rfp_margin"), "rfp_margin: expected NAME=VALUE");
        assert!(e("rfp=3").starts_with("rfp: unknown tunable (known: null_min_depth,"));
        assert_eq!(
            e("null_reduction=1,rfp_margin=-5"),
            "rfp_margin=-5: expected a whole number from 0 to 10000"
        );
        assert_eq!(
            e("rfp_max_depth=2.5"),
            "rfp_max_depth=2.5: expected a whole number from 0 to 16"
        );
        assert_eq!(Tunable::parse_list(""), Ok(vec![]));
    }

    #[test]
    fn lists_parse_and_name_the_first_unknown_feature() {
        assert_eq!(
            Feature::parse_list(" lmr, rootred,,"),
            Ok(vec![Feature::Lmr, Feature::RootReductions])
        );
        assert_eq!(Feature::parse_list(""), Ok(vec![]));
        assert_eq!(
            Feature::parse_list("tt,bogus,nope"),
            Err("bogus".to_string())
        );
    }
}
