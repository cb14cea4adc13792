//! Tries: the attacker's other checks at the first move of a solution, each with the
//! defences that refute it, as composers show them (`1. Fa*2c? Ph-1b!`). A check refuted by
//! a single defence is the kind a solver falls for; one that mates within the length is a
//! cook. A defence refutes a check when no mate within the plies left follows it; a useless
//! interposition never refutes (the rule sets it aside, docs/RULES.md "Useless
//! interposition"). Every answer is a depth-limited proof or disproof, so the same
//! whatever the table size.

use super::limits::StopReason;
use super::mainline::{mates_within, split_useless};
use super::{Solution, Solver};
use crate::rules::{Move, MoveList, Position, generate_checks};
use std::time::{Duration, Instant};

/// A check other than the solution's first move, and what answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try {
    /// The check.
    pub mv: Move,
    /// The defences after which no mate follows within the plies left, in generation
    /// order; none when the check mates within the solution's length too (a cook).
    pub refutations: Vec<Move>,
}

impl Try {
    /// Whether the check mates within the solution's length as well (a cook).
    pub fn mates(&self) -> bool {
        self.refutations.is_empty()
    }
}

/// The tries of a solution and what finding them took.
#[derive(Clone, Debug, Default)]
pub struct Tries {
    /// The tries, closest first: those that mate too (cooks), then by the number of their
    /// refutations, then in generation order.
    pub list: Vec<Try>,
    /// Whether every check was gone through (a limit can stop the search: the list then
    /// holds the checks decided before it, each in full).
    pub complete: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// The limit that stopped the search, if one did.
    pub stopped_by: Option<StopReason>,
}

impl Solver {
    /// The tries of `sol`, a solution this solver found (its position is the one searched):
    /// every check at the first move but the solution's own, with the defences that refute
    /// it within the solution's length. The solver's limits apply afresh. Nothing, and not
    /// complete, for a solution that is not a mate proven shortest with its main line read.
    pub fn tries(&mut self, sol: &Solution) -> Tries {
        if !sol.is_whole_mate() {
            return Tries::default();
        }
        self.tries_at(&sol.position, &sol.moves, 1)
    }

    /// The tries at attacker ply `ply` (1-based, odd) of the main line `moves` from `start`
    /// (the attacker to move, the defender's hand written out): every check there but the
    /// line's own, with the defences that refute it within the plies the line has left.
    /// The line is taken as given (a mate of exactly its length); the positions before the
    /// ply are the path, for repetitions. The solver's limits apply afresh.
    pub fn tries_at(&mut self, start: &Position, moves: &[Move], ply: usize) -> Tries {
        let time = Instant::now();
        let mut out = Tries::default();
        if ply == 0 || ply.is_multiple_of(2) || ply > moves.len() {
            return out;
        }
        let length = (moves.len() + 1 - ply) as u16;
        let limits = self.limits();
        let s = &mut self.searcher;
        s.set_position(start.clone());
        s.begin(limits);
        let mut pos = start.clone();
        let mut ancestors = Vec::new();
        for &m in &moves[..ply - 1] {
            ancestors.push(pos.key());
            pos.do_move(m);
        }
        let key = moves[ply - 1];
        let mut checks = MoveList::new();
        generate_checks(&pos, &mut checks);
        ancestors.push(pos.key());
        out.complete = true;
        for &m in checks.iter().filter(|&&m| m != key) {
            let mut child = pos.clone();
            child.do_move(m);
            // A check back to a position of the path is no mate (docs/RULES.md
            // "Repetition"): every real defence then refutes it, as does a defence back to
            // one.
            let repeats = ancestors.contains(&child.key());
            let mated = !repeats && mates_within(s, &child, length - 1, &ancestors);
            if s.stopped() {
                out.complete = false;
                break;
            }
            let mut refutations = Vec::new();
            if !mated {
                // Some real defence holds out: each one after which no mate follows within
                // the plies left.
                let (real, _) = split_useless(s, &child, length - 1, &mut ancestors);
                ancestors.push(child.key());
                for e in real {
                    let mut after = child.clone();
                    after.do_move(e);
                    if repeats
                        || length < 3
                        || ancestors.contains(&after.key())
                        || !mates_within(s, &after, length - 2, &ancestors)
                    {
                        refutations.push(e);
                    }
                    if s.stopped() {
                        break;
                    }
                }
                ancestors.pop();
                if s.stopped() {
                    // A check's refutations are given in full or not at all.
                    out.complete = false;
                    break;
                }
            }
            out.list.push(Try { mv: m, refutations });
        }
        // Stable: equally close tries keep their generation order.
        out.list.sort_by_key(|t| t.refutations.len());
        out.nodes = s.nodes();
        out.stopped_by = s.stopped_by();
        out.time = time.elapsed();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::solver::{Solver, SolverConfig};

    use crate::notation::usi::line_to_usi as usi;

    #[test]
    fn a_mate_in_one_has_tries_refuted_by_the_phoenixs_escapes() {
        // Classic No. 1, worked out by hand: Black's crane 4c and falcon 1c, a crane in
        // hand; White's phoenix 2a, pheasant 3a, left quail 2b. C*1b mates (1a and 2a's
        // other free squares are the crane's and the falcon's). Black's other checks: the
        // falcon to 2b or 1b (promoting), each met only by the phoenix taking it (nothing of
        // Black's guards either square); the crane dropped on 3b, which the crane on 4c
        // guards, so the phoenix's one way out is 1a; and that crane moved to 3b, which
        // leaves 3b unguarded: the phoenix takes it or goes to 1a.
        let pos = parse_position("4pk1/5l1/3C2F/7/7/7/7 b C 1").unwrap();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let sol = solver.solve(&pos);
        assert_eq!(usi(&sol.moves), ["C*1b"]);
        let tries = solver.tries(&sol);
        assert!(tries.complete);
        let shown: Vec<(String, Vec<String>)> = tries
            .list
            .iter()
            .map(|t| (t.mv.usi(), usi(&t.refutations)))
            .collect();
        let expected = [
            ("1c2b+", vec!["2a2b"]),
            ("1c1b+", vec!["2a1b"]),
            ("C*3b", vec!["2a1a"]),
            ("4c3b", vec!["2a1a", "2a3b"]),
        ];
        let expected: Vec<(String, Vec<String>)> = expected
            .iter()
            .map(|(m, r)| (m.to_string(), r.iter().map(|x| x.to_string()).collect()))
            .collect();
        assert_eq!(shown, expected);
    }

    #[test]
    fn a_cook_is_a_try_with_no_refutation_and_comes_first() {
        // The cooked mate in 5 of README's `verify` example: S*1d mates in 5 as well.
        let pos = parse_position("7/7/6k/4C2/7/7/7 b FCS 1").unwrap();
        let mut answers = Vec::new();
        for hash_mb in [1, 64] {
            let mut solver = Solver::new(SolverConfig {
                hash_mb,
                ..SolverConfig::default()
            })
            .unwrap();
            let sol = solver.solve(&pos);
            assert_eq!(usi(&sol.moves)[0], "F*2c");
            let tries = solver.tries(&sol);
            assert!(tries.complete);
            assert_eq!(tries.list[0].mv.usi(), "S*1d");
            assert!(tries.list[0].mates());
            assert!(tries.list[1..].iter().all(|t| !t.mates()));
            // Closest first.
            assert!(
                tries
                    .list
                    .windows(2)
                    .all(|w| w[0].refutations.len() <= w[1].refutations.len())
            );
            answers.push(
                tries
                    .list
                    .iter()
                    .map(|t| (t.mv, t.refutations.clone()))
                    .collect::<Vec<_>>(),
            );
        }
        assert_eq!(answers[0], answers[1], "the same at every table size");
    }
}
