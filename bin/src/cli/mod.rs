//! One module per subcommand, plus the shared position arguments.

pub mod analyze;
pub mod bench;
pub mod eval;
pub mod features;
pub mod moves;
pub mod perft;
pub mod position;
pub mod weights;
