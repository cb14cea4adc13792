//! The reports of solving and verifying, as the program prints them in JSON and as a
//! library user reads them: [`SolveReport`] (`solve --json`), [`VerifyReport`]
//! (`verify --json`), their tries and variations, and [`SetStats`] (`stats --json`); and
//! the work that makes one for an input [`Item`]: [`solve_item`] and [`verify_item`].
//!
//! Each report is a serde type whose fields are the JSON fields. The fields a problem
//! record carries beyond a report's own (`note`, `source`, ids of your own) are copied into
//! it, so that results can be joined back to their records.

mod extras;
mod solve;
pub mod stats;
pub mod verify;

pub use extras::{
    TriedCheck, TriesReport, VariationReport, VariationsReport, tries_report, variation_hodges,
    variations_report,
};
pub use solve::{Extras, SolveReport, Solved, solve_item};
pub use stats::{SetStats, StatsReport};
pub use verify::{
    CookReport, IntendedReport, Mended, RedundantReport, RepairReport, RepairsReport, SoundWithout,
    UndecidedRepair, Verified, VerifyOptions, VerifyReport, verify_item,
};

use crate::input::{Item, carry_record_fields};
use crate::solver::UselessInterposition;
use serde::{Deserialize, Serialize};

/// A useless interposition a line leaves out: the ply it would be played at and the move in
/// USI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UselessMove {
    /// The ply, from 1 at the problem's first move.
    pub ply: usize,
    /// The move, in USI.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The useless interpositions of `list` as reports give them.
pub fn useless_moves(list: &[UselessInterposition]) -> Vec<UselessMove> {
    list.iter()
        .map(|u| UselessMove {
            ply: u.ply,
            mv: u.mv.usi(),
        })
        .collect()
}

/// The fields of `item`'s record that `report` does not have of its own.
fn carried(report: &impl Serialize, item: &Item) -> serde_json::Map<String, serde_json::Value> {
    let mut all = serde_json::Map::new();
    carry_record_fields(&mut all, item);
    if all.is_empty() {
        return all;
    }
    let own = serde_json::to_value(report).unwrap_or_default();
    all.into_iter()
        .filter(|(k, _)| own.get(k).is_none())
        .collect()
}

/// A report as one JSON line: its fields in the order of their names.
pub fn to_json_line(report: &impl Serialize) -> String {
    // Through a `Value`, whose objects keep their keys sorted.
    serde_json::to_value(report)
        .map(|v| v.to_string())
        .unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}
