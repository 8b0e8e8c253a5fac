//! Training data: games read from `tusk datagen` files and `tusk match --json` files (the
//! format is told per line), replayed with the engine, and the positions sampled from them.
//!
//! Per game: every turn start after the first `skip_turns` turns and before the end is a
//! candidate; one the side to move can win by goal this turn is decided within the turn and
//! dropped; the others are replaced by their quiet leaf (the quiescence search's principal
//! variation end, [`tusk_search::quiet_leaves`]), dropped again when the side to move there can
//! still goal or capture; of what is left, up to `positions_per_game` are taken in a seeded
//! random order. The result is the game's, from the leaf's side to move's view.

use std::collections::HashMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::Deserialize;
use tusk_engine::notation::turn::parse_turn;
use tusk_engine::{turn_boundary_result, Color, EndReason, Game, GameResult, Position, TurnGen};
use tusk_eval::{captures, goal, Weights};

use super::matrix::{row_of, Matrix};
use crate::matches::schedule::mix;

/// Where a game came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A `tusk datagen` line.
    Datagen,
    /// A `tusk match --json` line.
    Match,
}

/// A game as read: where it is, its moves and its recorded end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// `file:line`, for messages.
    pub origin: String,
    /// The format of its line.
    pub source: Source,
    /// The moves, labelled (`1g Ra1 ...`).
    pub moves: Vec<String>,
    /// `g` or `s`.
    pub winner: String,
    /// The recorded reason code.
    pub reason: String,
}

/// The fields both formats share.
#[derive(Deserialize)]
struct Common {
    moves: Vec<String>,
    winner: String,
    reason: String,
}

/// Which format a parsed line is: a datagen line has `scores` and a `key`; a match line a
/// `match_key`.
fn source_of(v: &serde_json::Value) -> Option<Source> {
    if v.get("scores").is_some() && v.get("key").is_some() {
        Some(Source::Datagen)
    } else if v.get("match_key").is_some() {
        Some(Source::Match)
    } else {
        None
    }
}

/// Reads the games of one file's text (`name` for messages). A last line cut short (a file
/// still being written) is skipped and reported in the second value; any other line that is
/// not a game of either format is an error naming the line.
pub fn parse_games(text: &str, name: &str) -> Result<(Vec<GameRecord>, bool), String> {
    let mut out = Vec::new();
    let mut pieces = text.split_inclusive('\n').enumerate().peekable();
    while let Some((i, piece)) = pieces.next() {
        let line = piece.trim();
        if line.is_empty() {
            continue;
        }
        let origin = format!("{name}:{}", i + 1);
        let value: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(_) if pieces.peek().is_none() && !piece.ends_with('\n') => return Ok((out, true)),
            Err(e) => return Err(format!("{origin}: not JSON: {e}")),
        };
        let Some(source) = source_of(&value) else {
            return Err(format!(
                "{origin}: neither a tusk datagen game (no \"scores\" and \"key\") nor a tusk \
                 match game (no \"match_key\")"
            ));
        };
        let c: Common = serde_json::from_value(value)
            .map_err(|e| format!("{origin}: not a game record: {e}"))?;
        out.push(GameRecord {
            origin,
            source,
            moves: c.moves,
            winner: c.winner,
            reason: c.reason,
        });
    }
    Ok((out, false))
}

/// Reads the games of a file (see [`parse_games`]); a torn last line is reported on
/// standard error.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (games, torn) = parse_games(&text, &path.display().to_string())?;
    if torn {
        eprintln!(
            "{}: the last line is cut short (still being written?); skipped",
            path.display()
        );
    }
    Ok(games)
}

/// Why a game gave no positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// Not ended by the rules (time, illegal move, resignation, turn limit).
    NotByTheRules,
    /// A move does not replay legally.
    Illegal,
    /// The replay does not end with the recorded winner.
    ResultDiffers,
}

/// A replayed game: its turn starts and how the rules ended it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The start of every turn after the two setups, the final (decided) position last.
    pub starts: Vec<Position>,
    /// How it ended.
    pub result: GameResult,
}

/// Replays a game with the engine's rules: the setups through [`Game`], each turn with
/// [`parse_turn`] (every step legal, the board changed), no turn after the game is decided
/// ([`turn_boundary_result`]) and none making a third repetition; at the end, the official
/// checks, and the repetition loss when no legal turn is left. The same answers as playing it
/// in a [`Game`] (a test checks it), without its per-turn count of the legal turns once a
/// position has repeated, which made replaying self-play games slow. Returns the game, or why
/// it is rejected.
pub fn replay(rec: &GameRecord) -> Result<Replayed, (Rejected, String)> {
    if !["g", "e", "m"].contains(&rec.reason.as_str()) {
        return Err((Rejected::NotByTheRules, rec.reason.clone()));
    }
    let illegal =
        |i: usize, m: &str, e: String| (Rejected::Illegal, format!("move {} ({m}): {e}", i + 1));
    let text_of = |m: &str| m.split_once(' ').map_or("", |(_, t)| t).to_string();
    if rec.moves.len() < 2 {
        return Err((Rejected::Illegal, "fewer than two setups".to_string()));
    }
    let mut game = Game::new();
    for (i, m) in rec.moves[..2].iter().enumerate() {
        game.play_text(&text_of(m))
            .map_err(|e| illegal(i, m, e.to_string()))?;
    }
    let mut pos = game.position().clone();
    let mut seen: HashMap<u64, u32> = HashMap::from([(pos.board_key(), 1)]);
    let mut starts = vec![pos.clone()];
    for (i, m) in rec.moves.iter().enumerate().skip(2) {
        if turn_boundary_result(&pos).is_some() {
            return Err(illegal(i, m, "the game was already over".into()));
        }
        let (_, next) = parse_turn(&pos, &text_of(m)).map_err(|e| illegal(i, m, e.to_string()))?;
        let n = seen.entry(next.board_key()).or_insert(0);
        if *n >= 2 {
            return Err(illegal(i, m, "a third repetition".into()));
        }
        *n += 1;
        pos = next;
        starts.push(pos.clone());
    }
    let result = match turn_boundary_result(&pos) {
        Some(r) => r,
        None => {
            let excluded = |k: u64| seen.get(&k).copied().unwrap_or(0) >= 2;
            if TurnGen::new().count_excluding(&pos, &excluded) > 0 {
                return Err((
                    Rejected::ResultDiffers,
                    "the replay does not end the game".to_string(),
                ));
            }
            GameResult {
                winner: !pos.side(),
                reason: EndReason::Repetition,
            }
        }
    };
    let want = match rec.winner.as_str() {
        "g" => Color::Gold,
        "s" => Color::Silver,
        w => return Err((Rejected::ResultDiffers, format!("winner {w:?}"))),
    };
    if result.winner != want {
        return Err((
            Rejected::ResultDiffers,
            format!("the replay ends with a {} win", result.winner.name()),
        ));
    }
    Ok(Replayed { starts, result })
}

/// Whether `pos` is quiet: the side to move can end it this turn by neither a goal nor a
/// capture (game leaves and scored positions alike).
pub fn is_quiet(pos: &Position) -> bool {
    goal::goal_in(pos).is_none() && captures::best_capture(pos).is_none()
}

/// How positions are sampled.
#[derive(Clone, Copy, Debug)]
pub struct SampleConfig {
    /// Turns skipped at the start of each game (after the setups).
    pub skip_turns: usize,
    /// Positions taken from each game, at most.
    pub positions_per_game: usize,
    /// Seeds the order positions are taken in.
    pub seed: u64,
    /// Whether the positions taken are kept beside their rows (for `--scan`).
    pub keep_positions: bool,
}

/// What sampling one game gave and skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSample {
    /// The rows taken.
    pub rows: Matrix,
    /// Turn starts considered.
    pub candidates: u64,
    /// Candidates the side to move wins by goal this turn.
    pub decided: u64,
    /// Quiet leaves where the side to move can still goal or capture.
    pub not_quiet: u64,
    /// Rows taken whose position the quiescence search changed.
    pub resolved: u64,
    /// The positions of the rows, in order, when [`SampleConfig::keep_positions`] asks.
    pub positions: Vec<Position>,
}

/// Samples game number `ordinal` (its place in the data, for the seed) of `game`, a replayed
/// game, with weights `w` (for the quiescence search and the shape parameters).
pub fn sample(game: &Replayed, ordinal: u64, cfg: &SampleConfig, w: &Weights) -> GameSample {
    let mut out = GameSample::default();
    let result = game.result;
    // starts[t] is the start of turn t (after both setups); the last is the end.
    let turns = game.starts.len().saturating_sub(1);
    let mut cands = Vec::new();
    for t in cfg.skip_turns..turns {
        let p = &game.starts[t];
        out.candidates += 1;
        if goal::goal_in(p).is_some() {
            out.decided += 1;
        } else {
            cands.push(p.clone());
        }
    }
    let leaves = tusk_search::quiet_leaves(&cands, w);
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(mix(cfg.seed, ordinal)));
    for i in order {
        if out.rows.len() >= cfg.positions_per_game {
            break;
        }
        let leaf = &leaves[i];
        let pos = &leaf.position;
        if !is_quiet(pos) {
            out.not_quiet += 1;
            continue;
        }
        let Some(row) = row_of(pos, w) else {
            out.not_quiet += 1;
            continue;
        };
        let y = if result.winner == pos.side() {
            1.0
        } else {
            0.0
        };
        out.rows.push_row(&row, y);
        if cfg.keep_positions {
            out.positions.push(pos.clone());
        }
        out.resolved += u64::from(leaf.moves > 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATAGEN: &str = r#"{"id":0,"seed":7,"key":"datagen-1","random_turns":0,"moves":["1g Ra1"],"scores":[],"depths":[],"winner":"g","reason":"g","detail":""}"#;
    const MATCH: &str = r#"{"id":3,"round":1,"gold":"a","silver":"b","winner":"s","reason":"t","moves":["1g Ra1"],"detail":"","tc":["-","-"],"setups":"random","seed":1,"match_key":"k","date":"2026-01-01","seconds":1.0}"#;

    #[test]
    fn both_formats_are_told_apart_line_by_line() {
        let text = format!("{DATAGEN}\n\n{MATCH}\n{}", &DATAGEN[..20]);
        let (games, torn) = parse_games(&text, "f").unwrap();
        assert!(torn);
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0].source, games[0].origin.as_str()),
            (Source::Datagen, "f:1")
        );
        assert_eq!(
            (games[1].source, games[1].winner.as_str()),
            (Source::Match, "s")
        );
        let e = parse_games("{\"moves\": []}\n", "f").unwrap_err();
        assert!(e.starts_with("f:1: neither"), "{e}");
        let e = parse_games(&format!("{MATCH}\nnonsense\n"), "f").unwrap_err();
        assert!(e.starts_with("f:2: not JSON"), "{e}");
        let e = parse_games("{\"match_key\": 1}\n", "f").unwrap_err();
        assert!(e.starts_with("f:1: not a game record"), "{e}");
    }

    fn record(moves: &[&str], winner: &str, reason: &str) -> GameRecord {
        GameRecord {
            origin: "t".into(),
            source: Source::Match,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner: winner.into(),
            reason: reason.into(),
        }
    }

    const SETUPS: [&str; 2] = [
        "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2",
        "1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7",
    ];

    #[test]
    fn replay_rejects_what_the_rules_did_not_end_or_do_not_allow() {
        let r = record(&SETUPS, "g", "t");
        assert_eq!(replay(&r).unwrap_err().0, Rejected::NotByTheRules);
        let r = record(
            &[SETUPS[0], SETUPS[1], "2g Ee2n Ee3n Ee4n Ee5n Ee6n"],
            "g",
            "g",
        );
        assert_eq!(replay(&r).unwrap_err().0, Rejected::Illegal);
        let r = record(&SETUPS, "g", "g");
        let (why, text) = replay(&r).unwrap_err();
        assert_eq!(why, Rejected::ResultDiffers);
        assert!(text.contains("does not end"), "{text}");
    }

    /// The replay agrees with playing the game in a `Game`: on random games (many end by
    /// goal, elimination, immobilisation or repetition) and on games cut short.
    #[test]
    fn replay_agrees_with_the_engine_game() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let (mut ended, mut checked) = (0, 0);
        for _ in 0..300 {
            let mut game = tusk_tests::random_setup_game(&mut rng);
            let turns = rng.gen_range(0..400);
            tusk_tests::play_random_turns(&mut game, &mut rng, turns);
            let moves: Vec<String> = game.record().lines().map(str::to_string).collect();
            let starts: Vec<Position> = game.positions()[2..].to_vec();
            for winner in ["g", "s"] {
                let r = replay(&record(
                    &moves.iter().map(String::as_str).collect::<Vec<_>>(),
                    winner,
                    "m",
                ));
                match game.result() {
                    Some(res) if res.winner.letter().to_string() == winner => {
                        let rp = r.unwrap();
                        assert_eq!(rp.result, res);
                        assert_eq!(rp.starts, starts);
                        ended += 1;
                    }
                    Some(_) => assert_eq!(r.unwrap_err().0, Rejected::ResultDiffers),
                    None => {
                        let (why, text) = r.unwrap_err();
                        assert_eq!(why, Rejected::ResultDiffers);
                        assert!(text.contains("does not end"), "{text}");
                    }
                }
                checked += 1;
            }
        }
        assert!(ended > 50 && checked == 600, "{ended} ended games");
    }

    #[test]
    fn replay_refuses_moves_after_the_end_and_third_repetitions() {
        let mut moves: Vec<String> = SETUPS.iter().map(|s| s.to_string()).collect();
        // Both sides shuffle a piece back and forth: the start position comes back.
        for n in 2..=4 {
            moves.push(format!("{n}g Ee2n"));
            moves.push(format!("{n}s ed7s"));
            moves.push(format!("{}g Ee3s", n));
            moves.push(format!("{}s ed6n", n));
        }
        let labels: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (why, text) = replay(&record(&labels, "g", "m")).unwrap_err();
        assert_eq!(why, Rejected::Illegal);
        assert!(text.contains("third repetition"), "{text}");
    }

    #[test]
    fn sampling_takes_quiet_positions_with_the_result_of_their_side_to_move() {
        // A whole game from datagen's own player, at a tiny effort.
        let cfg = crate::datagen::game::GameConfig {
            seed: 11,
            limits: tusk_search::Limits {
                depth: None,
                nodes: Some(200),
                multipv: 1,
            },
            random_turns: 2,
            max_turns: 400,
            key: "k".into(),
        };
        let mut searcher = tusk_search::Searcher::new(tusk_search::SearchConfig {
            threads: 1,
            hash_mb: 1,
        })
        .expect("a searcher");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut gen = tusk_engine::TurnGen::new();
        let outcome =
            crate::datagen::game::play(&cfg, 0, &mut searcher, &mut gen, &stop, &mut || {})
                .unwrap();
        let crate::datagen::game::Outcome::Finished(line) = outcome else {
            panic!("{outcome:?}")
        };
        let rec = GameRecord {
            origin: "t".into(),
            source: Source::Datagen,
            moves: line.moves.clone(),
            winner: line.winner.clone(),
            reason: line.reason.clone(),
        };
        let game = replay(&rec).unwrap();
        let w = Weights::default();
        let sc = SampleConfig {
            skip_turns: 4,
            positions_per_game: 10,
            seed: 3,
            keep_positions: false,
        };
        let s = sample(&game, 0, &sc, &w);
        let turns = line.moves.len() - 2;
        assert_eq!(s.candidates as usize, turns - 4);
        assert_eq!(s, sample(&game, 0, &sc, &w), "seeded");
        assert_ne!(
            s.rows,
            sample(&game, 1, &sc, &w).rows,
            "another ordinal, another order"
        );
        // Results are 0 or 1, and both sides' positions appear.
        let ys: Vec<f32> = (0..s.rows.len()).map(|i| s.rows.result(i)).collect();
        assert!(ys.iter().all(|&y| y == 0.0 || y == 1.0));
        let all = SampleConfig {
            positions_per_game: 1000,
            ..sc
        };
        let every = sample(&game, 0, &all, &w);
        assert_eq!(
            every.rows.len() as u64,
            every.candidates - every.decided - every.not_quiet
        );
        assert_eq!(s.rows.len(), every.rows.len().min(10));
        assert!(every.positions.is_empty());
        // Kept positions are the rows' positions, in order.
        let kept = sample(
            &game,
            0,
            &SampleConfig {
                keep_positions: true,
                ..all
            },
            &w,
        );
        assert_eq!(kept.rows, every.rows);
        assert_eq!(kept.positions.len(), kept.rows.len());
        for (i, p) in kept.positions.iter().enumerate() {
            let row = row_of(p, &w).unwrap();
            let mut one = Matrix::default();
            one.push_row(&row, kept.rows.result(i));
            assert_eq!(one.row(0), kept.rows.row(i), "row {i}");
        }
        let wins = (0..every.rows.len())
            .filter(|&i| every.rows.result(i) == 1.0)
            .count();
        assert!(
            wins > 0 && wins < every.rows.len(),
            "{wins} of {}",
            every.rows.len()
        );
    }
}
