//! `toritsume perft`: counts legal move paths (the check against reference engines), of one
//! position or of a suite of positions with expected counts ([`super::perft_suite`]).

use super::output::emit;
use super::{position_arg, thread_pool};
use clap::Args;
use std::fmt::Write as _;
use std::time::Instant;
use toritsume::notation::hodges::to_hodges;
use toritsume::notation::sfen::write_sfen;
use toritsume::report::to_json_line;
use toritsume::rules::perft::{perft_divide, perft_parallel};

/// The deepest `perft` counts.
pub(crate) const MAX_DEPTH: u32 = super::usi::MAX_PERFT_DEPTH;

/// Arguments of `perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies, at most 30 (the count recurses one frame a ply, and no position with
    /// moves on both sides gets near that depth in any time one would wait). With `--suite`,
    /// only the counts of this depth or less are checked.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    #[arg(required_unless_present_any = ["suite", "make_suite"])]
    depth: Option<u32>,
    /// Check a suite instead: a FILE of positions, one a line with the counts it expects
    /// (`POSITION ;D1 17 ;D2 288`, an `;id "name"` to name it), as engines' perft suites
    /// are written; exit status 1 when a count differs.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "divide"])]
    suite: Option<std::path::PathBuf>,
    /// Write a suite instead: each position of FILE (one a line; a suite's line keeps its
    /// `id`) with its counts at every depth from 1 to `--depth`, for `--suite` to check.
    #[arg(long, value_name = "FILE", requires = "depth")]
    #[arg(conflicts_with_all = ["position", "divide", "suite", "json"])]
    make_suite: Option<std::path::PathBuf>,
    /// List each root move with its count.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object (with `--suite`, one a count).
    #[arg(long)]
    json: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The position (SFEN, FEN or startpos, optionally with `moves ...`).
    #[arg(required_unless_present_any = ["suite", "make_suite"], num_args = 1..)]
    position: Vec<String>,
}

/// Runs `perft`.
pub fn run(a: PerftArgs) -> anyhow::Result<i32> {
    let pool = thread_pool(a.threads)?;
    if let Some(file) = &a.suite {
        return pool.install(|| super::perft_suite::run(file, a.depth, a.json, MAX_DEPTH));
    }
    let Some(depth) = a.depth else {
        anyhow::bail!("--depth is needed to count a position (or --suite FILE)");
    };
    if let Some(file) = &a.make_suite {
        return pool.install(|| super::perft_suite::make(file, depth));
    }
    let pos = position_arg(&a.position)?;
    let start = Instant::now();
    let (nodes, divide) = pool.install(|| {
        if a.divide && depth > 0 {
            let d = perft_divide(&pos, depth);
            (d.iter().map(|&(_, n)| n).sum(), Some(d))
        } else {
            (perft_parallel(&pos, depth), None)
        }
    });
    let elapsed = start.elapsed();
    let ms = elapsed.as_secs_f64() * 1000.0;
    let nps = if elapsed.as_secs_f64() > 0.0 {
        (nodes as f64 / elapsed.as_secs_f64()) as u64
    } else {
        0
    };
    if a.json {
        let v = Counted {
            position: write_sfen(&pos),
            depth,
            nodes,
            time_ms: ms.round() as u64,
            nps,
            divide: divide.as_ref().map(|d| {
                d.iter()
                    .map(|&(m, n)| Divided {
                        mv: m.usi(),
                        hodges: to_hodges(&pos, m),
                        nodes: n,
                    })
                    .collect()
            }),
        };
        emit(&format!("{}\n", to_json_line(&v)))?;
    } else {
        let mut out = String::new();
        if let Some(d) = &divide {
            for &(m, n) in d {
                writeln!(out, "{:<6} {:<10} {n}", m.usi(), to_hodges(&pos, m))?;
            }
            writeln!(out)?;
        }
        writeln!(out, "nodes {nodes}")?;
        writeln!(out, "time  {ms:.0} ms ({nps} nodes/s)")?;
        emit(&out)?;
    }
    Ok(0)
}

/// What `perft --json` prints.
#[derive(serde::Serialize)]
struct Counted {
    position: String,
    depth: u32,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<Divided>>,
}

/// One move's count in `perft --json --divide`.
#[derive(serde::Serialize)]
struct Divided {
    #[serde(rename = "move")]
    mv: String,
    hodges: String,
    nodes: u64,
}
