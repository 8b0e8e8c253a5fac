//! The plan of a run: which games it plays (schedule, shard), the match's fingerprint, and
//! what an existing JSON file already holds (resume).

use std::collections::HashSet;
use std::fs::File;
use std::path::Path;

use super::args::{fnv, Settings};
use super::report::sprt_state;
use super::run::RunError;
use super::schedule::{self, Scheduled};
use super::state::{self, GameJson};
use super::stats::Hypothesis;
use crate::clock::TimeControl;

/// `--tc` as written into the games and the fingerprint: `-` for none.
pub fn tc_text(tc: &Option<TimeControl>) -> String {
    tc.map_or("-".to_string(), |t| t.to_string())
}

/// The match's fingerprint: engines (name, command, options, time control), mode, setups and
/// seed, hashed exactly as earlier versions did, so that their files resume.
pub fn match_key(s: &Settings) -> String {
    let engines: Vec<_> = s
        .engines
        .iter()
        .map(|e| (&e.name, &e.cmd, &e.options, tc_text(&e.tc)))
        .collect();
    let text = format!("{engines:?}|{}|{}|{}", s.gauntlet, s.setups_key, s.seed);
    format!("{:016x}", fnv(&text))
}

/// The games of this run (the shard's, if any), in schedule order.
pub fn planned_games(s: &Settings) -> Vec<Scheduled> {
    let pairings = schedule::pairings(s.engines.len(), s.gauntlet).len();
    schedule::schedule(s.engines.len(), s.gauntlet, s.games)
        .into_iter()
        .filter(|g| s.shard.is_none_or(|sh| sh.contains(g, pairings)))
        .collect()
}

/// Opens `path` with `options`, naming it in the error.
fn open(options: &std::fs::OpenOptions, path: &Path) -> Result<File, RunError> {
    options.open(path).map_err(|error| RunError::File {
        action: "opening",
        path: path.to_path_buf(),
        error,
    })
}

/// Loads the games already in the JSON file `path` (all of this match), cuts a torn last
/// line, removes the finished games from `todo`, and opens the file for appending.
fn resume(
    path: &Path,
    key: &str,
    todo: &mut Vec<Scheduled>,
) -> Result<(Vec<GameJson>, File), RunError> {
    let mut games = Vec::new();
    let exists = path.exists();
    // Claimed before it is read: a second run on the same file stops here.
    let file = crate::files::claim_for_appending(path)?;
    if exists {
        let (loaded, torn) = state::load(path)?;
        if let Some(g) = loaded.iter().find(|g| g.match_key != key) {
            return Err(RunError::OtherMatch {
                path: path.to_path_buf(),
                id: g.id,
            });
        }
        let f = open(std::fs::OpenOptions::new().read(true).write(true), path)?;
        if let Some(len) = torn {
            eprintln!(
                "{}: the last line was cut short (interrupted while writing); it is \
                 dropped and that game is played again",
                path.display()
            );
            f.set_len(len).map_err(|error| RunError::File {
                action: "writing",
                path: path.to_path_buf(),
                error,
            })?;
        }
        let done: HashSet<u64> = loaded.iter().map(|g| g.id).collect();
        todo.retain(|g| !done.contains(&g.id));
        if !loaded.is_empty() {
            eprintln!(
                "resuming {}: {} games done, {} to play",
                path.display(),
                loaded.len(),
                todo.len()
            );
        }
        games = loaded;
    }
    Ok((games, file))
}

/// Creates the output directories.
fn create_dirs(s: &Settings) -> Result<(), RunError> {
    for d in [&s.outputs.records, &s.outputs.stderr]
        .into_iter()
        .flatten()
    {
        std::fs::create_dir_all(d).map_err(|error| RunError::File {
            action: "creating",
            path: d.clone(),
            error,
        })?;
    }
    Ok(())
}

/// The engines that play in `todo`, by index.
pub fn engines_in(todo: &[Scheduled]) -> Vec<usize> {
    let mut v: Vec<usize> = todo.iter().flat_map(|g| g.seats.0).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A run ready to play: its fingerprint, the games to play, and what the JSON file holds.
pub struct Ready {
    /// The match's fingerprint.
    pub key: String,
    /// The games still to play, in schedule order.
    pub todo: Vec<Scheduled>,
    /// The games of this run (or shard), played before or not.
    pub planned: usize,
    /// The games the JSON file already holds.
    pub finished: Vec<GameJson>,
    /// The JSON file, open for appending.
    pub json: Option<File>,
    /// The SPRT's decision from the finished games, if it has decided.
    pub decided: Option<Hypothesis>,
}

/// Plans the games, resumes from the JSON file (none left when its games already decided the
/// SPRT) and creates the output directories.
pub fn get_ready(s: &Settings, names: &[String]) -> Result<Ready, RunError> {
    let key = match_key(s);
    let mut todo = planned_games(s);
    let planned = todo.len();
    let (finished, json) = match &s.outputs.json {
        Some(p) => {
            let (games, file) = resume(p, &key, &mut todo)?;
            (games, Some(file))
        }
        None => (Vec::new(), None),
    };
    create_dirs(s)?;
    let decided = sprt_state(s.sprt, names, &finished).and_then(|st| st.decision);
    if decided.is_some() {
        todo.clear();
    }
    Ok(Ready {
        key,
        todo,
        planned,
        finished,
        json,
        decided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::args::settings_of;

    fn key(args: &[&str]) -> String {
        match_key(&settings_of(args).unwrap())
    }

    // The keys were written by the runner of 3b2e024 for the same command lines (its
    // `--json` files), so files of earlier runs resume and merge.
    #[test]
    fn random_turns_give_a_match_of_its_own() {
        let mut args = vec![
            "--engine",
            "name=a,cmd=no-such-x",
            "--engine",
            "name=b,cmd=no-such-y",
            "--setups",
            "random",
        ];
        let plain = key(&args);
        args.extend(["--random-turns", "0"]);
        assert_eq!(
            key(&args),
            plain,
            "0 random turns is the match without them"
        );
        let n = args.len();
        args[n - 1] = "2";
        let two = key(&args);
        assert_ne!(two, plain);
        args[n - 1] = "3";
        assert_ne!(key(&args), two);
    }

    #[test]
    fn match_keys_are_those_of_earlier_versions() {
        let two = [
            "--engine",
            "name=a,cmd=no-such-x",
            "--engine",
            "name=b,cmd=no-such-y",
        ];
        assert_eq!(key(&two), "283aa2cf4864d974");
        assert_eq!(
            key(&[
                "--engine",
                "name=a,cmd=no-such-x,option.hash=16,depth=8",
                "--engine",
                "name=b,cmd='no-such y,z',nodes=500,tc=1s/2s",
                "--engine",
                "name=c,cmd=no-such-c",
                "--tc",
                "2s/20s/100",
                "--gauntlet",
                "--setups",
                "random",
                "--seed",
                "7",
            ]),
            "c20b85748a89eec9"
        );
        let dir = std::env::temp_dir().join(format!("tusk-run-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("setups.txt");
        std::fs::write(
            &file,
            "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2 \
             1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7\n",
        )
        .unwrap();
        let file = file.display().to_string();
        let mut with_file = two.to_vec();
        with_file.extend(["--setup-file", &file]);
        assert_eq!(key(&with_file), "0a908cfe2de79b10");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
