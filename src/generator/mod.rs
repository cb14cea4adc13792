//! The problem generator: candidates from three strategies ([`sample`]: random placement,
//! backward construction, mutation of problems already found), each solved with a bounded
//! effort and kept only when [`crate::soundness::verify`] proves it sound, its length is in
//! range, and it is no duplicate ([`dedup`]) of one kept before.
//!
//! Reproducibility: candidate `i` is drawn from its own generator seeded by (seed, i) and
//! solved on a cleared table, candidates are evaluated in batches in parallel and merged in
//! index order, and mutation only draws on problems kept in earlier batches; so the same
//! seed and count give the same problems whatever the number of threads. Shard K of N takes
//! the candidate indices ≡ K (mod N), so shards never draw the same candidate. Between two
//! batches a run is all in its [`Checkpoint`], from which it can be taken up again
//! ([`Generator::resume`]) and write what it would have written uninterrupted.

pub mod checkpoint;
pub mod dedup;
mod draw;
mod evaluate;
mod options;
mod policy;
pub mod quality;
mod run;
pub mod sample;
pub mod themes;

use crate::problem::Problem;
use crate::solver::{SolverConfig, Techniques};
pub use checkpoint::Checkpoint;
pub use options::{
    GENERATE_MAX_PLIES, GenerateOptions, check_plies, check_shard, parse_plies, parse_shard,
};
pub use policy::{Keys, Policy, Refusal, SavedPolicy, Seed};
pub use run::{Generator, ResumeError, Step, generate};
use std::collections::BTreeMap;
use std::time::Duration;

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
    /// Keep only problems of this rating and these themes (empty: every one).
    pub choice: themes::ThemeChoice,
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
            choice: themes::ThemeChoice::default(),
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
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// Sound ones outside the rating or themes asked for ([`GenConfig::choice`]).
    #[serde(default)]
    pub unchosen: u64,
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

/// The search techniques of the generator's solvers: frozen as they were when the shipped
/// sets were made, so that a seed gives the same records (docs/LOG.md, "The generator's
/// frozen techniques", says what each later technique would change).
pub const GENERATOR_TECHNIQUES: Techniques = Techniques {
    capture_replies: false,
    refutation_hints: false,
    early_refutation: false,
    disproof_per_check: 1,
    escaped_before_repetition: false,
    proof_slack: 0,
    ..Techniques::DEFAULT
};

/// The settings of a worker's solver.
pub(super) fn solver_config(config: &GenConfig) -> SolverConfig {
    SolverConfig {
        hash_mb: config.hash_mb,
        max_plies: Some(config.max_plies),
        techniques: GENERATOR_TECHNIQUES,
        ..SolverConfig::default()
    }
}
