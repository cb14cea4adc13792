//! `toritsume bench`: solves every position of a benchmark file (by default the hard set,
//! `benches/data/hard.jsonl`) one after another, each from an empty table, and reports each
//! one's time and nodes, whether the answer is the one recorded, and how the times compare
//! with the recorded baseline.

use super::input::Item;
use super::search_args::{TechniqueArg, make_solvers, techniques_of};
use super::{Answer, EXIT_USAGE, run_parallel, say_err};
use clap::Args;
use std::sync::Mutex;
use toritsume::notation::counted;
use toritsume::report::to_json_line;
use toritsume::solver::{SolverConfig, Status};

/// The benchmark file used when none is given.
pub const DEFAULT_SET: &str = "benches/data/hard.jsonl";

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Transposition table size in MB (per position).
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = super::hash_mb_arg)]
    hash: usize,
    /// Threads searching each position (one shared table).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Solve each position this many times and report the fastest.
    #[arg(long, default_value_t = 1, value_name = "N")]
    repeat: usize,
    /// Switch search techniques off, to measure what they buy (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "TECHNIQUE")]
    disable: Vec<TechniqueArg>,
    /// Keep the table on the system's ordinary pages rather than transparent huge pages
    /// (as `solve --small-pages`).
    #[arg(long)]
    small_pages: bool,
    /// One JSON object per position and line, then a summary object.
    #[arg(long)]
    json: bool,
    /// Only the positions whose record gives this answer (`mate` or `nomate`).
    #[arg(long, value_enum, value_name = "STATUS")]
    status: Option<RecordedStatus>,
    #[command(flatten)]
    lines: super::input::LinesArg,
    /// The benchmark file (JSON records with the expected answer; `baseline` figures
    /// optional).
    #[arg(default_value = DEFAULT_SET)]
    input: Vec<String>,
}

/// A recorded answer `--status` picks positions by.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum RecordedStatus {
    /// Recorded as a mate.
    Mate,
    /// Recorded as no mate.
    Nomate,
}

/// What a record says the answer is.
struct Expected {
    status: Option<Status>,
    plies: Option<u16>,
    moves: Vec<String>,
    baseline_ms: Option<f64>,
}

fn expected(item: &Item) -> Expected {
    let Some(r) = &item.record else {
        return Expected {
            status: None,
            plies: None,
            moves: Vec::new(),
            baseline_ms: None,
        };
    };
    let status = match r.extra.get("status").and_then(|v| v.as_str()) {
        Some("nomate") => Some(Status::NoMate),
        Some("mate") => Some(Status::Mate),
        _ if r.plies.is_some() => Some(Status::Mate),
        _ => None,
    };
    let baseline_ms = r
        .extra
        .get("baseline")
        .and_then(|b| b.get("time_ms"))
        .and_then(|t| t.as_f64());
    Expected {
        status,
        plies: r.plies,
        moves: r.moves.clone(),
        baseline_ms,
    }
}

/// Totals over the file.
#[derive(Default)]
struct Totals {
    positions: usize,
    ms: f64,
    nodes: u64,
    baseline_ms: f64,
    with_baseline: usize,
    ms_with_baseline: f64,
    disagree: usize,
}

/// Runs `bench`.
pub fn run(a: BenchArgs) -> anyhow::Result<i32> {
    if a.repeat == 0 {
        anyhow::bail!("--repeat must be at least 1");
    }
    let threads = super::threads_arg(a.threads.max(1))?;
    if a.input == [DEFAULT_SET] && !std::path::Path::new(DEFAULT_SET).is_file() {
        anyhow::bail!(
            "cannot open {DEFAULT_SET}, the default benchmark file: its path is relative to \
             the source tree, so run bench from there or name a FILE"
        );
    }
    let mut items = a.lines.read(&a.input)?;
    if items.is_empty() {
        anyhow::bail!("nothing to measure: no positions in the input");
    }
    if let Some(only) = a.status {
        let wanted = match only {
            RecordedStatus::Mate => Status::Mate,
            RecordedStatus::Nomate => Status::NoMate,
        };
        items.retain(|i| expected(i).status == Some(wanted));
        if items.is_empty() {
            anyhow::bail!("--status {wanted}: no position chosen is recorded so");
        }
    }
    let mut techniques = toritsume::solver::Techniques::default();
    techniques_of(&a.disable, &mut techniques);
    let config = SolverConfig {
        hash_mb: a.hash.max(1),
        techniques,
        threads,
        huge_pages: !a.small_pages,
        ..SolverConfig::default()
    };
    let solvers = make_solvers(&config, 1)?;
    let totals = Mutex::new(Totals::default());
    let json = a.json;
    let repeat = a.repeat;
    let outcome = run_parallel(&items, solvers, None, None, |solver, item| {
        let pos = item.position.as_ref().map_err(|e| e.clone())?;
        solver.set_defender_hand(item.defender_hand(config.defender_hand));
        let mut best = None;
        for _ in 0..repeat {
            solver.clear_table();
            let sol = solver.solve(pos);
            if best
                .as_ref()
                .is_none_or(|b: &toritsume::solver::Solution| sol.time < b.time)
            {
                best = Some(sol);
            }
        }
        let sol = best.expect("at least one run");
        // The record's claims against the answer, named as every command names them.
        let error = item
            .record
            .as_ref()
            .and_then(|r| r.check_against(solver, &sol))
            .map(|e| e.to_string());
        let want = expected(item);
        let moves = toritsume::notation::usi::line_to_usi(&sol.moves);
        let mut differences = Vec::new();
        if let Some(s) = want.status
            && s != sol.status
        {
            differences.push(format!("status {} (recorded {s})", sol.status));
        }
        if want.plies.is_some() && want.plies != sol.plies {
            differences.push(format!(
                "{} plies (recorded {})",
                sol.plies.map_or("no".to_string(), |p| p.to_string()),
                want.plies.unwrap_or(0)
            ));
        }
        if !want.moves.is_empty() && want.moves != moves {
            differences.push("another main line".to_string());
        }
        let ms = sol.time.as_secs_f64() * 1000.0;
        {
            let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
            t.positions += 1;
            t.ms += ms;
            t.nodes += sol.nodes;
            if let Some(b) = want.baseline_ms {
                t.baseline_ms += b;
                t.with_baseline += 1;
                t.ms_with_baseline += ms;
            }
            if !differences.is_empty() {
                t.disagree += 1;
            }
        }
        let what = match (sol.status, sol.plies) {
            (Status::Mate, Some(p)) => format!("mate in {p}"),
            (s, _) => s.to_string(),
        };
        let text = if json {
            to_json_line(&BenchLine {
                origin: &item.origin,
                status: sol.status.to_string(),
                plies: sol.plies,
                agrees: differences.is_empty(),
                differences: &differences,
                time_ms: (ms * 10.0).round() / 10.0,
                nodes: sol.nodes,
                nodes_by_phase: sol.effort,
                threads,
                baseline_ms: want.baseline_ms,
                speedup: want
                    .baseline_ms
                    .map(|b| (b / ms.max(0.001) * 100.0).round() / 100.0),
                stopped_by: sol.stopped_by,
            })
        } else {
            format!(
                "{:<9} {:<11} {:>9.1} ms {:>8.2} M nodes{}{}",
                item.origin.split(" of ").next().unwrap_or(&item.origin),
                what,
                ms,
                sol.nodes as f64 / 1e6,
                want.baseline_ms.map_or(String::new(), |b| format!(
                    "  (baseline {b:.0} ms, {:.2}×)",
                    b / ms.max(0.001)
                )),
                if differences.is_empty() {
                    String::new()
                } else {
                    format!("  DIFFERS: {}", differences.join(", "))
                }
            )
        };
        Ok(Answer { text, error })
    })?;
    let (bad, contradicted) = (outcome.failed, outcome.contradicted);
    let t = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    let speedup = (t.with_baseline > 0).then(|| t.baseline_ms / t.ms_with_baseline.max(0.001));
    let summary = if json {
        to_json_line(&BenchSummary {
            summary: BenchTotals {
                positions: t.positions,
                threads,
                time_ms: t.ms.round(),
                nodes: t.nodes,
                baseline_ms: (t.with_baseline > 0).then_some(t.baseline_ms.round()),
                speedup: speedup.map(|s| (s * 100.0).round() / 100.0),
                disagreeing: t.disagree,
                unreadable: bad,
                contradicted,
            },
        })
    } else {
        format!(
            "{}, {}: {:.1} s, {:.1} M nodes{}; {}",
            counted(t.positions as u64, "position", "positions"),
            counted(threads as u64, "thread", "threads"),
            t.ms / 1000.0,
            t.nodes as f64 / 1e6,
            speedup.map_or(String::new(), |s| format!(
                "; baseline {:.1} s ({s:.2}× as fast)",
                t.baseline_ms / 1000.0
            )),
            if t.disagree == 0 {
                "every answer as recorded".to_string()
            } else {
                format!(
                    "{} from the record",
                    counted(t.disagree as u64, "answer differs", "answers differ")
                )
            }
        )
    };
    super::output::emit(&format!("{summary}\n"))?;
    if bad > 0 {
        say_err!("{} could not be read", counted(bad as u64, "line", "lines"));
    }
    if contradicted > 0 {
        say_err!(
            "{} claim what the search does not find",
            counted(contradicted as u64, "record", "records")
        );
    }
    if bad > 0 || contradicted > 0 {
        return Ok(EXIT_USAGE);
    }
    Ok(if t.disagree > 0 { 1 } else { 0 })
}

/// A position's line of `bench --json`.
#[derive(serde::Serialize)]
struct BenchLine<'a> {
    origin: &'a str,
    status: String,
    plies: Option<u16>,
    agrees: bool,
    differences: &'a [String],
    time_ms: f64,
    nodes: u64,
    nodes_by_phase: toritsume::solver::Effort,
    threads: usize,
    baseline_ms: Option<f64>,
    speedup: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<toritsume::solver::StopReason>,
}

/// The closing line of `bench --json`.
#[derive(serde::Serialize)]
struct BenchSummary {
    summary: BenchTotals,
}

/// The totals of a `bench` run.
#[derive(serde::Serialize)]
struct BenchTotals {
    positions: usize,
    threads: usize,
    time_ms: f64,
    nodes: u64,
    baseline_ms: Option<f64>,
    speedup: Option<f64>,
    disagreeing: usize,
    unreadable: usize,
    contradicted: usize,
}
