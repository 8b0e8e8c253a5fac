//! Elephant reach: how far the elephant can get in a few steps, and a penalty when it cannot
//! get far (a decentralised or stuffy elephant, and at the low end a blockaded one).
//!
//! The reach is a flood from the elephant's square (the elephant lifted off the board), one
//! step count at a time, that prices what stands in the way instead of walking around it.
//! A reached square is a *free* start when it is empty, or holds a piece with fewer than two
//! occupied neighbours (an own rabbit only with its forward square empty); no square beside
//! a trap with fewer than two own guards is a good start (stepping off it may leave a piece
//! there to die), and the slow costs below apply from there. From the squares reached in
//! `k` steps:
//!
//! * an empty square costs 1 from a free start, 2 from any, if it is not a trap or an own
//!   piece guards it; or, where it has fewer than two occupied neighbours and an unfrozen own
//!   piece within two squares to clear the way, 2 from a free start and 3 from any;
//! * an own piece costs 2 (it steps aside: an officer with two empty neighbours, a rabbit
//!   with two open sides among forward, west and east) or 3 (any other officer), from a free
//!   start that is not itself a trap with fewer than two guards;
//! * an enemy piece other than the elephant, not on an unguarded trap, costs 2 (a push: it has
//!   two empty neighbours, or one when the elephant comes from an occupied square) or 3 from
//!   any square with the same room; the enemy elephant is a wall.
//!
//! The mobility is the number of squares reached within four steps (the enemy pieces beside
//! the elephant counted as reached: hemming it in with the enemy's own pieces is the enemy's
//! cost too), plus those of them on the 30 forward squares (files b to g, ranks 3 to 7 from
//! the side's view) and again those on the 12 central forward squares (files c to f, ranks 4
//! to 6 from the side's view), plus the 16 centre squares (files c to f, ranks 3 to 6)
//! reached within three steps. [`PENALTY`] maps it to millirabbits: 430 for an elephant that
//! reaches nothing, falling to 0 from a mobility of 53 on (40 and up is a free elephant).
//!
//! Feature, per side with an elephant: minus the penalty in rabbits (millirabbits / 1000), so
//! a weight of 100 (`elephant_reach_pct`) counts it as sharp does for the side it plays
//! (sharp counts the other side's at 3/8; Tusk's evaluation stays colour-symmetric). The
//! weight ships at 0 for the tuner.
//!
//! The idea and the numbers come from sharp's `Mobility::getEle` and `Mobility::getEval`
//! (David Wu); the code here is Tusk's own.

use tusk_engine::{Bitboard, Color, Direction, PieceKind, Position};

use crate::weights::id;
use crate::{Context, Sink};

/// The penalty by mobility, millirabbits (0 from [`PENALTY`]`.len()` on).
pub const PENALTY: [i32; 53] = [
    430, 420, 410, 400, 390, 380, 370, 358, 345, 330, //
    313, 295, 275, 255, 235, 215, 195, 174, 157, 140, //
    126, 113, 101, 90, 80, 72, 64, 58, 52, 46, //
    40, 34, 29, 26, 22, 19, 16, 13, 11, 9, //
    7, 6, 4, 4, 3, 3, 2, 2, 1, 1, //
    1, 1, 1,
];

/// The most steps the reach looks at.
pub const MAX_STEPS: usize = 4;

/// Files b to g, ranks 3 to 7 (gold's forward squares).
const FORWARD_GOLD: Bitboard = Bitboard(0x007E_7E7E_7E7E_0000);
/// Files c to f, ranks 4 to 6 (gold's central forward squares).
const CENTRAL_FORWARD_GOLD: Bitboard = Bitboard(0x0000_3C3C_3C00_0000);
/// Files c to f, ranks 3 to 6.
const CENTRE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);

/// The squares with at least two neighbours in `b`.
#[inline]
fn two_neighbours(b: Bitboard) -> Bitboard {
    let n = b.shift(Direction::South); // squares whose north neighbour is in b
    let s = b.shift(Direction::North);
    let e = b.shift(Direction::West);
    let w = b.shift(Direction::East);
    (n & (s | e | w)) | (s & (e | w)) | (e & w)
}

/// The squares the elephant of `side` reaches within `k` steps, `k` = 0 ..= [`MAX_STEPS`]
/// (the module docs give the rules), or `None` without an elephant. `frozen` is the frozen
/// pieces of `side`.
pub fn reach(pos: &Position, side: Color, frozen: Bitboard) -> Option<[Bitboard; MAX_STEPS + 1]> {
    let elephant = pos.pieces_of(side, PieceKind::Elephant);
    if elephant.is_empty() {
        return None;
    }
    // Everything as if the elephant were lifted off the board.
    let own = pos.occupied_by(side) - elephant;
    let enemy = pos.occupied_by(!side);
    let enemy_pushable = enemy - pos.pieces_of(!side, PieceKind::Elephant);
    let own_rabbits = pos.pieces_of(side, PieceKind::Rabbit);
    let own_officers = own - own_rabbits;
    let empty = !(own | enemy);
    let occupied = !empty;
    let backward = match side {
        Color::Gold => Direction::South,
        Color::Silver => Direction::North,
    };
    // Squares whose forward, west, east neighbour is empty.
    let open_forward = empty.shift(backward);
    let open_west = empty.shift(Direction::East);
    let open_east = empty.shift(Direction::West);
    let open_any = empty.neighbours();
    let open_two = two_neighbours(empty);
    let rabbit_open_two = (open_forward & (open_west | open_east)) | (open_west & open_east);
    let can_step_aside = (own_officers & open_two) | (own_rabbits & rabbit_open_two);
    let uncrowded = !two_neighbours(occupied);
    let helpers = (own - frozen).neighbours().neighbours();
    let trap_safe = !Bitboard::TRAPS | own.neighbours();
    let trap_well_guarded = !Bitboard::TRAPS | two_neighbours(own);
    let beside_weak_trap = (!trap_well_guarded).neighbours();
    let empty_safe = empty & trap_safe;
    let pushable_safe = enemy_pushable & trap_safe;

    // Each count only adds to the later ones, so `within[i]` is complete when it is read.
    let mut within = [elephant; MAX_STEPS + 1];
    for i in 0..MAX_STEPS {
        let at = within[i];
        let free = at & (empty | (uncrowded & (!own_rabbits | open_forward)));
        let towards = at.neighbours();
        let from_free = (free - beside_weak_trap).neighbours();
        let from_free_guarded = ((free & trap_well_guarded) - beside_weak_trap).neighbours();
        let from_crowd = (at & occupied).neighbours();

        within[i + 1] |= at | (from_free & empty_safe);
        if i + 2 <= MAX_STEPS {
            let from_safe = (at - beside_weak_trap).neighbours();
            within[i + 2] |= (towards & empty_safe)
                | (from_free & empty & uncrowded & helpers)
                | (from_free_guarded & can_step_aside)
                | (from_safe & pushable_safe & open_two)
                | (from_safe & from_crowd & pushable_safe & open_any);
        }
        if i + 3 <= MAX_STEPS {
            within[i + 3] |= (towards & empty & uncrowded & helpers)
                | (from_free_guarded & own_officers)
                | (towards & pushable_safe & open_two)
                | (from_crowd & pushable_safe & open_any);
        }
    }
    Some(within)
}

/// The mobility of the elephant of `side` from its [`reach`] (see the module docs).
pub fn mobility(pos: &Position, side: Color, within: &[Bitboard; MAX_STEPS + 1]) -> usize {
    let (forward, central) = match side {
        Color::Gold => (FORWARD_GOLD, CENTRAL_FORWARD_GOLD),
        Color::Silver => (FORWARD_GOLD.flip_ranks(), CENTRAL_FORWARD_GOLD.flip_ranks()),
    };
    let reached = within[MAX_STEPS] | (within[0].neighbours() & pos.occupied_by(!side));
    (reached.count() + (reached & forward).count() + (reached & central).count()) as usize
        + (within[3] & CENTRE).count() as usize
}

/// The penalty of the elephant of `side`, millirabbits (0 without an elephant).
pub fn penalty(pos: &Position, side: Color, frozen: Bitboard) -> i32 {
    reach(pos, side, frozen)
        .map(|r| PENALTY.get(mobility(pos, side, &r)).copied().unwrap_or(0))
        .unwrap_or(0)
}

/// The elephant-reach features of both sides (see the module docs).
pub fn elephant_reach_features<S: Sink>(pos: &Position, ctx: &Context, sink: &mut S) {
    if !sink.wants(id::elephant_reach_pct) {
        return;
    }
    for c in Color::ALL {
        let p = penalty(pos, c, ctx.frozen[c]);
        if p != 0 {
            sink.add_share(c, id::elephant_reach_pct, -p, 1000);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{opening, pos};
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::Square;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    fn reach_of(p: &Position, side: Color) -> [Bitboard; MAX_STEPS + 1] {
        reach(p, side, p.frozen(side)).expect("an elephant")
    }

    /// The fewest steps the reach gives for `square`, if it is reached within four.
    fn steps_to(r: &[Bitboard; MAX_STEPS + 1], square: &str) -> Option<usize> {
        r.iter().position(|b| b.contains(sq(square)))
    }

    /// A lone elephant in the centre walks one step a square; an empty trap no friendly piece
    /// guards is never entered.
    #[test]
    fn a_lone_elephant_walks_a_step_a_square() {
        let p = pos("g", &[("E", "d4"), ("e", "h8"), ("R", "a1"), ("r", "a8")]);
        let r = reach_of(&p, Color::Gold);
        assert_eq!(steps_to(&r, "d4"), Some(0));
        assert_eq!(steps_to(&r, "d5"), Some(1));
        assert_eq!(steps_to(&r, "d3"), Some(1));
        assert_eq!(steps_to(&r, "e5"), Some(2));
        assert_eq!(steps_to(&r, "c3"), None, "an unguarded trap");
        assert_eq!(steps_to(&r, "f6"), None, "an unguarded trap");
    }

    /// Pieces cost steps by what moving them costs: an enemy piece with room behind it is
    /// pushed (two steps), the enemy elephant never; an own officer with room steps aside
    /// (two). A trap a friendly piece guards can be entered; stepping off a square beside a
    /// trap with fewer than two friendly guards counts two steps (the elephant may be what
    /// keeps a piece there alive).
    #[test]
    fn pieces_and_traps_cost_what_moving_them_costs() {
        let p = pos(
            "g",
            &[
                ("E", "d4"),
                ("h", "d5"),
                ("e", "e4"),
                ("H", "c4"),
                ("R", "a1"),
                ("r", "h8"),
            ],
        );
        let r = reach_of(&p, Color::Gold);
        assert_eq!(steps_to(&r, "d5"), Some(2), "push the horse");
        assert_eq!(steps_to(&r, "c4"), Some(2), "the own horse steps aside");
        assert_eq!(
            steps_to(&r, "e4"),
            None,
            "the enemy elephant cannot be moved"
        );
        // d3 is beside c3, which only the horse guards: reached in one step, left in two.
        assert_eq!(steps_to(&r, "d3"), Some(1));
        assert_eq!(steps_to(&r, "c3"), Some(3));
        // A second guard on c3 (b3) makes d3 a free square to step on from.
        let mut pieces = vec![
            ("E", "d4"),
            ("h", "d5"),
            ("e", "e4"),
            ("H", "c4"),
            ("D", "b3"),
            ("R", "a1"),
            ("r", "h8"),
        ];
        let q = pos("g", &pieces);
        assert_eq!(steps_to(&reach_of(&q, Color::Gold), "c3"), Some(2));
        // Without the horse nothing guards c3 but the dog: one guard again.
        pieces.retain(|&(_, s)| s != "c4");
        let q = pos("g", &pieces);
        assert_eq!(steps_to(&reach_of(&q, Color::Gold), "c3"), Some(3));
    }

    /// An elephant shut in a corner by enemy pieces that have no room to be pushed, and one
    /// behind its own army, pay more than a free one; the shut-in one most.
    #[test]
    fn a_shut_in_elephant_pays_most() {
        let shut = pos(
            "g",
            &[
                ("E", "a1"),
                ("d", "a2"),
                ("d", "b1"),
                ("c", "a3"),
                ("c", "b2"),
                ("h", "c1"),
                ("r", "a4"),
                ("r", "b3"),
                ("r", "c2"),
                ("h", "d1"),
                ("e", "h8"),
                ("R", "h1"),
            ],
        );
        let shut_penalty = penalty(&shut, Color::Gold, shut.frozen(Color::Gold));
        // It reaches only its own square; the two dogs beside it count as reached.
        assert_eq!(reach_count(&shut), 3);
        assert_eq!(shut_penalty, PENALTY[3]);
        let home = opening();
        let home_penalty = penalty(&home, Color::Gold, home.frozen(Color::Gold));
        let lone = pos("g", &[("E", "d4"), ("e", "h8"), ("R", "a1"), ("r", "a8")]);
        let lone_penalty = penalty(&lone, Color::Gold, lone.frozen(Color::Gold));
        assert!(
            lone_penalty < home_penalty && home_penalty < shut_penalty,
            "{lone_penalty} {home_penalty} {shut_penalty}"
        );
    }

    fn reach_count(p: &Position) -> usize {
        mobility(p, Color::Gold, &reach_of(p, Color::Gold))
    }

    /// No elephant, no feature (its loss is material's business).
    #[test]
    fn no_elephant_no_penalty() {
        let p = pos("g", &[("M", "d4"), ("e", "h8"), ("R", "a1"), ("r", "a8")]);
        assert!(reach(&p, Color::Gold, Bitboard::EMPTY).is_none());
        assert_eq!(penalty(&p, Color::Gold, Bitboard::EMPTY), 0);
    }

    #[test]
    fn colours_mirror_exactly() {
        for p in [opening(), parse_aei(SHARP_CASES[0].0).expect("position")] {
            let q = p.flip();
            for c in Color::ALL {
                assert_eq!(penalty(&p, c, p.frozen(c)), penalty(&q, !c, q.frozen(!c)));
                assert_eq!(reach_of(&p, c).map(Bitboard::flip_ranks), reach_of(&q, !c));
            }
        }
    }

    /// Turn starts of Tusk's games with sharp's own values from its developer mode's
    /// `evalPos` (`PEleMobility`, `OEleMobility`, millirabbits): without a main player sharp
    /// prints 3/8 of each side's penalty, so 3/8 of Tusk's, truncated, must equal them.
    /// (Over 600 such positions, 1,195 of the 1,200 side values agreed; the other five were
    /// sides without an elephant, which sharp charges the full 430 and Tusk nothing.)
    const SHARP_CASES: [(&str, i32, i32); 4] = [
        (
            "g [cEdc    dRm  h  Me      rRr H  rrDhr rCrRD HR          C        ]",
            -150,
            -37,
        ),
        (
            "g [  c      d  re c    DH Rr          dE    H  h r       D         ]",
            0,
            -103,
        ),
        (
            "s [r C rr     rREr  DrmrRd  dRc     rRRHeM RC  hchD    RH       R  ]",
            -134,
            -10,
        ),
        (
            "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]",
            -21,
            -21,
        ),
    ];

    #[test]
    fn it_agrees_with_sharp() {
        for (aei, gold, silver) in SHARP_CASES {
            let p = parse_aei(aei).expect("position");
            let three_eighths = |c: Color| -(penalty(&p, c, p.frozen(c)) * 3 / 8);
            assert_eq!(three_eighths(Color::Gold), gold, "{aei}");
            assert_eq!(three_eighths(Color::Silver), silver, "{aei}");
        }
    }
}
