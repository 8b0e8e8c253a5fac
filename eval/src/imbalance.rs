//! Imbalance: a side's strongest pieces bunched on one wing. Two measures, both penalties:
//!
//! * **Elephant and camel together** (`imbalance_camel`). For each piece of the side's
//!   strongest kind below the elephant (its camel, or what stands in for it), an
//!   elephant-to-camel distance: by files (1 when both stand on the same outer files, up to 13
//!   on opposite wings) plus by ranks advanced (0 when both are home, up to 8 when one has run
//!   far ahead). The penalty is `base(camel square) × closeness(distance) × 3 / 256`
//!   millirabbits, where `base` is 80 to 230 (largest for an advanced camel, where it is most
//!   needed on the other wing) and `closeness` falls from 69 at 0 to 0 at 17: a camel beside
//!   its own elephant leaves the other wing to the enemy. Two such pieces halve the sum.
//! * **A weak wing** (`imbalance_wings`). Each wing (west: files a-d, east: e-h) gets a
//!   strength: the elephant's and each of the next three ranks' pieces' contribution, by a
//!   factor per rank that depends on how many pieces the first two ranks have, times how near
//!   the piece stands to the wing (64 on the wing's outer files, falling towards the other;
//!   it counts less far forward or back, frozen, or behind the enemy elephant). A wing's
//!   penalty falls from 480 millirabbits at strength 0 to 0 at 31; the two penalties are
//!   added and scaled by 1/2 when the side has no horse-level pieces left.
//!
//! Features, for the side itself: minus each penalty in rabbits (millirabbits / 1000), so a
//! weight of 100 counts them as sharp does. The weights ship at 0 for the tuner.
//!
//! The idea and the numbers come from sharp's `Placement::getImbalanceScore` (David Wu); the
//! code here is Tusk's own.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square};

use crate::alignment::{advanced, elephants};
use crate::weights::id;
use crate::Sink;

/// Elephant-to-camel distance by files: `[elephant file][camel file]`.
const FILE_DISTANCE: [[i32; 8]; 8] = [
    [1, 2, 5, 7, 10, 12, 13, 13],
    [1, 2, 5, 7, 10, 12, 13, 13],
    [3, 3, 4, 7, 9, 11, 12, 12],
    [5, 5, 5, 5, 7, 9, 9, 9],
    [9, 9, 9, 7, 5, 5, 5, 5],
    [12, 12, 11, 7, 7, 4, 3, 3],
    [13, 13, 12, 10, 7, 5, 2, 1],
    [13, 13, 12, 10, 7, 5, 2, 1],
];

/// Elephant-to-camel distance by ranks advanced: `[elephant][camel]`.
const RANK_DISTANCE: [[i32; 8]; 8] = [
    [0, 1, 2, 4, 5, 7, 8, 8],
    [0, 1, 2, 4, 5, 7, 8, 8],
    [0, 1, 2, 4, 5, 7, 8, 8],
    [2, 3, 4, 3, 4, 5, 6, 6],
    [4, 5, 6, 5, 4, 3, 3, 3],
    [5, 6, 7, 6, 5, 3, 3, 3],
    [5, 6, 7, 6, 5, 3, 2, 2],
    [5, 6, 7, 6, 5, 3, 2, 1],
];

/// Closeness by that distance (0 from 17 on).
const CLOSENESS: [i32; 25] = [
    69, 69, 68, 66, 64, 62, 57, 52, 46, 40, 34, 28, 22, 16, 11, 7, 3, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// The camel's base penalty by `[ranks advanced][file]`, millirabbits.
const CAMEL_BASE: [[i32; 8]; 8] = [
    [110, 100, 90, 80, 80, 90, 100, 110],
    [110, 100, 90, 80, 80, 90, 100, 110],
    [110, 100, 90, 80, 80, 90, 100, 110],
    [150, 140, 120, 110, 110, 120, 140, 150],
    [180, 170, 150, 150, 150, 150, 170, 180],
    [220, 210, 190, 210, 210, 190, 210, 220],
    [220, 220, 220, 230, 230, 220, 220, 220],
    [220, 210, 210, 210, 210, 210, 210, 220],
];

/// A piece's contribution to a wing in 64ths, by difficulty (0 .. 4) and by files from the
/// wing's outer edge.
const WING_FACTOR: [[i32; 8]; 5] = [
    [64, 64, 58, 44, 28, 16, 10, 4],
    [64, 64, 57, 42, 26, 13, 6, 0],
    [64, 64, 56, 40, 24, 10, 2, 0],
    [64, 64, 55, 38, 21, 8, 0, 0],
    [64, 64, 54, 36, 18, 6, 0, 0],
];

/// The difficulty of reaching a wing by ranks advanced.
const DIFFICULTY: [usize; 8] = [2, 1, 0, 0, 0, 2, 2, 3];

/// Each rank's weight on the wings (`[elephant, first, second, third]`), by the mode: the
/// first rank's count plus three times the second's.
const RANK_WEIGHT: [[i32; 4]; 9] = [
    [44, 0, 0, 0],
    [30, 30, 0, 0],
    [16, 30, 0, 0],
    [0, 0, 0, 0],
    [7, 28, 23, 2],
    [6, 28, 10, 0],
    [0, 0, 0, 0],
    [6, 28, 22, 0],
    [6, 28, 5, 0],
];

/// The wings' penalty scale in 64ths, by the mode.
const WING_SCALE: [i32; 9] = [32, 32, 32, 0, 64, 64, 0, 64, 64];

/// A wing's penalty by its strength (0 from 31 on), millirabbits.
const WING_PENALTY: [i32; 32] = [
    480, 470, 460, 450, 440, 430, 425, 410, 395, 380, 355, 330, 305, 280, 255, 230, 205, 180, 160,
    140, 120, 100, 85, 70, 55, 40, 30, 20, 15, 10, 5, 0,
];

/// The side's three strongest kinds below the elephant that it has, strongest first, as
/// bitboards of their pieces (empty where it has fewer kinds).
pub(crate) fn ranks_below_elephant(pos: &Position, c: Color) -> [Bitboard; 3] {
    let mut ranks = [Bitboard::EMPTY; 3];
    let mut n = 0;
    for kind in [
        PieceKind::Camel,
        PieceKind::Horse,
        PieceKind::Dog,
        PieceKind::Cat,
    ] {
        let b = pos.pieces_of(c, kind);
        if b.any() && n < 3 {
            ranks[n] = b;
            n += 1;
        }
    }
    ranks
}

/// The elephant-and-camel penalty of `c`, millirabbits.
pub fn camel_penalty(c: Color, elephant: Square, camels: Bitboard) -> i32 {
    let (ef, ea) = (usize::from(elephant.file()), advanced(c, elephant));
    let mut sum = 0;
    for m in camels {
        let (mf, ma) = (usize::from(m.file()), advanced(c, m));
        let d = FILE_DISTANCE[ef][mf] + RANK_DISTANCE[ea][ma];
        sum += CAMEL_BASE[ma][mf] * CLOSENESS[d as usize] * 3 / 256;
    }
    if camels.count() >= 2 {
        sum /= 2;
    }
    sum
}

/// How much a piece of `c` on `sq` counts towards wing `wing` (0 west, 1 east), in 64ths,
/// with the enemy elephant on `enemy_elephant`.
fn wing_factor(pos: &Position, c: Color, sq: Square, enemy_elephant: Square, wing: usize) -> i32 {
    let (x, y) = (i32::from(sq.file()), i32::from(sq.rank()));
    let (ex, ey) = (
        i32::from(enemy_elephant.file()),
        i32::from(enemy_elephant.rank()),
    );
    let target = wing as i32 * 5 + 1;
    let between = (ex - target) * (ex - x) < 0;
    let mut difficulty = DIFFICULTY[advanced(c, sq)];
    if between && y == ey {
        difficulty = 4;
    } else if pos.is_frozen(sq) || (between && (y - ey).abs() <= 1) {
        difficulty += 1;
    }
    let from_edge = if wing == 0 { x } else { 7 - x };
    WING_FACTOR[difficulty][from_edge as usize]
}

/// The weak-wing penalty of `c`, millirabbits.
pub fn wings_penalty(pos: &Position, c: Color, elephant: Square, enemy_elephant: Square) -> i32 {
    wings_penalty_of(
        pos,
        c,
        ranks_below_elephant(pos, c),
        elephant,
        enemy_elephant,
    )
}

/// [`wings_penalty`] with the side's ranks below the elephant already found.
fn wings_penalty_of(
    pos: &Position,
    c: Color,
    ranks: [Bitboard; 3],
    elephant: Square,
    enemy_elephant: Square,
) -> i32 {
    let mode = ranks[0].count() as usize + 3 * ranks[1].count() as usize;
    let mode = mode.min(8);
    let weights = RANK_WEIGHT[mode];
    let ef = usize::from(elephant.file());
    let mut strength = [
        weights[0] * WING_FACTOR[0][ef],
        weights[0] * WING_FACTOR[0][7 - ef],
    ];
    for (rank, &weight) in ranks.iter().zip(&weights[1..]) {
        if weight == 0 {
            continue;
        }
        for sq in *rank {
            for (wing, s) in strength.iter_mut().enumerate() {
                *s += weight * wing_factor(pos, c, sq, enemy_elephant, wing);
            }
        }
    }
    let penalty = |s: i32| WING_PENALTY[((s >> 6) as usize).min(WING_PENALTY.len() - 1)];
    ((penalty(strength[0]) + penalty(strength[1])) * WING_SCALE[mode]) >> 6
}

/// The imbalance features of both sides (see the module docs). Nothing is computed when the
/// sink wants neither.
pub fn imbalance_features<S: Sink>(pos: &Position, sink: &mut S) {
    let (camel, wings) = (
        sink.wants(id::imbalance_camel),
        sink.wants(id::imbalance_wings),
    );
    if !camel && !wings {
        return;
    }
    let Some(elephants) = elephants(pos) else {
        return;
    };
    for c in Color::ALL {
        let (elephant, enemy_elephant) = (elephants[c], elephants[!c]);
        let ranks = ranks_below_elephant(pos, c);
        if camel {
            let p = camel_penalty(c, elephant, ranks[0]);
            if p != 0 {
                sink.add_share(c, id::imbalance_camel, -p, 1000);
            }
        }
        if wings {
            let p = wings_penalty_of(pos, c, ranks, elephant, enemy_elephant);
            if p != 0 {
                sink.add_share(c, id::imbalance_wings, -p, 1000);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{features, Features, Weights};

    fn get(f: &Features, c: Color, p: crate::Param) -> f64 {
        f.values[p.index()][c.index()]
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A camel beside its elephant on one wing is penalised; on the other wing it is not,
    /// and an advanced camel beside the elephant is penalised more than one at home.
    #[test]
    fn elephant_and_camel_on_one_wing_are_penalised() {
        let camels = |s: &str| Bitboard::from_square(sq(s));
        let p = pos("g", &[("E", "b1"), ("M", "a1"), ("e", "d8")]);
        let together = camel_penalty(Color::Gold, sq("b1"), camels("a1"));
        let apart = camel_penalty(Color::Gold, sq("b1"), camels("h4"));
        let advanced = camel_penalty(Color::Gold, sq("b6"), camels("a6"));
        // Files 1 + ranks 0: closeness 69, base 110 on a1.
        assert_eq!(together, 110 * 69 * 3 / 256);
        assert_eq!(apart, 0);
        assert!(advanced > together, "{advanced} {together}");
        let f = features(&p, &Weights::hand_set());
        assert_eq!(
            get(&f, Color::Gold, id::imbalance_camel),
            -f64::from(together) / 1000.0
        );
    }

    /// An army spread over both wings has a smaller wing penalty than the same army on one.
    #[test]
    fn a_side_with_both_wings_covered_is_penalised_less() {
        let spread = pos(
            "g",
            &[
                ("E", "d2"),
                ("M", "g2"),
                ("H", "b2"),
                ("H", "g3"),
                ("e", "d7"),
            ],
        );
        let bunched = pos(
            "g",
            &[
                ("E", "d2"),
                ("M", "a2"),
                ("H", "b2"),
                ("H", "c2"),
                ("e", "d7"),
            ],
        );
        let spread_penalty = wings_penalty(&spread, Color::Gold, sq("d2"), sq("d7"));
        let bunched_penalty = wings_penalty(&bunched, Color::Gold, sq("d2"), sq("d7"));
        assert!(
            spread_penalty < bunched_penalty,
            "{spread_penalty} {bunched_penalty}"
        );
        // Behind the enemy elephant on its rank, a piece counts as hardest to bring over.
        let p = pos("g", &[("E", "a1"), ("M", "a4"), ("e", "d4")]);
        assert_eq!(wing_factor(&p, Color::Gold, sq("a4"), sq("d4"), 1), 0);
        assert_eq!(wing_factor(&p, Color::Gold, sq("a4"), sq("d4"), 0), 64);
    }

    /// Mirrored colours give mirrored features; the tuner sees them at zero weights.
    #[test]
    fn colours_mirror_exactly() {
        let w = Weights::hand_set();
        let mut seen = 0;
        for p in [
            crate::test_util::opening(),
            crate::test_util::seed_diagram("g"),
        ] {
            let f = features(&p, &w);
            let m = features(&p.flip(), &w);
            for param in [id::imbalance_camel, id::imbalance_wings] {
                for c in Color::ALL {
                    assert_eq!(get(&f, c, param), get(&m, !c, param));
                    seen += usize::from(get(&f, c, param) != 0.0);
                }
            }
        }
        assert!(seen >= 2, "{seen}");
    }
}
