//! The transposition table shared by every search thread: lock-free, each entry two
//! `AtomicU64`s (the key XOR the data, and the data), so a torn write by another thread reads
//! as a miss instead of a wrong entry. Buckets of four entries fill one 64-byte cache line;
//! replacement prefers shallow and old entries. Win and loss scores are stored relative to the
//! node (adjusted by the steps from the root) so they stay right wherever the node recurs.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::mv::Mv;
use crate::score::Score;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (the node failed low).
    Upper = 1,
    /// The true value is at least the score (the node failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A probed entry, scores already converted to be relative to the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move found, or [`Mv::NONE`].
    pub mv: Mv,
    /// The score.
    pub score: i32,
    /// The depth (steps) it was searched to; 0 for quiescence.
    pub depth: i32,
    /// How to read the score.
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 16;
const SCORE_OFFSET: i64 = 1 << 21;

/// The table. `Sync`: any number of threads may probe and store at once.
pub struct Tt {
    slots: Vec<AtomicU64>,
    buckets: usize,
    age: AtomicU64,
}

impl Tt {
    /// A table of about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let buckets = (mb.max(1) * 1024 * 1024 / BUCKET_BYTES).max(1);
        Tt {
            slots: (0..buckets * ENTRIES_PER_BUCKET * 2)
                .map(|_| AtomicU64::new(0))
                .collect(),
            buckets,
            age: AtomicU64::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    fn age(&self) -> u64 {
        self.age.load(Relaxed) & 63
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * ENTRIES_PER_BUCKET * 2
    }

    /// The entry for `key`, if stored; `ply` is the steps from the root (to convert win
    /// scores).
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let k = self.slots[b + 2 * i].load(Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Relaxed);
            if d != 0 && k ^ d == key {
                return unpack(d, ply);
            }
        }
        None
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn store(&self, key: u64, ply: i32, mv: Mv, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age();
        let mut victim = 0;
        let mut victim_value = i64::MAX;
        let mut old_mv = Mv::NONE;
        for i in 0..ENTRIES_PER_BUCKET {
            let k = self.slots[b + 2 * i].load(Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Relaxed);
            if d == 0 {
                victim = i;
                break;
            }
            if k ^ d == key {
                // Same position: keep a deeper exact result from this search.
                let old_depth = ((d >> 40) & 0xFF) as i32;
                let old_age = (d >> 50) & 63;
                if bound != Bound::Exact && old_age == age && old_depth > depth + 2 {
                    return;
                }
                old_mv = Mv::from_bits(d as u32);
                victim = i;
                break;
            }
            let e_depth = ((d >> 40) & 0xFF) as i64;
            let e_age = (d >> 50) & 63;
            let value = e_depth - 8 * ((age + 64 - e_age) & 63) as i64;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let mv = if mv.is_none() { old_mv } else { mv };
        let stored = to_tt(score, ply) as i64 + SCORE_OFFSET;
        let data = u64::from(mv.bits())
            | (stored as u64 & 0x3F_FFFF) << 18
            | (depth.clamp(0, 255) as u64) << 40
            | (bound as u64) << 48
            | age << 50;
        self.slots[b + 2 * victim].store(key ^ data, Relaxed);
        self.slots[b + 2 * victim + 1].store(data, Relaxed);
    }

    /// Fill in per mille: the share of the first thousand entries written by this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = (self.slots.len() / 2).min(1000);
        let used = (0..n)
            .filter(|&i| {
                let d = self.slots[2 * i + 1].load(Relaxed);
                d != 0 && (d >> 50) & 63 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score > Score::WIN_BOUND {
        score + ply
    } else if score < -Score::WIN_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score > Score::WIN_BOUND {
        score - ply
    } else if score < -Score::WIN_BOUND {
        score + ply
    } else {
        score
    }
}

fn unpack(d: u64, ply: i32) -> Option<Entry> {
    let bound = match (d >> 48) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let score = (((d >> 18) & 0x3F_FFFF) as i64 - SCORE_OFFSET) as i32;
    Some(Entry {
        mv: Mv::from_bits(d as u32),
        score: from_tt(score, ply),
        depth: ((d >> 40) & 0xFF) as i32,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_win_scores_by_ply() {
        let tt = Tt::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(tt.probe(key, 0), None);
        tt.store(key, 3, Mv::PASS, -250, 7, Bound::Lower);
        let e = tt.probe(key, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Mv::PASS, -250, 7, Bound::Lower)
        );
        // A win 10 steps from the root found 4 steps deep is a win 6 steps from that node;
        // seen from 2 steps deep it is a win 8 steps from the root.
        tt.store(key, 4, Mv::NONE, Score::WIN - 10, 5, Bound::Exact);
        let e = tt.probe(key, 2).unwrap();
        assert_eq!(e.score, Score::WIN - 8);
        assert_eq!(e.mv, Mv::PASS, "a store without a move keeps the old one");
        tt.store(key, 0, Mv::NONE, -Score::WIN + 9, 5, Bound::Exact);
        assert_eq!(tt.probe(key, 1).unwrap().score, -Score::WIN + 10);
        assert_eq!(tt.probe(key ^ 1, 0), None);
    }

    #[test]
    fn buckets_keep_four_and_clear_empties() {
        let tt = Tt::new(1);
        tt.new_search();
        for k in 0..4u64 {
            tt.store(k << 1, 0, Mv::NONE, k as i32, 1, Bound::Exact);
        }
        for k in 0..4u64 {
            assert_eq!(tt.probe(k << 1, 0).unwrap().score, k as i32);
        }
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(0, 0), None);
    }
}
