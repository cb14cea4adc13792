//! The bundled problem sets: every answer checked by the brute-force reference (independent
//! of the solver), the solver finding exactly the recorded solution, and verification
//! confirming the recorded verdict. Long problems and the full generated set run with
//! `--ignored` (in release, by `.ci/run`).

mod common;

use common::checker::{Checker, check_solution, rest_to_defender};
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::problem::Problem;
use toritsume::solver::{Solver, SolverConfig, Status, with_rest_to_defender};
use toritsume::soundness::verify;

fn load(path: &str) -> Vec<Problem> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Problem::from_json(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

fn status(p: &Problem) -> Option<&str> {
    p.extra.get("status").and_then(|v| v.as_str())
}

/// The reference confirms each recorded answer (problems up to `max_plies`, or the others).
fn reference_check(path: &str, long: bool) {
    let mut n = 0;
    for p in load(path) {
        let pos = parse_position(&p.sfen).unwrap();
        if status(&p) == Some("nomate") {
            if long {
                continue;
            }
            // No mate within nine plies by brute force (the solver proves no mate at all).
            let q = rest_to_defender(&pos);
            let mut ck = Checker::new(q.side_to_move());
            assert!(
                !ck.or_mates(&q, 9, &mut Vec::new()).0,
                "{}: a mate exists",
                p.sfen
            );
            n += 1;
            continue;
        }
        let plies = p.plies.expect("plies");
        if (plies > 9) != long {
            continue;
        }
        let moves = parse_move_list(&with_rest_to_defender(&pos), &p.moves.join(" ")).unwrap();
        if let Err(e) = check_solution(&pos, plies, &moves) {
            panic!("{}: recorded solution refuted: {e}", p.sfen);
        }
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn classic_answers_hold_by_brute_force() {
    reference_check("problems/classic.jsonl", false);
}

#[test]
#[ignore = "brute force on 11- to 15-ply problems takes minutes; run in release by .ci/run"]
fn classic_long_answers_hold_by_brute_force() {
    reference_check("problems/classic.jsonl", true);
}

/// The solver and the verifier reproduce each record: status, length, main line, verdict.
fn solver_and_verifier_agree(path: &str, every: usize) {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 64,
        ..SolverConfig::default()
    });
    let records = load(path);
    let mut checked = 0;
    for (i, p) in records.iter().enumerate() {
        if i % every != 0 {
            continue;
        }
        let pos = parse_position(&p.sfen).unwrap();
        let r = verify(&mut solver, &pos, None);
        let sol = &r.solution;
        if status(p) == Some("nomate") {
            assert_eq!(sol.status, Status::NoMate, "{}", p.sfen);
        } else {
            assert_eq!(sol.status, Status::Mate, "{}", p.sfen);
            assert_eq!(sol.plies, p.plies, "{}", p.sfen);
            let moves: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
            assert_eq!(moves, p.moves, "{}", p.sfen);
            assert!(sol.minimal && sol.complete, "{}", p.sfen);
        }
        assert_eq!(
            Some(r.verdict.as_str()),
            p.verdict.as_deref(),
            "{}: {:?}",
            p.sfen,
            r.reasons
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn classic_set_solves_and_verifies_as_recorded() {
    let records = load("problems/classic.jsonl");
    assert!(records.len() >= 30);
    let lengths: std::collections::BTreeSet<u16> = records.iter().filter_map(|p| p.plies).collect();
    for n in [1, 3, 5, 7, 9, 11] {
        assert!(lengths.contains(&n), "no {n}-ply problem");
    }
    for p in &records {
        assert!(p.source.is_some() && p.note.is_some(), "{}", p.sfen);
    }
    solver_and_verifier_agree("problems/classic.jsonl", 1);
}
