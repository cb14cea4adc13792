//! The traps a mate solver must not fall into, each on a position built for it and checked
//! against the brute-force reference: swallow-drop mates, perpetual check, useless
//! interpositions, and table entries computed on another path (graph history interaction).

mod common;

use common::checker::{Checker, check_solution, rest_to_defender};
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::rules::{Move, MoveList, PieceKind, Position, generate_checks, generate_legal};
use toritsume::solver::{Solution, Solver, SolverConfig, Status, solve};

fn pos(s: &str) -> Position {
    parse_position(s).unwrap()
}

fn no_mate_within(p: &Position, plies: u16) -> bool {
    let q = rest_to_defender(p);
    let mut ck = Checker::new(q.side_to_move());
    !ck.or_mates(&q, plies, &mut Vec::new()).0
}

/// A four-ply cycle of checks and replies from `p` back to itself, if one exists.
fn cycle(p: &Position) -> Option<[Move; 4]> {
    let key = p.key();
    let mut c1 = MoveList::new();
    generate_checks(p, &mut c1);
    for &a in c1.iter() {
        let mut p1 = p.clone();
        p1.do_move(a);
        let mut r1 = MoveList::new();
        generate_legal(&p1, &mut r1);
        for &b in r1.iter() {
            let mut p2 = p1.clone();
            p2.do_move(b);
            let mut c2 = MoveList::new();
            generate_checks(&p2, &mut c2);
            for &c in c2.iter() {
                let mut p3 = p2.clone();
                p3.do_move(c);
                let mut r2 = MoveList::new();
                generate_legal(&p3, &mut r2);
                for &d in r2.iter() {
                    let mut p4 = p3.clone();
                    p4.do_move(d);
                    if p4.key() == key {
                        return Some([a, b, c, d]);
                    }
                }
            }
        }
    }
    None
}

#[test]
fn a_swallow_drop_mate_is_no_mate() {
    // Sw*7b would mate; it is illegal, and nothing else mates.
    let p = pos("kp5/1s5/1C5/7/7/7/7 b S 1");
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(sol.status, Status::NoMate);
    assert!(no_mate_within(&p, 9));
}

#[test]
fn a_swallow_drop_check_that_is_not_mate_leads_to_mate() {
    // Sw*7b would mate at once (forbidden); the solution sacrifices the eagle and then drops
    // the swallow as a check the phoenix can answer.
    let p = pos("+Flk4/7/1C5/3L3/7/7/7 b S 1");
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(sol.status, Status::Mate);
    assert_eq!(sol.plies, Some(5));
    let usi: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
    assert!(usi.contains(&"S*6b".to_string()), "{usi:?}");
    assert!(!usi.contains(&"S*7b".to_string()));
    check_solution(&p, 5, &sol.moves).unwrap();
}

#[test]
fn perpetual_check_is_no_mate() {
    let p = pos("k6/7/1C5/7/7/7/7 b PRS 1");
    let prepared = rest_to_defender(&p);
    assert!(
        cycle(&prepared).is_some(),
        "the position has a checking cycle"
    );
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(sol.status, Status::NoMate);
    assert!(no_mate_within(&p, 9));
}

#[test]
fn useless_interpositions_do_not_lengthen_the_solution() {
    // The quail's check down file 7 can be blocked on five squares with six kinds of piece;
    // each block is taken and it is mate again, so this is a mate in 1.
    let p = pos("kp5/7/1C5/7/C6/7/L6 b - 1");
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(sol.status, Status::Mate);
    assert_eq!(sol.plies, Some(1));
    assert_eq!(sol.useless.len(), 30, "5 squares × 6 kinds");
    assert!(sol.useless.iter().all(|u| u.ply == 2 && u.mv.is_drop()));
    check_solution(&p, 1, &sol.moves).unwrap();
    // Counted move by move, the defender could make it last: after the swallow block on 7f
    // the quail takes and blocks follow on 7e, 7d, ... — a mate, but only within 11 plies.
    let prepared = rest_to_defender(&p);
    let line = parse_move_list(&prepared, "7e6d S*7f 7g7f").unwrap();
    let mut q = prepared.clone();
    for m in line {
        q.do_move(m);
    }
    assert!(q.in_check());
    assert_eq!(q.hand(q.side_to_move().flip()).count(PieceKind::Swallow), 1);
}

#[test]
fn entries_from_other_paths_do_not_hide_a_repetition() {
    // A position with a perpetual check and no mate: solving the positions of its cycle
    // first (as problems of their own, sharing the table) leaves path-bound repetition
    // disproofs behind; the position itself must still come out as no mate.
    let root = pos("k6/7/1C5/7/7/7/7 b PRS 1");
    let prepared = rest_to_defender(&root);
    let [a, b, c, d] = cycle(&prepared).unwrap();
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let mut p = prepared.clone();
    for m in [a, b, c, d] {
        p.do_move(m);
        if p.side_to_move() == prepared.side_to_move() {
            assert_eq!(solver.solve(&p).status, Status::NoMate);
        }
    }
    assert_eq!(solver.solve(&root).status, Status::NoMate);

    // A mate whose attacker can go round a checking cycle: with the cycle's positions solved
    // first, the length and line must be those of a fresh table and of the reference.
    let root = pos("1kC4/7/4+F2/7/7/7/7 b C 1");
    let prepared = rest_to_defender(&root);
    let cyc = cycle(&prepared).expect("a checking cycle");
    let fresh = solve(&root, &SolverConfig::default()).expect("a table of a few MB");
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let mut p = prepared.clone();
    for m in cyc {
        p.do_move(m);
        if p.side_to_move() == prepared.side_to_move() {
            solver.solve(&p);
        }
    }
    let again = solver.solve(&root);
    assert_eq!(again.plies, fresh.plies);
    assert_eq!(again.moves, fresh.moves);
    check_solution(&root, again.plies.unwrap(), &again.moves).unwrap();
    // And the main line repeats no position.
    let mut q = again.position.clone();
    let mut seen = vec![q.key()];
    for m in &again.moves {
        q.do_move(*m);
        assert!(!seen.contains(&q.key()));
        seen.push(q.key());
    }
}

/// Solves `sfen` unbounded within a modest budget (3 M nodes, 64 MB) and checks it found a
/// mate of `plies`, proven minimal, with its main line complete.
fn shortest_within_budget(sfen: &str, plies: u16) -> (Position, Solution) {
    let pos = parse_position(sfen).unwrap();
    let mut s = Solver::new(SolverConfig {
        hash_mb: 64,
        nodes: Some(3_000_000),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let sol = s.solve(&pos);
    assert_eq!(sol.status, Status::Mate);
    assert_eq!(sol.plies, Some(plies));
    assert!(sol.minimal && sol.complete, "{:?}", sol.stopped_by);
    (pos, sol)
}

/// An unlimited first search can prove a "mate" thousands of plies long by touring through
/// checks (here 2,175 plies, where the real solution has 11). Creeping down two plies at a
/// time from there, with searches hundreds of plies deep, never finished; the solver must
/// find the 11-ply solution, proven minimal, within a modest budget.
#[test]
fn a_first_proof_thousands_of_plies_long_still_gives_the_shortest_mate() {
    let (pos, sol) = shortest_within_budget("4R1P/3C3/7/3L1k1/5cS/3S1rC/7 b F 1", 11);
    let moves: Vec<Move> = sol.moves.clone();
    if let Err(e) = check_solution(&pos, 11, &moves) {
        panic!("{e}");
    }
}

#[test]
fn estimates_of_a_deeper_search_do_not_stall_a_shallower_one() {
    // A 23-ply problem (problems/long.jsonl) whose unbounded first search proves a mate of 25
    // plies: the search for a mate within 21 that follows, fed the first search's pn/dn
    // estimates (small pn where it must now disprove), once ran for minutes; with estimates
    // used only at the depth they were made at or a deeper one, it takes half a million
    // nodes, as from an empty table.
    let (_, sol) = shortest_within_budget("7/7/5r1/3CSk1/2+F1c1s/3LR2/7 b LS 1", 23);
    let recorded = [
        "4d3e", "2d1d", "C*2e", "1d2e", "3f2g", "2e1f", "L*2e", "2c2e", "2g2e", "1f2e", "R*2g",
        "2e1f", "S*1g", "1f1g", "3e2f", "1g1f", "2f2e", "1f2g", "5e4e", "2g1g", "4e3e", "1g2g",
        "3e2f",
    ];
    let moves: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
    assert_eq!(moves, recorded);
}

#[test]
fn drops_that_outlast_the_other_replies_are_counted() {
    // Worked out by hand (tests/useless_rule.rs has the rule's figures): the left quail
    // dropped on 3a checks the phoenix on 1c along the diagonal through 2b. The phoenix's
    // only move is to 1b (2b is on the line, 2c and 1d are its own swallows, the eagle on 1e
    // guards 2d), where the falcon dropped on 2b, guarded by the quail, mates at once: two
    // plies without interposing. A drop on 2b holds out longer, and so does its Q′ (the
    // quail takes on 2b, unguarded, and the phoenix takes it back), so the drop is a
    // defence: L*3a mates only in 7. The shortest mate, in 5, starts with the quail dropped
    // next to the phoenix, and its line has all five plies.
    let p = pos("7/4S2/5sk/6s/6+F/7/7 b FCLS 1");
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(
        (sol.status, sol.plies, sol.minimal, sol.complete),
        (Status::Mate, Some(5), true, true)
    );
    let usi: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
    assert_eq!(usi, ["L*2b", "1c2b", "C*3a", "2b2a", "F*2b"]);
    assert!(sol.useless.is_empty());
    check_solution(&p, 5, &sol.moves).unwrap();
    let prepared = rest_to_defender(&p);
    let far = parse_move_list(&prepared, "L*3a").unwrap()[0];
    let mut solver = Solver::new(SolverConfig::default()).expect("a table");
    assert!(!solver.mating_moves(&prepared, 5).contains(&far));
    assert!(solver.mating_moves(&prepared, 7).contains(&far));
}

#[test]
fn an_interposition_that_sets_the_length_is_on_the_main_line() {
    // 1. LQx6d checks the phoenix on 6b down file 6. Its moves are mated within five more
    // plies, so without interposing the defender has six; the drops on 6c hold out longer,
    // and so does their Q′ (the quail on 6c, the piece back in hand), which is not mated
    // within six: the drops are defences, and the longest of them sets the length, 17, and
    // is the main line's second move.
    let p = pos("2l2+S1/1k5/+S4+Fs/1s+s1P2/+SLFP1Ss/P6/4+sCS b C2cp2r6s 91");
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(
        (sol.status, sol.plies, sol.minimal, sol.complete),
        (Status::Mate, Some(17), true, true)
    );
    assert_eq!(sol.moves.len(), 17);
    let usi: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
    assert_eq!(&usi[..2], ["6e6d", "S*6c"]);
    assert!(sol.useless.is_empty());
    let prepared = rest_to_defender(&p);
    let mut q = prepared.clone();
    q.do_move(sol.moves[0]);
    let mut ck = Checker::new(prepared.side_to_move());
    let mut path = vec![prepared.key()];
    assert_eq!(ck.without_interposing(&q, 8, &mut path), Some(6));
    let drop = sol.moves[1];
    let q_prime = Checker::q_prime(&q, drop).expect("a Q′ for the drop");
    assert!(!ck.and_mated(&q_prime, 6, &mut path).0);
    assert!(!ck.useless(&q, drop, 8, &mut path));
    // The line ends in checkmate.
    let mut end = prepared.clone();
    for &m in &sol.moves {
        end.do_move(m);
    }
    let mut replies = MoveList::new();
    generate_legal(&end, &mut replies);
    assert!(end.in_check() && replies.is_empty(), "checkmate at the end");
}
