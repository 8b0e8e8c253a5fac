//! Training data for the move predictor (`search/src/predictor.rs`): from recorded games
//! (`tusk match --json` or `tusk datagen` lines), the turn starts where a teacher engine moved,
//! each with the turn it chose and a sample of the other root turns, every turn with its static
//! and first-iteration scores (`tusk_search::predictor::root_scores`). One JSON line a
//! position:
//! `{"position": "g [...]", "best_static": S, "best_search": S, "turns": [["Ee2n Ee3n", static, search], ...]}`,
//! the chosen turn first.
//!
//! ```sh
//! cargo run --release -p tusk-search --example predictor_data -- --teacher tusk \
//!     [--from-turn 3] [--every 3] [--top 40] [--random 160] [--seed 1] [--threads 2] \
//!     --out data/predictor/train.jsonl GAMES.jsonl...
//! ```
//!
//! The sample is the `--top` best turns by first-iteration score and `--random` others drawn
//! with the seed; `--every K` keeps every K-th teacher turn of each game.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use tusk_engine::notation::board::to_aei_with_side;
use tusk_engine::notation::turn::{parse_turn, write_turn};
use tusk_engine::Game;
use tusk_search::predictor::root_scores;

struct Job {
    game: Game,
    chosen: String,
}

fn main() {
    let mut teachers: Vec<String> = Vec::new();
    let (mut from_turn, mut every, mut top, mut random, mut seed, mut threads) =
        (3u32, 3usize, 40usize, 160usize, 1u64, 2usize);
    let mut out: Option<String> = None;
    let mut files: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} takes a value"))
        };
        match a.as_str() {
            "--teacher" => teachers.push(value("--teacher")),
            "--from-turn" => from_turn = value("--from-turn").parse().expect("a turn number"),
            "--every" => every = value("--every").parse().expect("a count"),
            "--top" => top = value("--top").parse().expect("a count"),
            "--random" => random = value("--random").parse().expect("a count"),
            "--seed" => seed = value("--seed").parse().expect("a seed"),
            "--threads" => threads = value("--threads").parse().expect("a thread count"),
            "--out" => out = Some(value("--out")),
            _ => files.push(a),
        }
    }
    let out = out.expect("--out FILE is required");
    assert!(!teachers.is_empty(), "name at least one --teacher engine");
    assert!(every >= 1, "--every takes a count of at least 1");
    let mut jobs: Vec<Job> = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let g: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            let name = |side: &str| g[side].as_str().unwrap_or("").to_string();
            let (gold, silver) = (name("gold"), name("silver"));
            let moves = g["moves"].as_array().expect("a moves list");
            let mut game = Game::new();
            let mut kept = 0usize;
            for m in moves {
                let m = m.as_str().expect("a move string");
                let (label, text) = m.split_once(' ').unwrap_or((m, ""));
                let side_teacher = if label.ends_with('g') {
                    teachers.contains(&gold)
                } else {
                    teachers.contains(&silver)
                };
                let number: u32 = label[..label.len() - 1].parse().unwrap_or(0);
                if side_teacher && number >= from_turn && !game.in_setup() && !text.is_empty() {
                    if kept.is_multiple_of(every) {
                        jobs.push(Job {
                            game: game.clone(),
                            chosen: text.to_string(),
                        });
                    }
                    kept += 1;
                }
                if game.play_text_lenient(text).is_err() {
                    break;
                }
            }
        }
    }
    eprintln!("{} positions from {} files", jobs.len(), files.len());
    let params = tusk_search::Params::default();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let lines: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let (jobs, params, done) = (&jobs, &params, &done);
                scope.spawn(move || {
                    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ (t as u64) << 32);
                    let mut lines = Vec::new();
                    for job in jobs.iter().skip(t).step_by(threads.max(1)) {
                        if let Some(line) = sample(job, params, top, random, &mut rng) {
                            lines.push(line);
                        }
                        let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if k.is_multiple_of(100) {
                            eprintln!("{k} of {}", jobs.len());
                        }
                    }
                    lines
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let text: String = lines.into_iter().flatten().map(|l| l + "\n").collect();
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("{out}: {e}"));
}

/// The data line of one job: `None` where the recorded turn is not among the root turns (a
/// third repetition the record made anyway) or the position is decided.
fn sample(
    job: &Job,
    params: &tusk_search::Params,
    top: usize,
    random: usize,
    rng: &mut rand::rngs::StdRng,
) -> Option<String> {
    let pos = job.game.position();
    let (turn, _) = parse_turn(pos, &job.chosen).ok()?;
    let scores = root_scores(&job.game, params);
    if scores.len() < 2 {
        return None;
    }
    let board_after = |t: &tusk_engine::Turn| {
        let mut p = pos.clone();
        for s in t.steps() {
            p.play_step_unchecked(s);
        }
        p.board_key()
    };
    let target = board_after(&turn);
    let chosen = scores.iter().position(|r| board_after(&r.turn) == target)?;
    let best_static = scores.iter().map(|r| r.static_score).max()?;
    let best_search = scores.iter().map(|r| r.search_score).max()?;
    let mut others: Vec<usize> = (0..scores.len()).filter(|&i| i != chosen).collect();
    // `scores` is best first by search score: the top turns, then a random draw of the rest.
    let (head, tail) = others.split_at_mut(top.min(scores.len() - 1));
    tail.shuffle(rng);
    let picked: Vec<usize> = std::iter::once(chosen)
        .chain(head.iter().copied())
        .chain(tail.iter().copied().take(random))
        .collect();
    let turns: Vec<serde_json::Value> = picked
        .iter()
        .map(|&i| {
            let r = &scores[i];
            serde_json::json!([write_turn(pos, &r.turn), r.static_score, r.search_score])
        })
        .collect();
    Some(
        serde_json::json!({
            "position": to_aei_with_side(pos),
            "root_turns": scores.len(),
            "chosen_rank": chosen + 1,
            "best_static": best_static,
            "best_search": best_search,
            "turns": turns,
        })
        .to_string(),
    )
}
