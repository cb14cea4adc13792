//! Soundness of a mate problem (RULES.md "Mate problems"): whether its solution is unique
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
//!   that is no less sound (no cook, no new final dual): RULES.md's "economical";
//! - the **intended solution**, when given, checked against the rules of a solution.
//!
//! The verdict is `sound` only when all of this was proven within the limits.

use crate::rules::movegen::has_legal_move;
use crate::rules::{
    Move, MoveList, Piece, PieceKind, Position, Square, generate_checks, generate_legal,
};
use crate::solver::mainline::{line_from, longest_defences, mates_within, mating_moves};
use crate::solver::{Limits, Solution, Solver, Status, prepare};
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
    /// Ply at which it could be played (1-based).
    pub ply: usize,
    /// The moves before it: the main line's, or an equally long defence's.
    pub after: Vec<Move>,
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
            first_search_nodes: None,
            progress: None,
        }
    }
}

/// Verifies `problem` (attacker to move) with `solver`'s table and limits (the limits cover
/// the whole verification); `intended` is a claimed solution to check.
pub fn verify(solver: &mut Solver, problem: &Position, intended: Option<&[Move]>) -> Report {
    verify_with(solver, problem, intended, false)
}

/// [`verify`], optionally stopping at the first cook found (then the report lists only what
/// was found before, and redundancy is not checked): the generator needs only the verdict.
pub fn verify_with(
    solver: &mut Solver,
    problem: &Position,
    intended: Option<&[Move]>,
    first_flaw: bool,
) -> Report {
    let start = Instant::now();
    let mut budget = Budget {
        nodes: solver.config.nodes,
        used: 0,
        deadline: solver.config.time.and_then(|t| start.checked_add(t)),
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
        Status::Unknown => report.reasons.push(format!(
            "the solve was stopped: {}",
            limit_hit(sol.stopped_by)
        )),
        Status::Mate => {
            let mut undecided = Vec::new();
            if !sol.minimal || !sol.complete {
                undecided.push(format!(
                    "the solution could not be completed: {}",
                    limit_hit(sol.stopped_by)
                ));
            } else {
                let n = sol.plies.unwrap_or(0);
                let (cooks, duals, complete) =
                    find_cooks(solver, &report.solution, &mut budget, first_flaw);
                report.cooks = cooks;
                report.final_duals = duals;
                if !complete {
                    undecided.push(match solver.searcher.stopped_by {
                        Some(r) => format!("the cook search was stopped: {}", r.describe()),
                        None => format!(
                            "the solution tree has more than {MAX_TREE_NODES} attacker nodes \
                             to search for cooks"
                        ),
                    });
                }
                if !(first_flaw && (!report.cooks.is_empty() || !undecided.is_empty())) {
                    let duals = report.final_dual_moves();
                    let (redundant, complete) = find_redundant(
                        solver,
                        problem,
                        &report.solution,
                        &duals,
                        &mut budget,
                        first_flaw,
                    );
                    report.redundant = redundant;
                    if !complete {
                        undecided.push(format!(
                            "the redundancy check was stopped: {}",
                            limit_hit(solver.searcher.stopped_by)
                        ));
                    }
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

/// How a report names the limit that stopped a search.
fn limit_hit(r: Option<crate::solver::StopReason>) -> &'static str {
    r.map_or("a limit was reached", |r| r.describe())
}

/// Cooks and final duals along the main line; `false` when a limit cut the search.
fn find_cooks(
    solver: &mut Solver,
    sol: &Solution,
    budget: &mut Budget,
    first_flaw: bool,
) -> (Vec<Cook>, Vec<Cook>, bool) {
    let s = &mut solver.searcher;
    s.limits = budget.limits();
    s.nodes = 0;
    s.aborted = false;
    let n = sol.plies.unwrap_or(0);
    let Some((nodes, whole)) = solution_tree(s, sol, n) else {
        budget.used += s.nodes;
        return (Vec::new(), Vec::new(), false);
    };
    if first_flaw {
        // A cheap pass first, deepest node first (shallow searches cost least): a cook that
        // a small search proves ends the verification at once.
        let full = s.limits.nodes;
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
                s.limits.nodes = Some(full.map_or(s.nodes + QUICK_COOK_NODES, |f| {
                    f.min(s.nodes + QUICK_COOK_NODES)
                }));
                s.set_node(child);
                let proven = s.search(node.r - 1, &anc).is_proven();
                s.limits.nodes = full;
                if proven {
                    budget.used += s.nodes;
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
        s.aborted = false;
        s.stopped_by = None;
    }
    let mut cooks = Vec::new();
    let mut duals = Vec::new();
    let mut complete = whole;
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
        if s.aborted {
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
    budget.used += s.nodes;
    (cooks, duals, complete && !s.aborted)
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

/// Most attacker nodes examined for cooks. A solution whose defender has equally long
/// choices at many moves multiplies them; past this many the verdict can be `cooked` but
/// not `sound`.
const MAX_TREE_NODES: usize = 256;

/// The attacker nodes of the solution: along the main line, and along every other defence
/// as long as the main line's, in depth-first order; `false` with them when the tree was too
/// large to list whole. `None` when a limit cut it short.
fn solution_tree(
    s: &mut crate::solver::Searcher,
    sol: &Solution,
    n: u16,
) -> Option<(Vec<TreeNode>, bool)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(
        Vec::<Move>::new(),
        sol.position.clone(),
        Vec::<u64>::new(),
        n,
    )];
    let mut whole = true;
    while let Some((before, pos, ancestors, r)) = stack.pop() {
        if r == 0 {
            continue;
        }
        if out.len() >= MAX_TREE_NODES {
            whole = false;
            break;
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
            crate::solver::mainline::first_mating_move(s, &pos, r, &mut anc)?
        };
        if s.aborted {
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
        if s.aborted {
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
    Some((out, whole))
}

/// Node budget of each search of the quick cook pass.
const QUICK_COOK_NODES: u64 = 3_000;

/// Board pieces (either side, phoenixes excepted) and attacker hand pieces whose removal
/// leaves a problem as sound as this one with the same solution: same length, the main
/// line still a solution, no cook and no final dual this one (with `duals`) does not have.
/// `false` when a limit left some undecided.
fn find_redundant(
    solver: &mut Solver,
    problem: &Position,
    sol: &Solution,
    duals: &[Move],
    budget: &mut Budget,
    first_flaw: bool,
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
        // The same solution needs the same main line, played out to mate: most removals
        // fail that at once, without a search.
        if !replays_to_mate(&prepare(&q, solver.config.defender_hand), &sol.moves) {
            continue;
        }
        // Only a mate within the same length can be the same solution.
        let r = solver.solve_with(&q, Some(n), budget.limits());
        budget.used += r.nodes;
        match r.status {
            Status::Unknown => complete = false,
            Status::NoMate => {}
            Status::Mate => {
                if r.minimal && r.plies != Some(n) {
                    // A proven shorter mate: not the same solution, whatever its line.
                } else if !r.minimal || (!r.complete && r.stopped_by.is_some()) {
                    complete = false;
                } else if r.plies == Some(n) {
                    // Without the piece, the main line reader can meet a mate whose reply
                    // has no real defence left (only interpositions the useless rule sets
                    // aside); the line then stops short. What matters here is whether this
                    // problem's line is a solution there: if so, look for cooks along it.
                    let r = if r.complete {
                        r
                    } else {
                        let same = check_intended(solver, &r, n, &sol.moves, budget).is_solution;
                        if solver.searcher.aborted {
                            complete = false;
                            continue;
                        }
                        if !same {
                            continue;
                        }
                        Solution {
                            moves: sol.moves.clone(),
                            complete: true,
                            ..r
                        }
                    };
                    // Removable only if what is left is still a sound problem with this
                    // solution: a piece whose removal lets in a cook is doing its job.
                    let (cooks, q_duals, whole) = find_cooks(solver, &r, budget, true);
                    if !whole {
                        complete = false;
                        continue;
                    }
                    // Nor is one that keeps a final dual out: duals are tolerated, but a
                    // piece placed to prevent one has a purpose.
                    if !cooks.is_empty() || q_duals.iter().any(|d| !duals.contains(&d.mv)) {
                        continue;
                    }
                    let same = r.moves == sol.moves
                        || check_intended(solver, &r, n, &sol.moves, budget).is_solution;
                    if same {
                        out.push(what);
                        if first_flaw {
                            break;
                        }
                    }
                }
            }
        }
    }
    (out, complete)
}

/// Whether `moves` are legal from `pos`, every attacker move a check, and the last one mate.
fn replays_to_mate(pos: &Position, moves: &[Move]) -> bool {
    let mut p = pos.clone();
    let mut list = MoveList::new();
    for (i, &m) in moves.iter().enumerate() {
        list.clear();
        if i % 2 == 0 {
            generate_checks(&p, &mut list);
        } else {
            generate_legal(&p, &mut list);
        }
        if !list.iter().any(|&x| x == m) {
            return false;
        }
        p.do_move(m);
    }
    p.in_check() && !has_legal_move(&p)
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
                let (longest, _, useless) = longest_defences(s, &pos, r, &mut ancestors);
                if useless.contains(&m) {
                    return Some(format!(
                        "ply {} ({}) is a useless interposition",
                        i + 1,
                        m.usi()
                    ));
                }
                if !longest.contains(&m) {
                    return Some(format!(
                        "ply {} ({}) is not a longest defence",
                        i + 1,
                        m.usi()
                    ));
                }
            }
            ancestors.push(pos.key());
            pos = child;
        }
        let mut ev = MoveList::new();
        generate_legal(&pos, &mut ev);
        if !ev.is_empty() {
            let (real, _, _) = longest_defences(s, &pos, 0, &mut ancestors);
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
