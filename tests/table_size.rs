//! One answer whatever the table size: status, length, main line, verdict, cooks, duals and
//! redundant pieces are the same with a table of 1 MB as with 1 GB, and equal to what the
//! problem files record (their answers are checked by brute force in problem_sets.rs). The
//! positions that once came back `unknown` with no limit set, or ran away, at one size and
//! not at another are regression tests here. The sweep over all sizes runs with
//! `--ignored` (in release, by `.ci/run`).

mod common;

use toritsume::notation::parse_position;
use toritsume::problem::Problem;
use toritsume::rules::Position;
use toritsume::solver::{Solver, SolverConfig, Status};
use toritsume::soundness::{Report, Verdict, verify};

/// Table sizes (MB) every answer must be the same at.
const SIZES: [usize; 6] = [1, 4, 16, 64, 256, 1024];

/// No mate (docs/RULES.md: the defender holds the rest). At 256 MB the search once stopped with
/// pn = INF and a small dn, and said `unknown` with no limit given.
const NO_MATE_A: &str = "7/3cp2/3Pcr1/3C1k1/2+FRL1s/3C2s/7 b P 1";
/// No mate: a bare board and a full hand of checks; `unknown` at 64 MB once.
const NO_MATE_B: &str = "3k3/7/7/7/7/7/3K3 b 2F2C2P 1";
/// A problem whose redundancy check once ran for minutes at 256 MB and took a third of a
/// second at every other size: a sound 21-ply problem (`generate --seed 2028`) until the
/// useless-interposition rule was settled, now a cooked mate in 23, its falcon dropped on 1c
/// at ply 18 a defence (see `MATE_23_TAIL`).
const MATE_23: &str = "7/3cp2/3Pcr1/3C1k1/2+FRL1s/3CS1s/7 b P 1";
/// Its main line.
const MATE_23_MOVES: [&str; 23] = [
    "4d3c", "2d1d", "C*1c", "1d1c", "3c2b", "1c1d", "2b2c", "1d2c", "3e3b", "2c3b", "P*3d", "3b2c",
    "R*3b", "2c1d", "5e1a", "P*1b", "1a1b", "F*1c", "3b2c", "1d2d", "P*2f", "2d3c", "P*3e",
];

fn load(path: &str) -> Vec<Problem> {
    common::load_problems(path)
}

fn solver(mb: usize) -> Solver {
    Solver::new(SolverConfig {
        hash_mb: mb,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| panic!("{mb} MB: {e}"))
}

/// Everything a verification answers, written out for comparison.
fn answer(r: &Report) -> String {
    let s = &r.solution;
    let moves: Vec<String> = s.moves.iter().map(|m| m.usi()).collect();
    let cooks: Vec<String> = r
        .cooks
        .iter()
        .chain(&r.final_duals)
        .map(|c| {
            let line: Vec<String> = c.line.iter().map(|m| m.usi()).collect();
            format!("ply {} {}: {}", c.ply, c.mv.usi(), line.join(" "))
        })
        .collect();
    let redundant: Vec<String> = r.redundant.iter().map(|x| x.to_string()).collect();
    format!(
        "{} {:?} minimal {} complete {} [{}] spare {} useless {} | {} | cooks/duals {:?} | redundant {:?} | {:?}",
        s.status,
        s.plies,
        s.minimal,
        s.complete,
        moves.join(" "),
        s.spare.sfen_upper(),
        s.useless.len(),
        r.verdict,
        cooks,
        redundant,
        r.reasons,
    )
}

/// Verifies `problems` with a table of `mb` MB, each from an empty table as
/// `toritsume verify` does.
fn verify_all(mb: usize, problems: &[Position]) -> Vec<Report> {
    let mut s = solver(mb);
    problems
        .iter()
        .map(|p| {
            s.clear_table();
            verify(&mut s, p, None)
        })
        .collect()
}

/// The records' positions (every `every`th) and their recorded answers.
fn records(path: &str, every: usize) -> Vec<(Position, Problem)> {
    load(path)
        .into_iter()
        .step_by(every)
        .map(|p| (p.position().unwrap(), p))
        .collect()
}

/// Verifies the records at every size: each as recorded, and every answer (cooks, duals and
/// redundant pieces included) the same at every size.
fn same_at_every_size(path: &str, every: usize, sizes: &[usize]) {
    let recs = records(path, every);
    let positions: Vec<Position> = recs.iter().map(|(p, _)| p.clone()).collect();
    let mut first: Option<(usize, Vec<String>)> = None;
    for &mb in sizes {
        let reports = verify_all(mb, &positions);
        for (r, (_, p)) in reports.iter().zip(&recs) {
            common::assert_matches_record(r, p, &format!("{mb} MB: "));
        }
        let answers: Vec<String> = reports.iter().map(answer).collect();
        match &first {
            None => first = Some((mb, answers)),
            Some((mb0, a0)) => {
                for (i, (a, b)) in a0.iter().zip(&answers).enumerate() {
                    assert_eq!(a, b, "{}: {mb0} MB and {mb} MB differ", recs[i].1.sfen);
                }
            }
        }
    }
}

fn solve_at(mb: usize, sfen: &str) -> toritsume::solver::Solution {
    solver(mb).solve(&parse_position(sfen).unwrap())
}

#[test]
fn no_mate_once_unknown_at_256_mb() {
    let s = solve_at(256, NO_MATE_A);
    assert_eq!(s.status, Status::NoMate, "{:?}", s.stopped_by);
    assert_eq!(s.stopped_by, None);
}

#[test]
fn no_mate_once_unknown_at_64_mb() {
    let s = solve_at(64, NO_MATE_B);
    assert_eq!(s.status, Status::NoMate, "{:?}", s.stopped_by);
}

#[test]
fn redundancy_check_once_runaway_at_256_mb() {
    let p = parse_position(MATE_23).unwrap();
    let reports = verify_all(256, &[p]);
    let r = &reports[0];
    assert_eq!(r.verdict, Verdict::Cooked, "{:?}", r.reasons);
    assert_eq!(r.solution.plies, Some(23));
    // It takes about 1.4 M nodes at any size; the runaway took hundreds of millions.
    assert!(r.nodes < 20_000_000, "{} nodes", r.nodes);
}

#[test]
fn classic_set_same_at_small_and_medium_tables() {
    same_at_every_size("problems/classic.jsonl", 1, &[1, 64]);
}

#[test]
#[ignore = "every size from 1 MB to 1 GB; run in release by .ci/run"]
fn classic_set_same_at_every_size() {
    same_at_every_size("problems/classic.jsonl", 1, &SIZES);
}

#[test]
#[ignore = "every size from 1 MB to 1 GB; run in release by .ci/run"]
fn generated_sample_same_at_every_size() {
    same_at_every_size("problems/generated.jsonl", 25, &SIZES);
}

/// The last six plies of [`MATE_23`], by brute force: after 9. +Fax1b (ply 17) the eagle on
/// 1b checks the phoenix on 1d down file 1; without interposing the defender has 2 plies (its
/// steps are mated at once), and the falcon dropped on 1c, taken by the eagle, leaves a Q′
/// that is not mated within them: a defence, mated in 5 more, and the 6 plies the line has
/// left.
#[test]
#[ignore = "a brute-force search of six plies; run in release by .ci/run"]
fn mate_23_tail() {
    use common::checker::{Checker, rest_to_defender};
    let p = rest_to_defender(&parse_position(MATE_23).unwrap());
    let mut q = p.clone();
    let line = toritsume::notation::parse_move_list(&p, &MATE_23_MOVES.join(" ")).unwrap();
    for &m in &line[..17] {
        q.do_move(m);
    }
    let mut path = Vec::new();
    let mut settled = Checker::new(p.side_to_move());
    assert_eq!(settled.without_interposing(&q, 6, &mut path), Some(2));
    assert!(!settled.useless(&q, line[17], 6, &mut path));
    assert_eq!(settled.and_length(&q, 6, &mut path), Some(6));
    let mut after = q.clone();
    after.do_move(line[17]);
    assert_eq!(settled.or_length(&after, 5, &mut path), Some(5));
}

#[test]
#[ignore = "every size from 1 MB to 1 GB; run in release by .ci/run"]
fn regressions_same_at_every_size() {
    for &mb in &SIZES {
        for sfen in [NO_MATE_A, NO_MATE_B] {
            let s = solve_at(mb, sfen);
            assert_eq!(s.status, Status::NoMate, "{mb} MB: {sfen}");
            assert_eq!(s.stopped_by, None);
        }
        let r = &verify_all(mb, &[parse_position(MATE_23).unwrap()])[0];
        assert_eq!(r.verdict, Verdict::Cooked, "{mb} MB: {:?}", r.reasons);
        let moves: Vec<String> = r.solution.moves.iter().map(|m| m.usi()).collect();
        assert_eq!(moves, MATE_23_MOVES, "{mb} MB");
    }
}

/// The variations (`solve --variations`) written out for comparison: each defence, its
/// length and its line.
fn variations_at(mb: usize, sfen: &str) -> Vec<String> {
    let mut s = solver(mb);
    let sol = s.solve(&parse_position(sfen).unwrap());
    assert_eq!(sol.status, Status::Mate);
    let v = s.variations(&sol);
    assert!(v.complete, "{mb} MB: {:?}", v.stopped_by);
    v.list
        .iter()
        .map(|x| {
            let line: Vec<String> = x.moves.iter().map(|m| m.usi()).collect();
            format!(
                "ply {} {} in {} {}: {}",
                x.ply,
                x.mv.usi(),
                x.plies,
                x.complete,
                line.join(" ")
            )
        })
        .collect()
}

/// A mate in 77 plies (a sound 75-ply problem of problems/climbed.jsonl before the
/// useless-interposition rule was settled; now flawed by two swallows to spare, which the
/// defender's blocks give the attacker).
const MATE_IN_77: &str = "+sc1sc+s1/+ssFl2k/ss1Sp1s/C1R1pP1/+s3s1r/C3SpS/+s+F+SL1+S1 b - 1";

/// The variations of a 77-ply mate are the same in a table of 1 MB (which its solve
/// overfills) as in 256 MB, and there are some to compare: its phoenix has other moves at
/// many plies.
#[test]
fn variations_same_at_small_and_default_tables() {
    let sfen = MATE_IN_77;
    let small = variations_at(1, sfen);
    assert!(small.len() >= 10, "{small:?}");
    assert_eq!(small, variations_at(256, sfen));
}
