//! Fixed Zobrist keys, computed at compile time from a fixed seed, so hashes are stable
//! across runs and builds.

use crate::{Color, Piece, PieceKind, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const NUM_KEYS: usize = 12 * 64 + 1 + 5 + 2 * 6 * 64;

const KEYS: [u64; NUM_KEYS] = {
    let mut keys = [0u64; NUM_KEYS];
    let mut state = 0x7475_736B_4172_696D; // "tuskArim"
    let mut i = 0;
    while i < NUM_KEYS {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

const SIDE_BASE: usize = 12 * 64;
const STEPS_BASE: usize = SIDE_BASE + 1;
const PUSH_BASE: usize = STEPS_BASE + 5;
const PULL_BASE: usize = PUSH_BASE + 6 * 64;

/// The key of `piece` standing on `sq`.
#[inline]
pub const fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS[piece.index() * 64 + sq.index()]
}

/// The key XORed in when Silver is to move (Gold to move contributes nothing).
#[inline]
pub const fn side_key(side: Color) -> u64 {
    match side {
        Color::Gold => 0,
        Color::Silver => KEYS[SIDE_BASE],
    }
}

/// The key of "`steps_left` steps remain in this turn" (0..=4; 4 contributes nothing so that
/// a turn-start key equals the board key).
#[inline]
pub const fn steps_key(steps_left: u8) -> u64 {
    if steps_left >= 4 {
        0
    } else {
        KEYS[STEPS_BASE + steps_left as usize]
    }
}

/// The key of a push pending into `sq` whose victim has strength `victim`.
#[inline]
pub const fn push_key(victim: PieceKind, sq: Square) -> u64 {
    KEYS[PUSH_BASE + victim.index() * 64 + sq.index()]
}

/// The key of a pull opportunity: a piece of strength `puller` just left `sq`.
#[inline]
pub const fn pull_key(puller: PieceKind, sq: Square) -> u64 {
    KEYS[PULL_BASE + puller.index() * 64 + sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut v: Vec<u64> = KEYS.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), NUM_KEYS);
        assert!(!v.contains(&0));
    }
}
