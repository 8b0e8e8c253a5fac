//! The weights file: one JSON object mapping each parameter's stable name to an integer,
//!
//! ```json
//! {
//!   "material_pct": 100,
//!   "trap_home": 35,
//!   "rabbit_advance.3": 12
//! }
//! ```
//!
//! A file may leave names out: they keep the values of the base set the caller gives (the
//! shipped weights, as a rule), and [`Loaded::missing`] lists them so the caller can warn.
//! An unknown name, a name given twice, a value that is not an integer or lies outside its
//! parameter's range is an error naming the line and the key.

use std::path::Path;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

use crate::weights::{Weights, GROUPS};

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not JSON, or not a JSON object.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// A key that names no parameter.
    #[error("line {line}: \"{key}\" is not a weight{hint}")]
    UnknownKey {
        /// 1-based line of the key.
        line: usize,
        /// The key.
        key: String,
        /// A suggestion (`; did you mean ...?`), or empty.
        hint: String,
    },
    /// A key given twice.
    #[error("line {line}: \"{key}\" is given a second time")]
    Duplicate {
        /// 1-based line of the second occurrence.
        line: usize,
        /// The key.
        key: String,
    },
    /// A value that is not an integer.
    #[error("line {line}: \"{key}\": {value} is not an integer")]
    NotInteger {
        /// 1-based line of the key.
        line: usize,
        /// The key.
        key: String,
        /// The value as written back by the JSON reader.
        value: String,
    },
    /// An integer outside the parameter's range.
    #[error("line {line}: \"{key}\": {value} is outside its range {min}..={max}")]
    OutOfRange {
        /// 1-based line of the key.
        line: usize,
        /// The key.
        key: String,
        /// The value.
        value: i64,
        /// The least allowed.
        min: i32,
        /// The greatest allowed.
        max: i32,
    },
}

/// Why a weights file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file was read but is not a valid weights file.
    #[error("{path}: {source}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        source: WeightsError,
    },
}

/// A parsed weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The weights: the file's values, the base set's for names it leaves out.
    pub weights: Weights,
    /// The names the file leaves out, in vector order.
    pub missing: Vec<&'static str>,
}

/// The top-level entries of a JSON object, in file order, duplicates kept.
struct Entries(Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entries, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object of weights, {\"name\": integer, ...}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = map.next_entry::<String, serde_json::Value>()? {
                    v.push(entry);
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(EntriesVisitor)
    }
}

/// The 1-based line of every key of the top-level object of `text` (valid JSON), in order.
fn top_level_key_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let (mut depth, mut line, mut expect_key) = (0usize, 1usize, false);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '{' | '[' => {
                depth += 1;
                expect_key = c == '{' && depth == 1;
            }
            '}' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expect_key = true,
            '"' => {
                let start = line;
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        '\n' => line += 1,
                        _ => {}
                    }
                }
                if depth == 1 && expect_key {
                    lines.push(start);
                    expect_key = false;
                }
            }
            _ => {}
        }
    }
    lines
}

/// Edit distance between two short names (for suggestions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A hint for an unknown key: the entries of a group named without an index, an index out
/// of range, or the nearest name.
fn hint(key: &str) -> String {
    let group_name = key.split('.').next().unwrap_or(key);
    if let Some(g) = GROUPS.iter().find(|g| g.name == group_name) {
        return match g.dims {
            [] => format!("; {} is a single weight, written \"{}\"", g.name, g.name),
            _ => format!(
                "; {} has {} entries, \"{}\" to \"{}\"",
                g.name,
                g.len(),
                g.entry_name(0),
                g.entry_name(g.len() - 1)
            ),
        };
    }
    let best = Weights::names()
        .iter()
        .map(|n| (distance(key, n), n))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, n)) if d <= 3 => format!("; did you mean \"{n}\"?"),
        _ => String::new(),
    }
}

/// Reads a weights file's text. Names it leaves out keep their values in `base`.
pub fn parse(text: &str, base: &Weights) -> Result<Loaded, WeightsError> {
    let Entries(entries) = serde_json::from_str(text).map_err(|e| WeightsError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let lines = top_level_key_lines(text);
    let mut weights = base.clone();
    let mut given = [false; Weights::LEN];
    for (k, (key, value)) in entries.into_iter().enumerate() {
        let line = lines.get(k).copied().unwrap_or(0);
        let Some(p) = Weights::find(&key) else {
            return Err(WeightsError::UnknownKey {
                line,
                hint: hint(&key),
                key,
            });
        };
        if given[p.index()] {
            return Err(WeightsError::Duplicate { line, key });
        }
        given[p.index()] = true;
        let Some(v) = value.as_i64() else {
            return Err(WeightsError::NotInteger {
                line,
                key,
                value: value.to_string(),
            });
        };
        let (g, _) = Weights::group_of(p);
        if v < i64::from(g.min) || v > i64::from(g.max) {
            return Err(WeightsError::OutOfRange {
                line,
                key,
                value: v,
                min: g.min,
                max: g.max,
            });
        }
        weights[p] = v as i32;
    }
    let missing = Weights::params()
        .filter(|p| !given[p.index()])
        .map(Weights::name)
        .collect();
    Ok(Loaded { weights, missing })
}

/// Reads a weights file from disk (see [`parse`]); names it leaves out keep the shipped
/// values ([`Weights::default`]).
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse(&text, &Weights::default()).map_err(|source| LoadError::Invalid {
        path: path.display().to_string(),
        source,
    })
}

/// The weights file of `w`: every parameter, one per line, in vector order.
pub fn to_json(w: &Weights) -> String {
    let mut out = String::from("{\n");
    let n = Weights::LEN;
    for (i, p) in Weights::params().enumerate() {
        let comma = if i + 1 < n { "," } else { "" };
        out.push_str(&format!("  \"{}\": {}{comma}\n", Weights::name(p), w[p]));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::id;

    #[test]
    fn the_shipped_file_is_complete_valid_and_what_default_returns() {
        let l = parse(crate::weights::SHIPPED_JSON, &Weights::hand_set()).unwrap();
        assert!(
            l.missing.is_empty(),
            "missing from the file: {:?}",
            l.missing
        );
        assert_eq!(l.weights, Weights::default());
    }

    #[test]
    fn writing_and_reading_round_trips() {
        let mut w = Weights::hand_set();
        w[id::trap_home] = -7;
        w[id::rabbit_advance.at(5)] = 123;
        let text = to_json(&w);
        let l = parse(&text, &Weights::hand_set()).unwrap();
        assert_eq!(l.weights, w);
        assert!(l.missing.is_empty());
        assert_eq!(text.lines().count(), Weights::LEN + 2);
    }

    #[test]
    fn a_partial_file_keeps_the_base_values_and_lists_what_it_lacks() {
        let base = Weights::hand_set();
        let l = parse("{\"trap_home\": 40}", &base).unwrap();
        assert_eq!(l.weights[id::trap_home], 40);
        assert_eq!(l.weights[id::trap_away], base[id::trap_away]);
        assert_eq!(l.missing.len(), Weights::LEN - 1);
        assert!(l.missing.contains(&"trap_away"));
        assert!(!l.missing.contains(&"trap_home"));
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        let base = Weights::hand_set();
        let e = |text: &str| parse(text, &base).unwrap_err();
        assert_eq!(
            e("{\n  \"trap_home\": 35,\n  \"trap_hmoe\": 3\n}").to_string(),
            "line 3: \"trap_hmoe\" is not a weight; did you mean \"trap_home\"?"
        );
        assert_eq!(
            e("{\"trap_home\": 35,\n\"rabbit_advance\": 3}").to_string(),
            "line 2: \"rabbit_advance\" is not a weight; rabbit_advance has 8 entries, \
             \"rabbit_advance.0\" to \"rabbit_advance.7\""
        );
        assert_eq!(
            e("{\n\"trap_home\": 35,\n\"trap_home\": 36}").to_string(),
            "line 3: \"trap_home\" is given a second time"
        );
        assert_eq!(
            e("{\n\n\"frozen_pct\": 6.5}").to_string(),
            "line 3: \"frozen_pct\": 6.5 is not an integer"
        );
        assert_eq!(
            e("{\"frozen_pct\": \"6\"}").to_string(),
            "line 1: \"frozen_pct\": \"6\" is not an integer"
        );
        assert_eq!(
            e("{\"a\": {\"trap_home\": 1},\n \"trap_cap\": 3}").to_string(),
            "line 1: \"a\" is not a weight"
        );
        assert_eq!(
            e("{\n \"piece_value_cap\": 0}").to_string(),
            "line 2: \"piece_value_cap\": 0 is outside its range 1..=10000"
        );
        assert!(matches!(
            e("{\"trap_home\": 35,,}"),
            WeightsError::Json { line: 1, .. }
        ));
        assert!(matches!(e("[1, 2]"), WeightsError::Json { .. }));
        assert!(matches!(e(""), WeightsError::Json { .. }));
    }

    #[test]
    fn key_lines_skip_nested_values_and_strings() {
        let text =
            "{\"a\": 1, \"b\": {\"x\": [1, {\"y\": 2}]},\n \"c\\\"q\": \"v,\\n{\",\n\n \"d\": 4}";
        assert_eq!(top_level_key_lines(text), vec![1, 1, 2, 4]);
    }
}
