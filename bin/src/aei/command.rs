//! One line from the controller, read into a [`Command`]. Pure: no state, no I/O.
//!
//! Tolerances: a trailing `\r` (CRLF input) and surrounding blanks are dropped; the message
//! type and the `ponder`, `name` and `value` keywords are matched case-insensitively; the
//! board of `setposition` is taken between its brackets, so runs of spaces inside are kept;
//! the value of `setoption` is everything after `value `, spaces included.

use std::fmt;

use tusk_engine::notation::board::parse_aei;
use tusk_engine::Position;

/// A message from the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `aei`: the opening handshake.
    Aei,
    /// `isready`: answer `readyok` once everything before it is handled.
    IsReady,
    /// `newgame`: empty board, gold to set up.
    NewGame,
    /// `setposition <side> [<64 cells>]`: a turn start, history reset.
    SetPosition(Box<Position>),
    /// `setoption name <id> [value <x>]`. The name is lower-cased.
    SetOption {
        /// The option's name, lower case.
        name: String,
        /// Everything after `value `, if given.
        value: Option<String>,
    },
    /// `makemove <move>`: a setup or a turn, checked against the game later.
    MakeMove(String),
    /// `go` (`ponder: false`) or `go ponder`.
    Go {
        /// Whether this is a ponder search (never answered with `bestmove`).
        ponder: bool,
    },
    /// `stop`: answer the running search now.
    Stop,
    /// `quit`: exit.
    Quit,
    /// A blank line: nothing to do.
    Blank,
}

/// Why a line is not a command Tusk can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The message type is not one AEI defines.
    Unknown(String),
    /// The message type is known but the rest of the line is not what it needs.
    Malformed {
        /// The message type, lower case.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Malformed { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads one line (with or without its line ending) into a command.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim_end_matches(['\n', '\r']).trim();
    if line.is_empty() {
        return Ok(Command::Blank);
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    };
    let lower = word.to_ascii_lowercase();
    let no_args = |command: &'static str, c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(CommandError::Malformed {
                command,
                reason: format!("takes no arguments, got \"{rest}\""),
            })
        }
    };
    match lower.as_str() {
        "aei" => no_args("aei", Command::Aei),
        "isready" => no_args("isready", Command::IsReady),
        "newgame" => no_args("newgame", Command::NewGame),
        "stop" => no_args("stop", Command::Stop),
        // Anything after quit is ignored: the controller wants us gone.
        "quit" => Ok(Command::Quit),
        "go" => match rest.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Go { ponder: false }),
            "ponder" => Ok(Command::Go { ponder: true }),
            other => Err(CommandError::Malformed {
                command: "go",
                reason: format!("unknown search type \"{other}\" (expected nothing or 'ponder')"),
            }),
        },
        "makemove" => {
            if rest.is_empty() {
                Err(CommandError::Malformed {
                    command: "makemove",
                    reason: "no move given".into(),
                })
            } else {
                Ok(Command::MakeMove(rest.to_string()))
            }
        }
        "setposition" => parse_aei(rest)
            .map(|p| Command::SetPosition(Box::new(p)))
            .map_err(|e| CommandError::Malformed {
                command: "setposition",
                reason: e.to_string(),
            }),
        "setoption" => parse_setoption(rest),
        _ => Err(CommandError::Unknown(word.to_string())),
    }
}

/// `name <id> [value <x>]`, keywords in any case; the name may not be empty.
fn parse_setoption(rest: &str) -> Result<Command, CommandError> {
    let malformed = |reason: String| CommandError::Malformed {
        command: "setoption",
        reason,
    };
    let after_name = strip_keyword(rest, "name")
        .ok_or_else(|| malformed(format!("expected 'name <id> [value <x>]', got \"{rest}\"")))?;
    // The value starts at the first word `value` after the name.
    let mut name_end = after_name.len();
    let mut value = None;
    let mut offset = 0;
    for part in after_name.split_inclusive(char::is_whitespace) {
        let w = part.trim_end();
        if w.eq_ignore_ascii_case("value") {
            name_end = offset;
            value = Some(after_name[offset + w.len()..].trim().to_string());
            break;
        }
        offset += part.len();
    }
    let name = after_name[..name_end].trim();
    if name.is_empty() {
        return Err(malformed("the option has no name".into()));
    }
    Ok(Command::SetOption {
        name: name.to_ascii_lowercase(),
        value,
    })
}

/// `text` without a leading `keyword` (any case) and the blanks after it, if it starts so.
fn strip_keyword<'a>(text: &'a str, keyword: &str) -> Option<&'a str> {
    let head = text.get(..keyword.len())?;
    let tail = &text[keyword.len()..];
    (head.eq_ignore_ascii_case(keyword)
        && (tail.is_empty() || tail.starts_with(char::is_whitespace)))
    .then(|| tail.trim_start())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::notation::board::to_aei_with_side;
    use tusk_engine::Color;

    fn opt(name: &str, value: Option<&str>) -> Command {
        Command::SetOption {
            name: name.into(),
            value: value.map(str::to_string),
        }
    }

    #[test]
    fn plain_commands_any_case_and_line_ending() {
        assert_eq!(parse("aei"), Ok(Command::Aei));
        assert_eq!(parse("aei\r\n"), Ok(Command::Aei));
        assert_eq!(parse("ISREADY\r"), Ok(Command::IsReady));
        assert_eq!(parse("  newgame  \n"), Ok(Command::NewGame));
        assert_eq!(parse("go"), Ok(Command::Go { ponder: false }));
        assert_eq!(parse("Go Ponder\r\n"), Ok(Command::Go { ponder: true }));
        assert_eq!(parse("stop\r\n"), Ok(Command::Stop));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("quit now please"), Ok(Command::Quit));
        assert_eq!(parse(""), Ok(Command::Blank));
        assert_eq!(parse("\r\n"), Ok(Command::Blank));
    }

    #[test]
    fn unknown_and_malformed() {
        assert_eq!(
            parse("frobnicate 3"),
            Err(CommandError::Unknown("frobnicate".into()))
        );
        assert!(matches!(
            parse("go infinite"),
            Err(CommandError::Malformed { command: "go", .. })
        ));
        assert!(matches!(
            parse("isready now"),
            Err(CommandError::Malformed {
                command: "isready",
                ..
            })
        ));
        assert!(matches!(
            parse("makemove"),
            Err(CommandError::Malformed {
                command: "makemove",
                ..
            })
        ));
        assert_eq!(
            parse("frobnicate").unwrap_err().to_string(),
            "unknown command 'frobnicate'"
        );
    }

    #[test]
    fn setoption_values_with_spaces() {
        assert_eq!(
            parse("setoption name tcmove value 15"),
            Ok(opt("tcmove", Some("15")))
        );
        assert_eq!(
            parse("setoption name opponent value bot Sharp 2015\r\n"),
            Ok(opt("opponent", Some("bot Sharp 2015")))
        );
        assert_eq!(
            parse("SETOPTION NAME Hash VALUE 256"),
            Ok(opt("hash", Some("256")))
        );
        assert_eq!(
            parse("setoption name event value World Championship value round"),
            Ok(opt("event", Some("World Championship value round")))
        );
        assert_eq!(parse("setoption name rated"), Ok(opt("rated", None)));
        assert_eq!(
            parse("setoption name event value"),
            Ok(opt("event", Some("")))
        );
        assert!(parse("setoption tcmove 15").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("setoption name  value 3").is_err());
        assert!(parse("setoption").is_err());
    }

    #[test]
    fn setposition_keeps_runs_of_spaces() {
        let text = "g [rrrrrrrrd cm c d h eE h                         DHCM CHDRRRRRRRR]";
        let Ok(Command::SetPosition(p)) = parse(&format!("setposition {text}\r\n")) else {
            panic!("setposition must parse");
        };
        assert_eq!(to_aei_with_side(&p), text);
        // Leading and trailing spaces inside the brackets.
        let cells = format!("{:6}r{:49}D{:7}", "", "", "");
        assert_eq!(cells.len(), 64);
        let edge = format!("s [{cells}]");
        let Ok(Command::SetPosition(p)) = parse(&format!("setposition   {edge}")) else {
            panic!("setposition must parse");
        };
        assert_eq!(p.side(), Color::Silver);
        assert_eq!(to_aei_with_side(&p), edge);
        // Legacy side letters.
        assert!(matches!(
            parse(&format!(
                "setposition {}",
                tusk_engine::notation::board::STANDARD_OPENING.replacen('g', "w", 1)
            )),
            Ok(Command::SetPosition(_))
        ));
    }

    #[test]
    fn setposition_errors_name_the_fault() {
        let short = parse("setposition g [rrrr]").unwrap_err().to_string();
        assert!(short.contains("64"), "{short}");
        let side = parse(&format!(
            "setposition {}",
            tusk_engine::notation::board::STANDARD_OPENING.replacen('g', "q", 1)
        ))
        .unwrap_err()
        .to_string();
        assert!(side.starts_with("setposition:"), "{side}");
        let letter = parse(
            "setposition g [rrrrrrrrdhcemchd                               zDHCMECHDRRRRRRRR]",
        )
        .unwrap_err()
        .to_string();
        assert!(letter.contains("'z'"), "{letter}");
        assert!(parse("setposition g").is_err());
        assert!(parse("setposition").is_err());
    }
}
