//! `tusk match`: games between AEI engines run as child processes, refereed by the engine
//! crate, with clocks as pyrimaa keeps them, records, JSON lines, Elo, SPRT, resume and shards.
//!
//! Layers, as in fastchess: [`engine_proc`] (a child process, its timestamped lines and the
//! tail of its stderr) under [`aei_client`] (the controller side of AEI) under [`referee`]
//! (one game, whose [`Reason`](reason::Reason) is typed). Around them, by job:
//! * [`args`]: the command line, checked into settings before anything starts; [`spec`]: one
//!   `--engine` value;
//! * [`plan`]: the games, the fingerprint, resume; [`mod@run`]: probe, collect, cancel;
//!   [`pool`]: the worker threads;
//!   [`worker`]: a worker's engines and games, and the setup errors that stop a match;
//! * [`report`]: progress, table, SPRT verdict, table JSON; [`merge`]: `tusk match merge`;
//!   [`compare`]: `tusk match compare`; [`captures`]: `tusk match captures`;
//! * [`schedule`] says which games are played, [`state`] keeps the JSON-lines file,
//!   [`record`] writes game records, [`stats`] is pure; the clock is [`crate::clock`].

pub mod aei_client;
pub mod args;
pub mod captures;
pub mod compare;
pub mod engine_proc;
mod merge;
pub mod plan;
pub mod pool;
pub mod reason;
pub mod record;
pub mod referee;
pub mod report;
pub mod run;
pub mod schedule;
pub mod spec;
pub mod state;
pub mod stats;
pub mod worker;

pub use args::MatchArgs;

use args::MatchSub;

/// Runs `tusk match` (or `tusk match merge`, `compare`, `captures`).
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    match &args.sub {
        Some(MatchSub::Merge(m)) => merge::merge(m),
        Some(MatchSub::Compare(c)) => compare::run(c),
        Some(MatchSub::Captures(c)) => captures::run(c),
        None => Ok(run::run_match(args.run.settings()?)?),
    }
}
