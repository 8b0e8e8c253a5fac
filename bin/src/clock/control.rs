//! The AEI time control and the controller's clock arithmetic, shared by the AEI engine (its
//! idea of its own deadline) and the match runner (the referee's), so the two can never
//! disagree.
//!
//! The rules (see `shared/aei.md`, "Time accounting"), as pyrimaa's `Game` enforces them:
//! * a turn may last `tcmove` plus the mover's reserve, capped by `tcturntime` (when > 0) and
//!   by what is left of the game-time limit `tctotal` (when > 0);
//! * after a normal turn that used `u` seconds the reserve grows by
//!   `(tcmove - u) * tcpercent / 100` when `u < tcmove`, otherwise shrinks by `u - tcmove`,
//!   and is then capped at `tcmax` (when > 0); setup turns leave the reserve alone;
//! * reserves are sent to the engines truncated to whole seconds;
//! * with a turn limit `n`, the game stops after silver's move `n`.
//!
//! Every time is in seconds and at most [`MAX_SECONDS`]: a time control string with a larger
//! field is refused, and [`seconds_to_duration`] saturates there, so no arithmetic on a time
//! from outside can overflow.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use tusk_engine::{ByColor, Color};

/// The longest time Tusk works with, in seconds (about 31.7 years): longer times in a time
/// control are refused, and durations saturate here.
pub const MAX_SECONDS: f64 = 1e9;

/// `seconds` as a [`Duration`]: negative or NaN is zero, beyond [`MAX_SECONDS`] is
/// [`MAX_SECONDS`]. Never panics (unlike `Duration::from_secs_f64`).
pub fn seconds_to_duration(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(seconds.min(MAX_SECONDS))
}

/// A time control: the AEI `tc*` options, or the string form
/// `move/reserve/percent/max/total/turntime` (for example `2s/20s/100`, `30s/1m/100/0/100t`).
/// Times in seconds; 0 means "none" except for `percent`. The default is untimed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// `tcmove`: time per turn.
    pub per_move: f64,
    /// `tcreserve`: each side's reserve at the start of the game.
    pub reserve: f64,
    /// `tcpercent`: percentage of unused per-move time credited to the reserve (default 100).
    pub percent: f64,
    /// `tcmax`: cap on the reserve (0: no cap).
    pub max_reserve: f64,
    /// `tctotal`: limit on the whole game's length (0: none).
    pub total: f64,
    /// `tcturns`: limit on the number of turns, written `<n>t` in the total field (0: none).
    pub turns: u32,
    /// `tcturntime`: cap on any single turn (0: none).
    pub turn_time: f64,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            per_move: 0.0,
            reserve: 0.0,
            percent: 100.0,
            max_reserve: 0.0,
            total: 0.0,
            turns: 0,
            turn_time: 0.0,
        }
    }
}

/// A malformed time-control string, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TcError(pub String);

/// How long a turn may last, and which limit sets it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnDeadline {
    /// Seconds from the start of the turn to its deadline (never negative).
    pub seconds: f64,
    /// True when the game-time limit is what ends the turn (running past it is code `s`,
    /// not `t`).
    pub game_limit_binds: bool,
}

impl TimeControl {
    /// Whether any time limit applies (otherwise a search runs until its depth or a `stop`).
    pub fn is_timed(&self) -> bool {
        self.per_move > 0.0 || self.reserve > 0.0 || self.turn_time > 0.0 || self.total > 0.0
    }

    /// The controller's deadline for a turn: `tcmove` plus the mover's `reserve`, capped by
    /// `tcturntime` and by what is left of `tctotal` after `game_elapsed` seconds of game.
    /// `None` when untimed.
    pub fn turn_deadline(&self, reserve: f64, game_elapsed: f64) -> Option<TurnDeadline> {
        if !self.is_timed() {
            return None;
        }
        let mut seconds = (self.per_move + reserve).min(MAX_SECONDS);
        if self.turn_time > 0.0 {
            seconds = seconds.min(self.turn_time);
        }
        let mut game_limit_binds = false;
        if self.total > 0.0 {
            let left = self.total - game_elapsed;
            if left < seconds {
                seconds = left;
                game_limit_binds = true;
            }
        }
        Some(TurnDeadline {
            seconds: seconds.max(0.0),
            game_limit_binds,
        })
    }

    /// The mover's reserve after a turn that took `used` seconds, as the controller computes
    /// it. Setups leave it unchanged.
    pub fn reserve_after(&self, reserve: f64, used: f64, setup: bool) -> f64 {
        if setup {
            return reserve;
        }
        let mut change = self.per_move - used;
        if change > 0.0 {
            change *= self.percent / 100.0;
        }
        let mut r = (reserve + change).min(MAX_SECONDS);
        if self.max_reserve > 0.0 {
            r = r.min(self.max_reserve);
        }
        r
    }

    /// Whether the game stops on the turn limit when the next move to be played carries
    /// number `next_number` (pyrimaa's rule: next number > limit).
    pub fn turn_limit_reached(&self, next_number: u32) -> bool {
        self.turns > 0 && next_number > self.turns
    }

    /// The `setoption` pairs a controller sends before `newgame`, in roundrobin's order.
    pub fn aei_options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("tcmove", number(self.per_move)),
            ("tcreserve", number(self.reserve)),
            ("tcpercent", number(self.percent)),
            ("tcmax", number(self.max_reserve)),
            ("tcturns", self.turns.to_string()),
            ("tctotal", number(self.total)),
            ("tcturntime", number(self.turn_time)),
        ]
    }
}

const FIELD_NAMES: [&str; 6] = ["move", "reserve", "percent", "max", "total", "turntime"];

/// Seconds in a unit letter.
fn unit_seconds(u: char) -> Option<f64> {
    match u {
        's' => Some(1.0),
        'm' => Some(60.0),
        'h' => Some(3600.0),
        'd' => Some(86400.0),
        _ => None,
    }
}

/// Reads one time field: `30s`, `1m30s`, `2h`, a bare number in `default_unit`, or a colon
/// form (`1:30` is 1 minute 30 seconds when the default unit is minutes). At most
/// [`MAX_SECONDS`].
fn parse_time(field: &str, default_unit: char, name: &str) -> Result<f64, TcError> {
    let bad = |why: &str| TcError(format!("time control field {name} \"{field}\": {why}"));
    let f = field.trim();
    if f.is_empty() {
        return Ok(0.0);
    }
    let mut total = 0.0;
    if f.contains(':') {
        let order = ['d', 'h', 'm', 's'];
        let start = order
            .iter()
            .position(|&u| u == default_unit)
            .ok_or_else(|| bad("bad unit"))?;
        let parts: Vec<&str> = f.split(':').collect();
        if start + parts.len() > order.len() {
            return Err(bad("too many colon-separated parts"));
        }
        for (i, p) in parts.iter().enumerate() {
            let v: f64 = if p.is_empty() {
                0.0
            } else {
                p.parse().map_err(|_| bad("not a number"))?
            };
            total += v * unit_seconds(order[start + i]).unwrap_or(1.0);
        }
    } else {
        let mut num = String::new();
        for c in f.chars() {
            if c.is_ascii_digit() || c == '.' {
                num.push(c);
            } else if let Some(s) = unit_seconds(c) {
                let v: f64 = num.parse().map_err(|_| bad("a unit without a number"))?;
                total += v * s;
                num.clear();
            } else {
                return Err(bad(&format!("unknown unit '{c}' (use d, h, m or s)")));
            }
        }
        if !num.is_empty() {
            let v: f64 = num.parse().map_err(|_| bad("not a number"))?;
            total += v * unit_seconds(default_unit).unwrap_or(1.0);
        }
    }
    if !total.is_finite() || total < 0.0 {
        return Err(bad("not a time"));
    }
    if total > MAX_SECONDS {
        return Err(bad(&format!(
            "{} seconds is more than the largest time, {} seconds",
            number(total),
            number(MAX_SECONDS)
        )));
    }
    Ok(total)
}

impl FromStr for TimeControl {
    type Err = TcError;

    /// Reads `move/reserve[/percent[/max[/total[/turntime]]]]`. A bare number means minutes,
    /// except in the total field where it means hours; `<n>t` as total is a turn limit.
    fn from_str(s: &str) -> Result<TimeControl, TcError> {
        let fields: Vec<&str> = s.trim().split('/').collect();
        if fields.len() < 2 {
            return Err(TcError(format!(
                "time control \"{s}\": needs at least move/reserve, e.g. 2s/20s/100"
            )));
        }
        if fields.len() > 6 {
            return Err(TcError(format!(
                "time control \"{s}\": at most 6 fields (move/reserve/percent/max/total/turntime)"
            )));
        }
        let get = |i: usize| fields.get(i).copied().unwrap_or("");
        let per_move = parse_time(get(0), 'm', FIELD_NAMES[0])?;
        let reserve = parse_time(get(1), 'm', FIELD_NAMES[1])?;
        let percent = if get(2).trim().is_empty() {
            100.0
        } else {
            get(2)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| {
                    TcError(format!(
                        "time control field percent \"{}\": not a non-negative number",
                        get(2)
                    ))
                })?
        };
        let max_reserve = parse_time(get(3), 'm', FIELD_NAMES[3])?;
        let total_field = get(4).trim();
        let (turns, total) = if let Some(n) = total_field.strip_suffix('t') {
            let n: u32 = n.parse().map_err(|_| {
                TcError(format!(
                    "time control field total \"{total_field}\": bad turn count"
                ))
            })?;
            (n, 0.0)
        } else {
            (0, parse_time(total_field, 'h', FIELD_NAMES[4])?)
        };
        let turn_time = parse_time(get(5), 'm', FIELD_NAMES[5])?;
        if per_move <= 0.0 && reserve <= 0.0 && turn_time <= 0.0 {
            return Err(TcError(format!(
                "time control \"{s}\": move time and reserve are both 0, no turn could be played"
            )));
        }
        Ok(TimeControl {
            per_move,
            reserve,
            percent,
            max_reserve,
            total,
            turns,
            turn_time,
        })
    }
}

/// Writes a number of seconds the short way: `2s`, `1m30s`, `0.5s`, `0`.
fn write_time(f: &mut fmt::Formatter<'_>, secs: f64) -> fmt::Result {
    if secs == 0.0 {
        return f.write_str("0");
    }
    let whole = secs.trunc() as u64;
    let frac = secs - secs.trunc();
    let mut rest = whole;
    for (unit, len) in [('d', 86400u64), ('h', 3600), ('m', 60)] {
        if rest >= len {
            write!(f, "{}{unit}", rest / len)?;
            rest %= len;
        }
    }
    if rest > 0 || frac > 0.0 {
        write!(f, "{}s", number(rest as f64 + frac))?;
    }
    Ok(())
}

/// A number as AEI option values are written: `3`, not `3.0`; `0.5` stays `0.5`.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

impl fmt::Display for TimeControl {
    /// The canonical string, e.g. `2s/20s/100/0/0/0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_time(f, self.per_move)?;
        f.write_str("/")?;
        write_time(f, self.reserve)?;
        write!(f, "/{}/", number(self.percent))?;
        write_time(f, self.max_reserve)?;
        f.write_str("/")?;
        if self.turns > 0 {
            write!(f, "{}t", self.turns)?;
        } else {
            write_time(f, self.total)?;
        }
        f.write_str("/")?;
        write_time(f, self.turn_time)
    }
}

/// Both sides' clocks during one game, as the controller keeps them. Each side may have its
/// own time control, or none.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: ByColor<Option<TimeControl>>,
    reserves: ByColor<f64>,
}

impl Clock {
    /// A clock at the start of a game: both reserves at their `tcreserve`.
    pub fn new(tc: ByColor<Option<TimeControl>>) -> Clock {
        let r = |c: Color| tc[c].map_or(0.0, |t| t.reserve);
        Clock {
            reserves: ByColor([r(Color::Gold), r(Color::Silver)]),
            tc,
        }
    }

    /// The exact reserve of `side` in seconds (`None` without a time control).
    pub fn reserve(&self, side: Color) -> Option<f64> {
        self.tc[side].map(|_| self.reserves[side])
    }

    /// The reserve as sent with `greserve`/`sreserve`: whole seconds, truncated.
    pub fn aei_reserve(&self, side: Color) -> Option<i64> {
        self.reserve(side).map(|r| r.trunc() as i64)
    }

    /// The deadline of a turn of `side` that starts `game_elapsed` seconds after the game
    /// started; `None` when the side has no time control.
    pub fn turn_deadline(&self, side: Color, game_elapsed: f64) -> Option<TurnDeadline> {
        self.tc[side]?.turn_deadline(self.reserves[side], game_elapsed)
    }

    /// Charges `used` seconds to `side` after a turn that was played in time.
    pub fn charge(&mut self, side: Color, used: f64, setup: bool) {
        if let Some(tc) = self.tc[side] {
            self.reserves[side] = tc.reserve_after(self.reserves[side], used, setup);
        }
    }

    /// Whether the game stops on its turn limit after `side` played, when the next move to
    /// be played carries number `next_number`.
    pub fn turn_limit_reached(&self, side: Color, next_number: u32) -> bool {
        self.tc[side].is_some_and(|tc| tc.turn_limit_reached(next_number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Gold, Silver};

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn parses_the_aei_forms() {
        let t = tc("2s/20s/100");
        assert_eq!((t.per_move, t.reserve, t.percent), (2.0, 20.0, 100.0));
        assert_eq!(
            (t.max_reserve, t.turns, t.total, t.turn_time),
            (0.0, 0, 0.0, 0.0)
        );
        // Bare numbers are minutes, except total (hours); colon forms start at that unit.
        let t = tc("1/2/75/3/4/1:30");
        assert_eq!(t.per_move, 60.0);
        assert_eq!(t.reserve, 120.0);
        assert_eq!(t.percent, 75.0);
        assert_eq!(t.max_reserve, 180.0);
        assert_eq!(t.total, 4.0 * 3600.0);
        assert_eq!(t.turn_time, 90.0);
        let t = tc("30s/1m/100/0/100t");
        assert_eq!((t.turns, t.total), (100, 0.0));
        let t = tc("1m30s/5m");
        assert_eq!(t.per_move, 90.0);
        assert_eq!(tc("60s/5m/75/0/4h/4m").turn_time, 240.0);
        // The percent field defaults to 100 when empty.
        assert_eq!(tc("1s/0s//0").percent, 100.0);
    }

    #[test]
    fn rejects_bad_strings_naming_the_field() {
        for (s, needle) in [
            ("2s", "at least"),
            ("2x/20s", "field move"),
            ("2s/20s/abc", "field percent"),
            ("2s/20s/inf", "field percent"),
            ("2s/20s/100/0/xt", "field total"),
            ("0/0", "both 0"),
            ("1/2/3/4/5/6/7", "at most 6"),
            // Huge times are refused with the largest allowed, not a panic later on.
            ("99999999999999d/0", "field move"),
            ("1s/99999999999999d", "largest time"),
            ("1s/1s/100/0/99999999999h", "field total"),
        ] {
            let e = s.parse::<TimeControl>().unwrap_err();
            assert!(e.0.contains(needle), "{s}: {e}");
        }
        assert!(tc("1s/1000000000s").reserve == MAX_SECONDS);
    }

    #[test]
    fn displays_and_sends_options() {
        let t = tc("2s/20s/100");
        assert_eq!(t.to_string(), "2s/20s/100/0/0/0");
        assert_eq!(tc(&t.to_string()), t);
        let t = tc("1m30s/1h/50/2m/100t/0.5s");
        assert_eq!(t.to_string(), "1m30s/1h/50/2m/100t/0.5s");
        assert_eq!(
            tc("15s/60s/100/120s/1h").aei_options(),
            vec![
                ("tcmove", "15".to_string()),
                ("tcreserve", "60".to_string()),
                ("tcpercent", "100".to_string()),
                ("tcmax", "120".to_string()),
                ("tcturns", "0".to_string()),
                ("tctotal", "3600".to_string()),
                ("tcturntime", "0".to_string()),
            ]
        );
    }

    #[test]
    fn untimed_has_no_deadline() {
        assert!(!TimeControl::default().is_timed());
        assert_eq!(TimeControl::default().turn_deadline(0.0, 0.0), None);
    }

    #[test]
    fn controller_deadline() {
        let t = tc("15s/60s/100");
        close(t.turn_deadline(60.0, 0.0).unwrap().seconds, 75.0);
        // tcturntime caps it.
        let t = tc("15s/60s/100/0/0/30s");
        close(t.turn_deadline(60.0, 0.0).unwrap().seconds, 30.0);
        // What is left of tctotal caps it: 1h game, 3590 s gone.
        let t = tc("15s/60s/100/0/1h");
        let d = t.turn_deadline(60.0, 3590.0).unwrap();
        close(d.seconds, 10.0);
        assert!(d.game_limit_binds);
        close(t.turn_deadline(60.0, 3700.0).unwrap().seconds, 0.0);
        assert!(!t.turn_deadline(60.0, 0.0).unwrap().game_limit_binds);
        // A huge reserve (a controller's "forever") saturates instead of overflowing.
        let d = tc("1s/1s").turn_deadline(1e300, 0.0).unwrap();
        assert_eq!(d.seconds, MAX_SECONDS);
        assert_eq!(seconds_to_duration(d.seconds).as_secs(), MAX_SECONDS as u64);
    }

    #[test]
    fn durations_saturate() {
        assert_eq!(seconds_to_duration(-1.0), Duration::ZERO);
        assert_eq!(seconds_to_duration(f64::NAN), Duration::ZERO);
        assert_eq!(seconds_to_duration(1e308).as_secs(), MAX_SECONDS as u64);
        assert_eq!(
            seconds_to_duration(f64::INFINITY).as_secs(),
            MAX_SECONDS as u64
        );
        assert_eq!(seconds_to_duration(1.5), Duration::from_millis(1500));
    }

    #[test]
    fn reserve_accounting_matches_the_controller() {
        // 15s/60s/100/120s: 5 s used of 15 credits 10 s.
        let t = tc("15s/60s/100/120s");
        close(t.reserve_after(60.0, 5.0, false), 70.0);
        // Capped at tcmax.
        close(t.reserve_after(115.0, 5.0, false), 120.0);
        // Overrun: 20 s used takes 5 s from the reserve, in full whatever the percentage.
        close(t.reserve_after(60.0, 20.0, false), 55.0);
        let t75 = tc("15s/60s/75");
        close(t75.reserve_after(60.0, 20.0, false), 55.0);
        // 75%: 10 s unused credits 7.5 s.
        close(t75.reserve_after(60.0, 5.0, false), 67.5);
        // 0%: nothing credited.
        close(tc("15s/60s/0").reserve_after(60.0, 5.0, false), 60.0);
        // Setups leave it alone.
        close(t.reserve_after(60.0, 40.0, true), 60.0);
    }

    // The reference rules, worked by hand for 15s/60s/100/120s/1h (aei.md's example game):
    // gold uses 17 s on 2g: reserve 60 - (17 - 15) = 58; silver uses 14 s: 60 + 1 = 61.
    #[test]
    fn reserves_follow_the_reference_example() {
        let t = Some(tc("15s/60s/100/120s/1h"));
        let mut c = Clock::new(ByColor([t, t]));
        c.charge(Gold, 3.0, true); // setups leave the reserve alone
        c.charge(Silver, 40.0, true);
        assert_eq!(
            (c.aei_reserve(Gold), c.aei_reserve(Silver)),
            (Some(60), Some(60))
        );
        c.charge(Gold, 17.0, false);
        c.charge(Silver, 14.0, false);
        assert_eq!(
            (c.aei_reserve(Gold), c.aei_reserve(Silver)),
            (Some(58), Some(61))
        );
        // Deadline = move + reserve.
        assert_eq!(c.turn_deadline(Gold, 100.0).unwrap().seconds, 15.0 + 58.0);
        // The cap: 70 s unused would give 131, capped at 120.
        c.charge(Silver, -55.0, false);
        assert_eq!(c.reserve(Silver), Some(120.0));
    }

    #[test]
    fn percent_applies_only_to_gains_and_reserves_truncate() {
        let mut c = Clock::new(ByColor([Some(tc("10s/30s/50")), None]));
        c.charge(Gold, 4.5, false); // 5.5 unused * 50% = 2.75
        assert_eq!(c.reserve(Gold), Some(32.75));
        assert_eq!(c.aei_reserve(Gold), Some(32));
        c.charge(Gold, 13.0, false); // 3 over: the full 3 comes off
        assert_eq!(c.reserve(Gold), Some(29.75));
        // No time control: no reserve, no deadline.
        assert_eq!(c.reserve(Silver), None);
        assert_eq!(c.turn_deadline(Silver, 0.0), None);
        let mut z = Clock::new(ByColor([Some(tc("1s/0s/0")), None]));
        z.charge(Gold, 0.2, false);
        assert_eq!(z.reserve(Gold), Some(0.0));
        assert_eq!(z.turn_deadline(Gold, 5.0).unwrap().seconds, 1.0);
    }

    #[test]
    fn turn_cap_and_game_limit_shorten_the_turn() {
        let c = Clock::new(ByColor([
            Some(tc("30s/5m/100/0/0/40s")),
            Some(tc("30s/5m/100/0/10m")),
        ]));
        assert_eq!(
            c.turn_deadline(Gold, 0.0),
            Some(TurnDeadline {
                seconds: 40.0,
                game_limit_binds: false
            })
        );
        assert_eq!(c.turn_deadline(Silver, 0.0).unwrap().seconds, 330.0);
        assert_eq!(
            c.turn_deadline(Silver, 590.0),
            Some(TurnDeadline {
                seconds: 10.0,
                game_limit_binds: true
            })
        );
        assert_eq!(c.turn_deadline(Silver, 700.0).unwrap().seconds, 0.0);
    }

    #[test]
    fn turn_limit_ends_after_silvers_move() {
        let t = Some(tc("1s/1s/100/0/3t"));
        let c = Clock::new(ByColor([t, t]));
        // After 3g the next move is 3s: not yet. After 3s the next is 4g: stop.
        assert!(!c.turn_limit_reached(Gold, 3));
        assert!(c.turn_limit_reached(Silver, 4));
    }
}
