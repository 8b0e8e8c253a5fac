//! Every weight of the evaluation in one struct, with documented defaults, so that a tuning
//! step can change them without touching the terms. Values are centirabbits (an opening
//! rabbit = 100) or percentages, as each field says.

/// The weights of every evaluation term. `Weights::default()` is the hand-set baseline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Scale of the HarLog material score, in percent. Default 100.
    pub material_pct: i32,

    /// Trap influence of a piece by how many enemy pieces are stronger than it (0, 1, .. 7+).
    /// Default `[100, 80, 62, 48, 38, 30, 24, 20]`: the elephant (or a piece nothing outranks)
    /// counts fully, a piece outranked by many counts little.
    pub trap_strength: [i32; 8],
    /// Trap influence of a rabbit. Default 12.
    pub trap_rabbit_strength: i32,
    /// Influence by distance to the trap, in percent: on it, next to it, two and three steps
    /// away. Default `[60, 100, 50, 20]`.
    pub trap_distance_pct: [i32; 4],
    /// Influence of a frozen piece, in percent of an unfrozen one. Default 50.
    pub trap_frozen_pct: i32,
    /// Extra influence for the side whose strongest piece within two steps of the trap
    /// outranks every enemy piece there. Default 40.
    pub trap_dominance: i32,
    /// The control difference at which a trap counts as fully controlled. Default 150.
    pub trap_control_cap: i32,
    /// Value of fully controlling one of one's own two home traps. Default 35.
    pub trap_home: i32,
    /// Value of fully controlling one of the enemy's home traps. Default 50.
    pub trap_away: i32,
    /// A piece on or next to a trap the enemy controls loses this percentage of its value
    /// (scaled by how fully the enemy controls it), when an enemy piece able to dislodge it
    /// stands within two steps. Default 12.
    pub trap_danger_pct: i32,

    /// Rabbit advancement by ranks advanced (0 = home rank .. 6 = one step from goal).
    /// Default `[0, 2, 6, 12, 24, 45, 80, 0]`.
    pub rabbit_advance: [i32; 8],
    /// Share of the advancement kept by number of enemy officers in the cone ahead (the
    /// rabbit's file and the two beside it, ranks ahead), in percent: 0, 1, 2 or more.
    /// Default `[100, 55, 30]`.
    pub rabbit_free_pct: [i32; 3],
    /// Extra share of the advancement when the rabbit's side controls the enemy home trap on
    /// its wing, in percent. Default 50.
    pub rabbit_trap_support_pct: i32,
    /// Bonus per rabbit that could reach goal in one unopposed turn (goal pressure). Default 25.
    pub rabbit_goal_pressure: i32,

    /// Penalty when the opponent could goal next turn if the side to move did nothing about
    /// it. Default 200.
    pub goal_threat: i32,
    /// Share of the value of the strongest enemy piece the side to move can capture this turn
    /// that is credited now, in percent. Default 70.
    pub capture_now_pct: i32,
    /// Share of the value of the strongest piece the opponent could capture next turn that is
    /// charged, in percent. Default 30.
    pub capture_threat_pct: i32,

    /// A frozen piece loses this percentage of its value. Default 6.
    pub frozen_pct: i32,
    /// A frozen piece next to a trap the enemy controls (a hostage) loses this further
    /// percentage of its value. Default 15.
    pub hostage_pct: i32,
    /// A piece on a trap with exactly one friendly guard loses this percentage of its value.
    /// Default 10.
    pub single_guard_pct: i32,
    /// Elephant mobility: value per empty square it reaches in one or two steps (at most 12
    /// counted). Default 3.
    pub elephant_mobility: i32,
    /// Penalty for an elephant with no empty square next to it (blockaded). Default 60.
    pub elephant_blockade: i32,

    /// Highest value a single piece is given when weighing threats and dangers. Default 1500.
    pub piece_value_cap: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material_pct: 100,
            trap_strength: [100, 80, 62, 48, 38, 30, 24, 20],
            trap_rabbit_strength: 12,
            trap_distance_pct: [60, 100, 50, 20],
            trap_frozen_pct: 50,
            trap_dominance: 40,
            trap_control_cap: 150,
            trap_home: 35,
            trap_away: 50,
            trap_danger_pct: 12,
            rabbit_advance: [0, 2, 6, 12, 24, 45, 80, 0],
            rabbit_free_pct: [100, 55, 30],
            rabbit_trap_support_pct: 50,
            rabbit_goal_pressure: 25,
            goal_threat: 200,
            capture_now_pct: 70,
            capture_threat_pct: 30,
            frozen_pct: 6,
            hostage_pct: 15,
            single_guard_pct: 10,
            elephant_mobility: 3,
            elephant_blockade: 60,
            piece_value_cap: 1500,
        }
    }
}
