//! What a search's answer says against a record's claims: a `status`, `verdict` or `plies`
//! it contradicts, a line that is not the solution; and the record as a search settles it,
//! what the pages that publish records show. The claims a record can be checked for without
//! a search are [`super::claims`]'.

use super::{Problem, ProblemError};
use crate::solver::{Solution, Solver, Status};
use crate::soundness::IntendedFault;

fn claim(field: &'static str, reason: impl Into<String>) -> ProblemError {
    ProblemError::Claim {
        field,
        reason: reason.into(),
    }
}

impl Problem {
    /// What `sol`, a search's answer for this record's problem, says against its claims
    /// (its `status`, `verdict` and `plies`; its line is [`Problem::check`]ed to mate):
    /// `None` when nothing, or when the answer decides nothing (a limit stopped it, or a
    /// length limit below the length claimed).
    pub fn disagreement(&self, sol: &Solution) -> Option<ProblemError> {
        let status = self.status_claim().and_then(Result::ok);
        let says_nomate = |field: &'static str| -> Option<ProblemError> {
            let word = match field {
                "status" => status,
                _ => self.verdict.as_deref(),
            };
            (word == Some("nomate")).then(|| {
                claim(
                    field,
                    format!(
                        "the record says nomate, but the position mates in {}{}",
                        if sol.minimal { "" } else { "at most " },
                        crate::notation::plies(sol.plies.unwrap_or(0) as u64)
                    ),
                )
            })
        };
        let length = self
            .plies
            .or_else(|| (!self.moves.is_empty()).then_some(self.moves.len() as u16));
        match sol.status {
            Status::Unknown => None,
            Status::Mate => {
                if let Some(e) = says_nomate("status").or_else(|| says_nomate("verdict")) {
                    return Some(e);
                }
                let found = sol.plies?;
                let claimed = length?;
                // A mate not proven shortest contradicts only a longer claim.
                let wrong = if sol.minimal {
                    claimed != found
                } else {
                    claimed > found
                };
                wrong.then(|| {
                    claim(
                        "plies",
                        format!(
                            "the record says {claimed}, but the position mates in {}{}",
                            if sol.minimal { "" } else { "at most " },
                            crate::notation::plies(found as u64)
                        ),
                    )
                })
            }
            Status::NoMate => {
                let claims_mate = length.is_some()
                    || status == Some("mate")
                    || matches!(self.verdict.as_deref(), Some("sound" | "cooked" | "flawed"));
                let within = match (sol.max_plies, length) {
                    (None, _) => true,
                    (Some(m), Some(n)) => n <= m,
                    (Some(_), None) => false,
                };
                (claims_mate && within).then(|| {
                    let what = match length {
                        Some(n) => format!("a mate in {}", crate::notation::plies(n as u64)),
                        None => "a mate".to_string(),
                    };
                    let field = if length.is_some() {
                        "plies"
                    } else if status == Some("mate") {
                        "status"
                    } else {
                        "verdict"
                    };
                    claim(
                        field,
                        format!(
                            "the record says {what}, but the position has no mate{}",
                            sol.max_plies.map_or(String::new(), |m| format!(
                                " within {}",
                                crate::notation::plies(m as u64)
                            ))
                        ),
                    )
                })
            }
        }
    }

    /// [`Problem::disagreement`], then, for a mate whose line the search has read whole,
    /// the record's line when it is not that main line: checked against the rules of a
    /// solution with `solver` (within its limits; a check a limit stops finds nothing).
    /// `sol` must be the answer for this record's problem, from [`Problem::start`].
    pub fn check_against(&self, solver: &mut Solver, sol: &Solution) -> Option<ProblemError> {
        if let Some(e) = self.disagreement(sol) {
            return Some(e);
        }
        if self.moves.is_empty()
            || sol.status != Status::Mate
            || !sol.minimal
            || !sol.complete
            || sol.moves.is_empty()
        {
            return None;
        }
        let (start, moves) = self.main_line().ok()?;
        if moves == sol.moves || start.key() != sol.position.key() {
            return None;
        }
        let checked = crate::soundness::check_line(solver, sol, &moves);
        checked.problem.as_ref().map(not_the_solution)
    }
}

impl Problem {
    /// The record as a search of its problem with `solver` (its table cleared, the record's
    /// own convention) settles it: its claims checked against the answer
    /// ([`Problem::check_against`]), and the length and line it does not give filled in
    /// from the answer (a record without a mate keeps none). What a page that publishes
    /// the record shows. An error when a claim is contradicted, or when `solver`'s limits
    /// stop the search before it decides ([`ProblemError::Undecided`]).
    pub fn settled(&self, solver: &mut Solver) -> Result<Problem, ProblemError> {
        self.check()?;
        let pos = self.position()?;
        solver.set_defender_hand(self.convention());
        solver.clear_table();
        let sol = solver.solve(&pos);
        let decided = match sol.status {
            Status::Mate => sol.minimal && sol.complete,
            Status::NoMate => sol.max_plies.is_none(),
            Status::Unknown => false,
        };
        if let Some(e) = self.check_against(solver, &sol) {
            return Err(e);
        }
        if !decided {
            return Err(ProblemError::Undecided(sol.stopped_by.map_or_else(
                || "a limit was reached".to_string(),
                |r| r.to_string(),
            )));
        }
        let mut settled = self.clone();
        if sol.status == Status::Mate {
            settled.plies = sol.plies;
            if settled.moves.is_empty() {
                settled.moves = crate::notation::usi::line_to_usi(&sol.moves);
                settled.hodges.clear();
            }
        }
        Ok(settled)
    }
}

/// The error of a record whose line breaks the rules of a solution by `fault`.
pub fn not_the_solution(fault: &IntendedFault) -> ProblemError {
    claim("moves", format!("the line is not the solution: {fault}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverConfig;

    /// The mate in 7 of the classic set (src/problem/claims.rs).
    const SEVEN: &str = r#""sfen":"1k5/2S4/7/FC5/7/7/7 b FRS 1""#;

    fn record(fields: &str) -> Problem {
        Problem::from_json(&format!("{{{fields}}}")).unwrap()
    }

    #[test]
    fn a_search_contradicts_a_length_or_a_status_it_decides() {
        let mut solver = Solver::new(SolverConfig {
            hash_mb: 4,
            threads: 1,
            ..SolverConfig::default()
        })
        .unwrap();
        let solved = |solver: &mut Solver, p: &Problem, max: Option<u16>| {
            solver.set_max_plies(max);
            solver.clear_table();
            solver.solve(&p.position().unwrap())
        };
        let message = |e: Option<ProblemError>| e.map(|e| e.to_string());
        // A mate in 7 claimed 5, or no mate.
        let five = record(&format!(r#"{SEVEN},"plies":5"#));
        let sol = solved(&mut solver, &five, None);
        assert_eq!(
            message(five.disagreement(&sol)).as_deref(),
            Some("plies: the record says 5, but the position mates in 7 plies")
        );
        let none = record(&format!(r#"{SEVEN},"status":"nomate""#));
        assert!(
            message(none.disagreement(&sol))
                .unwrap()
                .starts_with("status: the record says nomate")
        );
        // Within 5 plies there is no mate: a claim of 5 is contradicted, one of 7 is not.
        let sol5 = solved(&mut solver, &five, Some(5));
        assert_eq!(sol5.status, Status::NoMate);
        assert!(
            message(five.disagreement(&sol5))
                .unwrap()
                .contains("has no mate within 5 plies")
        );
        let seven = record(&format!(r#"{SEVEN},"plies":7"#));
        assert_eq!(message(seven.disagreement(&sol5)), None);
        // A lone swallow against a phoenix mates nothing.
        let claims = record(r#""sfen":"3k3/7/7/7/7/7/7 b S 1","status":"mate""#);
        let sol = solved(&mut solver, &claims, None);
        assert_eq!(sol.status, Status::NoMate);
        assert!(
            message(claims.disagreement(&sol))
                .unwrap()
                .contains("status: the record says a mate, but the position has no mate")
        );
        // A node limit decides nothing.
        solver.set_max_plies(None);
        solver.set_nodes(Some(3));
        let cut = solved(&mut solver, &five, None);
        assert_eq!(cut.status, Status::Unknown);
        assert_eq!(message(five.disagreement(&cut)), None);
    }

    #[test]
    fn a_record_is_settled_by_a_search() {
        let mut solver = Solver::new(SolverConfig {
            hash_mb: 4,
            threads: 1,
            ..SolverConfig::default()
        })
        .unwrap();
        // A length without a line: the line found filled in.
        let p = record(&format!(r#"{SEVEN},"plies":7"#))
            .settled(&mut solver)
            .unwrap();
        assert_eq!(p.plies, Some(7));
        assert_eq!(p.moves.len(), 7);
        assert_eq!(p.moves[0], "F*6b");
        // A line that is not the solution: the defender gives up at ply 2 (LQ*4c Ph-3c
        // holds out longest).
        let wrong = record(
            r#""sfen":"R2L3/2Pk3/7/7/7/7/7 b FCL 1","plies":7,"moves":["L*4c","4b3a","C*3b","3a2b","3b2c","2b3a","F*3b"]"#,
        );
        let e = wrong.settled(&mut solver).unwrap_err().to_string();
        assert_eq!(
            e,
            "moves: the line is not the solution: ply 2 (4b3a) is not a longest defence"
        );
        // Undecided within the limit.
        solver.set_nodes(Some(3));
        let e = record(SEVEN).settled(&mut solver).unwrap_err().to_string();
        assert!(e.starts_with("undecided: the node limit"), "{e}");
    }
}
