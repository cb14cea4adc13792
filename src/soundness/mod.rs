//! Soundness of a mate problem (RULES.md "Mate problems"): whether its solution is unique
//! and economical. Built on the solver and its table:
//!
//! - **cooks**: at every attacker move of the main line, every other move that also mates
//!   within the remaining length (each with its own main line as proof);
//! - **final duals**: alternative last mating moves (tolerated by convention, listed);
//! - **spare pieces**: the main line ending with pieces in the attacker's hand;
//! - **redundant pieces**: a board piece, or a piece of the attacker's hand, whose removal
//!   leaves the same solution (same length, same main line);
//! - the **intended solution**, when given, checked against the rules of a solution.
//!
//! The verdict is `sound` only when all of this was proven within the limits.

use crate::rules::{Move, MoveList, Piece, PieceKind, Position, Square, generate_legal};
use crate::solver::mainline::{defences, line_from, mates_within, mating_moves};
use crate::solver::{Limits, Solution, Solver, Status};
use std::time::{Duration, Instant};

/// The verdict on a problem.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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

impl Verdict {
    /// `sound`, `cooked`, `flawed`, `nomate`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Cooked => "cooked",
            Verdict::Flawed => "flawed",
            Verdict::NoMate => "nomate",
            Verdict::Unknown => "unknown",
        }
    }
}

/// An alternative attacker move that also mates in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook {
    /// Ply of the main line at which it could be played (1-based).
    pub ply: usize,
    /// The alternative move.
    pub mv: Move,
    /// A mating line starting with the move.
    pub line: Vec<Move>,
}

/// A piece that can be taken away without changing the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redundant {
    /// A piece on the board.
    Board {
        /// Its square.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// One piece of a kind in the attacker's hand.
    Hand {
        /// The kind.
        kind: PieceKind,
    },
}

impl Redundant {
    /// Short description: `Cr on 6c` / `Sw in hand`.
    pub fn describe(&self) -> String {
        match self {
            Redundant::Board { square, piece } => {
                format!("{} {} on {square}", piece.color.name(), piece.kind.hodges())
            }
            Redundant::Hand { kind } => format!("{} in hand", kind.hodges()),
        }
    }
}

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
    pub problem: Option<String>,
}

/// Everything verification found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Why the verdict is not `sound`.
    pub reasons: Vec<String>,
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

/// Remaining budget of a verification.
struct Budget {
    nodes: Option<u64>,
    used: u64,
    deadline: Option<Instant>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Budget {
    fn limits(&self) -> Limits {
        Limits {
            nodes: self.nodes.map(|n| n.saturating_sub(self.used)),
            deadline: self.deadline,
            stop: self.stop.clone(),
        }
    }
}

/// Verifies `problem` (attacker to move) with `solver`'s table and limits (the limits cover
/// the whole verification); `intended` is a claimed solution to check.
pub fn verify(solver: &mut Solver, problem: &Position, intended: Option<&[Move]>) -> Report {
    let start = Instant::now();
    let mut budget = Budget {
        nodes: solver.config.nodes,
        used: 0,
        deadline: solver.config.time.map(|t| start + t),
        stop: solver.config.stop.clone(),
    };
    let max_plies = solver.config.max_plies;
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
            report.reasons.push(match sol.max_plies {
                Some(n) => format!("no mate within {n} plies"),
                None => "no mate".into(),
            });
        }
        Status::Unknown => report.reasons.push("a limit stopped the solve".into()),
        Status::Mate => {
            let mut undecided = Vec::new();
            if !sol.minimal || !sol.complete {
                undecided.push("the solution could not be completed within the limits".into());
            } else {
                let n = sol.plies.unwrap_or(0);
                let (cooks, duals, complete) = find_cooks(solver, &report.solution, &mut budget);
                report.cooks = cooks;
                report.final_duals = duals;
                if !complete {
                    undecided.push("the cook search hit a limit".into());
                }
                let (redundant, complete) =
                    find_redundant(solver, problem, &report.solution, &mut budget);
                report.redundant = redundant;
                if !complete {
                    undecided.push("the redundancy check hit a limit".into());
                }
                if let Some(moves) = intended {
                    report.intended = Some(check_intended(
                        solver,
                        &report.solution,
                        n,
                        moves,
                        &mut budget,
                    ));
                }
            }
            let sol = &report.solution;
            for c in &report.cooks {
                report
                    .reasons
                    .push(format!("cook at ply {}: {}", c.ply, c.mv.usi()));
            }
            if sol.has_spare_pieces() {
                report.reasons.push(format!(
                    "spare pieces at the end of the main line: {}",
                    sol.spare.sfen_upper()
                ));
            }
            for r in &report.redundant {
                report
                    .reasons
                    .push(format!("redundant piece: {}", r.describe()));
            }
            if let Some(i) = &report.intended
                && !i.is_solution
            {
                report.reasons.push(format!(
                    "the intended solution is not the solution: {}",
                    i.problem.clone().unwrap_or_default()
                ));
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

/// Cooks and final duals along the main line; `false` when a limit cut the search.
fn find_cooks(
    solver: &mut Solver,
    sol: &Solution,
    budget: &mut Budget,
) -> (Vec<Cook>, Vec<Cook>, bool) {
    let s = &mut solver.searcher;
    s.limits = budget.limits();
    s.nodes = 0;
    s.aborted = false;
    let n = sol.plies.unwrap_or(0);
    let mut cooks = Vec::new();
    let mut duals = Vec::new();
    let mut pos = sol.position.clone();
    let mut ancestors: Vec<u64> = Vec::new();
    let mut complete = true;
    for (i, &main) in sol.moves.iter().enumerate() {
        if i % 2 == 0 {
            let r = n - i as u16;
            let mating = mating_moves(s, &pos, r, &mut ancestors);
            if s.aborted {
                complete = false;
                break;
            }
            for m in mating.into_iter().filter(|&m| m != main) {
                let mut child = pos.clone();
                child.do_move(m);
                ancestors.push(pos.key());
                let line = line_from(s, &child, r - 1, &mut ancestors, i + 1);
                ancestors.pop();
                let mut moves = vec![m];
                moves.extend(line.moves);
                let c = Cook {
                    ply: i + 1,
                    mv: m,
                    line: moves,
                };
                if r == 1 {
                    duals.push(c);
                } else {
                    cooks.push(c);
                }
            }
        }
        ancestors.push(pos.key());
        pos.do_move(main);
    }
    budget.used += s.nodes;
    (cooks, duals, complete && !s.aborted)
}

/// Board pieces (either side, phoenixes excepted) and attacker hand pieces whose removal
/// leaves the same solution; `false` when a limit left some undecided.
fn find_redundant(
    solver: &mut Solver,
    problem: &Position,
    sol: &Solution,
    budget: &mut Budget,
) -> (Vec<Redundant>, bool) {
    let n = sol.plies.unwrap_or(0);
    let attacker = problem.side_to_move();
    let mut out = Vec::new();
    let mut complete = true;
    let mut candidates: Vec<(Redundant, Position)> = Vec::new();
    for sq in Square::all() {
        if let Some(p) = problem.piece_at(sq)
            && p.kind != PieceKind::Phoenix
        {
            let mut setup = problem.to_setup();
            setup.board[sq.index()] = None;
            if let Ok(q) = Position::from_setup(&setup) {
                candidates.push((
                    Redundant::Board {
                        square: sq,
                        piece: p,
                    },
                    q,
                ));
            }
        }
    }
    for k in problem.hand(attacker).kinds() {
        let mut setup = problem.to_setup();
        setup.hands[attacker.index()][k.index()] -= 1;
        if let Ok(q) = Position::from_setup(&setup) {
            candidates.push((Redundant::Hand { kind: k }, q));
        }
    }
    for (what, q) in candidates {
        // Only a mate within the same length can be the same solution.
        let r = solver.solve_with(&q, Some(n), budget.limits());
        budget.used += r.nodes;
        match r.status {
            Status::Unknown => complete = false,
            Status::NoMate => {}
            Status::Mate => {
                if !r.complete {
                    complete = false;
                } else if r.plies == Some(n) && r.moves == sol.moves {
                    out.push(what);
                }
            }
        }
    }
    (out, complete)
}

/// Checks a claimed solution: legal, as long as the solution, each attacker move mating in
/// the remaining length, each defender move a longest defence that is not a useless
/// interposition, ending in mate.
fn check_intended(
    solver: &mut Solver,
    sol: &Solution,
    n: u16,
    moves: &[Move],
    budget: &mut Budget,
) -> Intended {
    let is_main_line = moves == sol.moves.as_slice();
    let s = &mut solver.searcher;
    s.limits = budget.limits();
    s.nodes = 0;
    s.aborted = false;
    let problem = (|| -> Option<String> {
        if moves.len() != n as usize {
            return Some(format!("{} plies long, the solution is {n}", moves.len()));
        }
        let mut pos = sol.position.clone();
        let mut ancestors = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let mut legal = MoveList::new();
            generate_legal(&pos, &mut legal);
            if !legal.contains(m) {
                return Some(format!("ply {} ({}) is not legal", i + 1, m.usi()));
            }
            let r = n - i as u16;
            let mut child = pos.clone();
            child.do_move(m);
            if i % 2 == 0 {
                ancestors.push(pos.key());
                let ok = child.in_check() && mates_within(s, &child, r - 1, &ancestors);
                ancestors.pop();
                if !ok {
                    return Some(format!(
                        "ply {} ({}) does not mate within {} plies",
                        i + 1,
                        m.usi(),
                        r
                    ));
                }
            } else {
                let (real, useless) = defences(s, &pos, r, &mut ancestors);
                if useless.contains(&m) {
                    return Some(format!(
                        "ply {} ({}) is a useless interposition",
                        i + 1,
                        m.usi()
                    ));
                }
                let longest = real.iter().map(|&(_, l)| l).max().unwrap_or(0);
                match real.iter().find(|&&(e, _)| e == m) {
                    Some(&(_, l)) if l == longest => {}
                    _ => {
                        return Some(format!(
                            "ply {} ({}) is not a longest defence",
                            i + 1,
                            m.usi()
                        ));
                    }
                }
            }
            ancestors.push(pos.key());
            pos = child;
        }
        let mut ev = MoveList::new();
        generate_legal(&pos, &mut ev);
        if !ev.is_empty() {
            let (real, _) = defences(s, &pos, 0, &mut ancestors);
            if !real.is_empty() {
                return Some("the line does not end in mate".into());
            }
        }
        None
    })();
    budget.used += s.nodes;
    Intended {
        moves: moves.to_vec(),
        is_main_line,
        is_solution: problem.is_none(),
        problem,
    }
}
