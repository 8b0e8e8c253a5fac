//! Setups: a random legal one, and a sound seeded default in the spirit of the 99of9 setup.

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

/// A sound setup for `color`, varied by `seed`: six rabbits on the back rank and one on each
/// flank of the front rank, elephant and camel in the two centre files of the front rank,
/// horses beside them, cats or dogs (by seed) directly behind the home traps and the others
/// in the back centre. When silver sets up after gold (`opponent` is the board with gold's
/// pieces), silver's elephant avoids the file of gold's elephant.
pub fn default_setup(color: Color, seed: u64, opponent: Option<&Position>) -> Setup {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let (front, back) = match color {
        Color::Gold => (1u8, 0u8),
        Color::Silver => (6u8, 7u8),
    };
    let mut e_file = if rng.gen_bool(0.5) { 3u8 } else { 4 };
    if let Some(opp) = opponent {
        if let Some(e) = opp.pieces_of(!color, PieceKind::Elephant).first() {
            if e.file() == e_file {
                e_file = 7 - e_file;
            }
        }
    }
    let m_file = 7 - e_file;
    let (trap_guard, centre_back) = if rng.gen_bool(0.5) {
        (PieceKind::Cat, PieceKind::Dog)
    } else {
        (PieceKind::Dog, PieceKind::Cat)
    };
    let p = |k| Piece::new(color, k);
    let mut placements = vec![
        (p(PieceKind::Elephant), Square::new(e_file, front)),
        (p(PieceKind::Camel), Square::new(m_file, front)),
        (p(PieceKind::Horse), Square::new(1, front)),
        (p(PieceKind::Horse), Square::new(6, front)),
        (p(trap_guard), Square::new(2, front)),
        (p(trap_guard), Square::new(5, front)),
        (p(centre_back), Square::new(3, back)),
        (p(centre_back), Square::new(4, back)),
        (p(PieceKind::Rabbit), Square::new(0, front)),
        (p(PieceKind::Rabbit), Square::new(7, front)),
    ];
    for f in [0u8, 1, 2, 5, 6, 7] {
        placements.push((p(PieceKind::Rabbit), Square::new(f, back)));
    }
    placements.sort_by_key(|&(_, sq)| (sq.rank() != back, sq.file()));
    Setup::new(
        placements
            .into_iter()
            .map(|(piece, square)| Placement { piece, square })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::turn::check_setup;

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

    #[test]
    fn default_setups_are_legal_and_seeded() {
        for seed in 0..20 {
            for c in Color::ALL {
                let s = default_setup(c, seed, None);
                check_setup(c, &s, &Position::empty(c)).unwrap();
                assert_eq!(s, default_setup(c, seed, None));
            }
        }
        let a: Vec<_> = (0..20)
            .map(|s| default_setup(Color::Gold, s, None))
            .collect();
        assert!(a.iter().any(|s| *s != a[0]), "the seed must vary the setup");
    }

    #[test]
    fn default_setup_keeps_rabbits_back_and_elephant_central() {
        let s = default_setup(Color::Gold, 3, None);
        let back_rabbits = s
            .placements()
            .iter()
            .filter(|p| p.piece.kind() == PieceKind::Rabbit && p.square.rank() == 0)
            .count();
        assert_eq!(back_rabbits, 6);
        let e = s
            .placements()
            .iter()
            .find(|p| p.piece.kind() == PieceKind::Elephant)
            .unwrap();
        assert!(e.square.file() == 3 || e.square.file() == 4);
    }
}
