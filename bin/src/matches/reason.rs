//! Why a game ended, as a type; written and read as the AEI controllers' one-letter codes
//! (`g e m t i r s`), so the JSON-lines files of earlier runs still load.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tusk_engine::EndReason;

/// Why a game ended. The codes are pyrimaa's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// `g`: a rabbit reached its goal.
    Goal,
    /// `e`: the loser's rabbits were all captured.
    Elimination,
    /// `m`: the loser had no legal move (including "every move would be a third repetition").
    Immobilization,
    /// `t`: time ran out; also a crash or a hang.
    Time,
    /// `i`: an illegal move.
    Illegal,
    /// `r`: resignation.
    Resignation,
    /// `s`: the turn limit or the game-time limit stopped the game (more pieces wins).
    Limit,
}

impl Reason {
    /// Every reason, in the order of the codes' documentation.
    pub const ALL: [Reason; 7] = [
        Reason::Goal,
        Reason::Elimination,
        Reason::Immobilization,
        Reason::Time,
        Reason::Illegal,
        Reason::Resignation,
        Reason::Limit,
    ];

    /// The one-letter code.
    pub const fn code(self) -> char {
        match self {
            Reason::Goal => 'g',
            Reason::Elimination => 'e',
            Reason::Immobilization => 'm',
            Reason::Time => 't',
            Reason::Illegal => 'i',
            Reason::Resignation => 'r',
            Reason::Limit => 's',
        }
    }

    /// The reason of a one-letter code.
    pub fn from_code(code: char) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// The reason of a game decided on the board. The rules treat "every move would repeat
    /// a third time" as having no legal move.
    pub const fn from_end(end: EndReason) -> Reason {
        match end {
            EndReason::Goal => Reason::Goal,
            EndReason::Elimination => Reason::Elimination,
            EndReason::Immobilization | EndReason::Repetition => Reason::Immobilization,
        }
    }

    /// Whether the board decided the game (goal, elimination, immobilisation), as opposed to
    /// a fault, a resignation or a limit.
    pub const fn decided_on_board(self) -> bool {
        matches!(
            self,
            Reason::Goal | Reason::Elimination | Reason::Immobilization
        )
    }
}

impl fmt::Display for Reason {
    /// The one-letter code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code().encode_utf8(&mut [0; 4]))
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Reason::from_code), chars.next()) {
            (Some(r), None) => Ok(r),
            _ => Err(serde::de::Error::custom(format!(
                "\"{text}\" is not a result reason (one of g, e, m, t, i, r, s)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_pyrimaas_and_read_back() {
        let codes: String = Reason::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(codes, "gemtirs");
        for r in Reason::ALL {
            assert_eq!(Reason::from_code(r.code()), Some(r));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.code()));
            assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), r);
        }
        assert_eq!(Reason::from_code('x'), None);
        assert!(serde_json::from_str::<Reason>("\"gg\"").is_err());
        assert!(serde_json::from_str::<Reason>("\"\"").is_err());
    }

    #[test]
    fn repetition_is_reported_as_immobilisation() {
        assert_eq!(
            Reason::from_end(EndReason::Repetition),
            Reason::Immobilization
        );
        assert_eq!(Reason::from_end(EndReason::Goal), Reason::Goal);
        assert_eq!(
            Reason::from_end(EndReason::Elimination),
            Reason::Elimination
        );
        assert!(Reason::Immobilization.decided_on_board());
        assert!(!Reason::Limit.decided_on_board());
    }
}
