//! Prints a complete weights file: the shipped weights with sharp's values for the terms
//! that ship at 0 (the placement tables, the trap curve in place of `trap_home` and
//! `trap_away`, the home-trap defence; see `Weights::with_sharp_priors`). A starting point
//! for `tusk tune --weights` and a candidate for `tusk match`:
//!
//! ```sh
//! cargo run --release -p tusk-eval --example sharp_priors > priors.json
//! ```

use tusk_eval::{weights_file, Weights};

fn main() {
    print!(
        "{}",
        weights_file::to_json(&Weights::default().with_sharp_priors())
    );
}
