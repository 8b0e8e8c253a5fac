//! The command line of `tusk match`, and its check: every option is read into [`Settings`]
//! or refused with an [`ArgsError`] naming the option and what is allowed, before any engine
//! starts.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::referee::RefereeConfig;
use super::schedule::{self, SetupFileError, SetupSource, Shard};
use super::spec::{parse_engine, EngineSpec, SpecError};
use super::stats::{Sprt, SprtError};
use crate::clock::control::{number, TcError};
use crate::clock::{TimeControl, MAX_SECONDS};
use crate::files::{read_text_file, FileError};

/// The most games played at once.
pub const MAX_CONCURRENCY: usize = 1024;

/// The most games one run may plan (every game of the schedule is held in memory).
pub const MAX_GAMES: u64 = 10_000_000;

/// Arguments of `tusk match`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub(super) sub: Option<MatchSub>,
    #[command(flatten)]
    pub(super) run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub(super) enum MatchSub {
    /// Merge the JSON-lines files of shards (or of interrupted runs) into one table.
    Merge(MergeArgs),
    /// Compare two candidates, each file one candidate's games against the same opponent on
    /// the same schedule: game by game and pair by pair, with the exact sign tests.
    Compare(CompareArgs),
    /// The pieces each engine lost and took, a game, by kind and by whose home trap, in the
    /// games it won and lost.
    Captures(CapturesArgs),
}

/// Arguments of `tusk match captures`.
#[derive(Args, Debug)]
pub(super) struct CapturesArgs {
    /// JSON-lines files written by `tusk match --json` (their games are counted together).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print only this engine's table (by default every engine's).
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
}

/// Arguments of `tusk match compare`.
#[derive(Args, Debug)]
pub(super) struct CompareArgs {
    /// Two JSON-lines files written by `tusk match --json` with the same seed, setups and
    /// games, each of one candidate against the common opponent.
    #[arg(num_args = 2, required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The engine both files play against (by default the one engine name both hold).
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
}

/// Arguments of `tusk match merge`.
#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// JSON-lines files written by `tusk match --json`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged games, sorted by id, to this JSON-lines file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write the final table as JSON to this file.
    #[arg(long)]
    pub table_json: Option<PathBuf>,
    /// The SPRT of `--candidate` against the other engine on the merged games (two engines):
    /// `elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=pairs]`. Its LLR now, for a run stopped
    /// before its test decided or for files of several runs.
    #[arg(long, value_name = "SPEC", requires = "candidate")]
    pub sprt: Option<String>,
    /// The engine the SPRT is about (with `--sprt`).
    #[arg(long, value_name = "NAME", requires = "sprt")]
    pub candidate: Option<String>,
}

/// Arguments of a match.
#[derive(Args, Debug)]
pub(super) struct RunArgs {
    /// An engine: `name=NAME,cmd=COMMAND[,option.NAME=VALUE...][,depth=N][,nodes=N][,tc=TC]`.
    /// The command runs through `sh -c`; quote a value holding commas ('cmd="a,b"').
    /// `depth` and `nodes` are sent as `setoption name depth|nodes value N`. Give it at least
    /// twice. An engine that cannot be started (or started again) stops the match.
    #[arg(long = "engine", value_name = "SPEC")]
    engines: Vec<String>,
    /// AEI time control `move/reserve/percent/max/total/turntime` (e.g. `2s/20s/100`), for
    /// every engine without its own `tc=`. Without one, a move may take `--move-timeout`.
    #[arg(long)]
    tc: Option<String>,
    /// Games per pairing (two engines: the whole match). Pairs of games share setups with
    /// the colours swapped.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Games played at once (1 to 1024).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Gauntlet: the first engine plays each other one (default: round robin).
    #[arg(long)]
    gauntlet: bool,
    /// Write each game's record (official notation with tags) into this directory.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Append each finished game as one JSON line; an existing file is resumed.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the final table as JSON to this file.
    #[arg(long, value_name = "FILE")]
    table_json: Option<PathBuf>,
    /// Stop as soon as the test decides: `elo0=0,elo1=10,alpha=0.05,beta=0.05` (two engines).
    /// It counts pairs of games (one opening, colours swapped) by default; `model=games` counts
    /// single games.
    #[arg(long)]
    sprt: Option<String>,
    /// Setups: `engines` (each engine chooses) or `random` (random legal setups from the
    /// seed, the same for both games of a pair).
    #[arg(long, default_value = "engines")]
    setups: String,
    /// Setups from a file: one line per opening with gold's and silver's placements.
    #[arg(long, value_name = "FILE")]
    setup_file: Option<PathBuf>,
    /// Seed for setups: the same seed gives the same games' setups.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// After the setups, the referee plays K random legal turns from the seed (the same for
    /// both games of a pair) before the engines take over: engines at a fixed depth or node
    /// count otherwise replay the same games from a small set of setups. Needs `--setups
    /// random` or `--setup-file`; 0 to 20.
    #[arg(long, default_value_t = 0, value_name = "K")]
    random_turns: u32,
    /// Play only shard K of N (`3/16`): whole pairs, dealt out in turn; merge the shards'
    /// JSON files with `tusk match merge`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Seconds a move may take when the side has no time control (a hung engine loses on
    /// time); more than 0, at most 1000000000.
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true)]
    move_timeout: f64,
    /// Send `stop` this many seconds before the deadline (roundrobin's stop_time); 0 to
    /// 1000000000.
    #[arg(long, allow_negative_numbers = true)]
    stop_time: Option<f64>,
    /// Append each engine's stderr to DIR/NAME.log, NAME being the engine's name (its last few
    /// kilobytes are shown anyway when it cannot be started).
    #[arg(long, value_name = "DIR")]
    stderr: Option<PathBuf>,
    /// Start fresh engine processes for every game, as roundrobin does (default: a process
    /// that behaved is reused for the next game after `newgame`).
    #[arg(long)]
    restart: bool,
    /// Stop the run when an engine warns about one of its options (an option it does not
    /// know and ignores, say a feature an older build lacks) instead of reporting the warning
    /// and playing on: a variant that silently plays as the default measures nothing.
    #[arg(long)]
    strict_options: bool,
    /// Event name written into the records.
    #[arg(long, default_value = "tusk match")]
    event: String,
}

/// An option that cannot be used; nothing was started.
#[derive(Debug, thiserror::Error)]
pub enum ArgsError {
    /// `--tc` is not a time control.
    #[error("--tc: {0}")]
    Tc(TcError),
    /// An `--engine` value is malformed.
    #[error(transparent)]
    Engine(#[from] SpecError),
    /// Fewer than two engines.
    #[error("a match needs at least two --engine")]
    TooFewEngines,
    /// Two engines with one name.
    #[error("two engines are named \"{0}\"; names must be unique")]
    DuplicateName(String),
    /// `--sprt` with more than two engines.
    #[error("--sprt needs exactly two engines")]
    SprtNeedsTwo,
    /// `--sprt` is malformed.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// `--random-turns` with setups the engines choose (the referee cannot play turns before
    /// it knows the setups).
    #[error("--random-turns needs setups the referee plays: add --setups random or --setup-file")]
    RandomTurnsNeedSetups,
    /// `--setups` is neither `engines` nor `random`.
    #[error("--setups \"{0}\": use engines or random (or --setup-file)")]
    Setups(String),
    /// The setup file could not be read (missing, too large, not UTF-8).
    #[error(transparent)]
    SetupFileText(#[from] FileError),
    /// A setup in the file is not legal, or there is none.
    #[error(transparent)]
    SetupFile(#[from] SetupFileError),
    /// A number outside its range.
    #[error("{option} {value}: {allowed}")]
    OutOfRange {
        /// The option.
        option: &'static str,
        /// The value given, as given.
        value: String,
        /// What is allowed.
        allowed: String,
    },
}

/// Where the output of a run goes.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// The JSON-lines file of games (resumed when it exists).
    pub json: Option<PathBuf>,
    /// The final table as JSON.
    pub table_json: Option<PathBuf>,
    /// A directory for each game's record.
    pub records: Option<PathBuf>,
    /// A directory for each engine's stderr.
    pub stderr: Option<PathBuf>,
}

/// A checked match: everything the run needs.
#[derive(Debug)]
pub struct Settings {
    /// The engines, each with its time control (`--tc` filled in).
    pub engines: Vec<EngineSpec>,
    /// Games per pairing.
    pub games: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The first engine against each other one.
    pub gauntlet: bool,
    /// Only this shard.
    pub shard: Option<Shard>,
    /// The test that may stop the match.
    pub sprt: Option<Sprt>,
    /// Where the setups come from.
    pub setups: SetupSource,
    /// The setups as part of the match fingerprint: `engines`, `random` or `file:<hash>`.
    pub setups_key: String,
    /// The setup seed.
    pub seed: u64,
    /// Random turns the referee plays after the setups.
    pub random_turns: u32,
    /// The referee's settings.
    pub referee: RefereeConfig,
    /// Fresh engine processes for every game.
    pub restart: bool,
    /// Where the output goes.
    pub outputs: Outputs,
    /// The event name of the records.
    pub event: String,
}

/// Most random turns the referee plays after the setups (more makes games no player would
/// play).
pub const MAX_RANDOM_TURNS: u32 = 20;

/// A number as a person typed it: `1e308`, not 309 digits.
fn shown(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// 64-bit FNV-1a, for the match fingerprint.
pub fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl RunArgs {
    /// Checks every option and reads the engines, the SPRT and the setups.
    pub fn settings(&self) -> Result<Settings, ArgsError> {
        let engines = self.engine_specs()?;
        let sprt = match &self.sprt {
            Some(_) if engines.len() != 2 => return Err(ArgsError::SprtNeedsTwo),
            Some(s) => Some(Sprt::parse(s)?),
            None => None,
        };
        self.check_counts(engines.len())?;
        let (setups, mut setups_key) = self.setup_source()?;
        if self.random_turns > 0 {
            if matches!(setups, SetupSource::Engines) {
                return Err(ArgsError::RandomTurnsNeedSetups);
            }
            // Only a match with random turns has a new fingerprint: earlier files resume.
            setups_key.push_str(&format!("+random_turns={}", self.random_turns));
        }
        Ok(Settings {
            engines,
            games: self.games,
            concurrency: self.concurrency,
            gauntlet: self.gauntlet,
            shard: self.shard,
            sprt,
            setups,
            setups_key,
            seed: self.seed,
            random_turns: self.random_turns,
            referee: self.referee_config()?,
            restart: self.restart,
            outputs: Outputs {
                json: self.json.clone(),
                table_json: self.table_json.clone(),
                records: self.records.clone(),
                stderr: self.stderr.clone(),
            },
            event: self.event.clone(),
        })
    }

    /// The engines, with `--tc` for those without their own; at least two, names unique.
    fn engine_specs(&self) -> Result<Vec<EngineSpec>, ArgsError> {
        let default_tc: Option<TimeControl> = match &self.tc {
            Some(s) => Some(s.parse().map_err(ArgsError::Tc)?),
            None => None,
        };
        let mut engines = Vec::new();
        for s in &self.engines {
            let mut e = parse_engine(s)?;
            if e.tc.is_none() {
                e.tc = default_tc;
            }
            engines.push(e);
        }
        if engines.len() < 2 {
            return Err(ArgsError::TooFewEngines);
        }
        let mut seen = HashSet::new();
        for e in &engines {
            if !seen.insert(e.name.clone()) {
                return Err(ArgsError::DuplicateName(e.name.clone()));
            }
        }
        Ok(engines)
    }

    /// `--games` (at least 1, at most [`MAX_GAMES`] in all) and `--concurrency`.
    fn check_counts(&self, engines: usize) -> Result<(), ArgsError> {
        let pairings = super::schedule::pairings(engines, self.gauntlet).len() as u64;
        if self.games == 0 || self.games.saturating_mul(pairings) > MAX_GAMES {
            return Err(ArgsError::OutOfRange {
                option: "--games",
                value: self.games.to_string(),
                allowed: format!(
                    "use at least 1 game per pairing, and at most {MAX_GAMES} games in all \
                     ({pairings} pairing{})",
                    if pairings == 1 { "" } else { "s" }
                ),
            });
        }
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(ArgsError::OutOfRange {
                option: "--concurrency",
                value: self.concurrency.to_string(),
                allowed: format!("use 1 to {MAX_CONCURRENCY} games at once"),
            });
        }
        if self.random_turns > MAX_RANDOM_TURNS {
            return Err(ArgsError::OutOfRange {
                option: "--random-turns",
                value: self.random_turns.to_string(),
                allowed: format!("use 0 to {MAX_RANDOM_TURNS} turns"),
            });
        }
        Ok(())
    }

    /// `--move-timeout` (more than 0, at most [`MAX_SECONDS`]) and `--stop-time` (0 to
    /// [`MAX_SECONDS`]).
    fn referee_config(&self) -> Result<RefereeConfig, ArgsError> {
        let t = self.move_timeout;
        if !(t > 0.0 && t <= MAX_SECONDS) {
            return Err(ArgsError::OutOfRange {
                option: "--move-timeout",
                value: shown(t),
                allowed: format!(
                    "must be more than 0 and at most {} seconds",
                    number(MAX_SECONDS)
                ),
            });
        }
        if let Some(st) = self.stop_time {
            if !(0.0..=MAX_SECONDS).contains(&st) {
                return Err(ArgsError::OutOfRange {
                    option: "--stop-time",
                    value: shown(st),
                    allowed: format!("must be 0 to {} seconds", number(MAX_SECONDS)),
                });
            }
        }
        Ok(RefereeConfig {
            move_timeout: Duration::from_secs_f64(t),
            stop_time: self.stop_time,
            strict_options: self.strict_options,
        })
    }

    /// The setups and their part of the match fingerprint.
    fn setup_source(&self) -> Result<(SetupSource, String), ArgsError> {
        match (&self.setup_file, self.setups.as_str()) {
            (Some(p), _) => {
                let text = read_text_file(p, "setup file")?;
                let lines = schedule::read_setup_file(&text, &p.display().to_string())?;
                // The fingerprint of earlier versions: the debug text of the `[gold, silver]`
                // pairs.
                let pairs: Vec<&[String; 2]> = lines.iter().map(|p| &p.0).collect();
                let key = format!("file:{:016x}", fnv(&format!("{pairs:?}")));
                Ok((SetupSource::File(lines), key))
            }
            (None, "engines") => Ok((SetupSource::Engines, "engines".to_string())),
            (None, "random") => Ok((SetupSource::Random, "random".to_string())),
            (None, other) => Err(ArgsError::Setups(other.to_string())),
        }
    }
}

/// The settings of `tusk match ARGS`, for tests (panics on what clap refuses).
#[cfg(test)]
pub fn settings_of(args: &[&str]) -> Result<Settings, ArgsError> {
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    let argv = std::iter::once("match").chain(args.iter().copied());
    Cli::try_parse_from(argv).unwrap().run.settings()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(args: &[&str]) -> Result<Settings, ArgsError> {
        let mut argv = vec!["--engine", "name=a,cmd=x", "--engine", "name=b,cmd=y"];
        argv.extend(args);
        settings_of(&argv)
    }

    #[test]
    fn numbers_out_of_range_name_the_option_and_the_range() {
        for (args, message) in [
            (&["--games", "0"][..], "--games 0: use at least 1 game per pairing, and at most 10000000 games in all (1 pairing)"),
            (&["--games", "10000001"], "--games 10000001: use at least 1 game per pairing, and at most 10000000 games in all (1 pairing)"),
            (&["--concurrency", "1025"], "--concurrency 1025: use 1 to 1024 games at once"),
            (&["--move-timeout", "1e308"], "--move-timeout 1e308: must be more than 0 and at most 1000000000 seconds"),
            (&["--move-timeout", "-0.5"], "--move-timeout -0.5: must be more than 0 and at most 1000000000 seconds"),
            (&["--stop-time", "-5"], "--stop-time -5: must be 0 to 1000000000 seconds"),
            (&["--stop-time", "inf"], "--stop-time inf: must be 0 to 1000000000 seconds"),
        ] {
            let e = settings(args).unwrap_err();
            assert!(matches!(e, ArgsError::OutOfRange { .. }), "{args:?}: {e:?}");
            assert_eq!(e.to_string(), message);
        }
        let s = settings(&[
            "--games",
            "10000000",
            "--concurrency",
            "1024",
            "--stop-time",
            "0",
        ])
        .unwrap();
        assert_eq!((s.games, s.concurrency), (10_000_000, 1024));
        assert_eq!(s.referee.stop_time, Some(0.0));
        assert_eq!(
            settings(&[]).unwrap().referee.move_timeout,
            Duration::from_secs(60)
        );
    }

    #[test]
    fn random_turns_need_the_referees_setups_and_a_bound() {
        let e = settings(&["--random-turns", "2"]).unwrap_err().to_string();
        assert_eq!(
            e,
            "--random-turns needs setups the referee plays: add --setups random or --setup-file"
        );
        let e = settings(&["--setups", "random", "--random-turns", "21"])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--random-turns 21: use 0 to 20 turns");
        let s = settings(&["--setups", "random", "--random-turns", "20"]).unwrap();
        assert_eq!(s.random_turns, 20);
        assert!(
            s.setups_key.ends_with("+random_turns=20"),
            "{}",
            s.setups_key
        );
    }

    #[test]
    fn engines_time_controls_and_sprt_are_checked() {
        let s = settings(&["--tc", "2s/20s/100"]).unwrap();
        assert_eq!(s.engines[1].tc.unwrap().reserve, 20.0);
        let e = settings(&["--tc", "99999999999999d/0"])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--tc: time control field move"), "{e}");
        let e = settings(&["--engine", "name=a,cmd=z"])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "two engines are named \"a\"; names must be unique");
        let e = settings(&["--engine", "name=c,cmd=z", "--sprt", "elo0=0,elo1=5"]).unwrap_err();
        assert!(matches!(e, ArgsError::SprtNeedsTwo), "{e}");
        let e = settings(&["--sprt", "elo0=5,elo1=0"]).unwrap_err();
        assert!(matches!(e, ArgsError::Sprt(_)), "{e}");
        let e = settings(&["--setups", "mine"]).unwrap_err().to_string();
        assert_eq!(
            e,
            "--setups \"mine\": use engines or random (or --setup-file)"
        );
    }

    #[test]
    fn a_setup_file_beyond_the_size_limit_is_refused() {
        let dir = std::env::temp_dir().join(format!("tusk-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let too_big = dir.join("big.txt");
        let limit = crate::files::MAX_TEXT_FILE_BYTES as usize;
        std::fs::write(&too_big, vec![b'#'; limit + 1]).unwrap();
        let e = settings(&["--setup-file", &too_big.display().to_string()]).unwrap_err();
        assert!(
            matches!(e, ArgsError::SetupFileText(FileError::TooLarge { .. })),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
