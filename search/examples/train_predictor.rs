//! Fits the move predictor (`search/src/predictor.rs`) to the lines of `predictor_data`:
//! a softmax over each position's sampled turns, the chosen turn the target, full-batch Adam
//! (`tusk_search::predictor::fit`). Prints the training and validation loss as it goes, then,
//! on the validation positions, where the chosen turn ranks among the sampled ones by the
//! model and by the first iteration's search score alone (what the root orders by without
//! the model), and writes the weights.
//!
//! ```sh
//! cargo run --release -p tusk-search --example train_predictor -- --train TRAIN.jsonl... \
//!     --val VAL.jsonl [--epochs 200] [--lr 0.05] [--l2 0.0001] --out search/data/predictor.json
//! ```

use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::turn::parse_turn;
use tusk_search::predictor::{fit, gap, loss, turn_features, FitOptions, RootContext, Sample};

/// One position's sampled turns: the features, and each turn's (search, static) score.
struct Position {
    sample: Sample,
    scores: Vec<(i64, i64)>,
}

fn read(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    let mut features = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let place = format!("{path}:{}", n + 1);
        let d: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{place}: {e}"));
        let mut pos = parse_aei(d["position"].as_str().expect("a position"))
            .unwrap_or_else(|e| panic!("{place}: {e}"));
        let ctx = RootContext::new(&pos);
        let int = |v: &serde_json::Value| v.as_i64().expect("a whole number");
        let (best_static, best_search) = (int(&d["best_static"]), int(&d["best_search"]));
        let mut sample = Sample::default();
        let mut scores = Vec::new();
        for t in d["turns"].as_array().expect("a turns list") {
            let (text, st, se) = (t[0].as_str().expect("a turn"), int(&t[1]), int(&t[2]));
            let (turn, _) = parse_turn(&pos, text).unwrap_or_else(|e| panic!("{place}: {e}"));
            turn_features(
                &mut pos,
                &ctx,
                &turn,
                gap(best_static as i32, st as i32),
                gap(best_search as i32, se as i32),
                &mut features,
            );
            sample.turns.push(features.clone());
            scores.push((se, st));
        }
        out.push(Position { sample, scores });
    }
    out
}

/// The rank (1 = first) of the chosen turn when the turns are sorted by `key`, best first;
/// ties count against it.
fn rank_by<K: PartialOrd>(keys: &[K], chosen: usize) -> usize {
    1 + keys
        .iter()
        .enumerate()
        .filter(|&(j, k)| j != chosen && *k >= keys[chosen])
        .count()
}

fn report(name: &str, ranks: &[usize]) {
    let n = ranks.len().max(1) as f64;
    let within = |k: usize| 100.0 * ranks.iter().filter(|&&r| r <= k).count() as f64 / n;
    let mut sorted = ranks.to_vec();
    sorted.sort_unstable();
    println!(
        "{name:<28} top-1 {:5.1}%  top-3 {:5.1}%  top-10 {:5.1}%  top-40 {:5.1}%  median rank {}",
        within(1),
        within(3),
        within(10),
        within(40),
        sorted.get(sorted.len() / 2).copied().unwrap_or(0)
    );
}

fn main() {
    let (mut train_files, mut val_files) = (Vec::new(), Vec::new());
    let mut out: Option<String> = None;
    let mut options = FitOptions::default();
    let mut args = std::env::args().skip(1);
    let mut into_val = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--train" => into_val = false,
            "--val" => into_val = true,
            "--out" => out = Some(args.next().expect("--out takes a file")),
            "--epochs" => {
                options.epochs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--epochs N")
            }
            "--lr" => {
                options.learning_rate = args.next().and_then(|v| v.parse().ok()).expect("--lr X")
            }
            "--l2" => options.l2 = args.next().and_then(|v| v.parse().ok()).expect("--l2 X"),
            _ if into_val => val_files.push(a),
            _ => train_files.push(a),
        }
    }
    let train: Vec<Position> = train_files.iter().flat_map(|f| read(f)).collect();
    let val: Vec<Position> = val_files.iter().flat_map(|f| read(f)).collect();
    let samples = |set: &[Position]| set.iter().map(|p| p.sample.clone()).collect::<Vec<_>>();
    let (ts, vs) = (samples(&train), samples(&val));
    println!(
        "{} training positions, {} validation positions, {} turns in all",
        ts.len(),
        vs.len(),
        ts.iter().chain(&vs).map(|s| s.turns.len()).sum::<usize>()
    );
    let zero = vec![0.0; tusk_search::predictor::FEATURES];
    println!(
        "before: training loss {:.4}, validation loss {:.4}",
        loss(&zero, &ts, 0.0),
        loss(&zero, &vs, 0.0)
    );
    let predictor = fit(&ts, &options, &mut |epoch, w| {
        if epoch.is_multiple_of(25) || epoch == options.epochs {
            println!(
                "epoch {epoch:>4}: training loss {:.4}, validation loss {:.4}",
                loss(w, &ts, 0.0),
                loss(w, &vs, 0.0)
            );
        }
    });
    for (name, set) in [("training", &train), ("validation", &val)] {
        let model: Vec<usize> = set
            .iter()
            .map(|p| {
                let logits: Vec<f32> = p.sample.turns.iter().map(|f| predictor.logit(f)).collect();
                rank_by(&logits, p.sample.chosen)
            })
            .collect();
        let search: Vec<usize> = set
            .iter()
            .map(|p| rank_by(&p.scores, p.sample.chosen))
            .collect();
        report(&format!("{name}, by the model"), &model);
        report(&format!("{name}, by the search score"), &search);
    }
    if let Some(out) = out {
        std::fs::write(&out, predictor.to_json() + "\n").unwrap_or_else(|e| panic!("{out}: {e}"));
        println!("wrote {out}");
    }
}
