// The HarLog material formula on plain integers and floats, with no dependency: included by
// `material.rs` and by the build script that tabulates it (so both use the same code).
// Kinds are indexed by strength: 0 rabbit, 1 cat, 2 dog, 3 horse, 4 camel, 5 elephant.

/// HarLog's officer constant: a piece with `n` stronger enemies is worth `1 / (Q + n)`.
pub const HARLOG_Q: f64 = 1.447_530_126;
/// HarLog's rabbit constant: the rabbits of a side are worth `G * ln(rabbits * pieces)`.
pub const HARLOG_G: f64 = 0.631_444_203_4;
/// Material (centirabbits) of a side that has rabbits against one that has none.
pub const NO_RABBITS: i32 = 20_000;

/// Material signatures per side: counts of E, M, H, D, C, R within their initial numbers.
pub const SIGNATURES: usize = 2 * 2 * 3 * 3 * 3 * 9;

/// Multiplier of each kind's count in a signature index (rabbit first).
const INDEX_UNIT: [usize; 6] = [1, 9, 27, 81, 243, 486];

/// The piece counts of a signature, indexed by kind.
fn counts_of(mut idx: usize) -> [u32; 6] {
    let mut c = [0u32; 6];
    for k in (0..6).rev() {
        c[k] = (idx / INDEX_UNIT[k]) as u32;
        idx %= INDEX_UNIT[k];
    }
    c
}

/// The unscaled HarLog sum of a side with counts `own` facing counts `enemy`, or `None` when
/// the side has no rabbits.
fn harlog(own: &[u32; 6], enemy: &[u32; 6]) -> Option<f64> {
    let rabbits = own[0];
    if rabbits == 0 {
        return None;
    }
    let mut stronger = 0u32;
    let mut sum = 0.0;
    for k in (1..6).rev() {
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
