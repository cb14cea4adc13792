//! `verify --tries` and `solve --tries`: the other checks at the first move, each with the
//! defences that refute it, as text (`1. Fa*2c? Ph-1b!`; the JSON is
//! [`toritsume::report::TriesReport`]). They are sought only
//! of a whole mate ([`Solution::is_whole_mate`]).

use toritsume::notation::hodges::answered_to_hodges;
use toritsume::solver::{Solution, Tries, Try};

/// Refutations named in the text before the rest are counted.
const SHOWN: usize = 3;

/// The check and each refutation in Hodges notation.
fn hodges(sol: &Solution, t: &Try) -> (String, Vec<String>) {
    answered_to_hodges(&sol.position, t.mv, &t.refutations)
}

/// The text report's part for the tries.
pub fn text(sol: &Solution, tries: &Tries) -> String {
    if !sol.is_whole_mate() {
        return "Tries: not sought: there is no proven solution\n".to_string();
    }
    if tries.list.is_empty() && tries.complete {
        return "Tries: none (the first move is the only check)\n".to_string();
    }
    let mut out = format!(
        "Tries (the other checks at ply 1, closest first; each with the defences that refute \
         it within {}):\n",
        toritsume::notation::plies(sol.plies.unwrap_or(0))
    );
    // At the last move another mate is a final dual, before it a cook.
    let other_mate = if sol.plies == Some(1) {
        " (mates too: a final dual)"
    } else {
        " (mates too: a cook)"
    };
    for t in &tries.list {
        let (check, refutations) = hodges(sol, t);
        let answer = match refutations.len() {
            0 => other_mate.to_string(),
            n if n <= SHOWN => format!("? {}!", refutations.join("! ")),
            n => format!(
                "? {}! and {} more",
                refutations[..SHOWN].join("! "),
                n - SHOWN
            ),
        };
        out.push_str(&format!("  1. {check}{answer}\n"));
    }
    if !tries.complete {
        out.push_str(&match tries.stopped_by {
            Some(r) => format!(
                "(the other checks not decided: {})\n",
                super::solve::limit_text(r)
            ),
            None => "(the other checks not decided)\n".to_string(),
        });
    }
    out
}
