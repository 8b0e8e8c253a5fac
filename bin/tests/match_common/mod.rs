//! Helpers for the `tusk match` tests: a scratch directory with its own copy of the fake
//! engine (so the test can find its engine processes by path), engine specs, running the
//! binary, and reading its JSON output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;

/// A scratch directory for one test, with the fake engine copied into it.
pub struct Scratch {
    /// The directory.
    pub dir: PathBuf,
    /// The venv's python.
    pub python: PathBuf,
}

impl Scratch {
    /// Creates `<target tmp>/match-<name>-<pid>` afresh.
    pub fn new(name: &str) -> Scratch {
        let python = support::aei_python();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("match-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_engine.py");
        std::fs::copy(&src, dir.join("fake_engine.py")).unwrap();
        Scratch { dir, python }
    }

    /// `name=NAME,cmd=<python> <dir>/fake_engine.py ARGS`.
    pub fn fake(&self, name: &str, args: &str) -> String {
        format!(
            "name={name},cmd={} {} {args}",
            self.python.display(),
            self.dir.join("fake_engine.py").display()
        )
    }

    /// pyrimaa's random mover.
    pub fn simple(&self, name: &str) -> String {
        format!(
            "name={name},cmd={} -m pyrimaa.simple_engine",
            self.python.display()
        )
    }

    /// pyrimaa's random mover with an extra (ignored) argument naming this directory, so that
    /// [`Scratch::live_engines`] finds it, and `delaymove` seconds per move.
    pub fn marked_simple(&self, name: &str, delay: &str) -> String {
        format!(
            "name={name},cmd={} -m pyrimaa.simple_engine {},option.delaymove={delay}",
            self.python.display(),
            self.dir.join("marker").display()
        )
    }

    /// A path inside the directory.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Process ids of live processes with an argument inside this directory (the fake
    /// engines started from it, and simple_engines given a marker argument by
    /// [`Scratch::marked_simple`]), the runner itself excepted.
    pub fn live_engines(&self) -> Vec<u32> {
        let needle = self.dir.display().to_string();
        let mut v = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == std::process::id() {
                continue;
            }
            let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let argv: Vec<String> = cmd
                .split(|&b| b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            // The runner itself mentions the engine's path in its --engine argument.
            if argv.first().is_some_and(|a0| a0.ends_with("/tusk")) {
                continue;
            }
            if argv.iter().any(|a| a.starts_with(&format!("{needle}/"))) {
                let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
                let zombie = state
                    .rsplit(')')
                    .next()
                    .is_some_and(|s| s.trim_start().starts_with('Z'));
                if !zombie {
                    v.push(pid);
                }
            }
        }
        v
    }
}

/// The `tusk` binary under test.
pub fn tusk() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tusk"))
}

/// Runs `tusk match ARGS` and returns its output; panics with the output when it fails.
pub fn run_match(args: &[String]) -> Output {
    let out = tusk().arg("match").args(args).output().expect("tusk runs");
    assert!(
        out.status.success(),
        "tusk match {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The games of a JSON-lines file, as JSON values, in file order.
pub fn games(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs the pyrimaa replay check over a JSON-lines file; returns (success, output).
pub fn pyrimaa_replay(python: &Path, jsonl: &Path) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replay_check.py");
    let out = Command::new(python)
        .arg(script)
        .arg(jsonl)
        .output()
        .expect("python runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Strings of a list of `&str`.
pub fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}
