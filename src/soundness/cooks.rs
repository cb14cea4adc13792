//! Cooks and final duals: at every attacker node of the solution (the main line and every
//! other defence as long as the main line's), every other move that also mates within the
//! remaining length, each with its own main line as proof; and the quick pass that ends a
//! verification at the first cook a small search proves.

use super::{Budget, Cook, VerifyMode};
use crate::rules::{Move, MoveList, Position, generate_checks};
use crate::solver::mainline::{
    first_mating_move, line_from, longest_defences, mates_within, mating_moves,
};
use crate::solver::{Searcher, Solution, Solver};
use std::collections::HashSet;

/// Cooks and final duals along the main line; `false` when a limit cut the search.
pub(super) fn find_cooks(
    solver: &mut Solver,
    sol: &Solution,
    budget: &mut Budget,
    mode: VerifyMode,
) -> (Vec<Cook>, Vec<Cook>, bool) {
    let first_flaw = mode == VerifyMode::FirstFlaw;
    let s = solver.begin(budget.limits());
    let n = sol.plies.unwrap_or(0);
    let Some(nodes) = solution_tree(s, sol, n) else {
        budget.used += s.nodes();
        return (Vec::new(), Vec::new(), false);
    };
    if first_flaw {
        // A cheap pass first, deepest node first (shallow searches cost least): a cook that
        // a small search proves ends the verification at once.
        let full = s.node_limit();
        for node in nodes.iter().rev() {
            if node.r == 1 {
                continue;
            }
            let mut checks = MoveList::new();
            generate_checks(&node.pos, &mut checks);
            let mut anc = node.ancestors.clone();
            anc.push(node.pos.key());
            for &m in checks.iter().filter(|&&m| m != node.main) {
                let mut child = node.pos.clone();
                child.do_move(m);
                let quick = s.nodes() + QUICK_COOK_NODES;
                s.set_node_limit(Some(full.map_or(quick, |f| f.min(quick))));
                let proven = mates_within(s, &child, node.r - 1, &anc);
                s.set_node_limit(full);
                if proven {
                    budget.used += s.nodes();
                    let c = Cook {
                        ply: node.before.len() + 1,
                        after: node.before.clone(),
                        mv: m,
                        line: vec![m],
                    };
                    return (vec![c], Vec::new(), true);
                }
            }
        }
        // The quick pass's own budget is no limit of the user's.
        s.resume();
    }
    let mut cooks = Vec::new();
    let mut duals = Vec::new();
    let mut complete = true;
    let order: Vec<usize> = if first_flaw {
        (0..nodes.len()).rev().collect()
    } else {
        (0..nodes.len()).collect()
    };
    for k in order {
        let node = &nodes[k];
        let r = node.r;
        let i = node.before.len();
        let mut anc = node.ancestors.clone();
        let mating = mating_moves(s, &node.pos, r, &mut anc);
        if s.stopped() {
            complete = false;
            break;
        }
        for m in mating.into_iter().filter(|&m| m != node.main) {
            let mut child = node.pos.clone();
            child.do_move(m);
            anc.push(node.pos.key());
            let line = line_from(s, &child, r - 1, &mut anc, i + 1);
            anc.pop();
            let mut moves = vec![m];
            moves.extend(line.moves);
            let c = Cook {
                ply: i + 1,
                after: node.before.clone(),
                mv: m,
                line: moves,
            };
            if r == 1 {
                duals.push(c);
            } else {
                cooks.push(c);
            }
        }
        if first_flaw && !cooks.is_empty() {
            break;
        }
    }
    cooks.sort_by(|a, b| (a.ply, &a.after).cmp(&(b.ply, &b.after)));
    duals.sort_by(|a, b| (a.ply, &a.after).cmp(&(b.ply, &b.after)));
    budget.used += s.nodes();
    (cooks, duals, complete && !s.stopped())
}

/// An attacker node of the solution tree.
struct TreeNode {
    /// The moves leading to it.
    before: Vec<Move>,
    pos: Position,
    ancestors: Vec<u64>,
    /// Remaining length.
    r: u16,
    /// The move the solution plays here.
    main: Move,
}

/// The attacker nodes of the solution: along the main line, and along every other defence
/// as long as the main line's, in depth-first order (a position met again at the same
/// remaining length once). Only the limits of the verification bound it: `None` when one cut
/// it short.
fn solution_tree(s: &mut Searcher, sol: &Solution, n: u16) -> Option<Vec<TreeNode>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(
        Vec::<Move>::new(),
        sol.position.clone(),
        Vec::<u64>::new(),
        n,
    )];
    while let Some((before, pos, ancestors, r)) = stack.pop() {
        if r == 0 {
            continue;
        }
        // A position met again by another order of moves has the same continuations.
        if !seen.insert((pos.key(), r)) {
            continue;
        }
        // The main line's move where the node is on it, else the first that mates.
        let on_main = sol.moves.starts_with(&before);
        let main = if on_main && before.len() < sol.moves.len() {
            sol.moves[before.len()]
        } else {
            let mut anc = ancestors.clone();
            first_mating_move(s, &pos, r, &mut anc)?
        };
        if s.stopped() {
            return None;
        }
        let mut child = pos.clone();
        child.do_move(main);
        let mut anc = ancestors.clone();
        anc.push(pos.key());
        out.push(TreeNode {
            before: before.clone(),
            pos: pos.clone(),
            ancestors: ancestors.clone(),
            r,
            main,
        });
        if r < 3 {
            continue;
        }
        let (longest, len, _) = longest_defences(s, &child, r - 1, &mut anc);
        if s.stopped() {
            return None;
        }
        anc.push(child.key());
        // Depth first, the main line's own defence explored first.
        for &d in longest.iter().rev() {
            let mut grand = child.clone();
            grand.do_move(d);
            let mut b = before.clone();
            b.push(main);
            b.push(d);
            stack.push((b, grand, anc.clone(), len));
        }
    }
    Some(out)
}

/// Node budget of each search of the quick cook pass.
const QUICK_COOK_NODES: u64 = 3_000;
