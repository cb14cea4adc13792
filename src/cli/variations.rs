//! `solve --variations`: the other defences along a main line and the mate that answers
//! each, as text and as JSON.

use super::solve::{numbered_from, useless_json};
use serde_json::json;
use toritsume::notation::hodges::line_to_hodges;
use toritsume::rules::Position;
use toritsume::solver::{Solution, Status, Variation, Variations};

/// The position before each defender ply of the main line whose variations are listed.
fn position_before(sol: &Solution, ply: usize) -> Position {
    let mut pos = sol.position.clone();
    for &m in &sol.moves[..ply - 1] {
        pos.do_move(m);
    }
    pos
}

/// The defence and its line, in Hodges notation.
fn hodges_of(sol: &Solution, v: &Variation) -> Vec<String> {
    let mut moves = vec![v.mv];
    moves.extend_from_slice(&v.moves);
    line_to_hodges(&position_before(sol, v.ply), &moves)
}

/// The text report's part for the variations.
pub fn text(sol: &Solution, vars: &Variations) -> String {
    let mut out = String::new();
    if sol.status != Status::Mate {
        return out;
    }
    if vars.list.is_empty() && vars.complete {
        out.push_str("Variations: none (no other defence anywhere on the main line)\n");
        return out;
    }
    if !vars.list.is_empty() {
        out.push_str("Variations (the other defences along the main line, each with its mate):\n");
    }
    for v in &vars.list {
        let note = if v.complete { "" } else { "; line cut short" };
        out.push_str(&format!(
            "  ply {}: {}  ({} after the defence{note})\n",
            v.ply,
            numbered_from(&hodges_of(sol, v), v.ply),
            toritsume::notation::plies(v.plies),
        ));
    }
    if !vars.complete {
        out.push_str(&match (vars.stopped_at, vars.stopped_by) {
            (Some(ply), Some(r)) => format!("(variations from ply {ply} on not read: {r})\n"),
            _ => "(variations not read: the main line is not a mate proven shortest and read to the end)\n"
                .to_string(),
        });
    }
    out
}

/// The JSON fields of the variations: `variations` (a list), `variations_complete`,
/// `variations_nodes` and `variations_time_ms`, and `variations_stopped_by` when a limit
/// stopped them.
pub fn add_json(v: &mut serde_json::Value, sol: &Solution, vars: &Variations) {
    v["variations"] = json!(
        vars.list
            .iter()
            .map(|x| {
                let hodges = hodges_of(sol, x);
                json!({
                    "ply": x.ply,
                    "move": x.mv.usi(),
                    "move_hodges": hodges[0],
                    "plies": x.plies,
                    "moves": toritsume::notation::usi::line_to_usi(&x.moves),
                    "hodges": hodges[1..],
                    "complete": x.complete,
                    "spare": x.complete.then(|| x.end_hand.sfen_upper()),
                    "useless_interpositions": useless_json(&x.useless),
                })
            })
            .collect::<Vec<_>>()
    );
    v["variations_complete"] = json!(vars.complete);
    if let Some(r) = vars.stopped_by {
        v["variations_stopped_by"] = json!(super::solve::stop_name(r));
    }
    v["variations_nodes"] = json!(vars.nodes);
    v["variations_time_ms"] = json!(vars.time.as_millis() as u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_starts_at_the_defence() {
        let h = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            numbered_from(&h(&["Ph-6a", "Sw*6b", "Ph-7a", "RQ*7b"]), 4),
            "2... Ph-6a 3. Sw*6b Ph-7a 4. RQ*7b"
        );
        assert_eq!(numbered_from(&h(&["Cr*4b"]), 1), "1. Cr*4b");
    }
}
