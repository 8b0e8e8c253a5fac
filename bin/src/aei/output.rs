//! What Tusk writes to the controller: one protocol line at a time, flushed, from any thread;
//! and the `info` lines that describe a search.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tusk_engine::notation::turn::write_line;
use tusk_engine::{Position, Turn};
use tusk_search::Report;

/// A shared, line-at-a-time writer to the controller. Cloning shares it. Before the
/// handshake (`aei`) nothing may reach the controller, so `log` lines go to stderr then.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    open: Arc<AtomicBool>,
    handshake: Arc<AtomicBool>,
}

impl Output {
    /// Writes to `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(w)),
            open: Arc::new(AtomicBool::new(true)),
            handshake: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line and flushes it. A failed write (the controller closed the pipe)
    /// marks the output closed; see [`Output::is_open`].
    pub fn line(&self, text: &str) {
        debug_assert!(!text.is_empty() && !text.contains('\n'));
        let mut w = match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        if writeln!(w, "{text}").and_then(|()| w.flush()).is_err() {
            self.open.store(false, Ordering::Relaxed);
        }
    }

    /// Whether the controller still reads what we write.
    pub fn is_open(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }

    /// From now on lines may go to the controller (the `aei` handshake has begun).
    pub fn begin_handshake(&self) {
        self.handshake.store(true, Ordering::Relaxed);
    }

    /// `log <text>` to the controller, or to stderr before the handshake.
    pub fn log(&self, text: &str) {
        if self.handshake.load(Ordering::Relaxed) {
            self.line(&format!("log {}", one_line(text)));
        } else {
            eprintln!("tusk: {text}");
        }
    }

    /// `log Error: <text>`.
    pub fn error(&self, text: &str) {
        self.log(&format!("Error: {text}"));
    }

    /// `log Warning: <text>`.
    pub fn warning(&self, text: &str) {
        self.log(&format!("Warning: {text}"));
    }

    /// `log Debug: <text>`.
    pub fn debug(&self, text: &str) {
        self.log(&format!("Debug: {text}"));
    }
}

/// `text` with line breaks turned into spaces (a log line is one protocol line).
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// The principal variation from `pos` as AEI writes it: the turns in notation
/// ([`write_line`]), the first as is, every later one prefixed by the colour letter of its
/// mover (`Ee2n Ee3n s ed7s ed6s g Ee4n`).
pub fn pv_text(pos: &Position, pv: &[Turn]) -> String {
    let mut out = String::new();
    let mut mover = pos.side();
    for (i, turn) in write_line(pos, pv).iter().enumerate() {
        if i > 0 {
            out.push(' ');
            out.push(mover.letter());
            out.push(' ');
        }
        out.push_str(turn);
        mover = !mover;
    }
    out
}

/// The `info` lines of a progress report of a search from `pos`: depth (in steps, `n+` while
/// the iteration is incomplete), score in centirabbits from the mover's view, nodes, pv and
/// time in whole seconds.
pub fn info_lines(report: &Report, pos: &Position) -> Vec<String> {
    let mut v = vec![
        format!(
            "info depth {}{}",
            report.depth,
            if report.partial { "+" } else { "" }
        ),
        format!("info score {}", report.score.to_aei()),
        format!("info nodes {}", report.nodes),
    ];
    if !report.pv.is_empty() {
        v.push(format!("info pv {}", pv_text(pos, &report.pv)));
    }
    v.push(format!("info time {}", report.elapsed.as_secs()));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::notation::turn::play_steps;
    use tusk_search::Score;

    const START: &str = tusk_engine::notation::board::STANDARD_OPENING;

    /// The turns of `texts` played one after the other from `pos`.
    fn line(pos: &Position, texts: &[&str]) -> Vec<Turn> {
        let mut p = pos.clone();
        texts
            .iter()
            .map(|t| {
                let (turn, after) = play_steps(&p, t).expect("a legal turn");
                p = after;
                p.end_turn();
                turn
            })
            .collect()
    }

    #[test]
    fn pv_marks_each_later_mover() {
        let gold = parse_aei(START).unwrap();
        let pv = line(&gold, &["Ee2n Ee3n Ee4n Ee5n", "ed7s ed6s", "Ee6w"]);
        assert_eq!(
            pv_text(&gold, &pv),
            "Ee2n Ee3n Ee4n Ee5n s ed7s ed6s g Ee6w"
        );
        assert_eq!(pv_text(&gold, &pv[..1]), "Ee2n Ee3n Ee4n Ee5n");
        let silver = gold.flip();
        let pv = line(&silver, &["ee7s ee6s ee5s ee4s", "Ed2n Ed3n"]);
        assert_eq!(pv_text(&silver, &pv), "ee7s ee6s ee5s ee4s g Ed2n Ed3n");
        assert_eq!(pv_text(&gold, &[]), "");
    }

    #[test]
    fn info_lines_of_a_report() {
        let pos = parse_aei(START).unwrap();
        let r = Report {
            depth: 9,
            partial: true,
            seldepth: 14,
            score: Score::centirabbits(-35),
            nodes: 40211,
            elapsed: Duration::from_millis(2500),
            hashfull: 3,
            pv: line(&pos, &["Ee2n Ee3n", "ed7s"]),
            multipv: 1,
            root_turns: 20,
            completes_iteration: false,
        };
        assert_eq!(
            info_lines(&r, &pos),
            [
                "info depth 9+",
                "info score -35",
                "info nodes 40211",
                "info pv Ee2n Ee3n s ed7s",
                "info time 2"
            ]
        );
        let win = Report {
            partial: false,
            score: Score::win_in(3),
            pv: vec![],
            ..r
        };
        let lines = info_lines(&win, &pos);
        assert_eq!(lines[0], "info depth 9");
        assert_eq!(lines[1], "info score 99997");
        assert_eq!(lines.len(), 4);
    }
}
