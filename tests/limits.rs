//! What a search stopped by a limit still says is true. A node budget may stop a solve after
//! the mate is found (then the length is an upper bound, `minimal` false) or while the main
//! line is read (then the line is cut short, `complete` false), and a verification anywhere;
//! whatever is reported must be what a search without limits reports, or a start of it, or
//! say that it is not: the status is the true one or `unknown`, a length not proven shortest
//! is no shorter than the true one, a main line cut short is a start of the true one, a
//! verdict is the true one or `unknown`. The budgets are spread over each problem's whole
//! search, on a 1 MB table (so that later phases search again what earlier ones left).

mod common;

use toritsume::notation::parse_position;
use toritsume::solver::{Solver, Status};
use toritsume::soundness::{Verdict, verify};

/// Fractions of a problem's whole node count given as budgets.
const FRACTIONS: [f64; 7] = [0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99];

fn tiny() -> Solver {
    common::one_thread_solver(1)
}

#[test]
fn a_solve_cut_short_claims_nothing_unproven() {
    let (mut partial_lengths, mut cut_lines) = (0, 0);
    for p in common::load_problems("problems/classic.jsonl") {
        let pos = parse_position(&p.sfen).expect("a position");
        let whole = tiny().solve(&pos);
        if whole.nodes > 60_000 {
            continue; // keeps the debug build's run short; the rest are the same kind
        }
        for f in FRACTIONS {
            let budget = ((whole.nodes as f64 * f) as u64).max(1);
            let mut s = tiny();
            s.set_nodes(Some(budget));
            let cut = s.solve(&pos);
            let at = format!("{} with {budget} nodes: {:?}", p.sfen, cut.status);
            match cut.status {
                Status::Unknown => assert!(cut.stopped_by.is_some(), "{at}"),
                st => assert_eq!(st, whole.status, "{at}"),
            }
            if cut.status != Status::Mate {
                continue;
            }
            if !cut.minimal {
                partial_lengths += 1;
                assert!(cut.stopped_by.is_some(), "{at}");
                assert!(cut.plies >= whole.plies, "{at}: {:?}", cut.plies);
                // What it reads of the line of its mate is read by searches alone: at the
                // true length, a start of the true line.
                if cut.plies == whole.plies {
                    assert!(whole.moves.starts_with(&cut.moves), "{at}: {:?}", cut.moves);
                }
                continue;
            }
            assert_eq!(cut.plies, whole.plies, "{at}");
            if cut.complete {
                assert_eq!(cut.moves, whole.moves, "{at}");
            } else {
                cut_lines += 1;
                assert!(cut.stopped_by.is_some(), "{at}");
                assert!(whole.moves.starts_with(&cut.moves), "{at}: {:?}", cut.moves);
            }
        }
    }
    // Both kinds of partial answer were met.
    assert!(
        partial_lengths > 0 && cut_lines > 0,
        "{partial_lengths} {cut_lines}"
    );
}

#[test]
fn a_verification_cut_short_is_unknown_or_the_true_verdict() {
    let mut unknown = 0;
    for p in common::load_problems("problems/classic.jsonl") {
        let pos = parse_position(&p.sfen).expect("a position");
        let whole = verify(&mut tiny(), &pos, None);
        if whole.nodes > 60_000 {
            continue;
        }
        for f in FRACTIONS {
            let budget = ((whole.nodes as f64 * f) as u64).max(1);
            let mut s = tiny();
            s.set_nodes(Some(budget));
            let cut = verify(&mut s, &pos, None);
            let at = format!("{} with {budget} nodes: {:?}", p.sfen, cut.reasons);
            if cut.verdict == Verdict::Unknown {
                unknown += 1;
                assert!(cut.reasons.iter().all(|r| r.is_undecided()), "{at}");
            } else {
                assert_eq!(cut.verdict, whole.verdict, "{at}");
                assert_eq!(cut.reasons, whole.reasons, "{at}");
            }
        }
    }
    assert!(unknown > 0);
}

/// A solve's published progress carries the nodes searched when the first mate was proven,
/// even when that comes before the first periodic report (every 1024 nodes): a USI front
/// end announcing the mate never shows "nodes 0" beside it.
#[test]
fn progress_counts_the_nodes_behind_a_mate_found_early() {
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    // The README's mate in 5, proven in a few hundred nodes.
    let pos = parse_position("7/7/6k/4C2/7/7/7 b FCS 1").expect("a position");
    let progress = Arc::new(toritsume::solver::Progress::default());
    let mut s = tiny();
    s.set_progress(Some(progress.clone()));
    let sol = s.solve(&pos);
    assert_eq!((sol.status, sol.plies), (Status::Mate, Some(5)));
    assert!(sol.nodes < 1024, "{} nodes", sol.nodes);
    let mate = progress.mate().expect("the mate is published");
    assert_eq!(mate.plies, 5);
    let published = progress.nodes.load(Ordering::Relaxed);
    assert!(
        published > 0 && published <= sol.nodes,
        "{published} of {}",
        sol.nodes
    );
}
