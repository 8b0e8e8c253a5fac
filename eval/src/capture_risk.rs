//! Capture risk: how many steps the enemy needs to capture each piece that stands near a
//! trap, and how much that risk weighs given who controls the trap and whether the piece can
//! run.
//!
//! For every piece other than the elephant within three steps of a trap (four when a stronger
//! enemy piece stands beside it), its **threat distance** is an estimate of the enemy steps
//! needed to drag it onto the trap and leave it unguarded:
//!
//! * `2 × distance` to the trap (a push or a pull moves it one square for two steps);
//! * `2 ×` its side's other guards of the trap (each one pushed away first), plus its side's
//!   piece standing on the trap (when the piece is not that one);
//! * `1` when an enemy piece stands on the trap (it has to leave first);
//! * on a straight line to the trap, `1` when an own piece stands on the next square towards
//!   it (`3` for the elephant: it cannot be moved);
//! * the **attack distance**: the steps the nearest unfrozen enemy piece stronger than it
//!   needs to come beside it over empty squares (0 when one is already there; beyond 3 there
//!   is no risk), plus one more at 3.
//!
//! Threat distances above [`MAX_DISTANCE`] count as no risk. A risk is charged to the piece's
//! side as a feature of the weight for its threat distance, `capture_risk_home.k` at its own
//! home traps and `capture_risk_away.k` at the enemy's: minus the piece's value in rabbits
//! plus half a rabbit, times the enemy's hold on the trap (a logistic of the enemy's smooth
//! control, [`crate::trap_influence`], from 0 to 1) times the piece's **freedom factor**
//! (`capture_risk_freedom`, by its unfreezing distance: a free piece can step away, a frozen
//! one far from help cannot). The weights are centirabbits per rabbit of value at full
//! control and no freedom; they ship at sharp's values ([`SHARP_HOME`], [`SHARP_AWAY`]).
//!
//! At an enemy home trap a piece's own share of its side's control
//! ([`crate::trap_influence::piece_share`]) can be taken away before the hold is read, as
//! sharp does: a piece cannot guard the trap it is dragged into, and a strong piece beside an
//! enemy trap otherwise makes that trap look safe for itself. The shape parameter
//! `capture_risk_self_pct` sets how much (shipped at 50 % since round 10; sharp's: all,
//! scaled up by `SELF_SCALE` for the strongest ranks).
//!
//! The side to move's pieces can be charged less (`capture_risk_mover_pct`, shipped at 100:
//! as the other side's): with a whole turn left it can move or guard them before the enemy
//! acts; the share grows back to 100 % as its steps run out.
//!
//! The idea and the numbers of the prior come from sharp's `eval/pthreats.cpp` (David Wu);
//! the distance model here is Tusk's own and simpler (no unfreezing distance of the
//! attackers, no count of pieces standing closer to the trap).

use tusk_engine::{Bitboard, ByColor, Color, PieceKind, Position, Square, NEIGHBOURS};

use crate::trap_influence::{piece_share, steps_to_free, TRAP_DISTANCE};
use crate::traps::is_home_trap;
use crate::weights::id;
use crate::{Context, Sink, Weights};

/// The largest threat distance that still counts as a risk.
pub const MAX_DISTANCE: usize = 10;

/// The largest attack distance that still counts.
const MAX_ATTACK: u8 = 3;

/// Sharp's weights for its own home traps (`O_BASE_PROP` 18/64 × `O_TDIST_FACTOR`, per rabbit
/// of value, centirabbits): a prior for `capture_risk_home`.
pub const SHARP_HOME: [i32; MAX_DISTANCE + 1] = [28, 27, 27, 25, 23, 15, 13, 10, 8, 4, 3];

/// Sharp's weights for the enemy's home traps (`H_BASE_PROP` 15.5/64 × `H_TDIST_FACTOR`): a
/// prior for `capture_risk_away`.
pub const SHARP_AWAY: [i32; MAX_DISTANCE + 1] = [24, 23, 23, 22, 20, 13, 11, 8, 7, 3, 2];

/// The share of a piece's own control taken away at an enemy trap, by how many enemy pieces
/// are stronger than it, in quarters (sharp's `EXTRA_CONTRIBUTION_SCALING`: a strong piece
/// also weakens the enemy's pieces around it).
const SELF_SCALE: [i32; 9] = [8, 6, 5, 4, 4, 4, 4, 4, 4];

/// The enemy's hold on a trap from its smooth control `c` (sharp's units, enemy's view):
/// `1024 / (1 + e^(-(c - 45) / 16)) - 12`, at least 0, in 1024ths. Integer-exact (a table of
/// the logistic at whole steps).
pub fn hold(c: i32) -> i32 {
    const TABLE: [i32; 255] = crate::shape::logistic_table(127.0, 16.0, 1024.0);
    let i = (c - 45 + 127).clamp(0, 254) as usize;
    (TABLE[i] - 12).max(0)
}

/// For each side and kind, the squares an unfrozen enemy piece stronger than that kind can
/// stand on after 0, 1, 2 and 3 plain steps over empty squares.
struct Reach {
    by: ByColor<[[Bitboard; MAX_ATTACK as usize + 1]; PieceKind::NUM]>,
}

impl Reach {
    fn new(pos: &Position, ctx: &Context) -> Reach {
        let stronger = &ctx.attackers;
        let empty = pos.empty_squares();
        let mut by = ByColor([[[Bitboard::EMPTY; MAX_ATTACK as usize + 1]; PieceKind::NUM]; 2]);
        for c in Color::ALL {
            for k in 0..PieceKind::NUM {
                let mut r = stronger[c][k];
                by[c][k][0] = r;
                for d in 1..=MAX_ATTACK as usize {
                    r |= r.neighbours() & empty;
                    by[c][k][d] = r;
                }
            }
        }
        Reach { by }
    }

    /// The attack distance of the piece of `color` and `kind` on `sq`: the steps the nearest
    /// unfrozen stronger enemy piece needs to stand beside it, or `None` beyond
    /// [`MAX_ATTACK`].
    fn attack_distance(&self, color: Color, kind: PieceKind, sq: Square) -> Option<u8> {
        let around = NEIGHBOURS[sq.index()];
        (0..=MAX_ATTACK).find(|&d| (self.by[color][kind.index()][d as usize] & around).any())
    }
}

/// The square next to `from` on the straight line towards `to`, when they share a file or a
/// rank and are at least two steps apart.
fn next_on_line(from: Square, to: Square) -> Option<Square> {
    let (ff, fr) = (from.file() as i8, from.rank() as i8);
    let (tf, tr) = (to.file() as i8, to.rank() as i8);
    if (ff == tf) == (fr == tr) {
        return None;
    }
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    if (tf - ff).abs() + (tr - fr).abs() < 2 {
        return None;
    }
    Some(Square::new((ff + df) as u8, (fr + dr) as u8))
}

/// The threat distance of the piece of `color` and `kind` on `sq` at trap `t` (index into
/// [`Square::TRAPS`]), or `None` when it is out of reach. See the module docs.
fn threat_distance(
    pos: &Position,
    reach: &Reach,
    color: Color,
    kind: PieceKind,
    sq: Square,
    t: usize,
) -> Option<usize> {
    let trap = Square::TRAPS[t];
    let own = pos.occupied_by(color);
    let d = usize::from(TRAP_DISTANCE[sq.index()][t]);
    let guards = (NEIGHBOURS[trap.index()] & own).count() as usize
        - usize::from(NEIGHBOURS[trap.index()].contains(sq));
    let mut dist = 2 * d + 2 * guards;
    if sq != trap {
        if own.contains(trap) {
            dist += 2;
        } else if pos.occupied_by(!color).contains(trap) {
            dist += 1;
        }
        if let Some(next) = next_on_line(sq, trap) {
            if own.contains(next) {
                dist += if pos.pieces_of(color, PieceKind::Elephant).contains(next) {
                    3
                } else {
                    1
                };
            }
        }
    }
    if dist > MAX_DISTANCE {
        return None;
    }
    let attack = reach.attack_distance(color, kind, sq)?;
    dist += usize::from(attack) + usize::from(attack >= MAX_ATTACK);
    (dist <= MAX_DISTANCE).then_some(dist)
}

/// Whether any capture-risk weight is not zero (the smooth trap control it reads is then
/// needed).
pub fn is_used(w: &Weights) -> bool {
    w[id::capture_risk_home].iter().any(|&x| x != 0)
        || w[id::capture_risk_away].iter().any(|&x| x != 0)
}

/// The capture-risk features of both sides: for each piece at risk, minus (its value in
/// rabbits + 1/2) × the enemy's hold on the trap × its freedom factor, on the weight of its
/// threat distance (home or away trap). Reads the smooth control, `ctx.influence`.
pub fn risk_features<S: Sink>(pos: &Position, ctx: &Context, w: &Weights, sink: &mut S) {
    if !sink.wants(id::capture_risk_home.at(0)) && !is_used(w) {
        return;
    }
    visit_risks(pos, ctx, w, |c, _, p, num, num2| {
        sink.add_share2(c, p, num, RISK_DEN, num2, RISK_DEN2);
    });
}

/// The denominators of a risk's two shares: the value times the side's share in percent,
/// and the hold (1024ths) times the freedom factor (64ths).
const RISK_DEN: i32 = 100 * 100;
const RISK_DEN2: i32 = 1024 * 64;

/// The largest capture risk charged on one piece of `color` and `kind` (summed over the
/// traps it is at risk at), in centirabbits, as a positive number: 0 when none is charged.
/// The capture-now credit is taken net of it (`capture_now_net_pct`).
pub fn largest_risk_on(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    color: Color,
    kind: PieceKind,
) -> i32 {
    let candidates = pos.pieces_of(color, kind);
    if candidates.is_empty() || !is_used(w) {
        return 0;
    }
    // Each piece's charges, by square, summed over the traps it is at risk at.
    let mut charged = [0i64; 64];
    visit_risks(pos, ctx, w, |c, sq, p, num, num2| {
        if c == color && candidates.contains(sq) {
            charged[sq.index()] -=
                crate::features::share2(i64::from(w[p]), num, RISK_DEN, num2, RISK_DEN2);
        }
    });
    let largest = candidates.map(|sq| charged[sq.index()]).max().unwrap_or(0);
    largest.clamp(0, i64::from(i32::MAX)) as i32
}

/// Calls `f(color, square, weight, num, num2)` for every capture risk: the piece of `color`
/// on `square` is charged `weight × num / RISK_DEN × num2 / RISK_DEN2`, where `num` is minus
/// (its value + 50) times its side's share in percent and `num2` the enemy's hold times its
/// freedom factor.
#[inline(always)]
fn visit_risks(
    pos: &Position,
    ctx: &Context,
    w: &Weights,
    mut f: impl FnMut(Color, Square, crate::weights::Param, i32, i32),
) {
    let reach = Reach::new(pos, ctx);
    let dominated = &ctx.dominated;
    let shares = crate::side_shares(pos, w[id::capture_risk_mover_pct]);
    for c in Color::ALL {
        let side_pct = shares[c];
        let pieces = pos.occupied_by(c) - pos.pieces_of(c, PieceKind::Elephant);
        for (t, trap) in Square::TRAPS.iter().enumerate() {
            let enemy_control = match c {
                Color::Gold => -ctx.influence[t],
                Color::Silver => ctx.influence[t],
            };
            let home = is_home_trap(t, c);
            // At an enemy home trap each piece's own share of its side's control is taken
            // away first (`capture_risk_self_pct`), so the hold is read per piece.
            let self_pct = if home {
                0
            } else {
                w[id::capture_risk_self_pct]
            };
            let trap_hold = hold(enemy_control);
            if trap_hold == 0 && self_pct == 0 {
                continue;
            }
            let near = crate::trap_influence::DISK3[trap.index()]
                | (crate::trap_influence::DISK4[trap.index()] & dominated[c]);
            let weights = if home {
                id::capture_risk_home
            } else {
                id::capture_risk_away
            };
            for sq in pieces & near {
                let Some(p) = pos.piece_at(sq) else { continue };
                let Some(k) = threat_distance(pos, &reach, c, p.kind(), sq, t) else {
                    continue;
                };
                let hold = if self_pct == 0 {
                    trap_hold
                } else {
                    let kind = p.kind();
                    let share = piece_share(pos, ctx, w, c, kind, sq, t);
                    let scale = SELF_SCALE[usize::from(ctx.stronger[c][kind.index()]).min(8)];
                    hold(enemy_control + share * scale * self_pct / 400)
                };
                if hold == 0 {
                    continue;
                }
                let freedom = steps_to_free(pos, c, ctx.frozen[c], sq);
                let factor = w[id::capture_risk_freedom.at(freedom)];
                let value = ctx.values[c][p.kind().index()] + 50;
                f(c, sq, weights.at(k), -value * side_pct, hold * factor);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::pos;
    use crate::{FeatureSink, ScoreSink};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Round 47's set (shipped until round 52, a piece's own share of an enemy trap at 50 %)
    /// with sharp's priors and the pieces priced at their HarLog values (`piece_value_pct`
    /// 100, as sharp prices them): the charges below are sharp's numbers.
    fn priors() -> Weights {
        let mut w = crate::weights_file::parse(
            include_str!("../../data/weights/round47-material-140-piece-value-140.json"),
            &Weights::default(),
        )
        .unwrap()
        .weights
        .with_sharp_priors();
        w[id::piece_value_pct] = 100;
        w
    }

    /// The threat distance of the piece on `at` at trap `t`.
    fn distance_of(p: &Position, at: &str, t: usize) -> Option<usize> {
        let w = priors();
        let ctx = Context::new(p, &w);
        let reach = Reach::new(p, &ctx);
        let piece = p.piece_at(sq(at)).unwrap();
        threat_distance(p, &reach, piece.color(), piece.kind(), sq(at), t)
    }

    /// Each side's capture-risk total with sharp's priors.
    fn risk(p: &Position) -> ByColor<i32> {
        risk_with_self(p, priors()[id::capture_risk_self_pct])
    }

    #[test]
    fn a_capture_is_credited_net_of_the_risk_already_charged_on_its_target() {
        // Gold to move: the silver cat on c4, beside gold's home trap c3 and the gold
        // elephant on d4, is charged a risk and can be pushed in this turn; the silver dog on
        // h5 is charged none. Silver's rabbits keep the board legal.
        let p = pos(
            "g",
            &[
                ("E", "d4"),
                ("R", "a1"),
                ("R", "h1"),
                ("c", "c4"),
                ("d", "h5"),
                ("r", "a8"),
                ("r", "h8"),
            ],
        );
        let base = Weights::default();
        let ctx = Context::new(&p, &base);
        let on_cat = largest_risk_on(&p, &ctx, &base, Color::Silver, PieceKind::Cat);
        assert!(on_cat > 10, "{on_cat}");
        // The cat is silver's only piece at risk: its charge is silver's whole capture-risk
        // term, as the scoring sink sums it.
        let silver_risk = crate::explain(&p, &base).get(crate::Term::CaptureRisk, Color::Silver);
        assert_eq!(on_cat, -silver_risk);
        assert_eq!(
            largest_risk_on(&p, &ctx, &base, Color::Silver, PieceKind::Dog),
            0
        );
        assert_eq!(
            largest_risk_on(&p, &ctx, &base, Color::Silver, PieceKind::Horse),
            0
        );
        // The captures term: the cat's value at 70 %, less the risk on it at the net share.
        let cat = ctx.values[Color::Silver][PieceKind::Cat.index()];
        let captures = |net: i32| {
            let mut w = base.clone();
            w[id::capture_now_net_pct] = net;
            let b = crate::explain(&p, &w);
            let twin = crate::explain(&p.flip(), &w);
            let term = [
                b.get(crate::Term::Captures, Color::Gold),
                b.get(crate::Term::Captures, Color::Silver),
            ];
            let flipped = [
                twin.get(crate::Term::Captures, Color::Silver),
                twin.get(crate::Term::Captures, Color::Gold),
            ];
            assert_eq!(flipped, term);
            term
        };
        let pct = base[id::capture_now_pct];
        assert_eq!(captures(0), [pct * cat / 100, 0]);
        assert_eq!(captures(100), [pct * (cat - on_cat) / 100, 0]);
        assert_eq!(captures(50), [pct * (cat - on_cat / 2) / 100, 0]);
    }

    #[test]
    fn the_hold_is_sharps_logistic() {
        // 1024 / (1 + e^(-x/16)) - 12 at x = c - 45.
        assert_eq!(hold(45), 512 - 12);
        assert_eq!(hold(-25), 0);
        assert_eq!(hold(-200), 0);
        assert_eq!(hold(500), 1023 - 12);
        for c in [-10, 20, 61, 77, 100] {
            let exact = 1024.0 / (1.0 + (-(c - 45) as f64 / 16.0).exp()) - 12.0;
            assert!((f64::from(hold(c)) - exact).abs() <= 1.0, "{c}");
        }
        assert!((-30..200).all(|c| hold(c) <= hold(c + 1)));
    }

    #[test]
    fn a_lone_piece_beside_an_unguarded_trap_is_two_steps_from_capture() {
        // A gold dog on c4, beside c3, with the silver elephant on d4: the elephant pushes it
        // onto c3 in two steps; no gold guard.
        let p = pos("s", &[("D", "c4"), ("e", "d4"), ("R", "h1"), ("r", "h8")]);
        assert_eq!(distance_of(&p, "c4", 0), Some(2));
        // Each further gold guard of c3 adds two steps.
        let q = pos(
            "s",
            &[
                ("D", "c4"),
                ("e", "d4"),
                ("C", "b3"),
                ("R", "h1"),
                ("r", "h8"),
            ],
        );
        assert_eq!(distance_of(&q, "c4", 0), Some(4));
        // The attacker two empty squares away adds its two steps.
        let r = pos("s", &[("D", "c4"), ("e", "e5"), ("R", "h1"), ("r", "h8")]);
        assert_eq!(distance_of(&r, "c4", 0), Some(2 + 2));
        // No stronger enemy piece within three steps: no risk.
        let s = pos(
            "s",
            &[
                ("D", "c4"),
                ("c", "d4"),
                ("e", "h5"),
                ("R", "h1"),
                ("r", "h8"),
            ],
        );
        assert_eq!(distance_of(&s, "c4", 0), None);
    }

    #[test]
    fn blockers_on_the_line_and_on_the_trap_add_steps() {
        // Dog on c5, two steps above c3; the elephant beside it on d5.
        let base = [("D", "c5"), ("e", "d5"), ("R", "h1"), ("r", "h8")];
        let p = pos("s", &base);
        assert_eq!(distance_of(&p, "c5", 0), Some(4));
        // A gold cat on c4, between: one more step (and it guards c3: two more).
        let mut with_cat = base.to_vec();
        with_cat.push(("C", "c4"));
        assert_eq!(distance_of(&pos("s", &with_cat), "c5", 0), Some(4 + 1 + 2));
        // The gold elephant there instead: it cannot be moved, three more (and a guard).
        let mut with_e = base.to_vec();
        with_e.push(("E", "c4"));
        assert_eq!(distance_of(&pos("s", &with_e), "c5", 0), Some(4 + 3 + 2));
        // A silver piece on the trap: one more step.
        let mut stuffed = base.to_vec();
        stuffed.push(("c", "c3"));
        stuffed.push(("r", "d3"));
        assert_eq!(distance_of(&pos("s", &stuffed), "c5", 0), Some(4 + 1));
    }

    /// Around c6: a gold dog guarding it among a silver camel, elephant and dog.
    const AROUND_C6: [(&str, &str); 7] = [
        ("D", "b6"),
        ("m", "c7"),
        ("e", "d6"),
        ("d", "c5"),
        ("E", "e2"),
        ("R", "a1"),
        ("r", "h8"),
    ];

    #[test]
    fn a_piece_deep_in_enemy_control_is_charged_and_a_safe_one_is_not() {
        // A gold horse on c6 with one gold guard (the dog b6) among a silver camel, elephant
        // and dog: silver holds c6, the horse is two steps from capture (the dog's push away),
        // the dog five (the horse on the trap first, then the camel's step beside it).
        let mut exposed = AROUND_C6.to_vec();
        exposed.push(("H", "c6"));
        let exposed = pos("g", &exposed);
        assert_eq!(distance_of(&exposed, "c6", 2), Some(2));
        assert_eq!(distance_of(&exposed, "b6", 2), Some(5));
        let r = risk(&exposed);
        assert!(r[Color::Gold] < -40, "{r:?}");
        // Silver's pieces stand at home around a trap silver holds: next to no risk to them
        // (only the dog on c5, four steps from gold's c3, which gold barely holds).
        assert!(r[Color::Silver] > -5, "{r:?}");
        // The horse at home on c2 instead, far from any silver piece: its share is gone, and
        // the dog is closer to capture (no horse on the trap to push away first: three steps).
        let mut safe = AROUND_C6.to_vec();
        safe.push(("H", "c2"));
        let safe = pos("g", &safe);
        assert_eq!(distance_of(&safe, "c2", 0), None);
        assert_eq!(distance_of(&safe, "b6", 2), Some(3));
        let s = risk(&safe);
        assert!(s[Color::Gold] - r[Color::Gold] >= 20, "{s:?} vs {r:?}");
        assert!(s[Color::Gold] < -20, "the dog is still at risk: {s:?}");
    }

    #[test]
    fn a_frozen_piece_is_at_greater_risk_than_a_free_one() {
        // A gold dog on b3 frozen by the silver elephant on b4 (no gold friend beside it)
        // versus the same dog with a gold rabbit beside it on a3.
        let frozen = pos(
            "g",
            &[
                ("D", "b3"),
                ("e", "b4"),
                ("m", "d3"),
                ("h", "c4"),
                ("E", "h2"),
                ("R", "h1"),
                ("r", "h8"),
            ],
        );
        let free = pos(
            "g",
            &[
                ("D", "b3"),
                ("R", "a3"),
                ("e", "b4"),
                ("m", "d3"),
                ("h", "c4"),
                ("E", "h2"),
                ("R", "h1"),
                ("r", "h8"),
            ],
        );
        let (rf, rr) = (risk(&frozen)[Color::Gold], risk(&free)[Color::Gold]);
        assert!(rf < rr && rf < 0, "frozen {rf}, free {rr}");
    }

    #[test]
    fn colours_mirror_exactly_and_the_sinks_agree() {
        let w = priors();
        let positions = [
            pos(
                "g",
                &[
                    &AROUND_C6[..],
                    &[("H", "c6"), ("c", "f3"), ("r", "f2"), ("C", "g3")],
                ]
                .concat(),
            ),
            crate::test_util::seed_diagram("s"),
            crate::test_util::seed_diagram("g"),
        ];
        for p in positions {
            let f = p.flip();
            let (a, b) = (risk(&p), risk(&f));
            assert_eq!(a[Color::Gold], b[Color::Silver], "{p:?}");
            assert_eq!(a[Color::Silver], b[Color::Gold], "{p:?}");
            let ctx = Context::new(&p, &w);
            let mut rec = FeatureSink::new(&w, p.side());
            risk_features(&p, &ctx, &w, &mut rec);
            let mut score = ScoreSink::new(&w);
            risk_features(&p, &ctx, &w, &mut score);
            assert_eq!(rec.features.score(), score.score(p.side()));
        }
    }

    /// Each side's capture-risk total with sharp's priors and `capture_risk_mover_pct` at `pct`.
    fn risk_with_mover(p: &Position, pct: i32) -> ByColor<i32> {
        risk_with_param(p, id::capture_risk_mover_pct, pct)
    }

    /// A gold dog on c4 pushed at by silver's elephant on d4: the side to move's share of its
    /// risk is `capture_risk_mover_pct` with a whole turn left, back towards all of it as the
    /// steps run out; the side not to move is charged in full, and colours mirror.
    #[test]
    fn the_side_to_move_can_be_charged_less() {
        let pieces = [("D", "c4"), ("e", "d4"), ("R", "h1"), ("r", "h8")];
        let full = risk_with_mover(&pos("s", &pieces), 100)[Color::Gold];
        assert!(full < -10, "{full}");
        // Silver to move: gold's dog is charged in full whatever the share.
        for pct in [0, 50] {
            assert_eq!(risk_with_mover(&pos("s", &pieces), pct)[Color::Gold], full);
        }
        // Gold to move with four steps: the share itself.
        let gold = pos("g", &pieces);
        assert_eq!(risk_with_mover(&gold, 100)[Color::Gold], full);
        assert_eq!(risk_with_mover(&gold, 0)[Color::Gold], 0);
        assert!((risk_with_mover(&gold, 50)[Color::Gold] - full / 2).abs() <= 1);
        // One step played (the rabbit on h1 north), three left: 100 - 100 × 3/4 = 25 %.
        let mut later = gold.clone();
        later.play_step_unchecked(tusk_engine::Step::between(sq("h1"), sq("h2")).expect("a step"));
        assert_eq!(later.steps_left(), 3);
        assert!((risk_with_mover(&later, 0)[Color::Gold] - full / 4).abs() <= 1);
        // Mirrored: silver's dog, silver to move.
        let flipped = gold.flip();
        for pct in [0, 50, 100] {
            assert_eq!(
                risk_with_mover(&flipped, pct)[Color::Silver],
                risk_with_mover(&gold, pct)[Color::Gold]
            );
        }
    }

    /// Each side's capture-risk total with sharp's priors and `capture_risk_self_pct` at `pct`.
    fn risk_with_self(p: &Position, pct: i32) -> ByColor<i32> {
        risk_with_param(p, id::capture_risk_self_pct, pct)
    }

    /// Each side's capture-risk total with sharp's priors and `param` at `value`.
    fn risk_with_param(p: &Position, param: crate::weights::Param, value: i32) -> ByColor<i32> {
        let mut w = priors();
        w[param] = value;
        let ctx = Context::new(p, &w);
        let mut sink = ScoreSink::new(&w);
        risk_features(p, &ctx, &w, &mut sink);
        sink.totals()
    }

    /// Gold's camel on d6 beside silver's c6, silver's elephant two steps below it (a lost
    /// ladder game): the camel's own share of gold's control of c6 and f6 hides most of its
    /// risk; taken away, the risk grows (sharp charges about 94 cr on gold's camel and horse
    /// there, Tusk 18 without and 66 with). At a side's own home traps nothing changes.
    /// Colours mirror either way.
    #[test]
    fn a_piece_does_not_guard_the_enemy_trap_it_is_dragged_into() {
        let p = tusk_engine::notation::board::parse_aei(
            "s [rrrrrrrrd c mc d h M      H        e Eh       H D C  CD RRRRRRRR]",
        )
        .unwrap();
        let (whole, half, without) = (
            risk_with_self(&p, 0),
            risk_with_self(&p, 50),
            risk_with_self(&p, 100),
        );
        assert_eq!((whole[Color::Gold], without[Color::Gold]), (-18, -66));
        assert!(without[Color::Gold] < half[Color::Gold] && half[Color::Gold] < -18);
        // A gold dog two steps from its own c3 (five from c6) with silver's elephant beside it.
        let home = pos("g", &[("D", "d2"), ("e", "e2"), ("R", "h1"), ("r", "h8")]);
        assert!(risk_with_self(&home, 0)[Color::Gold] < 0);
        assert_eq!(risk_with_self(&home, 0), risk_with_self(&home, 100));
        for q in [&p, &home] {
            let (a, b) = (risk_with_self(q, 100), risk_with_self(&q.flip(), 100));
            assert_eq!(a[Color::Gold], b[Color::Silver]);
            assert_eq!(a[Color::Silver], b[Color::Gold]);
        }
    }

    #[test]
    fn next_on_line_geometry() {
        assert_eq!(next_on_line(sq("c5"), sq("c3")), Some(sq("c4")));
        assert_eq!(next_on_line(sq("a3"), sq("c3")), Some(sq("b3")));
        assert_eq!(next_on_line(sq("c4"), sq("c3")), None);
        assert_eq!(next_on_line(sq("b4"), sq("c3")), None);
        assert_eq!(next_on_line(sq("c3"), sq("c3")), None);
    }
}
