//! Mid-turn positions (1, 2 or 3 steps of the turn already played) are exactly as right as
//! turn starts: every enumerator and game check agrees with a brute force of the independent
//! step-rule reference (`tusk_tests::reference`), which reaches the mid-turn state by playing
//! the same steps itself and knows the board the turn started on.

use std::collections::{HashMap, HashSet};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tusk_engine::notation::board::{parse_aei, to_aei, to_aei_with_side};
use tusk_engine::notation::turn::play_steps;
use tusk_engine::{
    turn_boundary_result, Color, Game, Move, Pending, Position, Square, Step, StepList, Turn,
    TurnGen,
};
use tusk_tests::reference::{cells_of, Cells, RefPos};
use tusk_tests::{random_board, random_game};

const START: &str = tusk_engine::notation::board::STANDARD_OPENING;

/// Turn-start positions where the game is not over: mid-game positions of random games,
/// random full armies and sparse random boards.
fn bases() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..24u64 {
        let game = random_game(0x3d_0000 + seed, 40);
        out.extend(game.into_iter().skip(2).step_by(9));
    }
    let mut rng = SmallRng::seed_from_u64(0x3d_7e57);
    while out.len() < 180 {
        let sparse = out.len() % 3 != 0;
        let p = random_board(&mut rng, sparse);
        if turn_boundary_result(&p).is_none() {
            out.push(p);
        }
    }
    out.retain(|p| turn_boundary_result(p).is_none());
    out
}

/// The legal steps as sorted (from, to) index pairs.
fn pairs(list: &StepList) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = list
        .iter()
        .map(|s| (s.from().index(), s.to().index()))
        .collect();
    v.sort_unstable();
    v
}

/// What the sweep met, to show the test reached the cases it is about.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    by_steps_played: [usize; 4],
    push_pending: usize,
    pull_pending: usize,
    may_end_now: usize,
    no_legal_step: usize,
    turns: usize,
}

/// Checks one mid-turn position `pos` (reached from the turn start `start_cells` by the
/// reference state `r`) against the reference.
fn check_mid_turn(pos: &Position, r: &RefPos, start_cells: &Cells, gen: &mut TurnGen) -> usize {
    let what = format!(
        "{pos:?} (turn began {})",
        tusk_tests::reference::cells_aei(start_cells)
    );
    // Steps and the end-of-turn check.
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    let mut want_steps = r.legal();
    want_steps.sort_unstable();
    want_steps.dedup();
    assert_eq!(pairs(&list), want_steps, "legal steps of {what}");
    assert_eq!(pos.has_legal_step(), !want_steps.is_empty(), "{what}");
    for from in Square::all() {
        for dir in tusk_engine::Direction::ALL {
            if let Some(s) = Step::try_new(from, dir) {
                let legal = want_steps.contains(&(from.index(), s.to().index()));
                assert_eq!(pos.is_legal_step(s), legal, "is_legal_step {s} in {what}");
                assert_eq!(pos.check_step(s).is_ok(), legal, "check_step {s} in {what}");
            }
        }
    }
    assert_eq!(
        pos.can_end_turn(),
        r.can_end(start_cells),
        "can_end_turn of {what}"
    );

    // Every enumerator: the distinct boards a completion of this turn reaches.
    let want = r.turn_boards(start_cells);
    assert_eq!(gen.count(pos), want.len(), "count of {what}");
    let mut got = HashSet::new();
    let visited = gen.for_each_turn(pos, &mut |t| {
        // The steps shown complete the turn from here, each legal, to the position shown.
        let mut q = pos.clone();
        for &s in t.steps {
            assert_eq!(
                q.check_step(s),
                Ok(()),
                "step {s} of {:?} in {what}",
                t.steps
            );
            q.play_step_unchecked(s);
        }
        assert!(
            q.can_end_turn(),
            "{:?} cannot end the turn: {what}",
            t.steps
        );
        q.end_turn();
        assert_eq!(&q, t.position, "{:?} from {what}", t.steps);
        assert!(t.position.at_turn_start() && t.position.side() == !pos.side());
        assert!(
            got.insert(to_aei(t.position)),
            "two turns reach {}",
            to_aei(t.position)
        );
    });
    assert_eq!(visited, want.len(), "for_each_turn of {what}");
    assert_eq!(got, want, "for_each_turn boards of {what}");
    let listed: HashSet<String> = gen.turns(pos).iter().map(|(_, q)| to_aei(q)).collect();
    assert_eq!(listed, want, "turns() of {what}");
    // Excluding one board (as the repetition rule does) removes exactly that one.
    if let Some(one) = got.iter().next() {
        let key = parse_aei(&format!("{} {one}", (!pos.side()).letter()))
            .expect("a listed board")
            .board_key();
        assert_eq!(
            gen.count_excluding(pos, &|k| k == key),
            want.len() - 1,
            "count_excluding of {what}"
        );
    }

    // The game: nothing is decided mid-turn, and its legal turns are the same completions.
    assert_eq!(turn_boundary_result(pos), None, "{what}");
    let game = Game::from_position(pos.clone(), 2);
    assert_eq!(
        game.result(),
        None,
        "a mid-turn game decides nothing: {what}"
    );
    let legal: HashSet<String> = game
        .legal_turns(gen)
        .iter()
        .map(|(_, q)| to_aei(q))
        .collect();
    assert_eq!(legal, want, "Game::legal_turns of {what}");
    want.len()
}

/// Every enumerator and game check on positions with 1, 2 and 3 steps of the turn already
/// played, against the reference's brute force over every step sequence from there (which
/// completes half-done pushes, never starts a push on the last step, offers pulls, and
/// excludes the turn-start board, not the current one).
#[test]
fn mid_turn_enumeration_agrees_with_brute_force() {
    let mut rng = SmallRng::seed_from_u64(0x3d_5eed);
    let mut gen = TurnGen::new();
    let mut cov = Coverage::default();
    let mut list = StepList::new();
    for base in bases() {
        let r0 = RefPos::from_position(&base);
        assert_eq!(base.turn_start_key(), base.board_key());
        for played in 1..=3usize {
            for _walk in 0..2 {
                let mut pos = base.clone();
                let mut r = r0.clone();
                let mut ok = true;
                for _ in 0..played {
                    pos.legal_steps(&mut list);
                    // A third of the time prefer moving an enemy piece (push starts and
                    // pulls), a third of the time an own piece beside a weaker enemy (which
                    // opens a pull); otherwise any step.
                    let side = pos.side();
                    let enemy: Vec<Step> = list
                        .iter()
                        .copied()
                        .filter(|s| pos.piece_at(s.from()).map(|p| p.color()) == Some(!side))
                        .collect();
                    let pullers: Vec<Step> = list
                        .iter()
                        .copied()
                        .filter(|s| {
                            let Some(p) = pos.piece_at(s.from()) else {
                                return false;
                            };
                            let weaker_enemy = |n: Square| {
                                pos.piece_at(n)
                                    .is_some_and(|q| q.color() != side && q.kind() < p.kind())
                            };
                            p.color() == side
                                && tusk_engine::NEIGHBOURS[s.from().index()]
                                    .filter(|&n| weaker_enemy(n))
                                    .count()
                                    > 0
                        })
                        .collect();
                    let pick = match rng.gen_range(0..3) {
                        0 if !enemy.is_empty() => enemy.choose(&mut rng).copied(),
                        1 if !pullers.is_empty() => pullers.choose(&mut rng).copied(),
                        _ => list.choose(&mut rng).copied(),
                    };
                    let Some(s) = pick else {
                        ok = false;
                        break;
                    };
                    pos.play_step_unchecked(s);
                    r = r.play(&[(s.from().index(), s.to().index())]);
                }
                if !ok {
                    continue;
                }
                assert_eq!(to_aei(&pos), r.aei(), "board after {played} steps");
                assert_eq!(pos.steps_left() as usize, 4 - played);
                assert_eq!(
                    pos.turn_start_key(),
                    base.board_key(),
                    "turn-start key after {played} steps"
                );
                cov.positions += 1;
                cov.by_steps_played[played] += 1;
                match pos.pending() {
                    Pending::Push { .. } => cov.push_pending += 1,
                    Pending::Pull { .. } => cov.pull_pending += 1,
                    Pending::None => {}
                }
                cov.may_end_now += usize::from(pos.can_end_turn());
                cov.no_legal_step += usize::from(!pos.has_legal_step());
                cov.turns += check_mid_turn(&pos, &r, &r0.cells, &mut gen);
            }
        }
    }
    eprintln!("{cov:?}");
    // The sweep reaches every case it is about (the numbers are those of this seed).
    assert!(
        cov.by_steps_played[1..].iter().all(|&n| n >= 300),
        "{cov:?}"
    );
    assert!(cov.push_pending >= 50, "{cov:?}");
    assert!(cov.pull_pending >= 50, "{cov:?}");
    assert!(cov.may_end_now >= 500, "{cov:?}");
}

/// The reference reaches a mid-turn state by its own steps; the engine's position after the
/// same steps must show the same board and the same continuations also when the steps go
/// back to the turn-start board (where ending is not allowed) and away again.
#[test]
fn returning_to_the_turn_start_board_mid_turn_agrees_with_brute_force() {
    let mut gen = TurnGen::new();
    let start = parse_aei(START).expect("the opening");
    let r0 = RefPos::from_position(&start);
    let sq = |s: &str| Square::parse(s).expect("a square").index();
    for (text, steps) in [
        (
            "Ee2n Ee3s",
            vec![(sq("e2"), sq("e3")), (sq("e3"), sq("e2"))],
        ),
        (
            "Ee2n Ee3s Md2n",
            vec![
                (sq("e2"), sq("e3")),
                (sq("e3"), sq("e2")),
                (sq("d2"), sq("d3")),
            ],
        ),
        (
            "Ee2n Md2n Md3s",
            vec![
                (sq("e2"), sq("e3")),
                (sq("d2"), sq("d3")),
                (sq("d3"), sq("d2")),
            ],
        ),
    ] {
        let pos = play_steps(&start, text).expect("legal steps").1;
        let r = r0.play(&steps);
        assert_eq!(to_aei(&pos), r.aei(), "{text}");
        check_mid_turn(&pos, &r, &r0.cells, &mut gen);
    }
}

/// The opening after `2g Ee2n Ee3n Ee4n` (elephant on e5, one step left) has exactly 15
/// distinct turns. By hand: with one step left no push can start and nothing can be pulled
/// (no silver piece is near e4), so a turn is ending now (legal: the board differs from the
/// turn start, which had the elephant on e2) or one simple step: the elephant to e6, e4, d5
/// or f5 (4); one of the seven other rank-2 pieces north (a2, b2, c2, d2, f2, g2, h2: the cats
/// on c3 and f3 die there, unguarded, which is still a distinct board) (7); and into the
/// empty e2 the camel from d2, the cat from f2 or the rabbit from e1 (3). 1 + 4 + 7 + 3 = 15,
/// all boards distinct and none equal to the turn start.
#[test]
fn opening_after_three_elephant_steps_has_15_turns() {
    let start = parse_aei(START).expect("the opening");
    let pos = play_steps(&start, "Ee2n Ee3n Ee4n").expect("legal").1;
    assert_eq!(pos.steps_left(), 1);
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    assert_eq!(list.len(), 14);
    assert!(pos.can_end_turn());

    let sq = |s: &str| Square::parse(s).expect("a square").index();
    let r = RefPos::from_position(&start).play(&[
        (sq("e2"), sq("e3")),
        (sq("e3"), sq("e4")),
        (sq("e4"), sq("e5")),
    ]);
    let want = r.turn_boards(&cells_of(&start));
    assert_eq!(want.len(), 15, "the reference's brute force");

    let mut gen = TurnGen::new();
    assert_eq!(gen.count(&pos), 15);
    let mut empty = 0;
    gen.for_each_turn(&pos, &mut |t| empty += usize::from(t.steps.is_empty()));
    assert_eq!(empty, 1, "ending the turn at once is one of them");
    let game = Game::from_position(pos.clone(), 2);
    assert_eq!(game.result(), None);
    assert_eq!(game.legal_turns(&mut gen).len(), 15);
    check_mid_turn(&pos, &r, &cells_of(&start), &mut gen);
}

/// A mid-turn position with no legal step but a legal end of turn is not a loss by
/// immobilisation: the turn ends (its only completion), and the game goes on. Here the gold
/// rabbit a6 steps to a7, where silver rabbits on a8 and b7 box it in (equal rabbits do not
/// freeze, a rabbit cannot step back, and rabbits cannot push).
#[test]
fn no_legal_step_mid_turn_is_not_immobilisation() {
    let base =
        parse_aei(&format!("g [r      h r      R       {}]", " ".repeat(40))).expect("a board");
    let pos = play_steps(&base, "Ra6n").expect("legal").1;
    assert_eq!(pos.steps_left(), 3);
    assert!(!pos.has_legal_step());
    assert!(pos.can_end_turn());
    let sq = |s: &str| Square::parse(s).expect("a square").index();
    let r = RefPos::from_position(&base).play(&[(sq("a6"), sq("a7"))]);
    assert!(r.legal().is_empty());
    let want = r.turn_boards(&cells_of(&base));
    assert_eq!(want.len(), 1, "only ending the turn");

    let mut game = Game::from_position(pos.clone(), 2);
    assert_eq!(game.result(), None, "no immobilisation mid-turn");
    let turns = game.legal_turns(&mut TurnGen::new());
    assert_eq!(turns.len(), 1);
    assert!(turns[0].0.is_empty(), "the one turn is ending now");
    game.play(&Move::Turn(Turn::default()))
        .expect("ending the turn is legal");
    assert_eq!(game.side_to_move(), Color::Silver);
    assert_eq!(game.result(), None, "silver can move");
    check_mid_turn(&pos, &r, &cells_of(&base), &mut TurnGen::new());
}

/// The example: the opening after `Ee2n Ee3s` and the opening with the elephant on
/// e4 after `Ee4s Ee3s` stand on the same board with the same side, steps left and pending
/// state, but their turns began on different boards, so they continue differently and
/// `search_key` must tell them apart; equal states have equal keys.
#[test]
fn search_key_covers_the_turn_start_board() {
    let a_start = parse_aei(START).expect("the opening");
    let b_start = parse_aei("g [rrrrrrrrdhcemchd                    E           DHCM CHDRRRRRRRR]")
        .expect("the elephant on e4");
    let a = play_steps(&a_start, "Ee2n Ee3s").expect("legal").1;
    let b = play_steps(&b_start, "Ee4s Ee3s").expect("legal").1;
    assert_eq!(to_aei_with_side(&a), to_aei_with_side(&b));
    assert_eq!((a.steps_left(), a.pending()), (b.steps_left(), b.pending()));
    assert_ne!(a.turn_start_key(), b.turn_start_key());
    assert_ne!(a.search_key(), b.search_key());
    // They do continue differently: b may end now, a may not.
    assert!(!a.can_end_turn() && b.can_end_turn());
    let mut gen = TurnGen::new();
    let ta: HashSet<String> = gen.turns(&a).iter().map(|(_, q)| to_aei(q)).collect();
    let tb: HashSet<String> = gen.turns(&b).iter().map(|(_, q)| to_aei(q)).collect();
    assert!(tb.contains(&to_aei(&a)) && !ta.contains(&to_aei(&a)));
    assert!(ta.contains(&to_aei(&b_start)) && !tb.contains(&to_aei(&b_start)));
    // Equal states reached by other steps share the key.
    let a2 = play_steps(&a_start, "Ee2n Ee3s").expect("legal").1;
    assert_eq!(a2.search_key(), a.search_key());
    let c1 = play_steps(&a_start, "Ee2n Md2n").expect("legal").1;
    let c2 = play_steps(&a_start, "Md2n Ee2n").expect("legal").1;
    assert_eq!(c1, c2);
    assert_eq!(c1.search_key(), c2.search_key());
}

/// On many states (every one- and two-step state of random turn starts, and of turn starts
/// two steps away from them, so that equal boards with different turn starts occur), equal
/// states have equal `search_key`s and different states different ones.
#[test]
fn search_key_is_equal_exactly_for_equal_states() {
    let mut states: Vec<Position> = Vec::new();
    let mut list = StepList::new();
    let mut list2 = StepList::new();
    for (i, base) in bases().into_iter().enumerate().step_by(3) {
        base.legal_steps(&mut list);
        // The base and a turn start two steps away (the base after two steps, as a turn
        // start): from each, two steps can reach the other's boards.
        let mut starts = vec![base.clone()];
        if let Some(&s) = list.get(i % list.len().max(1)) {
            let moved = base.after_step(s);
            moved.legal_steps(&mut list2);
            if let Some(&t) = list2.get(i % list2.len().max(1)) {
                let moved = moved.after_step(t);
                if moved.can_end_turn() {
                    starts.push(parse_aei(&to_aei_with_side(&moved)).expect("a board"));
                }
            }
        }
        for start in starts {
            start.legal_steps(&mut list);
            for &s in list.iter() {
                let one = start.after_step(s);
                states.push(one.clone());
                one.legal_steps(&mut list2);
                for &t in list2.iter() {
                    states.push(one.after_step(t));
                }
            }
        }
    }
    let describe = |p: &Position| {
        format!(
            "{} {} {:?} {:x}",
            to_aei_with_side(p),
            p.steps_left(),
            p.pending(),
            p.turn_start_key()
        )
    };
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let mut by_state: HashMap<String, u64> = HashMap::new();
    let mut same_board_other_start = 0;
    let mut by_hash: HashMap<u64, u64> = HashMap::new();
    for p in &states {
        let d = describe(p);
        if let Some(prev) = by_key.insert(p.search_key(), d.clone()) {
            assert_eq!(prev, d, "two different states share a search key");
        }
        if let Some(prev) = by_state.insert(d.clone(), p.search_key()) {
            assert_eq!(prev, p.search_key(), "one state, two search keys: {d}");
        }
        if let Some(prev_start) = by_hash.insert(p.hash(), p.turn_start_key()) {
            same_board_other_start += usize::from(prev_start != p.turn_start_key());
        }
    }
    eprintln!(
        "{} states, {} distinct; {same_board_other_start} met an equal hash with another turn start",
        states.len(),
        by_state.len()
    );
    assert!(by_state.len() >= 20_000, "{}", by_state.len());
    assert!(same_board_other_start >= 100, "{same_board_other_start}");
}
