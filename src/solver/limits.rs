//! What a search may use and when it must stop: the [`Techniques`] in use (each switchable
//! to measure what it buys), the [`Limits`] of a search, the [`StopReason`] a stopped search
//! names, the [`Progress`] counters it publishes for another thread, and the searcher's
//! checks of all these as it goes (with its team's: calling the helpers in, stopping when
//! one of them has the answer).

use super::dfpn::Searcher;
use super::parallel::ENGAGE_NODES;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Recursion limit of one search (plies, Q′ steps included); deeper lines are cut off and
/// the answer is then at best "unknown".
pub const MAX_LEVEL: usize = 1000;

/// About how many nodes apart the searcher checks its limits and its team.
pub(crate) const CHECK_EVERY: u64 = 1024;

/// [`Techniques::proof_slack`] as built.
pub(crate) const PROOF_SLACK: u32 = 8;

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
    /// What each reply taking the piece that moved adds to a new defender node's df-pn+
    /// proof number, over the one it counts as a reply (0: nothing). A check whose piece can
    /// be taken gives the defender a piece and the attacker one less, and seldom mates:
    /// starting it higher makes the search try the others first.
    pub capture_weight: u32,
    /// A new attacker node reached by a defender reply that captures starts at half its
    /// count of checks (rounded up) as its df-pn+ disproof number: a capture takes a piece
    /// from the attacker and gives it to the defender, and so refutes more often than the
    /// count says; the search tries such replies first. (The generator turns it off: its
    /// budget-limited solves of random candidates cost more with it.)
    pub capture_replies: bool,
    /// Nodes two and three plies from the depth limit are first tried for a quick
    /// refutation: the defender's replies one by one with a plain mate-in-one test after
    /// each, which refutes most such nodes without expanding them (the solver's `shallow`
    /// module).
    pub quick_refutations: bool,
    /// A defender node whose board the table holds disproven with another attacker hand
    /// (one the lookup cannot use) tries that disproof's refuting reply first: its df-pn+
    /// disproof number starts at 1.
    pub refutation_hints: bool,
    /// A defender node stops listing its replies at the first one that refutes it for
    /// good (the attacker then has no check, or the table holds that position disproven
    /// at every length, on every path): no later reply can give a better disproof, so the
    /// rest are neither looked up nor estimated. The node's value is the same; only the
    /// work (and the nodes counted for it) is less.
    pub early_refutation: bool,
    /// What each check counts for in a new attacker node's df-pn+ disproof number (1: its
    /// count of checks, as plain df-pn+ starts it). Once the node is expanded, its disproof
    /// number is the sum of its checks' defender nodes', and each of those, expanded in
    /// turn, takes its smallest reply's count of checks: a node being searched soon stands
    /// at several times its count of checks, while the replies beside it not yet opened
    /// still stand at theirs, and the search leaves a refutation it is reading for a reply
    /// it has not opened. Counted four times, a check starts the node on the scale of an
    /// expanded one; four measured best on the hard set (docs/LOG.md).
    pub disproof_per_check: u32,
    /// New children's check and reply counts (the df-pn+ estimates' inputs) kept in a small
    /// cache of the searcher's own (the solver's `estimate` module), so that a node
    /// expanded again does not count them anew. The counts depend on the position alone:
    /// the search, its nodes and its answers are the same with the cache or without.
    pub estimate_cache: bool,
    /// The quick refutations' mate-in-one test passes over a check the defender phoenix's
    /// flights show escaped before looking whether it repeats a position of the path: a
    /// check escaped mates within no ply on any path, so the test need not compute its key,
    /// and it does not give up on such a repetition (off, it gives up there).
    pub escaped_before_repetition: bool,
    /// What a defender node that looks four times easier to disprove than to prove (its
    /// disproof number times four below its proof number) adds to the proof-number
    /// threshold of the reply it searches (0: nothing). The reply's attacker node starts
    /// at proof number 1, and once its checks are estimated it stands at the smallest
    /// check's count of replies: with only the plain threshold it goes back at once, a
    /// third of all attacker nodes expanded on hard no-mates, and the search comes back to
    /// it later and expands it again. With the slack it goes on with its checks while the
    /// node above it looks refuted; 8 measured best on the hard and held-out sets
    /// (docs/LOG.md).
    pub proof_slack: u32,
}

impl Techniques {
    /// Every technique on, at its measured best setting.
    pub const DEFAULT: Techniques = Techniques {
        hand_superiority: true,
        proof_pieces: true,
        initial_estimates: true,
        one_ply: true,
        delayed_interpositions: true,
        epsilon_percent: 25,
        tca: true,
        capture_weight: 3,
        capture_replies: true,
        quick_refutations: true,
        refutation_hints: true,
        early_refutation: true,
        disproof_per_check: 4,
        estimate_cache: true,
        escaped_before_repetition: true,
        proof_slack: PROOF_SLACK,
    };
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques::DEFAULT
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
/// until the root is solved). Serialised as its short name: `nodes`, `time`, `stop`,
/// `recursion`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// The node budget.
    Nodes,
    /// The time budget.
    Time,
    /// A stop request from outside (USI `stop`, Ctrl-C).
    Stop,
    /// A checking line reached [`MAX_LEVEL`] plies without repeating.
    Recursion,
}

/// How a report names the limit: `the node limit was reached`, ...
impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Nodes => "the node limit was reached",
            StopReason::Time => "the time limit was reached",
            StopReason::Stop => "the search was stopped",
            StopReason::Recursion => "a checking line reached the 1000-ply recursion limit",
        })
    }
}

/// Counters a running search publishes (every 1024 nodes), the best mate it knows, and,
/// in a verification, what it is doing and the nodes of its searches before this one.
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes searched so far in this solve (in a verification, in its current search).
    pub nodes: std::sync::atomic::AtomicU64,
    /// In a verification, the nodes of its searches before the current one.
    pub earlier: AtomicU64,
    /// Table fill, in thousandths.
    pub hashfull: std::sync::atomic::AtomicU32,
    /// The shortest mate proven so far, as it becomes known (see [`Progress::mate`]).
    mate: std::sync::Mutex<Option<KnownMate>>,
    /// What the verification is doing ([`Stage`] as a number).
    stage: std::sync::atomic::AtomicU8,
}

/// What a verification is doing, as its [`Progress`] tells.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    /// Solving the problem (and what a solve alone does).
    #[default]
    Solving,
    /// Searching the solution's attacker moves for cooks.
    Cooks,
    /// Taking each piece away in turn to see whether the problem needs it.
    Redundancy,
    /// Checking the intended solution given.
    Intended,
}

/// A mate a running solve has proven: its length (the shortest proven so far; `minimal`
/// once no shorter one exists) and its line as far as known (the first move at least).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownMate {
    /// Length in plies.
    pub plies: u16,
    /// Whether the length is proven shortest.
    pub minimal: bool,
    /// The line's first moves (the whole main line once it is read).
    pub line: Vec<crate::rules::Move>,
}

impl Progress {
    /// The best mate known so far, if any.
    pub fn mate(&self) -> Option<KnownMate> {
        self.mate.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Publishes a mate the solve has proven.
    pub(crate) fn set_mate(&self, mate: KnownMate) {
        *self.mate.lock().unwrap_or_else(|e| e.into_inner()) = Some(mate);
    }

    /// Marks the mate known as proven shortest (its line is read next).
    pub(crate) fn confirm_shortest(&self) {
        if let Some(m) = self.mate.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            m.minimal = true;
        }
    }

    /// What the verification is doing.
    pub fn stage(&self) -> Stage {
        match self.stage.load(Ordering::Relaxed) {
            1 => Stage::Cooks,
            2 => Stage::Redundancy,
            3 => Stage::Intended,
            _ => Stage::Solving,
        }
    }

    /// Says what the verification does now.
    pub(crate) fn set_stage(&self, stage: Stage) {
        self.stage.store(stage as u8, Ordering::Relaxed);
    }

    /// Forgets the mate of an earlier solve.
    pub(crate) fn clear_mate(&self) {
        *self.mate.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Searcher {
    /// Stops the search for `reason` (the first reason met is kept).
    pub(super) fn stop_for(&mut self, reason: StopReason) {
        self.aborted = true;
        if self.stopped_by.is_none() {
            self.stopped_by = Some(reason);
        }
    }

    #[inline]
    pub(super) fn check_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stop_for(StopReason::Nodes);
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.check_now();
        }
        self.aborted
    }

    /// The checks made every 1024 nodes: the clock, the stop flag, the progress counters,
    /// and the team (calling it in, or stopping because a helper has the answer).
    #[cold]
    fn check_now(&mut self) {
        if let Some(crew) = &self.crew {
            // A helper: count the nodes for the leader; stop when the job is over.
            crew.add_live_nodes(self.nodes - self.reported);
            self.reported = self.nodes;
            if crew.is_over(self.job_serial) {
                self.aborted = true;
            }
        }
        self.grow_shared_table();
        let helper_nodes = match &self.team {
            Some(team) if self.engaged => {
                if team.crew().is_done() {
                    self.cancelled = true;
                    self.aborted = true;
                }
                team.crew().live_nodes()
            }
            Some(_) if self.nodes - self.search_start >= ENGAGE_NODES => {
                self.engage();
                0
            }
            _ => 0,
        };
        if helper_nodes > 0
            && let Some(n) = self.limits.nodes
            && self.nodes + helper_nodes >= n
        {
            self.stop_for(StopReason::Nodes);
        }
        if let Some(p) = &self.limits.progress {
            p.nodes.store(self.nodes + helper_nodes, Ordering::Relaxed);
            p.hashfull
                .store(self.table.permille_full(), Ordering::Relaxed);
        }
        if let Some(d) = self.limits.deadline
            && Instant::now() >= d
        {
            self.stop_for(StopReason::Time);
        }
        if let Some(s) = &self.limits.stop
            && s.load(Ordering::Relaxed)
        {
            self.stop_for(StopReason::Stop);
        }
    }
}
