//! The solver against the brute-force reference (tests/common/checker.rs) on random
//! mate-problem-like positions: whatever the solver answers about mates within five plies,
//! the reference must confirm, main line included.

mod common;

use common::checker::{Checker, check_solution, rest_to_defender};
use common::{random_tsume, rng};
use toritsume::solver::{Solver, SolverConfig, Status};

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
                if let Err(e) = check_solution(&pos, plies, &sol.moves) {
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
