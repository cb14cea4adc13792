//! Verification on hand-made problems: a cooked one (cooks confirmed by brute force), final
//! duals, spare pieces, redundant pieces, intended solutions right and wrong, and the CLI's
//! verdicts and exit statuses.

mod common;

use common::checker::{Checker, rest_to_defender};
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::rules::PieceKind;
use toritsume::solver::{Solver, SolverConfig, StopReason};
use toritsume::soundness::{
    Flaw, IntendedFault, Redundant, Verdict, economise, piece_too_many, verify,
};

fn solver() -> Solver {
    Solver::new(SolverConfig {
        hash_mb: 32,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB")
}

#[test]
fn cooks_are_found_and_each_proof_line_mates() {
    let p = parse_position("7/2Pk3/2R4/2L4/7/7/7 b F2CL 1").unwrap();
    let r = verify(&mut solver(), &p, None);
    assert_eq!(r.verdict, Verdict::Cooked);
    assert_eq!(r.solution.plies, Some(7));
    // At every attacker node of the main line, the moves that mate in time (by brute force)
    // are exactly the main move and the cooks (or final duals) reported there.
    let start = rest_to_defender(&p);
    let mut ck = Checker::new(start.side_to_move());
    let mut q = start.clone();
    let mut path = Vec::new();
    for (ply, &main) in r.solution.moves.iter().enumerate() {
        if ply % 2 == 0 {
            let remaining = 7 - ply as u16;
            let mut checks = toritsume::rules::MoveList::new();
            toritsume::rules::generate_checks(&q, &mut checks);
            path.push(q.key());
            let mut mating = std::collections::BTreeSet::new();
            for &m in checks.iter() {
                let mut c = q.clone();
                c.do_move(m);
                if ck.and_mated(&c, remaining - 1, &mut path).0 {
                    mating.insert(m.usi());
                }
            }
            path.pop();
            let list = if remaining == 1 {
                &r.final_duals
            } else {
                &r.cooks
            };
            let mut reported: std::collections::BTreeSet<String> = list
                .iter()
                .filter(|c| c.ply == ply + 1 && c.after == r.solution.moves[..ply])
                .map(|c| c.mv.usi())
                .collect();
            reported.insert(main.usi());
            assert_eq!(mating, reported, "ply {}", ply + 1);
        }
        path.push(q.key());
        q.do_move(main);
    }
    // The cooks stand after equally long defences too (verify covers them all).
    assert!(r.cooks.len() >= 2, "{:?}", r.reasons);
    // Every cook mates within the remaining length, by brute force.
    let start = rest_to_defender(&p);
    let mut ck = Checker::new(start.side_to_move());
    for c in &r.cooks {
        let mut q = start.clone();
        let mut path = Vec::new();
        for &m in &c.after {
            path.push(q.key());
            q.do_move(m);
        }
        path.push(q.key());
        q.do_move(c.mv);
        let remaining = 7 - c.ply as u16;
        assert!(
            ck.and_mated(&q, remaining, &mut path).0,
            "cook {} at ply {} does not mate in time",
            c.mv,
            c.ply
        );
        assert_eq!(c.line[0], c.mv);
        assert!(c.line.len() as u16 <= remaining + 1);
    }
}

#[test]
fn final_duals_are_listed_but_tolerated() {
    let p = parse_position("R2L3/2Pk3/7/7/7/7/7 b FCL 1").unwrap();
    let r = verify(&mut solver(), &p, None);
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.reasons);
    let duals: Vec<String> = r.final_duals.iter().map(|c| c.mv.usi()).collect();
    assert!(duals.contains(&"2c3b+".to_string()), "{duals:?}");
    assert!(r.final_duals.iter().all(|c| c.ply == 7));
}

/// Cr*1b mates (classic problem 1, sound); a swallow on 7g and one in hand are pieces too
/// many, and taking them off, one at a time and verified each time, gives back the sound
/// problem. A sound or a cooked problem has no piece to take off.
#[test]
fn a_problem_flawed_only_by_pieces_too_many_is_economised() {
    let mut s = solver();
    let p = parse_position("4pk1/5l1/3C2F/7/7/7/S6 b CS 1").unwrap();
    let r = verify(&mut s, &p, None);
    assert_eq!(r.verdict, Verdict::Flawed);
    let e = economise(&mut s, &p, &r).expect("sound once the swallows are off");
    assert_eq!(e.report.verdict, Verdict::Sound);
    assert_eq!(
        toritsume::notation::sfen::write_sfen(&e.position),
        "4pk1/5l1/3C2F/7/7/7/7 b C 1"
    );
    let taken: Vec<String> = e.taken_off.iter().map(|x| x.to_string()).collect();
    assert_eq!(taken, ["Black Sw on 7g", "Sw in hand"]);
    assert!(e.nodes >= e.report.nodes);
    for sfen in [
        "4pk1/5l1/3C2F/7/7/7/7 b C 1",
        // Cooked at plies 3 and 5 (README, "verify").
        "7/2Pk3/2R4/2L4/7/7/7 b F2CL 1",
    ] {
        let p = parse_position(sfen).unwrap();
        let r = verify(&mut s, &p, None);
        assert_eq!(piece_too_many(&p, &r), None, "{sfen}");
        assert!(economise(&mut s, &p, &r).is_none(), "{sfen}");
    }
}

#[test]
fn spare_pieces_and_a_redundant_hand_piece() {
    // Cr*1b mates; the swallow in hand is never used.
    let p = parse_position("4pk1/5l1/3C2F/7/7/7/7 b CS 1").unwrap();
    let r = verify(&mut solver(), &p, None);
    assert_eq!(r.verdict, Verdict::Flawed);
    assert!(r.solution.has_spare_pieces());
    assert_eq!(r.solution.spare.count(PieceKind::Swallow), 1);
    assert!(r.redundant.contains(&Redundant::Hand {
        kind: PieceKind::Swallow
    }));
}

#[test]
fn a_redundant_board_piece() {
    let p = parse_position("kC5/2C4/3+S3/1F5/7/7/7 b 2S 1").unwrap();
    let r = verify(&mut solver(), &p, None);
    assert_eq!(r.verdict, Verdict::Flawed);
    let squares: Vec<String> = r
        .redundant
        .iter()
        .filter_map(|x| match x {
            Redundant::Board { square, .. } => Some(square.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(squares, vec!["4c"]);
    // Without it the solution is indeed the same (checked by the solver afresh).
    let q = parse_position("kC5/2C4/7/1F5/7/7/7 b 2S 1").unwrap();
    let s = toritsume::solver::solve(&q, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(s.moves, r.solution.moves);
}

/// A redundant piece is found when the last check leaves the defender nothing but useless
/// interpositions: the solution's last position is mate by the convention, not by an
/// empty move list. Here (from problems/generated.jsonl, where it was kept as sound) the
/// left quail's last check 2b1c runs down file 1 to the phoenix on 1a, a falcon dropped on
/// 1b is taken with mate, and Black's crane on 3a plays no part: without it (White then
/// holds it) the brute-force reference finds the same 3-ply solution.
#[test]
fn a_redundant_piece_before_a_mate_with_useless_interpositions() {
    let original = parse_position("4C1k/5Lr/5F1/7/7/7/7 b F 1").unwrap();
    let r = verify(&mut solver(), &original, None);
    let line: Vec<String> = r.solution.moves.iter().map(|m| m.usi()).collect();
    assert_eq!(line, ["F*2a", "1b2a", "2b1c"]);
    // The last position is check with legal replies: only interpositions on 1b.
    let mut last = rest_to_defender(&original);
    for &m in &r.solution.moves {
        last.do_move(m);
    }
    let mut replies = toritsume::rules::MoveList::new();
    toritsume::rules::generate_legal(&last, &mut replies);
    assert!(last.in_check() && !replies.is_empty());
    assert!(replies.iter().all(|m| m.to().to_string() == "1b"));
    assert_eq!(r.verdict, Verdict::Flawed, "{:?}", r.reasons);
    assert_eq!(
        r.redundant
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>(),
        ["Black Cr on 3a"]
    );
    let reduced = parse_position("6k/5Lr/5F1/7/7/7/7 b F 1").unwrap();
    common::checker::check_solution(&reduced, 3, &r.solution.moves)
        .expect("the same solution without the crane");
}

/// A piece whose removal keeps the main line but lets in a cook is not redundant: it is
/// what makes the solution unique. Here, without White's crane on 3f, the attacker can
/// also play LQ*1f at ply 3 (mate in 11 either way). Whatever the table holds beforehand
/// (here: the proof of the reduced position's mate along the original line), the answer is
/// the same.
#[test]
fn a_piece_that_prevents_a_cook_is_not_redundant() {
    let original = parse_position("4R1P/6p/7/3L1k1/6c/3Sc1C/7 b FL 1").unwrap();
    let reduced = parse_position("4R1P/6p/7/3L1k1/6c/3S2C/7 b FL 1").unwrap();
    // The reduced problem is cooked (which moves count as cooks depends on the main line
    // chosen among the mates; with the original's line, LQ*1f at ply 3 is one).
    let mut s = solver();
    let r = verify(&mut s, &reduced, None);
    assert_eq!(r.verdict, Verdict::Cooked);
    assert!(!r.cooks.is_empty());
    for prime in [false, true] {
        let mut s = solver();
        if prime {
            let _ = s.solve(&reduced);
            let _ = verify(&mut s, &reduced, None);
        }
        let r = verify(&mut s, &original, None);
        assert_eq!(r.verdict, Verdict::Sound, "primed {prime}: {:?}", r.reasons);
        assert!(r.redundant.is_empty());
    }
}

/// Nor is a piece that keeps a final dual out. With White's left quail on 2b only Cr*1b
/// mates; without it Cr*2b (on the quail's square) mates as well.
#[test]
fn a_piece_that_prevents_a_final_dual_is_not_redundant() {
    let original = parse_position("4pk1/5l1/3C2F/7/7/7/7 b C 1").unwrap();
    let r = verify(&mut solver(), &original, None);
    assert_eq!(r.verdict, Verdict::Sound, "{:?}", r.reasons);
    assert!(r.final_duals.is_empty());
    assert!(r.redundant.is_empty());
    let reduced = parse_position("4pk1/7/3C2F/7/7/7/7 b C 1").unwrap();
    let q = verify(&mut solver(), &reduced, None);
    let mates: Vec<String> = std::iter::once(q.solution.moves[0].usi())
        .chain(q.final_duals.iter().map(|d| d.mv.usi()))
        .collect();
    assert!(mates.contains(&"C*1b".to_string()) && mates.contains(&"C*2b".to_string()));
}

#[test]
fn intended_solutions_right_and_wrong() {
    let p = parse_position("R2L3/2Pk3/7/7/7/7/7 b FCL 1").unwrap();
    let prepared = toritsume::solver::with_rest_to_defender(&p);
    let mut s = solver();
    // The main line, in Hodges notation with move numbers.
    let right = parse_move_list(
        &prepared,
        "1. LQ*4c Ph-3c 2. Fa*3d Ph-2b 3. Fa-2c Ph-3a 4. Cr*3b",
    )
    .unwrap();
    let r = verify(&mut s, &p, Some(&right));
    let i = r.intended.as_ref().unwrap();
    assert!(i.is_main_line && i.is_solution);
    assert_eq!(r.verdict, Verdict::Sound);
    // A wrong first move: a legal check, but no mate in 7. The line is short too, but the
    // move where it goes wrong is what is named.
    let wrong = parse_move_list(&prepared, "F*5a 4b5a").unwrap();
    let r = verify(&mut s, &p, Some(&wrong));
    let i = r.intended.as_ref().unwrap();
    assert!(!i.is_solution);
    let fault = IntendedFault::NotMating {
        ply: 1,
        mv: wrong[0],
        within: 7,
    };
    assert_eq!(i.problem, Some(fault.clone()));
    assert_eq!(r.verdict, Verdict::Flawed);
    assert_eq!(r.reasons, vec![Flaw::IntendedIsNot(fault)]);
    // A first move that gives no check at all.
    let mut legal = toritsume::rules::MoveList::new();
    toritsume::rules::generate_legal(&prepared, &mut legal);
    let quiet = legal
        .iter()
        .copied()
        .find(|&m| {
            let mut q = prepared.clone();
            q.do_move(m);
            !q.in_check()
        })
        .expect("a move that does not check");
    let r = verify(&mut s, &p, Some(&[quiet]));
    let i = r.intended.as_ref().unwrap();
    assert_eq!(
        i.problem,
        Some(IntendedFault::NotCheck { ply: 1, mv: quiet })
    );
    // The right moves, but stopping before the mate: only the length is wrong.
    let r = verify(&mut s, &p, Some(&right[..4]));
    let i = r.intended.as_ref().unwrap();
    let fault = IntendedFault::Length {
        plies: 4,
        solution: 7,
    };
    assert_eq!(i.problem, Some(fault.clone()));
    assert_eq!(fault.to_string(), "4 plies long, the solution is 7 plies");
    assert_eq!(
        IntendedFault::Length {
            plies: 1,
            solution: 7
        }
        .to_string(),
        "1 ply long, the solution is 7 plies"
    );
    // Right length, but the defender does not resist longest at ply 2.
    let mut ev = toritsume::rules::MoveList::new();
    let mut after = prepared.clone();
    after.do_move(right[0]);
    toritsume::rules::generate_legal(&after, &mut ev);
    let short = ev
        .iter()
        .copied()
        .find(|&m| m != right[1])
        .expect("another defence");
    let mut line = vec![right[0], short];
    let mut q = after.clone();
    q.do_move(short);
    // Any continuation: the check is about ply 2.
    let sol = toritsume::solver::solve(&q, &SolverConfig::default()).expect("a table of a few MB");
    line.extend(sol.moves);
    while line.len() < 7 {
        line.push(line[line.len() - 1]);
    }
    line.truncate(7);
    let r = verify(&mut s, &p, Some(&line));
    let i = r.intended.as_ref().unwrap();
    assert!(!i.is_solution);
    assert!(
        matches!(
            i.problem,
            Some(
                IntendedFault::NotLongest { ply: 2, mv } | IntendedFault::UselessInterposition { ply: 2, mv }
            ) if mv == short
        ),
        "{:?}",
        i.problem
    );
}

/// A node budget that runs out while the intended solution is being checked leaves the
/// verdict `unknown`, never a fault the check did not prove. On a 1 MB table the check
/// searches again much of what the cook search's entries no longer hold (on classic
/// problem 34, 30,000 nodes after 920,000), so budgets in between stop it halfway: with the
/// right solution given, each of them gives `unknown`, saying that the check was stopped,
/// and the whole budget `sound`. (Heavy: a dozen verifications of a million nodes.)
#[test]
#[ignore]
fn a_budget_spent_on_the_intended_solution_is_unknown_not_a_fault() {
    let p = parse_position("7/7/7/7/2F4/kflC3/1Pr4 b 2CRS 1").unwrap();
    let prepared = toritsume::solver::with_rest_to_defender(&p);
    let right = parse_move_list(
        &prepared,
        "C*6e 7f6g 6e6f 5g6f R*7f 6g7f 5e6f 7f6f F*5e 6f7f S*7g 7f7g C*6f 7g7f R*7g",
    )
    .unwrap();
    let tiny = || common::one_thread_solver(1);
    let without = verify(&mut tiny(), &p, None).nodes;
    let whole = verify(&mut tiny(), &p, Some(&right));
    assert_eq!(whole.verdict, Verdict::Sound);
    let check = whole.nodes - without;
    assert!(check > 1_000, "{without} {}", whole.nodes);
    for k in 1..8 {
        let budget = without + check * k / 8;
        let mut s = tiny();
        s.set_nodes(Some(budget));
        let r = verify(&mut s, &p, Some(&right));
        assert_eq!(
            r.verdict,
            Verdict::Unknown,
            "budget {budget}: {:?}",
            r.reasons
        );
        assert_eq!(
            r.reasons,
            vec![Flaw::IntendedCheckStopped(Some(StopReason::Nodes))],
            "budget {budget}"
        );
        let i = r.intended.as_ref().expect("the intended solution's report");
        assert!(i.stopped.is_some() && i.problem.is_none() && !i.is_solution);
    }
    let mut s = tiny();
    s.set_nodes(Some(whole.nodes + 1_000));
    assert_eq!(verify(&mut s, &p, Some(&right)).verdict, Verdict::Sound);
}
