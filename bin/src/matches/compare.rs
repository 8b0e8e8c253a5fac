//! `tusk match compare`: two candidates measured against one opponent on the same schedule
//! (the same seed and setups, so game `id` is the same opening with the same colours in both
//! files), game by game. Where the opponent is not deterministic (sharp at a fixed depth) or
//! the games are few, the totals alone say little; the games won by one candidate and lost by
//! the other, and the exact sign test on them, say whether the difference is more than noise.
//!
//! The games are also compared by pairs (the two games of one opening, the colours swapped,
//! as `tusk match` schedules them and as its SPRT counts them): an opening that favours one
//! colour makes its two games tend to split whoever plays, so the pair is the unit whose
//! results are independent. Each candidate's pair scores (0, 1 or 2), the pairs where one
//! scored more than the other with the sign test on them, and the mean difference of the pair
//! scores with its 95% interval.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use thiserror::Error;
use tusk_engine::{ByColor, Color};

use super::args::CompareArgs;
use super::merge::load_finished_games;
use super::state::GameJson;
use super::stats::{mean_difference, sign_test_p, PairScores};

/// Two candidates' results against a common opponent, paired by game id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The engine both files play against.
    pub opponent: String,
    /// The other engine of the first file and of the second.
    pub candidates: [String; 2],
    /// Game ids found in both files.
    pub paired: u64,
    /// Paired games won by each candidate.
    pub wins: [u64; 2],
    /// Paired games both candidates won.
    pub both: u64,
    /// Paired games won by this candidate only (the other lost the same opening).
    pub only: [u64; 2],
    /// Games of each file whose id the other file lacks (left out of every count above).
    pub unpaired: [u64; 2],
    /// The same games compared by pairs.
    pub pairs: PairComparison,
}

/// Two candidates' results over the pairs (one opening, the colours swapped) complete in both
/// files: both games of the round are in each file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairComparison {
    /// Each candidate's pair scores.
    pub scores: [PairScores; 2],
    /// Pairs where this candidate scored more than the other.
    pub higher: [u64; 2],
    /// How many pairs the first candidate's score exceeds the second's by -2, -1, 0, 1 and 2.
    pub differences: [u64; 5],
}

impl PairComparison {
    /// The number of pairs compared.
    pub fn pairs(&self) -> u64 {
        self.differences.iter().sum()
    }

    /// The two-sided exact sign test on the pairs where one candidate scored more.
    pub fn sign_test_p(&self) -> f64 {
        sign_test_p(self.higher[0], self.higher[1])
    }

    /// The mean of the first candidate's pair score less the second's (games per pair, from
    /// -2 to 2) and half the width of its 95% interval; `None` with fewer than two pairs.
    pub fn mean_difference(&self) -> Option<(f64, f64)> {
        let counts: Vec<(i64, u64)> = (-2..=2).zip(self.differences).collect();
        mean_difference(&counts)
    }
}

/// The pair comparison of the rounds in `seats`: for each round, each file's result for the
/// candidate with each colour (`None` where that game is not in both files).
fn compare_pairs(seats: &BTreeMap<u64, [ByColor<Option<bool>>; 2]>) -> PairComparison {
    let mut p = PairComparison::default();
    // A candidate's score over a round's two games, where both are there.
    let score = |seat: &ByColor<Option<bool>>| {
        Some(u8::from(seat[Color::Gold]?) + u8::from(seat[Color::Silver]?))
    };
    for [first, second] in seats.values() {
        let (Some(a), Some(b)) = (score(first), score(second)) else {
            continue;
        };
        p.scores[0].record(a);
        p.scores[1].record(b);
        p.higher[0] += u64::from(a > b);
        p.higher[1] += u64::from(b > a);
        // a and b are 0 to 2: the index a - b + 2 is 0 to 4.
        p.differences[usize::from(2 + a - b)] += 1;
    }
    p
}

impl Comparison {
    /// The two-sided exact sign test on the games won by one candidate only.
    pub fn sign_test_p(&self) -> f64 {
        sign_test_p(self.only[0], self.only[1])
    }
}

/// Why two files cannot be compared.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CompareError {
    /// A file's games are not between exactly two engines.
    #[error(
        "{file}: {count} engines ({names}); each file must hold the games of one candidate \
         against the opponent"
    )]
    NotTwoEngines {
        /// The file (as given).
        file: String,
        /// How many engine names its games hold.
        count: usize,
        /// Those names.
        names: String,
    },
    /// The opponent asked for is not in a file.
    #[error("{file}: no game of the opponent `{opponent}` (its engines: {names})")]
    OpponentMissing {
        /// The file (as given).
        file: String,
        /// The opponent asked for.
        opponent: String,
        /// The file's engines.
        names: String,
    },
    /// No engine is in both files.
    #[error("the files share no engine (the first file's: {first}; the second's: {second}): there is no common opponent")]
    NoCommonOpponent {
        /// The first file's engines.
        first: String,
        /// The second file's engines.
        second: String,
    },
    /// Both engines are in both files: which is the opponent must be said.
    #[error("both files hold the engines {names}: name the common one with --opponent")]
    AmbiguousOpponent {
        /// The two names.
        names: String,
    },
    /// A game id is a different opening in the two files.
    #[error(
        "game {id}: {what} differ between the files, so they were not played on the same \
         schedule (use the same --seed, setups and --games)"
    )]
    OtherSchedule {
        /// The game id.
        id: u64,
        /// What differs: the candidate's colour or the setups.
        what: &'static str,
    },
    /// No game id is in both files.
    #[error("no game id is in both files")]
    NothingPaired,
    /// A file holds a game id twice (files joined by hand: `tusk match merge` joins them).
    #[error("{file}: game {id} is there twice (join shards with tusk match merge)")]
    RepeatedId {
        /// The file (as given).
        file: String,
        /// The game id.
        id: u64,
    },
}

/// The engine names of a file's games, sorted.
fn engine_names(games: &[GameJson]) -> BTreeSet<&str> {
    games
        .iter()
        .flat_map(|g| [g.gold.as_str(), g.silver.as_str()])
        .collect()
}

fn names_text(names: &BTreeSet<&str>) -> String {
    names.iter().copied().collect::<Vec<_>>().join(", ")
}

/// The common opponent and the two candidates of the two files' games (`files` names them in
/// errors), with `opponent` the common engine where it is given.
fn roles(
    games: [&[GameJson]; 2],
    files: [&str; 2],
    opponent: Option<&str>,
) -> Result<(String, [String; 2]), CompareError> {
    let names = games.map(engine_names);
    for (n, file) in names.iter().zip(files) {
        if n.len() != 2 {
            return Err(CompareError::NotTwoEngines {
                file: file.to_string(),
                count: n.len(),
                names: names_text(n),
            });
        }
    }
    let opponent = match opponent {
        Some(o) => {
            for (n, file) in names.iter().zip(files) {
                if !n.contains(o) {
                    return Err(CompareError::OpponentMissing {
                        file: file.to_string(),
                        opponent: o.to_string(),
                        names: names_text(n),
                    });
                }
            }
            o
        }
        None => {
            let common: Vec<&str> = names[0].intersection(&names[1]).copied().collect();
            match common.as_slice() {
                [o] => *o,
                [] => {
                    return Err(CompareError::NoCommonOpponent {
                        first: names_text(&names[0]),
                        second: names_text(&names[1]),
                    })
                }
                _ => {
                    return Err(CompareError::AmbiguousOpponent {
                        names: common.join(", "),
                    })
                }
            }
        }
    };
    // Two names each, the opponent among them (checked above): the candidate is the other.
    let other = |n: &BTreeSet<&str>| {
        let (a, b) = (n.first().unwrap(), n.last().unwrap());
        if *a == opponent { b } else { a }.to_string()
    };
    Ok((opponent.to_string(), [other(&names[0]), other(&names[1])]))
}

/// Compares the candidates of two match files against their common opponent (`opponent`,
/// or the one engine both files hold), pairing the games by id. `files` names the files in
/// errors. A game counts as the candidate's win where the winner is its colour, whatever the
/// reason.
pub fn compare(
    games: [&[GameJson]; 2],
    files: [&str; 2],
    opponent: Option<&str>,
) -> Result<Comparison, CompareError> {
    let (opponent, candidates) = roles(games, files, opponent)?;
    let mut by_id: [BTreeMap<u64, &GameJson>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for ((map, gs), file) in by_id.iter_mut().zip(games).zip(files) {
        for g in gs {
            if map.insert(g.id, g).is_some() {
                return Err(CompareError::RepeatedId {
                    file: file.to_string(),
                    id: g.id,
                });
            }
        }
    }
    // Each file holds two engines, one of them the opponent: the candidate is the other.
    let colour = |g: &GameJson| {
        if g.gold == opponent {
            Color::Silver
        } else {
            Color::Gold
        }
    };
    let mut c = Comparison {
        opponent: opponent.clone(),
        candidates: candidates.clone(),
        paired: 0,
        wins: [0, 0],
        both: 0,
        only: [0, 0],
        unpaired: [0, 0],
        pairs: PairComparison::default(),
    };
    let mut seats: BTreeMap<u64, [ByColor<Option<bool>>; 2]> = BTreeMap::new();
    for (id, a) in &by_id[0] {
        let Some(b) = by_id[1].get(id) else {
            c.unpaired[0] += 1;
            continue;
        };
        let (ca, cb) = (colour(a), colour(b));
        if ca != cb {
            return Err(CompareError::OtherSchedule {
                id: *id,
                what: "the candidates' colours",
            });
        }
        if a.moves.get(..2) != b.moves.get(..2) {
            return Err(CompareError::OtherSchedule {
                id: *id,
                what: "the setups",
            });
        }
        if a.round != b.round {
            return Err(CompareError::OtherSchedule {
                id: *id,
                what: "the rounds",
            });
        }
        let won = [a.winner == ca, b.winner == cb];
        let round = seats.entry(a.round).or_default();
        for k in 0..2 {
            round[k][ca] = Some(won[k]);
        }
        c.paired += 1;
        for k in 0..2 {
            c.wins[k] += u64::from(won[k]);
            c.only[k] += u64::from(won[k] && !won[1 - k]);
        }
        c.both += u64::from(won[0] && won[1]);
    }
    c.unpaired[1] = by_id[1]
        .keys()
        .filter(|id| !by_id[0].contains_key(id))
        .count() as u64;
    if c.paired == 0 {
        return Err(CompareError::NothingPaired);
    }
    c.pairs = compare_pairs(&seats);
    Ok(c)
}

/// The comparison as printed by `tusk match compare`.
pub fn comparison_text(c: &Comparison) -> String {
    let [a, b] = &c.candidates;
    let width = a.len().max(b.len());
    let mut t = format!(
        "{} games paired by id, both candidates against {}\n",
        c.paired, c.opponent
    );
    for k in 0..2 {
        let name = &c.candidates[k];
        let file = if k == 0 { "first file" } else { "second file" };
        t += &format!(
            "  {name:<width$}  won {:>5} ({:.1}%)  ({file})\n",
            c.wins[k],
            100.0 * c.wins[k] as f64 / c.paired as f64
        );
    }
    t += &format!(
        "won by both {}, only by {a} {}, only by {b} {}, by neither {}\n",
        c.both,
        c.only[0],
        c.only[1],
        c.paired - c.both - c.only[0] - c.only[1]
    );
    t += &format!(
        "sign test on the {} games won by one only (two-sided, exact): p = {}\n",
        c.only[0] + c.only[1],
        p_text(c.sign_test_p())
    );
    t += &pairs_text(&c.pairs, [a, b], width);
    if c.unpaired != [0, 0] {
        t += &format!(
            "left out: {} games only in the first file, {} only in the second\n",
            c.unpaired[0], c.unpaired[1]
        );
    }
    t
}

/// A p-value as printed: four decimals, or two significant digits below 0.0001.
fn p_text(p: f64) -> String {
    if p >= 1e-4 {
        format!("{p:.4}")
    } else {
        format!("{p:.1e}")
    }
}

/// The lines of the comparison by pairs (`names`: the candidates, `width`: their column).
fn pairs_text(p: &PairComparison, names: [&String; 2], width: usize) -> String {
    let n = p.pairs();
    if n == 0 {
        return "no pair (one opening, both colours) is complete in both files\n".into();
    }
    let mut t =
        format!("{n} pairs (one opening, both colours) complete in both files, pair scores:\n");
    for (name, s) in names.iter().zip(p.scores) {
        t += &format!(
            "  {name:<width$}  lost both {:>4}, split {:>4}, won both {:>4}\n",
            s.lost_both, s.split, s.won_both
        );
    }
    t += &format!(
        "pairs scored higher by {} {}, by {} {}, level {}; sign test p = {}\n",
        names[0],
        p.higher[0],
        names[1],
        p.higher[1],
        n - p.higher[0] - p.higher[1],
        p_text(p.sign_test_p())
    );
    if let Some((mean, half)) = p.mean_difference() {
        t += &format!(
            "pair score of {} less {}: {mean:+.3} ± {half:.3} games a pair (95%)\n",
            names[0], names[1]
        );
    }
    t
}

/// Runs `tusk match compare`.
pub(super) fn run(args: &CompareArgs) -> Result<()> {
    let [first, second] = args.files.as_slice() else {
        anyhow::bail!("tusk match compare takes two files");
    };
    let games = [load_finished_games(first)?, load_finished_games(second)?];
    let names = [first.display().to_string(), second.display().to_string()];
    let c = compare(
        [&games[0], &games[1]],
        [&names[0], &names[1]],
        args.opponent.as_deref(),
    )?;
    print!("{}", comparison_text(&c));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::state::won_game;

    /// A game `id` between `gold` and `silver` won by `winner`, from the setups `setup`.
    fn game(id: u64, gold: &str, silver: &str, winner: Color, setup: &str) -> GameJson {
        GameJson {
            moves: vec![format!("1g {setup}"), "1s x".into(), "2g Ee2n".into()],
            ..won_game(id, gold, silver, winner)
        }
    }

    /// Four openings, colours swapped in pairs; `wins` says which the candidate won.
    fn file(candidate: &str, wins: [bool; 4]) -> Vec<GameJson> {
        (0..4)
            .map(|id| {
                let ours = if id % 2 == 0 {
                    Color::Gold
                } else {
                    Color::Silver
                };
                let winner = if wins[id as usize] { ours } else { !ours };
                let (g, s) = if ours == Color::Gold {
                    (candidate, "sharp")
                } else {
                    ("sharp", candidate)
                };
                game(id, g, s, winner, &format!("setup{}", id / 2))
            })
            .collect()
    }

    #[test]
    fn the_games_are_paired_by_id_and_counted_by_who_won() {
        let a = file("new", [true, true, false, false]);
        let b = file("base", [true, false, true, false]);
        let c = compare([&a, &b], ["a", "b"], None).unwrap();
        assert_eq!(c.opponent, "sharp");
        assert_eq!(c.candidates, ["new".to_string(), "base".to_string()]);
        assert_eq!(
            (c.paired, c.wins, c.both, c.only, c.unpaired),
            (4, [2, 2], 1, [1, 1], [0, 0])
        );
        assert_eq!(c.sign_test_p(), 1.0);
        let text = comparison_text(&c);
        assert!(text.contains("won by both 1, only by new 1, only by base 1, by neither 1"));
        // The other way round: the roles follow the files.
        let c = compare([&b, &a], ["b", "a"], None).unwrap();
        assert_eq!(c.candidates, ["base".to_string(), "new".to_string()]);
    }

    #[test]
    fn the_games_are_also_compared_by_pairs() {
        let a = file("new", [true, true, false, false]);
        let b = file("base", [true, false, true, false]);
        let c = compare([&a, &b], ["a", "b"], None).unwrap();
        let p = c.pairs;
        assert_eq!(p.pairs(), 2);
        let scores = |lost_both, split, won_both| PairScores {
            lost_both,
            split,
            won_both,
        };
        assert_eq!(p.scores, [scores(1, 0, 1), scores(0, 2, 0)]);
        assert_eq!((p.higher, p.differences), ([1, 1], [0, 1, 0, 1, 0]));
        // Differences +1 and -1: mean 0, sample sd √2, half-width 1.96 √2 / √2.
        let (mean, half) = p.mean_difference().unwrap();
        assert!(
            mean.abs() < 1e-12 && (half - 1.959_964).abs() < 1e-6,
            "{mean} {half}"
        );
        let text = comparison_text(&c);
        assert!(text.contains("2 pairs (one opening, both colours) complete in both files"));
        assert!(text.contains("new   lost both    1, split    0, won both    1"));
        assert!(
            text.contains("pairs scored higher by new 1, by base 1, level 0; sign test p = 1.0000")
        );
        assert!(text.contains("pair score of new less base: +0.000 ± 1.960 games a pair"));

        // A round with a game missing from either file is no pair.
        let c = compare([&a, &b[..3]], ["a", "b"], None).unwrap();
        assert_eq!(
            (c.paired, c.pairs.pairs(), c.pairs.differences),
            (3, 1, [0, 0, 0, 1, 0])
        );
        assert_eq!(c.pairs.mean_difference(), None);

        // Both pairs won 2-0 against 0-2.
        let swept = file("new", [true; 4]);
        let lost = file("base", [false; 4]);
        let c = compare([&swept, &lost], ["a", "b"], None).unwrap();
        assert_eq!(
            (c.pairs.higher, c.pairs.differences),
            ([2, 0], [0, 0, 0, 0, 2])
        );
        assert!(comparison_text(&c).contains("+2.000 ± 0.000 games a pair"));
        let none = compare([&swept[..1], &lost[..1]], ["a", "b"], None).unwrap();
        assert!(comparison_text(&none).contains("no pair (one opening, both colours) is complete"));
    }

    #[test]
    fn games_in_one_file_only_are_left_out_and_reported() {
        let a = file("new", [true, true, true, false]);
        let b = file("base", [false, false, false, false])[..3].to_vec();
        let c = compare([&a, &b], ["a", "b"], None).unwrap();
        assert_eq!((c.paired, c.only, c.unpaired), (3, [3, 0], [1, 0]));
        assert!(comparison_text(&c).contains("left out: 1 games only in the first file"));
        assert_eq!(
            compare([&a[..1], &b[1..]], ["a", "b"], None),
            Err(CompareError::NothingPaired)
        );
    }

    #[test]
    fn files_of_other_schedules_or_engines_are_refused_with_the_reason() {
        let a = file("new", [true; 4]);
        let mut b = file("base", [true; 4]);
        b[1].moves[0] = "1g other".into();
        assert_eq!(
            compare([&a, &b], ["a", "b"], None),
            Err(CompareError::OtherSchedule {
                id: 1,
                what: "the setups"
            })
        );
        let mut b = file("base", [true; 4]);
        b[1].round = 7;
        assert_eq!(
            compare([&a, &b], ["a", "b"], None),
            Err(CompareError::OtherSchedule {
                id: 1,
                what: "the rounds"
            })
        );
        let mut b = file("base", [true; 4]);
        (b[2].gold, b[2].silver) = (b[2].silver.clone(), b[2].gold.clone());
        assert!(matches!(
            compare([&a, &b], ["a", "b"], None),
            Err(CompareError::OtherSchedule { id: 2, .. })
        ));
        let other = file("base", [true; 4])
            .into_iter()
            .map(|mut g| {
                g.gold = g.gold.replace("sharp", "bot");
                g.silver = g.silver.replace("sharp", "bot");
                g
            })
            .collect::<Vec<_>>();
        let err = compare([&a, &other], ["a", "b"], None).unwrap_err();
        assert!(matches!(err, CompareError::NoCommonOpponent { .. }));
        assert!(err.to_string().contains("bot, base") || err.to_string().contains("base, bot"));
        // The same two engines in both files: the opponent must be named.
        let same = file("new", [false; 4]);
        assert!(matches!(
            compare([&a, &same], ["a", "b"], None),
            Err(CompareError::AmbiguousOpponent { .. })
        ));
        let c = compare([&a, &same], ["a", "b"], Some("sharp")).unwrap();
        assert_eq!((c.candidates[1].as_str(), c.only), ("new", [4, 0]));
        assert!(matches!(
            compare([&a, &same], ["a", "b"], Some("bot")),
            Err(CompareError::OpponentMissing { .. })
        ));
        let twice = [a.clone(), a[..1].to_vec()].concat();
        assert_eq!(
            compare([&b, &twice], ["b", "t.jsonl"], None),
            Err(CompareError::RepeatedId {
                file: "t.jsonl".into(),
                id: 0
            })
        );
        let mut three = file("new", [true; 4]);
        three[3].gold = "third".into();
        let err = compare([&three, &a], ["x.jsonl", "a"], None).unwrap_err();
        assert!(err.to_string().starts_with("x.jsonl: 3 engines"));
    }
}
