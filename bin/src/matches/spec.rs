//! One `--engine` value: `name=NAME,cmd=COMMAND[,option.NAME=VALUE...][,depth=N][,nodes=N][,tc=TC]`.

use crate::clock::control::TcError;
use crate::clock::TimeControl;

/// One engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Unique name.
    pub name: String,
    /// Shell command.
    pub cmd: String,
    /// `setoption` pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Time control of this engine, overriding `--tc`.
    pub tc: Option<TimeControl>,
}

/// A malformed `--engine` value; every message quotes the whole value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A quote that is not closed.
    #[error("--engine \"{spec}\": unclosed quote")]
    UnclosedQuote {
        /// The whole value.
        spec: String,
    },
    /// A part without `=`.
    #[error("--engine \"{spec}\": \"{part}\" is not key=value")]
    NotKeyValue {
        /// The whole value.
        spec: String,
        /// The part.
        part: String,
    },
    /// `depth` or `nodes` that is not a whole number.
    #[error("--engine \"{spec}\": {key}=\"{value}\" is not a whole number")]
    NotWholeNumber {
        /// The whole value.
        spec: String,
        /// `depth` or `nodes`.
        key: String,
        /// What was given.
        value: String,
    },
    /// A `tc` that is not a time control.
    #[error("--engine \"{spec}\": {error}")]
    TimeControl {
        /// The whole value.
        spec: String,
        /// Why (shown in the message).
        error: TcError,
    },
    /// A key the runner does not know.
    #[error(
        "--engine \"{spec}\": unknown key \"{key}\" (use name, cmd, option.NAME, depth, nodes, tc)"
    )]
    UnknownKey {
        /// The whole value.
        spec: String,
        /// The key.
        key: String,
    },
    /// No name, or one with white space.
    #[error("--engine \"{spec}\": needs name=NAME (no spaces)")]
    Name {
        /// The whole value.
        spec: String,
    },
    /// No command.
    #[error("--engine \"{spec}\": needs cmd=COMMAND")]
    NoCommand {
        /// The whole value.
        spec: String,
    },
}

/// Splits `a=1,b="x,y"` on commas outside quotes, removing the quotes.
fn split_spec(s: &str) -> Result<Vec<String>, SpecError> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ',') => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(SpecError::UnclosedQuote {
            spec: s.to_string(),
        });
    }
    parts.push(cur);
    Ok(parts)
}

/// Reads one `--engine` value.
pub fn parse_engine(s: &str) -> Result<EngineSpec, SpecError> {
    let spec = || s.to_string();
    let mut e = EngineSpec {
        name: String::new(),
        cmd: String::new(),
        options: Vec::new(),
        tc: None,
    };
    for part in split_spec(s)? {
        if part.trim().is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').ok_or_else(|| SpecError::NotKeyValue {
            spec: spec(),
            part: part.clone(),
        })?;
        let k = k.trim();
        match k {
            "name" => e.name = v.trim().to_string(),
            "cmd" => e.cmd = v.to_string(),
            "depth" | "nodes" => {
                let n: u64 = v.trim().parse().map_err(|_| SpecError::NotWholeNumber {
                    spec: spec(),
                    key: k.to_string(),
                    value: v.to_string(),
                })?;
                e.options.push((k.to_string(), n.to_string()));
            }
            "tc" => {
                let tc = v.parse().map_err(|error| SpecError::TimeControl {
                    spec: spec(),
                    error,
                })?;
                e.tc = Some(tc);
            }
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() && !name.contains(' ') => {
                    e.options.push((name.to_string(), v.to_string()))
                }
                _ => {
                    return Err(SpecError::UnknownKey {
                        spec: spec(),
                        key: k.to_string(),
                    })
                }
            },
        }
    }
    if e.name.is_empty() || e.name.contains(char::is_whitespace) {
        return Err(SpecError::Name { spec: spec() });
    }
    if e.cmd.trim().is_empty() {
        return Err(SpecError::NoCommand { spec: spec() });
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse_with_quotes_options_and_limits() {
        let e = parse_engine("name=new,cmd=./tusk aei,option.threads=1,depth=8").unwrap();
        assert_eq!(e.name, "new");
        assert_eq!(e.cmd, "./tusk aei");
        assert_eq!(
            e.options,
            vec![("threads".into(), "1".into()), ("depth".into(), "8".into())]
        );
        let e = parse_engine("name=b,cmd='run --x=1,2',nodes=5000,tc=1s/2s").unwrap();
        assert_eq!(e.cmd, "run --x=1,2");
        assert_eq!(e.options, vec![("nodes".into(), "5000".into())]);
        assert_eq!(e.tc.unwrap().reserve, 2.0);
        for (bad, why) in [
            ("cmd=x", "needs name"),
            ("name=a", "needs cmd"),
            ("name=a,cmd=x,depth=deep", "whole number"),
            ("name=a,cmd=x,colour=red", "unknown key"),
            ("name=a,cmd='x", "unclosed"),
            ("name=a,cmd=x,tc=zz", "time control"),
            ("name=a b,cmd=x", "no spaces"),
        ] {
            let e = parse_engine(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
