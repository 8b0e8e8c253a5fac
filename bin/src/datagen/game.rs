//! One self-play game, a pure function of the settings, the seed and the game index: a random
//! opening (random legal setups, then 0 to K turns drawn uniformly from the distinct legal
//! turns), then Tusk against itself at a fixed effort per move until the rules end the game.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tusk_engine::setup::random_setup;
use tusk_engine::{Color, Game, Move, TurnGen};
use tusk_search::{Control, Limits, Searcher};

use super::record::GameLine;
use crate::matches::reason::Reason;
use crate::matches::schedule::{mix, play_random_turns, OPENING_TRIES};

/// How the games of a run are played.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The run's seed.
    pub seed: u64,
    /// The search's limits per turn (a node or depth limit).
    pub limits: Limits,
    /// At most this many random turns after the setups (each game draws 0..=K).
    pub random_turns: u32,
    /// A game still going after this many turns (setups not counted) is dropped.
    pub max_turns: u32,
    /// The settings key written into every line.
    pub key: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The rules ended it.
    Finished(Box<GameLine>),
    /// It reached the turn limit: dropped, `turns` played.
    Dropped {
        /// Turns played (setups not counted).
        turns: u32,
    },
    /// The run was interrupted during it.
    Interrupted,
}

/// The opening of game `index`: two random setups, then `k` (drawn from 0..=`random_turns`)
/// turns, each uniform over the distinct legal turns (third repetitions excluded). An opening
/// in which the game ends is drawn again from the same stream. Returns the game and `k`.
pub fn opening(seed: u64, index: u64, random_turns: u32, gen: &mut TurnGen) -> Result<(Game, u32)> {
    let mut rng = StdRng::seed_from_u64(mix(seed, index));
    for _ in 0..OPENING_TRIES {
        let mut game = Game::new();
        for side in [Color::Gold, Color::Silver] {
            game.play(&Move::Setup(random_setup(side, &mut rng)))
                .context("a random setup is legal")?;
        }
        let k = rng.gen_range(0..=random_turns);
        if play_random_turns(&mut game, k, &mut rng, gen).is_some() {
            return Ok((game, k));
        }
    }
    bail!("game {index}: no opening in {OPENING_TRIES} tries survived its random turns")
}

/// Plays game `index` with `searcher` (cleared first, so the game depends only on the
/// settings, the seed and the index). `stop` abandons it between turns; `on_turn` is called
/// after each searched turn (for progress).
pub fn play(
    cfg: &GameConfig,
    index: u64,
    searcher: &mut Searcher,
    gen: &mut TurnGen,
    stop: &AtomicBool,
    on_turn: &mut dyn FnMut(),
) -> Result<Outcome> {
    let (mut game, k) = opening(cfg.seed, index, cfg.random_turns, gen)?;
    searcher.clear();
    let control = Control::new();
    let (mut scores, mut depths) = (Vec::new(), Vec::new());
    let mut turns = k;
    let result = loop {
        if let Some(r) = game.result() {
            break r;
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(Outcome::Interrupted);
        }
        if turns >= cfg.max_turns {
            return Ok(Outcome::Dropped { turns });
        }
        let Some(r) = searcher.search(&game, &cfg.limits, &control, &mut |_| {}) else {
            bail!("game {index}: the search found no turn in an unfinished game");
        };
        game.play(&Move::Turn(r.best)).with_context(|| {
            format!(
                "game {index}: the search's turn {}",
                game.turn_text(&r.best)
            )
        })?;
        scores.push(r.score.to_aei());
        depths.push(r.depth);
        turns += 1;
        on_turn();
    };
    Ok(Outcome::Finished(Box::new(GameLine {
        id: index,
        seed: cfg.seed,
        key: cfg.key.clone(),
        random_turns: k,
        moves: game.record().lines().map(str::to_string).collect(),
        scores,
        depths,
        winner: result.winner.letter().to_string(),
        reason: Reason::from_end(result.reason).code().to_string(),
        detail: format!("{} wins by {}", result.winner.name(), result.reason.name()),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_search::SearchConfig;

    #[test]
    fn openings_are_seeded_legal_and_vary() {
        let mut gen = TurnGen::new();
        let (a, ka) = opening(7, 0, 6, &mut gen).unwrap();
        let (b, kb) = opening(7, 0, 6, &mut gen).unwrap();
        assert_eq!((a.record(), ka), (b.record(), kb));
        assert!(ka <= 6);
        assert_eq!(a.moves().len(), 2 + ka as usize);
        assert!(a.result().is_none());
        let others: Vec<String> = (1..6)
            .map(|i| opening(7, i, 6, &mut gen).unwrap().0.record())
            .collect();
        assert!(others.iter().all(|r| *r != a.record()));
        assert_ne!(opening(8, 0, 6, &mut gen).unwrap().0.record(), a.record());
        // Without random turns, only the setups.
        assert_eq!(opening(7, 3, 0, &mut gen).unwrap().0.moves().len(), 2);
    }

    #[test]
    fn a_game_is_played_to_its_end_and_is_the_same_every_time() {
        let cfg = GameConfig {
            seed: 3,
            limits: Limits {
                depth: None,
                nodes: Some(300),
                multipv: 1,
            },
            random_turns: 4,
            max_turns: 400,
            key: "k".into(),
        };
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        })
        .expect("a searcher");
        let mut gen = TurnGen::new();
        let stop = AtomicBool::new(false);
        let mut n = 0;
        let a = play(&cfg, 5, &mut searcher, &mut gen, &stop, &mut || n += 1).unwrap();
        let Outcome::Finished(line) = &a else {
            panic!("{a:?}")
        };
        assert_eq!(line.scores.len(), n);
        assert_eq!(line.depths.len(), n);
        assert_eq!(line.moves.len(), 2 + line.random_turns as usize + n);
        // The record replays to the recorded end.
        let mut g = Game::new();
        for m in &line.moves {
            g.play_text(m.split_once(' ').unwrap().1).unwrap();
        }
        let r = g.result().unwrap();
        assert_eq!(r.winner.letter().to_string(), line.winner);
        // The same index again (the searcher already used): the same game.
        let b = play(&cfg, 5, &mut searcher, &mut gen, &stop, &mut || {}).unwrap();
        assert_eq!(a, b);
        // A turn limit drops it; a stop abandons it.
        let short = GameConfig {
            max_turns: line.random_turns + 1,
            ..cfg.clone()
        };
        assert_eq!(
            play(&short, 5, &mut searcher, &mut gen, &stop, &mut || {}).unwrap(),
            Outcome::Dropped {
                turns: line.random_turns + 1
            }
        );
        stop.store(true, Ordering::Relaxed);
        assert_eq!(
            play(&cfg, 5, &mut searcher, &mut gen, &stop, &mut || {}).unwrap(),
            Outcome::Interrupted
        );
    }
}
