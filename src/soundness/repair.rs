//! Repairs: the single changes of a problem's position after which it is sound with the
//! solution it is meant to have, as a composer mends a cooked problem: a defender piece put
//! on an empty square (to cover the square a cook uses, or block its line), or an attacker
//! piece taken off the board or out of the hand (the one a cook or a spare piece needs).
//! Under the tsume convention (the defender holds the rest) the piece put down comes from
//! the defender's hand and the piece taken off goes to it.

use super::{Verdict, VerifyMode, verify_with};
use crate::rules::attacks::last_rank;
use crate::rules::{Move, Piece, PieceKind, Position, Square};
use crate::solver::{Solver, SolverConfig, TableError, with_rest_to_defender};
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// One change of a problem's position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A defender piece of this kind put on an empty square.
    Added {
        /// The square.
        square: Square,
        /// The piece (the defender's).
        piece: Piece,
    },
    /// An attacker piece taken off the board.
    TakenOff {
        /// The square.
        square: Square,
        /// The piece (the attacker's).
        piece: Piece,
    },
    /// One piece of this kind taken out of the attacker's hand.
    OutOfHand {
        /// The kind.
        kind: PieceKind,
    },
    /// A piece (either side's, phoenixes aside) moved to an empty square.
    Moved {
        /// Where it stood.
        from: Square,
        /// Where it stands now.
        to: Square,
        /// The piece.
        piece: Piece,
    },
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Added { square, piece } => write!(
                f,
                "{} {} put on {square}",
                piece.color.name(),
                piece.kind.hodges()
            ),
            Change::TakenOff { square, piece } => write!(
                f,
                "{} {} on {square} taken off",
                piece.color.name(),
                piece.kind.hodges()
            ),
            Change::OutOfHand { kind } => write!(f, "one {} out of the hand", kind.hodges()),
            Change::Moved { from, to, piece } => write!(
                f,
                "{} {} moved from {from} to {to}",
                piece.color.name(),
                piece.kind.hodges()
            ),
        }
    }
}

/// Every single change of `problem` (attacker to move, the defender holding the rest), with
/// the position it makes, in a fixed order: the defender pieces put down (square by square,
/// kind by kind), then the attacker's board pieces taken off, then its hand pieces, then
/// each board piece but the phoenixes moved to each empty square. A change the rules do not
/// allow (a swallow on its owner's farthest rank, a position the rules reject) is left out.
/// The positions hold the defender's hand written out.
pub fn single_changes(problem: &Position) -> Vec<(Change, Position)> {
    let full = with_rest_to_defender(problem);
    let attacker = full.side_to_move();
    let defender = attacker.flip();
    let base = full.to_setup();
    let mut out = Vec::new();
    let mut push = |change: Change, setup: &crate::rules::Setup| {
        if let Ok(p) = Position::from_setup(setup) {
            out.push((change, p));
        }
    };
    // The kinds a defender piece may be put down as: each hand kind, and the promoted ones.
    let kinds: Vec<PieceKind> = PieceKind::ALL
        .into_iter()
        .filter(|&k| k != PieceKind::Phoenix)
        .collect();
    for square in Square::all() {
        if base.board[square.index()].is_some() {
            continue;
        }
        for &kind in &kinds {
            let from = kind.unpromoted().index();
            if base.hands[defender.index()][from] == 0
                || (kind == PieceKind::Swallow && last_rank(defender).has(square))
            {
                continue;
            }
            let mut s = base.clone();
            s.hands[defender.index()][from] -= 1;
            let piece = Piece::new(defender, kind);
            s.board[square.index()] = Some(piece);
            push(Change::Added { square, piece }, &s);
        }
    }
    for square in Square::all() {
        let Some(piece) = base.board[square.index()] else {
            continue;
        };
        if piece.color != attacker || piece.kind == PieceKind::Phoenix {
            continue;
        }
        let mut s = base.clone();
        s.board[square.index()] = None;
        s.hands[defender.index()][piece.kind.unpromoted().index()] += 1;
        push(Change::TakenOff { square, piece }, &s);
    }
    for kind in PieceKind::HAND {
        if base.hands[attacker.index()][kind.index()] == 0 {
            continue;
        }
        let mut s = base.clone();
        s.hands[attacker.index()][kind.index()] -= 1;
        s.hands[defender.index()][kind.index()] += 1;
        push(Change::OutOfHand { kind }, &s);
    }
    for from in Square::all() {
        let Some(piece) = base.board[from.index()] else {
            continue;
        };
        if piece.kind == PieceKind::Phoenix {
            continue;
        }
        for to in Square::all() {
            if base.board[to.index()].is_some()
                || (piece.kind == PieceKind::Swallow && last_rank(piece.color).has(to))
            {
                continue;
            }
            let mut s = base.clone();
            s.board[from.index()] = None;
            s.board[to.index()] = Some(piece);
            push(Change::Moved { from, to, piece }, &s);
        }
    }
    out
}

/// What the search for repairs found.
#[derive(Clone, Debug, Default)]
pub struct Repairs {
    /// The changes after which the problem is sound with the solution asked for (its main
    /// line, or the line of another equally long defence), each with
    /// the position it makes (the defender's hand written out), in the order of
    /// [`single_changes`].
    pub found: Vec<(Change, Position)>,
    /// Changes tried (all of them, unless a stop request came first).
    pub tried: usize,
    /// Changes whose verification could not decide (a limit), each with the reason; not
    /// counted as repairs.
    pub undecided: Vec<(Change, String)>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Set when a stop request ended the search before every change was tried.
    pub stopped: bool,
}

/// The single changes of `problem` after which it is sound with `solution` a solution,
/// each verified apart under `config` (its limits applying to each change), on one thread
/// and a table of `config.hash_mb` cleared first: what is found, node counts included, does
/// not depend on the order the changes are tried in nor on how many `threads` share them.
/// Only mates within the solution's length are looked for (a change after which there is
/// none is no repair, and proving that costs far less than proving there is no mate at
/// all). The stop flag of `config` ends the search between two changes. An error when the
/// tables cannot be allocated.
pub fn repairs(
    config: &SolverConfig,
    problem: &Position,
    solution: &[Move],
    threads: usize,
) -> Result<Repairs, TableError> {
    let config = SolverConfig {
        max_plies: Some(solution.len() as u16),
        threads: 1,
        progress: None,
        ..config.clone()
    };
    // Made before any work, so that a table the machine cannot give is an error at once.
    Solver::new(config.clone())?;
    let stop = config.stop.clone();
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let changes = single_changes(problem);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        // The search recurses along the checking line: as deep a stack as the solver's
        // other workers have.
        .stack_size(64 << 20)
        .build()
        .expect("a thread pool");
    let outcomes: Vec<Option<(Verdict, u64, Option<String>)>> = pool.install(|| {
        changes
            .par_iter()
            .map_init(
                || Solver::new(config.clone()).expect("a table of the size just made"),
                |solver, (_, pos)| {
                    if stopped() {
                        return None;
                    }
                    solver.clear_table();
                    let report = verify_with(solver, pos, Some(solution), VerifyMode::FirstFlaw);
                    // A verification the stop cut short is no finding either way.
                    if stopped() {
                        return None;
                    }
                    // Why it is undecided, for an undecided one only.
                    let why = (report.verdict == Verdict::Unknown).then(|| {
                        report
                            .reasons
                            .iter()
                            .find(|f| f.is_undecided())
                            .map_or_else(|| "undecided".to_string(), |f| f.to_string())
                    });
                    Some((report.verdict, report.nodes, why))
                },
            )
            .collect()
    });
    let mut r = Repairs::default();
    for ((change, pos), outcome) in changes.into_iter().zip(outcomes) {
        let Some((verdict, nodes, why)) = outcome else {
            r.stopped = true;
            continue;
        };
        r.tried += 1;
        r.nodes += nodes;
        match verdict {
            // Sound with `solution` given as the intended one: it is a solution (the main
            // line, or the line of another equally long defence).
            Verdict::Sound => r.found.push((change, pos)),
            Verdict::Unknown => r.undecided.push((change, why.unwrap_or_default())),
            _ => {}
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_single_changes_of_a_position_are_counted_by_hand() {
        // Black: falcon 6d, left quail 7d, pheasant 3d on the board, a falcon, a left and
        // a right quail in hand; White: phoenix 6b, right quail 6a. White holds the rest:
        // no falcon, no quail, 4 cranes, 3 pheasants, 16 swallows. So 44 empty squares
        // take a crane, a pheasant or a goose (132), and a swallow on all but the 7 of
        // rank g (White's farthest): 169 pieces put down; Black's three board pieces taken
        // off, and its three hand pieces one at a time (in the hand's order): 175 changes.
        let pos = parse_position("1r5/1k5/7/LF2P2/7/7/7 b FLR 1").unwrap();
        let changes = single_changes(&pos);
        // And the four board pieces but the phoenix moved, each to the 44 empty squares
        // (none of them a swallow), save where a Black piece would check the phoenix on 6b
        // with White not to move: the falcon on 6c, 5b, 7b, 5c, 7c, 5a or 7a; the left
        // quail on 6c (ahead), 7a (back to its right) or 5a (one step back to its left);
        // the pheasant on 7a or 5a (one step back; its jump from 6d is taken by the
        // falcon): 176 − 12 = 164 more.
        assert_eq!(changes.len(), 175 + 164);
        let added = changes
            .iter()
            .filter(|(c, _)| matches!(c, Change::Added { .. }))
            .count();
        assert_eq!(added, 169);
        let taken: Vec<String> = changes[169..175]
            .iter()
            .map(|(c, _)| c.to_string())
            .collect();
        assert_eq!(
            taken,
            [
                "Black LQ on 7d taken off",
                "Black Fa on 6d taken off",
                "Black Pt on 3d taken off",
                "one LQ out of the hand",
                "one RQ out of the hand",
                "one Fa out of the hand",
            ]
        );
        // The crane put on 7c is the problem this one was made from by taking it off.
        let (_, with_crane) = changes
            .iter()
            .find(|(c, _)| c.to_string() == "White Cr put on 7c")
            .unwrap();
        let original = parse_position("1r5/1k5/c6/LF2P2/7/7/7 b FLR 1").unwrap();
        assert_eq!(
            with_crane.board_key(),
            with_rest_to_defender(&original).board_key()
        );
    }
}
