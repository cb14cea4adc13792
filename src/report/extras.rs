//! The parts a report adds on request: the tries (the other checks at the first move, each
//! with the defences that refute it) and the variations (the other defences along the main
//! line, each with the mate that answers it).

use super::{UselessMove, useless_moves};
use crate::notation::hodges::{answered_to_hodges, line_to_hodges};
use crate::notation::usi::line_to_usi;
use crate::rules::Position;
use crate::solver::{Solution, StopReason, Tries, Variation, Variations};
use serde::{Deserialize, Serialize};

/// `tries` in a report: not sought (there is no proven solution), or the other checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TriesReport {
    /// The tries were sought.
    Sought {
        /// Always true.
        sought: bool,
        /// The other checks at the first move, closest first.
        list: Vec<TriedCheck>,
        /// Whether every other check was decided.
        complete: bool,
        /// The limit that stopped them, when one did.
        stopped_by: Option<StopReason>,
        /// What the limit was, in words, when one stopped them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// Nodes searched for them.
        nodes: u64,
    },
    /// They were not sought.
    NotSought {
        /// Always false.
        sought: bool,
        /// Why not.
        why: String,
    },
}

/// One other check at the first move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriedCheck {
    /// The check, in USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// The check in Hodges' notation.
    pub hodges: String,
    /// Whether it mates too (no refutation: a cook, or a final dual in a mate in 1).
    pub mates: bool,
    /// The defences that refute it within the solution's length, in USI.
    pub refutations: Vec<String>,
    /// The same in Hodges' notation.
    pub refutations_hodges: Vec<String>,
}

/// The report of the tries of `sol`.
pub fn tries_report(sol: &Solution, tries: &Tries) -> TriesReport {
    if !sol.is_whole_mate() {
        return TriesReport::NotSought {
            sought: false,
            why: "there is no proven solution".to_string(),
        };
    }
    let list = tries
        .list
        .iter()
        .map(|t| {
            let (check, refutations) = answered_to_hodges(&sol.position, t.mv, &t.refutations);
            TriedCheck {
                mv: t.mv.usi(),
                hodges: check,
                mates: t.mates(),
                refutations: line_to_usi(&t.refutations),
                refutations_hodges: refutations,
            }
        })
        .collect();
    TriesReport::Sought {
        sought: true,
        list,
        complete: tries.complete,
        stopped_by: tries.stopped_by,
        stop_reason: tries.stopped_by.map(|r| r.to_string()),
        nodes: tries.nodes,
    }
}

/// The variations' fields of a report: `variations` (a list), `variations_complete`,
/// `variations_nodes` and `variations_time_ms`, and `variations_stopped_by` when a limit
/// stopped them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariationsReport {
    /// The other defences along the main line, by ply.
    pub variations: Vec<VariationReport>,
    /// Whether every defender ply of the main line was read.
    pub variations_complete: bool,
    /// The limit that stopped them, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_stopped_by: Option<StopReason>,
    /// Nodes searched for them.
    pub variations_nodes: u64,
    /// Milliseconds spent on them.
    pub variations_time_ms: u64,
}

/// One other defence and the mate that answers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariationReport {
    /// The defender ply of the main line it replaces.
    pub ply: usize,
    /// The defence, in USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// The defence in Hodges' notation.
    pub move_hodges: String,
    /// Plies of the mate after the defence.
    pub plies: u16,
    /// The mate after it, in USI.
    pub moves: Vec<String>,
    /// The same in Hodges' notation.
    pub hodges: Vec<String>,
    /// Whether the line reaches the mate.
    pub complete: bool,
    /// The attacker's hand at the mate (SFEN letters), when the line reaches it.
    pub spare: Option<String>,
    /// The useless interpositions the line leaves out.
    pub useless_interpositions: Vec<UselessMove>,
}

/// The position before ply `ply` (1-based) of `sol`'s main line.
fn position_before(sol: &Solution, ply: usize) -> Position {
    let mut pos = sol.position.clone();
    for &m in &sol.moves[..ply - 1] {
        pos.do_move(m);
    }
    pos
}

/// A variation's defence and its line, in Hodges' notation.
pub fn variation_hodges(sol: &Solution, v: &Variation) -> Vec<String> {
    let mut moves = vec![v.mv];
    moves.extend_from_slice(&v.moves);
    line_to_hodges(&position_before(sol, v.ply), &moves)
}

/// The report of the variations of `sol`.
pub fn variations_report(sol: &Solution, vars: &Variations) -> VariationsReport {
    let variations = vars
        .list
        .iter()
        .map(|x| {
            let hodges = variation_hodges(sol, x);
            VariationReport {
                ply: x.ply,
                mv: x.mv.usi(),
                move_hodges: hodges[0].clone(),
                plies: x.plies,
                moves: line_to_usi(&x.moves),
                hodges: hodges[1..].to_vec(),
                complete: x.complete,
                spare: x.complete.then(|| x.end_hand.sfen_upper()),
                useless_interpositions: useless_moves(&x.useless),
            }
        })
        .collect();
    VariationsReport {
        variations,
        variations_complete: vars.complete,
        variations_stopped_by: vars.stopped_by,
        variations_nodes: vars.nodes,
        variations_time_ms: vars.time.as_millis() as u64,
    }
}
