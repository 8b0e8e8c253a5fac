//! `tusk match` checks its options before it starts an engine: a value out of range is refused
//! with a message that names the option and the allowed range (never a panic, never a run
//! that plays nothing and exits 0), a setup file that is not UTF-8 is refused naming its line
//! and column, and a clean sweep gets a one-sided Elo bound instead of `[-inf, +inf]`.

mod match_common;
mod support;

use match_common::{args, games, run_match, tusk, Scratch};

/// Runs `tusk match` with two engines that would leave a file behind if they were started,
/// plus `extra`; returns (exit code, stderr).
fn refused(s: &Scratch, extra: &[&str]) -> (Option<i32>, String) {
    let started = s.path("started");
    let engine = |name: &str| {
        format!(
            "name={name},cmd=touch {}; exec {} {} det",
            started.display(),
            s.python.display(),
            s.path("fake_engine.py").display()
        )
    };
    let mut a = args(&["--engine", &engine("a"), "--engine", &engine("b")]);
    a.extend(args(extra));
    let out = tusk().arg("match").args(&a).output().expect("tusk runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "{extra:?} was accepted:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!stderr.contains("panicked"), "{extra:?}: {stderr}");
    assert!(
        !started.exists(),
        "{extra:?}: an engine was started before the options were checked"
    );
    (out.status.code(), stderr)
}

#[test]
fn options_out_of_range_are_refused_naming_the_option_and_the_range() {
    let s = Scratch::new("options");
    for (extra, words) in [
        (&["--games", "0"][..], &["--games", "at least 1"][..]),
        (
            &["--stop-time", "-5"],
            &["--stop-time", "-5", "0 to 1000000000 seconds"],
        ),
        (
            &["--stop-time", "1e308"],
            &["--stop-time", "1e308", "0 to 1000000000 seconds"],
        ),
        (&["--stop-time", "nan"], &["--stop-time", "0 to 1000000000"]),
        (
            &["--move-timeout", "1e308"],
            &["--move-timeout", "1e308", "1000000000 seconds"],
        ),
        (&["--move-timeout", "-1"], &["--move-timeout", "-1"]),
        (&["--move-timeout", "0"], &["--move-timeout"]),
        (
            &["--tc", "99999999999999d/0"],
            &["--tc", "field move", "1000000000 seconds"],
        ),
        (&["--concurrency", "0"], &["--concurrency", "1 to 1024"]),
        (
            &["--concurrency", "100000000000"],
            &["--concurrency", "1 to 1024"],
        ),
    ] {
        let (code, stderr) = refused(&s, extra);
        assert_eq!(code, Some(1), "{extra:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{extra:?}: {stderr}");
        for w in words {
            assert!(stderr.contains(w), "{extra:?}: no \"{w}\" in {stderr}");
        }
    }
}

#[test]
fn a_setup_file_that_is_not_utf8_is_refused_with_its_line_and_column() {
    let s = Scratch::new("setup-utf8");
    let file = s.path("setups.txt");
    std::fs::write(&file, b"# openings\nRa1 Rb\xE9 Rc1\n").unwrap();
    let (code, stderr) = refused(&s, &["--setup-file", &file.display().to_string()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("setups.txt") && stderr.contains("line 2, column 7"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_setup_file_is_refused_at_its_size_limit() {
    let s = Scratch::new("setup-endless");
    let t = std::time::Instant::now();
    let (_, stderr) = refused(&s, &["--setup-file", "/dev/zero"]);
    assert!(
        stderr.contains("/dev/zero") && stderr.contains("larger than"),
        "{stderr}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
}

// 0.05^(1/8) = 0.687656 is the smallest winning chance under which 8 wins in 8 games still
// happen 5% of the time; as Elo, -400·log10(1/0.687656 - 1) = +137.095. A clean 8-0 sweep is
// "Elo > +137.1" at 95%, and the loser's "Elo < -137.1".
#[test]
fn a_clean_sweep_gets_a_one_sided_elo_bound() {
    let s = Scratch::new("sweep");
    let table = s.path("table.json");
    let json = s.path("games.jsonl");
    let mut a = args(&["--games", "8", "--concurrency", "2"]);
    for e in [s.fake("good", "det"), s.fake("bad", "illegal")] {
        a.push("--engine".into());
        a.push(e);
    }
    a.extend(args(&["--table-json", &table.display().to_string()]));
    a.extend(args(&["--json", &json.display().to_string()]));
    let out = run_match(&a);
    assert_eq!(games(&json).len(), 8);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("[+137.1, +inf]"), "{stdout}");
    assert!(stdout.contains("[-inf, -137.1]"), "{stdout}");
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(
        !text.contains("inf") && !text.contains("NaN"),
        "no infinity in JSON: {text}"
    );
    let t: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = t["table"].as_array().unwrap();
    let (good, bad) = (&rows[0], &rows[1]);
    assert_eq!(
        (good["name"].as_str(), good["wins"].as_u64()),
        (Some("good"), Some(8))
    );
    assert!(
        (good["elo_lower"].as_f64().unwrap() - 137.095).abs() < 1e-3,
        "{good}"
    );
    assert!(
        good["elo_upper"].is_null() && good["elo"].is_null(),
        "{good}"
    );
    assert!(
        (bad["elo_upper"].as_f64().unwrap() + 137.095).abs() < 1e-3,
        "{bad}"
    );
    assert!(bad["elo_lower"].is_null() && bad["elo"].is_null(), "{bad}");
}
