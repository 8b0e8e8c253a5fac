//! The data of a run: the game files read, each game replayed and sampled into feature rows
//! (in parallel, with a progress bar), split by game into training and validation, and the
//! two lines that report it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use tusk_eval::Weights;

use super::data::{self, GameRecord, GameSample, Rejected, SampleConfig, Source};
use super::matrix::Matrix;
use super::scan::Target;
use super::scored::{self, ScoredPosition};
use super::{is_validation, TuneArgs};
use crate::matches::schedule::mix;

/// Counts over the data, for the report.
#[derive(Default, Debug)]
pub struct Tally {
    /// Games read from `tusk datagen` lines.
    pub datagen: u64,
    /// Games read from `tusk match --json` lines.
    pub matches: u64,
    /// Games replayed and sampled.
    pub used: u64,
    /// Games skipped: not ended by the rules.
    pub not_by_rules: u64,
    /// Games skipped: a move is not legal.
    pub illegal: u64,
    /// Games skipped: the replay ends otherwise than recorded.
    pub differs: u64,
    /// Turn starts considered.
    pub candidates: u64,
    /// Candidates won by goal within the turn.
    pub decided: u64,
    /// Quiescence leaves still not quiet.
    pub not_quiet: u64,
    /// Rows taken from a quiescence leaf.
    pub resolved: u64,
    /// Scored positions read.
    pub scored: u64,
    /// Scored positions skipped: the side to move can goal or capture.
    pub scored_not_quiet: u64,
}

/// The sampled positions, split by game, and the counts behind them.
#[derive(Default)]
pub struct Dataset {
    /// The training rows.
    pub train: Matrix,
    /// The validation rows.
    pub valid: Matrix,
    /// The training positions with their targets, when `--scan` asks for them.
    pub train_positions: Vec<Target>,
    /// The validation positions with their targets, when `--scan` asks for them.
    pub valid_positions: Vec<Target>,
    /// Counts over games and positions.
    pub tally: Tally,
    /// Games read.
    pub games: usize,
    /// The first few games skipped for an illegal move or a wrong end, with why.
    pub first_rejects: Vec<String>,
}

/// Reads every game of `paths`, in order.
fn read_all(paths: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    for path in paths {
        records.extend(data::read_games(path).map_err(|e| anyhow!(e))?);
    }
    Ok(records)
}

/// Replays and samples every game in parallel, with a progress bar; in the games' order.
fn sample_all(
    records: &[GameRecord],
    cfg: &SampleConfig,
    start: &Weights,
) -> Vec<Result<GameSample, (Rejected, String)>> {
    let pb = ProgressBar::new(records.len() as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games sampled [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let sampled = records
        .par_iter()
        .enumerate()
        .map(|(i, r)| {
            let s = data::replay(r).map(|g| data::sample(&g, i as u64, cfg, start));
            pb.inc(1);
            s
        })
        .collect();
    pb.finish_and_clear();
    sampled
}

/// Reads the games of `--data`, samples them with the starting weights `start` and splits
/// them (seeded, by game) into training and validation.
pub fn load(a: &TuneArgs, start: &Weights) -> Result<Dataset> {
    let records = read_all(&a.data)?;
    let mut set = Dataset {
        games: records.len(),
        ..Dataset::default()
    };
    for r in &records {
        match r.source {
            Source::Datagen => set.tally.datagen += 1,
            Source::Match => set.tally.matches += 1,
        }
    }
    let cfg = SampleConfig {
        skip_turns: a.skip_turns,
        positions_per_game: a.positions_per_game,
        seed: a.seed,
        keep_positions: !a.scan.is_empty(),
    };
    for (i, s) in sample_all(&records, &cfg, start).into_iter().enumerate() {
        match s {
            Ok(s) => set.take(&s, is_validation(a.seed, i as u64, a.validation)),
            Err((why, text)) => set.reject(why, &records[i].origin, &text),
        }
    }
    if !a.scored.is_empty() {
        let k = a.k.ok_or_else(|| anyhow!("--scored needs --k"))?;
        for path in &a.scored {
            let positions = scored::read_scored(path).map_err(|e| anyhow!(e))?;
            set.take_scored(&positions, k, start, a);
        }
    }
    Ok(set)
}

/// A stable number for a scored position's group, for the validation split.
fn group_ordinal(group: &str) -> u64 {
    group
        .bytes()
        .fold(0x5343_4f52_4544, |h, b| mix(h, u64::from(b)))
}

impl Dataset {
    /// Adds a sampled game's rows to validation or training, and its counts.
    fn take(&mut self, s: &GameSample, validation: bool) {
        self.tally.used += 1;
        self.tally.candidates += s.candidates;
        self.tally.decided += s.decided;
        self.tally.not_quiet += s.not_quiet;
        self.tally.resolved += s.resolved;
        let (rows, kept) = if validation {
            (&mut self.valid, &mut self.valid_positions)
        } else {
            (&mut self.train, &mut self.train_positions)
        };
        for (i, p) in s.positions.iter().enumerate() {
            kept.push((p.clone(), s.rows.result(i)));
        }
        rows.append(&s.rows);
    }

    /// Adds the rows of scored positions (target: the logistic of score / `k`), each group to
    /// validation or training by the seeded split, in parallel.
    fn take_scored(&mut self, positions: &[ScoredPosition], k: f64, w: &Weights, a: &TuneArgs) {
        let keep = !a.scan.is_empty();
        let unquiet = if a.scored_captures {
            scored::Unquiet::KeepCaptures
        } else {
            scored::Unquiet::Skip
        };
        // Each chunk fills a partial set of its own: rows, kept positions and the skipped count.
        let chunks: Vec<Dataset> = positions
            .par_chunks(1024)
            .map(|chunk| {
                let mut part = Dataset::default();
                for s in chunk {
                    let v = is_validation(a.seed, group_ordinal(&s.group), a.validation);
                    let (rows, kept) = if v {
                        (&mut part.valid, &mut part.valid_positions)
                    } else {
                        (&mut part.train, &mut part.train_positions)
                    };
                    if !scored::push_row(rows, s, k, w, unquiet) {
                        part.tally.scored_not_quiet += 1;
                    } else if keep {
                        kept.push((s.position.clone(), scored::target(s.score, k)));
                    }
                }
                part
            })
            .collect();
        self.tally.scored += positions.len() as u64;
        for part in chunks {
            self.train.append(&part.train);
            self.valid.append(&part.valid);
            self.train_positions.extend(part.train_positions);
            self.valid_positions.extend(part.valid_positions);
            self.tally.scored_not_quiet += part.tally.scored_not_quiet;
        }
    }

    /// Counts a skipped game; keeps the first five that did not replay as recorded.
    fn reject(&mut self, why: Rejected, origin: &str, text: &str) {
        match why {
            Rejected::NotByTheRules => self.tally.not_by_rules += 1,
            Rejected::Illegal => self.tally.illegal += 1,
            Rejected::ResultDiffers => self.tally.differs += 1,
        }
        if why != Rejected::NotByTheRules && self.first_rejects.len() < 5 {
            self.first_rejects.push(format!("{origin}: {text}"));
        }
    }

    /// Prints the games read, used and skipped (with the first skipped for a fault), then the
    /// positions taken after `skip_turns` turns, with the time since `started`.
    pub fn report(&self, out: &mut impl Write, skip_turns: usize, started: Instant) -> Result<()> {
        let t = &self.tally;
        let (train, valid) = (&self.train, &self.valid);
        let taken = train.len() + valid.len();
        let scored_rows = (t.scored - t.scored_not_quiet) as usize;
        if self.games > 0 {
            writeln!(
                out,
                "games: {} read ({} datagen, {} match), {} used; skipped: {} not ended by the \
                 rules, {} not replaying legally, {} ending otherwise than recorded",
                self.games, t.datagen, t.matches, t.used, t.not_by_rules, t.illegal, t.differs
            )?;
            for r in &self.first_rejects {
                writeln!(out, "  skipped {r}")?;
            }
            writeln!(
                out,
                "game positions: {} turn starts after the first {} turns; {} won by goal within \
                 the turn, {} not quiet after the quiescence search; {} taken ({} of them \
                 quiescence leaves)",
                t.candidates,
                skip_turns,
                t.decided,
                t.not_quiet,
                taken - scored_rows,
                t.resolved,
            )?;
        }
        if t.scored > 0 {
            writeln!(
                out,
                "scored positions: {} read, {} not quiet (the side to move can goal or capture), \
                 {} taken",
                t.scored, t.scored_not_quiet, scored_rows
            )?;
        }
        writeln!(
            out,
            "rows: {} training, {} validation ({:.1} non-zero features a position, {:.1} MB; \
             {:.1} s)",
            train.len(),
            valid.len(),
            (train.entries() + valid.entries()) as f64 / taken.max(1) as f64,
            (train.bytes() + valid.bytes()) as f64 / 1e6,
            started.elapsed().as_secs_f64()
        )?;
        Ok(())
    }
}
