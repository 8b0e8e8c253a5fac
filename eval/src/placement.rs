//! Piece placement: where each piece belongs, by how many enemy pieces outrank it.
//!
//! A piece's *strength class* is the number of enemy pieces stronger than it, capped at 3
//! (class 0: nothing outranks it, the elephant or a piece whose stronger enemies are all
//! captured; 1: a camel facing the enemy elephant; 2; 3 or more); rabbits are class 4 whatever
//! outranks them. Each class has its own piece-square table over 32 squares: the rank counted
//! from the piece's own home rank (so silver's squares are mirrored) times 4, plus the file
//! folded left-right (0 = a or h .. 3 = d or e). The tables are weights in centirabbits,
//! `placement.<class>.<square>` (see [`square_index`]).
//!
//! Features: per side, the number of its pieces of each class on each square (whole counts,
//! no rounding), for `placement`. One indexed load and add per piece.

use tusk_engine::{Color, PieceKind, Position, Square};

use crate::weights::id;
use crate::{Context, Sink};

/// Number of strength classes: four for officers, one for rabbits.
pub const CLASSES: usize = 5;

/// Number of squares of a table: 8 ranks × 4 folded files.
pub const SQUARES: usize = 32;

/// The class of rabbits.
pub const RABBIT_CLASS: usize = 4;

/// sharp's piece-square tables (`eval/piecesquare.cpp`, `PIECETABLES` and `RABBITTABLE`),
/// in [`id::placement`]'s layout: × 2.5 millirabbits = / 4 centirabbits, folded left-right;
/// class 3 is the mean of its full-army dog and cat tables. A prior for the tuner (see
/// [`crate::Weights::with_sharp_priors`]); the shipped set carries them.
#[rustfmt::skip]
pub const SHARP_TABLES: [i32; CLASSES * SQUARES] = [
    -113, -88, -63, -45,  -40, -33, -24, -18,  -23, -11, 0, 0,  -15, -1, 4, 6,
    -15, 2, 9, 9,  -23, -18, -3, 9,  -45, -35, -29, -18,  -113, -88, -63, -45,
    -38, -20, -18, -13,  -9, -4, -3, -3,  -1, 1, 0, 0,  0, 1, 1, 0,
    2, 4, 3, 0,  2, 6, 3, -1,  0, 1, 5, -1,  -13, -6, -4, -4,
    -38, -23, -20, -15,  -9, -4, -3, -3,  -5, 3, -1, 1,  0, 3, 3, 1,
    1, 6, 5, 3,  4, 13, 4, 3,  0, 6, 10, 4,  -10, -4, -4, -4,
    -16, -12, -9, -6,  -3, -1, 1, -1,  -1, 2, 0, 1,  0, 2, 2, 1,
    1, 2, 2, 1,  1, 2, 0, 0,  -1, -1, 1, -1,  -5, -3, -3, -3,
    0, 0, 0, 0,  1, 0, 2, -2,  1, 1, -3, -2,  2, 1, -1, -3,
    2, 1, -2, -4,  3, 2, -3, -6,  3, 3, -3, 0,  0, 0, 0, 0,
];

/// The strength class of a piece of `kind` of `color`: the number of enemy pieces stronger
/// than it, at most 3, or [`RABBIT_CLASS`] for a rabbit.
#[inline]
pub fn strength_class(ctx: &Context, color: Color, kind: PieceKind) -> usize {
    if kind == PieceKind::Rabbit {
        RABBIT_CLASS
    } else {
        usize::from(ctx.stronger[color][kind.index()]).min(3)
    }
}

/// The table column of a piece of `color` on `sq`: its rank counted from its own home rank ×
/// 4, plus its file folded left-right (a and h are 0, d and e are 3).
#[inline]
pub const fn square_index(color: Color, sq: Square) -> usize {
    let rank = sq.ranks_from_home(color);
    let file = sq.file();
    let folded = if file < 4 { file } else { 7 - file };
    rank as usize * 4 + folded as usize
}

/// The placement features: each piece of each side counts 1 for its class and square.
pub fn placement_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    for c in Color::ALL {
        for kind in PieceKind::ALL {
            let class = strength_class(ctx, c, kind);
            for sq in pos.pieces_of(c, kind) {
                sink.add(c, id::placement.at(class, square_index(c, sq)), 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};
    use crate::{FeatureSink, ScoreSink, Weights};
    use tusk_engine::ByColor;

    /// The term with sharp's tables.
    fn term(p: &Position) -> ByColor<i32> {
        let w = Weights::hand_set().with_sharp_priors();
        let mut sink = ScoreSink::new(&w);
        placement_features(p, &Context::new(p, &w), &mut sink);
        sink.totals()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn squares_fold_left_right_and_mirror_for_silver() {
        assert_eq!(square_index(Color::Gold, sq("a1")), 0);
        assert_eq!(square_index(Color::Gold, sq("h1")), 0);
        assert_eq!(square_index(Color::Gold, sq("d1")), 3);
        assert_eq!(square_index(Color::Gold, sq("e1")), 3);
        assert_eq!(square_index(Color::Gold, sq("c3")), 2 * 4 + 2);
        assert_eq!(square_index(Color::Gold, sq("f8")), 7 * 4 + 2);
        assert_eq!(square_index(Color::Silver, sq("c6")), 2 * 4 + 2);
        assert_eq!(square_index(Color::Silver, sq("a8")), 0);
        for s in Square::all() {
            assert_eq!(
                square_index(Color::Gold, s),
                square_index(Color::Silver, s.flip_rank())
            );
            assert!(square_index(Color::Gold, s) < SQUARES);
        }
    }

    #[test]
    fn classes_count_the_stronger_enemy_pieces() {
        let w = Weights::hand_set();
        let p = opening();
        let ctx = Context::new(&p, &w);
        let class = |k| strength_class(&ctx, Color::Gold, k);
        assert_eq!(class(PieceKind::Elephant), 0);
        assert_eq!(class(PieceKind::Camel), 1);
        assert_eq!(class(PieceKind::Horse), 2);
        assert_eq!(class(PieceKind::Dog), 3);
        assert_eq!(class(PieceKind::Cat), 3);
        assert_eq!(class(PieceKind::Rabbit), RABBIT_CLASS);
        // With the silver elephant gone, the gold camel is top of the board: class 0.
        let q = pos(
            "g",
            &[
                ("M", "d4"),
                ("E", "e2"),
                ("m", "d6"),
                ("R", "a2"),
                ("r", "a7"),
            ],
        );
        let ctx = Context::new(&q, &w);
        assert_eq!(strength_class(&ctx, Color::Gold, PieceKind::Camel), 0);
        assert_eq!(strength_class(&ctx, Color::Silver, PieceKind::Camel), 1);
    }

    #[test]
    fn every_piece_is_one_feature_at_its_class_and_square() {
        let w = Weights::hand_set();
        let p = opening();
        let mut sink = FeatureSink::new(&w, Color::Gold);
        placement_features(&p, &Context::new(&p, &w), &mut sink);
        let f = sink.features;
        let at = |class, square| f.values[id::placement.at(class, square).index()];
        // Gold's elephant on e2 and silver's on e7: class 0, rank 1, file d/e.
        assert_eq!(at(0, 4 + 3), [1.0, 1.0]);
        // Eight rabbits each: six on the home rank (a, b, c, f, g, h), two on rank 2.
        assert_eq!(at(RABBIT_CLASS, 0), [2.0, 2.0]);
        assert_eq!(at(RABBIT_CLASS, 2), [2.0, 2.0]);
        assert_eq!(at(RABBIT_CLASS, 4), [2.0, 2.0]);
        let total: f64 = (0..CLASSES * SQUARES)
            .map(|i| f.values[id::placement.start as usize + i][0])
            .sum();
        assert_eq!(total, 16.0);
        // The opening is symmetric: no placement advantage.
        let t = term(&p);
        assert_eq!(t[Color::Gold], t[Color::Silver]);
    }

    #[test]
    fn the_elephant_belongs_in_the_centre_not_in_a_corner() {
        let base = [("R", "a2"), ("r", "h7"), ("e", "d5")];
        let centre = pos("g", &[base[0], base[1], base[2], ("E", "d4")]);
        let corner = pos("g", &[base[0], base[1], base[2], ("E", "a1")]);
        let home = pos("g", &[base[0], base[1], base[2], ("E", "d1")]);
        let (c, k, h) = (
            term(&centre)[Color::Gold],
            term(&corner)[Color::Gold],
            term(&home)[Color::Gold],
        );
        assert!(c > h && h > k, "centre {c}, back rank {h}, corner {k}");
    }

    #[test]
    fn horses_like_the_outposts_beside_the_enemy_traps() {
        // A gold horse (class 2: the silver elephant and camel outrank it) on b6, beside
        // silver's c6 trap, against the same horse at home on b2.
        let base = [
            ("R", "a2"),
            ("r", "h7"),
            ("E", "e4"),
            ("e", "e5"),
            ("m", "g8"),
        ];
        let with = |s| {
            let mut v = base.to_vec();
            v.push(("H", s));
            pos("g", &v)
        };
        assert!(term(&with("b6"))[Color::Gold] > term(&with("b2"))[Color::Gold]);
    }

    #[test]
    fn the_same_piece_scores_alike_on_mirrored_squares() {
        // Left-right: c4 and f4; colours: gold on c4 and silver on c5.
        let g = |s| pos("g", &[("R", "a2"), ("r", "a7"), ("E", s), ("e", "h8")]);
        assert_eq!(term(&g("c4"))[Color::Gold], term(&g("f4"))[Color::Gold]);
        let s = pos("g", &[("R", "a2"), ("r", "a7"), ("e", "c5"), ("E", "h1")]);
        assert_eq!(term(&s)[Color::Silver], term(&g("c4"))[Color::Gold]);
    }

    #[test]
    fn the_hand_set_tables_are_zero_and_the_priors_are_sharps() {
        // The shipped tables start from these priors (weights.rs pins the shipped set).
        let hand = Weights::hand_set();
        let priors = Weights::hand_set().with_sharp_priors();
        let shipped = Weights::default();
        for i in 0..CLASSES * SQUARES {
            assert_eq!(hand[entry(i)], 0);
            assert_eq!(priors[entry(i)], SHARP_TABLES[i]);
        }
        let p = pos("g", &[("E", "a1"), ("e", "d5"), ("R", "a2"), ("r", "h7")]);
        let mut sink = ScoreSink::new(&hand);
        placement_features(&p, &Context::new(&p, &hand), &mut sink);
        assert_eq!(sink.totals(), ByColor([0, 0]));
        // With sharp's tables the elephant in the corner stands worse than the centralised one.
        let mut sink = ScoreSink::new(&shipped);
        placement_features(&p, &Context::new(&p, &shipped), &mut sink);
        let t = sink.totals();
        assert!(t[Color::Gold] < t[Color::Silver], "{t:?}");
    }

    fn entry(i: usize) -> crate::Param {
        id::placement.at(i / SQUARES, i % SQUARES)
    }

    #[test]
    fn a_rabbit_counts_in_the_rabbit_class_and_officers_change_class_with_captures() {
        // A gold dog facing the silver elephant, camel and horse is class 3; with only the
        // silver elephant left above it, class 1.
        let w = Weights::hand_set();
        let full = pos(
            "g",
            &[
                ("D", "c4"),
                ("R", "b2"),
                ("e", "e7"),
                ("m", "d7"),
                ("h", "b7"),
                ("r", "a7"),
            ],
        );
        let thin = pos("g", &[("D", "c4"), ("R", "b2"), ("e", "e7"), ("r", "a7")]);
        for (p, class) in [(&full, 3), (&thin, 1)] {
            let mut sink = FeatureSink::new(&w, Color::Gold);
            placement_features(p, &Context::new(p, &w), &mut sink);
            let f = sink.features;
            let dog = id::placement.at(class, square_index(Color::Gold, sq("c4")));
            assert_eq!(f.values[dog.index()][0], 1.0, "class {class}");
            let rabbit = id::placement.at(RABBIT_CLASS, square_index(Color::Gold, sq("b2")));
            assert_eq!(f.values[rabbit.index()][0], 1.0);
            // Silver's rabbit on a7 is on its own rank 1 (a7 mirrors a2).
            let r7 = id::placement.at(RABBIT_CLASS, square_index(Color::Silver, sq("a7")));
            assert_eq!(square_index(Color::Silver, sq("a7")), 4);
            assert_eq!(f.values[r7.index()][1], 1.0);
        }
    }

    #[test]
    fn colours_mirror_exactly() {
        let p = pos(
            "g",
            &[
                ("E", "d4"),
                ("M", "b6"),
                ("H", "g3"),
                ("D", "c2"),
                ("R", "a5"),
                ("e", "e5"),
                ("h", "c5"),
                ("c", "f7"),
                ("r", "h2"),
                ("r", "a8"),
            ],
        );
        let (a, b) = (term(&p), term(&p.flip()));
        assert_eq!(a[Color::Gold], b[Color::Silver]);
        assert_eq!(a[Color::Silver], b[Color::Gold]);
        assert_ne!(a[Color::Gold], a[Color::Silver]);
    }
}
