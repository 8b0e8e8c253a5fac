//! The datagen file: one JSON line per finished game ([`GameLine`]), appended as games end;
//! reading it back for resume (a last line cut short by an interruption is reported so it can
//! be cut off), and the settings key that keeps one file to one set of settings.

use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tusk_eval::Weights;

/// One self-play game, as a line of the datagen file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The game index: with the seed, it alone decides the game.
    pub id: u64,
    /// The run's seed.
    pub seed: u64,
    /// The settings the game was played with (see [`settings_key`]).
    pub key: String,
    /// How many turns after the two setups were played at random (the opening):
    /// `moves[2..2 + random_turns]`.
    pub random_turns: u32,
    /// The moves in official notation, labelled as `tusk match --json` writes them:
    /// `1g Ra1 ...` and `1s ra8 ...` (the setups), then `2g Ee2n Ee3n ...`.
    pub moves: Vec<String>,
    /// For each searched turn (`moves[2 + random_turns..]`), the search's score from the
    /// mover's view: centirabbits, or a win (loss) in `n` steps as `100000 - n`
    /// (`-(100000 - n)`), the AEI convention.
    pub scores: Vec<i32>,
    /// For each searched turn, the last depth the search completed, in steps.
    pub depths: Vec<u32>,
    /// The winner: `g` or `s`.
    pub winner: String,
    /// How the rules ended it, with `tusk match`'s codes: `g` goal, `e` elimination, `m` no
    /// legal move (immobilisation, or every move a third repetition).
    pub reason: String,
    /// The same in words, e.g. `silver wins by repetition`.
    pub detail: String,
}

/// A fingerprint of everything the games depend on besides the seed and the index: the
/// effort per move, the opening length, the turn limit, the table size and the weights. A
/// file holds games of one key only, so a resumed run cannot mix settings.
pub fn settings_key(
    effort: &str,
    random_turns: u32,
    max_turns: u32,
    hash_mb: usize,
    weights: &Weights,
) -> String {
    format!(
        "datagen-1 {effort} random_turns={random_turns} max_turns={max_turns} hash={hash_mb} \
         weights={:016x}",
        weights_hash(weights)
    )
}

/// FNV-1a over the weight values (stable across runs and machines).
pub fn weights_hash(w: &Weights) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in w.values() {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Reads a JSON-lines file. A last line cut short (no newline and not valid JSON: the writer
/// was interrupted) is reported as the byte length of the good part, so a resume can cut it
/// off; any other bad line is an error naming the file and the line.
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<(Vec<T>, Option<u64>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_lines(&text).map_err(|(n, e)| format!("{}:{n}: {e}", path.display()))
}

/// [`load`] on the text itself; errors carry the 1-based line number.
pub fn parse_lines<T: DeserializeOwned>(
    text: &str,
) -> Result<(Vec<T>, Option<u64>), (usize, String)> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    let mut pieces = text.split_inclusive('\n').enumerate().peekable();
    while let Some((i, piece)) = pieces.next() {
        let start = offset;
        offset += piece.len() as u64;
        let line = piece.trim();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<T>(line) {
            Ok(v) => out.push(v),
            Err(e) => {
                if pieces.peek().is_none() && !piece.ends_with('\n') {
                    return Ok((out, Some(start)));
                }
                return Err((i + 1, format!("not a datagen game line: {e}")));
            }
        }
    }
    Ok((out, None))
}

/// Appends one value as one JSON line and flushes it to the disk.
pub fn append<T: Serialize>(file: &mut std::fs::File, value: &T) -> std::io::Result<()> {
    let mut line = serde_json::to_string(value).map_err(std::io::Error::other)?;
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.flush()?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: u64) -> GameLine {
        GameLine {
            id,
            seed: 7,
            key: "k".into(),
            random_turns: 2,
            moves: vec!["1g Ra1".into()],
            scores: vec![12, 99_993],
            depths: vec![5, 6],
            winner: "g".into(),
            reason: "g".into(),
            detail: "gold wins by goal".into(),
        }
    }

    #[test]
    fn a_torn_last_line_is_reported_and_other_garbage_refused() {
        let good = serde_json::to_string(&line(0)).unwrap();
        let text = format!("{good}\n\n{good}\n{}", &good[..30]);
        let (games, torn) = parse_lines::<GameLine>(&text).unwrap();
        assert_eq!(games, vec![line(0), line(0)]);
        assert_eq!(torn, Some(2 * good.len() as u64 + 3));
        let (games, torn) = parse_lines::<GameLine>(&format!("{good}\n")).unwrap();
        assert_eq!((games.len(), torn), (1, None));
        let e = parse_lines::<GameLine>(&format!("{good}\n{}\n{good}\n", &good[..30])).unwrap_err();
        assert_eq!(e.0, 2);
        // A complete last line that is not a game is an error too (it ends with a newline).
        assert!(parse_lines::<GameLine>("{\"id\": 1}\n").is_err());
    }

    #[test]
    fn the_key_changes_with_every_setting() {
        let w = Weights::default();
        let k = settings_key("nodes=5000", 8, 400, 16, &w);
        assert!(k.starts_with("datagen-1 nodes=5000 random_turns=8 max_turns=400 hash=16"));
        let mut w2 = w.clone();
        w2[tusk_eval::id::trap_home] += 1;
        assert_ne!(settings_key("nodes=5000", 8, 400, 16, &w2), k);
        assert_ne!(settings_key("depth=8", 8, 400, 16, &w), k);
        assert_ne!(settings_key("nodes=5000", 7, 400, 16, &w), k);
        assert_eq!(weights_hash(&w), weights_hash(&w.clone()));
    }
}
