//! Shared helpers for the binary's integration tests: the Python virtual environment with the
//! independent reference implementation and controllers (`aei` 1.4.1, module `pyrimaa`).
//!
//! Tests that drive the real controllers call [`aei_python`]. It creates the environment on
//! first use (under the target directory, once per build tree, guarded by a lock file so
//! parallel tests install it once) and returns its interpreter. When Python, `venv` or the
//! package cannot be had, it panics with the reason: such a test fails, it never skips.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned version of the `aei` package the tests run against.
pub const AEI_VERSION: &str = "1.4.1";

/// The directory the environment lives in: `$TUSK_AEI_VENV` when set, else
/// `<target dir>/aei-venv-<version>`.
pub fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TUSK_AEI_VENV") {
        return PathBuf::from(dir);
    }
    // CARGO_TARGET_TMPDIR is <target>/tmp for integration tests.
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_TARGET_TMPDIR")))
        .join(format!("aei-venv-{AEI_VERSION}"))
}

fn python_in(dir: &Path) -> PathBuf {
    dir.join("bin").join("python")
}

fn has_package(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            &format!(
                "import importlib.metadata as m, pyrimaa.board, pyrimaa.roundrobin, pyrimaa.analyze; \
                 assert m.version('aei') == '{AEI_VERSION}'"
            ),
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Python interpreter of a virtual environment holding `aei==1.4.1`, created on first use.
/// Panics (the test fails) when it cannot be made.
pub fn aei_python() -> PathBuf {
    let dir = venv_dir();
    let python = python_in(&dir);
    if python.exists() && has_package(&python) {
        return python;
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).expect("create the venv's parent directory");
    // One installer at a time across the test processes cargo runs in parallel: the lock is
    // a directory, whose creation is atomic.
    let lock = parent.join(format!("aei-venv-{AEI_VERSION}.lock"));
    let started = std::time::Instant::now();
    while std::fs::create_dir(&lock).is_err() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(600),
            "waited 10 minutes for another test to install the aei venv (stale lock {}?)",
            lock.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let result = std::panic::catch_unwind(|| {
        if !(python.exists() && has_package(&python)) {
            let _ = std::fs::remove_dir_all(&dir);
            let system = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
            run(
                Command::new(&system).arg("-m").arg("venv").arg(&dir),
                "creating the aei venv (python3 -m venv)",
            );
            run(
                Command::new(&python).args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    &format!("aei=={AEI_VERSION}"),
                ]),
                "installing aei into the venv",
            );
            assert!(
                has_package(&python),
                "aei {AEI_VERSION} installed but pyrimaa does not import"
            );
        }
    });
    let _ = std::fs::remove_dir(&lock);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
    python
}
