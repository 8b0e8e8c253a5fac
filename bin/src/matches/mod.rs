//! `tusk match`: games between AEI engines run as child processes, refereed by the engine
//! crate, with clocks as pyrimaa keeps them, records, JSON lines, Elo, SPRT, resume and shards.
//!
//! Layers: [`engine_proc`] (a child process and its timestamped lines) under [`aei_client`]
//! (the controller side of AEI) under [`referee`] (one game). [`schedule`] says which games
//! are played, [`state`] keeps the JSON-lines file, [`stats`] is pure; the clock is [`crate::clock`].

pub mod aei_client;
pub mod engine_proc;
pub mod record;
pub mod referee;
pub mod schedule;
pub mod state;
pub mod stats;

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tusk_engine::{Color, Game};

use crate::clock::TimeControl;
use aei_client::{AeiClient, ClientError};
use referee::{Outcome, Played, Player, RefereeConfig};
use schedule::{Scheduled, SetupSource, Shard};
use state::GameJson;
use stats::{Hypothesis, Sprt};

/// Arguments of `tusk match`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    sub: Option<MatchSub>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum MatchSub {
    /// Merge the JSON-lines files of shards (or of interrupted runs) into one table.
    Merge(MergeArgs),
}

/// Arguments of `tusk match merge`.
#[derive(Args, Debug)]
struct MergeArgs {
    /// JSON-lines files written by `tusk match --json`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged games, sorted by id, to this JSON-lines file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write the final table as JSON to this file.
    #[arg(long)]
    table_json: Option<PathBuf>,
}

/// Arguments of a match.
#[derive(Args, Debug)]
struct RunArgs {
    /// An engine: `name=NAME,cmd=COMMAND[,option.NAME=VALUE...][,depth=N][,nodes=N][,tc=TC]`.
    /// The command runs through `sh -c`; quote a value holding commas ('cmd="a,b"').
    /// `depth` and `nodes` are sent as `setoption name depth|nodes value N`. Give it at least
    /// twice.
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
    /// Games played at once.
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
    /// Play only shard K of N (`3/16`): whole pairs, dealt out in turn; merge the shards'
    /// JSON files with `tusk match merge`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Seconds a move may take when the side has no time control (a hung engine loses on
    /// time).
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Send `stop` this many seconds before the deadline (roundrobin's stop_time).
    #[arg(long)]
    stop_time: Option<f64>,
    /// Append each engine's stderr to DIR/<name>.log (default: discarded).
    #[arg(long, value_name = "DIR")]
    stderr: Option<PathBuf>,
    /// Start fresh engine processes for every game, as roundrobin does (default: a process
    /// that behaved is reused for the next game after `newgame`).
    #[arg(long)]
    restart: bool,
    /// Event name written into the records.
    #[arg(long, default_value = "tusk match")]
    event: String,
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Unique name.
    pub name: String,
    /// Shell command.
    pub cmd: String,
    /// `setoption` pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Time control of this engine, overriding `--tc`.
    pub tc: Option<TimeControl>,
}

/// Splits `a=1,b="x,y"` on commas outside quotes, removing the quotes.
fn split_spec(s: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ',') => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("--engine \"{s}\": unclosed quote"));
    }
    parts.push(cur);
    Ok(parts)
}

/// Reads one `--engine` value.
pub fn parse_engine(s: &str) -> Result<EngineSpec, String> {
    let mut e = EngineSpec {
        name: String::new(),
        cmd: String::new(),
        options: Vec::new(),
        tc: None,
    };
    for part in split_spec(s)? {
        if part.trim().is_empty() {
            continue;
        }
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("--engine \"{s}\": \"{part}\" is not key=value"))?;
        let k = k.trim();
        match k {
            "name" => e.name = v.trim().to_string(),
            "cmd" => e.cmd = v.to_string(),
            "depth" | "nodes" => {
                let n: u64 = v.trim().parse().map_err(|_| {
                    format!("--engine \"{s}\": {k}=\"{v}\" is not a whole number")
                })?;
                e.options.push((k.to_string(), n.to_string()));
            }
            "tc" => {
                e.tc = Some(
                    v.parse()
                        .map_err(|err| format!("--engine \"{s}\": {err}"))?,
                )
            }
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() && !name.contains(' ') => {
                    e.options.push((name.to_string(), v.to_string()))
                }
                _ => {
                    return Err(format!(
                        "--engine \"{s}\": unknown key \"{k}\" (use name, cmd, option.NAME, depth, nodes, tc)"
                    ))
                }
            },
        }
    }
    if e.name.is_empty() || e.name.contains(char::is_whitespace) {
        return Err(format!("--engine \"{s}\": needs name=NAME (no spaces)"));
    }
    if e.cmd.trim().is_empty() {
        return Err(format!("--engine \"{s}\": needs cmd=COMMAND"));
    }
    Ok(e)
}

/// 64-bit FNV-1a, for the match fingerprint.
fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Everything the workers share.
struct Ctx {
    engines: Vec<EngineSpec>,
    setups: SetupSource,
    seed: u64,
    referee: RefereeConfig,
    stderr_dir: Option<PathBuf>,
    restart: bool,
    cancel: AtomicBool,
}

/// A finished game, from a worker to the main thread.
struct Done {
    sched: Scheduled,
    outcome: Box<Outcome>,
    seconds: f64,
}

fn start_engine(ctx: &Ctx, e: usize) -> Result<AeiClient, ClientError> {
    let spec = &ctx.engines[e];
    let log = ctx
        .stderr_dir
        .as_ref()
        .map(|d| d.join(format!("{}.log", spec.name)));
    let mut c = AeiClient::start(&spec.cmd, log.as_deref(), &ctx.cancel)?;
    for (k, v) in &spec.options {
        c.setoption(k, v)?;
    }
    Ok(c)
}

fn worker(ctx: Arc<Ctx>, queue: Arc<Mutex<VecDeque<Scheduled>>>, tx: mpsc::Sender<Done>) {
    let mut procs: Vec<Option<AeiClient>> = (0..ctx.engines.len()).map(|_| None).collect();
    let names: Vec<&str> = ctx.engines.iter().map(|e| e.name.as_str()).collect();
    loop {
        if ctx.cancel.load(Ordering::Relaxed) {
            break;
        }
        let Some(sg) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
            break;
        };
        let t0 = Instant::now();
        let seats = [sg.gold, sg.silver];
        let mut start_error = None;
        for (c, &e) in Color::ALL.iter().zip(&seats) {
            if procs[e].is_none() {
                match start_engine(&ctx, e) {
                    Ok(cl) => procs[e] = Some(cl),
                    Err(err) => {
                        start_error = Some((*c, err));
                        break;
                    }
                }
            }
        }
        if ctx.cancel.load(Ordering::Relaxed) {
            break;
        }
        let outcome = if let Some((c, err)) = start_error {
            Box::new(Outcome {
                winner: !c,
                reason: 't',
                detail: format!("{} ({}) {err}", c.name(), names[seats[c.index()]]),
                game: Game::new(),
                illegal_move: None,
                faulty: [c == Color::Gold, c == Color::Silver],
            })
        } else {
            let (Some(mut g), Some(mut s)) = (procs[sg.gold].take(), procs[sg.silver].take())
            else {
                break;
            };
            let setups = schedule::setups_for(&ctx.setups, ctx.seed, sg.round);
            let played = referee::play_game(
                [
                    Player {
                        client: &mut g,
                        tc: ctx.engines[sg.gold].tc,
                    },
                    Player {
                        client: &mut s,
                        tc: ctx.engines[sg.silver].tc,
                    },
                ],
                [names[sg.gold], names[sg.silver]],
                setups.as_ref(),
                &ctx.referee,
                &ctx.cancel,
            );
            match played {
                Played::Aborted => {
                    g.kill();
                    s.kill();
                    break;
                }
                Played::Finished(o) => {
                    for (cl, e, bad) in [(g, sg.gold, o.faulty[0]), (s, sg.silver, o.faulty[1])] {
                        if bad {
                            cl.kill();
                        } else if ctx.restart {
                            cl.quit();
                        } else {
                            procs[e] = Some(cl);
                        }
                    }
                    o
                }
            }
        };
        let done = Done {
            sched: sg,
            outcome,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if tx.send(done).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        if ctx.cancel.load(Ordering::Relaxed) {
            p.kill();
        } else {
            p.quit();
        }
    }
}

/// Kills every engine when dropped: the last line of defence on error and panic paths.
struct KillGuard;

impl Drop for KillGuard {
    fn drop(&mut self) {
        engine_proc::kill_all();
    }
}

/// Runs `tusk match`.
pub fn run(args: &MatchArgs) -> Result<()> {
    match &args.sub {
        Some(MatchSub::Merge(m)) => merge(m),
        None => run_match(&args.run),
    }
}

fn write_table_json(path: &PathBuf, rows: &[state::Row], extra: serde_json::Value) -> Result<()> {
    let v = serde_json::json!({ "table": rows, "sprt": extra });
    std::fs::write(path, serde_json::to_string_pretty(&v)? + "\n")
        .with_context(|| format!("writing {}", path.display()))
}

fn merge(m: &MergeArgs) -> Result<()> {
    let mut sets = Vec::new();
    for f in &m.files {
        let (games, torn) = state::load(f).map_err(|e| anyhow!(e))?;
        if torn.is_some() {
            eprintln!(
                "warning: {}: the last line is cut short and is skipped",
                f.display()
            );
        }
        sets.push((f.display().to_string(), games));
    }
    let games = state::merge(sets).map_err(|e| anyhow!(e))?;
    let rows = state::table(&[], &games);
    println!(
        "{} games from {} files ({})",
        games.len(),
        m.files.len(),
        state::reasons_text(&games)
    );
    print!("{}", state::table_text(&rows));
    if let Some(p) = &m.json {
        let mut f =
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?;
        for g in &games {
            state::append(&mut f, g)?;
        }
    }
    if let Some(p) = &m.table_json {
        write_table_json(p, &rows, serde_json::Value::Null)?;
    }
    Ok(())
}

fn run_match(a: &RunArgs) -> Result<()> {
    // Engines and settings.
    let default_tc: Option<TimeControl> = match &a.tc {
        Some(s) => Some(s.parse().map_err(|e| anyhow!("--tc: {e}"))?),
        None => None,
    };
    let mut engines = Vec::new();
    for s in &a.engines {
        let mut e = parse_engine(s).map_err(|e| anyhow!(e))?;
        if e.tc.is_none() {
            e.tc = default_tc;
        }
        engines.push(e);
    }
    if engines.len() < 2 {
        bail!("a match needs at least two --engine");
    }
    let mut seen = HashSet::new();
    for e in &engines {
        if !seen.insert(e.name.clone()) {
            bail!("two engines are named \"{}\"; names must be unique", e.name);
        }
    }
    let sprt = match &a.sprt {
        Some(s) => {
            if engines.len() != 2 {
                bail!("--sprt needs exactly two engines");
            }
            Some(Sprt::parse(s).map_err(|e| anyhow!(e))?)
        }
        None => None,
    };
    let (setups, setup_desc) = match (&a.setup_file, a.setups.as_str()) {
        (Some(p), _) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            let lines = schedule::read_setup_file(&text, &p.display().to_string())
                .map_err(|e| anyhow!(e))?;
            let desc = format!("file:{:016x}", fnv(&format!("{lines:?}")));
            (SetupSource::File(lines), desc)
        }
        (None, "engines") => (SetupSource::Engines, "engines".to_string()),
        (None, "random") => (SetupSource::Random, "random".to_string()),
        (None, other) => bail!("--setups \"{other}\": use engines or random (or --setup-file)"),
    };
    if !(a.move_timeout > 0.0 && a.move_timeout.is_finite()) {
        bail!("--move-timeout must be a positive number of seconds");
    }
    if a.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let tc_text = |t: &Option<TimeControl>| t.map_or("-".to_string(), |t| t.to_string());
    let match_key = format!(
        "{:016x}",
        fnv(&format!(
            "{:?}|{}|{}|{}",
            engines
                .iter()
                .map(|e| (&e.name, &e.cmd, &e.options, tc_text(&e.tc)))
                .collect::<Vec<_>>(),
            a.gauntlet,
            setup_desc,
            a.seed
        ))
    );

    // The games of this run.
    let pairings = schedule::pairings(engines.len(), a.gauntlet).len();
    let mut todo: Vec<Scheduled> = schedule::schedule(engines.len(), a.gauntlet, a.games)
        .into_iter()
        .filter(|g| a.shard.is_none_or(|s| s.contains(g, pairings)))
        .collect();
    let planned = todo.len();

    // Resume.
    let mut finished: Vec<GameJson> = Vec::new();
    let mut json_file = None;
    if let Some(p) = &a.json {
        if p.exists() {
            let (games, torn) = state::load(p).map_err(|e| anyhow!(e))?;
            for g in &games {
                if g.match_key != match_key {
                    bail!(
                        "{}: game {} belongs to another match (different engines, options, time \
                         control, setups or seed); use another --json file",
                        p.display(),
                        g.id
                    );
                }
            }
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?;
            if let Some(len) = torn {
                eprintln!(
                    "{}: the last line was cut short (interrupted while writing); it is \
                     dropped and that game is played again",
                    p.display()
                );
                f.set_len(len)?;
            }
            let done: HashSet<u64> = games.iter().map(|g| g.id).collect();
            todo.retain(|g| !done.contains(&g.id));
            if !games.is_empty() {
                eprintln!(
                    "resuming {}: {} games done, {} to play",
                    p.display(),
                    games.len(),
                    todo.len()
                );
            }
            finished = games;
        }
        json_file = Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?,
        );
    }
    if let Some(d) = &a.records {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    if let Some(d) = &a.stderr {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }

    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let sprt_state = |games: &[GameJson]| -> Option<(u64, u64, Option<Hypothesis>)> {
        let s = sprt?;
        let rows = state::table(&names, games);
        let r = rows.iter().find(|r| r.name == names[0])?;
        Some((r.wins, r.losses, s.decide(r.wins, r.losses)))
    };
    let decided_before = sprt_state(&finished).and_then(|(_, _, d)| d);
    if decided_before.is_some() {
        todo.clear();
    }

    let ctx = Arc::new(Ctx {
        engines: engines.clone(),
        setups,
        seed: a.seed,
        referee: RefereeConfig {
            move_timeout: Duration::from_secs_f64(a.move_timeout),
            stop_time: a.stop_time,
        },
        stderr_dir: a.stderr.clone(),
        restart: a.restart,
        cancel: AtomicBool::new(false),
    });
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let ctx = Arc::clone(&ctx);
        let interrupted = Arc::clone(&interrupted);
        ctrlc::set_handler(move || {
            if interrupted.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C: leave at once (the engines are already killed).
                engine_proc::kill_all();
                std::process::exit(130);
            }
            ctx.cancel.store(true, Ordering::SeqCst);
            engine_proc::kill_all();
        })
        .context("installing the Ctrl-C handler")?;
    }
    let _guard = KillGuard;

    let pb = ProgressBar::new(planned as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_position((planned - todo.len()) as u64);
    let progress_msg = |games: &[GameJson]| -> String {
        let rows = state::table(&names, games);
        if names.len() == 2 {
            let r = rows.iter().find(|r| r.name == names[0]);
            let Some(r) = r else { return String::new() };
            let mut m = format!("{} {}-{} ({:.1}%)", r.name, r.wins, r.losses, r.score);
            if let Some(e) = stats::elo_estimate(r.wins, r.losses, 0) {
                if e.elo.is_finite() {
                    m.push_str(&format!(" Elo {:+.0} ± {:.0}", e.elo, e.error()));
                }
            }
            if let Some(s) = sprt {
                let (lo, hi) = s.bounds();
                m.push_str(&format!(
                    " LLR {:.2} [{lo:.2}, {hi:.2}]",
                    s.llr(r.wins, r.losses)
                ));
            }
            m
        } else {
            rows.first()
                .map(|r| format!("leader {} {:.1}%", r.name, r.score))
                .unwrap_or_default()
        }
    };
    pb.set_message(progress_msg(&finished));

    let queue = Arc::new(Mutex::new(todo.iter().copied().collect::<VecDeque<_>>()));
    let (tx, rx) = mpsc::channel::<Done>();
    let mut handles = Vec::new();
    for i in 0..a.concurrency.min(todo.len().max(1)) {
        let (ctx, queue, tx) = (Arc::clone(&ctx), Arc::clone(&queue), tx.clone());
        handles.push(
            std::thread::Builder::new()
                .name(format!("match-worker-{i}"))
                .spawn(move || worker(ctx, queue, tx))
                .context("starting a worker thread")?,
        );
    }
    drop(tx);

    let tcs: Vec<String> = engines.iter().map(|e| tc_text(&e.tc)).collect();
    let setups_name = match &ctx.setups {
        SetupSource::Engines => "engines",
        SetupSource::Random => "random",
        SetupSource::File(_) => "file",
    };
    let mut decided = decided_before;
    let mut write_error = None;
    for done in rx {
        if decided.is_some() {
            // The SPRT has decided: games that were still running do not count.
            continue;
        }
        let Done {
            sched,
            outcome,
            seconds,
        } = done;
        let g = GameJson {
            id: sched.id,
            round: sched.round,
            gold: names[sched.gold].clone(),
            silver: names[sched.silver].clone(),
            winner: outcome.winner.letter().to_string(),
            reason: outcome.reason.to_string(),
            moves: outcome.game.record().lines().map(str::to_string).collect(),
            illegal_move: outcome.illegal_move.clone(),
            detail: outcome.detail.clone(),
            tc: [tcs[sched.gold].clone(), tcs[sched.silver].clone()],
            setups: setups_name.to_string(),
            seed: a.seed,
            match_key: match_key.clone(),
            date: record::today(),
            seconds,
        };
        if let Some(f) = json_file.as_mut() {
            if let Err(e) = state::append(f, &g) {
                write_error = Some(anyhow!(e).context("writing the JSON file"));
                ctx.cancel.store(true, Ordering::SeqCst);
                engine_proc::kill_all();
                break;
            }
        }
        if let Some(d) = &a.records {
            let path = d.join(format!("game-{:06}.txt", g.id));
            if let Err(e) = std::fs::write(&path, record::record_text(&a.event, &g)) {
                write_error = Some(anyhow!(e).context(format!("writing {}", path.display())));
                ctx.cancel.store(true, Ordering::SeqCst);
                engine_proc::kill_all();
                break;
            }
        }
        if matches!(g.reason.as_str(), "t" | "i" | "r" | "s") {
            pb.suspend(|| eprintln!("game {} ({}): {}", g.id, g.reason, g.detail));
        }
        finished.push(g);
        pb.inc(1);
        pb.set_message(progress_msg(&finished));
        if let Some((_, _, Some(h))) = sprt_state(&finished) {
            decided = Some(h);
            ctx.cancel.store(true, Ordering::SeqCst);
        }
    }
    for h in handles {
        let _ = h.join();
    }
    pb.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }

    let rows = state::table(&names, &finished);
    println!(
        "{} games ({}), {}",
        finished.len(),
        state::reasons_text(&finished),
        if finished.len() < planned {
            format!("{} of {planned} planned", finished.len())
        } else {
            "all planned games played".to_string()
        }
    );
    print!("{}", state::table_text(&rows));
    let mut sprt_json = serde_json::Value::Null;
    if let (Some(s), Some((w, l, _))) = (sprt, sprt_state(&finished)) {
        let (lo, hi) = s.bounds();
        let verdict = match decided {
            Some(Hypothesis::H1) => format!(
                "H1 accepted: {} is stronger by about {} Elo",
                names[0], s.elo1
            ),
            Some(Hypothesis::H0) => {
                format!("H0 accepted: {} is not {} Elo stronger", names[0], s.elo1)
            }
            None => "undecided".to_string(),
        };
        println!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{lo:.3}, {hi:.3}] after {} games: {verdict}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.llr(w, l),
            w + l
        );
        sprt_json = serde_json::json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": s.llr(w, l), "lower": lo, "upper": hi,
            "result": match decided { Some(Hypothesis::H1) => "H1", Some(Hypothesis::H0) => "H0", None => "undecided" },
        });
    }
    if let Some(p) = &a.table_json {
        write_table_json(p, &rows, sprt_json)?;
    }
    if interrupted.load(Ordering::SeqCst) {
        drop(_guard);
        eprintln!(
            "interrupted: {} games are saved{}; run the same command again to resume",
            finished.len(),
            if a.json.is_some() {
                ""
            } else {
                " nowhere (no --json)"
            }
        );
        std::process::exit(130);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse_with_quotes_options_and_limits() {
        let e = parse_engine("name=new,cmd=./tusk aei,option.threads=1,depth=8").unwrap();
        assert_eq!(e.name, "new");
        assert_eq!(e.cmd, "./tusk aei");
        assert_eq!(
            e.options,
            vec![("threads".into(), "1".into()), ("depth".into(), "8".into())]
        );
        let e = parse_engine("name=b,cmd='run --x=1,2',nodes=5000,tc=1s/2s").unwrap();
        assert_eq!(e.cmd, "run --x=1,2");
        assert_eq!(e.options, vec![("nodes".into(), "5000".into())]);
        assert_eq!(e.tc.unwrap().reserve, 2.0);
        for (bad, why) in [
            ("cmd=x", "needs name"),
            ("name=a", "needs cmd"),
            ("name=a,cmd=x,depth=deep", "whole number"),
            ("name=a,cmd=x,colour=red", "unknown key"),
            ("name=a,cmd='x", "unclosed"),
            ("name=a,cmd=x,tc=zz", "time control"),
            ("name=a b,cmd=x", "no spaces"),
        ] {
            let e = parse_engine(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
