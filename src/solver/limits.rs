//! What a search may use and when it must stop: the [`Techniques`] in use (each switchable
//! to measure what it buys), the [`Limits`] of a search, the [`StopReason`] a stopped search
//! names, and the [`Progress`] counters it publishes for another thread.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Recursion limit of one search (plies, Q′ steps included); deeper lines are cut off and
/// the answer is then at best "unknown".
pub const MAX_LEVEL: usize = 1000;

/// The search techniques that can be switched off (to measure what each one buys).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Techniques {
    /// Table lookups by hand superiority (else exact hands only).
    pub hand_superiority: bool,
    /// Proof/disproof pieces (else exact hands are stored).
    pub proof_pieces: bool,
    /// df-pn+ initial estimates (else every new child starts at 1/1).
    pub initial_estimates: bool,
    /// 1-ply mate check on OR expansion and no-check check on AND expansion.
    pub one_ply: bool,
    /// Delayed interpositions.
    pub delayed_interpositions: bool,
    /// ε of the 1+ε trick, in percent (0 = plain second-best + 1).
    pub epsilon_percent: u32,
    /// Threshold widening next to repetitions (TCA).
    pub tca: bool,
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques {
            hand_superiority: true,
            proof_pieces: true,
            initial_estimates: true,
            one_ply: true,
            delayed_interpositions: true,
            epsilon_percent: 25,
            tca: true,
        }
    }
}

/// Resource limits of a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag is raised (USI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// A smaller node budget for the first search of a solve (the one deciding mate or no
    /// mate), so that hopeless positions are given up early (the generator's use).
    pub first_search_nodes: Option<u64>,
    /// Where the search publishes its node count and table fill while it runs (for USI
    /// `info` lines from another thread).
    pub progress: Option<Arc<Progress>>,
}

/// Which limit stopped a search (a search stops only at one of these; without them it runs
/// until the root is solved).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The node budget (`--nodes`).
    Nodes,
    /// The time budget (`--time`).
    Time,
    /// A stop request from outside (USI `stop`, Ctrl-C).
    Stop,
    /// A checking line reached [`MAX_LEVEL`] plies without repeating.
    Recursion,
}

/// How a report names the limit: `the node limit (--nodes) was reached`, ...
impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Nodes => "the node limit (--nodes) was reached",
            StopReason::Time => "the time limit (--time) was reached",
            StopReason::Stop => "the search was stopped",
            StopReason::Recursion => "a checking line reached the 1000-ply recursion limit",
        })
    }
}

/// Counters a running search publishes (every 1024 nodes).
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes searched so far in this solve.
    pub nodes: std::sync::atomic::AtomicU64,
    /// Table fill, in thousandths.
    pub hashfull: std::sync::atomic::AtomicU32,
}
