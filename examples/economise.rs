//! Rewrites a problem file so that no record keeps a redundant piece (docs/RULES.md
//! "Soundness"). Each record is verified in full; a sound one is copied as it is; one whose
//! only flaw is redundant pieces loses them one at a time (the first the report names, then
//! a new verification, as taking one piece out can make another needed) until it is sound,
//! and is written as the problem without them: its SFEN, main line, quality, themes and
//! rating anew (`quality.proof_nodes` from a solve on a cleared 16 MB table, one thread, as
//! the generator's workers have), its seed, index, strategy, family and source kept, and
//! `reduced_from` naming the position it came from. Any other record is left out and
//! named on standard error. Under the tsume convention a board piece taken out goes to the
//! defender's hand, as the redundancy check itself has it.
//!
//! ```sh
//! cargo run --release --example economise -- problems/generated.jsonl economised.jsonl
//! ```
//!
//! Then `toritsume merge` drops any record that has become the same problem as another.

use std::io::Write;
use toritsume::generator::{quality, themes};
use toritsume::notation::{hodges::line_to_hodges, sfen::write_sfen};
use toritsume::problem::Problem;
use toritsume::rules::Position;
use toritsume::solver::{DefenderHand, Solver, SolverConfig};
use toritsume::soundness::{Flaw, Report, Verdict, VerifyMode, verify_with};

/// The report of `pos` once its redundant pieces are out, with the pieces taken out; an
/// error saying why when it has another flaw.
fn economise(
    solver: &mut Solver,
    start: &Position,
) -> Result<(Position, Report, Vec<String>), String> {
    let mut pos = start.clone();
    let mut removed = Vec::new();
    loop {
        solver.clear_table();
        let report = verify_with(solver, &pos, None, VerifyMode::Full);
        let only_redundant = report.verdict == Verdict::Flawed
            && !report.redundant.is_empty()
            && report
                .reasons
                .iter()
                .all(|f| matches!(f, Flaw::RedundantPiece(_)));
        if report.verdict == Verdict::Sound {
            return Ok((pos, report, removed));
        }
        if !only_redundant {
            let reasons: Vec<String> = report.reasons.iter().map(|f| f.to_string()).collect();
            return Err(format!("{}: {}", report.verdict, reasons.join("; ")));
        }
        let first = &report.redundant[0];
        removed.push(first.to_string());
        pos = first
            .taken_from(&pos)
            .ok_or_else(|| format!("cannot take out {first}"))?;
    }
}

/// The record of the economised problem `pos` (verified sound in `report`), from `p`.
fn record(solver: &mut Solver, p: &Problem, pos: &Position, report: &Report) -> Problem {
    let sol = &report.solution;
    let plies = sol.plies.unwrap_or(0);
    solver.clear_table();
    let proof_nodes = solver.solve(pos).nodes;
    let mut q = quality::measure(report);
    q.proof_nodes = proof_nodes;
    q.score = quality::score(&q, plies);
    let (theme_names, mut features) = themes::analyse(report);
    features.proof_nodes = proof_nodes;
    let mut out = p.clone();
    out.sfen = write_sfen(pos);
    out.plies = Some(plies);
    out.moves = sol.moves.iter().map(|m| m.usi()).collect();
    out.hodges = line_to_hodges(&sol.position, &sol.moves);
    out.verdict = Some(Verdict::Sound.to_string());
    out.extra
        .insert("reduced_from".into(), p.sfen.clone().into());
    out.extra
        .insert("themes".into(), serde_json::json!(theme_names));
    out.extra
        .insert("rating".into(), themes::rating(&features).into());
    out.extra.insert(
        "quality".into(),
        serde_json::to_value(&q).unwrap_or_default(),
    );
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: economise IN.jsonl OUT.jsonl");
        std::process::exit(2);
    };
    if std::path::Path::new(output).exists() {
        eprintln!("{output} exists; not overwritten");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("cannot read {input}: {e}");
        std::process::exit(1);
    });
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        threads: 1,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let (mut out, mut kept, mut reduced, mut left_out) = (String::new(), 0, 0, 0);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let where_ = format!("line {} of {input}", n + 1);
        let p = Problem::from_json(line).unwrap_or_else(|e| {
            eprintln!("{where_}: {e}");
            std::process::exit(1);
        });
        let pos = p.position().unwrap_or_else(|e| {
            eprintln!("{where_}: {e}");
            std::process::exit(1);
        });
        solver.set_defender_hand(p.defender_hand.unwrap_or(DefenderHand::Rest));
        match economise(&mut solver, &pos) {
            Ok((_, _, removed)) if removed.is_empty() => {
                kept += 1;
                out.push_str(line.trim());
            }
            Ok((q, report, removed)) => {
                reduced += 1;
                eprintln!("{where_}: without {}", removed.join(", "));
                out.push_str(&record(&mut solver, &p, &q, &report).to_json());
            }
            Err(why) => {
                left_out += 1;
                eprintln!("{where_}: left out ({why})");
                continue;
            }
        }
        out.push('\n');
    }
    let written = std::fs::File::create(output).and_then(|mut f| f.write_all(out.as_bytes()));
    if let Err(e) = written {
        eprintln!("cannot write {output}: {e}");
        std::process::exit(1);
    }
    eprintln!(
        "{kept} sound as they were, {reduced} without their redundant pieces, {left_out} left out"
    );
}
