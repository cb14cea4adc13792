//! The report of a solve ([`SolveReport`], what `solve --json` prints) and the solve of one
//! input item that makes it ([`solve_item`]).

use super::{TriesReport, UselessMove, VariationsReport, carried, useless_moves};
use super::{tries_report, variations_report};
use crate::input::Item;
use crate::notation::hodges::line_to_hodges;
use crate::notation::sfen::write_sfen;
use crate::notation::usi::line_to_usi;
use crate::problem::Problem;
use crate::solver::{DefenderHand, Effort, Solution, Solver, StopReason, Tries, Variations};
use serde::{Deserialize, Serialize};

/// What `solve --json` prints of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// The position solved, with the defender's hand as it was solved (SFEN).
    pub position: String,
    /// `mate`, `nomate` or `unknown`.
    pub status: String,
    /// The mate's length in plies (an upper bound unless `minimal`); null without a mate.
    pub plies: Option<u16>,
    /// Whether no shorter mate exists.
    pub minimal: bool,
    /// Whether the main line reaches the mate.
    pub complete: bool,
    /// The main line, in USI.
    pub moves: Vec<String>,
    /// The main line in Hodges' notation.
    pub hodges: Vec<String>,
    /// Whether the attacker has pieces left in hand at the mate; null while not known.
    pub spare_pieces: Option<bool>,
    /// Those pieces (SFEN letters, `""` for none); null while not known.
    pub spare: Option<String>,
    /// The useless interpositions the main line leaves out.
    pub useless_interpositions: Vec<UselessMove>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes by phase: the first search, the minimality proof, the main line.
    pub nodes_by_phase: Effort,
    /// Nodes searched by helper threads.
    pub helper_nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
    /// The length limit the solve was given, if any.
    pub max_plies: Option<u16>,
    /// Whose pieces the defender held: `rest` or `given`.
    pub defender_hand: String,
    /// Where the position came from (`line 3 of set.jsonl`, `argument`).
    pub origin: String,
    /// The limit that stopped the search, when one did: `nodes`, `time`, `stop` or
    /// `recursion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<StopReason>,
    /// The same in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// The record's `source`, when it was a record with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The record's `plies`, when it was a record stating one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_plies: Option<u16>,
    /// The variations, when asked for.
    #[serde(default, flatten)]
    pub variations: Option<VariationsReport>,
    /// The tries, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tries: Option<TriesReport>,
    /// The record's other fields, carried over.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl SolveReport {
    /// The report of `sol`, solved with the defender holding `defender_hand`, of the
    /// position read from `origin` (with its `record`, when it was one).
    pub fn new(
        sol: &Solution,
        origin: &str,
        defender_hand: DefenderHand,
        record: Option<&Problem>,
    ) -> SolveReport {
        SolveReport {
            position: write_sfen(&sol.position),
            status: sol.status.to_string(),
            plies: sol.plies,
            minimal: sol.minimal,
            complete: sol.complete,
            moves: line_to_usi(&sol.moves),
            hodges: line_to_hodges(&sol.position, &sol.moves),
            spare_pieces: sol.spare_pieces(),
            spare: sol.spare_hand().map(|h| h.sfen_upper()),
            useless_interpositions: useless_moves(&sol.useless),
            nodes: sol.nodes,
            nodes_by_phase: sol.effort,
            helper_nodes: sol.helper_nodes,
            time_ms: sol.time.as_millis() as u64,
            max_plies: sol.max_plies,
            defender_hand: defender_hand.to_string(),
            origin: origin.to_string(),
            stopped_by: sol.stopped_by,
            stop_reason: sol.stopped_by.map(|r| r.to_string()),
            source: record.and_then(|r| r.source.clone()),
            expected_plies: record.and_then(|r| r.plies),
            variations: None,
            tries: None,
            extra: Default::default(),
        }
    }
}

/// What a solve adds to its report beyond the solution.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// The variations of the main line.
    pub variations: bool,
    /// The tries at the first move.
    pub tries: bool,
}

/// A solve of one input item: what was found, its report, and what the item's record
/// claims that the solve contradicts.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The solution.
    pub solution: Solution,
    /// Its variations, when asked for.
    pub variations: Option<Variations>,
    /// Its tries, when asked for.
    pub tries: Option<Tries>,
    /// The report.
    pub report: SolveReport,
    /// The record's claim the solve contradicts (its length, status or line), if any.
    pub contradiction: Option<String>,
}

/// Solves `item` from an empty table, the defender holding what its record says or else
/// `default_hand`, with the `extras` asked for. The error is why the item holds no position.
pub fn solve_item(
    solver: &mut Solver,
    item: &Item,
    default_hand: DefenderHand,
    extras: Extras,
) -> Result<Solved, String> {
    let pos = item.position.as_ref().map_err(|e| e.clone())?;
    solver.set_defender_hand(item.defender_hand(default_hand));
    // Each position starts from an empty table, so that the answer does not depend on what
    // was solved before; clearing is O(1).
    solver.clear_table();
    let sol = solver.solve(pos);
    let variations = extras.variations.then(|| solver.variations(&sol));
    let tries = extras.tries.then(|| solver.tries(&sol));
    // The record's claims against the answer (its line, when not the main line found,
    // checked as a solution).
    let contradiction = item
        .record
        .as_ref()
        .and_then(|r| r.check_against(solver, &sol))
        .map(|e| e.to_string());
    let mut report = SolveReport::new(
        &sol,
        &item.origin,
        solver.config().defender_hand,
        item.record.as_ref(),
    );
    report.variations = variations.as_ref().map(|v| variations_report(&sol, v));
    report.tries = tries.as_ref().map(|t| tries_report(&sol, t));
    report.extra = carried(&report, item);
    Ok(Solved {
        solution: sol,
        variations,
        tries,
        report,
        contradiction,
    })
}
