//! Verification against the brute-force reference: on random positions mated within five
//! plies, the moves that mate at each attacker node of the main line must be exactly the
//! main move plus the cooks (or final duals) verify reports, with the table shared across
//! all positions (as a worker thread shares it) so that reused entries are put to the test.

mod common;

use common::checker::{Checker, check_solution, rest_to_defender};
use common::{random_tsume, rng};
use std::collections::BTreeSet;
use toritsume::notation::parse_position;
use toritsume::rules::{
    Move, MoveList, PieceKind, Position, Square, generate_checks, generate_legal,
};
use toritsume::solver::{DefenderHand, Solver, SolverConfig, Status};
use toritsume::soundness::{Redundant, Verdict, verify};

#[test]
fn cooks_and_duals_agree_with_brute_force() {
    cooks_and_duals_agree(21, DefenderHand::Rest, 150, 15);
}

/// The same with the defender's hand as the problem states it: the random positions'
/// defender holds nothing, so no interposition by a drop is there to spoil a mate.
#[test]
fn cooks_and_duals_agree_with_brute_force_with_the_hand_given() {
    cooks_and_duals_agree(22, DefenderHand::Given, 100, 10);
}

/// Verifies random positions mated within five plies under `convention` until `want`
/// have been compared with the brute-force reference, at least `cooked` of them cooked.
fn cooks_and_duals_agree(seed: u64, convention: DefenderHand, want: u32, cooked: u32) {
    let mut r = rng(seed);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(3_000_000),
        defender_hand: convention,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let (mut checked, mut with_cooks) = (0, 0);
    for i in 0..6000 {
        if checked >= want {
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
    assert!(checked >= want, "only {checked} positions checked");
    // About one in seven (20 of the 150 with seed 21): enough to put the cook search to
    // the test.
    assert!(with_cooks >= cooked, "only {with_cooks} cooked positions");
    eprintln!("{convention:?}: {checked} positions, {with_cooks} cooked");
}

/// The position `pos` without `gone` (a board square, or a kind of the attacker's hand), or
/// `None` when that leaves no legal position. Built here rather than by
/// `Redundant::taken_from`, so that the reference makes its positions itself.
fn without(pos: &Position, gone: &Redundant) -> Option<Position> {
    let mut s = pos.to_setup();
    match gone {
        Redundant::Board { square, .. } => s.board[square.index()] = None,
        Redundant::Hand { kind } => {
            let n = &mut s.hands[pos.side_to_move().index()][kind.index()];
            *n = n.checked_sub(1)?;
        }
    }
    Position::from_setup(&s).ok()
}

/// What the brute-force reference says of the problem `q` (a piece of a problem whose
/// solution `line` is `n` plies long taken out): whether `line` is still a solution of
/// exactly `n` plies with no cook at the first move, and whether every last attacker move
/// of that solution has a single mate (so that no final dual can be new).
fn reference_without(q: &Position, n: u16, line: &[Move]) -> (bool, bool) {
    let start = rest_to_defender(q);
    if check_solution(q, n, line).is_err() {
        return (false, false);
    }
    let mut ck = Checker::new(start.side_to_move());
    let mut path = vec![start.key()];
    let mating = |ck: &mut Checker, p: &Position, r: u16, path: &mut Vec<u64>| {
        let mut checks = MoveList::new();
        generate_checks(p, &mut checks);
        checks
            .iter()
            .filter(|&&m| {
                let mut c = p.clone();
                c.do_move(m);
                ck.and_mated(&c, r - 1, path).0
            })
            .count()
    };
    // The first move's alternatives mating in time are cooks (final duals when n is 1).
    let first = mating(&mut ck, &start, n, &mut path);
    if n == 1 {
        return (true, first == 1);
    }
    let no_cook = first == 1;
    // n = 3: after the first move, every real defence (no useless interposition) leads to a
    // last attacker move.
    let mut after = start.clone();
    after.do_move(line[0]);
    path.push(after.key());
    let mut replies = MoveList::new();
    generate_legal(&after, &mut replies);
    let mut single = true;
    for &d in replies.iter() {
        if ck.useless(&after, d, 2, &mut path) {
            continue;
        }
        let mut last = after.clone();
        last.do_move(d);
        path.push(last.key());
        single &= mating(&mut ck, &last, 1, &mut path) == 1;
        path.pop();
    }
    (no_cook, single)
}

/// Redundant pieces against the brute-force reference, on problems of one and three plies:
/// every piece verify calls redundant leaves the same solution, as long, with no cook at
/// the first move; and every piece whose removal leaves that and a single mate at every
/// last move (so no cook and no new final dual can come in) is called redundant. The
/// problems: the 3-ply positions the shipped set's problems were reduced from (each had a
/// redundant piece before a last check that leaves the defender interpositions), then
/// random positions.
#[test]
fn redundant_pieces_agree_with_brute_force() {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        nodes: Some(3_000_000),
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let reduced_from: Vec<Position> = common::load_problems("problems/generated.jsonl")
        .into_iter()
        .filter(|p| p.plies == Some(3))
        .filter_map(|p| Some(parse_position(p.extra.get("reduced_from")?.as_str()?).unwrap()))
        .collect();
    assert!(reduced_from.len() >= 30, "{}", reduced_from.len());
    let mut r = rng(33);
    let random = (0..3000).map(move |_| random_tsume(&mut r));
    let (mut checked, mut redundant, mut before_interpositions) = (0, 0, 0);
    for (i, pos) in reduced_from.into_iter().chain(random).enumerate() {
        if checked >= 100 {
            break;
        }
        let sol = solver.solve(&pos);
        if sol.status != Status::Mate || sol.plies.unwrap() > 3 || !sol.complete {
            continue;
        }
        let report = verify(&mut solver, &pos, None);
        if report.verdict == Verdict::Unknown {
            continue;
        }
        let n = sol.plies.unwrap();
        let line = &report.solution.moves;
        let mut candidates: Vec<Redundant> = Square::all()
            .filter_map(|square| {
                let piece = pos.piece_at(square)?;
                (piece.kind != PieceKind::Phoenix).then_some(Redundant::Board { square, piece })
            })
            .collect();
        candidates.extend(
            pos.hand(pos.side_to_move())
                .kinds()
                .map(|kind| Redundant::Hand { kind }),
        );
        for gone in candidates {
            let called = report.redundant.contains(&gone);
            let Some(q) = without(&pos, &gone) else {
                assert!(!called, "position {i} {pos:?}: {gone} cannot be taken out");
                continue;
            };
            let (same, single) = reference_without(&q, n, line);
            if called {
                assert!(
                    same,
                    "position {i} {pos:?}: {gone} is not redundant by brute force"
                );
            } else {
                assert!(
                    !(same && single),
                    "position {i} {pos:?}: {gone} is redundant by brute force, not by verify"
                );
            }
            redundant += called as u32;
        }
        // Count the problems whose last check leaves interpositions to the defender.
        let mut last = rest_to_defender(&pos);
        for &m in line {
            last.do_move(m);
        }
        let mut replies = MoveList::new();
        generate_legal(&last, &mut replies);
        before_interpositions += !replies.is_empty() as u32;
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} positions checked");
    assert!(redundant >= 30, "only {redundant} redundant pieces found");
    assert!(
        before_interpositions >= 30,
        "only {before_interpositions} mates leave interpositions"
    );
}
