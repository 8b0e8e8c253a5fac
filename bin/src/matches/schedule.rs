//! Which games a match plays, in which order, with which setups: pure functions of the
//! engine count, the mode, the number of games per pairing and the seed, so every machine
//! that plays a shard computes the same list.
//!
//! Games come in pairs: the two games of a pair use the same setups with the colours swapped.
//! A round gives every pairing one pair. Game ids run round by round, pairing by pairing, so
//! the first `k` games of a longer match are the games of the shorter one.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tusk_engine::setup::random_setup;
use tusk_engine::{ByColor, Color, Game, Move, Turn, TurnError, TurnGen};

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

/// What the referee plays before the engines take over: both setups, then `turns` (each a
/// turn in AEI `makemove` form, gold's first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Gold's and silver's setups.
    pub setups: ByColor<String>,
    /// The random turns after the setups.
    pub turns: Vec<String>,
}

/// Most draws of an opening's random turns before giving up (a draw is redone only when the
/// game ends during its random turns, which is rare).
pub const OPENING_TRIES: u32 = 1000;

/// A random opening could not be made.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The setups of the round are not legal (a setup file is checked when read, so this is a
    /// bug).
    #[error("round {round}: setup: {error}")]
    Setup {
        /// The round.
        round: u64,
        /// Why.
        error: TurnError,
    },
    /// Every draw of the random turns ended the game.
    #[error(
        "round {round}: no draw of {turns} random turns in {OPENING_TRIES} left the game going"
    )]
    Ends {
        /// The round.
        round: u64,
        /// The random turns asked for.
        turns: u32,
    },
}

/// Plays `k` turns on `game`, each uniform over the distinct legal turns of its position
/// (third repetitions excluded), and returns them; `None` when the game ends (or the side to
/// move has no turn) before the `k`-th turn is played.
pub fn play_random_turns<R: Rng>(
    game: &mut Game,
    k: u32,
    rng: &mut R,
    gen: &mut TurnGen,
) -> Option<Vec<Turn>> {
    let mut played = Vec::with_capacity(k as usize);
    for _ in 0..k {
        if game.result().is_some() {
            return None;
        }
        let mut turns: Vec<Turn> = Vec::new();
        gen.for_each_turn_excluding(
            game.position(),
            &|key| game.would_repeat_third_time(key),
            &mut |t| turns.push(t.turn()),
        );
        let turn = *turns.choose(rng)?;
        game.play(&Move::Turn(turn))
            .expect("a generated turn is legal");
        played.push(turn);
    }
    game.result().is_none().then_some(played)
}

/// The opening of round `round`: its setups ([`setups_for`]) and `random_turns` random turns
/// after them ([`play_random_turns`], seeded by the seed and the round, drawn again when the
/// game ends during them). `None` when the engines choose their setups. Both games of a pair,
/// and every pairing of the round, get the same opening.
pub fn opening_for(
    source: &SetupSource,
    seed: u64,
    round: u64,
    random_turns: u32,
    gen: &mut TurnGen,
) -> Result<Option<Opening>, OpeningError> {
    let Some(setups) = setups_for(source, seed, round) else {
        return Ok(None);
    };
    if random_turns == 0 {
        return Ok(Some(Opening {
            setups,
            turns: Vec::new(),
        }));
    }
    // A stream of its own, so that the setups of a round stay those without random turns.
    let mut rng = rand::rngs::StdRng::seed_from_u64(mix(seed ^ 0x6f70_656e_696e_6773, round));
    for _ in 0..OPENING_TRIES {
        let mut game = Game::new();
        for c in Color::ALL {
            game.play_text(&setups[c])
                .map_err(|error| OpeningError::Setup { round, error })?;
        }
        let start = game.moves().len();
        if play_random_turns(&mut game, random_turns, &mut rng, gen).is_some() {
            let turns = (start..game.moves().len())
                .map(|i| game.move_text(i).expect("a played move has a text"))
                .collect();
            return Ok(Some(Opening { setups, turns }));
        }
    }
    Err(OpeningError::Ends {
        round,
        turns: random_turns,
    })
}

/// The opening of every round among `games` ([`opening_for`]), made before any engine starts
/// so that a round without one stops the match before its first game. Empty when the engines
/// choose their setups.
pub fn openings(
    source: &SetupSource,
    seed: u64,
    random_turns: u32,
    games: &[Scheduled],
) -> Result<HashMap<u64, Opening>, OpeningError> {
    let mut gen = TurnGen::new();
    let mut out = HashMap::new();
    for g in games {
        if out.contains_key(&g.round) {
            continue;
        }
        if let Some(o) = opening_for(source, seed, g.round, random_turns, &mut gen)? {
            out.insert(g.round, o);
        }
    }
    Ok(out)
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
    fn an_opening_plays_its_random_turns_after_the_rounds_setups() {
        let src = SetupSource::Random;
        let mut gen = TurnGen::new();
        let mut open = |seed, round, k| opening_for(&src, seed, round, k, &mut gen).unwrap();
        let plain = open(7, 3, 0).unwrap();
        assert_eq!(plain.setups, setups_for(&src, 7, 3).unwrap());
        assert!(plain.turns.is_empty());
        let o = open(7, 3, 4).unwrap();
        assert_eq!(
            o.setups, plain.setups,
            "random turns leave the setups as they were"
        );
        assert_eq!(o.turns.len(), 4);
        assert_eq!(open(7, 3, 4).unwrap(), o, "seeded");
        assert_ne!(
            open(7, 4, 4).unwrap().turns,
            o.turns,
            "another round, other turns"
        );
        assert_ne!(
            open(8, 3, 4).unwrap().turns,
            o.turns,
            "another seed, other turns"
        );
        // The turns are legal in order and leave the game going.
        let mut game = Game::new();
        for text in [&o.setups[Color::Gold], &o.setups[Color::Silver]]
            .into_iter()
            .chain(&o.turns)
        {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        assert_eq!(game.moves().len(), 6);
        assert!(game.result().is_none());
        assert_eq!(
            opening_for(&SetupSource::Engines, 7, 3, 4, &mut gen).unwrap(),
            None
        );
    }

    #[test]
    fn every_round_to_play_gets_one_opening() {
        let games = schedule(2, false, 6);
        let made = openings(&SetupSource::Random, 5, 2, &games).unwrap();
        assert_eq!(made.len(), 3);
        let mut gen = TurnGen::new();
        for round in 0..3 {
            let expected = opening_for(&SetupSource::Random, 5, round, 2, &mut gen).unwrap();
            assert_eq!(made.get(&round), expected.as_ref());
        }
        assert!(openings(&SetupSource::Engines, 5, 2, &games)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn random_turns_stop_when_the_game_ends() {
        // Gold's rabbit on a7 reaches goal in every turn that ends with it on the eighth
        // rank; silver has a rabbit on h5.
        let pos = tusk_engine::notation::board::parse_aei(
            "g [        R                      r                                ]",
        )
        .unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut gen = TurnGen::new();
        let mut ended = 0;
        for _ in 0..50 {
            let mut game = Game::from_position(pos.clone(), 2);
            let turns = play_random_turns(&mut game, 3, &mut rng, &mut gen);
            match turns {
                Some(t) => {
                    assert_eq!(t.len(), 3);
                    assert!(game.result().is_none());
                }
                None => {
                    ended += 1;
                    assert!(game.result().is_some());
                }
            }
        }
        assert!(ended > 0, "some draws of three turns reach goal");
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
