//! Builds very long problems by backward construction from long ones: a beam of problems
//! with unique solutions, each taken back one move pair at a time (every retraction of it,
//! `sample::retractions`: an un-made defender move, then an un-made attacker check, those
//! leaving the attacker the fewest checks first; or one of them repaired by a mutation, as
//! most fail by an escape or a second mate) or now and then mutated, keeping the
//! retractions that give a problem at least two plies longer with a unique solution and
//! no spare pieces (redundant pieces are let through on the way: the
//! longer problems may need them); the longest and narrowest (fewest solve nodes) make the
//! next beam. Every problem kept is written at once, as a record with its length, main line
//! and verdict (`sound`, or `flawed` by redundant pieces only), so a run can be stopped at
//! any time; the sound ones are the harvest.
//!
//! `--keep N` moves on from a member once N longer problems came of it (0: all its tries),
//! which goes deeper sooner.
//!
//! ```sh
//! cargo run --release --example build_long -- --from problems/long.jsonl --seed 1 \
//!     --tries 150 --beam 12 --until 101 --out long-build.jsonl
//! ```

use clap::Parser;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use toritsume::generator::sample::{mutate, retractions};
use toritsume::notation::sfen::write_sfen;
use toritsume::problem::Problem;
use toritsume::rules::{MoveList, Position, generate_checks};
use toritsume::solver::{Limits, Solver, SolverConfig, Status};
use toritsume::soundness::{Flaw, Verdict, VerifyMode, verify_with};

/// Builds very long problems by backward construction.
#[derive(Parser)]
#[command(name = "build_long")]
struct Args {
    /// Problems to start from (JSON lines with `sfen` and `plies`).
    #[arg(long)]
    from: String,
    /// Seed of the draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Candidates tried per member of the beam and round.
    #[arg(long, default_value_t = 150)]
    tries: usize,
    /// Members of the beam.
    #[arg(long, default_value_t = 12)]
    beam: usize,
    /// Stop once a problem of this many plies is found.
    #[arg(long, default_value_t = 101)]
    until: u16,
    /// Node budget of a candidate's solve.
    #[arg(long, default_value_t = 4_000_000)]
    nodes: u64,
    /// Move on from a member once this many longer problems came of it (0: all its tries).
    #[arg(long, default_value_t = 0)]
    keep: usize,
    /// Output file (JSON lines; never overwritten).
    #[arg(long)]
    out: String,
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("build_long: {e}");
    std::process::exit(2);
}

/// A member of the beam: the position, its length, the solve's nodes (narrowness), its
/// parent's number (diversity), and whether its retractions are spent.
#[derive(Clone)]
struct Member {
    pos: Position,
    plies: u16,
    nodes: u64,
    parent: usize,
    id: usize,
}

/// Solves and verifies `cand`: its length, its solve's nodes, main line and verdict when
/// it is a problem of at least `least` plies with a unique solution and no spare pieces
/// (redundant pieces are let through: a longer problem built on it may need them).
fn sound_of_length(
    solver: &mut Solver,
    cand: &Position,
    least: u16,
    nodes: u64,
) -> Option<(u16, u64, Vec<String>, &'static str)> {
    solver.clear_table();
    // Given up early: a first search of half the budget (most candidates have no mate, or
    // a long hopeless one), and as soon as a mate too short is proven.
    let limits = Limits {
        nodes: Some(nodes),
        first_search_nodes: Some(nodes / 2),
        ..Limits::default()
    };
    let sol = solver.solve_range(cand, Some(least), None, limits);
    let plies = sol.plies?;
    if sol.status != Status::Mate
        || plies < least
        || !sol.minimal
        || !sol.complete
        || sol.has_spare_pieces()
    {
        return None;
    }
    solver.clear_table();
    let report = verify_with(solver, cand, None, VerifyMode::FirstFlaw);
    let verdict = match report.verdict {
        Verdict::Sound => "sound",
        Verdict::Flawed
            if report
                .reasons
                .iter()
                .all(|r| matches!(r, Flaw::RedundantPiece(_))) =>
        {
            "flawed"
        }
        _ => return None,
    };
    Some((
        plies,
        sol.nodes,
        sol.moves.iter().map(|m| m.usi()).collect(),
        verdict,
    ))
}

/// `p` as a problem is written: the attacker's hand only, the defender's implied (the
/// retractions spell it out).
fn problem_sfen(p: &Position) -> String {
    let mut s = p.to_setup();
    s.hands[p.side_to_move().flip().index()] = [0; 6];
    Position::from_setup(&s).map_or_else(|_| write_sfen(p), |q| write_sfen(&q))
}

/// The retractions of `p`, those leaving the attacker the fewest checks first (fewer
/// checks, fewer cooks), in a random order among equals.
fn ordered_retractions(rng: &mut ChaCha8Rng, p: &Position) -> Vec<Position> {
    use rand::seq::SliceRandom;
    let mut back = retractions(p);
    back.shuffle(rng);
    let mut list = MoveList::new();
    back.sort_by_cached_key(|a| {
        list.clear();
        generate_checks(a, &mut list);
        list.len()
    });
    back
}

fn main() {
    let args = Args::parse();
    if std::path::Path::new(&args.out).exists() {
        fail(format!("{} exists; not overwritten", args.out));
    }
    let text = std::fs::read_to_string(&args.from).unwrap_or_else(|e| fail(e));
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 256,
        nodes: Some(args.nodes),
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| fail(e));
    let mut out = std::fs::File::create(&args.out).unwrap_or_else(|e| fail(e));
    let mut next_id = 0;
    let mut start: Vec<Member> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| Problem::from_json(l).ok())
        .filter_map(|p| {
            next_id += 1;
            Some(Member {
                pos: p.position().ok()?,
                plies: p.plies?,
                nodes: 0,
                parent: next_id,
                id: next_id,
            })
        })
        .collect();
    start.sort_by_key(|m| std::cmp::Reverse(m.plies));
    let mut beam: Vec<Member> = start.into_iter().take(args.beam).collect();
    let mut seen: HashSet<u64> = beam.iter().map(|m| m.pos.key()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let started = std::time::Instant::now();
    let mut best = 0;
    let mut archive: Vec<Member> = Vec::new();
    // Each member's retractions, and how many of them have been tried.
    let mut pending: HashMap<usize, (Vec<Position>, usize)> = HashMap::new();
    while let Some(longest) = beam.iter().map(|m| m.plies).max()
        && longest < args.until
    {
        let mut next: Vec<Member> = Vec::new();
        for m in beam.clone() {
            let mut fresh = 0;
            let mut found = false;
            let mut longer_found = 0;
            for t in 0..args.tries {
                if args.keep > 0 && longer_found >= args.keep {
                    break;
                }
                // Mostly a retraction; now and then a mutation of the same length, whose
                // retractions are new ground.
                let (back, tried) = pending
                    .entry(m.id)
                    .or_insert_with(|| (ordered_retractions(&mut rng, &m.pos), 0));
                let (cand, longer) = if t % 3 == 2 {
                    match mutate(&mut rng, &m.pos) {
                        Some(c) => (c, false),
                        None => continue,
                    }
                } else if t % 3 == 0 && *tried < back.len() {
                    *tried += 1;
                    (back[*tried - 1].clone(), true)
                } else {
                    // A retraction repaired: one of them with a piece moved, added or
                    // removed (most retractions fail by an escape or a second mate).
                    if back.is_empty() {
                        continue;
                    }
                    let r = &back[rng.random_range(0..back.len())];
                    match mutate(&mut rng, r) {
                        Some(c) => (c, true),
                        None => continue,
                    }
                };
                if !seen.insert(cand.key()) {
                    continue;
                }
                fresh += 1;
                let least = if longer { m.plies + 2 } else { m.plies };
                let Some((plies, nodes, moves, verdict)) =
                    sound_of_length(&mut solver, &cand, least, args.nodes)
                else {
                    continue;
                };
                found = true;
                next_id += 1;
                if plies > m.plies {
                    longer_found += 1;
                    let rec = json!({
                        "sfen": problem_sfen(&cand),
                        "plies": plies,
                        "moves": moves,
                        "verdict": verdict,
                        "source": format!("build_long seed {}", args.seed),
                        "solve_nodes": nodes,
                    });
                    writeln!(out, "{rec}")
                        .and_then(|_| out.flush())
                        .unwrap_or_else(|e| fail(e));
                }
                next.push(Member {
                    pos: cand,
                    plies,
                    nodes,
                    parent: m.id,
                    id: next_id,
                });
            }
            // A member whose retractions are spent leaves the beam (and the archive).
            if fresh > 0 || found {
                next.push(m);
            } else {
                archive.retain(|a| a.id != m.id);
            }
        }
        archive.extend(next.iter().filter(|m| m.parent != m.id).cloned());
        archive.sort_by_key(|m| (std::cmp::Reverse(m.plies), m.nodes));
        archive.dedup_by_key(|m| m.id);
        // The longest first, the narrowest among them, at most three of one parent.
        next.sort_by_key(|m| (std::cmp::Reverse(m.plies), m.nodes));
        let mut per_parent = std::collections::HashMap::new();
        beam = next
            .into_iter()
            .filter(|m| {
                let n = per_parent.entry(m.parent).or_insert(0);
                *n += 1;
                *n <= 3
            })
            .take(args.beam)
            .collect();
        let top = beam.iter().map(|m| m.plies).max().unwrap_or(0);
        if top > best {
            best = top;
            eprintln!(
                "{:>6.0} s: {top} plies (beam {:?})",
                started.elapsed().as_secs_f64(),
                beam.iter().map(|m| m.plies).collect::<Vec<_>>()
            );
        }
        // Room left in the beam is filled from the archive of everything found.
        for a in &archive {
            if beam.len() >= args.beam {
                break;
            }
            if !beam.iter().any(|b| b.id == a.id) {
                beam.push(a.clone());
            }
        }
        if beam.is_empty() {
            fail("every member's retractions are spent");
        }
    }
}
