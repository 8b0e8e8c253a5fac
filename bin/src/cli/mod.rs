//! One module per subcommand, plus the shared position arguments.

pub mod moves;
pub mod perft;
pub mod position;
