//! Material by the HarLog formula: what a piece is worth depends on how many enemy pieces are
//! stronger than it, and rabbits follow a logarithmic curve so the last ones are dear.
//!
//! For one side, with `n(k)` = the number of enemy pieces stronger than kind `k`:
//!
//! ```text
//! H(side) = sum over officers p of 1 / (Q + n(kind p))  +  G * ln(rabbits * pieces)
//! ```
//!
//! with the published constants `Q = 1.447530126`, `G = 0.6314442034`. The material score is
//! `H(gold) - H(silver)`, scaled so that losing one rabbit from the full army costs exactly 100
//! centirabbits. A side without rabbits has lost; its material is [`NO_RABBITS`] below par.
//!
//! Every pair of material signatures (972 per side: E 0-1, M 0-1, H/D/C 0-2, R 0-8) is
//! precomputed once into a 972 x 972 table of `i16`, so the hot path is one indexed load.

use tusk_engine::{Color, PieceKind, Position};

use crate::weights::id;
use crate::Sink;

// The formula (constants, signature layout, `harlog_score`) is shared word for word with the
// build script, which uses it to compute the whole table at compile time.
include!("harlog.rs");

/// The table of every signature pair, `SIGNATURES * SIGNATURES` little-endian `i16`s (gold's
/// signature major), written by `build.rs` from [`harlog_score`]: nothing is computed at run time.
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/material_table.bin"));

/// The material signature of `color`: an index below [`SIGNATURES`].
#[inline]
pub fn signature(pos: &Position, color: Color) -> usize {
    let mut idx = 0;
    for kind in PieceKind::ALL {
        let n = pos.count(color, kind).min(kind.initial_count()) as usize;
        idx += n * INDEX_UNIT[kind.index()];
    }
    idx
}

/// The material score of two signatures (centirabbits, gold's view), from the table.
#[inline]
pub fn score_of(gold_sig: usize, silver_sig: usize) -> i32 {
    let i = 2 * (gold_sig * SIGNATURES + silver_sig);
    i32::from(i16::from_le_bytes([TABLE[i], TABLE[i + 1]]))
}

/// The material score of `pos` in centirabbits from gold's view (before weighting).
#[inline]
pub fn material(pos: &Position) -> i32 {
    score_of(signature(pos, Color::Gold), signature(pos, Color::Silver))
}

/// The material term's feature: the side ahead gets its lead in rabbits (the table's
/// centirabbits / 100) as the feature of `material_pct`, so it scores `material_pct` percent
/// of the HarLog lead.
pub fn material_features<S: Sink>(pos: &Position, sink: &mut S) {
    let m = material(pos);
    if m > 0 {
        sink.add_share(Color::Gold, id::material_pct, m, 100);
    } else if m < 0 {
        sink.add_share(Color::Silver, id::material_pct, -m, 100);
    }
}

/// What each kind of `color` is worth here: the material lost if one piece of that kind were
/// taken off, scaled by `pct` percent (centirabbits, at least 1, capped at `cap`). Kinds
/// `color` lacks are valued as if it had one more. Used to weigh threats, dangers and captures.
pub fn piece_values(pos: &Position, color: Color, pct: i32, cap: i32) -> [i32; PieceKind::NUM] {
    let mut sig = [signature(pos, Color::Gold), signature(pos, Color::Silver)];
    let mut out = [0i32; PieceKind::NUM];
    for kind in PieceKind::ALL {
        let unit = INDEX_UNIT[kind.index()];
        let own = sig[color.index()];
        let present = pos.count(color, kind) > 0;
        let (with, without) = if present {
            (own, own - unit)
        } else if kind == PieceKind::Rabbit {
            // Only reachable with no rabbits left: the game is over either way.
            out[kind.index()] = cap;
            continue;
        } else {
            (own + unit, own)
        };
        sig[color.index()] = with;
        let a = score_of(sig[0], sig[1]);
        sig[color.index()] = without;
        let b = score_of(sig[0], sig[1]);
        sig[color.index()] = own;
        let diff = match color {
            Color::Gold => a - b,
            Color::Silver => b - a,
        };
        out[kind.index()] = (diff * pct / 100).clamp(1, cap);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: usize = 486 + 243 + 2 * 81 + 2 * 27 + 2 * 9 + 8;

    fn without(sig: usize, kind: PieceKind) -> usize {
        sig - INDEX_UNIT[kind.index()]
    }

    #[test]
    fn equal_material_is_zero_and_the_table_is_antisymmetric() {
        assert_eq!(score_of(FULL, FULL), 0);
        for g in (0..SIGNATURES).step_by(7) {
            for s in (0..SIGNATURES).step_by(5) {
                assert_eq!(score_of(g, s), -score_of(s, g));
                assert_eq!(score_of(g, s), harlog_score(g, s));
            }
        }
    }

    #[test]
    fn losing_one_piece_from_full_material() {
        let loss = |k| score_of(FULL, without(FULL, k));
        assert_eq!(loss(PieceKind::Rabbit), 100);
        let cat = loss(PieceKind::Cat);
        let dog = loss(PieceKind::Dog);
        let horse = loss(PieceKind::Horse);
        let camel = loss(PieceKind::Camel);
        let elephant = loss(PieceKind::Elephant);
        assert!((120..=170).contains(&cat), "cat {cat}");
        assert!((180..=240).contains(&dog), "dog about two rabbits: {dog}");
        assert!((300..=420).contains(&horse), "horse {horse}");
        assert!(camel > horse + 200, "camel {camel} far above horse {horse}");
        assert!(elephant > camel, "elephant {elephant}");
        assert!(cat > 100 && dog > cat && horse > dog);
    }

    #[test]
    fn a_piece_gains_value_as_enemy_officers_are_traded() {
        // Gold's dog with both sides full, then after the camels, then the horses, are traded.
        let dog_value =
            |g: usize, s: usize| score_of(g, s) - score_of(without(g, PieceKind::Dog), s);
        let full = dog_value(FULL, FULL);
        let g1 = without(FULL, PieceKind::Camel);
        let s1 = without(FULL, PieceKind::Camel);
        let no_camels = dog_value(g1, s1);
        let g2 = without(without(g1, PieceKind::Horse), PieceKind::Horse);
        let s2 = without(without(s1, PieceKind::Horse), PieceKind::Horse);
        let no_horses = dog_value(g2, s2);
        assert!(
            full < no_camels && no_camels < no_horses,
            "{full} {no_camels} {no_horses}"
        );
    }

    #[test]
    fn the_last_rabbits_are_worth_more() {
        let mut prev = 0;
        let mut sig = FULL;
        for _ in 0..7 {
            let v = score_of(sig, FULL) - score_of(without(sig, PieceKind::Rabbit), FULL);
            assert!(
                v > prev,
                "rabbit value must rise as rabbits go: {v} after {prev}"
            );
            prev = v;
            sig = without(sig, PieceKind::Rabbit);
        }
        assert_eq!(score_of(sig - 1, FULL), -NO_RABBITS);
        assert_eq!(score_of(sig - 1, sig - 1), 0);
    }

    #[test]
    fn piece_values_of_the_opening_position() {
        let pos = crate::test_util::opening();
        for c in Color::ALL {
            let v = piece_values(&pos, c, 100, 5000);
            assert_eq!(v[PieceKind::Rabbit.index()], 100);
            for k in 1..PieceKind::NUM {
                assert!(v[k] > v[k - 1]);
            }
        }
        assert_eq!(material(&pos), 0);
    }

    #[test]
    fn piece_values_scale_by_their_percentage_under_the_cap() {
        let pos = crate::test_util::opening();
        for c in Color::ALL {
            let base = piece_values(&pos, c, 100, 5000);
            let scaled = piece_values(&pos, c, 140, 5000);
            assert_eq!(scaled[PieceKind::Rabbit.index()], 140);
            for k in 0..PieceKind::NUM {
                assert_eq!(scaled[k], base[k] * 140 / 100);
            }
            let capped = piece_values(&pos, c, 140, 300);
            assert_eq!(capped[PieceKind::Elephant.index()], 300);
            assert_eq!(capped[PieceKind::Rabbit.index()], 140);
        }
    }
}
