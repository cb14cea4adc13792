//! Verification against the brute-force reference: on random positions mated within five
//! plies, the moves that mate at each attacker node of the main line must be exactly the
//! main move plus the cooks (or final duals) verify reports, with the table shared across
//! all positions (as a worker thread shares it) so that reused entries are put to the test.

mod common;

use common::checker::Checker;
use common::{random_tsume, rng};
use std::collections::BTreeSet;
use toritsume::rules::{Move, MoveList, generate_checks};
use toritsume::solver::{Solver, SolverConfig, Status};
use toritsume::soundness::verify;

#[test]
fn cooks_and_duals_agree_with_brute_force() {
    let mut r = rng(21);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(3_000_000),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let (mut checked, mut with_cooks) = (0, 0);
    for i in 0..6000 {
        if checked >= 150 {
            break;
        }
        let pos = random_tsume(&mut r);
        let sol = solver.solve(&pos);
        if sol.status != Status::Mate || sol.plies.unwrap() > 5 || !sol.complete {
            continue;
        }
        let report = verify(&mut solver, &pos, None);
        let n = sol.plies.unwrap();
        let mut p = report.solution.position.clone();
        let mut path = Vec::new();
        let mut ck = Checker::new(p.side_to_move());
        for (ply, &main) in report.solution.moves.iter().enumerate() {
            if ply % 2 == 0 {
                let rem = n - ply as u16;
                let mut checks = MoveList::new();
                generate_checks(&p, &mut checks);
                path.push(p.key());
                let mut mating = BTreeSet::new();
                for &m in checks.iter() {
                    let mut c = p.clone();
                    c.do_move(m);
                    if ck.and_mated(&c, rem - 1, &mut path).0 {
                        mating.insert(m);
                    }
                }
                path.pop();
                let list = if rem == 1 {
                    &report.final_duals
                } else {
                    &report.cooks
                };
                let mut reported: BTreeSet<Move> = list
                    .iter()
                    .filter(|c| c.ply == ply + 1 && c.after == report.solution.moves[..ply])
                    .map(|c| c.mv)
                    .collect();
                reported.insert(main);
                assert_eq!(
                    mating,
                    reported,
                    "position {i} {pos:?}, ply {}: brute force vs verify",
                    ply + 1
                );
            }
            path.push(p.key());
            p.do_move(main);
        }
        checked += 1;
        with_cooks += !report.cooks.is_empty() as u32;
    }
    assert!(checked >= 150, "only {checked} positions checked");
    // About one in seven (20 of the 150 with this seed): enough to put the cook search to
    // the test.
    assert!(with_cooks >= 15, "only {with_cooks} cooked positions");
}
