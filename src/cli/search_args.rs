//! The search options `solve`, `verify` and `bench` share: limits, the table, threads, the
//! defender's hand and the techniques to switch off; and the solvers they make of them.

use clap::{Args, ValueEnum};
use std::time::Duration;
use toritsume::solver::{DefenderHand, Solver, SolverConfig, Techniques};

/// `--defender-hand`.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum DefenderHandArg {
    /// Every piece not on the board nor in the attacker's hand (tsume convention).
    Rest,
    /// The hands exactly as given in the position.
    Given,
}

/// Limits and table options shared by `solve` and `verify`.
#[derive(Args, Clone, Debug)]
pub struct SearchArgs {
    /// Look only for mates within N plies ("no mate within N" otherwise; at least 1).
    #[arg(long, value_name = "N", value_parser = super::max_plies_arg)]
    pub max_plies: Option<u16>,
    /// Node budget per position.
    #[arg(long, value_name = "N", value_parser = super::node_budget_arg)]
    pub nodes: Option<u64>,
    /// Time budget per position, in seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Transposition table size in MB, shared out among the worker threads (at least 1 MB
    /// each: a smaller size runs fewer workers).
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = super::hash_mb_arg)]
    pub hash: usize,
    /// Whose pieces the defender holds (for positions whose record does not say: a record's
    /// own `defender_hand` field holds for it).
    #[arg(long, value_enum, default_value_t = DefenderHandArg::Rest)]
    pub defender_hand: DefenderHandArg,
    /// Threads (0 = one per core): the positions of a file are shared out among them, one
    /// position a thread; fewer positions than threads (a single position) are searched by
    /// several threads each, on one table.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Switch search techniques off, to measure what they buy (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "TECHNIQUE")]
    pub disable: Vec<TechniqueArg>,
    /// Keep the table on the system's ordinary pages rather than asking for transparent
    /// huge pages (Linux), for a machine on which a huge page's first touch costs more than
    /// its fewer TLB misses save. Only the time changes.
    #[arg(long)]
    pub small_pages: bool,
}

/// A technique `--disable` can switch off.
#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub enum TechniqueArg {
    /// Table lookups by hand superiority.
    HandSuperiority,
    /// Proof and disproof pieces.
    ProofPieces,
    /// df-pn+ initial proof/disproof numbers.
    InitialEstimates,
    /// 1-ply mate and no-check checks at expansion.
    OnePly,
    /// Delayed interpositions.
    DelayedInterpositions,
    /// The 1+ε threshold trick.
    Epsilon,
    /// Threshold widening next to repetitions.
    Tca,
    /// The extra weight, in the df-pn+ initial proof numbers, of replies taking the piece that
    /// gave check.
    CaptureWeight,
    /// The smaller df-pn+ initial disproof number (half the checks) of positions after a
    /// defender reply that captures.
    CaptureReplies,
    /// Nodes two and three plies from the depth limit refuted, where they can be, reply by
    /// reply with a plain mate-in-one test before they are expanded.
    QuickRefutations,
    /// The reply that refuted the same board with another attacker hand tried first.
    RefutationHints,
    /// A defender node's replies no longer listed once one refutes it for good.
    EarlyRefutation,
    /// Each check counted four times, rather than once, in a new attacker node's df-pn+
    /// initial disproof number.
    DisproofPerCheck,
    /// New children's check and reply counts kept in a small cache, so that a node expanded
    /// again does not count them anew (the same search and nodes; only the time differs).
    EstimateCache,
    /// The quick refutations' mate-in-one test passing over a check it sees escaped before
    /// looking whether it repeats a position of the path.
    EscapedBeforeRepetition,
    /// The extra proof-number threshold a defender node that looks refuted gives the reply
    /// it searches.
    ProofSlack,
}

/// The largest `--time` accepted (about 31 years; beyond it, leave `--time` out).
pub const MAX_TIME_SECONDS: f64 = 1e9;

impl SearchArgs {
    /// How `items` positions are worked on: the number of workers (each solving one
    /// position at a time) and each one's solver settings (its share of the table and of
    /// the threads).
    pub fn plan(&self, items: usize) -> anyhow::Result<(usize, SolverConfig)> {
        let threads = super::threads_arg(self.threads)?;
        // Each worker's table has at least 1 MB, and all of them together no more than
        // `--hash`: a table too small to share out serves fewer workers.
        let wanted = threads.min(items).max(1);
        let workers = wanted.min(self.hash).max(1);
        if workers < wanted {
            eprintln!(
                "note: --hash {} MB serves {workers} worker{} of 1 MB (a table needs at least 1 MB), not {wanted}",
                self.hash,
                if workers == 1 { "" } else { "s" },
            );
        }
        let mut config = self.config(workers)?;
        config.threads = (threads / workers).max(1);
        config.huge_pages = !self.small_pages;
        Ok((workers, config))
    }

    /// The solver settings for one worker of `workers`.
    pub fn config(&self, workers: usize) -> anyhow::Result<SolverConfig> {
        if let Some(t) = self.time
            && !(t.is_finite() && t > 0.0 && t <= MAX_TIME_SECONDS)
        {
            anyhow::bail!(
                "--time must be a positive number of seconds, at most {MAX_TIME_SECONDS:e}, got {t}"
            );
        }
        Ok(SolverConfig {
            max_plies: self.max_plies,
            nodes: self.nodes,
            time: self.time.map(Duration::from_secs_f64),
            hash_mb: (self.hash / workers.max(1)).max(1),
            defender_hand: match self.defender_hand {
                DefenderHandArg::Rest => DefenderHand::Rest,
                DefenderHandArg::Given => DefenderHand::Given,
            },
            techniques: self.techniques(),
            ..SolverConfig::default()
        })
    }

    fn techniques(&self) -> Techniques {
        let mut t = Techniques::default();
        techniques_of(&self.disable, &mut t);
        t
    }
}

/// Switches off in `t` the techniques `--disable` names.
pub fn techniques_of(disable: &[TechniqueArg], t: &mut Techniques) {
    for d in disable {
        match d {
            TechniqueArg::HandSuperiority => t.hand_superiority = false,
            TechniqueArg::ProofPieces => t.proof_pieces = false,
            TechniqueArg::InitialEstimates => t.initial_estimates = false,
            TechniqueArg::OnePly => t.one_ply = false,
            TechniqueArg::DelayedInterpositions => t.delayed_interpositions = false,
            TechniqueArg::Epsilon => t.epsilon_percent = 0,
            TechniqueArg::Tca => t.tca = false,
            TechniqueArg::CaptureWeight => t.capture_weight = 0,
            TechniqueArg::CaptureReplies => t.capture_replies = false,
            TechniqueArg::QuickRefutations => t.quick_refutations = false,
            TechniqueArg::RefutationHints => t.refutation_hints = false,
            TechniqueArg::EarlyRefutation => t.early_refutation = false,
            TechniqueArg::DisproofPerCheck => t.disproof_per_check = 1,
            TechniqueArg::EstimateCache => t.estimate_cache = false,
            TechniqueArg::EscapedBeforeRepetition => t.escaped_before_repetition = false,
            TechniqueArg::ProofSlack => t.proof_slack = 0,
        }
    }
}

/// One solver per worker, each with its share of the table, allocated before any work: a
/// table that cannot be had is an error naming the size.
pub fn make_solvers(config: &SolverConfig, workers: usize) -> anyhow::Result<Vec<Solver>> {
    (0..workers.max(1))
        .map(|_| {
            Solver::new(config.clone()).map_err(|e| {
                if workers > 1 {
                    anyhow::anyhow!(
                        "{e} ({workers} workers of {} MB each); give a smaller --hash",
                        config.hash_mb
                    )
                } else {
                    anyhow::anyhow!("{e}; give a smaller --hash")
                }
            })
        })
        .collect()
}
