//! AEI time controls and the game clock, kept as the reference controller (pyrimaa's `Game`)
//! keeps it. Pure arithmetic on seconds; the referee supplies the measured times.
//!
//! The rules (see `shared/aei.md`, "Time accounting"):
//! * a turn may last `tcmove` plus the mover's reserve, capped by `tcturntime` (when > 0) and
//!   by the end of the game-time limit `tctotal` (when > 0);
//! * after a normal turn that used `u` seconds the reserve grows by
//!   `(tcmove - u) * tcpercent / 100` when `u < tcmove`, otherwise shrinks by `u - tcmove`,
//!   and is then capped at `tcmax` (when > 0); setup turns leave the reserve alone;
//! * reserves are sent to the engines truncated to whole seconds;
//! * with a turn limit `n`, the game stops after silver's move `n`.

use std::fmt;
use std::str::FromStr;

/// A time control in the AEI string form `move/reserve/percent/max/total/turntime`
/// (for example `2s/20s/100`, `30s/1m/100/0/100t`). All times in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time allowed per turn (`tcmove`).
    pub move_s: f64,
    /// Starting reserve of each side (`tcreserve`).
    pub reserve: f64,
    /// Percentage of unused turn time added to the reserve (`tcpercent`, default 100).
    pub percent: f64,
    /// Cap on the reserve, 0 = none (`tcmax`).
    pub max_reserve: f64,
    /// Maximum number of turns, 0 = none (`tcturns`, written `<n>t` in the total field).
    pub turn_limit: u32,
    /// Limit on the whole game's length, 0 = none (`tctotal`).
    pub game_limit: f64,
    /// Hard cap on any single turn, 0 = none (`tcturntime`).
    pub turn_cap: f64,
}

/// A malformed time-control string, naming the field.
#[derive(Debug, PartialEq, Eq)]
pub struct TcError(pub String);

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TcError {}

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
/// form (`1:30` is 1 minute 30 seconds when the default unit is minutes).
fn parse_time(field: &str, default_unit: char, name: &str) -> Result<f64, TcError> {
    let bad = |why: &str| TcError(format!("time control field {name} \"{field}\": {why}"));
    let f = field.trim();
    if f.is_empty() {
        return Ok(0.0);
    }
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
        let mut total = 0.0;
        for (i, p) in parts.iter().enumerate() {
            let v: f64 = if p.is_empty() {
                0.0
            } else {
                p.parse().map_err(|_| bad("not a number"))?
            };
            total += v * unit_seconds(order[start + i]).unwrap_or(1.0);
        }
        return Ok(total);
    }
    let mut total = 0.0;
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
    if !total.is_finite() || total < 0.0 {
        return Err(bad("not a time"));
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
        let move_s = parse_time(get(0), 'm', FIELD_NAMES[0])?;
        let reserve = parse_time(get(1), 'm', FIELD_NAMES[1])?;
        let percent = if get(2).trim().is_empty() {
            100.0
        } else {
            get(2)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| *p >= 0.0)
                .ok_or_else(|| {
                    TcError(format!(
                        "time control field percent \"{}\": not a non-negative number",
                        get(2)
                    ))
                })?
        };
        let max_reserve = parse_time(get(3), 'm', FIELD_NAMES[3])?;
        let total = get(4).trim();
        let (turn_limit, game_limit) = if let Some(n) = total.strip_suffix('t') {
            let n: u32 = n.parse().map_err(|_| {
                TcError(format!(
                    "time control field total \"{total}\": bad turn count"
                ))
            })?;
            (n, 0.0)
        } else {
            (0, parse_time(total, 'h', FIELD_NAMES[4])?)
        };
        let turn_cap = parse_time(get(5), 'm', FIELD_NAMES[5])?;
        if move_s <= 0.0 && reserve <= 0.0 && turn_cap <= 0.0 {
            return Err(TcError(format!(
                "time control \"{s}\": move time and reserve are both 0, no turn could be played"
            )));
        }
        Ok(TimeControl {
            move_s,
            reserve,
            percent,
            max_reserve,
            turn_limit,
            game_limit,
            turn_cap,
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
        write_time(f, self.move_s)?;
        f.write_str("/")?;
        write_time(f, self.reserve)?;
        write!(f, "/{}/", number(self.percent))?;
        write_time(f, self.max_reserve)?;
        f.write_str("/")?;
        if self.turn_limit > 0 {
            write!(f, "{}t", self.turn_limit)?;
        } else {
            write_time(f, self.game_limit)?;
        }
        f.write_str("/")?;
        write_time(f, self.turn_cap)
    }
}

impl TimeControl {
    /// The `setoption` pairs the controller sends before `newgame`, in roundrobin's order.
    pub fn aei_options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("tcmove", number(self.move_s)),
            ("tcreserve", number(self.reserve)),
            ("tcpercent", number(self.percent)),
            ("tcmax", number(self.max_reserve)),
            ("tcturns", self.turn_limit.to_string()),
            ("tctotal", number(self.game_limit)),
            ("tcturntime", number(self.turn_cap)),
        ]
    }
}

/// How long the side to move may think, and which limit sets it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Seconds from the start of the turn to its deadline.
    pub seconds: f64,
    /// True when the game-time limit is what ends the turn (running past it is code `s`,
    /// not `t`).
    pub game_limit_binds: bool,
}

/// Both sides' clocks during one game. Each side may have its own time control, or none.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: [Option<TimeControl>; 2],
    reserves: [f64; 2],
}

impl Clock {
    /// A clock at the start of a game: both reserves at their `tcreserve`.
    pub fn new(gold: Option<TimeControl>, silver: Option<TimeControl>) -> Clock {
        let r = |t: &Option<TimeControl>| t.map_or(0.0, |t| t.reserve);
        Clock {
            reserves: [r(&gold), r(&silver)],
            tc: [gold, silver],
        }
    }

    /// The exact reserve of `side` in seconds (None without a time control).
    pub fn reserve(&self, side: usize) -> Option<f64> {
        self.tc[side].map(|_| self.reserves[side])
    }

    /// The reserves as sent with `greserve`/`sreserve`: whole seconds, truncated.
    pub fn aei_reserve(&self, side: usize) -> Option<i64> {
        self.reserve(side).map(|r| r.trunc() as i64)
    }

    /// The budget of a turn of `side` that starts `game_elapsed` seconds after the game
    /// started; `None` when the side has no time control.
    pub fn budget(&self, side: usize, game_elapsed: f64) -> Option<Budget> {
        let tc = self.tc[side]?;
        let mut seconds = tc.move_s + self.reserves[side];
        if tc.turn_cap > 0.0 && tc.turn_cap < seconds {
            seconds = tc.turn_cap;
        }
        let mut game_limit_binds = false;
        if tc.game_limit > 0.0 {
            let left = tc.game_limit - game_elapsed;
            if left < seconds {
                seconds = left.max(0.0);
                game_limit_binds = true;
            }
        }
        Some(Budget {
            seconds,
            game_limit_binds,
        })
    }

    /// Charges `used` seconds to `side` after a turn that was played in time. Setup turns
    /// leave the reserve unchanged.
    pub fn charge(&mut self, side: usize, used: f64, setup: bool) {
        let Some(tc) = self.tc[side] else { return };
        if setup {
            return;
        }
        let mut change = tc.move_s - used;
        if change > 0.0 {
            change *= tc.percent / 100.0;
        }
        self.reserves[side] += change;
        if tc.max_reserve > 0.0 {
            self.reserves[side] = self.reserves[side].min(tc.max_reserve);
        }
    }

    /// Whether the game stops on its turn limit after `side` played, when the next move to
    /// be played carries number `next_number` (pyrimaa's rule: next number > limit).
    pub fn turn_limit_reached(&self, side: usize, next_number: u32) -> bool {
        self.tc[side].is_some_and(|tc| tc.turn_limit > 0 && next_number > tc.turn_limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_the_aei_forms() {
        let t = tc("2s/20s/100");
        assert_eq!((t.move_s, t.reserve, t.percent), (2.0, 20.0, 100.0));
        assert_eq!(
            (t.max_reserve, t.turn_limit, t.game_limit, t.turn_cap),
            (0.0, 0, 0.0, 0.0)
        );
        // Bare numbers are minutes, except total (hours); colon forms start at that unit.
        let t = tc("1/2/75/3/4/1:30");
        assert_eq!(t.move_s, 60.0);
        assert_eq!(t.reserve, 120.0);
        assert_eq!(t.percent, 75.0);
        assert_eq!(t.max_reserve, 180.0);
        assert_eq!(t.game_limit, 4.0 * 3600.0);
        assert_eq!(t.turn_cap, 90.0);
        let t = tc("30s/1m/100/0/100t");
        assert_eq!((t.turn_limit, t.game_limit), (100, 0.0));
        let t = tc("1m30s/5m");
        assert_eq!(t.move_s, 90.0);
        assert_eq!(tc("60s/5m/75/0/4h/4m").turn_cap, 240.0);
        // The percent field defaults to 100 when empty.
        assert_eq!(tc("1s/0s//0").percent, 100.0);
    }

    #[test]
    fn rejects_bad_strings_naming_the_field() {
        for (s, needle) in [
            ("2s", "at least"),
            ("2x/20s", "field move"),
            ("2s/20s/abc", "field percent"),
            ("2s/20s/100/0/xt", "field total"),
            ("0/0", "both 0"),
            ("1/2/3/4/5/6/7", "at most 6"),
        ] {
            let e = s.parse::<TimeControl>().unwrap_err();
            assert!(e.0.contains(needle), "{s}: {e}");
        }
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

    // The reference rules, worked by hand for 15s/60s/100/120s/1h (aei.md's example game):
    // gold uses 17 s on 2g: reserve 60 - (17 - 15) = 58; silver uses 14 s: 60 + 1 = 61.
    #[test]
    fn reserves_follow_the_reference_example() {
        let mut c = Clock::new(
            Some(tc("15s/60s/100/120s/1h")),
            Some(tc("15s/60s/100/120s/1h")),
        );
        c.charge(0, 3.0, true); // setups leave the reserve alone
        c.charge(1, 40.0, true);
        assert_eq!((c.aei_reserve(0), c.aei_reserve(1)), (Some(60), Some(60)));
        c.charge(0, 17.0, false);
        c.charge(1, 14.0, false);
        assert_eq!((c.aei_reserve(0), c.aei_reserve(1)), (Some(58), Some(61)));
        // Deadline = move + reserve.
        assert_eq!(c.budget(0, 100.0).unwrap().seconds, 15.0 + 58.0);
        // The cap: 70 s unused would give 131, capped at 120.
        c.charge(1, -55.0, false);
        assert_eq!(c.reserve(1), Some(120.0));
    }

    #[test]
    fn percent_applies_only_to_gains_and_reserves_truncate() {
        let mut c = Clock::new(Some(tc("10s/30s/50")), None);
        c.charge(0, 4.5, false); // 5.5 unused * 50% = 2.75
        assert_eq!(c.reserve(0), Some(32.75));
        assert_eq!(c.aei_reserve(0), Some(32));
        c.charge(0, 13.0, false); // 3 over: the full 3 comes off
        assert_eq!(c.reserve(0), Some(29.75));
        // No time control: no reserve, no budget.
        assert_eq!(c.reserve(1), None);
        assert_eq!(c.budget(1, 0.0), None);
        let mut z = Clock::new(Some(tc("1s/0s/0")), None);
        z.charge(0, 0.2, false);
        assert_eq!(z.reserve(0), Some(0.0));
        assert_eq!(z.budget(0, 5.0).unwrap().seconds, 1.0);
    }

    #[test]
    fn turn_cap_and_game_limit_shorten_the_turn() {
        let c = Clock::new(Some(tc("30s/5m/100/0/0/40s")), Some(tc("30s/5m/100/0/10m")));
        assert_eq!(
            c.budget(0, 0.0),
            Some(Budget {
                seconds: 40.0,
                game_limit_binds: false
            })
        );
        assert_eq!(c.budget(1, 0.0).unwrap().seconds, 330.0);
        assert_eq!(
            c.budget(1, 590.0),
            Some(Budget {
                seconds: 10.0,
                game_limit_binds: true
            })
        );
        assert_eq!(c.budget(1, 700.0).unwrap().seconds, 0.0);
    }

    #[test]
    fn turn_limit_ends_after_silvers_move() {
        let c = Clock::new(Some(tc("1s/1s/100/0/3t")), Some(tc("1s/1s/100/0/3t")));
        // After 3g the next move is 3s: not yet. After 3s the next is 4g: stop.
        assert!(!c.turn_limit_reached(0, 3));
        assert!(c.turn_limit_reached(1, 4));
    }
}
