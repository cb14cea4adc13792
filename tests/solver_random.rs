//! The solver against the brute-force reference (tests/common/checker.rs) on random
//! mate-problem-like positions: whatever the solver answers about mates within five plies,
//! the reference must confirm, main line included.

mod common;

use common::checker::{Checker, check_left_out, check_solution, rest_to_defender};
use common::{random_tsume, rng};
use toritsume::solver::{Solution, Solver, SolverConfig, Status};

const HORIZON: u16 = 5;

#[test]
fn solver_agrees_with_brute_force_on_random_positions() {
    let mut r = rng(11);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(200_000),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let (mut mates, mut nomates, mut longer) = (0, 0, 0);
    let mut solver_time = std::time::Duration::ZERO;
    let mut check_time = std::time::Instant::now().elapsed();
    for i in 0..20_000 {
        if mates >= 120 && nomates >= 120 {
            break;
        }
        let pos = random_tsume(&mut r);
        let t = std::time::Instant::now();
        let sol = solver.solve(&pos);
        solver_time += t.elapsed();
        let t = std::time::Instant::now();
        let what = format!("position {i}: {pos:?}");
        match sol.status {
            Status::Mate if sol.plies.unwrap() <= HORIZON => {
                assert!(sol.minimal, "{what}");
                let plies = sol.plies.unwrap();
                assert!(sol.complete, "{what}");
                if let Err(e) = check_solution(&pos, plies, &sol.moves) {
                    panic!("{what}: solver says mate in {plies} {:?}: {e}", sol.moves);
                }
                let left_out: Vec<_> = sol.useless.iter().map(|u| (u.ply, u.mv)).collect();
                if let Err(e) = check_left_out(&pos, plies, &sol.moves, &left_out) {
                    panic!("{what}: solver says mate in {plies} {:?}: {e}", sol.moves);
                }
                mates += 1;
            }
            Status::Mate | Status::NoMate => {
                let p = rest_to_defender(&pos);
                let mut ck = Checker::new(p.side_to_move());
                assert!(
                    !ck.or_mates(&p, HORIZON, &mut Vec::new()).0,
                    "{what}: the solver says {:?} {:?}, the reference mates within {HORIZON}",
                    sol.status,
                    sol.plies
                );
                if sol.status == Status::Mate {
                    longer += 1;
                } else {
                    nomates += 1;
                }
            }
            Status::Unknown => {}
        }
        check_time += t.elapsed();
    }
    eprintln!(
        "{mates} mates, {nomates} no mates, {longer} longer; solver {solver_time:?}, reference {check_time:?}"
    );
    assert!(
        mates > 100 && nomates > 100,
        "{mates} mates, {nomates} no mates, {longer} longer"
    );
}

/// Checks that two solves of one position, with and without a technique that must change
/// only the work, give the same status, length and main line; their nodes, or `None` when
/// either stopped at its node budget.
fn same_answer(a: &Solution, b: &Solution, what: &str) -> Option<(u64, u64)> {
    if a.status == Status::Unknown || b.status == Status::Unknown {
        return None;
    }
    assert_eq!(
        (a.status, a.plies, &a.moves),
        (b.status, b.plies, &b.moves),
        "{what}"
    );
    Some((a.nodes, b.nodes))
}

/// The quick refutations near the depth limit (`Techniques::quick_refutations`)
/// change the work, never the answer: on random positions, "mate within 3 / 5 plies"
/// searched with them and without them give the same status, length and main line, the
/// brute-force reference confirms each no-mate, and with them the searches take fewer
/// nodes in all (they do engage).
#[test]
fn quick_refutations_change_the_work_not_the_answer() {
    use toritsume::solver::Techniques;
    let mut r = rng(23);
    let solver = |quick: bool, max: u16| {
        Solver::new(SolverConfig {
            hash_mb: 16,
            nodes: Some(200_000),
            max_plies: Some(max),
            techniques: Techniques {
                quick_refutations: quick,
                ..Techniques::default()
            },
            ..SolverConfig::default()
        })
        .expect("a table of a few MB")
    };
    let mut with = [solver(true, 3), solver(true, 5)];
    let mut without = [solver(false, 3), solver(false, 5)];
    let (mut nodes_with, mut nodes_without) = (0u64, 0u64);
    let (mut compared, mut nomates) = (0, 0);
    for i in 0..3_000 {
        let pos = random_tsume(&mut r);
        for (k, max) in [3u16, 5].into_iter().enumerate() {
            let a = with[k].solve(&pos);
            let b = without[k].solve(&pos);
            let what = format!("position {i} within {max}: {pos:?}");
            let Some((na, nb)) = same_answer(&a, &b, &what) else {
                continue;
            };
            nodes_with += na;
            nodes_without += nb;
            compared += 1;
            if a.status == Status::NoMate && nomates < 200 {
                let p = rest_to_defender(&pos);
                let mut ck = Checker::new(p.side_to_move());
                assert!(!ck.or_mates(&p, max, &mut Vec::new()).0, "{what}");
                nomates += 1;
            }
        }
    }
    eprintln!(
        "{compared} searches, {nomates} no-mates checked; nodes {nodes_with} with, {nodes_without} without"
    );
    assert!(
        compared > 4_000 && nomates >= 200,
        "{compared} searches, {nomates} no-mates"
    );
    assert!(
        nodes_with < nodes_without,
        "{nodes_with} nodes with, {nodes_without} without"
    );
}

/// Stopping a defender node's replies at the first that refutes it for good
/// (`Techniques::early_refutation`) changes the work, never the answer: on random
/// positions, searched without a depth limit and within 5 plies, with it and without it,
/// the status, length and main line are the same, and with it the searches take fewer
/// nodes in all (it does engage).
#[test]
fn early_refutation_changes_the_work_not_the_answer() {
    use toritsume::solver::Techniques;
    let mut r = rng(29);
    let solver = |early: bool, max: Option<u16>| {
        Solver::new(SolverConfig {
            hash_mb: 16,
            nodes: Some(200_000),
            max_plies: max,
            techniques: Techniques {
                early_refutation: early,
                ..Techniques::default()
            },
            ..SolverConfig::default()
        })
        .expect("a table of a few MB")
    };
    let mut with = [solver(true, None), solver(true, Some(5))];
    let mut without = [solver(false, None), solver(false, Some(5))];
    let (mut nodes_with, mut nodes_without) = (0u64, 0u64);
    let (mut compared, mut mates, mut nomates) = (0, 0, 0);
    for i in 0..1_500 {
        let pos = random_tsume(&mut r);
        for k in 0..2 {
            let a = with[k].solve(&pos);
            let b = without[k].solve(&pos);
            let what = format!("position {i}, search {k}: {pos:?}");
            let Some((na, nb)) = same_answer(&a, &b, &what) else {
                continue;
            };
            nodes_with += na;
            nodes_without += nb;
            compared += 1;
            match a.status {
                Status::Mate => mates += 1,
                _ => nomates += 1,
            }
        }
    }
    eprintln!(
        "{compared} searches ({mates} mates, {nomates} no-mates); nodes {nodes_with} with, {nodes_without} without"
    );
    assert!(
        compared > 2_000 && mates >= 100 && nomates >= 100,
        "{compared} searches, {mates} mates, {nomates} no-mates"
    );
    assert!(
        nodes_with < nodes_without,
        "{nodes_with} nodes with, {nodes_without} without"
    );
}

/// The defender's hand as the problem states it (`DefenderHand::Given`): on random positions
/// whose defender holds a few of the pieces left over (none, or up to three), interleaved on
/// one table with the same positions under the convention (the defender holding every
/// piece left), every answer about mates within five plies is confirmed by the brute-force
/// reference playing the hands as given, main line included. A table entry from one
/// convention answering for the other would show here: the same board and attacker hand
/// with other defender hands.
#[test]
fn a_stated_defender_hand_agrees_with_brute_force() {
    use common::checker::check_solution_as_given;
    use rand::RngExt;
    use toritsume::rules::{PieceKind, Position};
    use toritsume::solver::DefenderHand;
    let mut r = rng(31);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(200_000),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let (mut mates, mut nomates, mut differ) = (0, 0, 0);
    for i in 0..20_000 {
        if mates >= 100 && nomates >= 100 && differ >= 20 {
            break;
        }
        let rest = rest_to_defender(&random_tsume(&mut r));
        // A few of the pieces left over, drawn at random, stay with the defender.
        let defender = rest.side_to_move().flip();
        let mut pool: Vec<PieceKind> = PieceKind::HAND
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k, rest.hand(defender).count(k) as usize))
            .collect();
        let mut s = rest.to_setup();
        s.hands[defender.index()] = [0; 6];
        for _ in 0..r.random_range(0..4) {
            let k = pool.swap_remove(r.random_range(0..pool.len()));
            s.hands[defender.index()][k.index()] += 1;
        }
        let pos = Position::from_setup(&s).expect("fewer pieces in hand is still legal");
        let what = format!("position {i}: {pos:?}");
        // The convention first, so that its entries are in the table.
        solver.set_defender_hand(DefenderHand::Rest);
        let conventional = solver.solve(&pos);
        solver.set_defender_hand(DefenderHand::Given);
        let sol = solver.solve(&pos);
        if (conventional.status, conventional.plies) != (sol.status, sol.plies) {
            differ += 1;
        }
        match sol.status {
            Status::Mate if sol.plies.unwrap() <= HORIZON => {
                let plies = sol.plies.unwrap();
                assert!(sol.minimal, "{what}");
                if let Err(e) = check_solution_as_given(&pos, plies, &sol.moves) {
                    panic!("{what}: solver says mate in {plies} {:?}: {e}", sol.moves);
                }
                mates += 1;
            }
            Status::Mate | Status::NoMate => {
                let mut ck = Checker::new(pos.side_to_move());
                assert!(
                    !ck.or_mates(&pos, HORIZON, &mut Vec::new()).0,
                    "{what}: the solver says {:?} {:?}, the reference mates within {HORIZON}",
                    sol.status,
                    sol.plies
                );
                nomates += usize::from(sol.status == Status::NoMate);
            }
            Status::Unknown => {}
        }
    }
    eprintln!("{mates} mates, {nomates} no mates, {differ} differing from the convention");
    assert!(
        mates >= 100 && nomates >= 100 && differ >= 20,
        "{mates} mates, {nomates} no mates, {differ} differing from the convention"
    );
}

/// The tries (`Solver::tries_at`) against the brute-force reference: on random positions
/// mated within five plies, at each attacker ply of the main line, the checks listed are
/// every check but the line's own; a check listed as mating is mated within the plies
/// left, and any other's refutations are exactly the defences that are not useless
/// interpositions and after which no mate follows.
#[test]
fn tries_agree_with_brute_force() {
    use std::collections::BTreeSet;
    let mut r = rng(31);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(200_000),
        max_plies: Some(HORIZON),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let (mut lines, mut tries, mut refuted, mut cooks) = (0, 0, 0, 0);
    for i in 0..20_000 {
        if lines >= 150 {
            break;
        }
        let pos = random_tsume(&mut r);
        let sol = solver.solve(&pos);
        if sol.status != Status::Mate || !sol.complete || sol.plies.unwrap() < 3 {
            continue;
        }
        lines += 1;
        let p = sol.position.clone();
        let mut ck = Checker::new(p.side_to_move());
        let mut at = p.clone();
        let mut path = Vec::new();
        for ply in (1..=sol.moves.len()).step_by(2) {
            let what = format!("position {i}, ply {ply}: {pos:?} {:?}", sol.moves);
            let left = (sol.moves.len() + 1 - ply) as u16;
            let t = solver.tries_at(&p, &sol.moves, ply);
            assert!(t.complete, "{what}");
            let listed: BTreeSet<String> = t.list.iter().map(|x| x.mv.usi()).collect();
            let mut l = toritsume::rules::MoveList::new();
            toritsume::rules::generate_checks(&at, &mut l);
            let expected: BTreeSet<String> = l
                .iter()
                .filter(|&&m| m != sol.moves[ply - 1])
                .map(|m| m.usi())
                .collect();
            assert_eq!(listed, expected, "{what}");
            path.push(at.key());
            for x in &t.list {
                tries += 1;
                let mut child = at.clone();
                child.do_move(x.mv);
                let mates = ck.and_mated(&child, left - 1, &mut path.clone()).0;
                assert_eq!(x.mates(), mates, "{what}: {}", x.mv.usi());
                if mates {
                    cooks += 1;
                    continue;
                }
                let mut ev = toritsume::rules::MoveList::new();
                toritsume::rules::generate_legal(&child, &mut ev);
                let mut below = path.clone();
                let mut want = BTreeSet::new();
                for &e in ev.iter() {
                    if ck.useless(&child, e, left - 1, &mut below) {
                        continue;
                    }
                    let mut after = child.clone();
                    after.do_move(e);
                    below.push(child.key());
                    let holds = left < 3 || !ck.or_mates(&after, left - 2, &mut below).0;
                    below.pop();
                    if holds {
                        want.insert(e.usi());
                    }
                }
                let got: BTreeSet<String> = x.refutations.iter().map(|e| e.usi()).collect();
                assert_eq!(got, want, "{what}: {}", x.mv.usi());
                refuted += 1;
            }
            // On along the main line: the attacker's move and the defence.
            at.do_move(sol.moves[ply - 1]);
            if ply < sol.moves.len() {
                path.push(at.key());
                at.do_move(sol.moves[ply]);
            }
        }
    }
    eprintln!("{lines} lines, {tries} tries: {refuted} refuted, {cooks} mating too");
    assert!(
        lines >= 150 && refuted > 500,
        "{lines} lines, {refuted} refuted"
    );
}
