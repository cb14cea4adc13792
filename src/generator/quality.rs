//! Quality figures of a sound problem and the score that ranks problems: surprising first
//! moves (a sacrifice, a drop away from the phoenix), few pieces, longer solutions, and a
//! harder search (good problems tend to have large proof trees: Ishitobi et al. 2013).

use crate::rules::{MoveList, Position, Square, generate_legal};
use crate::soundness::Report;
use serde::{Deserialize, Serialize};

/// What makes a problem interesting, measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// The ranking score (higher is better); see [`score`].
    pub score: f64,
    /// Nodes the solver needed (a proxy for the proof tree's size).
    pub proof_nodes: u64,
    /// Legal defender replies along the main line beyond the one played, summed.
    pub defender_alternatives: u32,
    /// Attacker moves of the main line whose piece the defender takes at once.
    pub sacrifices: u32,
    /// Attacker drops of the main line not next to the defender's phoenix.
    pub quiet_drops: u32,
    /// Pieces on the board (phoenix excepted) plus the attacker's hand.
    pub pieces: u32,
    /// Whether the first move is a sacrifice.
    pub first_move_sacrifice: bool,
    /// Whether the first move is a drop away from the phoenix.
    pub first_move_quiet_drop: bool,
    /// Distinct alternative final mating moves (tolerated, but a blemish).
    pub final_duals: u32,
}

fn distance(a: Square, b: Square) -> u8 {
    a.row().abs_diff(b.row()).max(a.col().abs_diff(b.col()))
}

/// The score: plies + 3·(first move a sacrifice) + 2·(first move a quiet drop) + sacrifices
/// + quiet drops / 2 + log2(proof nodes) / 4 − pieces / 2 − final duals / 2.
pub fn score(q: &Quality, plies: u16) -> f64 {
    let s = plies as f64
        + 3.0 * q.first_move_sacrifice as u8 as f64
        + 2.0 * q.first_move_quiet_drop as u8 as f64
        + q.sacrifices as f64
        + 0.5 * q.quiet_drops as f64
        + (q.proof_nodes.max(1) as f64).log2() / 4.0
        - 0.5 * q.pieces as f64
        - 0.5 * q.final_duals as f64;
    (s * 100.0).round() / 100.0
}

/// The highest [`score`] a problem of at most `plies` plies could have, whose proof took at
/// most `nodes` nodes: every attacker move a sacrifice and a quiet drop, the first both, one
/// piece, no final dual. A `--min-score` above it could keep nothing.
pub fn score_bound(plies: u16, nodes: u64) -> f64 {
    let moves = plies.div_ceil(2) as f64;
    plies as f64 + 3.0 + 2.0 + moves + 0.5 * moves + (nodes.max(1) as f64).log2() / 4.0 - 0.5
}

/// Measures a verified problem.
pub fn measure(report: &Report) -> Quality {
    let sol = &report.solution;
    let pos: &Position = &sol.position;
    let attacker = pos.side_to_move();
    let defender = attacker.flip();
    let mut q = Quality {
        proof_nodes: sol.nodes,
        final_duals: report.final_dual_moves().len() as u32,
        pieces: Square::all()
            .filter(|&s| {
                pos.piece_at(s)
                    .is_some_and(|p| p.kind != crate::rules::PieceKind::Phoenix)
            })
            .count() as u32
            + pos.hand(attacker).total(),
        ..Quality::default()
    };
    let mut p = pos.clone();
    for (i, &m) in sol.moves.iter().enumerate() {
        if i % 2 == 0 {
            let sacrifice = sol
                .moves
                .get(i + 1)
                .is_some_and(|r| r.to() == m.to() && !r.is_drop());
            let quiet = m.is_drop()
                && p.phoenix(defender)
                    .is_some_and(|k| distance(k, m.to()) >= 2);
            q.sacrifices += sacrifice as u32;
            q.quiet_drops += quiet as u32;
            if i == 0 {
                q.first_move_sacrifice = sacrifice;
                q.first_move_quiet_drop = quiet;
            }
        } else {
            let mut l = MoveList::new();
            generate_legal(&p, &mut l);
            q.defender_alternatives += l.len().saturating_sub(1) as u32;
        }
        p.do_move(m);
    }
    q.score = score(&q, sol.plies.unwrap_or(0));
    q
}
