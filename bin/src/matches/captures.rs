//! `tusk match captures`: where each engine's games are won and lost in material. For every
//! engine in the files, the pieces it lost and the pieces its opponents lost, a game, split
//! into rabbits and officers and into the captures at the loser's own home traps and at the
//! enemy's (a gold piece taken on c3 or f3 was lost at its own home trap), over the games it
//! won, the games it lost and all of them.
//!
//! The captures are read from the moves' capture tokens (`rc3x`), so no game is replayed.
//! Round 60 counted these by hand to find that Tusk loses most of its rabbits at sharp's home
//! traps; this is that count as a command (it gives the same numbers on those games).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Context as _, Result};
use thiserror::Error;
use tusk_engine::notation::token::Token;
use tusk_engine::{Color, Piece, PieceKind, Square};

use super::args::CapturesArgs;
use super::merge::load_finished_games;
use super::report::plural_s;
use super::state::GameJson;

/// A move token that is not valid notation, found while reading the captures of a game.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("game {id}, move {label}: {reason}")]
pub struct CapturesError {
    /// The game's id.
    pub id: u64,
    /// The label of the move holding the token (`12g`).
    pub label: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Where a piece was captured, seen from its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapSide {
    /// One of the owner's two home traps (c3 and f3 for gold, c6 and f6 for silver).
    Own = 0,
    /// One of the enemy's home traps.
    Enemy = 1,
}

impl TrapSide {
    /// The side of the trap `square` (one of the four traps) for a piece of `owner`.
    pub fn of(owner: Color, square: Square) -> TrapSide {
        if square.ranks_from_home(owner) == 2 {
            TrapSide::Own
        } else {
            TrapSide::Enemy
        }
    }
}

/// One capture of a game: the piece taken and the trap it was taken on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The captured piece.
    pub piece: Piece,
    /// The trap.
    pub square: Square,
}

/// The captures of `game`, in the order they were played (the setups, turn 1, are skipped).
pub fn game_captures(game: &GameJson) -> Result<Vec<Capture>, CapturesError> {
    let mut out = Vec::new();
    for m in &game.moves {
        let mut tokens = m.split_whitespace();
        let label = tokens.next().unwrap_or_default();
        if label.trim_end_matches(['g', 's', 'w', 'b']) == "1" {
            continue; // the setups
        }
        for t in tokens {
            match Token::parse(t) {
                Ok(Token::Capture { piece, square }) => out.push(Capture { piece, square }),
                Ok(_) => {}
                Err(e) => {
                    return Err(CapturesError {
                        id: game.id,
                        label: label.to_string(),
                        reason: e.to_string(),
                    })
                }
            }
        }
    }
    Ok(out)
}

/// Pieces lost, by kind (rabbits, officers) and by trap (the owner's own home traps, the
/// enemy's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    /// Rabbits lost at the owner's home traps and at the enemy's.
    pub rabbits: [u64; 2],
    /// Officers (every piece but a rabbit) lost at the owner's home traps and at the enemy's.
    pub officers: [u64; 2],
}

impl Losses {
    fn count(&mut self, c: Capture) {
        let side = TrapSide::of(c.piece.color(), c.square) as usize;
        if c.piece.kind() == PieceKind::Rabbit {
            self.rabbits[side] += 1;
        } else {
            self.officers[side] += 1;
        }
    }

    fn add(&mut self, other: &Losses) {
        for i in 0..2 {
            self.rabbits[i] += other.rabbits[i];
            self.officers[i] += other.officers[i];
        }
    }

    /// Every piece counted.
    pub fn total(&self) -> u64 {
        self.rabbits.iter().chain(&self.officers).sum()
    }
}

/// One engine's captures over the games it played in the files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureTally {
    /// The engine's name.
    pub engine: String,
    /// Games it won and games it lost.
    pub games: [u64; 2],
    /// The pieces it lost, in the games it won and in the games it lost.
    pub own: [Losses; 2],
    /// The pieces its opponents lost, in the games it won and in the games it lost.
    pub opponents: [Losses; 2],
}

/// Index of a game won in [`CaptureTally`]'s arrays.
pub const WON: usize = 0;
/// Index of a game lost in [`CaptureTally`]'s arrays.
pub const LOST: usize = 1;

/// The tallies of every engine met so far, by name.
#[derive(Debug, Default)]
pub struct Tallies(BTreeMap<String, CaptureTally>);

impl Tallies {
    /// Counts the captures of `game` for both its engines.
    pub fn add(&mut self, game: &GameJson) -> Result<(), CapturesError> {
        let captures = game_captures(game)?;
        for colour in Color::ALL {
            let name = game.players()[colour];
            let t = self
                .0
                .entry(name.to_string())
                .or_insert_with(|| CaptureTally {
                    engine: name.to_string(),
                    ..CaptureTally::default()
                });
            let outcome = if game.winner == colour { WON } else { LOST };
            t.games[outcome] += 1;
            for &c in &captures {
                if c.piece.color() == colour {
                    t.own[outcome].count(c);
                } else {
                    t.opponents[outcome].count(c);
                }
            }
        }
        Ok(())
    }

    /// Every engine's tally, by name.
    pub fn into_tallies(self) -> Vec<CaptureTally> {
        self.0.into_values().collect()
    }
}

/// The table of one engine's tally: per game, the pieces lost by it and by its opponents.
pub fn tally_text(t: &CaptureTally) -> String {
    let [won, lost] = t.games;
    let all_games = won + lost;
    let mut s = format!(
        "{}: {all_games} game{}, won {won}, lost {lost}\n",
        t.engine,
        plural_s(all_games as usize)
    );
    let _ = writeln!(
        s,
        "{:<32}{:>18}{:>18}",
        "pieces lost a game", "rabbits", "officers"
    );
    let _ = writeln!(
        s,
        "{:<32}{:>9}{:>9}{:>9}{:>9}{:>8}",
        "(at the loser's own/enemy traps)", "own", "enemy", "own", "enemy", "total"
    );
    let all = |l: &[Losses; 2]| {
        let mut a = l[WON];
        a.add(&l[LOST]);
        a
    };
    let rows = [
        ("by it, in its wins", t.own[WON], won),
        ("by it, in its losses", t.own[LOST], lost),
        ("by it, in all", all(&t.own), all_games),
        ("by its opponents, in its wins", t.opponents[WON], won),
        ("by its opponents, in its losses", t.opponents[LOST], lost),
        ("by its opponents, in all", all(&t.opponents), all_games),
    ];
    for (what, l, n) in rows {
        if n == 0 {
            let _ = writeln!(s, "{what:<32}{:>9}", "-");
            continue;
        }
        let per = |x: u64| x as f64 / n as f64;
        let _ = writeln!(
            s,
            "{what:<32}{:>9.2}{:>9.2}{:>9.2}{:>9.2}{:>8.2}",
            per(l.rabbits[0]),
            per(l.rabbits[1]),
            per(l.officers[0]),
            per(l.officers[1]),
            per(l.total())
        );
    }
    s
}

/// Runs `tusk match captures`.
pub(super) fn run(args: &CapturesArgs) -> Result<()> {
    let mut tallies = Tallies::default();
    let mut n = 0;
    for f in &args.files {
        for g in load_finished_games(f)? {
            tallies.add(&g).with_context(|| f.display().to_string())?;
            n += 1;
        }
    }
    let tallies = tallies.into_tallies();
    let chosen: Vec<&CaptureTally> = match &args.engine {
        // The tallies are keyed by name, so a name finds one at most.
        Some(name) => match tallies.iter().find(|t| &t.engine == name) {
            Some(t) => vec![t],
            None => {
                let names: Vec<_> = tallies.iter().map(|t| t.engine.as_str()).collect();
                anyhow::bail!(
                    "--engine {name}: no engine of that name in the files (they hold {})",
                    names.join(", ")
                );
            }
        },
        None => tallies.iter().collect(),
    };
    let files = args.files.len();
    println!(
        "{n} game{} from {files} file{}",
        plural_s(n),
        plural_s(files)
    );
    for (i, t) in chosen.iter().enumerate() {
        if i > 0 {
            println!();
        }
        print!("{}", tally_text(t));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::state::won_game;

    fn tally(games: &[GameJson]) -> Result<Vec<CaptureTally>, CapturesError> {
        let mut t = Tallies::default();
        for g in games {
            t.add(g)?;
        }
        Ok(t.into_tallies())
    }

    fn game(id: u64, winner: Color, moves: &[&str]) -> GameJson {
        GameJson {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            ..won_game(id, "tusk", "sharp", winner)
        }
    }

    const SETUPS: [&str; 2] = [
        "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2",
        "1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7",
    ];

    #[test]
    fn a_capture_is_placed_by_its_owner_and_the_trap() {
        assert_eq!(
            TrapSide::of(Color::Gold, Square::parse("c3").unwrap()),
            TrapSide::Own
        );
        assert_eq!(
            TrapSide::of(Color::Gold, Square::parse("f6").unwrap()),
            TrapSide::Enemy
        );
        assert_eq!(
            TrapSide::of(Color::Silver, Square::parse("f6").unwrap()),
            TrapSide::Own
        );
        assert_eq!(
            TrapSide::of(Color::Silver, Square::parse("c3").unwrap()),
            TrapSide::Enemy
        );
    }

    #[test]
    fn captures_are_read_from_the_tokens_and_setups_carry_none() {
        let g = game(
            0,
            Color::Gold,
            &[SETUPS[0], "1s x", "2g Ee2n Ee3n", "2s rc6x Hc5n", "3g Rc3x"],
        );
        let c = game_captures(&g).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].piece.to_string(), "r");
        assert_eq!(c[0].square, Square::parse("c6").unwrap());
        assert_eq!(c[1].piece.to_string(), "R");
    }

    #[test]
    fn a_bad_token_names_the_game_and_the_move() {
        let g = game(7, Color::Gold, &[SETUPS[0], SETUPS[1], "2g Ee2n Zz9q"]);
        let e = game_captures(&g).unwrap_err();
        assert_eq!(e.id, 7);
        assert_eq!(e.label, "2g");
        assert!(e.to_string().starts_with("game 7, move 2g: "), "{e}");
    }

    #[test]
    fn each_engine_counts_its_losses_and_its_opponents_by_outcome() {
        // Game 0, tusk (gold) wins: silver loses a rabbit at its own trap c6 and a horse at
        // gold's trap f3; gold loses a rabbit at silver's trap f6.
        // Game 1, tusk (gold) loses: gold loses a camel at its own trap c3.
        let games = [
            game(
                0,
                Color::Gold,
                &[SETUPS[0], SETUPS[1], "2g rc6x", "2s Rf6x", "3g hf3x"],
            ),
            game(1, Color::Silver, &[SETUPS[0], SETUPS[1], "2g Mc3x"]),
        ];
        let t = tally(&games).unwrap();
        assert_eq!(t.len(), 2);
        let (sharp, tusk) = (&t[0], &t[1]);
        assert_eq!(
            (sharp.engine.as_str(), tusk.engine.as_str()),
            ("sharp", "tusk")
        );
        assert_eq!(tusk.games, [1, 1]);
        assert_eq!(sharp.games, [1, 1]);
        // Tusk's own losses: in its win a rabbit at the enemy's trap; in its loss a camel at
        // its own trap.
        assert_eq!(
            tusk.own[WON],
            Losses {
                rabbits: [0, 1],
                officers: [0, 0]
            }
        );
        assert_eq!(
            tusk.own[LOST],
            Losses {
                rabbits: [0, 0],
                officers: [1, 0]
            }
        );
        // Its opponent's losses in its win: a rabbit at silver's own trap, a horse at gold's.
        assert_eq!(
            tusk.opponents[WON],
            Losses {
                rabbits: [1, 0],
                officers: [0, 1]
            }
        );
        assert_eq!(tusk.opponents[LOST], Losses::default());
        // sharp's view is the mirror: its loss is tusk's win.
        assert_eq!(sharp.own[LOST], tusk.opponents[WON]);
        assert_eq!(sharp.opponents[WON], tusk.own[LOST]);
        let text = tally_text(tusk);
        assert!(text.starts_with("tusk: 2 games, won 1, lost 1\n"), "{text}");
        let numbers = |row: &str| -> Vec<String> {
            let line = text.lines().find(|l| l.starts_with(row)).unwrap();
            line[row.len()..]
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        assert_eq!(
            numbers("by it, in all"),
            ["0.00", "0.50", "0.50", "0.00", "1.00"]
        );
        assert_eq!(
            numbers("by its opponents, in its wins"),
            ["1.00", "0.00", "0.00", "1.00", "2.00"]
        );
    }
}
