//! Verifies every record of a problem file afresh with the current rules and solver, and
//! writes the file again: a record whose length, main line, verdict and themes all hold is
//! copied as it is; one whose answer changed and that is still sound gets its new `plies`,
//! `moves`, `hodges` and `final_duals`, and, when it has them, `themes`, `rating` and
//! `quality` measured again (the generation's `quality.proof_nodes` kept); one that is no
//! longer sound, or that now has a final dual where it had none, is left out. Each change is told on standard error. Used when a rule
//! changes (docs/MEASUREMENTS.md, "The useless-interposition rule settled"):
//!
//! ```sh
//! cargo run --release --example reverify -- problems/generated.jsonl reverified.jsonl
//! ```

use serde_json::json;
use std::io::Write;
use toritsume::generator::quality;
use toritsume::generator::themes;
use toritsume::notation::hodges::line_to_hodges;
use toritsume::notation::usi::line_to_usi;
use toritsume::problem::Problem;
use toritsume::solver::{Solver, SolverConfig};
use toritsume::soundness::{Verdict, VerifyMode, verify_with};

fn fail(msg: String) -> ! {
    eprintln!("reverify: {msg}");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        fail("usage: reverify IN.jsonl OUT.jsonl".into());
    };
    if std::path::Path::new(output).exists() {
        fail(format!("{output} exists; not overwritten"));
    }
    let text = std::fs::read_to_string(input)
        .unwrap_or_else(|e| fail(format!("cannot read {input}: {e}")));
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 256,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| fail(e.to_string()));
    let mut out = String::new();
    let (mut same, mut changed, mut dropped) = (0, 0, 0);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let n = n + 1;
        let mut record =
            Problem::from_json(line).unwrap_or_else(|e| fail(format!("{input}:{n}: {e}")));
        let pos = record
            .position()
            .unwrap_or_else(|e| fail(format!("{input}:{n}: {e}")));
        solver.set_defender_hand(record.convention());
        solver.clear_table();
        let report = verify_with(&mut solver, &pos, None, VerifyMode::Full);
        let verdict = report.verdict.to_string();
        let sol = &report.solution;
        let moves = line_to_usi(&sol.moves);
        // Themes are read off the solution tree (a useless interposition left out, say), so
        // they can change with a rule where the line does not.
        let themes_hold = match record.extra.get("themes") {
            Some(t) => *t == json!(themes::analyse(&report).0),
            None => true,
        };
        if record.verdict.as_deref() == Some(verdict.as_str())
            && record.plies == sol.plies
            && record.moves == moves
            && themes_hold
        {
            same += 1;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        // A set without final duals (the generator's default, `--final-duals forbid`) keeps
        // none: a record that had none and has one now leaves the set too.
        let duals = report.final_dual_moves();
        let new_dual = !duals.is_empty() && !record.extra.contains_key("final_duals");
        if report.verdict != Verdict::Sound || new_dual {
            dropped += 1;
            eprintln!(
                "{input}:{n}: {} dropped: now {verdict}{} ({:?} plies; the record: {:?} plies, {})",
                record.sfen,
                if new_dual { " with a final dual" } else { "" },
                sol.plies,
                record.plies,
                record.verdict.as_deref().unwrap_or("no verdict")
            );
            continue;
        }
        changed += 1;
        eprintln!(
            "{input}:{n}: {} now {:?} plies ({:?} before){}: {}",
            record.sfen,
            sol.plies,
            record.plies,
            if themes_hold {
                ""
            } else {
                ", its themes changed"
            },
            moves.join(" ")
        );
        record.plies = sol.plies;
        record.hodges = line_to_hodges(&sol.position, &sol.moves);
        record.moves = moves;
        record.verdict = Some(verdict);
        if duals.is_empty() {
            record.extra.remove("final_duals");
        } else {
            record
                .extra
                .insert("final_duals".into(), json!(line_to_usi(&duals)));
        }
        if let Some(old) = record.extra.get("quality").cloned() {
            let mut q = quality::measure(&report);
            q.proof_nodes = old["proof_nodes"].as_u64().unwrap_or(q.proof_nodes);
            q.score = quality::score(&q, sol.plies.unwrap_or(0));
            let (th, mut features) = themes::analyse(&report);
            features.proof_nodes = q.proof_nodes;
            record.extra.insert(
                "quality".into(),
                serde_json::to_value(&q).unwrap_or_default(),
            );
            if record.extra.contains_key("themes") {
                record.extra.insert("themes".into(), json!(th));
            }
            if record.extra.contains_key("rating") {
                record
                    .extra
                    .insert("rating".into(), json!(themes::rating(&features)));
            }
        }
        out.push_str(&record.to_json());
        out.push('\n');
    }
    let mut f = std::fs::File::create(output)
        .unwrap_or_else(|e| fail(format!("cannot create {output}: {e}")));
    f.write_all(out.as_bytes())
        .unwrap_or_else(|e| fail(format!("cannot write {output}: {e}")));
    eprintln!(
        "{input}: {same} confirmed, {changed} corrected, {dropped} left out (no longer sound, or a new final dual)"
    );
}
