//! The match's JSON-lines file (one object per finished game), resume, merge, and the results
//! table computed from the games.
//!
//! The file format is fixed: files written by earlier versions load, resume and merge. The
//! winner is written as its letter (`g`/`s`), the reason as its one-letter code, the time
//! controls as a two-element array (gold's, silver's).

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tusk_engine::{ByColor, Color};

use super::reason::Reason;
use super::stats::{elo_summary, los, PairScores};

/// One finished game, as written to the JSON-lines file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameJson {
    /// The game's id within its match (its place in the whole schedule).
    pub id: u64,
    /// The round (pair number within its pairing).
    pub round: u64,
    /// Name of the engine playing gold.
    pub gold: String,
    /// Name of the engine playing silver.
    pub silver: String,
    /// The winner, written as `g` or `s`.
    #[serde(with = "color_letter")]
    pub winner: Color,
    /// Why the game ended, written as its one-letter code.
    pub reason: Reason,
    /// The moves as played, setups first: `1g Ra1 ...`, `1s ...`, `2g Ee2n Ee3n ...`.
    pub moves: Vec<String>,
    /// The rejected move when `reason` is [`Reason::Illegal`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal_move: Option<String>,
    /// What happened, for people.
    pub detail: String,
    /// Gold's and silver's time control (`-` for none), e.g. `2s/20s/100/0/0/0`; written as
    /// a two-element array.
    #[serde(with = "pair")]
    pub tc: ByColor<String>,
    /// Where the setups came from: `engines`, `random` or `file`.
    pub setups: String,
    /// The match seed.
    pub seed: u64,
    /// A fingerprint of the match settings (engines, options, time controls, setups, seed):
    /// resume and merge refuse files of another match.
    pub match_key: String,
    /// The UTC date the game was played, `YYYY-MM-DD`.
    pub date: String,
    /// Wall-clock length of the game in seconds.
    pub seconds: f64,
}

impl GameJson {
    /// The names of the engines, by colour.
    pub fn players(&self) -> ByColor<&str> {
        ByColor::new(&self.gold, &self.silver)
    }
}

/// A colour as its letter, `g` or `s`.
mod color_letter {
    use serde::{Deserialize, Deserializer, Serializer};
    use tusk_engine::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.letter().encode_utf8(&mut [0; 4]))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "g" => Ok(Color::Gold),
            "s" => Ok(Color::Silver),
            _ => Err(serde::de::Error::custom(format!(
                "\"{text}\" is not a side (g or s)"
            ))),
        }
    }
}

/// A [`ByColor`] as a two-element array, gold's first.
mod pair {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use tusk_engine::ByColor;

    pub fn serialize<S: Serializer, T: Serialize>(v: &ByColor<T>, s: S) -> Result<S::Ok, S::Error> {
        v.0.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<ByColor<T>, D::Error> {
        <[T; 2]>::deserialize(d).map(ByColor)
    }
}

/// Why a JSON-lines file of games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason (shown in the message).
        error: std::io::Error,
    },
    /// A line (not the last, cut-short one) is not a game.
    #[error("{}:{line}: not a game record: {error}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it (shown in the message).
        error: serde_json::Error,
    },
}

/// Why the games of several files cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A game of another match (another fingerprint).
    #[error("{file}: game {id} belongs to another match (key {key} differs from {first_key} in {first_file})")]
    OtherMatch {
        /// The file with the stray game.
        file: String,
        /// The game's id.
        id: u64,
        /// Its match fingerprint.
        key: String,
        /// The fingerprint of the first game read.
        first_key: String,
        /// The file of the first game read.
        first_file: String,
    },
    /// The same game id with different contents in two files.
    #[error("game {id} differs between {first_file} and {file}")]
    Conflict {
        /// The game id.
        id: u64,
        /// The file where it was first seen.
        first_file: String,
        /// The file where it differs.
        file: String,
    },
}

/// Reads a JSON-lines file of games. A last line cut short (the runner was killed while
/// writing it) is reported as the byte length of the good part, so resume can cut it off;
/// any other bad line is an error naming the file and line.
pub fn load(path: &Path) -> Result<(Vec<GameJson>, Option<u64>), LoadError> {
    let text = std::fs::read_to_string(path).map_err(|error| LoadError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut games = Vec::new();
    let mut offset = 0u64;
    let mut pieces = text.split_inclusive('\n').peekable();
    let mut n = 0;
    while let Some(piece) = pieces.next() {
        n += 1;
        let line = piece.trim();
        let start = offset;
        offset += piece.len() as u64;
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<GameJson>(line) {
            Ok(g) => games.push(g),
            Err(error) => {
                if pieces.peek().is_none() && !piece.ends_with('\n') {
                    return Ok((games, Some(start)));
                }
                return Err(LoadError::BadLine {
                    path: path.to_path_buf(),
                    line: n,
                    error,
                });
            }
        }
    }
    Ok((games, None))
}

/// Appends one game as one line and flushes it to the disk.
pub fn append(file: &mut std::fs::File, game: &GameJson) -> std::io::Result<()> {
    let mut line = serde_json::to_string(game).map_err(std::io::Error::other)?;
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.flush()?;
    file.sync_data()
}

/// Merges games from several files: every game must belong to the same match, and a game
/// id seen twice must be the same game (then it counts once). Sorted by id.
pub fn merge(sets: Vec<(String, Vec<GameJson>)>) -> Result<Vec<GameJson>, MergeError> {
    let mut by_id: BTreeMap<u64, (String, GameJson)> = BTreeMap::new();
    let mut key: Option<(String, String)> = None;
    for (file, games) in sets {
        for g in games {
            match &key {
                None => key = Some((file.clone(), g.match_key.clone())),
                Some((kf, k)) if *k != g.match_key => {
                    return Err(MergeError::OtherMatch {
                        file,
                        id: g.id,
                        key: g.match_key,
                        first_key: k.clone(),
                        first_file: kf.clone(),
                    })
                }
                _ => {}
            }
            if let Some((f0, g0)) = by_id.get(&g.id) {
                if !same_game(g0, &g) {
                    return Err(MergeError::Conflict {
                        id: g.id,
                        first_file: f0.clone(),
                        file,
                    });
                }
                continue;
            }
            by_id.insert(g.id, (file.clone(), g));
        }
    }
    Ok(by_id.into_values().map(|(_, g)| g).collect())
}

/// Whether two records are the same game (ignoring when and how fast it was played).
pub fn same_game(a: &GameJson, b: &GameJson) -> bool {
    let strip = |g: &GameJson| {
        let mut g = g.clone();
        g.date.clear();
        g.seconds = 0.0;
        g.detail.clear();
        g
    };
    strip(a) == strip(b)
}

/// One row of the results table.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Row {
    /// Engine name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Score in percent.
    pub score: f64,
    /// Elo against the field (null when the score is 0% or 100%).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval (null when unbounded); at a 100% score the one-sided
    /// bound of [`super::stats::sweep_score_bound`].
    pub elo_lower: Option<f64>,
    /// Upper end of the 95% interval (null when unbounded); at a 0% score the one-sided
    /// bound.
    pub elo_upper: Option<f64>,
    /// Likelihood of superiority over the field.
    pub los: f64,
    /// Games won as gold.
    #[serde(default)]
    pub gold_wins: u64,
    /// Games lost as gold.
    #[serde(default)]
    pub gold_losses: u64,
    /// Games won as silver.
    #[serde(default)]
    pub silver_wins: u64,
    /// Games lost as silver.
    #[serde(default)]
    pub silver_losses: u64,
}

/// `candidate`'s results over the complete pairs of `games` (the games of one match between
/// it and one other engine: a pair is the two games of a round, one with each colour), and
/// the number of its games outside a complete pair (a pair still being played, or cut by a
/// stopped run or a shard).
pub fn pair_scores(candidate: &str, games: &[GameJson]) -> (PairScores, u64) {
    let mut rounds: BTreeMap<(&str, u64), ByColor<Option<bool>>> = BTreeMap::new();
    let mut unpaired = 0;
    for g in games {
        let players = g.players();
        let Some(colour) = Color::ALL.into_iter().find(|&c| players[c] == candidate) else {
            continue;
        };
        let seat = &mut rounds.entry((&g.match_key, g.round)).or_default()[colour];
        if seat.is_some() {
            // A second game with the same colour in one round is no pair: count it alone.
            unpaired += 1;
            continue;
        }
        *seat = Some(g.winner == colour);
    }
    let mut pairs = PairScores::default();
    for seats in rounds.values() {
        match (seats[Color::Gold], seats[Color::Silver]) {
            (Some(a), Some(b)) => pairs.record(u8::from(a) + u8::from(b)),
            // A round holds a game only once one of its seats is taken: one seat is a game
            // alone.
            _ => unpaired += 1,
        }
    }
    (pairs, unpaired)
}

/// One engine's games so far: wins and losses with each colour.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: ByColor<u64>,
    losses: ByColor<u64>,
}

/// The results table: one row per engine in `names` (engines seen only in `games` are added),
/// best score first.
pub fn table(names: &[String], games: &[GameJson]) -> Vec<Row> {
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for n in names {
        tally.entry(n.clone()).or_default();
    }
    for g in games {
        let players = g.players();
        tally.entry(players[g.winner].to_string()).or_default().wins[g.winner] += 1;
        tally
            .entry(players[!g.winner].to_string())
            .or_default()
            .losses[!g.winner] += 1;
    }
    let mut rows: Vec<Row> = tally
        .into_iter()
        .map(|(name, t)| {
            let wins = t.wins[Color::Gold] + t.wins[Color::Silver];
            let losses = t.losses[Color::Gold] + t.losses[Color::Silver];
            let games = wins + losses;
            let e = elo_summary(wins, losses);
            Row {
                name,
                games,
                wins,
                losses,
                score: if games == 0 {
                    0.0
                } else {
                    100.0 * wins as f64 / games as f64
                },
                elo: e.and_then(|e| e.elo()),
                elo_lower: e.and_then(|e| e.lower()),
                elo_upper: e.and_then(|e| e.upper()),
                los: los(wins, losses),
                gold_wins: t.wins[Color::Gold],
                gold_losses: t.losses[Color::Gold],
                silver_wins: t.wins[Color::Silver],
                silver_losses: t.losses[Color::Silver],
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.name.cmp(&b.name))
    });
    rows
}

fn signed(x: Option<f64>, unbounded: &str) -> String {
    match x {
        Some(v) => format!("{v:+.1}"),
        None => unbounded.to_string(),
    }
}

/// The table as text for the terminal.
pub fn table_text(rows: &[Row]) -> String {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(6);
    let mut out = format!(
        "{:>4} {:<width$} {:>6} {:>6} {:>6} {:>7} {:>8} {:>20} {:>7} {:>9} {:>9}\n",
        "rank",
        "engine",
        "games",
        "wins",
        "losses",
        "score",
        "elo",
        "95% interval",
        "los",
        "as gold",
        "as silver"
    );
    for (i, r) in rows.iter().enumerate() {
        let elo = match (r.elo, r.elo_lower, r.elo_upper) {
            (Some(e), _, _) => format!("{e:+.1}"),
            // A clean sweep or loss: the one-sided bound.
            (None, Some(lower), None) if r.losses == 0 => format!("> {lower:+.1}"),
            (None, None, Some(upper)) if r.wins == 0 => format!("< {upper:+.1}"),
            (None, _, _) => "-".into(),
        };
        let interval = format!(
            "[{}, {}]",
            signed(r.elo_lower, "-inf"),
            signed(r.elo_upper, "+inf")
        );
        out.push_str(&format!(
            "{:>4} {:<width$} {:>6} {:>6} {:>6} {:>6.1}% {:>8} {:>20} {:>6.1}% {:>9} {:>9}\n",
            i + 1,
            r.name,
            r.games,
            r.wins,
            r.losses,
            r.score,
            elo,
            interval,
            100.0 * r.los,
            format!("{}-{}", r.gold_wins, r.gold_losses),
            format!("{}-{}", r.silver_wins, r.silver_losses)
        ));
    }
    out
}

/// Counts of result codes in the order of the codes, e.g. `g 310, i 1, t 2`.
pub fn reasons_text(games: &[GameJson]) -> String {
    let mut counts: BTreeMap<char, u64> = BTreeMap::new();
    for g in games {
        *counts.entry(g.reason.code()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many of `games` repeat an earlier one move for move with the same engines on the same
/// colours. Engines that search to a fixed depth or node count on one thread play the same
/// game again from the same opening, so such a match holds fewer games than it counts.
pub fn repeated_games(games: &[GameJson]) -> usize {
    let mut seen: HashSet<(&str, &str, &[String])> = HashSet::with_capacity(games.len());
    games
        .iter()
        .filter(|g| !seen.insert((&g.gold, &g.silver, &g.moves)))
        .count()
}

/// A game `id` between `gold` and `silver` that `winner` won by goal, for tests.
#[cfg(test)]
pub fn won_game(id: u64, gold: &str, silver: &str, winner: Color) -> GameJson {
    GameJson {
        id,
        round: id / 2,
        gold: gold.into(),
        silver: silver.into(),
        winner,
        reason: Reason::Goal,
        moves: vec![],
        illegal_move: None,
        detail: String::new(),
        tc: ByColor::new("-".into(), "-".into()),
        setups: "engines".into(),
        seed: 1,
        match_key: "k".into(),
        date: "2026-01-01".into(),
        seconds: 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64, gold: &str, silver: &str, winner: &str) -> GameJson {
        let winner = winner.chars().next().and_then(Color::from_letter).unwrap();
        won_game(id, gold, silver, winner)
    }

    #[test]
    fn pairs_are_the_two_colours_of_a_round() {
        let games = vec![
            // Round 0: new wins both.
            game(0, "new", "old", "g"),
            game(1, "old", "new", "s"),
            // Round 1: split (each engine wins as gold).
            game(2, "new", "old", "g"),
            game(3, "old", "new", "g"),
            // Round 2: new loses both.
            game(4, "new", "old", "s"),
            game(5, "old", "new", "g"),
            // Round 3: one game only (the run stopped).
            game(6, "new", "old", "g"),
        ];
        let (pairs, unpaired) = pair_scores("new", &games);
        assert_eq!(
            pairs,
            PairScores {
                lost_both: 1,
                split: 1,
                won_both: 1
            }
        );
        assert_eq!(unpaired, 1);
        let (theirs, _) = pair_scores("old", &games);
        assert_eq!((theirs.lost_both, theirs.won_both), (1, 1));
        // Another match's round 0 is another pair; an engine that did not play counts nothing.
        let mut other = game(1, "old", "new", "g");
        other.match_key = "other".into();
        let (pairs, unpaired) = pair_scores("new", &[games[0].clone(), other]);
        assert_eq!((pairs.pairs(), unpaired), (0, 2));
        assert_eq!(pair_scores("nobody", &games), (PairScores::default(), 0));
    }

    #[test]
    fn a_game_repeated_move_for_move_by_the_same_engines_is_counted() {
        let played = |id, gold: &str, silver: &str, moves: &[&str]| GameJson {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            ..game(id, gold, silver, "g")
        };
        let games = vec![
            played(0, "a", "b", &["1g x", "1s y", "2g z"]),
            played(1, "b", "a", &["1g x", "1s y", "2g z"]),
            played(2, "a", "b", &["1g x", "1s y", "2g z"]),
            played(3, "a", "b", &["1g x", "1s y", "2g w"]),
            played(4, "a", "b", &["1g x", "1s y", "2g z"]),
        ];
        // Game 1 has the colours the other way round; games 2 and 4 repeat game 0.
        assert_eq!(repeated_games(&games), 2);
        assert_eq!(repeated_games(&games[..2]), 0);
        assert_eq!(repeated_games(&[]), 0);
    }

    #[test]
    fn table_counts_wins_by_colour() {
        let games = vec![
            game(0, "a", "b", "g"),
            game(1, "b", "a", "s"),
            game(2, "a", "b", "s"),
            game(3, "b", "a", "g"),
            game(4, "a", "b", "g"),
        ];
        let rows = table(&["a".into(), "b".into(), "c".into()], &games);
        assert_eq!(rows[0].name, "a");
        assert_eq!((rows[0].wins, rows[0].losses), (3, 2));
        assert_eq!((rows[1].name.as_str(), rows[1].wins), ("b", 2));
        assert_eq!((rows[2].name.as_str(), rows[2].games), ("c", 0));
        assert!((rows[0].score - 60.0).abs() < 1e-9);
        // 3-2 is a 60% score: Elo 70.4 as in stats' known values.
        assert!((rows[0].elo.unwrap() - 70.4365).abs() < 1e-3);
        // a won games 0 and 4 as gold and lost 2; won game 1 as silver and lost 3. b won 3 as
        // gold and lost 1; won 2 as silver and lost 0 and 4.
        assert_eq!((rows[0].gold_wins, rows[0].gold_losses), (2, 1));
        assert_eq!((rows[0].silver_wins, rows[0].silver_losses), (1, 1));
        assert_eq!((rows[1].gold_wins, rows[1].gold_losses), (1, 1));
        assert_eq!((rows[1].silver_wins, rows[1].silver_losses), (1, 2));
        let text = table_text(&rows);
        assert!(text.contains("60.0%"), "{text}");
        let header = text.lines().next().unwrap();
        assert!(header.ends_with("  as gold as silver"), "{header}");
        let a = text.lines().nth(1).unwrap();
        assert!(a.ends_with("      2-1       1-1"), "{a}");
    }

    #[test]
    fn load_cuts_a_torn_last_line_and_rejects_other_garbage() {
        let dir = std::env::temp_dir().join(format!("tusk-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("g.jsonl");
        let good = serde_json::to_string(&game(0, "a", "b", "g")).unwrap();
        std::fs::write(&p, format!("{good}\n{}", &good[..20])).unwrap();
        let (games, cut) = load(&p).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(cut, Some(good.len() as u64 + 1));
        std::fs::write(&p, format!("{}\n{good}\n", &good[..20])).unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("g.jsonl:1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn merge_dedupes_equal_games_and_refuses_conflicts() {
        let a = vec![game(0, "a", "b", "g"), game(2, "a", "b", "s")];
        let b = vec![game(1, "b", "a", "g"), game(0, "a", "b", "g")];
        let m = merge(vec![("a".into(), a.clone()), ("b".into(), b)]).unwrap();
        assert_eq!(m.iter().map(|g| g.id).collect::<Vec<_>>(), vec![0, 1, 2]);
        let c = vec![game(0, "a", "b", "s")];
        assert!(merge(vec![("a".into(), a.clone()), ("c".into(), c)]).is_err());
        let mut other = game(5, "a", "b", "g");
        other.match_key = "other".into();
        let e = merge(vec![("a".into(), a), ("o".into(), vec![other])]).unwrap_err();
        assert!(e.to_string().contains("another match"), "{e}");
    }

    // Two lines written by the runner of 3b2e024 (before the winner, the reason and the time
    // controls were typed), copied by hand: they load, mean what they meant, and are written
    // back byte for byte.
    const OLD_LINES: [&str; 2] = [
        r#"{"id":0,"round":0,"gold":"good","silver":"bad","winner":"g","reason":"i","moves":["1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Cc2 Cf2 Da2 Dh2 Hb2 Hg2 Md2 Ee2","1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 cc7 cf7 da7 dh7 hb7 hg7 me7 ed7","2g Hg2n Dh2w Hb2n Hb3n"],"illegal_move":"ed5s","detail":"silver (bad) played an illegal move 2s \"ed5s\": step 1 \"ed5s\": d5 is empty","tc":["2s/20s/100/0/0/0","1s/2s/100/0/0/0"],"setups":"engines","seed":1,"match_key":"aa7a01a2a67e0e69","date":"2026-11-24","seconds":0.181011127}"#,
        r#"{"id":1,"round":0,"gold":"a","silver":"b","winner":"s","reason":"t","moves":[],"detail":"gold (a) exited while the controller waited for aeiok","tc":["-","-"],"setups":"engines","seed":1,"match_key":"283aa2cf4864d974","date":"2026-11-24","seconds":0.005107916}"#,
    ];

    #[test]
    fn lines_of_earlier_versions_load_and_are_written_back_unchanged() {
        let old: GameJson = serde_json::from_str(OLD_LINES[0]).unwrap();
        assert_eq!((old.winner, old.reason), (Color::Gold, Reason::Illegal));
        assert_eq!(old.illegal_move.as_deref(), Some("ed5s"));
        assert_eq!(old.tc[Color::Gold], "2s/20s/100/0/0/0");
        assert_eq!(old.tc[Color::Silver], "1s/2s/100/0/0/0");
        let crash: GameJson = serde_json::from_str(OLD_LINES[1]).unwrap();
        assert_eq!((crash.winner, crash.reason), (Color::Silver, Reason::Time));
        assert_eq!(crash.illegal_move, None);
        for line in OLD_LINES {
            let g: GameJson = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&g).unwrap(), line);
        }
        // A file of such lines resumes and merges.
        let dir = std::env::temp_dir().join(format!("tusk-state-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("old.jsonl");
        std::fs::write(&p, format!("{}\n", OLD_LINES[0])).unwrap();
        let (games, torn) = load(&p).unwrap();
        assert_eq!((games.len(), torn), (1, None));
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        append(&mut f, &games[0]).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text, format!("{0}\n{0}\n", OLD_LINES[0]));
        assert_eq!(merge(vec![("old".into(), games)]).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
        // Letters and codes other than the documented ones are refused.
        for (from, to) in [
            (r#""winner":"g""#, r#""winner":"x""#),
            (r#""reason":"i""#, r#""reason":"q""#),
        ] {
            let bad = OLD_LINES[0].replace(from, to);
            assert!(serde_json::from_str::<GameJson>(&bad).is_err(), "{bad}");
        }
    }
}
