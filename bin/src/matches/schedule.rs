//! Which games a match plays, in which order, with which setups: pure functions of the
//! engine count, the mode, the number of games per pairing and the seed, so every machine
//! that plays a shard computes the same list.
//!
//! Games come in pairs: the two games of a pair use the same setups with the colours swapped.
//! A round gives every pairing one pair. Game ids run round by round, pairing by pairing, so
//! the first `k` games of a longer match are the games of the shorter one.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use tusk_engine::setup::random_setup;
use tusk_engine::{ByColor, Color};

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game's id: its position in the whole match's order.
    pub id: u64,
    /// The round (pair number within its pairing), from 0.
    pub round: u64,
    /// Index of the pairing in [`pairings`].
    pub pairing: usize,
    /// Index of the engine playing each colour.
    pub seats: ByColor<usize>,
}

/// Pairings of `n` engines: every pair once (round robin), or the first engine against each
/// other one (gauntlet).
pub fn pairings(n: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    if gauntlet {
        for j in 1..n {
            v.push((0, j));
        }
    } else {
        for i in 0..n {
            for j in i + 1..n {
                v.push((i, j));
            }
        }
    }
    v
}

/// Every game of a match with `games` games per pairing. In each pair the pairing's first
/// engine plays gold first.
pub fn schedule(n: usize, gauntlet: bool, games: u64) -> Vec<Scheduled> {
    let pairs = pairings(n, gauntlet);
    let rounds = games.div_ceil(2);
    let mut v = Vec::new();
    let mut id = 0;
    for round in 0..rounds {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for k in 0..2 {
                if round * 2 + k >= games {
                    continue;
                }
                let seats = if k == 0 {
                    ByColor::new(a, b)
                } else {
                    ByColor::new(b, a)
                };
                v.push(Scheduled {
                    id,
                    round,
                    pairing: p,
                    seats,
                });
                id += 1;
            }
        }
    }
    v
}

/// A shard `k/n` (1-based `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1..=n.
    pub index: u64,
    /// The number of shards.
    pub count: u64,
}

/// A malformed `--shard` value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard \"{0}\": expected K/N with 1 <= K <= N, e.g. 3/16")]
pub struct ShardError(pub String);

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// Reads `3/16`.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k, count: n })
    }
}

impl Shard {
    /// Whether the shard plays game `g`. Both games of a pair go to the same shard (pairs are
    /// dealt out in turn), so each shard plays whole pairs.
    pub fn contains(&self, g: &Scheduled, pairings: usize) -> bool {
        let unit = g.round * pairings as u64 + g.pairing as u64;
        unit % self.count == self.index - 1
    }
}

/// Where setups come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupSource {
    /// Each engine is asked (`go` in the setup phase).
    Engines,
    /// A random legal setup for each side, per round, from the seed.
    Random,
    /// Setups read from a file: gold's and silver's per line.
    File(Vec<ByColor<String>>),
}

impl SetupSource {
    /// The name written into the games' JSON: `engines`, `random` or `file`.
    pub fn name(&self) -> &'static str {
        match self {
            SetupSource::Engines => "engines",
            SetupSource::Random => "random",
            SetupSource::File(_) => "file",
        }
    }
}

/// Mixes the match seed with a round number (splitmix64), so neighbouring rounds get
/// unrelated random streams.
pub fn mix(seed: u64, round: u64) -> u64 {
    let mut z = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The setups (gold, silver) the referee plays in round `round`, or `None` when the engines
/// choose their own. Both games of a pair, and every pairing of the round, get the same ones.
pub fn setups_for(source: &SetupSource, seed: u64, round: u64) -> Option<ByColor<String>> {
    match source {
        SetupSource::Engines => None,
        SetupSource::Random => {
            let mut rng = rand::rngs::StdRng::seed_from_u64(mix(seed, round));
            let g = random_setup(Color::Gold, &mut rng).to_string();
            let s = random_setup(Color::Silver, &mut rng).to_string();
            Some(ByColor::new(g, s))
        }
        SetupSource::File(lines) => {
            if lines.is_empty() {
                return None;
            }
            // A seeded order of the file's lines, cycled.
            let mut order: Vec<usize> = (0..lines.len()).collect();
            let mut rng = rand::rngs::StdRng::seed_from_u64(mix(seed, u64::MAX));
            order.shuffle(&mut rng);
            Some(lines[order[(round % lines.len() as u64) as usize]].clone())
        }
    }
}

/// A setup file that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetupFileError {
    /// A line whose setup is not legal.
    #[error("{path}:{line}: {side} setup: {error}")]
    BadSetup {
        /// The file.
        path: String,
        /// The 1-based line number.
        line: usize,
        /// `gold` or `silver`.
        side: &'static str,
        /// Why the engine crate refused it (shown in the message).
        error: tusk_engine::TurnError,
    },
    /// No setup in the whole file.
    #[error("{path}: no setups in the file")]
    Empty {
        /// The file.
        path: String,
    },
}

/// Reads a setup file: one line per opening with both setups (gold's 16 placements and
/// silver's 16, in any order, `1g`/`1s` labels allowed); `#` comments and blank lines are
/// skipped. Each setup is checked with the engine crate.
pub fn read_setup_file(text: &str, path: &str) -> Result<Vec<ByColor<String>>, SetupFileError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut gold = Vec::new();
        let mut silver = Vec::new();
        for tok in line.split_whitespace() {
            if tok == "1g" || tok == "1s" || tok == "1w" || tok == "1b" {
                continue;
            }
            match tok.chars().next() {
                Some(c) if c.is_ascii_uppercase() => gold.push(tok),
                Some(c) if c.is_ascii_lowercase() => silver.push(tok),
                _ => {}
            }
        }
        let pair = ByColor::new(gold.join(" "), silver.join(" "));
        let mut g = tusk_engine::Game::new();
        for side in Color::ALL {
            g.play_text(&pair[side])
                .map_err(|error| SetupFileError::BadSetup {
                    path: path.to_string(),
                    line: n + 1,
                    side: side.name(),
                    error,
                })?;
        }
        out.push(pair);
    }
    if out.is_empty() {
        return Err(SetupFileError::Empty {
            path: path.to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_for_round_robin_and_gauntlet() {
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, true), vec![(0, 1), (0, 2)]);
        assert_eq!(pairings(2, false), vec![(0, 1)]);
    }

    #[test]
    fn schedule_pairs_colours_and_prefixes() {
        let s = schedule(2, false, 5);
        let colours: Vec<(usize, usize, u64)> = s
            .iter()
            .map(|g| (g.seats[Color::Gold], g.seats[Color::Silver], g.round))
            .collect();
        assert_eq!(
            colours,
            vec![(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 2)]
        );
        assert_eq!(
            s.iter().map(|g| g.id).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
        // A longer match starts with the shorter one's games.
        let long = schedule(3, false, 10);
        assert_eq!(
            &long[..schedule(3, false, 4).len()],
            &schedule(3, false, 4)[..]
        );
        assert_eq!(long.len(), 30);
    }

    #[test]
    fn shards_partition_the_match_into_whole_pairs() {
        let s = schedule(3, false, 8);
        let shards: Vec<Shard> = (1..=4).map(|k| Shard { index: k, count: 4 }).collect();
        for g in &s {
            let owners = shards.iter().filter(|sh| sh.contains(g, 3)).count();
            assert_eq!(owners, 1, "game {} has {owners} shards", g.id);
        }
        for sh in &shards {
            let mine: Vec<&Scheduled> = s.iter().filter(|g| sh.contains(g, 3)).collect();
            for pair in mine.chunks(2) {
                assert_eq!(pair[0].round, pair[1].round);
                assert_eq!(pair[0].seats[Color::Gold], pair[1].seats[Color::Silver]);
            }
        }
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        for bad in ["0/4", "5/4", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn random_setups_are_legal_seeded_and_vary_by_round() {
        let a = setups_for(&SetupSource::Random, 7, 0).unwrap();
        assert_eq!(setups_for(&SetupSource::Random, 7, 0).unwrap(), a);
        assert_ne!(setups_for(&SetupSource::Random, 7, 1).unwrap(), a);
        assert_ne!(setups_for(&SetupSource::Random, 8, 0).unwrap(), a);
        let mut g = tusk_engine::Game::new();
        g.play_text(&a[Color::Gold]).unwrap();
        g.play_text(&a[Color::Silver]).unwrap();
        assert_eq!(setups_for(&SetupSource::Engines, 7, 0), None);
    }

    #[test]
    fn setup_file_is_read_checked_and_cycled() {
        let text = "# two openings\n\
            1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2 1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7\n\
            \n\
            Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 md7 ee7 cf7 hg7 dh7\n";
        let v = read_setup_file(text, "s.txt").unwrap();
        assert_eq!(v.len(), 2);
        let src = SetupSource::File(v.clone());
        let r0 = setups_for(&src, 1, 0).unwrap();
        let r1 = setups_for(&src, 1, 1).unwrap();
        assert_ne!(r0, r1);
        assert_eq!(setups_for(&src, 1, 2).unwrap(), r0);
        let e = read_setup_file("Ra1 Rb1\n", "bad.txt")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("bad.txt:1: gold setup"), "{e}");
        assert!(read_setup_file("# nothing\n", "e.txt").is_err());
    }
}
