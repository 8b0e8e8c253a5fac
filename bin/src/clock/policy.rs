//! Tusk's time policy: how much of what the clock allows it spends on one turn, and when it
//! thinks longer. Shared by the AEI engine and `tusk analyze --time`.
//!
//! The [`Budget`] is measured from the turn's start. It aims at the per-move time plus a
//! share of the reserve, never less than what would otherwise be lost to the reserve cap,
//! keeps a safety margin for process and pipe lag, and splits into a *soft* deadline (start
//! no new iteration after it) and a *hard* one (stop at once). [`Spending`] follows one
//! search: it turns the budget into the search control's deadlines, shifted by the
//! `moveused` the controller reported and stretched by an extension when the opponent
//! threatens goal or the best turn changes late. Every constant lives in [`params`].

use std::time::Duration;

use tusk_engine::{Position, Turn};
use tusk_search::{Control, Report, ScoreKind};

use super::control::{seconds_to_duration, TimeControl};

/// The tunables of time management, in one place.
pub mod params {
    /// Lag margin: a fixed part, seconds.
    pub const LAG_FIXED: f64 = 0.25;
    /// Lag margin: a part proportional to the time available.
    pub const LAG_FRACTION: f64 = 0.04;
    /// The margin is never more than this fraction of the time available.
    pub const LAG_MAX_FRACTION: f64 = 0.5;
    /// The reserve is spread over this many own turns (fewer when `tcturns` ends the game
    /// sooner).
    pub const HORIZON: u32 = 20;
    /// Share of the per-move time aimed at when no unused time is credited (`tcpercent` 0).
    pub const MOVE_SHARE_NO_CREDIT: f64 = 0.95;
    /// How much less of the per-move time is aimed at when all unused time is credited
    /// (`tcpercent` 100): the rest is banked for harder turns.
    pub const MOVE_SHARE_CREDIT_DISCOUNT: f64 = 0.25;
    /// The soft deadline as a fraction of the target (an iteration started before it is
    /// usually finished after it).
    pub const SOFT_OF_TARGET: f64 = 0.5;
    /// The hard deadline as a multiple of the target (before the lag margin caps it).
    pub const HARD_OF_TARGET: f64 = 2.0;
    /// No turn spends more than the per-move time and this share of the reserve.
    pub const MAX_RESERVE_SHARE: f64 = 0.5;
    /// Extension when the opponent threatens to goal next turn.
    pub const GOAL_THREAT_EXTENSION: f64 = 1.5;
    /// Extension applied each time the best turn changes late in the search.
    pub const BEST_CHANGE_EXTENSION: f64 = 1.4;
    /// A best-turn change counts as late once this fraction of the soft deadline has passed.
    pub const LATE_FRACTION: f64 = 0.5;
    /// The largest total extension.
    pub const MAX_EXTENSION: f64 = 2.0;
    /// After this many completed iterations with the same best turn ...
    pub const STABLE_ITERATIONS: u32 = 4;
    /// ... the search stops once this fraction of the soft deadline has passed.
    pub const STABLE_SOFT_FRACTION: f64 = 0.4;
    /// A proven win or loss stops the search once it has been confirmed this many steps
    /// deeper.
    pub const PROVEN_EXTRA_STEPS: u32 = 4;
    /// With a small reserve extensions shrink: at most 1 + reserve / (this x tcmove), so a
    /// drained reserve is not drained further.
    pub const EXTENSION_RESERVE_MOVES: f64 = 2.0;
}

/// What the clock says at the start of a turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnClock {
    /// The mover's reserve, seconds.
    pub reserve: f64,
    /// Seconds since the game began (for `tctotal`).
    pub game_elapsed: f64,
    /// The number of the move about to be played (`7` in `7g`; for `tcturns`).
    pub move_number: u32,
}

/// Tusk's time for one turn, in seconds from the turn's start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// The controller's deadline.
    pub available: f64,
    /// What Tusk aims to spend on an ordinary turn.
    pub target: f64,
    /// Start no new iteration after this.
    pub soft: f64,
    /// Stop at once at this; `available` less the lag margin.
    pub hard: f64,
    /// The most any extension may stretch `hard` to.
    pub hard_cap: f64,
    /// The largest extension this turn allows (see [`params::EXTENSION_RESERVE_MOVES`]).
    pub max_extension: f64,
}

/// The lag margin kept below the controller's deadline `available`.
pub fn lag_margin(available: f64) -> f64 {
    (params::LAG_FIXED + params::LAG_FRACTION * available).min(available * params::LAG_MAX_FRACTION)
}

/// Tusk's budget for the turn under `tc`, or `None` when no time limit applies.
pub fn budget(tc: &TimeControl, clock: &TurnClock) -> Option<Budget> {
    let reserve = clock.reserve.max(0.0);
    let available = tc.turn_deadline(reserve, clock.game_elapsed)?.seconds;
    let hard_cap = (available - lag_margin(available))
        .min(tc.per_move + params::MAX_RESERVE_SHARE * reserve)
        .max(0.0);
    let credit = (tc.percent / 100.0).clamp(0.0, 1.0);
    let mut horizon = params::HORIZON;
    if tc.turns > 0 {
        let left = tc.turns.saturating_sub(clock.move_number).saturating_add(1);
        horizon = horizon.min(left.max(1));
    }
    let share = params::MOVE_SHARE_NO_CREDIT - params::MOVE_SHARE_CREDIT_DISCOUNT * credit;
    let mut target = tc.per_move * share + reserve / f64::from(horizon);
    // Time the reserve cap would throw away is better spent now.
    if tc.max_reserve > 0.0 && credit > 0.0 {
        let room = (tc.max_reserve - reserve).max(0.0);
        target = target.max(tc.per_move - room / credit);
    }
    let target = target.min(hard_cap);
    let hard = (target * params::HARD_OF_TARGET).min(hard_cap);
    let soft = (target * params::SOFT_OF_TARGET).min(hard);
    let max_extension = if tc.per_move > 0.0 {
        (1.0 + reserve / (params::EXTENSION_RESERVE_MOVES * tc.per_move)).min(params::MAX_EXTENSION)
    } else {
        params::MAX_EXTENSION
    };
    Some(Budget {
        available,
        target,
        soft,
        hard,
        hard_cap,
        max_extension,
    })
}

impl Budget {
    /// A fixed thinking time (`tusk analyze --time`): soft and hard deadlines both at
    /// `seconds`, no extension.
    pub fn fixed(seconds: f64) -> Budget {
        Budget {
            available: seconds,
            target: seconds,
            soft: seconds,
            hard: seconds,
            hard_cap: seconds,
            max_extension: 1.0,
        }
    }

    /// The soft and hard deadlines for a search clock that started `offset` seconds after
    /// the turn did (`moveused` at the search's start, adjusted when the controller corrects
    /// it), with both deadlines stretched by `extension` (at least 1, at most
    /// [`Budget::max_extension`]) and never past [`Budget::hard_cap`].
    pub fn deadlines(&self, offset: f64, extension: f64) -> (Duration, Duration) {
        let ext = extension.clamp(1.0, self.max_extension.max(1.0));
        let hard = (self.hard * ext).min(self.hard_cap);
        let soft = (self.soft * ext).min(hard);
        let since = |t: f64| seconds_to_duration(t - offset);
        (since(soft), since(hard))
    }
}

/// The extension a turn starts with: [`params::GOAL_THREAT_EXTENSION`] when the opponent
/// could reach goal if the side to move passed (the turn needs more thought), else 1.
pub fn initial_extension(pos: &Position) -> f64 {
    let mut opponent = pos.clone();
    opponent.end_turn();
    if tusk_eval::goal::can_goal(&opponent) {
        params::GOAL_THREAT_EXTENSION
    } else {
        1.0
    }
}

/// How one search spends its budget: the deadlines it was given and how they moved. The
/// search thread's report callback and the driver (the AEI session) share it.
#[derive(Clone, Debug, Default)]
pub struct Spending {
    /// The turn's budget (`None`: untimed, or pondering).
    pub budget: Option<Budget>,
    /// Seconds of the turn that had gone before the search clock started (`moveused`).
    pub offset: f64,
    /// How much the budget is stretched (1: not at all).
    pub extension: f64,
    /// The best turn last reported.
    pub best: Option<Turn>,
    /// How many times the best turn changed late.
    pub late_changes: u32,
    /// The depth of the last late change (at most one extension per depth).
    pub extended_at: u32,
    /// The soft deadline, as time since the search clock started: no new iteration after it
    /// (`None`: untimed). Set by [`Spending::apply`].
    pub soft: Option<Duration>,
    /// The best turn of the last completed iteration.
    pub iteration_best: Option<Turn>,
    /// For how many completed iterations in a row that best turn has not changed.
    pub stable_iterations: u32,
}

impl Spending {
    /// Spending `budget`, `offset` seconds into the turn, stretched by `extension` from the
    /// start.
    pub fn new(budget: Option<Budget>, offset: f64, extension: f64) -> Spending {
        Spending {
            budget,
            offset,
            extension,
            ..Spending::default()
        }
    }

    /// Moves the deadlines to what the budget, offset and extension say: the soft one here,
    /// the hard one in the control (the searcher never passes it).
    pub fn apply(&mut self, control: &Control) {
        if let Some(b) = &self.budget {
            let (soft, hard) = b.deadlines(self.offset, self.extension);
            self.soft = Some(soft);
            control.set_hard(Some(hard));
        }
    }

    /// Follows one report of the search: a best-turn change may stretch the budget
    /// ([`Spending::note_best`]), and at the end of each completed iteration the policy
    /// decides whether to start another ([`Spending::iteration_done`]); when not, it stops the
    /// search through `control`, which then returns that iteration's result.
    pub fn on_report(&mut self, report: &Report, control: &Control) {
        let Some(&best) = report.pv.first() else {
            return;
        };
        self.note_best(best, report.depth, control);
        if report.completes_iteration && self.iteration_done(report, best, control.elapsed()) {
            control.stop();
        }
    }

    /// Whether to stop after a completed iteration whose best turn is `best`, `elapsed` into
    /// the search. Untimed searches never stop here. Otherwise: a forced turn needs no more
    /// thought; the soft deadline has passed; the best turn has held for
    /// [`params::STABLE_ITERATIONS`] iterations and [`params::STABLE_SOFT_FRACTION`] of the
    /// soft deadline has passed; or a win or loss is proven and
    /// [`params::PROVEN_EXTRA_STEPS`] more steps confirmed it.
    pub fn iteration_done(&mut self, report: &Report, best: Turn, elapsed: Duration) -> bool {
        if self.iteration_best == Some(best) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
            self.iteration_best = Some(best);
        }
        let Some(soft) = self.soft else {
            return false;
        };
        if report.root_turns == 1 || elapsed >= soft {
            return true;
        }
        if self.stable_iterations >= params::STABLE_ITERATIONS
            && elapsed >= soft.mul_f64(params::STABLE_SOFT_FRACTION)
        {
            return true;
        }
        match report.score.kind() {
            ScoreKind::WinIn(n) | ScoreKind::LossIn(n) => {
                report.depth > n + params::PROVEN_EXTRA_STEPS
            }
            ScoreKind::Centirabbits(_) => false,
        }
    }

    /// Follows the best turn through the search's reports: a change late in the search (past
    /// [`params::LATE_FRACTION`] of the soft deadline) stretches the budget by
    /// [`params::BEST_CHANGE_EXTENSION`], once per depth, up to [`params::MAX_EXTENSION`].
    pub fn note_best(&mut self, best: Turn, depth: u32, control: &Control) {
        if self.best == Some(best) {
            return;
        }
        let late = self.best.is_some()
            && self.budget.is_some()
            && depth > self.extended_at
            && self
                .soft
                .is_some_and(|s| control.elapsed() >= s.mul_f64(params::LATE_FRACTION));
        if late {
            self.extension =
                (self.extension * params::BEST_CHANGE_EXTENSION).min(params::MAX_EXTENSION);
            self.late_changes += 1;
            self.extended_at = depth;
            self.apply(control);
        }
        self.best = Some(best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(per_move: f64, reserve: f64, percent: f64, max_reserve: f64) -> TimeControl {
        TimeControl {
            per_move,
            reserve,
            percent,
            max_reserve,
            ..TimeControl::default()
        }
    }

    fn clock(reserve: f64) -> TurnClock {
        TurnClock {
            reserve,
            game_elapsed: 0.0,
            move_number: 2,
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn a_goal_threat_starts_the_turn_extended() {
        use tusk_engine::notation::board::{parse_aei, STANDARD_OPENING};
        assert_eq!(
            initial_extension(&parse_aei(STANDARD_OPENING).unwrap()),
            1.0
        );
        // Silver's rabbit on a2 walks to a1 next turn unless gold stops it.
        let threatened =
            parse_aei("g [       r                            E           r              R]")
                .unwrap();
        assert_eq!(
            initial_extension(&threatened),
            params::GOAL_THREAT_EXTENSION
        );
    }

    #[test]
    fn untimed_has_no_budget() {
        assert_eq!(budget(&TimeControl::default(), &clock(0.0)), None);
    }

    #[test]
    fn budget_at_2s_10s_100() {
        // 2s/10s/100 at the first turn: available 12, margin 0.25 + 0.48 = 0.73, but no turn
        // takes more than 2 + 10 / 2 = 7. target = 2 * (0.95 - 0.25) + 10 / 20 = 1.9;
        // soft 0.95; hard 3.8.
        let b = budget(&tc(2.0, 10.0, 100.0, 0.0), &clock(10.0)).unwrap();
        close(b.available, 12.0);
        close(b.hard_cap, 7.0);
        close(b.target, 1.9);
        close(b.soft, 0.95);
        close(b.hard, 3.8);
        close(b.max_extension, 2.0);
    }

    #[test]
    fn budget_without_reserve_keeps_the_margin() {
        // 2s/0s/100: available 2, margin 0.25 + 0.08 = 0.33, cap 1.67;
        // target 1.4, soft 0.7, hard min(2.8, 1.67) = 1.67.
        let b = budget(&tc(2.0, 0.0, 100.0, 0.0), &clock(0.0)).unwrap();
        close(b.hard_cap, 1.67);
        close(b.target, 1.4);
        close(b.soft, 0.7);
        close(b.hard, 1.67);
        close(b.max_extension, 1.0);
        // 1s/0s/0: available 1, margin 0.29, cap 0.71; the target 0.95 is cut to the cap.
        let b = budget(&tc(1.0, 0.0, 0.0, 0.0), &clock(0.0)).unwrap();
        close(b.hard_cap, 0.71);
        close(b.target, 0.71);
        close(b.hard, 0.71);
        close(b.soft, 0.355);
        // A tiny deadline: the margin is at most half of it.
        close(lag_margin(0.2), 0.1);
    }

    #[test]
    fn budget_spends_what_the_reserve_cap_would_waste() {
        // 15s/60s/100/60s with the reserve full: all unused time is lost, so aim at the whole
        // 15 s: target = max(15 * 0.7 + 60/20, 15 - 0/1) = 15.
        let b = budget(&tc(15.0, 60.0, 100.0, 60.0), &clock(60.0)).unwrap();
        close(b.target, 15.0);
        // 8 s below the cap at 50%: 15 - 8/0.5 = -1, so the plain target 15 * 0.825 + 52/20.
        let b = budget(&tc(15.0, 60.0, 50.0, 60.0), &clock(52.0)).unwrap();
        close(b.target, 15.0 * 0.825 + 2.6);
    }

    #[test]
    fn budget_respects_turn_limits() {
        // tcturns 30 at move 28: 3 turns left, the reserve is spread over 3.
        let t = TimeControl {
            turns: 30,
            ..tc(10.0, 30.0, 100.0, 0.0)
        };
        let c = TurnClock {
            move_number: 28,
            ..clock(30.0)
        };
        close(budget(&t, &c).unwrap().target, 7.0 + 10.0);
        // tcturntime 5 caps everything below 5 - margin.
        let t = TimeControl {
            turn_time: 5.0,
            ..tc(10.0, 30.0, 100.0, 0.0)
        };
        let b = budget(&t, &clock(30.0)).unwrap();
        close(b.available, 5.0);
        close(b.hard_cap, 5.0 - 0.45);
        assert!(b.hard <= b.hard_cap && b.soft <= b.hard);
    }

    #[test]
    fn huge_times_saturate_instead_of_panicking() {
        // tcmove 1e300 (a controller's "forever"): deadlines at the largest time.
        let b = budget(&tc(1e300, 1e300, 100.0, 0.0), &clock(1e300)).unwrap();
        let (s, h) = b.deadlines(0.0, 2.0);
        assert!(s <= h && h.as_secs_f64() <= crate::clock::MAX_SECONDS);
        let (s, h) = Budget::fixed(1e308).deadlines(0.0, 1.0);
        assert_eq!(s, h);
    }

    #[test]
    fn deadlines_shift_with_moveused_and_stretch_with_extensions() {
        // 2s/10s/100, reserve 10: soft 0.95, hard 3.8, cap 7, extensions up to 2.
        let b = budget(&tc(2.0, 10.0, 100.0, 0.0), &clock(10.0)).unwrap();
        let (s, h) = b.deadlines(0.0, 1.0);
        close(s.as_secs_f64(), 0.95);
        close(h.as_secs_f64(), 3.8);
        // The controller says 1 s of the turn had gone before our clock started.
        let (s, h) = b.deadlines(1.0, 1.0);
        close(s.as_secs_f64(), 0.0);
        close(h.as_secs_f64(), 2.8);
        // Doubling: soft 1.9, hard 7.6 cut to the cap 7.
        let (s, h) = b.deadlines(0.0, 2.0);
        close(s.as_secs_f64(), 1.9);
        close(h.as_secs_f64(), 7.0);
        // Extensions stop at 2x.
        let (s, h) = b.deadlines(0.0, 10.0);
        close(s.as_secs_f64(), 1.9);
        close(h.as_secs_f64(), 7.0);
        // Reserve 5: available 7, cap min(7 - 0.53, 2 + 2.5) = 4.5, target 1.4 + 0.25 =
        // 1.65, soft 0.825, hard 3.3; 2x: soft 1.65, hard min(6.6, 4.5).
        let b = budget(&tc(2.0, 5.0, 100.0, 0.0), &clock(5.0)).unwrap();
        let (s, h) = b.deadlines(0.0, 2.0);
        close(s.as_secs_f64(), 1.65);
        close(h.as_secs_f64(), 4.5);
        // A small reserve allows a small extension: with 1 s left, 1 + 1/4 = 1.25; cap
        // min(3 - 0.37, 2 + 0.5) = 2.5, target 1.4 + 0.05 = 1.45, soft 0.725, hard 2.5.
        let b = budget(&tc(2.0, 10.0, 100.0, 0.0), &clock(1.0)).unwrap();
        close(b.max_extension, 1.25);
        let (s, h) = b.deadlines(0.0, 2.0);
        close(s.as_secs_f64(), 0.725 * 1.25);
        close(h.as_secs_f64(), 2.5);
        // A moveused past the deadline gives zero, not a panic.
        let (s, h) = b.deadlines(100.0, 1.0);
        assert_eq!((s, h), (Duration::ZERO, Duration::ZERO));
    }

    /// A turn of the opening position.
    fn turn(text: &str) -> Turn {
        let start =
            tusk_engine::notation::board::parse_aei(tusk_engine::notation::board::STANDARD_OPENING)
                .unwrap();
        tusk_engine::notation::turn::play_steps(&start, text)
            .unwrap()
            .0
    }

    fn spending_2s_10s() -> Spending {
        let b = budget(&tc(2.0, 10.0, 100.0, 0.0), &clock(10.0));
        Spending::new(b, 0.0, 1.0)
    }

    #[test]
    fn early_changes_do_not_extend() {
        let control = Control::new();
        let mut sp = spending_2s_10s();
        sp.apply(&control);
        assert_eq!(sp.soft, Some(Duration::from_secs_f64(0.95)));
        // Far from the late fraction of the soft deadline: no extension.
        sp.soft = Some(Duration::from_secs(1000));
        sp.note_best(turn("Ee2n"), 1, &control);
        sp.note_best(turn("Md2n"), 2, &control);
        assert_eq!((sp.extension, sp.late_changes), (1.0, 0));
        assert_eq!(sp.best, Some(turn("Md2n")));
    }

    #[test]
    fn late_changes_extend_once_per_depth_up_to_the_limit() {
        let control = Control::new();
        let mut sp = spending_2s_10s();
        // Every change counts as late once the soft deadline is zero.
        sp.soft = Some(Duration::ZERO);
        sp.note_best(turn("Ee2n"), 1, &control);
        sp.note_best(turn("Md2n"), 5, &control);
        sp.note_best(turn("Ee2n"), 5, &control);
        assert_eq!(sp.late_changes, 1, "one extension per depth");
        assert!((sp.extension - params::BEST_CHANGE_EXTENSION).abs() < 1e-12);
        // The deadlines moved: 1.4 x (0.95, 3.8).
        assert_eq!(sp.soft, Some(Duration::from_secs_f64(0.95 * 1.4)));
        assert_eq!(control.hard(), Some(Duration::from_secs_f64(3.8 * 1.4)));
        for d in 6..12 {
            sp.soft = Some(Duration::ZERO);
            sp.note_best(turn(if d % 2 == 0 { "Md2n" } else { "Ee2n" }), d, &control);
        }
        assert_eq!(sp.extension, params::MAX_EXTENSION);
        // 2 x 3.8 = 7.6, cut to the cap 2 + 10 / 2.
        assert_eq!(control.hard(), Some(Duration::from_secs_f64(7.0)));
    }

    /// The report of a completed iteration at `depth` with `score`.
    fn iteration(depth: u32, score: tusk_search::Score, root_turns: usize) -> Report {
        Report {
            depth,
            partial: false,
            seldepth: depth,
            score,
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            pv: vec![turn("Ee2n")],
            multipv: 1,
            root_turns,
            completes_iteration: true,
        }
    }

    #[test]
    fn iterations_stop_by_the_policy_and_only_when_timed() {
        use tusk_search::Score;
        let ms = Duration::from_millis;
        let even = Score::centirabbits(0);
        let e2n = turn("Ee2n");
        // Untimed (analysis without a limit, pondering): never.
        let mut untimed = Spending::new(None, 0.0, 1.0);
        assert!(!untimed.iteration_done(&iteration(30, Score::win_in(5), 1), e2n, ms(9e6 as u64)));
        let mut sp = spending_2s_10s();
        sp.apply(&Control::new());
        // soft 0.95 s: before it, go on; at it, stop.
        assert!(!sp.iteration_done(&iteration(5, even, 20), e2n, ms(100)));
        assert!(sp.iteration_done(&iteration(6, even, 20), e2n, ms(950)));
        // A forced turn needs one iteration.
        let mut forced = spending_2s_10s();
        forced.apply(&Control::new());
        assert!(forced.iteration_done(&iteration(4, even, 1), e2n, ms(1)));
        // The same best turn for four more iterations: stop from 40 % of the soft deadline.
        let mut stable = spending_2s_10s();
        stable.apply(&Control::new());
        for d in 4..9 {
            assert!(
                !stable.iteration_done(&iteration(d, even, 20), e2n, ms(370)),
                "{d}"
            );
        }
        assert_eq!(stable.stable_iterations, 4);
        assert!(stable.iteration_done(&iteration(9, even, 20), e2n, ms(380)));
        // A change of best turn starts the count again.
        assert!(!stable.iteration_done(&iteration(10, even, 20), turn("Md2n"), ms(380)));
        // A win in 7 steps is confirmed 4 steps deeper: stop from depth 12.
        let mut won = spending_2s_10s();
        won.apply(&Control::new());
        assert!(!won.iteration_done(&iteration(11, Score::win_in(7), 20), e2n, ms(10)));
        assert!(won.iteration_done(&iteration(12, Score::win_in(7), 20), e2n, ms(10)));
        assert!(won.iteration_done(&iteration(12, Score::loss_in(7), 20), e2n, ms(10)));
    }

    #[test]
    fn a_report_that_ends_an_iteration_can_stop_the_search() {
        let control = Control::new();
        let mut sp = spending_2s_10s();
        sp.apply(&control);
        sp.soft = Some(Duration::ZERO);
        let mut partial = iteration(5, tusk_search::Score::centirabbits(3), 20);
        partial.completes_iteration = false;
        sp.on_report(&partial, &control);
        assert!(
            !control.stop_requested(),
            "only a completed iteration decides"
        );
        sp.on_report(
            &iteration(5, tusk_search::Score::centirabbits(3), 20),
            &control,
        );
        assert!(control.stop_requested());
    }

    #[test]
    fn untimed_searches_are_never_extended() {
        let control = Control::new();
        let mut sp = Spending::new(None, 0.0, 1.0);
        sp.soft = Some(Duration::ZERO);
        sp.note_best(turn("Ee2n"), 1, &control);
        sp.note_best(turn("Md2n"), 2, &control);
        assert_eq!(sp.extension, 1.0);
        assert_eq!(control.hard(), None);
    }
}
