//! Redundant pieces (docs/RULES.md "Soundness"): a board piece, or a piece of the attacker's
//! hand, whose removal leaves a problem with the same solution (same length, the main line
//! still a solution) that is no less sound (no cook, no new final dual); and taking pieces
//! too many (redundant or spare) off a problem flawed only by them ([`economise`]).

use super::cooks::find_cooks;
use super::intended::check_intended;
use super::{Budget, Flaw, Report, Verdict, VerifyMode};
use crate::rules::movegen::{CheckAnswer, check_answer};
use crate::rules::{
    Hand, Move, MoveList, Piece, PieceKind, Position, Square, generate_checks, generate_legal,
};
use crate::solver::{Solution, Solver, Status, prepare};

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
    /// `problem` without this piece: off the board, or one fewer of its kind in the
    /// attacker's (the side to move's) hand; `None` when that leaves no legal position or
    /// there is no such piece. Under the tsume convention the defender then holds it.
    pub fn taken_from(&self, problem: &Position) -> Option<Position> {
        let mut setup = problem.to_setup();
        match self {
            Redundant::Board { square, .. } => {
                setup.board[square.index()].take()?;
            }
            Redundant::Hand { kind } => {
                let n = &mut setup.hands[problem.side_to_move().index()][kind.index()];
                *n = n.checked_sub(1)?;
            }
        }
        Position::from_setup(&setup).ok()
    }
}

/// Short description: `black Cr on 6c` / `Sw in hand`.
impl std::fmt::Display for Redundant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Redundant::Board { square, piece } => {
                write!(
                    f,
                    "{} {} on {square}",
                    piece.color.name(),
                    piece.kind.hodges()
                )
            }
            Redundant::Hand { kind } => write!(f, "{} in hand", kind.hodges()),
        }
    }
}

/// Board pieces (either side, phoenixes excepted) and attacker hand pieces whose removal
/// leaves a problem as sound as this one with the same solution: same length, the main
/// line still a solution, no cook and no final dual this one (with `duals`) does not have.
/// `false` when a limit left some undecided.
pub(super) fn find_redundant(
    solver: &mut Solver,
    problem: &Position,
    sol: &Solution,
    duals: &[Move],
    budget: &mut Budget,
    mode: VerifyMode,
) -> (Vec<Redundant>, bool) {
    let n = sol.plies.unwrap_or(0);
    let attacker = problem.side_to_move();
    let mut out = Vec::new();
    let mut complete = true;
    let board = Square::all().filter_map(|square| {
        let piece = problem.piece_at(square)?;
        (piece.kind != PieceKind::Phoenix).then_some(Redundant::Board { square, piece })
    });
    let hand = problem
        .hand(attacker)
        .kinds()
        .map(|kind| Redundant::Hand { kind });
    let candidates: Vec<(Redundant, Position)> = board
        .chain(hand)
        .filter_map(|what| {
            let q = what.taken_from(problem)?;
            Some((what, q))
        })
        .collect();
    for (what, q) in candidates {
        // The same solution needs the same main line, played out to mate: most removals
        // fail that at once, without a search.
        if !replays_to_mate(&prepare(&q, solver.config().defender_hand), &sol.moves) {
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
                        if solver.searcher().stopped() {
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
                    let (cooks, q_duals, whole) =
                        find_cooks(solver, &r, budget, VerifyMode::FirstFlaw);
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
                        if mode == VerifyMode::FirstFlaw {
                            break;
                        }
                    }
                }
            }
        }
    }
    (out, complete)
}

/// Whether `moves` are legal from `pos`, every attacker move a check, and the last one mate
/// as far as the moves alone show: the defender in check with no legal move, or with none
/// but interpositions against a ranging check. Those may be useless interpositions, which
/// the solution's length does not count (docs/RULES.md "Useless interposition"), so such a
/// line is left to the search rather than turned away here.
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
    p.in_check() && check_answer(&p) != CheckAnswer::Other
}

/// One of the kinds `spare` holds that `problem`'s attacker starts with: a spare piece
/// that can be taken from the hand (a spare piece taken on the way cannot).
pub fn spare_from_hand(problem: &Position, spare: Hand) -> Option<Redundant> {
    let hand = problem.hand(problem.side_to_move());
    PieceKind::HAND
        .into_iter()
        .find(|&k| spare.count(k) > 0 && hand.count(k) > 0)
        .map(|kind| Redundant::Hand { kind })
}

/// The piece to take off a problem whose only flaws are pieces too many (spare or
/// redundant ones): the first redundant piece, else a spare kind its attacker starts with.
/// `None` for any other verdict or flaw.
pub fn piece_too_many(problem: &Position, report: &Report) -> Option<Redundant> {
    let only_pieces = report
        .reasons
        .iter()
        .all(|r| matches!(r, Flaw::SparePieces(_) | Flaw::RedundantPiece(_)));
    if report.verdict != Verdict::Flawed || !only_pieces || !report.cooks.is_empty() {
        return None;
    }
    report.redundant.first().cloned().or_else(|| {
        report
            .solution
            .spare_hand()
            .and_then(|spare| spare_from_hand(problem, spare))
    })
}

/// Most pieces [`economise`] takes off.
pub const MAX_TAKEN_OFF: usize = 4;

/// A problem flawed only by pieces too many, made sound by taking them off ([`economise`]).
#[derive(Clone, Debug)]
pub struct Economised {
    /// The sound problem.
    pub position: Position,
    /// The pieces taken off, in order.
    pub taken_off: Vec<Redundant>,
    /// Its verification.
    pub report: Report,
    /// Nodes of every verification on the way (the last one's included).
    pub nodes: u64,
}

/// What is left of a problem flawed only by pieces too many once they are taken off, one
/// at a time ([`piece_too_many`]) and the rest verified whole again each time (under the
/// solver's limits, on a cleared table), if that comes to a sound problem within
/// [`MAX_TAKEN_OFF`] pieces.
pub fn economise(solver: &mut Solver, problem: &Position, report: &Report) -> Option<Economised> {
    let mut taken_off = Vec::new();
    let mut nodes = 0;
    let mut piece = piece_too_many(problem, report)?;
    let mut position = problem.clone();
    while taken_off.len() < MAX_TAKEN_OFF {
        position = piece.taken_from(&position)?;
        taken_off.push(piece);
        solver.clear_table();
        let report = super::verify(solver, &position, None);
        nodes += report.nodes;
        if report.verdict == Verdict::Sound {
            return Some(Economised {
                position,
                taken_off,
                report,
                nodes,
            });
        }
        piece = piece_too_many(&position, &report)?;
    }
    None
}
