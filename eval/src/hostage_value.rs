//! Hostages valued as structures: what holding an enemy piece near one of our home traps is
//! worth, by what it ties down on both sides, how firmly we hold the trap and how many steps
//! the enemy needs to break the hold.
//!
//! The hostages and their threat distances are [`crate::hostage_threat`]'s. For each trap of
//! ours that holds hostages, the **strongest-free-piece balance** ([`sfp_score`]) is computed
//! with the pieces the structure ties down taken off in part: each hostage (0.70 of a piece),
//! each holder and the weaker pieces of ours buried in the corner behind it (by square and
//! rank); then twice: with the enemy's strongest piece tied to the trap's defence (**base**),
//! and with two lesser defenders tied instead (**defended**). Each, as a logistic of its score
//! (`tanh(score / 280)`, 0 to 1), is how much the hostage is worth to us if the enemy leaves
//! it, or defends it.
//!
//! Per hostage, the share of its threat value ([`crate::hostage_threat::THREAT_FACTOR`] by its
//! threat distance × its value) that counts (`hostage_share`) is:
//!
//! * the two values mixed by our control of the trap without the enemy elephant's part (the
//!   firmer our hold, the nearer the base value), less when the enemy swarms the corner
//!   around our elephant holder;
//! * times a **break-steps** factor: the steps the hostage needs to run away (its unfreezing
//!   distance and its way out) and the steps the enemy needs to drive the holder off (an
//!   elephant holder: never), a high hostage (a piece four ranks from its goal) less held
//!   unless our pieces weaker than it block its way;
//! * times less when our strongest free pieces stand right beside the holder (they are tied
//!   to it too), and times the **advancement** factor (0.7 to 1.2): whether our pieces that
//!   gain by the structure stand free to use it (away from it, forward, central).
//!
//! Feature (`hostage_value_pct`, weight in percent), for the holding side, per hostage: that
//! share of the hostage's value, in rabbits. Ships at 16 (round 19). Part of the
//! hostage-threat line of the breakdown.
//!
//! The valuation, its tables and constants are those of sharp's `eval/hostages.cpp` and
//! `eval/evalstrats.cpp` (David Wu); the code is Tusk's own, in fixed point so that a position
//! and its colour-mirrored twin score exactly the same. Where it differs: sharp's table for
//! buried pieces is read from gold's side for both colours (silver's buried pieces count
//! almost nothing there); here it is mirrored for silver. The attack distance of a holder is
//! the Manhattan distance of the nearest stronger enemy piece less one, plus that piece's
//! unfreezing distance (sharp walks the board). Not ported: sharp subtracts from each
//! structure the capture threat its threat evaluation already charges on the same piece, and
//! values elephant blockades beside the structures.

use tusk_engine::{Bitboard, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::hostage_threat::{self, Hostage, THREAT_FACTOR};
use crate::sfp::{
    self, advancement_factor, advancement_gain, from_side, kind_at, sfp_score, Counts, ONE,
};
use crate::trap_influence::{self, DISK3, DISK4};
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The divisor of the strongest-free-piece score in the logistic (sharp's
/// `HOSTAGE_SFP_LOGISTIC_DIV`).
const LOGISTIC_DIV: f64 = 280.0;

/// The share of a hostage tied down by being held (sharp's `HOSTAGEHELDMOBLOSS`, 70 %).
const HELD: i64 = ONE * 70 / 100;

/// The share of a holder (and the base of a buried piece's and a trap defender's) tied down,
/// in percent, by square from gold's side (sharp's `HOSTAGEMOBLOSS`), rank 1 first.
const MOBILITY_LOSS: [[i64; 8]; 8] = [
    [65, 65, 65, 64, 64, 65, 65, 65],
    [64, 63, 61, 59, 59, 61, 63, 64],
    [62, 58, 54, 52, 52, 54, 58, 62],
    [61, 49, 48, 42, 42, 48, 49, 61],
    [58, 49, 48, 39, 39, 48, 49, 58],
    [58, 55, 42, 41, 41, 42, 55, 58],
    [61, 60, 60, 51, 51, 60, 60, 61],
    [64, 63, 62, 61, 61, 62, 63, 64],
];

/// A buried piece's share of [`MOBILITY_LOSS`] by how many enemy pieces outrank it, in 64ths
/// (sharp's `BURIED_MOB_LOSS_NS_FACTOR`).
const BURIED_BY_STRONGER: [i64; 7] = [56, 54, 48, 36, 24, 16, 8];

/// A buried piece's share of [`MOBILITY_LOSS`] by square from gold's side, in 64ths (sharp's
/// `BURIED_MOB_LOSS_LOC_FACTOR`), rank 1 first.
const BURIED_BY_SQUARE: [[i64; 8]; 8] = [
    [64, 64, 56, 20, 20, 56, 64, 64],
    [64, 58, 24, 10, 10, 24, 58, 64],
    [50, 26, 16, 0, 0, 16, 26, 50],
    [24, 16, 0, 0, 0, 0, 16, 24],
    [8, 8, 0, 0, 0, 0, 8, 8],
    [0; 8],
    [0; 8],
    [0; 8],
];

/// Where pieces count as buried behind each trap, in [`Square::TRAPS`] order (sharp's
/// `BURIED_MAP`): the corner quarter out to the fifth rank.
const BURIED_AREA: [Bitboard; 4] = [
    Bitboard(0x0000_0003_0307_0F0F),
    Bitboard(0x0000_00C0_C0E0_F0F0),
    Bitboard(0x0F0F_0703_0300_0000),
    Bitboard(0xF0F0_E0C0_C000_0000),
];

/// An enemy piece's weight in the swarm around an elephant holder, by square, for the c3 trap
/// (sharp's `SWARMYFACTOR`), rank 1 first; the other traps mirror it.
const SWARM_C3: [[i32; 8]; 8] = [
    [3, 3, 4, 3, 1, 0, 0, 0],
    [3, 4, 5, 2, 1, 0, 0, 0],
    [4, 5, 5, 4, 2, 0, 0, 0],
    [3, 4, 4, 3, 1, 0, 0, 0],
    [2, 3, 3, 2, 0, 0, 0, 0],
    [1, 2, 2, 1, 0, 0, 0, 0],
    [0, 1, 1, 0, 0, 0, 0, 0],
    [0; 8],
];

/// What is left of the mixing ratio by the swarm's size, in percent (sharp's
/// `HOSTAGE_SWARMY_FACTOR`).
const SWARM_FACTOR: [i32; 13] = [100, 97, 93, 88, 83, 79, 75, 72, 69, 67, 65, 64, 63];

/// The share of the base value in the mix by the enemy's stability at the trap, in percent
/// (sharp's `HOSTAGE_OPP_TSTAB_RATIO`).
const STABILITY_RATIO: [i32; 40] = [
    100, 99, 98, 97, 95, 94, 92, 90, 88, 86, 84, 81, 78, 75, 72, 69, 66, 63, 59, 55, 51, 47, 43,
    39, 36, 33, 30, 27, 25, 22, 20, 18, 16, 15, 13, 12, 11, 10, 9, 8,
];

/// The hold by the steps the hostage needs to run away, in percent (sharp's
/// `NORMAL_HOSTAGE_RUNAWAY_BS_FACTOR`), and the same for a high hostage (`HIGH_...`).
const RUNAWAY_FACTOR: [[i32; 7]; 2] =
    [[52, 65, 77, 88, 94, 98, 100], [32, 40, 58, 75, 88, 96, 100]];

/// The hold by the steps the enemy needs to drive the holder off, in percent (sharp's
/// `HOSTAGE_HOLDER_BS_FACTOR`).
const HOLDER_FACTOR: [i32; 12] = [30, 34, 45, 55, 67, 80, 92, 96, 100, 100, 100, 100];

/// How a high hostage's runaway factor scales by how well our weaker pieces block its way, in
/// 64ths (sharp's `BLOCKCOUNT_SCALE`).
const BLOCK_SCALE: [i32; 12] = [16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 60, 64];

/// Steps added to a non-elephant holder's break distance by square, when the square that
/// guards it against a pull is ours (sharp's `HOSTAGE_PULL_GUARD_BONUS`), rank 1 first.
const PULL_GUARD_BONUS: [[i32; 8]; 8] = [
    [2; 8],
    [2; 8],
    [2, 2, 0, -1, -1, 0, 2, 2],
    [-1, -1, -1, 0, 0, -1, -1, -1],
    [-1, -1, -1, 0, 0, -1, -1, -1],
    [2, 2, 0, -1, -1, 0, 2, 2],
    [2; 8],
    [2; 8],
];

/// What is left of the value when our strongest free kind stands this near the holder, in
/// percent (sharp's `HOSTAGE_SFP_DIST_FACTOR`), and the same for the next kind.
const NEAR_HOLDER_FACTOR: [[i32; 6]; 2] = [[60, 75, 85, 92, 100, 100], [85, 90, 96, 98, 100, 100]];

/// `tanh(score / 280)`, 0 to 1 (to 10,000ths, as sharp rounds it).
fn logistic(score: i32) -> f64 {
    f64::from(sfp::logistic(score, LOGISTIC_DIV, 10_000)) / 10_000.0
}

/// [`MOBILITY_LOSS`] for `color`'s piece on `sq`, in [`ONE`]ths.
#[inline]
fn mobility_loss(color: Color, sq: Square) -> i64 {
    from_side(&MOBILITY_LOSS, color, sq) * (ONE / 100)
}

/// The strongest-free-piece balance at one trap of the holding side (sharp's
/// `evalHostageSFP`): the counts with the structure's pieces taken off, and the base and
/// defended values (0 to 1, defended at most base).
struct Balance {
    ours: Counts,
    theirs: Counts,
    base: f64,
    defended: f64,
    gain: [f64; PieceKind::NUM],
}

fn balance(
    pos: &Position,
    ctx: &Context,
    side: Color,
    trap_index: usize,
    held: &[Option<Hostage>],
) -> Balance {
    let enemy = !side;
    let trap = Square::TRAPS[trap_index];
    let mut ours = sfp::army(pos, side);
    let mut theirs = sfp::army(pos, enemy);
    // The hostages and their holders.
    let mut counted = Bitboard::EMPTY;
    let mut strongest_hostage = PieceKind::Rabbit;
    for h in held.iter().flatten() {
        let kind = kind_at(pos, h.square);
        theirs[kind.index()] -= HELD;
        strongest_hostage = strongest_hostage.max(kind);
        if counted.contains(h.holder) || h.second.is_some_and(|s| counted.contains(s)) {
            continue;
        }
        ours[kind_at(pos, h.holder).index()] -= mobility_loss(side, h.holder);
        counted |= Bitboard::from_square(h.holder);
    }
    // Our pieces buried in the corner behind it, no stronger than the strongest hostage.
    let buried = (pos.occupied_by(side) - pos.pieces_of(side, PieceKind::Rabbit))
        & BURIED_AREA[trap_index]
        & !counted
        & !pos.stronger_than(side, strongest_hostage);
    for sq in buried {
        let frozen = ctx.frozen[side];
        let here = from_side(&BURIED_BY_SQUARE, side, sq);
        // Twice the square's share, to keep halves whole.
        let twice = match trap_influence::steps_to_free(pos, side, frozen, sq) {
            0 => {
                let ahead = match side {
                    Color::Gold => sq.rank() + 1,
                    Color::Silver => sq.rank().wrapping_sub(1),
                };
                match (ahead < 8).then(|| Square::new(sq.file(), ahead)) {
                    Some(a) => {
                        let there = from_side(&BURIED_BY_SQUARE, side, a);
                        match pos.piece_at(a) {
                            None => 2 * there,
                            Some(p)
                                if (p.color() == side
                                    && hostage_threat::is_open_to_step(pos, a))
                                    || (p.color() == enemy
                                        && p.kind() < kind_at(pos, sq)
                                        && hostage_threat::is_open(pos, a)) =>
                            {
                                here + there
                            }
                            Some(_) => 2 * here,
                        }
                    }
                    None => 2 * here,
                }
            }
            1 => 2 * here,
            _ => (3 * here + 16).min(128),
        };
        let stronger = i64::from(ctx.stronger[side][kind_at(pos, sq).index()]).min(6);
        // NS/64 × square/64 × loss/100 of a piece: in ONEths (100 × 4096 × 2) exactly.
        ours[kind_at(pos, sq).index()] -=
            BURIED_BY_STRONGER[stronger as usize] * twice * from_side(&MOBILITY_LOSS, side, sq);
    }
    // The enemy's defenders of the trap: its strongest piece tied there (base), or two lesser
    // ones (defended).
    let tie = mobility_loss(enemy, trap);
    let mut base_score = 0;
    let mut strongest_defender = PieceKind::Elephant;
    let mut gain = [0.0; PieceKind::NUM];
    for kind in PieceKind::ALL.into_iter().rev() {
        let k = kind.index();
        if pos.count(enemy, kind) > 0 && theirs[k] >= tie {
            theirs[k] -= tie;
            base_score = sfp_score(&ours, &theirs);
            gain = advancement_gain(&ours, strongest_hostage);
            theirs[k] += tie;
            strongest_defender = kind;
            break;
        }
    }
    let mut found = 0;
    for sq in NEIGHBOURS[trap.index()] & pos.occupied_by(enemy) {
        let kind = kind_at(pos, sq);
        if kind < strongest_defender {
            found += 1;
            theirs[kind.index()] -= tie;
        }
    }
    let mut needed = 2 - found;
    for k in (0..strongest_defender.index()).rev() {
        while needed > 0 && theirs[k] >= tie {
            theirs[k] -= tie;
            needed -= 1;
        }
    }
    let base = logistic(base_score);
    let defended = logistic(sfp_score(&ours, &theirs)).min(base);
    Balance {
        ours,
        theirs,
        base,
        defended,
        gain,
    }
}

/// The steps the hostage needs to run away from its holder (sharp's
/// `getHostageRunawayBreakSteps`).
fn runaway_steps(pos: &Position, ctx: &Context, side: Color, h: &Hostage) -> i32 {
    let enemy = !side;
    let Some(hostage) = pos.piece_at(h.square) else {
        return 0;
    };
    let frozen = ctx.frozen[enemy].contains(h.square);
    let mut d = trap_influence::steps_to_free(pos, enemy, ctx.frozen[enemy], h.square) as i32 + 1;
    if hostage.kind() == PieceKind::Rabbit {
        d += 1;
    } else if !frozen {
        d -= 1;
    }
    let near_trap = Bitboard::TRAPS.neighbours();
    let mut least = 6;
    for to in NEIGHBOURS[h.square.index()] {
        if !hostage_threat::rabbit_may_step(enemy, hostage.kind(), h.square, to) {
            continue;
        }
        let mut blocked = 0;
        if to.distance(h.holder) < h.square.distance(h.holder) {
            blocked = 4;
        } else if near_trap.contains(to) {
            blocked += 1;
        }
        if let Some(p) = pos.piece_at(to) {
            blocked += 1;
            if p.color() == enemy
                && !hostage_threat::would_be_unfrozen(pos, enemy, hostage.kind(), h.square, to)
            {
                blocked += 2;
            }
            if p.color() == side && p.kind() >= hostage.kind() {
                blocked += 2;
            }
        }
        if !hostage_threat::is_open(pos, to) {
            blocked += 3;
        }
        least = least.min(blocked);
    }
    d += least.min(2);
    d.max(least)
}

/// The steps the enemy needs to drive the holder off (sharp's `getHostageHolderBreakSteps`):
/// 16 for an elephant.
fn holder_steps(pos: &Position, ctx: &Context, side: Color, holder: Square) -> i32 {
    let Some(p) = pos.piece_at(holder) else {
        return 0;
    };
    if p.kind() == PieceKind::Elephant {
        return 16;
    }
    let attackers = pos.stronger_than(!side, p.kind());
    let mut d = sfp::approach_distance(pos, ctx, !side, attackers, holder, 5) + 2;
    // The square that guards the holder against a pull: towards the centre on the second,
    // third, sixth and seventh ranks (along the rank beside the traps' files).
    let (f, r) = (holder.file(), holder.rank());
    let guard = match (r, f) {
        (1, 2) | (6, 2) => Some(Square::new(3, r)),
        (1, 5) | (6, 5) => Some(Square::new(4, r)),
        (1, _) | (2, 0 | 1 | 6 | 7) => Some(Square::new(f, r + 1)),
        (6, _) | (5, 0 | 1 | 6 | 7) => Some(Square::new(f, r - 1)),
        _ => None,
    };
    let ours = pos.occupied_by(side);
    let guarded_at =
        |s: Square| (NEIGHBOURS[s.index()] & (ours - Bitboard::from_square(holder))).any();
    if guard.is_none_or(|g| ours.contains(g) || guarded_at(g)) {
        d += PULL_GUARD_BONUS[usize::from(r)][usize::from(f)];
    }
    if (NEIGHBOURS[holder.index()] & ours).any() {
        d += 1;
    }
    d.max(0)
}

/// How our pieces weaker than a high hostage block its way forward (sharp's block count), 0
/// to 11.
fn block_count(pos: &Position, side: Color, h: &Hostage, kind: PieceKind) -> usize {
    let enemy = !side;
    let (hf, hr) = (i32::from(h.square.file()), i32::from(h.square.rank()));
    let forward = match side {
        Color::Gold => 1,
        Color::Silver => -1,
    };
    let (r0, r1) = (hr.min(hr + 3 * forward), hr.max(hr + 3 * forward));
    let mut area = Bitboard::EMPTY;
    for f in (hf - 1).max(0)..=(hf + 1).min(7) {
        for r in r0.max(0)..=r1.min(7) {
            area |= Bitboard::from_square(Square::new(f as u8, r as u8));
        }
    }
    let excluded = pos.pieces_of(enemy, PieceKind::Elephant) | Bitboard::from_square(h.square);
    let mut count = 0;
    for sq in pos.weaker_than(side, kind) & area {
        count += 2;
        if i32::from(sq.rank()) == hr {
            count += 1;
        }
        let blocker = kind_at(pos, sq);
        let threats = pos.stronger_than(enemy, blocker) - excluded;
        if (DISK3[sq.index()] & threats).is_empty() {
            count += 1;
        }
        if (DISK4[sq.index()] & threats).is_empty() {
            count += 1;
        }
        if threats.is_empty() {
            count += 5;
        }
    }
    count.min(11)
}

/// The share (0 to about 1.2) of hostage `h`'s threat value that counts for `side` (see the
/// module docs), given its trap's [`Balance`].
fn hostage_share(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    side: Color,
    h: &Hostage,
    b: &Balance,
) -> f64 {
    let enemy = !side;
    let t = h.trap_index;
    let hostage = kind_at(pos, h.square);
    let holder = kind_at(pos, h.holder);
    // Mix by our control of the trap without the enemy elephant's part.
    let ours = match side {
        Color::Gold => ctx.influence[t],
        Color::Silver => -ctx.influence[t],
    };
    let elephant = pos.pieces_of(enemy, PieceKind::Elephant).first();
    let control = ours
        + elephant.map_or(0, |e| {
            trap_influence::piece_share(pos, ctx, w, enemy, PieceKind::Elephant, e, t)
        });
    let stability = (100 - control) * 40 / 140;
    let mut ratio = if stability < 0 {
        1.0
    } else {
        f64::from(STABILITY_RATIO[(stability as usize).min(39)]) / 100.0
    };
    // The enemy swarming the corner around our elephant holder.
    let home_side = match side {
        Color::Gold => {
            h.holder.rank() <= 1
                || (h.holder.rank() == 2 && matches!(h.holder.file(), 0 | 1 | 6 | 7))
                || (h.holder.rank() == 3 && matches!(h.holder.file(), 0 | 7))
        }
        Color::Silver => {
            h.holder.rank() >= 6
                || (h.holder.rank() == 5 && matches!(h.holder.file(), 0 | 1 | 6 | 7))
                || (h.holder.rank() == 4 && matches!(h.holder.file(), 0 | 7))
        }
    };
    if holder == PieceKind::Elephant && home_side {
        let mut swarm = 0;
        let swarmers = pos.occupied_by(enemy)
            - pos.pieces_of(enemy, PieceKind::Elephant)
            - Bitboard::from_square(h.square);
        for sq in swarmers {
            // The table is the c3 trap's: mirror the square to it.
            let f = if t % 2 == 1 { 7 - sq.file() } else { sq.file() };
            let r = if t >= 2 { 7 - sq.rank() } else { sq.rank() };
            let kind = pos.piece_at(sq).map_or(0, |p| p.kind().index() as i32);
            swarm += (kind + 4) * SWARM_C3[usize::from(r)][usize::from(f)];
        }
        ratio *= f64::from(SWARM_FACTOR[(swarm / 13).min(12) as usize]) / 100.0;
    }
    let mut value = b.base * ratio + b.defended * (1.0 - ratio);
    // The steps to break the hold.
    let high = h.square.ranks_to_goal(enemy) >= 3;
    let runaway = runaway_steps(pos, ctx, side, h).clamp(0, 6) as usize;
    let held = holder_steps(pos, ctx, side, h.holder).clamp(0, 11) as usize;
    let mut runaway_factor = RUNAWAY_FACTOR[usize::from(high)][runaway];
    if high && hostage != PieceKind::Rabbit {
        runaway_factor = (runaway_factor * BLOCK_SCALE[block_count(pos, side, h, hostage)]) >> 6;
    }
    let holder_factor = HOLDER_FACTOR[held];
    let factor = if runaway_factor < holder_factor {
        runaway_factor * (holder_factor + 100) / 2
    } else {
        holder_factor * (runaway_factor + 100) / 2
    };
    value *= f64::from(factor) / 10_000.0;
    // Our strongest free kinds tied to the holder when they stand near it.
    let mut rank = 0;
    for kind in (PieceKind::Dog.index()..=PieceKind::Elephant.index()).rev() {
        if rank == 2 {
            break;
        }
        if b.ours[kind] > b.theirs[kind] {
            let pieces = pos.pieces_of(side, PieceKind::from_index(kind));
            if !pieces.is_empty() {
                let total: i32 = pieces
                    .into_iter()
                    .map(|s| i32::from(s.distance(h.holder)).min(6))
                    .sum();
                let average = (total / pieces.count() as i32).min(5) as usize;
                value *= f64::from(NEAR_HOLDER_FACTOR[rank][average]) / 100.0;
            }
            rank += 1;
        }
    }
    value * advancement_factor(pos, side, h.trap, &b.gain)
}

/// Whether the hostage value's weight is not zero (the smooth trap control it reads is then
/// needed).
pub fn is_used(w: &Weights) -> bool {
    w[id::hostage_value_pct] != 0
}

/// The hostage-value features of both sides (see the module docs). Reads the smooth control,
/// `ctx.influence`.
pub fn hostage_value_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::hostage_value_pct) {
        return;
    }
    let frozen = ctx.frozen[Color::Gold] | ctx.frozen[Color::Silver];
    for side in Color::ALL {
        for t in crate::traps::home_traps(side) {
            // At most nine hostages a trap.
            let mut at_trap = [None::<Hostage>; 9];
            for (slot, h) in at_trap
                .iter_mut()
                .zip(hostage_threat::hostages_at(pos, frozen, side, t))
            {
                *slot = Some(h);
            }
            if at_trap[0].is_none() {
                continue;
            }
            let b = balance(pos, ctx, side, t, &at_trap);
            for h in at_trap.iter().flatten() {
                let d = hostage_threat::threat_distance(pos, ctx, side, h) as usize;
                let factor = THREAT_FACTOR.get(d).copied().unwrap_or(0);
                let Some(p) = pos.piece_at(h.square) else {
                    continue;
                };
                if factor == 0 {
                    continue;
                }
                let value = ctx.values[!side][p.kind().index()];
                let share = (hostage_share(pos, ctx, w, side, h, &b) * 4096.0).round() as i32;
                sink.add_share2(
                    side,
                    id::hostage_value_pct,
                    factor * value,
                    1024 * 100,
                    share,
                    4096,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{ScoreSink, Weights};
    use tusk_engine::ByColor;

    /// Gold to move with `pieces`, and a rabbit of each side far off.
    fn board(pieces: &[(&'static str, &'static str)]) -> Position {
        let mut all = pieces.to_vec();
        all.extend([("r", "h7"), ("R", "g1")]);
        pos("g", &all)
    }

    /// Both sides' hostage values at `pct` percent, and their hostage threats at 100 %.
    fn values(p: &Position, pct: i32) -> (ByColor<i32>, ByColor<i32>) {
        let mut w = Weights::default();
        w[id::hostage_value_pct] = pct;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        hostage_value_features(p, &ctx, &w, &mut sink);
        let value = sink.totals();
        let mut w = Weights::default();
        w[id::hostage_threat_pct] = 100;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        hostage_threat::hostage_threat_features(p, &ctx, &mut sink);
        (value, sink.totals())
    }

    #[test]
    fn the_logistic_is_tanh_of_the_score_over_280_and_never_negative() {
        assert_eq!(logistic(0), 0.0);
        assert!((logistic(280) - 0.7615).abs() < 1e-4, "{}", logistic(280));
        assert!(logistic(100_000) <= 1.0);
        assert_eq!(logistic(-280), 0.0);
    }

    /// Full armies but for a few rabbits: gold's on ranks 1 and 2 on the f-h files and d1/e1,
    /// silver's on ranks 7 and 8 (one horse short), with `pieces` placed on top (the hostage
    /// and its holder).
    fn armies(pieces: &[(&'static str, &'static str)]) -> Position {
        let mut all = vec![
            ("H", "g2"),
            ("D", "f2"),
            ("C", "d1"),
            ("C", "e1"),
            ("D", "f1"),
            ("R", "h1"),
            ("R", "h2"),
            ("h", "g7"),
            ("d", "c7"),
            ("d", "f7"),
            ("c", "d8"),
            ("c", "e8"),
            ("r", "a7"),
            ("r", "h7"),
        ];
        all.extend_from_slice(pieces);
        pos("g", &all)
    }

    #[test]
    fn a_hostage_held_by_an_elephant_is_worth_a_share_of_its_threat_to_the_holder() {
        // Silver's camel on b2, frozen by gold's elephant on b3 beside gold's c3 trap;
        // silver's elephant far off.
        let p = armies(&[
            ("m", "b2"),
            ("E", "b3"),
            ("M", "e2"),
            ("e", "g6"),
            ("H", "c1"),
        ]);
        let (value, threat) = values(&p, 100);
        assert!(value[Color::Gold] > 0, "{value:?}");
        assert!(
            value[Color::Gold] < threat[Color::Gold],
            "{value:?} {threat:?}"
        );
        assert_eq!(value[Color::Silver], 0);
        // Linear in its weight, up to rounding.
        let (double, _) = values(&p, 200);
        assert!((double[Color::Gold] - 2 * value[Color::Gold]).abs() <= 1);
        // The same position colour-mirrored: the same value for silver.
        let (mirrored, _) = values(&p.flip(), 100);
        assert_eq!(mirrored[Color::Silver], value[Color::Gold]);
        assert_eq!(mirrored[Color::Gold], 0);
    }

    #[test]
    fn without_a_free_piece_to_show_for_it_a_hostage_is_worth_nothing() {
        // Gold's elephant tied to a dog while silver's elephant roams: no gain.
        let p = board(&[("d", "b2"), ("E", "b3"), ("e", "h8")]);
        let (value, threat) = values(&p, 100);
        assert!(threat[Color::Gold] > 0);
        assert_eq!(value[Color::Gold], 0);
    }

    #[test]
    fn a_hostage_is_worth_less_when_the_enemy_defends_the_trap() {
        let alone = armies(&[
            ("m", "b2"),
            ("E", "b3"),
            ("M", "e2"),
            ("e", "g6"),
            ("H", "c1"),
        ]);
        // Silver's elephant beside the trap contests it.
        let defended = armies(&[
            ("m", "b2"),
            ("E", "b3"),
            ("M", "e2"),
            ("e", "d3"),
            ("H", "c1"),
        ]);
        let (a, _) = values(&alone, 100);
        let (d, _) = values(&defended, 100);
        assert!(d[Color::Gold] < a[Color::Gold], "{d:?} < {a:?}");
    }

    #[test]
    fn a_hold_the_enemy_elephant_can_soon_break_is_worth_less() {
        // Gold's camel holds silver's horse; silver's elephant two steps from the camel, or
        // far off.
        let near = armies(&[
            ("h", "b2"),
            ("M", "b3"),
            ("E", "e2"),
            ("e", "c5"),
            ("m", "g6"),
        ]);
        let far = armies(&[
            ("h", "b2"),
            ("M", "b3"),
            ("E", "e2"),
            ("e", "h5"),
            ("m", "g6"),
        ]);
        let (n, _) = values(&near, 100);
        let (f, _) = values(&far, 100);
        assert!(n[Color::Gold] < f[Color::Gold], "{n:?} < {f:?}");
    }
}
