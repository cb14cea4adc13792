//! Collects hard positions for the solver's benchmark set (benches/data/hard.jsonl): draws
//! candidates the way the generator does (random placement, and backward construction of
//! long mates), solves each on one thread from an empty table, and writes every one whose
//! solve takes at least `--min-ms` and ends with an answer within `--max-s` (positions still
//! unknown then are counted, not written). Nothing is chosen by hand: a candidate is in the
//! set when, and only when, it is that slow.
//!
//! ```sh
//! cargo run --release --example harvest_hard -- --seed 1 --candidates 20000 --out hard-1.jsonl
//! ```
//!
//! Each line is a JSON record: `sfen`, `status`, `plies`, `moves` (USI), `source` (the
//! candidate's seed and index), and the solve's `nodes` (`nodes_by_phase`: first search, minimality proof, main line) and
//! `time_ms` when it was found.

use clap::Parser;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};
use toritsume::generator::sample::{backward, random_position};
use toritsume::notation::sfen::write_sfen;
use toritsume::solver::{Limits, Solver, SolverConfig, Status};

/// Collects hard positions for the solver's benchmark set.
#[derive(Parser)]
#[command(name = "harvest_hard")]
struct Args {
    /// Seed of the candidates' draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Candidates to draw.
    #[arg(long, default_value_t = 1000)]
    candidates: u64,
    /// Keep a candidate whose solve takes at least this many milliseconds.
    #[arg(long, default_value_t = 500)]
    min_ms: u64,
    /// Give a candidate up after this many seconds.
    #[arg(long, default_value_t = 30)]
    max_s: u64,
    /// Table size, MB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Output file (JSON lines; never overwritten).
    #[arg(long)]
    out: String,
}

fn main() {
    let args = Args::parse();
    if std::path::Path::new(&args.out).exists() {
        eprintln!("harvest_hard: {} exists; not overwritten", args.out);
        std::process::exit(2);
    }
    let mut out = std::fs::File::create(&args.out).unwrap_or_else(|e| {
        eprintln!("harvest_hard: cannot create {}: {e}", args.out);
        std::process::exit(1);
    });
    let mut solver = Solver::new(SolverConfig {
        hash_mb: args.hash,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| {
        eprintln!("harvest_hard: {e}");
        std::process::exit(1);
    });
    // A quick look first: most candidates are decided in far fewer nodes than a hard one
    // takes, and are dropped without the slow solve.
    let quick_nodes = 400_000;
    let (mut kept, mut unknown) = (0, 0);
    for i in 0..args.candidates {
        let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003) ^ i);
        // Half random placements, half backward constructions of 4 to 13 move pairs.
        let (pos, how) = if i % 2 == 0 {
            (random_position(&mut rng), "random")
        } else {
            let pairs = 4 + (i / 2 % 10) as usize;
            (backward(&mut rng, pairs), "backward")
        };
        solver.clear_table();
        let quick = solver.solve_with(
            &pos,
            None,
            Limits {
                nodes: Some(quick_nodes),
                ..Limits::default()
            },
        );
        if quick.status != Status::Unknown && quick.minimal && quick.complete {
            continue;
        }
        solver.clear_table();
        let start = Instant::now();
        let sol = solver.solve_with(
            &pos,
            None,
            Limits {
                deadline: Instant::now().checked_add(Duration::from_secs(args.max_s)),
                ..Limits::default()
            },
        );
        let ms = start.elapsed().as_millis() as u64;
        let finished = sol.status == Status::NoMate
            || (sol.status == Status::Mate && sol.minimal && sol.complete);
        if !finished {
            unknown += 1;
            continue;
        }
        if ms < args.min_ms {
            continue;
        }
        kept += 1;
        let rec = json!({
            "sfen": write_sfen(&pos),
            "status": sol.status,
            "plies": sol.plies,
            "moves": sol.moves.iter().map(|m| m.usi()).collect::<Vec<_>>(),
            "source": format!("harvest_hard seed {} candidate {i} ({how})", args.seed),
            "nodes": sol.nodes,
            "nodes_by_phase": sol.effort,
            "time_ms": ms,
        });
        writeln!(out, "{rec}")
            .and_then(|_| out.flush())
            .unwrap_or_else(|e| {
                eprintln!("harvest_hard: cannot write {}: {e}", args.out);
                std::process::exit(1);
            });
        eprintln!(
            "#{i} {how}: {} {:?} in {ms} ms ({} nodes: {:?})",
            sol.status, sol.plies, sol.nodes, sol.effort
        );
    }
    eprintln!(
        "{} candidates: {kept} written, {unknown} without an answer within {} s",
        args.candidates, args.max_s
    );
}
