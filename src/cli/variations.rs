//! `solve --variations`: the other defences along a main line and the mate that answers
//! each, as text (the JSON is [`toritsume::report::VariationsReport`]).

use super::solve::numbered_from;
use toritsume::report::variation_hodges as hodges_of;
use toritsume::solver::{Solution, Status, Variations};

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
            (Some(ply), Some(r)) => format!(
                "(variations from ply {ply} on not read: {})\n",
                super::solve::limit_text(r)
            ),
            _ => "(variations not read: the main line is not a mate proven shortest and read to the end)\n"
                .to_string(),
        });
    }
    out
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
