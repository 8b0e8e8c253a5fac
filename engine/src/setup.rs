//! Setups: a random legal one, and Tusk's own sound seeded setup (the one it plays).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::{Color, Piece, PieceKind, Placement, Position, Setup, Square};

/// The 16 pieces of a side, strongest first.
fn army(color: Color) -> Vec<Piece> {
    let mut v = Vec::with_capacity(16);
    for k in PieceKind::ALL.iter().rev() {
        for _ in 0..k.initial_count() {
            v.push(Piece::new(color, *k));
        }
    }
    v
}

/// The 16 home squares of a side: ranks 1-2 for gold, 7-8 for silver.
fn home_squares(color: Color) -> Vec<Square> {
    let ranks = match color {
        Color::Gold => [0u8, 1],
        Color::Silver => [7, 6],
    };
    ranks
        .iter()
        .flat_map(|&r| (0..8).map(move |f| Square::new(f, r)))
        .collect()
}

/// A uniformly random legal setup for `color`.
pub fn random_setup<R: Rng + ?Sized>(color: Color, rng: &mut R) -> Setup {
    let mut squares = home_squares(color);
    squares.shuffle(rng);
    Setup::new(
        army(color)
            .into_iter()
            .zip(squares)
            .map(|(piece, square)| Placement { piece, square })
            .collect(),
    )
}

/// Tusk's own setup for `color`, chosen by `seed`: a balanced arrangement of the kind strong
/// players use. `board` is the board it is placed on (gold's pieces are on it when silver
/// sets up; an empty board otherwise).
///
/// Every choice has the elephant and camel side by side on the two centre files of the front
/// rank, a horse on the b- and g-files of the front rank (guarding the key squares b3/g3 or
/// b6/g6), a cat or a dog directly behind each home trap and the other two in the centre of
/// the back rank, rabbits on the wings of the front rank and the six remaining back squares.
/// The seed picks which centre file the elephant takes and, independently for each wing,
/// whether a cat or a dog guards its trap: eight setups, all sound. Silver sets up knowing
/// gold's setup and keeps its camel away from gold's elephant: its elephant takes the centre
/// file nearer gold's elephant.
pub fn default_setup(color: Color, seed: u64, board: &Position) -> Setup {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut elephant_file: u8 = if rng.gen_bool(0.5) { 3 } else { 4 };
    let guards = [rng.gen_bool(0.5), rng.gen_bool(0.5)].map(|cat| {
        if cat {
            (PieceKind::Cat, PieceKind::Dog)
        } else {
            (PieceKind::Dog, PieceKind::Cat)
        }
    });
    if let Some(enemy) = board.pieces_of(!color, PieceKind::Elephant).first() {
        // The centre file nearer the enemy elephant; on a tie the seed's choice stands.
        let distance = |f: u8| f.abs_diff(enemy.file());
        if distance(3) != distance(4) {
            elephant_file = if distance(3) < distance(4) { 3 } else { 4 };
        }
    }
    let (front, back) = match color {
        Color::Gold => (1u8, 0u8),
        Color::Silver => (6u8, 7u8),
    };
    let p = |kind| Piece::new(color, kind);
    let mut pieces = vec![
        (p(PieceKind::Elephant), Square::new(elephant_file, front)),
        (p(PieceKind::Camel), Square::new(7 - elephant_file, front)),
        (p(PieceKind::Horse), Square::new(1, front)),
        (p(PieceKind::Horse), Square::new(6, front)),
        (p(guards[0].0), Square::new(2, front)),
        (p(guards[1].0), Square::new(5, front)),
        (p(guards[0].1), Square::new(3, back)),
        (p(guards[1].1), Square::new(4, back)),
        (p(PieceKind::Rabbit), Square::new(0, front)),
        (p(PieceKind::Rabbit), Square::new(7, front)),
    ];
    for file in [0u8, 1, 2, 5, 6, 7] {
        pieces.push((p(PieceKind::Rabbit), Square::new(file, back)));
    }
    // Written rank by rank from the back, a to h, as people write setups.
    pieces.sort_by_key(|&(_, sq)| (sq.rank() != back, sq.file()));
    Setup::new(
        pieces
            .into_iter()
            .map(|(piece, square)| Placement { piece, square })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::turn::check_setup;
    use crate::Game;
    use std::collections::HashSet;

    #[test]
    fn random_setups_are_legal() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..200 {
            for c in Color::ALL {
                let s = random_setup(c, &mut rng);
                check_setup(c, &s, &Position::empty(c)).unwrap();
            }
        }
    }

    fn square_of(s: &Setup, kind: PieceKind) -> Vec<Square> {
        s.placements()
            .iter()
            .filter(|p| p.piece.kind() == kind)
            .map(|p| p.square)
            .collect()
    }

    #[test]
    fn legal_for_both_colours_and_varied() {
        let mut seen = HashSet::new();
        for seed in 0..64 {
            let mut game = Game::new();
            let gold = default_setup(Color::Gold, seed, game.position());
            check_setup(Color::Gold, &gold, game.position()).unwrap();
            game.play_text(&gold.to_string()).unwrap();
            let silver = default_setup(Color::Silver, seed, game.position());
            check_setup(Color::Silver, &silver, game.position()).unwrap();
            game.play_text(&silver.to_string()).unwrap();
            seen.insert(gold.to_string());
            assert_eq!(
                default_setup(Color::Gold, seed, &Position::empty(Color::Gold)),
                gold
            );
        }
        assert_eq!(seen.len(), 8, "all eight gold setups occur");
    }

    #[test]
    fn sound_shape() {
        for seed in 0..16 {
            let s = default_setup(Color::Gold, seed, &Position::empty(Color::Gold));
            let e = square_of(&s, PieceKind::Elephant)[0];
            let m = square_of(&s, PieceKind::Camel)[0];
            assert!(e.rank() == 1 && (e.file() == 3 || e.file() == 4));
            assert!(m.rank() == 1 && m.file() + e.file() == 7);
            let horses: Vec<_> = square_of(&s, PieceKind::Horse)
                .iter()
                .map(|q| (q.file(), q.rank()))
                .collect();
            assert_eq!(horses, vec![(1, 1), (6, 1)]);
            // Something stands behind each home trap, and no rabbit on c2 or f2.
            for f in [2u8, 5] {
                let k = s
                    .placements()
                    .iter()
                    .find(|p| p.square == Square::new(f, 1))
                    .unwrap()
                    .piece
                    .kind();
                assert!(matches!(k, PieceKind::Cat | PieceKind::Dog));
            }
            let back_rabbits = square_of(&s, PieceKind::Rabbit)
                .iter()
                .filter(|q| q.rank() == 0)
                .count();
            assert_eq!(back_rabbits, 6);
        }
    }

    #[test]
    fn silver_keeps_its_camel_away_from_golds_elephant() {
        for seed in 0..32 {
            let mut game = Game::new();
            let gold = default_setup(Color::Gold, seed, game.position());
            let gold_e = square_of(&gold, PieceKind::Elephant)[0];
            game.play_text(&gold.to_string()).unwrap();
            let silver = default_setup(Color::Silver, seed + 1000, game.position());
            let silver_e = square_of(&silver, PieceKind::Elephant)[0];
            let silver_m = square_of(&silver, PieceKind::Camel)[0];
            assert_eq!(silver_e.file(), gold_e.file(), "seed {seed}");
            assert_ne!(silver_m.file(), gold_e.file(), "seed {seed}");
            assert_eq!(silver_e.rank(), 6);
        }
    }
}
