//! What a search's answer says against a record's claims: a `status`, `verdict` or `plies`
//! it contradicts, a line that is not the solution; and the record as a search settles it,
//! what the pages that publish records show. The claims a record can be checked for without
//! a search are [`super::claims`]'.

use super::{Problem, ProblemError};
use crate::solver::{Solution, Solver, Status};
use crate::soundness::{IntendedFault, Verdict};

fn claim(field: &'static str, reason: impl Into<String>) -> ProblemError {
    ProblemError::Claim {
        field,
        reason: reason.into(),
    }
}

impl Problem {
    /// What `sol`, a search's answer for this record's problem, says against its claims,
    /// if anything: a `status` or `verdict` of no mate (within the record's `max_plies`, when
    /// it gives one) where the search finds a mate; a length (`plies`, else a whole line's)
    /// other than the shortest mate's (or, for a length not proven shortest, `"minimal":
    /// false`, shorter than it); a mate claimed (a length, `status` `mate`, a verdict of a
    /// problem with a solution) where the search finds none. Nothing when the answer decides
    /// nothing: a limit stopped it, or a length limit of the search's own below the length
    /// claimed.
    pub fn disagreement(&self, sol: &Solution) -> Option<ProblemError> {
        let status = self.status_claim().and_then(Result::ok);
        let found_text = || {
            format!(
                "{}{}",
                if sol.minimal { "" } else { "at most " },
                crate::notation::plies(sol.plies.unwrap_or(0) as u64)
            )
        };
        let says_nomate = |field: &'static str| -> Option<ProblemError> {
            let word = match field {
                "status" => status,
                _ => self.verdict.as_deref(),
            };
            if word != Some("nomate") {
                return None;
            }
            // "No mate within N" is contradicted only by a mate within N.
            let within = self.nomate_within();
            if within.is_some_and(|n| sol.plies.is_some_and(|p| p > n)) {
                return None;
            }
            let claimed = within.map_or("nomate".to_string(), |n| {
                format!("no mate within {}", crate::notation::plies(n as u64))
            });
            Some(claim(
                field,
                format!(
                    "the record says {claimed}, but the position mates in {}",
                    found_text()
                ),
            ))
        };
        let length = self.plies.or_else(|| {
            (self.line_is_whole() && !self.moves.is_empty()).then_some(self.moves.len() as u16)
        });
        match sol.status {
            Status::Unknown => None,
            Status::Mate => {
                if let Some(e) = says_nomate("status").or_else(|| says_nomate("verdict")) {
                    return Some(e);
                }
                let found = sol.plies?;
                let claimed = length?;
                let wrong = match (self.length_is_shortest(), sol.minimal) {
                    // Both shortest: they must be the same.
                    (true, true) => claimed != found,
                    // The record's is shortest, the search's at most: it cannot be longer.
                    (true, false) => claimed > found,
                    // The record's is at most: the shortest cannot be longer.
                    (false, true) => found > claimed,
                    (false, false) => false,
                };
                wrong.then(|| {
                    claim(
                        "plies",
                        format!(
                            "the record says {}{claimed}, but the position mates in {}",
                            if self.length_is_shortest() {
                                ""
                            } else {
                                "at most "
                            },
                            found_text()
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

    /// What a verification's `verdict` says against the record's own `verdict`, if anything:
    /// the two differ, both decided (neither `unknown`). The verification must have had no
    /// length limit of its own (one shorter than the problem finds no mate in it).
    pub fn verdict_disagreement(&self, verdict: Verdict) -> Option<ProblemError> {
        let claimed = self.verdict.as_deref()?;
        let found = verdict.to_string();
        (claimed != "unknown" && verdict != Verdict::Unknown && claimed != found).then(|| {
            claim(
                "verdict",
                format!("the record says {claimed}, but the problem is {found}"),
            )
        })
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
            || !self.line_is_whole()
            || !self.length_is_shortest()
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
            // A line the record does not give whole, or whose length is not proven
            // shortest, is the search's.
            if settled.moves.is_empty() || !self.line_is_whole() || !self.length_is_shortest() {
                settled.moves = crate::notation::usi::line_to_usi(&sol.moves);
                settled.hodges.clear();
            }
        } else {
            settled.plies = None;
            settled.moves.clear();
            settled.hodges.clear();
        }
        for k in ["complete", "minimal"] {
            settled.extra.remove(k);
            settled.extra_text.remove(k);
        }
        Ok(settled)
    }
}

/// Each record as a search of its problem settles it ([`Problem::settled`]), the records
/// shared out among `threads` workers, each with a solver made with `config` and a cleared
/// table for every record, so that the answers do not depend on the thread count; in the
/// records' order. An error when a table of `config.hash_mb` cannot be had.
pub fn settle_all(
    records: &[Problem],
    config: &crate::solver::SolverConfig,
    threads: usize,
) -> Result<Vec<Result<Problem, ProblemError>>, crate::solver::TableError> {
    use rayon::prelude::*;
    Solver::new(config.clone())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        // The search recurses along the checking line.
        .stack_size(64 << 20)
        .build()
        .map_err(|e| crate::solver::TableError::Threads {
            threads,
            reason: e.to_string(),
        })?;
    Ok(pool.install(|| {
        records
            .par_iter()
            .map_init(
                || Solver::new(config.clone()).expect("a table of the size just made"),
                |solver, r| r.settled(solver),
            )
            .collect()
    }))
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
    fn what_solve_json_writes_under_a_limit_is_read_as_what_it_says() {
        let mut solver = Solver::new(SolverConfig {
            hash_mb: 4,
            threads: 1,
            ..SolverConfig::default()
        })
        .unwrap();
        let p = record(SEVEN);
        solver.clear_table();
        let sol = solver.solve(&p.position().unwrap());
        assert_eq!((sol.plies, sol.minimal), (Some(7), true));
        let said = |fields: &str| {
            let r = record(&format!("{SEVEN},{fields}"));
            assert_eq!(r.check(), Ok(()), "{fields}");
            r.disagreement(&sol).map(|e| e.to_string())
        };
        // "No mate within 5" (a --max-plies 5 search) holds against a mate in 7; within 9
        // it does not.
        assert_eq!(said(r#""status":"nomate","max_plies":5"#), None);
        assert_eq!(
            said(r#""status":"nomate","max_plies":9"#).as_deref(),
            Some(
                "status: the record says no mate within 9 plies, but the position mates in 7 plies"
            )
        );
        // A length not proven shortest is "at most": 9 holds, 5 does not.
        assert_eq!(said(r#""status":"mate","plies":9,"minimal":false"#), None);
        assert_eq!(
            said(r#""status":"mate","plies":5,"minimal":false"#).as_deref(),
            Some("plies: the record says at most 5, but the position mates in 7 plies")
        );
        // The start of a line a limit cut short is checked as far as it goes, and claims no
        // length of its own.
        assert_eq!(
            said(r#""plies":7,"complete":false,"moves":["F*6b","6a6b","7d6c"]"#),
            None
        );
        let r = record(&format!(
            r#"{SEVEN},"plies":3,"complete":false,"moves":["F*6b","6a6b","7d6c","6b7a"]"#
        ));
        assert!(matches!(
            r.check(),
            Err(ProblemError::Claim { field: "plies", .. })
        ));
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
