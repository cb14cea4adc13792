//! Soundness of a mate problem (docs/RULES.md "Soundness"): whether its solution is unique
//! and economical. Built on the solver and its table:
//!
//! - **cooks**: at every attacker move of the solution, every other move that also mates
//!   within the remaining length (each with its own main line as proof). The solution here
//!   is the main line *and* every other defence as long as the main line's (a line the
//!   defender may equally choose must be unique too);
//! - **final duals**: alternative last mating moves (tolerated by convention, listed);
//! - **spare pieces**: the main line ending with pieces in the attacker's hand;
//! - **redundant pieces**: a board piece, or a piece of the attacker's hand, whose removal
//!   leaves a problem with the same solution (same length, the main line still a solution)
//!   that is no less sound (no cook, no new final dual): docs/RULES.md's "economical";
//! - the **intended solution**, when given, checked against the rules of a solution.
//!
//! The verdict is `sound` only when all of this was proven within the limits.
//!
//! This file holds the verdict, the report and its [`Flaw`]s, and the order of the checks;
//! `cooks`, `redundant` and `intended` each hold one of them. `repair` finds the single
//! changes that make an unsound problem sound.

mod cooks;
mod intended;
mod redundant;
mod repair;

pub use intended::{Intended, IntendedFault};
pub use redundant::{
    Economised, MAX_TAKEN_OFF, Redundant, economise, piece_too_many, spare_from_hand,
};
pub use repair::{Change, Repairs, repairs, single_changes};

use crate::rules::{Hand, Move, Position};
use crate::solver::{Limits, Progress, Solution, Solver, Stage, Status, StopReason};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The verdict on a problem.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Verdict {
    /// Unique solution, no spare or redundant pieces.
    Sound,
    /// Another attacker move mates within the remaining length somewhere on the main line.
    Cooked,
    /// Spare pieces, redundant pieces or a wrong intended solution.
    Flawed,
    /// No mate.
    NoMate,
    /// A limit stopped the verification before it could decide.
    Unknown,
}

/// How far a verification goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum VerifyMode {
    /// Everything: every cook, final dual and redundant piece.
    #[default]
    Full,
    /// Stop at the first cook (then the report lists only what was found before, and
    /// redundancy is checked only when no cook was found): the generator needs only the
    /// verdict.
    FirstFlaw,
}

/// Why a verdict is not `sound`: a flaw of the problem, or what kept the verification from
/// deciding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Flaw {
    /// No mate (within the length limit, if one was set).
    #[error("{}", match .max_plies {
        Some(n) => format!("no mate within {}", crate::notation::plies(*n)),
        None => "no mate".to_string(),
    })]
    NoMate {
        /// The length limit of the solve.
        max_plies: Option<u16>,
    },
    /// A limit stopped the solve.
    #[error("the solve was stopped: {}", limit_hit(*.0))]
    SolveStopped(Option<StopReason>),
    /// A limit kept the solution from being proven minimal or read to the end.
    #[error("the solution could not be completed: {}", limit_hit(*.0))]
    SolutionIncomplete(Option<StopReason>),
    /// A limit stopped the search for cooks.
    #[error("the cook search was stopped: {}", limit_hit(*.0))]
    CookSearchStopped(Option<StopReason>),
    /// A limit stopped the search for redundant pieces.
    #[error("the redundancy check was stopped: {}", limit_hit(*.0))]
    RedundancyCheckStopped(Option<StopReason>),
    /// Another attacker move mates in time.
    #[error("cook at ply {ply}: {}", mv.usi())]
    Cook {
        /// The ply (1-based).
        ply: usize,
        /// The other move.
        mv: Move,
    },
    /// The main line ends with pieces in the attacker's hand (written in Hodges'
    /// abbreviations, as the reports write hands: `Sw×2`).
    #[error("spare pieces at the end of the main line: {}", crate::render::text::hand_hodges(*.0))]
    SparePieces(Hand),
    /// A piece that can be taken away without changing the solution.
    #[error("redundant piece: {0}")]
    RedundantPiece(Redundant),
    /// A limit stopped the check of the intended solution.
    #[error("the check of the intended solution was stopped: {}", limit_hit(*.0))]
    IntendedCheckStopped(Option<StopReason>),
    /// The intended solution given is not the solution.
    #[error("the intended solution is not the solution: {0}")]
    IntendedIsNot(IntendedFault),
}

impl Flaw {
    /// Whether this says the verification could not decide (a limit, or a tree too large),
    /// rather than that the problem is flawed.
    pub fn is_undecided(&self) -> bool {
        matches!(
            self,
            Flaw::SolveStopped(_)
                | Flaw::SolutionIncomplete(_)
                | Flaw::CookSearchStopped(_)
                | Flaw::RedundancyCheckStopped(_)
                | Flaw::IntendedCheckStopped(_)
        )
    }
}

/// How a report names the limit that stopped a search.
fn limit_hit(r: Option<StopReason>) -> String {
    r.map_or_else(|| "a limit was reached".to_string(), |r| r.to_string())
}

/// An alternative attacker move that also mates in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook {
    /// Ply at which it could be played (1-based).
    pub ply: usize,
    /// The moves before it: the main line's, or an equally long defence's.
    pub after: Vec<Move>,
    /// The alternative move.
    pub mv: Move,
    /// A mating line starting with the move.
    pub line: Vec<Move>,
}

/// Everything verification found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Why the verdict is not `sound`.
    pub reasons: Vec<Flaw>,
    /// The solver's solution.
    pub solution: Solution,
    /// Cooks along the main line.
    pub cooks: Vec<Cook>,
    /// Alternative final mating moves.
    pub final_duals: Vec<Cook>,
    /// Redundant pieces.
    pub redundant: Vec<Redundant>,
    /// The intended solution, when one was given.
    pub intended: Option<Intended>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall time in all.
    pub time: Duration,
}

impl Report {
    /// The distinct alternative final mating moves, in the order first found (the same
    /// move can be a dual after several equally long defences).
    pub fn final_dual_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = Vec::new();
        for d in &self.final_duals {
            if !moves.contains(&d.mv) {
                moves.push(d.mv);
            }
        }
        moves
    }
}

/// Remaining budget of a verification.
pub(crate) struct Budget {
    /// The node budget of the whole verification.
    nodes: Option<u64>,
    /// Nodes used so far.
    pub(crate) used: u64,
    /// When the verification must stop.
    deadline: Option<Instant>,
    /// A stop request from outside.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Where the verification publishes what it does (see [`Progress`]).
    progress: Option<std::sync::Arc<Progress>>,
}

impl Budget {
    /// The limits of the verification's next search (which starts at once); its progress
    /// counts the nodes used so far as the earlier searches'.
    pub(crate) fn limits(&self) -> Limits {
        if let Some(p) = &self.progress {
            p.earlier.store(self.used, Ordering::Relaxed);
            p.nodes.store(0, Ordering::Relaxed);
        }
        Limits {
            nodes: self.nodes.map(|n| n.saturating_sub(self.used)),
            deadline: self.deadline,
            stop: self.stop.clone(),
            first_search_nodes: None,
            progress: self.progress.clone(),
        }
    }

    /// Says what the verification does now, to whoever follows its progress.
    fn stage(&self, stage: Stage) {
        if let Some(p) = &self.progress {
            p.set_stage(stage);
        }
    }
}

/// Checks `moves`, a claimed solution of the problem `sol` solves (from `sol.position`),
/// against the rules of a solution (see [`Intended`]) with `solver`'s table, within its
/// limits. `sol` must be a mate proven minimal.
pub fn check_line(solver: &mut Solver, sol: &Solution, moves: &[Move]) -> Intended {
    let config = solver.config();
    let mut budget = Budget {
        nodes: config.nodes,
        used: 0,
        deadline: config.time.and_then(|t| Instant::now().checked_add(t)),
        stop: config.stop.clone(),
        progress: None,
    };
    intended::check_intended(solver, sol, sol.plies.unwrap_or(0), moves, &mut budget)
}

/// Verifies `problem` (attacker to move) with `solver`'s table and limits (the limits cover
/// the whole verification); `intended` is a claimed solution to check.
pub fn verify(solver: &mut Solver, problem: &Position, intended: Option<&[Move]>) -> Report {
    verify_with(solver, problem, intended, VerifyMode::Full)
}

/// [`verify`] in the given mode.
pub fn verify_with(
    solver: &mut Solver,
    problem: &Position,
    intended: Option<&[Move]>,
    mode: VerifyMode,
) -> Report {
    let start = Instant::now();
    let config = solver.config();
    let mut budget = Budget {
        nodes: config.nodes,
        used: 0,
        deadline: config.time.and_then(|t| start.checked_add(t)),
        stop: config.stop.clone(),
        progress: config.progress.clone(),
    };
    budget.stage(Stage::Solving);
    let max_plies = config.max_plies;
    let solution = solver.solve_with(problem, max_plies, budget.limits());
    budget.used += solution.nodes;
    let mut report = Report {
        verdict: Verdict::Unknown,
        reasons: Vec::new(),
        solution,
        cooks: Vec::new(),
        final_duals: Vec::new(),
        redundant: Vec::new(),
        intended: None,
        nodes: 0,
        time: Duration::ZERO,
    };
    let sol = &report.solution;
    match sol.status {
        Status::NoMate => {
            report.verdict = Verdict::NoMate;
            report.reasons.push(Flaw::NoMate {
                max_plies: sol.max_plies,
            });
        }
        Status::Unknown => report.reasons.push(Flaw::SolveStopped(sol.stopped_by)),
        Status::Mate => {
            let mut undecided = Vec::new();
            let first_flaw = mode == VerifyMode::FirstFlaw;
            if !sol.minimal || !sol.complete {
                undecided.push(Flaw::SolutionIncomplete(sol.stopped_by));
            } else {
                let n = sol.plies.unwrap_or(0);
                budget.stage(Stage::Cooks);
                let (cooks, duals, complete) =
                    cooks::find_cooks(solver, &report.solution, &mut budget, mode);
                report.cooks = cooks;
                report.final_duals = duals;
                if !complete {
                    undecided.push(Flaw::CookSearchStopped(solver.searcher().stopped_by()));
                }
                if !(first_flaw && (!report.cooks.is_empty() || !undecided.is_empty())) {
                    let duals = report.final_dual_moves();
                    budget.stage(Stage::Redundancy);
                    let (redundant, complete) = redundant::find_redundant(
                        solver,
                        problem,
                        &report.solution,
                        &duals,
                        &mut budget,
                        mode,
                    );
                    report.redundant = redundant;
                    if !complete {
                        undecided
                            .push(Flaw::RedundancyCheckStopped(solver.searcher().stopped_by()));
                    }
                }
                if let Some(moves) = intended {
                    budget.stage(Stage::Intended);
                    let i =
                        intended::check_intended(solver, &report.solution, n, moves, &mut budget);
                    if let Some(limit) = i.stopped {
                        undecided.push(Flaw::IntendedCheckStopped(limit));
                    }
                    report.intended = Some(i);
                }
            }
            let sol = &report.solution;
            for c in &report.cooks {
                // The same move at the same ply, cooking several variations, is one reason
                // (`cooks` keeps each variation).
                let flaw = Flaw::Cook {
                    ply: c.ply,
                    mv: c.mv,
                };
                if !report.reasons.contains(&flaw) {
                    report.reasons.push(flaw);
                }
            }
            if sol.has_spare_pieces() {
                report.reasons.push(Flaw::SparePieces(sol.spare));
            }
            for r in &report.redundant {
                report.reasons.push(Flaw::RedundantPiece(r.clone()));
            }
            if let Some(i) = &report.intended
                && let Some(fault) = &i.problem
            {
                report.reasons.push(Flaw::IntendedIsNot(fault.clone()));
            }
            report.verdict = if !report.cooks.is_empty() {
                Verdict::Cooked
            } else if !report.reasons.is_empty() {
                Verdict::Flawed
            } else if !undecided.is_empty() {
                Verdict::Unknown
            } else {
                Verdict::Sound
            };
            if report.verdict == Verdict::Unknown {
                report.reasons.extend(undecided);
            }
        }
    }
    report.nodes = budget.used;
    report.time = start.elapsed();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::Strategy;

    #[test]
    fn verdicts_statuses_and_strategies_have_one_name_in_text_and_json() {
        for (v, name) in [
            (Verdict::Sound, "sound"),
            (Verdict::Cooked, "cooked"),
            (Verdict::Flawed, "flawed"),
            (Verdict::NoMate, "nomate"),
            (Verdict::Unknown, "unknown"),
        ] {
            assert_eq!(v.to_string(), name);
            assert_eq!(serde_json::to_string(&v).unwrap(), format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Verdict>(&format!("\"{name}\"")).unwrap(),
                v
            );
        }
        for (s, name) in [
            (Status::Mate, "mate"),
            (Status::NoMate, "nomate"),
            (Status::Unknown, "unknown"),
        ] {
            assert_eq!(s.to_string(), name);
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{name}\""));
        }
        assert_eq!(Strategy::Extension.to_string(), "extension");
        assert_eq!(
            serde_json::to_string(&Strategy::Backward).unwrap(),
            "\"backward\""
        );
    }

    #[test]
    fn flaws_read_as_before() {
        assert_eq!(
            Flaw::NoMate { max_plies: Some(7) }.to_string(),
            "no mate within 7 plies"
        );
        assert_eq!(Flaw::NoMate { max_plies: None }.to_string(), "no mate");
        assert_eq!(
            Flaw::SolveStopped(Some(StopReason::Nodes)).to_string(),
            "the solve was stopped: the node limit was reached"
        );
        assert_eq!(
            Flaw::RedundancyCheckStopped(None).to_string(),
            "the redundancy check was stopped: a limit was reached"
        );
        assert!(Flaw::CookSearchStopped(None).is_undecided());
        assert!(!Flaw::SparePieces(Hand::EMPTY).is_undecided());
    }
}
