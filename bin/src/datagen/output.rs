//! The output file: the games already in it are kept (when they were all played with this
//! run's settings and seed), a last line cut short is cut off, and the file is opened for
//! appending the games still to play.

use std::collections::HashSet;
use std::fs::File;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use super::record::{self, GameLine};

/// Opens `path` for appending (creating its directory when it does not exist), resuming: the
/// games it already holds are removed from `todo`. Returns the file and how many of this run's
/// games it already holds.
pub fn open(path: &Path, seed: u64, key: &str, todo: &mut Vec<u64>) -> Result<(File, usize)> {
    let planned = todo.len();
    let exists = path.exists();
    if !exists {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
    }
    // Claimed before it is read: a second run on the same file stops here.
    let file = crate::files::claim_for_appending(path)?;
    if exists {
        resume(path, seed, key, todo)?;
    }
    Ok((file, planned - todo.len()))
}

/// Reads the games in `path` (refusing those of other settings), cuts a torn last line, and
/// removes the games already there from `todo`.
fn resume(path: &Path, seed: u64, key: &str, todo: &mut Vec<u64>) -> Result<()> {
    let (games, torn) = record::load::<GameLine>(path).map_err(|e| anyhow!(e))?;
    same_settings(path, seed, key, &games)?;
    if let Some(len) = torn {
        eprintln!(
            "{}: the last line was cut short (interrupted while writing); it is dropped \
             and that game is played again",
            path.display()
        );
        cut(path, len)?;
    }
    let done: HashSet<u64> = games.iter().map(|g| g.id).collect();
    todo.retain(|i| !done.contains(i));
    if !games.is_empty() {
        eprintln!(
            "resuming {}: {} games there, {} to play",
            path.display(),
            games.len(),
            todo.len()
        );
    }
    Ok(())
}

/// Refuses a file whose games were played with another settings key or seed.
fn same_settings(path: &Path, seed: u64, key: &str, games: &[GameLine]) -> Result<()> {
    for g in games {
        if g.key != key || g.seed != seed {
            bail!(
                "{}: game {} was played with other settings (seed {}, {}); this run is \
                 seed {seed}, {key}: use another --out file",
                path.display(),
                g.id,
                g.seed,
                g.key,
            );
        }
    }
    Ok(())
}

/// Cuts `path` to its first `len` bytes (drops a torn last line).
fn cut(path: &Path, len: u64) -> Result<()> {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    f.set_len(len)?;
    Ok(())
}
