//! Prints a complete weights file: the hand-set weights with sharp's values for every term
//! that has a prior (the placement tables, the trap curve in place of `trap_home` and
//! `trap_away`, the home-trap defence, the capture risk, the rabbit threats; see
//! `Weights::with_sharp_priors`), which is what ships; or, with the argument `hand-set`, the
//! hand-set weights alone (the engine before the priors, for a match or a tuner's start):
//!
//! ```sh
//! cargo run --release -p tusk-eval --example sharp_priors > priors.json
//! cargo run --release -p tusk-eval --example sharp_priors -- hand-set > hand-set.json
//! ```

use tusk_eval::{weights_file, Weights};

fn main() {
    let weights = match std::env::args().nth(1).as_deref() {
        None => Weights::hand_set().with_sharp_priors(),
        Some("hand-set") => Weights::hand_set(),
        Some(other) => {
            eprintln!("sharp_priors: unknown argument {other:?} (expected nothing or `hand-set`)");
            std::process::exit(2);
        }
    };
    print!("{}", weights_file::to_json(&weights));
}
