//! What bounds one search: depth, nodes, and how many root turns to rank.

/// Limits of one search. Time limits are not here: they are deadlines in the [`crate::Control`],
/// which another thread may move while the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after completing this depth, in steps (`None`: no depth limit).
    pub depth: Option<u32>,
    /// Stop once this many nodes have been searched (`None`: no node limit).
    pub nodes: Option<u64>,
    /// Rank this many best distinct root turns (1 for normal play).
    pub multipv: usize,
}

impl Limits {
    /// The deepest iteration, in steps (bounded by the search's node-height limit); a deeper
    /// depth limit searches this deep.
    pub const MAX_DEPTH: u32 = 64;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            multipv: 1,
        }
    }
}
