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

use std::sync::OnceLock;

use tusk_engine::{Color, PieceKind, Position};

/// HarLog's officer constant: a piece with `n` stronger enemies is worth `1 / (Q + n)`.
pub const HARLOG_Q: f64 = 1.447_530_126;
/// HarLog's rabbit constant: the rabbits of a side are worth `G * ln(rabbits * pieces)`.
pub const HARLOG_G: f64 = 0.631_444_203_4;
/// Material (centirabbits) of a side that has rabbits against one that has none.
pub const NO_RABBITS: i32 = 20_000;

/// Material signatures per side: counts of E, M, H, D, C, R within their initial numbers.
pub const SIGNATURES: usize = 2 * 2 * 3 * 3 * 3 * 9;

/// Multiplier of each kind's count in a signature index (rabbit first).
const INDEX_UNIT: [usize; PieceKind::NUM] = [1, 9, 27, 81, 243, 486];

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

/// The piece counts of a signature, indexed by kind.
fn counts_of(mut idx: usize) -> [u32; PieceKind::NUM] {
    let mut c = [0u32; PieceKind::NUM];
    for k in (0..PieceKind::NUM).rev() {
        c[k] = (idx / INDEX_UNIT[k]) as u32;
        idx %= INDEX_UNIT[k];
    }
    c
}

/// The unscaled HarLog sum of a side with counts `own` facing counts `enemy`, or `None` when
/// the side has no rabbits.
fn harlog(own: &[u32; PieceKind::NUM], enemy: &[u32; PieceKind::NUM]) -> Option<f64> {
    let rabbits = own[PieceKind::Rabbit.index()];
    if rabbits == 0 {
        return None;
    }
    let mut stronger = 0u32;
    let mut sum = 0.0;
    for k in (1..PieceKind::NUM).rev() {
        sum += f64::from(own[k]) / (HARLOG_Q + f64::from(stronger));
        stronger += enemy[k];
    }
    let total: u32 = own.iter().sum();
    Some(sum + HARLOG_G * (f64::from(rabbits) * f64::from(total)).ln())
}

/// Centirabbits per unit of HarLog: one rabbit lost from 8 rabbits and 16 pieces is 100.
fn scale() -> f64 {
    100.0 / (HARLOG_G * (128.0f64 / 105.0).ln())
}

/// The HarLog score (centirabbits, gold's view) of two signatures, computed directly.
pub fn harlog_score(gold_sig: usize, silver_sig: usize) -> i32 {
    let g = counts_of(gold_sig);
    let s = counts_of(silver_sig);
    match (harlog(&g, &s), harlog(&s, &g)) {
        (None, None) => 0,
        (None, Some(_)) => -NO_RABBITS,
        (Some(_), None) => NO_RABBITS,
        (Some(a), Some(b)) => ((a - b) * scale()).round() as i32,
    }
}

fn table() -> &'static [i16] {
    static TABLE: OnceLock<Box<[i16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0i16; SIGNATURES * SIGNATURES].into_boxed_slice();
        for g in 0..SIGNATURES {
            for s in 0..SIGNATURES {
                t[g * SIGNATURES + s] = harlog_score(g, s) as i16;
            }
        }
        t
    })
}

/// Builds the material table now (it is otherwise built on first use, in about 20 ms).
pub fn init() {
    let _ = table();
}

/// The material score of two signatures (centirabbits, gold's view), from the table.
#[inline]
pub fn score_of(gold_sig: usize, silver_sig: usize) -> i32 {
    i32::from(table()[gold_sig * SIGNATURES + silver_sig])
}

/// The material score of `pos` in centirabbits from gold's view (before weighting).
#[inline]
pub fn material(pos: &Position) -> i32 {
    score_of(signature(pos, Color::Gold), signature(pos, Color::Silver))
}

/// What each kind of `color` is worth here: the material lost if one piece of that kind were
/// taken off (centirabbits, at least 1, capped at `cap`). Kinds `color` lacks are valued as if
/// it had one more. Used to weigh threats, dangers and captures.
pub fn piece_values(pos: &Position, color: Color, cap: i32) -> [i32; PieceKind::NUM] {
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
        out[kind.index()] = diff.clamp(1, cap);
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
            let v = piece_values(&pos, c, 5000);
            assert_eq!(v[PieceKind::Rabbit.index()], 100);
            for k in 1..PieceKind::NUM {
                assert!(v[k] > v[k - 1]);
            }
        }
        assert_eq!(material(&pos), 0);
    }
}
