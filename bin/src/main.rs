//! `tusk`: the Arimaa engine's command-line tools.

mod aei;
mod cli;
mod clock;
mod datagen;
mod files;
mod matches;
mod tune;

use clap::{Parser, Subcommand};

/// Tusk, an Arimaa engine.
#[derive(Parser)]
#[command(name = "tusk", version, about = "Tusk, an Arimaa engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count step sequences, distinct positions and distinct turns (move-generator test).
    Perft(cli::perft::PerftArgs),
    /// Static evaluation of a position, every term for gold and silver, in centirabbits.
    Eval(cli::eval::EvalArgs),
    /// Search a position: progress per depth, then the best turn.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Fixed deterministic workload on one thread: node counts and speed.
    Bench(cli::bench::BenchArgs),
    /// List every distinct legal turn of a position, or count them for many positions.
    Moves(cli::moves::MovesArgs),
    /// Play games between AEI engines: referee, clocks, records, Elo, SPRT, resume, shards.
    Match(Box<matches::MatchArgs>),
    /// Self-play games at a fixed effort per move, one JSON line each: training data for tune.
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's weights to game results (datagen and match files) or to a teacher's scores of positions: a weights file.
    Tune(tune::TuneArgs),
    /// Speak the Arimaa Engine Interface on stdin/stdout (the default when stdin is not a
    /// terminal), for controllers such as roundrobin, analyze and gameroom.
    Aei,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(a)) => cli::perft::run(&a),
        Some(Command::Moves(a)) => cli::moves::run(&a),
        Some(Command::Analyze(a)) => cli::analyze::run(&a),
        Some(Command::Bench(a)) => cli::bench::run(&a),
        Some(Command::Eval(a)) => cli::eval::run(&a),
        Some(Command::Match(a)) => matches::run(&a),
        Some(Command::Datagen(a)) => datagen::run(&a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Aei) => aei::run(),
        None if !std::io::IsTerminal::is_terminal(&std::io::stdin()) => aei::run(),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            println!();
            Ok(())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // A closed pipe (`tusk moves | head`) is the reader's choice, not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            std::process::ExitCode::SUCCESS
        }
        // A decided game is an answer, not a failure: one line and its own exit status.
        Err(e) if e.downcast_ref::<cli::position::GameOver>().is_some() => {
            println!("{e}");
            std::process::ExitCode::from(cli::position::GAME_OVER_STATUS)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
