//! One search thread's tables of what the search computes again and again at positions: the
//! static evaluation, the goal detector's answer at turn starts, the opponent's goal-threat
//! region, and the goal-defence walks' verdicts. Each entry is keyed by the position's full
//! 64-bit key and replaced when another position falls in its slot.
//!
//! The evaluation, the goal answer and the threat region are exact functions of the position
//! (for given weights), so the tables live as long as the [`crate::Searcher`]: a search finds
//! what the searches before it computed (the last turn's tree holds much of this turn's), and
//! no search pays for allocating them. Nothing in them changes a search's nodes, turn or score:
//! only the time to reach them. The goal-defence walks are charged as searched nodes, so their
//! verdicts count only within the search that paid for them (a stamp per search), and the same
//! search from a cleared searcher or a fresh one searches the same nodes. New parameters
//! (weights, walk budgets) empty the tables ([`PositionCaches::clear`]).

use tusk_engine::Bitboard;

use crate::goal_defence::ShortestDefence;
use crate::search::Stand;

/// Slots per table by default: 2^18. In the bench at depth 9 (22 positions, one thread) the
/// tables of 2^16 slots computed 2,014,562 evaluations, 1,446,557 goal answers and 521,512
/// threat regions; 2^18 slots 1,916,103, 1,092,175 and 311,819; 2^20 slots 1,878,291, 929,566
/// and 221,646. About 72 bytes a slot over the four tables: 19 MB a thread.
pub(crate) const DEFAULT_CACHE_BITS: u32 = 18;

/// Slots of the tables of a worker made for one search only (the tuner's quiescence leaves,
/// the move predictor's data): 2^16.
pub(crate) const ONE_OFF_CACHE_BITS: u32 = 16;

/// Fewest slots a table falls back to where the system refuses the memory for more: 2^12.
const MIN_CACHE_BITS: u32 = 12;

/// The goal-defence walk's verdict on a cached turn start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Not walked yet (in this search).
    NotAsked,
    /// Not lost: no threat, a defence found, the side to move goals first, or unknown.
    Open,
    /// Threatened, no goal of its own, and no turn stops the opponent's goal.
    Lost,
}

/// A cached answer of the goal detector at a turn start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoalAnswer {
    /// Not asked for the slot's key.
    NotAsked,
    /// The fewest steps to goal this turn, or `None`: no goal.
    Known(Option<u8>),
}

/// A turn start's goal-threat region and, stamped with the search that walked it, the
/// goal-defence walk's verdict.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreatEntry {
    /// The board key.
    pub(crate) key: u64,
    /// The squares where a step can stop the opponent's goal (empty: no threat).
    pub(crate) region: Bitboard,
    verdict: Verdict,
    verdict_search: u32,
}

/// The four tables of one search thread, each of `2^bits` slots.
pub(crate) struct PositionCaches {
    mask: usize,
    /// The search the tables serve now (see the module's doc: walk verdicts are per search).
    search: u32,
    /// Static evaluations by search key ([`tusk_engine::Position::hash`]).
    pub(crate) eval: Vec<(u64, Stand)>,
    /// Goal-threat regions by board key (turn starts), with the walk's verdict.
    pub(crate) threat: Vec<ThreatEntry>,
    /// The shortest goal defence of a threatened turn start by board key (`defext`), stamped
    /// with the search that walked it.
    shortest: Vec<(u64, ShortestDefence, u32)>,
    /// The goal detector's answers at turn starts by search key.
    pub(crate) goal: Vec<(u64, GoalAnswer)>,
    /// The immobilisation detector's answers at turn starts by search key, where it searched
    /// (`immo`).
    pub(crate) immobilise: Vec<(u64, bool)>,
}

impl PositionCaches {
    /// Empty tables of `2^bits` slots each, or as many as the system gives down to 2^12 (a
    /// smaller table only finds less again).
    pub(crate) fn new(bits: u32) -> PositionCaches {
        let mut bits = bits.max(MIN_CACHE_BITS);
        loop {
            if let Some(c) = PositionCaches::try_with_bits(bits) {
                return c;
            }
            if bits == MIN_CACHE_BITS {
                // 2^12 slots are 300 KB: where even that fails nothing else would run.
                return PositionCaches::try_with_bits(bits).expect("300 KB of search tables");
            }
            bits -= 1;
        }
    }

    fn try_with_bits(bits: u32) -> Option<PositionCaches> {
        let n = 1usize << bits;
        Some(PositionCaches {
            mask: n - 1,
            search: 0,
            eval: filled(n, (0, Stand::default()))?,
            threat: filled(
                n,
                ThreatEntry {
                    key: 0,
                    region: Bitboard::EMPTY,
                    verdict: Verdict::NotAsked,
                    verdict_search: 0,
                },
            )?,
            shortest: filled(n, (0, ShortestDefence::Unknown, 0))?,
            goal: filled(n, (0, GoalAnswer::NotAsked))?,
            immobilise: filled(n, (0, false))?,
        })
    }

    /// Slots per table.
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.mask + 1
    }

    /// The slot of `key` in every table.
    #[inline]
    pub(crate) fn slot(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    /// Starts a new search: the walk verdicts of earlier searches no longer count.
    pub(crate) fn begin_search(&mut self) {
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            // Once in four billion searches: stamps of the last cycle could match again.
            self.clear();
        }
    }

    /// Empties every table (new weights or parameters).
    pub(crate) fn clear(&mut self) {
        self.eval.fill((0, Stand::default()));
        self.threat.fill(ThreatEntry {
            key: 0,
            region: Bitboard::EMPTY,
            verdict: Verdict::NotAsked,
            verdict_search: 0,
        });
        self.shortest.fill((0, ShortestDefence::Unknown, 0));
        self.goal.fill((0, GoalAnswer::NotAsked));
        self.immobilise.fill((0, false));
        self.search = 1;
    }

    /// Stores the threat region of board `key` in `slot`, its verdict not asked.
    #[inline]
    pub(crate) fn set_threat(&mut self, slot: usize, key: u64, region: Bitboard) {
        self.threat[slot] = ThreatEntry {
            key,
            region,
            verdict: Verdict::NotAsked,
            verdict_search: 0,
        };
    }

    /// The walk's verdict in `slot` as this search found it.
    #[inline]
    pub(crate) fn verdict(&self, slot: usize) -> Verdict {
        let e = &self.threat[slot];
        if e.verdict_search == self.search {
            e.verdict
        } else {
            Verdict::NotAsked
        }
    }

    /// Records this search's walk verdict in `slot`.
    #[inline]
    pub(crate) fn set_verdict(&mut self, slot: usize, verdict: Verdict) {
        self.threat[slot].verdict = verdict;
        self.threat[slot].verdict_search = self.search;
    }

    /// The shortest defence of board `key` if this search walked it.
    #[inline]
    pub(crate) fn shortest(&self, key: u64) -> Option<ShortestDefence> {
        let (k, d, s) = self.shortest[self.slot(key)];
        (k == key && s == self.search).then_some(d)
    }

    /// Records this search's shortest defence of board `key`.
    #[inline]
    pub(crate) fn set_shortest(&mut self, key: u64, d: ShortestDefence) {
        let slot = self.slot(key);
        self.shortest[slot] = (key, d, self.search);
    }
}

/// `n` copies of `value`, or `None` where the allocator refuses the memory.
fn filled<T: Clone>(n: usize, value: T) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.resize(n, value);
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verdicts and shortest defences count only in the search that stored them; regions,
    /// evaluations and goal answers stay across searches; `clear` empties everything.
    #[test]
    fn walk_results_last_one_search_and_the_rest_until_cleared() {
        let mut c = PositionCaches::new(MIN_CACHE_BITS);
        assert_eq!(c.slots(), 1 << MIN_CACHE_BITS);
        c.begin_search();
        let key = 0x1234_5678_9abc_def0;
        let slot = c.slot(key);
        let region = Bitboard::from_square(tusk_engine::Square::new(3, 3));
        c.set_threat(slot, key, region);
        assert_eq!(c.verdict(slot), Verdict::NotAsked);
        c.set_verdict(slot, Verdict::Lost);
        c.set_shortest(key, ShortestDefence::Steps(2));
        c.goal[slot] = (key, GoalAnswer::Known(Some(3)));
        assert_eq!(c.verdict(slot), Verdict::Lost);
        assert_eq!(c.shortest(key), Some(ShortestDefence::Steps(2)));
        assert_eq!(c.shortest(key ^ 1 << 40), None);

        c.begin_search();
        assert_eq!(c.verdict(slot), Verdict::NotAsked);
        assert_eq!(c.shortest(key), None);
        assert_eq!((c.threat[slot].key, c.threat[slot].region), (key, region));
        assert_eq!(c.goal[slot], (key, GoalAnswer::Known(Some(3))));

        c.clear();
        assert_eq!(c.threat[slot].key, 0);
        assert_eq!(c.goal[slot], (0, GoalAnswer::NotAsked));
    }

    /// A table the allocator refuses is reported, not a failure.
    #[test]
    fn refused_memory_is_none() {
        assert!(filled(usize::MAX / 4, 0u64).is_none());
        assert_eq!(filled(3, 7u8), Some(vec![7, 7, 7]));
    }
}
