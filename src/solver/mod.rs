//! The tsume solver: decides whether the side to move (the attacker) mates by checking on
//! every move, and if so finds the solution as composers define it (docs/RULES.md "Mate
//! problems"): the attacker's shortest mate against the defender's longest resistance,
//! useless interpositions left out, ties among defences broken against spare pieces.
//!
//! How: a df-pn search (`dfpn`) first decides mate or no mate with no length limit; then
//! depth-limited searches lower the length two plies at a time until no mate exists within
//! it (so the length is proven minimal); then `mainline` reads the main line back,
//! computing each defence's exact length, and `variations`, when asked, the other defences
//! along it. All searches share one table.

mod dfpn;
mod estimate;
mod expansion;
mod hands;
mod length;
mod limits;
pub(crate) mod mainline;
mod parallel;
mod path;
mod shallow;
mod table;
mod tries;
mod useless;
mod value;
mod variations;

pub(crate) use dfpn::Searcher;
pub use limits::{KnownMate, Limits, MAX_LEVEL, Progress, Stage, StopReason, Techniques};
pub use table::TableError;
pub use tries::{Tries, Try};
pub use value::{Depth, Val};
pub use variations::{Variation, Variations};

use crate::rules::{Hand, Move, PieceKind, Position, Square};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Whose pieces the defender holds: `rest` or `given` in problem records (field
/// `defender_hand`) and on the command line (`--defender-hand`); it reads (`FromStr`) and
/// writes (`Display`) those two words.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum DefenderHand {
    /// Every piece neither on the board nor in the attacker's hand (the tsume convention).
    #[default]
    Rest,
    /// Exactly the hand given in the position (a problem that states the defender's hand,
    /// or a position from a game).
    Given,
}

impl std::str::FromStr for DefenderHand {
    type Err = String;

    /// Reads `rest` or `given`; anything else is an error naming the two.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rest" => Ok(DefenderHand::Rest),
            "given" => Ok(DefenderHand::Given),
            other => Err(format!("`rest` or `given`, not {other:?}")),
        }
    }
}

/// Settings of a solve.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Only look for mates within this many plies.
    pub max_plies: Option<u16>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget.
    pub time: Option<Duration>,
    /// Table size in megabytes.
    pub hash_mb: usize,
    /// Defender's hand convention.
    pub defender_hand: DefenderHand,
    /// Techniques (all on by default; switched off only to measure them).
    pub techniques: Techniques,
    /// Raised from outside to stop the search (USI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// Where a running search publishes its counters.
    pub progress: Option<Arc<Progress>>,
    /// Count every interposition as a defence, useless or not (Fairy-Stockfish's rules and
    /// so pychess-variants'; off by default: docs/RULES.md "Useless interposition").
    pub every_interposition_counts: bool,
    /// Threads searching each position, on one shared table (1: the calling thread alone).
    /// The answer is the same whatever the number; only the time and the nodes differ.
    pub threads: usize,
    /// Ask the kernel for transparent huge pages for the table (Linux): fewer TLB misses
    /// and page faults over a large table, each first touch of a page zeroing 2 MB at once
    /// (on a virtual machine whose host backs memory lazily, that can be dearer than the
    /// 4 KB pages it replaces; `--small-pages` turns it off). Nothing but the time changes.
    pub huge_pages: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            max_plies: None,
            nodes: None,
            time: None,
            hash_mb: 64,
            defender_hand: DefenderHand::Rest,
            techniques: Techniques::default(),
            stop: None,
            progress: None,
            every_interposition_counts: false,
            threads: 1,
            huge_pages: true,
        }
    }
}

/// The answer: `mate`, `nomate` or `unknown` in reports.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Status {
    /// A forced mate exists (within `--max-plies` when given).
    Mate,
    /// Proven: no forced mate (within `--max-plies` when given).
    NoMate,
    /// A limit stopped the search before an answer.
    Unknown,
}

/// An interposition left out of the main line because it is useless.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UselessInterposition {
    /// Ply of the main line at which it could have been played (1-based; a defender ply).
    pub ply: usize,
    /// The interposing move.
    pub mv: Move,
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Mate, no mate, or unknown.
    pub status: Status,
    /// Length of the mate in plies (the main line's length).
    pub plies: Option<u16>,
    /// Whether the length is proven minimal (no shorter mate exists).
    pub minimal: bool,
    /// Whether the main line was read to the end: it then has `plies` moves and ends in
    /// mate (only a limit can cut it short; under the useless-interposition rule every
    /// length has a line that reaches it, docs/RULES.md "Useless interposition").
    pub complete: bool,
    /// The main line.
    pub moves: Vec<Move>,
    /// The attacker's hand at the end of the main line (non-empty: spare pieces).
    pub spare: Hand,
    /// Useless interpositions left out along the main line.
    pub useless: Vec<UselessInterposition>,
    /// Nodes searched.
    pub nodes: u64,
    /// How the nodes divide among the solve's three phases.
    pub effort: Effort,
    /// Of the nodes, those searched by helper threads (`SolverConfig::threads` above 1).
    pub helper_nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// The position searched (defender's hand filled in per the convention).
    pub position: Position,
    /// The length limit the search ran with, if any.
    pub max_plies: Option<u16>,
    /// The limit that stopped the search (set whenever the answer is incomplete because of
    /// one: status unknown, length not proven minimal, or main line cut short).
    pub stopped_by: Option<StopReason>,
}

/// Nodes spent on each phase of a solve: the first search (mate or no mate, at any
/// length), the proof that no shorter mate exists, and reading the main line back
/// (`nodes_by_phase` in JSON reports: `{"first", "minimality", "main_line"}`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Effort {
    /// The first search.
    pub first: u64,
    /// Lowering the length until no shorter mate exists.
    pub minimality: u64,
    /// Reading the main line (each defence's exact length, useless interpositions).
    pub main_line: u64,
}

impl Solution {
    /// Whether this is a mate proven shortest whose main line was read to the end, at its
    /// full length: the solution that variations, tries and repairs are read from.
    pub fn is_whole_mate(&self) -> bool {
        self.status == Status::Mate
            && self.minimal
            && self.complete
            && self
                .plies
                .is_some_and(|n| n > 0 && self.moves.len() == n as usize)
    }

    /// Whether the main line ends with pieces left in the attacker's hand (known only of a
    /// line read to the end).
    pub fn has_spare_pieces(&self) -> bool {
        self.spare_pieces() == Some(true)
    }

    /// The pieces left in the attacker's hand at the end of the main line, once that is
    /// known: `None` unless the status is mate and the line was read to the end (a limit
    /// can cut it short).
    pub fn spare_hand(&self) -> Option<Hand> {
        (self.status == Status::Mate && self.complete).then_some(self.spare)
    }

    /// Whether the main line ends with spare pieces: `None` when that is not known (see
    /// [`Solution::spare_hand`]).
    pub fn spare_pieces(&self) -> Option<bool> {
        self.spare_hand().map(|h| !h.is_empty())
    }
}

/// The position with the defender holding every piece that is neither on the board nor in
/// the attacker's hand (docs/RULES.md: the tsume convention), phoenixes excepted.
pub fn with_rest_to_defender(pos: &Position) -> Position {
    let attacker = pos.side_to_move();
    let defender = attacker.flip();
    let mut rest = [0u32; 6];
    for k in PieceKind::HAND {
        rest[k.index()] = k.total() as u32 - pos.hand(attacker).count(k);
    }
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq)
            && p.kind != PieceKind::Phoenix
        {
            rest[p.kind.unpromoted().index()] -= 1;
        }
    }
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, rest[k.index()]);
    }
    let mut p = pos.clone();
    p.set_hand(defender, h);
    p
}

/// Applies the defender-hand convention to a problem position.
pub fn prepare(pos: &Position, defender_hand: DefenderHand) -> Position {
    match defender_hand {
        DefenderHand::Rest => with_rest_to_defender(pos),
        DefenderHand::Given => pos.clone(),
    }
}

/// A reusable solver: one table for many positions (a worker thread keeps one).
pub struct Solver {
    /// The search engine and its table.
    searcher: Searcher,
    /// Settings.
    config: SolverConfig,
}

impl Solver {
    /// A solver with `config`; its table is reserved now (and touched only as the search
    /// uses it). An error when the table cannot be allocated.
    pub fn new(config: SolverConfig) -> Result<Solver, TableError> {
        let mut searcher = Searcher::new(
            Position::startpos(),
            config.hash_mb,
            config.techniques,
            config.threads.max(1),
            config.huge_pages,
        )?;
        searcher.set_useless_rule(!config.every_interposition_counts);
        Ok(Solver { searcher, config })
    }

    /// The settings.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// Sets the defender-hand convention of each solve or verification from now on (a
    /// problem record may state its own, see [`crate::problem::Problem::defender_hand`]).
    pub fn set_defender_hand(&mut self, defender_hand: DefenderHand) {
        self.config.defender_hand = defender_hand;
    }

    /// Sets the node budget of each solve or verification from now on.
    pub fn set_nodes(&mut self, nodes: Option<u64>) {
        self.config.nodes = nodes;
    }

    /// Sets the length limit of each solve or verification from now on.
    pub fn set_max_plies(&mut self, max_plies: Option<u16>) {
        self.config.max_plies = max_plies;
    }

    /// Sets the time budget of each solve or verification from now on.
    pub fn set_time(&mut self, time: Option<Duration>) {
        self.config.time = time;
    }

    /// Sets the flag that stops a running search when raised (USI `stop`).
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.config.stop = stop;
    }

    /// Sets where a running search publishes its counters.
    pub fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        self.config.progress = progress;
    }

    /// Forgets everything the table holds (its memory is kept): the next solve starts as a
    /// fresh solver's would.
    pub fn clear_table(&mut self) {
        self.searcher.clear_table();
    }

    /// The search engine, for the verifier's own searches (see [`Searcher::begin`]).
    pub(crate) fn searcher(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// Starts a new piece of work within `limits` (node count from zero, no limit met) and
    /// returns the engine to do it with.
    pub(crate) fn begin(&mut self, limits: Limits) -> &mut Searcher {
        self.searcher.begin(limits);
        &mut self.searcher
    }

    /// Solves `problem` (attacker = side to move), applying the defender-hand convention,
    /// within the configured limits.
    pub fn solve(&mut self, problem: &Position) -> Solution {
        let limits = self.limits();
        self.solve_with(problem, self.config.max_plies, limits)
    }

    /// The configured limits, the time limit counted from now.
    fn limits(&self) -> Limits {
        Limits {
            nodes: self.config.nodes,
            deadline: self.config.time.and_then(|t| Instant::now().checked_add(t)),
            stop: self.config.stop.clone(),
            first_search_nodes: None,
            progress: self.config.progress.clone(),
        }
    }

    /// Solves `problem` looking for mates within `max_plies` (if given), stopping at
    /// `limits` (its node count starts from zero here).
    pub fn solve_with(
        &mut self,
        problem: &Position,
        max_plies: Option<u16>,
        limits: Limits,
    ) -> Solution {
        self.solve_range(problem, None, max_plies, limits)
    }

    /// Like [`Solver::solve_with`], but gives up as soon as a mate shorter than `min_plies`
    /// is proven (returned as a mate that is neither minimal nor complete): the generator's
    /// quick rejection of problems that are too short.
    pub fn solve_range(
        &mut self,
        problem: &Position,
        min_plies: Option<u16>,
        max_plies: Option<u16>,
        limits: Limits,
    ) -> Solution {
        let start = Instant::now();
        let pos = prepare(problem, self.config.defender_hand);
        let progress = limits.progress.clone();
        if let Some(p) = &progress {
            p.clear_mate();
        }
        let s = &mut self.searcher;
        s.set_position(pos.clone());
        s.begin(limits);
        let mut sol = Solution {
            status: Status::Unknown,
            plies: None,
            minimal: false,
            complete: false,
            moves: Vec::new(),
            spare: Hand::EMPTY,
            useless: Vec::new(),
            nodes: 0,
            effort: Effort::default(),
            helper_nodes: 0,
            time: Duration::ZERO,
            position: pos.clone(),
            max_plies,
            stopped_by: None,
        };
        let depth = Depth::limit(max_plies);
        let full_budget = s.node_limit();
        if let Some(first) = s.first_search_nodes() {
            s.set_node_limit(Some(full_budget.map_or(first, |n| n.min(first))));
        }
        let v = s.search(depth, &[]);
        s.set_node_limit(full_budget);
        sol.effort.first = s.nodes();
        if v.is_disproven() {
            let proven_no_mate = v.len.is_unlimited() || v.len >= depth;
            if proven_no_mate && !s.stopped() {
                sol.status = Status::NoMate;
            }
        } else if v.is_proven() {
            sol.status = Status::Mate;
            s.publish_mate(v.len.plies_of_finite(), false, v.best);
            let shortest = s.shortest(&pos, v.len.plies_of_finite(), &[], min_plies, true);
            sol.effort.minimality = s.nodes() - sol.effort.first;
            sol.minimal = shortest.minimal;
            sol.plies = Some(shortest.len);
            if let Some(p) = &progress
                && shortest.minimal
            {
                p.confirm_shortest();
            }
            if !shortest.too_short {
                let line = mainline::main_line(s, &pos, shortest.len);
                sol.moves = line.moves;
                sol.spare = line.end_hand;
                sol.useless = line.useless;
                sol.complete = line.complete && sol.moves.len() == shortest.len as usize;
                if let Some(p) = &progress
                    && !sol.moves.is_empty()
                {
                    p.set_mate(KnownMate {
                        plies: shortest.len,
                        minimal: shortest.minimal,
                        line: sol.moves.clone(),
                    });
                }
            }
        }
        sol.nodes = s.nodes();
        sol.helper_nodes = s.helper_nodes();
        sol.effort.main_line = sol.nodes - sol.effort.first - sol.effort.minimality;
        sol.time = start.elapsed();
        sol.stopped_by = s.stopped_by();
        sol
    }
}

impl Solver {
    /// The attacker's moves from `pos` (attacker to move, hands as given: see [`prepare`])
    /// that mate within `plies` plies, in generation order: at the last move of a solution,
    /// the solution's move and its final duals. Useless interpositions are no defence, as
    /// everywhere in the solver.
    pub fn mating_moves(&mut self, pos: &Position, plies: u16) -> Vec<Move> {
        if plies == 0 {
            return Vec::new();
        }
        let s = &mut self.searcher;
        s.set_position(pos.clone());
        s.begin(Limits::default());
        mainline::mating_moves(s, pos, plies, &mut Vec::new())
    }
}

impl Solver {
    /// Whether the side to move in `pos` is mated: in check, with no reply but useless
    /// interpositions (docs/RULES.md "Useless interposition"). A plain checkmate is told
    /// without a search.
    pub fn is_mated(&mut self, pos: &Position) -> bool {
        if !pos.in_check() {
            return false;
        }
        if crate::rules::is_checkmate(pos) {
            return true;
        }
        let s = &mut self.searcher;
        s.set_position_of(pos.clone(), pos.side_to_move().flip());
        s.begin(Limits::default());
        mainline::mates_within(s, pos, 0, &[])
    }
}

/// Solves one position with a fresh solver (an error when its table cannot be allocated).
pub fn solve(problem: &Position, config: &SolverConfig) -> Result<Solution, TableError> {
    Ok(Solver::new(config.clone())?.solve(problem))
}

#[cfg(test)]
mod tests {
    use super::DefenderHand;

    #[test]
    fn defender_hand_reads_and_writes_its_two_words() {
        assert_eq!("rest".parse::<DefenderHand>(), Ok(DefenderHand::Rest));
        assert_eq!("given".parse::<DefenderHand>(), Ok(DefenderHand::Given));
        assert_eq!(DefenderHand::Given.to_string(), "given");
        assert_eq!(DefenderHand::Rest.to_string(), "rest");
        let err = "Given".parse::<DefenderHand>().unwrap_err();
        assert!(
            err.contains("`rest` or `given`") && err.contains("\"Given\""),
            "{err}"
        );
    }
}
