//! The intended solution, when a problem gives one, checked against the rules of a solution
//! (docs/RULES.md "Mate problems"): legal, as long as the solution, each attacker move mating
//! in the remaining length, each defender move a longest defence that is not a useless
//! interposition, ending in mate.

use super::Budget;
use crate::rules::{Move, MoveList, generate_legal};
use crate::solver::mainline::{longest_defences, mates_within};
use crate::solver::{Solution, Solver, StopReason};

/// The intended solution checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intended {
    /// The moves as read.
    pub moves: Vec<Move>,
    /// Whether it is the main line found.
    pub is_main_line: bool,
    /// Whether it is a solution (shortest mate, longest defences, useless interpositions
    /// left out), possibly with another equally long defence than the main line's.
    pub is_solution: bool,
    /// Why not, when it is not.
    pub problem: Option<IntendedFault>,
    /// `Some` when a limit stopped the check before it was decided, holding the limit when
    /// the search names it (then `is_solution` is false and `problem` is `None`: a search
    /// cut short proves no fault).
    pub stopped: Option<Option<StopReason>>,
}

/// What is wrong with a claimed solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IntendedFault {
    /// Not as long as the solution (every move it has being right as far as it goes).
    #[error(
        "{} long, the solution is {}",
        crate::notation::plies(*plies as u64),
        crate::notation::plies(*solution)
    )]
    Length {
        /// Its length.
        plies: usize,
        /// The solution's.
        solution: u16,
    },
    /// A move that is not legal where it is played.
    #[error("ply {ply} ({}) is not legal", mv.usi())]
    Illegal {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// An attacker move that does not give check (every attacker move of a mate problem
    /// checks).
    #[error("ply {ply} ({}) does not give check", mv.usi())]
    NotCheck {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// An attacker move that does not mate within the remaining length.
    #[error("ply {ply} ({}) does not mate within {}", mv.usi(), crate::notation::plies(*within))]
    NotMating {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
        /// The remaining length.
        within: u16,
    },
    /// A defender move that is a useless interposition.
    #[error("ply {ply} ({}) is a useless interposition", mv.usi())]
    UselessInterposition {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// A defender move that does not hold out longest.
    #[error("ply {ply} ({}) is not a longest defence", mv.usi())]
    NotLongest {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The line ends with the defender not mated.
    #[error("the line does not end in mate")]
    NoMateAtEnd,
}

/// Checks a claimed solution: legal, each attacker move a check mating in the remaining
/// length, each defender move a longest defence that is not a useless interposition, as long
/// as the solution, ending in mate. The moves are read first, as far as the solution goes, so
/// that a line of the wrong length is faulted at the move where it goes wrong, when one
/// does: a slower attacker move or a defence that gives up early.
pub(super) fn check_intended(
    solver: &mut Solver,
    sol: &Solution,
    n: u16,
    moves: &[Move],
    budget: &mut Budget,
) -> Intended {
    let is_main_line = moves == sol.moves.as_slice();
    let s = solver.begin(budget.limits());
    let problem = (|| -> Option<IntendedFault> {
        let mut pos = sol.position.clone();
        let mut ancestors = Vec::new();
        for (i, &m) in moves.iter().enumerate().take(n as usize) {
            let mut legal = MoveList::new();
            generate_legal(&pos, &mut legal);
            if !legal.contains(m) {
                return Some(IntendedFault::Illegal { ply: i + 1, mv: m });
            }
            let r = n - i as u16;
            let mut child = pos.clone();
            child.do_move(m);
            if i % 2 == 0 {
                if !child.in_check() {
                    return Some(IntendedFault::NotCheck { ply: i + 1, mv: m });
                }
                ancestors.push(pos.key());
                let ok = mates_within(s, &child, r - 1, &ancestors);
                ancestors.pop();
                if !ok {
                    return Some(IntendedFault::NotMating {
                        ply: i + 1,
                        mv: m,
                        within: r,
                    });
                }
            } else {
                let (longest, _, useless) = longest_defences(s, &pos, r, &mut ancestors);
                if useless.contains(&m) {
                    return Some(IntendedFault::UselessInterposition { ply: i + 1, mv: m });
                }
                if !longest.contains(&m) {
                    return Some(IntendedFault::NotLongest { ply: i + 1, mv: m });
                }
            }
            ancestors.push(pos.key());
            pos = child;
        }
        if moves.len() != n as usize {
            return Some(IntendedFault::Length {
                plies: moves.len(),
                solution: n,
            });
        }
        let mut ev = MoveList::new();
        generate_legal(&pos, &mut ev);
        if !ev.is_empty() {
            let (real, _, _) = longest_defences(s, &pos, 0, &mut ancestors);
            if !real.is_empty() {
                return Some(IntendedFault::NoMateAtEnd);
            }
        }
        None
    })();
    budget.used += s.nodes();
    if s.stopped() {
        return Intended {
            moves: moves.to_vec(),
            is_main_line,
            is_solution: false,
            problem: None,
            stopped: Some(s.stopped_by()),
        };
    }
    Intended {
        moves: moves.to_vec(),
        is_main_line,
        is_solution: problem.is_none(),
        problem,
        stopped: None,
    }
}
