//! The transposition table shared by every search thread: lock-free, each entry two
//! `AtomicU64`s (the key XOR the data, and the data), so a torn write by another thread reads
//! as a miss instead of a wrong entry. Buckets of four entries fill one 64-byte cache line;
//! replacement prefers shallow and old entries. Win and loss scores are stored relative to the
//! node (adjusted by the steps from the root) so they stay right wherever the node recurs.
//!
//! The table is allocated fallibly ([`Tt::try_new`]) as zeroed memory, which the system maps
//! lazily: a large table costs nothing until the search writes to it. It is emptied in O(1)
//! ([`Tt::clear`]) by a generation: every entry carries the low 8 bits of the generation it was
//! written in, so replacement takes an earlier generation's entry as an empty slot, and its key
//! check mixes in the whole generation, so no probe ever finds one. (An entry left untouched
//! through 256 clears carries the current bits again: it is still never found, only replaced
//! as an entry of another position would be.)

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::node_move::NodeMove;
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
    /// The best (or refuting) move found, or [`NodeMove::NONE`].
    pub mv: NodeMove,
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

/// Why a transposition table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TtAllocError {
    /// The size is outside the range a table may have.
    #[error("hash {mb} MiB is out of range: it must be from 1 to {max} MiB", max = Tt::MAX_MB)]
    OutOfRange {
        /// The size asked for, MiB.
        mb: usize,
    },
    /// The size is more than the memory this machine has available now.
    #[error(
        "hash {mb} MiB could not be allocated: only {available_mb} MiB of memory is available"
    )]
    MoreThanAvailable {
        /// The size asked for, MiB.
        mb: usize,
        /// The memory available, MiB.
        available_mb: u64,
    },
    /// The system refused the memory.
    #[error("hash {mb} MiB could not be allocated")]
    Refused {
        /// The size asked for, MiB.
        mb: usize,
    },
}

/// The table. `Sync`: any number of threads may probe and store at once.
pub struct Tt {
    slots: Box<[AtomicU64]>,
    buckets: usize,
    /// The search counter of this generation, 0 to 63 (replacement prefers older entries).
    age: u64,
    /// How many times the table was cleared.
    generation: u64,
    /// The generation's low bits, as stored in each entry.
    tag: u64,
    /// Mixed into every entry's key check, so no earlier generation's entry is ever found.
    generation_key: u64,
}

/// Bit position of the generation tag in an entry's data.
const TAG_SHIFT: u32 = 56;

impl Tt {
    /// The largest table, MiB.
    pub const MAX_MB: usize = 1 << 20;

    /// A table of `mb` MiB (1 to [`Tt::MAX_MB`]), all empty. Fails, allocating nothing, when
    /// the size is out of range or more than the memory available now (where the system says,
    /// as Linux does), and when the system refuses the memory.
    pub fn try_new(mb: usize) -> Result<Tt, TtAllocError> {
        if !(1..=Tt::MAX_MB).contains(&mb) {
            return Err(TtAllocError::OutOfRange { mb });
        }
        let bytes = mb << 20;
        if let Some(available) = crate::memory::available_bytes() {
            if bytes as u64 > available {
                return Err(TtAllocError::MoreThanAvailable {
                    mb,
                    available_mb: available >> 20,
                });
            }
        }
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let slots = bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(
            buckets * ENTRIES_PER_BUCKET * 2,
        )
        .map_err(|()| TtAllocError::Refused { mb })?;
        Ok(Tt {
            slots,
            buckets,
            age: 0,
            generation: 0,
            tag: 0,
            generation_key: 0,
        })
    }

    /// Empties the table in O(1): a new generation begins, and every entry of an earlier one
    /// counts as empty from now on.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.tag = self.generation & 0xFF;
        // An odd multiplier: distinct generations give distinct keys.
        self.generation_key = self.generation.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.age = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    /// Whether stored data `d` is an entry of this generation.
    #[inline]
    fn live(&self, d: u64) -> bool {
        d != 0 && d >> TAG_SHIFT == self.tag
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
            if d != 0 && k ^ d ^ self.generation_key == key {
                return unpack(d, ply);
            }
        }
        None
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn store(&self, key: u64, ply: i32, mv: NodeMove, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age;
        let mut victim = 0;
        let mut victim_value = i64::MAX;
        let mut old_mv = NodeMove::NONE;
        for i in 0..ENTRIES_PER_BUCKET {
            let k = self.slots[b + 2 * i].load(Relaxed);
            let d = self.slots[b + 2 * i + 1].load(Relaxed);
            if !self.live(d) {
                victim = i;
                break;
            }
            if k ^ d ^ self.generation_key == key {
                // Same position: keep a deeper exact result from this search.
                let old_depth = ((d >> 40) & 0xFF) as i32;
                let old_age = (d >> 50) & 63;
                if bound != Bound::Exact && old_age == age && old_depth > depth + 2 {
                    return;
                }
                old_mv = NodeMove::from_bits(d as u32);
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
            | age << 50
            | self.tag << TAG_SHIFT;
        self.slots[b + 2 * victim].store(key ^ data ^ self.generation_key, Relaxed);
        self.slots[b + 2 * victim + 1].store(data, Relaxed);
    }

    /// Fill in per mille: the share of the first thousand entries written by this search.
    pub fn hashfull(&self) -> u32 {
        let n = (self.slots.len() / 2).min(1000);
        let used = (0..n)
            .filter(|&i| {
                let d = self.slots[2 * i + 1].load(Relaxed);
                self.live(d) && (d >> 50) & 63 == self.age
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
        mv: NodeMove::from_bits(d as u32),
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
        let tt = Tt::try_new(1).unwrap();
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(tt.probe(key, 0), None);
        tt.store(key, 3, NodeMove::PASS, -250, 7, Bound::Lower);
        let e = tt.probe(key, 3).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (NodeMove::PASS, -250, 7, Bound::Lower)
        );
        // A win 10 steps from the root found 4 steps deep is a win 6 steps from that node;
        // seen from 2 steps deep it is a win 8 steps from the root.
        tt.store(key, 4, NodeMove::NONE, Score::WIN - 10, 5, Bound::Exact);
        let e = tt.probe(key, 2).unwrap();
        assert_eq!(e.score, Score::WIN - 8);
        assert_eq!(
            e.mv,
            NodeMove::PASS,
            "a store without a move keeps the old one"
        );
        tt.store(key, 0, NodeMove::NONE, -Score::WIN + 9, 5, Bound::Exact);
        assert_eq!(tt.probe(key, 1).unwrap().score, -Score::WIN + 10);
        assert_eq!(tt.probe(key ^ 1, 0), None);
    }

    #[test]
    fn buckets_keep_four_and_clear_empties() {
        let mut tt = Tt::try_new(1).unwrap();
        tt.new_search();
        for k in 0..4u64 {
            tt.store(k << 1, 0, NodeMove::NONE, k as i32, 1, Bound::Exact);
        }
        for k in 0..4u64 {
            assert_eq!(tt.probe(k << 1, 0).unwrap().score, k as i32);
        }
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(0, 0), None);
    }

    /// Keys spread over the whole table, `n` of them, different for each `salt`.
    fn keys(n: u64, salt: u64) -> impl Iterator<Item = u64> {
        (0..n).map(move |k| (k ^ salt << 40).wrapping_mul(0x2545_F491_4F6C_DD1D))
    }

    /// After a clear no entry of before is found, however many clears there have been (also
    /// once the generation bits stored in the entries have wrapped around), and the fill is 0.
    #[test]
    fn a_clear_hides_every_earlier_entry() {
        let mut tt = Tt::try_new(1).unwrap();
        for clears in 0..600u64 {
            tt.new_search();
            for (i, k) in keys(3000, clears % 3).enumerate() {
                tt.store(k, 0, NodeMove::PASS, i as i32, (i % 9) as i32, Bound::Exact);
            }
            assert!(tt.probe(keys(1, clears % 3).next().unwrap(), 0).is_some());
            tt.clear();
            assert!(keys(3000, clears % 3).all(|k| tt.probe(k, 0).is_none()));
            assert_eq!(tt.hashfull(), 0, "after {clears} clears");
        }
    }

    /// A table cleared (fewer than 256 times since it was filled) takes stores exactly as a
    /// new one: every slot of before counts as empty, so replacement, probes and fill agree.
    #[test]
    fn a_cleared_table_takes_stores_as_a_new_one() {
        let mut used = Tt::try_new(1).unwrap();
        // Four times as many keys as entries: full buckets, so replacement decides.
        let n = 4 * (used.slots.len() / 2) as u64;
        for generation in 0..5 {
            used.new_search();
            for (i, k) in keys(n, generation).enumerate() {
                used.store(
                    k,
                    0,
                    NodeMove::PASS,
                    i as i32,
                    (i % 13) as i32,
                    Bound::Lower,
                );
            }
            used.clear();
        }
        let mut fresh = Tt::try_new(1).unwrap();
        for t in [&mut used, &mut fresh] {
            t.new_search();
            for (i, k) in keys(n, 99).enumerate() {
                t.store(k, 0, NodeMove::NONE, i as i32, (i % 7) as i32, Bound::Exact);
            }
        }
        assert!(keys(n, 99).all(|k| used.probe(k, 0) == fresh.probe(k, 0)));
        assert!(keys(n, 3).all(|k| used.probe(k, 0).is_none()));
        assert_eq!(used.hashfull(), fresh.hashfull());
    }

    #[test]
    fn sizes_out_of_range_or_beyond_the_machine_are_refused() {
        for mb in [0, Tt::MAX_MB + 1, usize::MAX] {
            assert_eq!(Tt::try_new(mb).err(), Some(TtAllocError::OutOfRange { mb }));
        }
        assert_eq!(
            TtAllocError::OutOfRange { mb: 0 }.to_string(),
            "hash 0 MiB is out of range: it must be from 1 to 1048576 MiB"
        );
        // A tebibyte: more than this machine has (and the allocation is refused up front).
        #[cfg(target_os = "linux")]
        {
            let e = Tt::try_new(Tt::MAX_MB).err().expect("1 TiB is refused");
            assert!(
                e.to_string()
                    .starts_with("hash 1048576 MiB could not be allocated"),
                "{e}"
            );
        }
    }
}
