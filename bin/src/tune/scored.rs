//! Scored positions: training data whose target is a teacher's score rather than a game's
//! result. A scored file has one JSON object per line, `{"position": "g [<64 cells>]",
//! "score": <centirabbits>}`: the position as AEI's `setposition` gives it, at the start of a
//! turn, and the teacher's judgement of it from the side to move's view (any other engine's
//! static evaluation or search score, in centirabbits: an opening rabbit = 100). An optional
//! `"steps": "Ee2n Ee3n"` (a string, as `tusk eval --batch` reads it) scores the position in
//! the middle of the turn instead: the side to move plays those steps first (checked) and
//! keeps the steps it has left, so a teacher can judge the positions a search meets between
//! turn starts. Other keys are ignored, except an optional `"group"` (a string): positions of
//! one group, say one game, go to training or validation together.
//!
//! Each position becomes a row whose target is the teacher's expected result, the logistic
//! of `score / K` with the fit's scale K, so that fitting the evaluation to it fits the
//! evaluation to the teacher's scores where they matter (a score far from zero saturates, as
//! a won game's result does). Positions the side to move can end by a goal or a capture this
//! turn (with the steps it has left) are skipped: the evaluation is only ever asked about quiet
//! positions; so is a position whose steps leave a push half made (the pusher must still step
//! in: no evaluation is asked there either). A teacher's *search* score has already played the
//! capture out, so with [`Unquiet::KeepCaptures`] (`tusk tune --scored-captures`) a position
//! only a capture keeps from being quiet is kept: the one place the weight of the side to
//! move's capture this turn (`capture_now_pct`) can be fitted.

use std::path::Path;

use serde::Deserialize;
use tusk_engine::notation::board::parse_aei;
use tusk_engine::notation::turn::play_steps;
use tusk_engine::{Pending, Position};
use tusk_eval::Weights;

use super::data::is_quiet;
use super::fit::sigmoid;
use super::matrix::{row_of, Matrix};

/// A position and the teacher's score of it, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredPosition {
    /// The position scored: at the start of its turn, or after the line's `"steps"`.
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
    steps: Option<String>,
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
        let mut position =
            parse_aei(&line.position).map_err(|e| format!("{origin}: the position: {e}"))?;
        if let Some(steps) = &line.steps {
            position = play_steps(&position, steps)
                .map_err(|e| format!("{origin}: the steps \"{steps}\": {e}"))?
                .1;
        }
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

/// Which scored positions that are not quiet [`push_row`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unquiet {
    /// None: a goal or a capture within the turn skips the position.
    Skip,
    /// Those the side to move can end by a capture (a goal this turn still skips them).
    KeepCaptures,
}

/// Adds the row of `s` to `rows` with the target `sigmoid(score / k)`, with the shape
/// parameters of `w`; false (and nothing added) when the position is not quiet (with
/// [`Unquiet::KeepCaptures`], only when the side to move can goal) or leaves a push half made.
pub fn push_row(
    rows: &mut Matrix,
    s: &ScoredPosition,
    k: f64,
    w: &Weights,
    unquiet: Unquiet,
) -> bool {
    if matches!(s.position.pending(), Pending::Push { .. }) {
        return false;
    }
    if unquiet == Unquiet::Skip && !is_quiet(&s.position) {
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
    fn steps_score_the_position_in_the_middle_of_the_turn() {
        let text = format!(
            "{{\"position\": \"{START}\", \"score\": 40, \"steps\": \"Ee2n\"}}\n\
             {{\"position\": \"{START}\", \"score\": 40, \"steps\": \"Ee2n Ee3n\"}}\n"
        );
        let got = parse_scored(&text, "t.jsonl").unwrap();
        assert_eq!(got[0].position.steps_left(), 3);
        assert_eq!(got[1].position.steps_left(), 2);
        assert_eq!(got[0].position.side(), tusk_engine::Color::Gold);
        let e3 = tusk_engine::Square::parse("e3").unwrap();
        assert!(
            got[0].position.piece_at(e3).is_some(),
            "the elephant stepped to e3"
        );

        // The row is the mid-turn evaluation's: the mover's tempo feature is that of three
        // steps left, not of a turn start.
        let w = Weights::default();
        let row = row_of(&got[0].position, &w).unwrap();
        let has = |name: &str| {
            let p = Weights::find(name).unwrap();
            row.entries.iter().any(|&(i, v)| i == p.0 && v == 1.0)
        };
        assert!(has("steps_left.3"));
        assert!(!has("steps_left.4"));
        let mut rows = Matrix::default();
        assert!(push_row(&mut rows, &got[0], 400.0, &w, Unquiet::Skip));
        assert_eq!(rows.len(), 1);
    }

    #[test]
    fn bad_steps_name_the_line_and_a_half_made_push_is_skipped() {
        let bad = format!("{{\"position\": \"{START}\", \"score\": 1, \"steps\": \"Ee2s\"}}");
        let e = parse_scored(&format!("\n{bad}"), "t.jsonl").unwrap_err();
        assert!(e.starts_with("t.jsonl:2: the steps \"Ee2s\":"), "{e}");

        // Silver's rabbit on d3 beside gold's elephant on e3 (gold to move): pushing it to d4
        // leaves the elephant's step onto d3 still owed.
        let pos = "g [rrrrrrr hdcemcdh                           rE   HDCM CDHRRRRRRRR]";
        let line = format!("{{\"position\": \"{pos}\", \"score\": 0, \"steps\": \"rd3n\"}}");
        let s = &parse_scored(&line, "t").unwrap()[0];
        assert!(matches!(s.position.pending(), Pending::Push { .. }));
        let mut rows = Matrix::default();
        assert!(!push_row(
            &mut rows,
            s,
            400.0,
            &Weights::default(),
            Unquiet::KeepCaptures
        ));
        assert_eq!(rows.len(), 0);
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
        assert!(push_row(&mut rows, quiet, 400.0, &w, Unquiet::Skip));
        assert_eq!(rows.len(), 1);
        assert!((f64::from(rows.result(0)) - sigmoid(0.5)).abs() < 1e-6);

        // Gold's rabbit on h7, unfrozen by its dog on h6, walks to goal: not quiet.
        let goal = "g [rrrrrrr hdcemcdR       D                        HDCMEC HRRRRRRR ]";
        let s =
            &parse_scored(&format!("{{\"position\": \"{goal}\", \"score\": 0}}"), "t").unwrap()[0];
        assert!(!is_quiet(&s.position));
        assert!(!push_row(&mut rows, s, 400.0, &w, Unquiet::Skip));
        // A goal this turn is never a row, even where captures are kept.
        assert!(!push_row(&mut rows, s, 400.0, &w, Unquiet::KeepCaptures));
        assert_eq!(rows.len(), 1);
    }

    /// A position the side to move can end by a capture (gold's elephant on d4 pushes the
    /// silver cat on c4 onto the unguarded trap c3) is skipped unless captures are kept; kept, its
    /// row carries the capture-now feature.
    #[test]
    fn a_capture_position_is_kept_only_when_asked() {
        let w = Weights::default();
        let text = "g [rrrrrrrr                          cE            RRRRRRRRHDCM CDH]";
        let s = &parse_scored(
            &format!("{{\"position\": \"{text}\", \"score\": 150}}"),
            "t",
        )
        .unwrap()[0];
        assert!(!is_quiet(&s.position));
        let mut rows = Matrix::default();
        assert!(!push_row(&mut rows, s, 400.0, &w, Unquiet::Skip));
        assert_eq!(rows.len(), 0);
        assert!(push_row(&mut rows, s, 400.0, &w, Unquiet::KeepCaptures));
        assert_eq!(rows.len(), 1);
        let capture_now = Weights::find("capture_now_pct").expect("a weight");
        let (cols, vals) = rows.row(0);
        assert!(
            cols.iter()
                .zip(vals)
                .any(|(&c, &v)| c == capture_now.0 && v != 0.0),
            "the capture-now feature is in the row"
        );
    }
}
