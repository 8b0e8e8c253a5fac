//! Time: the AEI time control and the controller's clock ([`control`]), the one model of the
//! clock that both the AEI engine and the match runner's referee use, and Tusk's policy for
//! spending its time ([`policy`]), shared by the AEI engine and `tusk analyze --time`.

pub mod control;
pub mod policy;

pub use control::{seconds_to_duration, Clock, TimeControl, MAX_SECONDS};
