//! The problem generator: candidates from three strategies ([`sample`]: random placement,
//! backward construction, mutation of problems already found), each solved with a bounded
//! effort and kept only when [`crate::soundness::verify`] proves it sound, its length is in
//! range, and it is no duplicate ([`dedup`]) of one kept before.
//!
//! Reproducibility: candidate `i` is drawn from its own generator seeded by (seed, i) and
//! solved on a cleared table, candidates are evaluated in batches in parallel and merged in
//! index order, and mutation only draws on problems kept in earlier batches; so the same
//! seed and count give the same problems whatever the number of threads. Shard K of N takes
//! the candidate indices ≡ K (mod N), so shards never draw the same candidate.

pub mod dedup;
mod draw;
mod evaluate;
mod policy;
pub mod quality;
pub mod sample;
pub mod themes;

use crate::problem::Problem;
use crate::solver::{Solver, SolverConfig, Techniques};
use draw::Pools;
use evaluate::{Outcome, evaluate};
pub use policy::{Keys, Policy, Refusal, Seed};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Settings of a generation run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Shortest solution kept (plies).
    pub min_plies: u16,
    /// Longest solution kept (plies).
    pub max_plies: u16,
    /// Problems to produce.
    pub count: usize,
    /// Seed of the whole run.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// This run's shard (k, n): candidate indices ≡ k mod n.
    pub shard: (u64, u64),
    /// Keep only problems scoring at least this.
    pub min_score: Option<f64>,
    /// Node budget of the search that decides whether a candidate mates at all (most
    /// candidates do not; giving up on them early is what keeps the rate up).
    pub search_nodes: u64,
    /// Node budget of a candidate's whole solve (with the proof that no shorter mate exists
    /// and the main line).
    pub solve_nodes: u64,
    /// Node budget of a candidate's verification.
    pub verify_nodes: u64,
    /// Table size per worker, MB.
    pub hash_mb: usize,
    /// Candidates per batch. Fixed whatever the thread count, since mutation draws on the
    /// problems kept in earlier batches.
    pub batch: usize,
    /// Give up after this many candidates, exactly (None: never); the run then ends with
    /// [`Stats::candidate_limit`] set when fewer than `count` problems were kept.
    pub max_candidates: Option<u64>,
    /// Whether a problem with an alternative final mating move may be kept.
    pub final_duals: FinalDuals,
    /// Most problems kept from one family (problems descending from one ancestor by
    /// mutation or extension).
    pub family_limit: usize,
    /// Most problems kept with one solution shape ([`coarse_shape`]).
    pub shape_limit: usize,
    /// Problems to start from: mutated and extended like problems kept in this run,
    /// counted against the limits as if kept, never written.
    pub seeds: Vec<Seed>,
}

/// Whether alternative final mates are tolerated.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, strum::Display, strum::EnumString)]
#[strum(serialize_all = "lowercase")]
pub enum FinalDuals {
    /// Keep problems with a final dual (the convention tolerates them).
    Allow,
    /// Keep only problems whose last move is the only mate.
    #[default]
    Forbid,
}

/// The shape of a solution: its Hodges moves with the squares left out (`Fa* Phx Sw-+`),
/// so that two problems playing the same pieces the same way count as one idea.
pub fn coarse_shape(hodges: &[String]) -> String {
    hodges
        .iter()
        .map(|h| {
            let b = h.as_bytes();
            let mut out = String::new();
            let mut i = 0;
            while i < b.len() {
                if i + 1 < b.len()
                    && (b'1'..=b'7').contains(&b[i])
                    && (b'a'..=b'g').contains(&b[i + 1])
                {
                    i += 2;
                } else {
                    out.push(b[i] as char);
                    i += 1;
                }
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl GenConfig {
    /// Defaults for a length range: budgets grow with the length.
    pub fn new(min_plies: u16, max_plies: u16, count: usize, seed: u64) -> GenConfig {
        let solve_nodes = 20_000 + 40_000 * max_plies as u64;
        let search_nodes = 2_000 + 250 * (max_plies as u64).pow(2);
        GenConfig {
            min_plies,
            max_plies,
            count,
            seed,
            threads: 1,
            shard: (0, 1),
            min_score: None,
            search_nodes,
            solve_nodes,
            verify_nodes: solve_nodes * 8,
            hash_mb: 16,
            batch: 64,
            max_candidates: None,
            final_duals: FinalDuals::Forbid,
            family_limit: 3,
            shape_limit: 1,
            seeds: Vec::new(),
        }
    }
}

/// How a candidate was made.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Strategy {
    /// Random placement.
    Random,
    /// Backward construction from a mate position.
    Backward,
    /// Mutation of a problem kept earlier.
    Mutation,
    /// Backward construction from a shorter mate found earlier (a stepping stone).
    Extension,
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Candidates evaluated.
    pub tried: u64,
    /// Candidates with a mate within the maximum length.
    pub mates: u64,
    /// Mates with a length in range, minimal, complete and without spare pieces (a candidate
    /// counted once, as it was last evaluated: trimmed, if it was).
    pub in_range: u64,
    /// Of those, proven sound (and free of final duals when those are forbidden).
    pub sound: u64,
    /// Of the sound ones, those made so by taking spare or redundant pieces off the
    /// candidate drawn (their records say how many: `trimmed`).
    pub trimmed: u64,
    /// Sound ones dropped as duplicates or below the minimum score.
    pub dropped: u64,
    /// Mates in range rejected for an alternative final mate (`--final-duals forbid`): one
    /// at the main line's last move, seen before verification, or one anywhere in the
    /// solution, seen by it. Not counted as sound.
    pub final_duals: u64,
    /// Distinct solution shapes among the problems this run kept (seeds aside).
    pub shapes: usize,
    /// Kept, per length.
    pub kept: BTreeMap<u16, usize>,
    /// Time so far.
    pub elapsed: Duration,
    /// Set when the run stopped because [`NO_MATE_PATIENCE`] candidates gave not one mate
    /// within the node budget: the budget is too small for any, and the run would never end.
    pub gave_up: bool,
    /// Set when the run ended at `max_candidates` with fewer problems kept than asked for.
    pub candidate_limit: bool,
}

/// Candidates after which a run that has found no mate at all within its node budget stops
/// ([`Stats::gave_up`]). With any budget that solves candidates, one in three or so mates.
pub const NO_MATE_PATIENCE: u64 = 100_000;

impl Stats {
    /// Problems kept.
    pub fn kept_total(&self) -> usize {
        self.kept.values().sum()
    }

    /// Problems kept per minute.
    pub fn per_minute(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.kept_total() as f64 * 60.0 / s
        } else {
            0.0
        }
    }
}

/// A problem the generator kept.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The record as written.
    pub record: Problem,
    /// Its candidate index.
    pub index: u64,
    /// Its length.
    pub plies: u16,
}

/// The settings of a worker's solver.
pub(super) fn solver_config(config: &GenConfig) -> SolverConfig {
    SolverConfig {
        hash_mb: config.hash_mb,
        max_plies: Some(config.max_plies),
        techniques: Techniques {
            // Its random candidates, solved within small node budgets, take 39 % more
            // time each with it (README.md, "The hard set"); problems and hard positions
            // take fewer nodes.
            capture_replies: false,
            ..Techniques::default()
        },
        ..SolverConfig::default()
    }
}

/// Runs the generator. `on_problem` receives each kept problem in order (return an error to
/// stop); `on_progress` is called after every batch; raising `stop` ends the run after the
/// current batch. Returns the counters.
pub fn generate(
    config: &GenConfig,
    stop: &AtomicBool,
    mut on_problem: impl FnMut(&Generated) -> std::io::Result<()>,
    mut on_progress: impl FnMut(&Stats),
) -> std::io::Result<Stats> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(64 << 20)
        .build()
        .map_err(std::io::Error::other)?;
    let solver_config = solver_config(config);
    let solvers: Vec<Mutex<Solver>> = (0..threads)
        .map(|_| Solver::new(solver_config.clone()).map(Mutex::new))
        .collect::<Result<_, _>>()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
    // Read by the workers during a batch, written between batches (in candidate order, so
    // that what is kept does not depend on the thread count).
    let mut seen = Policy::new(config.family_limit, config.shape_limit);
    let mut pools = Pools::default();
    for s in &config.seeds {
        if seen.keep(&s.keys, &s.family) {
            pools.drop_family(&s.family);
        }
        if !seen.family_full(&s.family) {
            pools
                .kept
                .push((s.position.clone(), s.plies, s.family.clone()));
        }
    }
    let mut stats = Stats::default();
    let mut run_shapes = std::collections::BTreeSet::new();
    let batch = config.batch.max(1) as u64;
    let (k, n) = (config.shard.0, config.shard.1.max(1));
    let mut next_global = 0u64;
    while stats.kept_total() < config.count && !stop.load(Ordering::Relaxed) {
        if let Some(max) = config.max_candidates
            && next_global >= max
        {
            stats.candidate_limit = true;
            break;
        }
        // The last batch stops at the candidate limit: a prefix of the full batch, whose
        // candidates are merged in index order, so what it keeps is what the full one
        // keeps among them.
        let end = config
            .max_candidates
            .map_or(next_global + batch, |max| (next_global + batch).min(max));
        let indices: Vec<u64> = (next_global..end).map(|g| g * n + k).collect();
        next_global = end;
        let results: Vec<Mutex<Option<Outcome>>> =
            indices.iter().map(|_| Mutex::new(None)).collect();
        let cursor = AtomicUsize::new(0);
        pool.scope(|s| {
            for w in 0..threads {
                let (solvers, indices, results, cursor) = (&solvers, &indices, &results, &cursor);
                let (pools, seen) = (&pools, &seen);
                s.spawn(move |_| {
                    let mut solver = solvers[w].lock().expect("solver lock");
                    loop {
                        let j = cursor.fetch_add(1, Ordering::Relaxed);
                        if j >= indices.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let o = evaluate(config, &mut solver, indices[j], pools, seen);
                        *results[j].lock().expect("result lock") = Some(o);
                    }
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            // An interrupted batch is dropped whole: what was written stays a prefix of
            // what an uninterrupted run writes.
            break;
        }
        for (j, r) in results.into_iter().enumerate() {
            let Some(o) = r.into_inner().expect("result lock") else {
                continue;
            };
            stats.tried += 1;
            match o {
                Outcome::Rejected {
                    mate,
                    in_range,
                    stone,
                    near,
                    dual,
                } => {
                    stats.final_duals += dual as u64;
                    // Bases of a full family could only give more of it.
                    if let Some(p) = near.filter(|p| !seen.family_full(&p.2)) {
                        pools.add_near(*p);
                    }
                    stats.mates += mate as u64;
                    stats.in_range += in_range as u64;
                    if let Some(st) = stone.filter(|s| !seen.family_full(&s.2)) {
                        pools.add_stone(*st);
                    }
                }
                Outcome::Sound(a) => {
                    stats.mates += 1;
                    stats.in_range += 1;
                    stats.sound += 1;
                    stats.trimmed += u64::from(a.trimmed > 0);
                    let low = config.min_score.is_some_and(|m| a.score < m);
                    // Taken by a candidate of this same batch, or below the score asked for.
                    if low
                        || seen.check(&a.keys, &a.family).is_err()
                        || stats.kept_total() >= config.count
                    {
                        stats.dropped += 1;
                        // Still a base for mutation.
                        if !seen.family_full(&a.family) {
                            pools.add_near((a.position.clone(), a.plies, a.family.clone()));
                        }
                        continue;
                    }
                    let full = seen.keep(&a.keys, &a.family);
                    run_shapes.insert(a.keys.coarse.clone());
                    stats.shapes = run_shapes.len();
                    *stats.kept.entry(a.plies).or_default() += 1;
                    if full {
                        pools.drop_family(&a.family);
                    } else {
                        pools
                            .kept
                            .push((a.position.clone(), a.plies, a.family.clone()));
                    }
                    on_problem(&Generated {
                        record: a.record,
                        index: indices[j],
                        plies: a.plies,
                    })?;
                }
            }
        }
        stats.elapsed = start.elapsed();
        on_progress(&stats);
        if stats.mates == 0 && stats.tried >= NO_MATE_PATIENCE {
            stats.gave_up = true;
            break;
        }
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}
