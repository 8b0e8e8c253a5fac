//! Distinct-turn enumeration: every legal turn from a position, once per resulting board.

use crate::{zobrist, Color, Position, Step, StepList, Turn};

/// XORed into a board key, swaps the side to move.
const SIDE_FLIP: u64 = zobrist::side_key(Color::Gold) ^ zobrist::side_key(Color::Silver);

/// One slot of [`KeySet`]: the key and the generation that wrote it, in one cache line.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    stamp: u32,
}

/// A reusable open-addressing set of 64-bit keys, cleared in O(1) by a generation stamp.
#[derive(Clone)]
struct KeySet {
    slots: Vec<Slot>,
    stamp: u32,
    len: usize,
}

impl KeySet {
    fn with_capacity_log2(log2: u32) -> KeySet {
        KeySet {
            slots: vec![Slot::default(); 1usize << log2],
            stamp: 1,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| s.stamp = 0);
            self.stamp = 1;
        }
    }

    /// Inserts `key` (a Zobrist key, so its low bits are already uniform); returns true if it
    /// was not there.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.stamp != self.stamp {
                *slot = Slot {
                    key,
                    stamp: self.stamp,
                };
                self.len += 1;
                return true;
            }
            if slot.key == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![Slot::default(); old.len() * 2];
        let stamp = self.stamp;
        self.stamp = 1;
        self.len = 0;
        for s in old {
            if s.stamp == stamp {
                self.insert(s.key);
            }
        }
    }
}

/// What the turn visitor is shown for each distinct turn.
pub struct TurnVisit<'a> {
    /// The position after the turn: the other side to move, at the start of its turn.
    pub position: &'a Position,
    /// One step sequence that makes the turn, from the position given to the enumerator. For
    /// a mid-turn position these are the steps that complete the turn (none when ending the
    /// turn at once is the turn).
    pub steps: &'a [Step],
}

impl TurnVisit<'_> {
    /// The steps as a [`Turn`].
    pub fn turn(&self) -> Turn {
        Turn::from_steps(self.steps).unwrap_or_default()
    }
}

/// Enumerates distinct legal turns. Holds its own hash sets so that repeated use allocates
/// nothing once they have grown; keep one per thread.
#[derive(Clone)]
pub struct TurnGen {
    seen: KeySet,
    finished: KeySet,
    steps_made: u64,
    want_positions: bool,
}

impl Default for TurnGen {
    fn default() -> Self {
        TurnGen::new()
    }
}

impl TurnGen {
    /// A generator with small initial tables.
    pub fn new() -> TurnGen {
        TurnGen {
            seen: KeySet::with_capacity_log2(12),
            finished: KeySet::with_capacity_log2(12),
            steps_made: 0,
            want_positions: true,
        }
    }

    /// Calls `visit` once for every distinct legal turn from `pos` (which may be mid-turn:
    /// then the turns complete the current one, ending it at once included when the board has
    /// changed). Distinct means a distinct resulting board; the board the turn started with
    /// (the position's turn-start key, not the current board) is excluded, and so is every resulting board for which
    /// `excluded(board_key)` is true (the third-repetition rule, when a game history is given).
    /// Returns the number of turns visited.
    pub fn for_each_turn_excluding(
        &mut self,
        pos: &Position,
        excluded: &dyn Fn(u64) -> bool,
        visit: &mut dyn FnMut(TurnVisit<'_>),
    ) -> usize {
        self.seen.clear();
        self.finished.clear();
        let mut path =
            [Step::new_unchecked(crate::Square::from_index(0), crate::Direction::North); 4];
        let mut count = 0;
        let mut root = pos.clone();
        // Mid-turn, ending the turn right now is a turn of its own (its remaining steps are
        // none) when the board already differs from the turn's start.
        if root.can_end_turn() {
            let key = root.board_key();
            self.finished.insert(key);
            if !excluded(key ^ SIDE_FLIP) {
                count += 1;
                if self.want_positions {
                    let t = root.end_turn();
                    visit(TurnVisit {
                        position: &root,
                        steps: &[],
                    });
                    root.undo_end_turn(t);
                }
            }
        }
        self.dfs(&mut root, &mut path, 0, excluded, visit, &mut count);
        count
    }

    /// [`TurnGen::for_each_turn_excluding`] with nothing excluded.
    pub fn for_each_turn(&mut self, pos: &Position, visit: &mut dyn FnMut(TurnVisit<'_>)) -> usize {
        self.for_each_turn_excluding(pos, &|_| false, visit)
    }

    /// Steps played by this generator since it was made (a speed measure).
    pub fn steps_made(&self) -> u64 {
        self.steps_made
    }

    /// The number of distinct legal turns from `pos`.
    pub fn count(&mut self, pos: &Position) -> usize {
        self.count_excluding(pos, &|_| false)
    }

    /// The number of distinct legal turns from `pos` whose resulting board key is not
    /// `excluded` (see [`TurnGen::for_each_turn_excluding`]).
    pub fn count_excluding(&mut self, pos: &Position, excluded: &dyn Fn(u64) -> bool) -> usize {
        self.want_positions = false;
        let n = self.for_each_turn_excluding(pos, excluded, &mut |_| {});
        self.want_positions = true;
        n
    }

    /// Every distinct legal turn with its resulting position.
    pub fn turns(&mut self, pos: &Position) -> Vec<(Turn, Position)> {
        let mut v = Vec::new();
        self.for_each_turn(pos, &mut |t| v.push((t.turn(), t.position.clone())));
        v
    }

    fn dfs(
        &mut self,
        pos: &mut Position,
        path: &mut [Step; 4],
        depth: usize,
        excluded: &dyn Fn(u64) -> bool,
        visit: &mut dyn FnMut(TurnVisit<'_>),
        count: &mut usize,
    ) {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        if pos.steps_left() == 1 && !self.want_positions {
            // Last step of the turn: every legal step ends a turn (no push can start, and a
            // pending push is completed), so only the resulting board key is needed.
            let start = pos.turn_start_key();
            for &step in steps.iter() {
                let key = pos.board_key_after(step);
                if key != start && self.finished.insert(key) && !excluded(key ^ SIDE_FLIP) {
                    *count += 1;
                }
            }
            return;
        }
        for &step in steps.iter() {
            let undo = pos.play_step_unchecked(step);
            self.steps_made += 1;
            // A state with no steps left cannot be expanded, so only its board matters: the
            // finished set deduplicates it. Other states are expanded once.
            let leaf = pos.steps_left() == 0;
            if leaf || self.seen.insert(pos.hash()) {
                path[depth] = step;
                if pos.can_end_turn() {
                    let key = pos.board_key();
                    if self.finished.insert(key) && !excluded(key ^ SIDE_FLIP) {
                        *count += 1;
                        if self.want_positions {
                            let t = pos.end_turn();
                            visit(TurnVisit {
                                position: pos,
                                steps: &path[..=depth],
                            });
                            pos.undo_end_turn(t);
                        }
                    }
                }
                if !leaf {
                    self.dfs(pos, path, depth + 1, excluded, visit, count);
                }
            }
            pos.undo_step(step, undo);
        }
    }
}
