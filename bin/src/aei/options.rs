//! `setoption` values, read into typed settings.
//!
//! Every standard AEI option is understood (the time control, the clocks, the opponent and
//! event, `hash` and `depth`), plus Tusk's own `threads`, `strict` (exit on an unknown
//! command), `seed` (fixes the setup choice), `nodes` (a node limit per search), `with`
//! and `without` (search features switched on and off, for self-play checks of what each is
//! worth; `without` wins where both name one), `weights` (an evaluation weights file;
//! `default` for the shipped set) and every numeric search tunable by its own name
//! (`rfp_margin`, ...: `tusk_search::Tunable`). Names are matched case-insensitively.
//! Numbers may be decimals; times are seconds.

use std::fmt;
use std::sync::LazyLock;

use tusk_engine::{ByColor, Color};
use tusk_search::SearchConfig;

use crate::clock::TimeControl;

/// What `hash` takes, the one message for any bad value.
static HASH_EXPECTED: LazyLock<String> =
    LazyLock::new(|| format!("a size in MiB from 1 to {}", SearchConfig::MAX_HASH_MB));
/// What `threads` takes, the one message for any bad value.
static THREADS_EXPECTED: LazyLock<String> =
    LazyLock::new(|| format!("a thread count from 1 to {}", SearchConfig::MAX_THREADS));

/// Everything `setoption` can set.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The time control (`tcmove` ... `tcturntime`).
    pub tc: TimeControl,
    /// Each side's current reserve (`greserve`, `sreserve`), once told.
    pub reserve: ByColor<Option<f64>>,
    /// Time each side used on its last turn (`gused`, `sused`).
    pub used: ByColor<Option<f64>>,
    /// Time used on the turn just played (`lastmoveused`).
    pub last_move_used: Option<f64>,
    /// Time already spent on the current turn (`moveused`).
    pub move_used: f64,
    /// The opponent's name.
    pub opponent: Option<String>,
    /// The opponent's rating.
    pub opponent_rating: Option<f64>,
    /// Tusk's own rating.
    pub rating: Option<f64>,
    /// Whether the game is rated (default true).
    pub rated: bool,
    /// The event's name.
    pub event: Option<String>,
    /// Transposition-table size, MiB.
    pub hash_mb: usize,
    /// Fixed search depth in steps (`None`: no fixed depth).
    pub depth: Option<u32>,
    /// Node limit per search, for fast fixed-effort matches (`None`: no limit; 0 clears it).
    pub nodes: Option<u64>,
    /// Search threads.
    pub threads: usize,
    /// Exit on an unknown command, as the protocol text says (default false).
    pub strict: bool,
    /// Fixes the setup choice (`None`: a fresh choice every game).
    pub seed: Option<u64>,
    /// Search features switched on (`tusk bench --with` names, comma-separated).
    pub with: Vec<tusk_search::Feature>,
    /// Search features switched off (`tusk bench --without` names, comma-separated); applied
    /// after `with`.
    pub without: Vec<tusk_search::Feature>,
    /// The evaluation weights (`weights`: a weights file; empty or `default`: the shipped ones).
    pub weights: tusk_eval::Weights,
    /// The names the last weights file left out (they keep the shipped values).
    pub weights_missing: Vec<&'static str>,
    /// The search tunables set by name, each once (the last value given), in the order first
    /// set.
    pub tunables: Vec<(tusk_search::Tunable, i64)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tc: TimeControl::default(),
            reserve: ByColor([None, None]),
            used: ByColor([None, None]),
            last_move_used: None,
            move_used: 0.0,
            opponent: None,
            opponent_rating: None,
            rating: None,
            rated: true,
            event: None,
            hash_mb: SearchConfig::DEFAULT_HASH_MB,
            depth: None,
            nodes: None,
            threads: SearchConfig::DEFAULT_THREADS,
            strict: false,
            seed: None,
            with: Vec::new(),
            without: Vec::new(),
            weights: tusk_eval::Weights::default(),
            weights_missing: Vec::new(),
            tunables: Vec::new(),
        }
    }
}

/// What a successful `setoption` changed that the session must act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// Nothing beyond the stored value.
    Stored,
    /// `moveused`: a running search's deadlines move.
    MoveUsed,
    /// `hash`: the transposition table is resized.
    Hash,
    /// `threads`: the searcher's thread count changes.
    Threads,
    /// `with`, `without`, `weights` or a tunable: the searcher's parameters change.
    Params,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No such option.
    Unknown(String),
    /// The value is missing or not of the kind the option takes.
    BadValue {
        /// The option.
        name: String,
        /// The value given (`None`: no value).
        value: Option<String>,
        /// What the option takes.
        expected: &'static str,
    },
    /// A weights file that could not be read or is not valid (the message names the file,
    /// and the line and key at fault).
    Weights(String),
    /// A search tunable's value that is not a whole number in its range.
    Tunable(tusk_search::TunableError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unrecognized option '{name}' ignored"),
            OptionError::BadValue {
                name,
                value: Some(v),
                expected,
            } => write!(
                f,
                "option '{name}': bad value \"{v}\" (expected {expected}); kept the previous value"
            ),
            OptionError::BadValue {
                name,
                value: None,
                expected,
            } => write!(f, "option '{name}' needs a value ({expected})"),
            OptionError::Weights(e) => {
                write!(f, "option 'weights': {e}; kept the previous weights")
            }
            OptionError::Tunable(e) => write!(f, "option {e}; kept the previous value"),
        }
    }
}

impl std::error::Error for OptionError {}

/// What kind of value an option takes.
#[derive(Clone, Copy)]
enum Kind {
    Seconds,
    SignedSeconds,
    Percent,
    Count,
    Number,
    Bool,
    Text,
}

impl Kind {
    fn expected(self) -> &'static str {
        match self {
            Kind::Seconds => "a number of seconds, 0 or more",
            Kind::SignedSeconds => "a number of seconds",
            Kind::Percent => "a percentage, 0 or more",
            Kind::Count => "a whole number, 0 or more",
            Kind::Number => "a number",
            Kind::Bool => "0 or 1 (or true/false)",
            Kind::Text => "text",
        }
    }
}

/// A parsed value.
enum Value {
    Num(f64),
    Bool(bool),
    Text(String),
}

impl Options {
    /// The values a new game starts with: the same settings, both reserves back at
    /// `tcreserve`, no turn times.
    pub fn new_game(&mut self) {
        self.reserve = ByColor([None, None]);
        self.used = ByColor([None, None]);
        self.last_move_used = None;
        self.move_used = 0.0;
    }

    /// The reserve of `side`: what the controller last said, else `tcreserve`.
    pub fn reserve_of(&self, side: Color) -> f64 {
        self.reserve[side].unwrap_or(self.tc.reserve)
    }

    /// Sets option `name` (lower case) to `value`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        if let Some(t) = tusk_search::Tunable::from_name(name) {
            let v = t
                .parse_value(value.unwrap_or(""))
                .map_err(OptionError::Tunable)?;
            match self.tunables.iter_mut().find(|(have, _)| *have == t) {
                Some(slot) => slot.1 = v,
                None => self.tunables.push((t, v)),
            }
            return Ok(Changed::Params);
        }
        let kind = match name {
            "tcmove" | "tcreserve" | "tcmax" | "tctotal" | "tcturntime" | "gused" | "sused"
            | "lastmoveused" | "moveused" => Kind::Seconds,
            "greserve" | "sreserve" => Kind::SignedSeconds,
            "tcpercent" => Kind::Percent,
            "tcturns" | "hash" | "threads" | "seed" | "nodes" => Kind::Count,
            "depth" | "rating" | "opponent_rating" => Kind::Number,
            "rated" | "strict" => Kind::Bool,
            "opponent" | "event" | "with" | "without" | "weights" => Kind::Text,
            _ => return Err(OptionError::Unknown(name.to_string())),
        };
        let bad_as = |expected| OptionError::BadValue {
            name: name.to_string(),
            value: value.map(str::to_string),
            expected,
        };
        let bad = || {
            bad_as(match name {
                "hash" => HASH_EXPECTED.as_str(),
                "threads" => THREADS_EXPECTED.as_str(),
                _ => kind.expected(),
            })
        };
        let v = parse_value(kind, value).ok_or_else(bad)?;
        let num = |v: &Value| match v {
            Value::Num(x) => *x,
            _ => 0.0,
        };
        let x = num(&v);
        let mut changed = Changed::Stored;
        match (name, v) {
            ("tcmove", _) => self.tc.per_move = x,
            ("tcreserve", _) => self.tc.reserve = x,
            ("tcpercent", _) => self.tc.percent = x,
            ("tcmax", _) => self.tc.max_reserve = x,
            ("tctotal", _) => self.tc.total = x,
            ("tcturntime", _) => self.tc.turn_time = x,
            ("tcturns", _) => self.tc.turns = x.min(f64::from(u32::MAX)) as u32,
            ("greserve", _) => self.reserve[Color::Gold] = Some(x),
            ("sreserve", _) => self.reserve[Color::Silver] = Some(x),
            ("gused", _) => self.used[Color::Gold] = Some(x),
            ("sused", _) => self.used[Color::Silver] = Some(x),
            ("lastmoveused", _) => self.last_move_used = Some(x),
            ("moveused", _) => {
                self.move_used = x;
                changed = Changed::MoveUsed;
            }
            ("rating", _) => self.rating = Some(x),
            ("opponent_rating", _) => self.opponent_rating = Some(x),
            ("depth", _) => {
                self.depth = (x >= 1.0).then(|| x.min(f64::from(u32::MAX)) as u32);
            }
            ("nodes", _) => {
                self.nodes = (x >= 1.0).then(|| x.min(u64::MAX as f64) as u64);
            }
            ("hash", _) => {
                if !(1.0..=SearchConfig::MAX_HASH_MB as f64).contains(&x) {
                    return Err(bad());
                }
                self.hash_mb = x as usize;
                changed = Changed::Hash;
            }
            ("threads", _) => {
                if !(1.0..=SearchConfig::MAX_THREADS as f64).contains(&x) {
                    return Err(bad());
                }
                self.threads = x as usize;
                changed = Changed::Threads;
            }
            ("seed", _) => self.seed = Some(x as u64),
            ("rated", Value::Bool(b)) => self.rated = b,
            ("strict", Value::Bool(b)) => self.strict = b,
            ("opponent", Value::Text(t)) => self.opponent = Some(t),
            ("event", Value::Text(t)) => self.event = Some(t),
            ("with", Value::Text(t)) => {
                self.with = tusk_search::Feature::parse_list(&t)
                    .map_err(|_| bad_as(tusk_search::Feature::NAMES))?;
                changed = Changed::Params;
            }
            ("without", Value::Text(t)) => {
                // The message lists every name: "expected tt, ttmove, ...".
                self.without = tusk_search::Feature::parse_list(&t)
                    .map_err(|_| bad_as(tusk_search::Feature::NAMES))?;
                changed = Changed::Params;
            }
            ("weights", Value::Text(t)) => {
                let (weights, missing) = match t.as_str() {
                    "" | "default" => (tusk_eval::Weights::default(), Vec::new()),
                    path => {
                        let l = tusk_eval::weights_file::load(std::path::Path::new(path))
                            .map_err(|e| OptionError::Weights(e.to_string()))?;
                        (l.weights, l.missing)
                    }
                };
                self.weights = weights;
                self.weights_missing = missing;
                changed = Changed::Params;
            }
            _ => return Err(bad()),
        }
        Ok(changed)
    }
}

/// Reads `value` as `kind`; `None` when it does not fit.
fn parse_value(kind: Kind, value: Option<&str>) -> Option<Value> {
    let text = value.map(str::trim);
    match kind {
        Kind::Text => Some(Value::Text(text.unwrap_or("").to_string())),
        Kind::Bool => match text.map(str::to_ascii_lowercase).as_deref() {
            // A flag given without a value switches it on.
            None | Some("1") | Some("true") | Some("yes") | Some("on") => Some(Value::Bool(true)),
            Some("0") | Some("false") | Some("no") | Some("off") => Some(Value::Bool(false)),
            _ => None,
        },
        _ => {
            let x: f64 = text?.parse().ok()?;
            if !x.is_finite() {
                return None;
            }
            let ok = match kind {
                Kind::Seconds | Kind::Percent => x >= 0.0,
                Kind::Count => x >= 0.0 && x.fract() == 0.0,
                _ => true,
            };
            ok.then_some(Value::Num(x))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_option_is_stored() {
        let mut o = Options::default();
        for (name, value) in [
            ("tcmove", "15"),
            ("tcreserve", "60"),
            ("tcpercent", "75"),
            ("tcmax", "120"),
            ("tctotal", "3600"),
            ("tcturns", "80"),
            ("tcturntime", "30"),
            ("greserve", "58"),
            ("sreserve", "61.5"),
            ("gused", "17"),
            ("sused", "14"),
            ("lastmoveused", "14"),
            ("opponent", "bot Sharp"),
            ("opponent_rating", "2300"),
            ("rating", "1800"),
            ("rated", "0"),
            ("event", "Arimaa World Championship"),
            ("depth", "8"),
            ("strict", "1"),
            ("seed", "42"),
        ] {
            assert_eq!(o.set(name, Some(value)), Ok(Changed::Stored), "{name}");
        }
        assert_eq!(o.set("moveused", Some("3")), Ok(Changed::MoveUsed));
        assert_eq!(o.set("hash", Some("256")), Ok(Changed::Hash));
        assert_eq!(o.set("threads", Some("4")), Ok(Changed::Threads));
        assert_eq!(
            o.tc,
            TimeControl {
                per_move: 15.0,
                reserve: 60.0,
                percent: 75.0,
                max_reserve: 120.0,
                total: 3600.0,
                turns: 80,
                turn_time: 30.0,
            }
        );
        assert_eq!(o.reserve_of(Color::Gold), 58.0);
        assert_eq!(o.reserve_of(Color::Silver), 61.5);
        assert_eq!(o.used[Color::Silver], Some(14.0));
        assert_eq!(o.last_move_used, Some(14.0));
        assert_eq!(o.move_used, 3.0);
        assert_eq!(o.opponent.as_deref(), Some("bot Sharp"));
        assert_eq!(o.event.as_deref(), Some("Arimaa World Championship"));
        assert_eq!((o.rating, o.opponent_rating), (Some(1800.0), Some(2300.0)));
        assert!(!o.rated && o.strict);
        assert_eq!(
            (o.depth, o.hash_mb, o.threads, o.seed),
            (Some(8), 256, 4, Some(42))
        );
        // A new game keeps the settings and resets the clocks.
        o.new_game();
        assert_eq!(o.reserve_of(Color::Gold), 60.0);
        assert_eq!((o.move_used, o.used[Color::Gold]), (0.0, None));
        assert_eq!(o.tc.per_move, 15.0);
    }

    /// `with` and `without` read feature lists (the bench's names) and change the parameters;
    /// a name that is no feature is refused with the list of names, keeping the old list.
    #[test]
    fn feature_lists_switch_features_on_and_off() {
        use tusk_search::Feature;
        let mut o = Options::default();
        assert_eq!(
            o.set("with", Some("exchange, capmoves")),
            Ok(Changed::Params)
        );
        assert_eq!(o.with, [Feature::Exchange, Feature::CaptureMoves]);
        assert_eq!(o.set("without", Some("lmr")), Ok(Changed::Params));
        assert_eq!(o.without, [Feature::Lmr]);
        let e = o.set("with", Some("exchange,nosuch")).unwrap_err();
        assert!(e.to_string().contains(Feature::NAMES), "{e}");
        assert_eq!(o.with, [Feature::Exchange, Feature::CaptureMoves]);
        assert_eq!(o.set("with", Some("")), Ok(Changed::Params));
        assert!(o.with.is_empty());
    }

    /// Every search tunable is an option of its own name; a later value replaces an earlier
    /// one, and a bad value is refused naming the range, keeping the old value.
    #[test]
    fn tunables_are_options_of_their_own_names() {
        use tusk_search::Tunable;
        let mut o = Options::default();
        assert_eq!(o.set("rfp_margin", Some("30")), Ok(Changed::Params));
        assert_eq!(o.set("lmp_moves1", Some(" 6 ")), Ok(Changed::Params));
        assert_eq!(o.set("rfp_margin", Some("45")), Ok(Changed::Params));
        assert_eq!(
            o.tunables,
            [(Tunable::RfpMargin, 45), (Tunable::LmpMoves1, 6)]
        );
        for value in [Some("-1"), Some("ten"), None] {
            let e = o.set("rfp_margin", value).unwrap_err();
            assert!(
                e.to_string()
                    .ends_with("expected a whole number from 0 to 10000; kept the previous value"),
                "{e}"
            );
        }
        assert_eq!(o.tunables[0], (Tunable::RfpMargin, 45));
        for t in Tunable::ALL {
            let v = t.range().0.to_string();
            assert_eq!(
                o.set(t.name(), Some(&v)),
                Ok(Changed::Params),
                "{}",
                t.name()
            );
        }
        assert_eq!(o.tunables.len(), Tunable::ALL.len());
    }

    #[test]
    fn depth_zero_or_less_means_none() {
        let mut o = Options::default();
        o.set("depth", Some("8")).unwrap();
        o.set("depth", Some("0")).unwrap();
        o.set("nodes", Some("5000")).unwrap();
        assert_eq!(o.nodes, Some(5000));
        o.set("nodes", Some("0")).unwrap();
        assert_eq!(o.nodes, None);
        assert_eq!(o.depth, None);
        o.set("depth", Some("-3")).unwrap();
        assert_eq!(o.depth, None);
    }

    #[test]
    fn unknown_and_bad_values_change_nothing() {
        let mut o = Options::default();
        assert_eq!(
            o.set("frobnicate", Some("1")).unwrap_err().to_string(),
            "unrecognized option 'frobnicate' ignored"
        );
        for (name, value) in [
            ("tcmove", Some("fast")),
            ("tcmove", Some("-1")),
            ("tcmove", None),
            ("hash", Some("0")),
            ("hash", Some("12.5")),
            ("threads", Some("0")),
            ("rated", Some("maybe")),
            ("tcpercent", Some("nan")),
            ("tcturns", Some("1.5")),
        ] {
            let e = o.set(name, value).unwrap_err();
            assert!(
                matches!(e, OptionError::BadValue { .. }),
                "{name} {value:?}"
            );
            assert!(e.to_string().contains(name), "{e}");
        }
        assert_eq!(o, Options::default());
    }

    #[test]
    fn flags_without_value_switch_on() {
        let mut o = Options::default();
        o.set("strict", None).unwrap();
        assert!(o.strict);
        o.set("strict", Some("false")).unwrap();
        assert!(!o.strict);
    }
}
