//! Scored positions: training data whose target is a teacher's score rather than a game's
//! result. A scored file has one JSON object per line, `{"position": "g [<64 cells>]",
//! "score": <centirabbits>}`: the position as AEI's `setposition` gives it, at the start of a
//! turn, and the teacher's judgement of it from the side to move's view (any other engine's
//! static evaluation or search score, in centirabbits: an opening rabbit = 100). Other keys
//! are ignored, except an optional `"group"` (a string): positions of one group, say one
//! game, go to training or validation together.
//!
//! Each position becomes a row whose target is the teacher's expected result, the logistic
//! of `score / K` with the fit's scale K, so that fitting the evaluation to it fits the
//! evaluation to the teacher's scores where they matter (a score far from zero saturates, as
//! a won game's result does). Positions the side to move can end by a goal or a capture this
//! turn are skipped: the evaluation is only ever asked about quiet positions.

use std::path::Path;

use serde::Deserialize;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::Position;
use tusk_eval::Weights;

use super::data::is_quiet;
use super::fit::sigmoid;
use super::matrix::{row_of, Matrix};

/// A position and the teacher's score of it, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredPosition {
    /// The position, side to move at the start of its turn.
    pub position: Position,
    /// The teacher's score, centirabbits from the side to move's view.
    pub score: f64,
    /// The group it is split with (its line number when the line names none).
    pub group: String,
}

/// One line of a scored file.
#[derive(Deserialize)]
struct Line {
    position: String,
    score: f64,
    group: Option<String>,
}

/// Parses the text of a scored file named `name`: every line that is not blank is a scored
/// position; an error names the line and what is wrong with it.
pub fn parse_scored(text: &str, name: &str) -> Result<Vec<ScoredPosition>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let origin = format!("{name}:{}", i + 1);
        if raw.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(raw).map_err(|e| {
            format!("{origin}: not a scored position ({{\"position\": \"g [...]\", \"score\": N}}): {e}")
        })?;
        if !line.score.is_finite() {
            return Err(format!("{origin}: the score must be a finite number"));
        }
        let position =
            parse_aei(&line.position).map_err(|e| format!("{origin}: the position: {e}"))?;
        out.push(ScoredPosition {
            group: line.group.unwrap_or_else(|| (i + 1).to_string()),
            position,
            score: line.score,
        });
    }
    Ok(out)
}

/// Reads a scored file (see [`parse_scored`]).
pub fn read_scored(path: &Path) -> Result<Vec<ScoredPosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_scored(&text, &path.display().to_string())
}

/// Adds the row of `s` to `rows` with the target `sigmoid(score / k)`, with the shape
/// parameters of `w`; false (and nothing added) when the position is not quiet.
pub fn push_row(rows: &mut Matrix, s: &ScoredPosition, k: f64, w: &Weights) -> bool {
    if !is_quiet(&s.position) {
        return false;
    }
    let Some(row) = row_of(&s.position, w) else {
        return false;
    };
    rows.push_row(&row, target(s.score, k));
    true
}

/// The target of a teacher's `score` (centirabbits) with the logistic scale `k`.
pub fn target(score: f64, k: f64) -> f32 {
    sigmoid(score / k) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";

    #[test]
    fn lines_parse_with_their_group_and_errors_name_the_line() {
        let text = format!(
            "{{\"position\": \"{START}\", \"score\": 12.5, \"group\": \"a\"}}\n\n\
             {{\"position\": \"{START}\", \"score\": -3, \"extra\": 1}}\n"
        );
        let got = parse_scored(&text, "t.jsonl").unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].score, 12.5);
        assert_eq!(got[0].group, "a");
        assert_eq!(got[1].group, "3");
        assert_eq!(got[1].position.side(), tusk_engine::Color::Gold);

        let no_score = format!("{{\"position\": \"{START}\"}}");
        let e = parse_scored(&no_score, "t.jsonl").unwrap_err();
        assert!(e.starts_with("t.jsonl:1: not a scored position"), "{e}");
        let bad_board = "{\"position\": \"g [rrrr]\", \"score\": 1}\n";
        let e = parse_scored(&format!("\n{bad_board}"), "t.jsonl").unwrap_err();
        assert!(e.starts_with("t.jsonl:2: the position:"), "{e}");
    }

    #[test]
    fn targets_follow_the_score_and_unquiet_positions_are_skipped() {
        let w = Weights::default();
        let mut rows = Matrix::default();
        let quiet = &parse_scored(
            &format!("{{\"position\": \"{START}\", \"score\": 200}}"),
            "t",
        )
        .unwrap()[0];
        assert!(push_row(&mut rows, quiet, 400.0, &w));
        assert_eq!(rows.len(), 1);
        assert!((f64::from(rows.result(0)) - sigmoid(0.5)).abs() < 1e-6);

        // Gold's rabbit on h7, unfrozen by its dog on h6, walks to goal: not quiet.
        let goal = "g [rrrrrrr hdcemcdR       D                        HDCMEC HRRRRRRR ]";
        let s =
            &parse_scored(&format!("{{\"position\": \"{goal}\", \"score\": 0}}"), "t").unwrap()[0];
        assert!(!is_quiet(&s.position));
        assert!(!push_row(&mut rows, s, 400.0, &w));
        assert_eq!(rows.len(), 1);
    }
}
