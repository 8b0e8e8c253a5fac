//! `tusk aei`: Tusk behind the Arimaa Engine Interface, for controllers such as `roundrobin`,
//! `analyze` and `gameroom`.
//!
//! A reader thread owns standard input and feeds a channel ([`reader`]); the session
//! ([`session`]) reads that channel, keeps the game and the options ([`options`]), runs at
//! most one search in its own thread, and writes protocol lines ([`output`]). Lines are read
//! by [`command`]; the clock and the time policy are [`crate::clock`]; the setup is
//! [`tusk_engine::setup::default_setup`].

pub mod command;
pub mod options;
pub mod output;
pub mod reader;
pub mod session;

use std::sync::mpsc;

/// Speaks AEI on standard input and output until `quit` or end of input.
pub fn run() -> anyhow::Result<()> {
    let (events, rx) = mpsc::channel();
    reader::spawn(std::io::stdin(), events.clone())?;
    let out = output::Output::new(Box::new(std::io::stdout()));
    session::run(out, events, rx);
    Ok(())
}
