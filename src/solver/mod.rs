//! The tsume solver: decides whether the side to move (the attacker) mates by checking on
//! every move, and if so finds the solution as composers define it (RULES.md "Mate
//! problems"): the attacker's shortest mate against the defender's longest resistance,
//! useless interpositions left out, ties among defences broken against spare pieces.
//!
//! How: a df-pn search ([`dfpn`]) first decides mate or no mate with no length limit; then
//! depth-limited searches lower the length two plies at a time until no mate exists within
//! it (so the length is proven minimal); then [`mainline`] reads the main line back,
//! computing each defence's exact length. All searches share one table.

pub mod dfpn;
pub mod hands;
pub mod mainline;
pub mod table;

use crate::rules::{Hand, Move, PieceKind, Position, Square};
pub use dfpn::{Limits, Progress, Searcher, StopReason, Techniques, Val};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
pub use table::{TableError, UNLIMITED};

/// Whose pieces the defender holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DefenderHand {
    /// Every piece neither on the board nor in the attacker's hand (the tsume convention).
    #[default]
    Rest,
    /// Exactly the hand given in the position (positions from games).
    Given,
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
        }
    }
}

/// The answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A forced mate exists (within `--max-plies` when given).
    Mate,
    /// Proven: no forced mate (within `--max-plies` when given).
    NoMate,
    /// A limit stopped the search before an answer.
    Unknown,
}

impl Status {
    /// `mate`, `nomate` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Mate => "mate",
            Status::NoMate => "nomate",
            Status::Unknown => "unknown",
        }
    }
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
    /// Whether the main line was read to the end (a limit can cut it short).
    pub complete: bool,
    /// The main line.
    pub moves: Vec<Move>,
    /// The attacker's hand at the end of the main line (non-empty: spare pieces).
    pub spare: Hand,
    /// Useless interpositions left out along the main line.
    pub useless: Vec<UselessInterposition>,
    /// Nodes searched.
    pub nodes: u64,
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

impl Solution {
    /// Whether the main line ends with pieces left in the attacker's hand.
    pub fn has_spare_pieces(&self) -> bool {
        self.status == Status::Mate && !self.spare.is_empty()
    }
}

/// The position with the defender holding every piece that is neither on the board nor in
/// the attacker's hand (RULES.md: the tsume convention), phoenixes excepted.
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
    pub searcher: Searcher,
    /// Settings.
    pub config: SolverConfig,
}

impl Solver {
    /// A solver with `config`; its table is reserved now (and touched only as the search
    /// uses it). An error when the table cannot be allocated.
    pub fn new(config: SolverConfig) -> Result<Solver, TableError> {
        let mut searcher = Searcher::new(Position::startpos(), config.hash_mb)?;
        searcher.techniques = config.techniques;
        searcher.table.hand_superiority = config.techniques.hand_superiority;
        Ok(Solver { searcher, config })
    }

    /// Solves `problem` (attacker = side to move), applying the defender-hand convention,
    /// within the configured limits.
    pub fn solve(&mut self, problem: &Position) -> Solution {
        let limits = Limits {
            nodes: self.config.nodes,
            deadline: self.config.time.and_then(|t| Instant::now().checked_add(t)),
            stop: self.config.stop.clone(),
            first_search_nodes: None,
            progress: self.config.progress.clone(),
        };
        self.solve_with(problem, self.config.max_plies, limits)
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
        let s = &mut self.searcher;
        s.set_position(pos.clone());
        s.nodes = 0;
        s.stopped_by = None;
        s.limits = limits;
        let mut sol = Solution {
            status: Status::Unknown,
            plies: None,
            minimal: false,
            complete: false,
            moves: Vec::new(),
            spare: Hand::EMPTY,
            useless: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            position: pos.clone(),
            max_plies,
            stopped_by: None,
        };
        let depth = max_plies.unwrap_or(UNLIMITED);
        let full_budget = s.limits.nodes;
        if let Some(first) = s.limits.first_search_nodes {
            s.limits.nodes = Some(full_budget.map_or(first, |n| n.min(first)));
        }
        let v = s.search(depth, &[]);
        s.limits.nodes = full_budget;
        if v.is_disproven() {
            let proven_no_mate = v.len == UNLIMITED || (depth != UNLIMITED && v.len >= depth);
            if proven_no_mate && !s.aborted {
                sol.status = Status::NoMate;
            }
        } else if v.is_proven() {
            sol.status = Status::Mate;
            // Lower the length until no mate exists within it. `lo`: no mate within `lo`
            // plies is proven (-1: nothing known). Next to the proven length, one step of
            // two plies at a time (the first search is usually right or nearly). Far from
            // it (an unlimited search can prove a mate of thousands of plies through long
            // checking tours, and deep depth-limited searches of such positions are
            // hopeless), deepen from below instead: 1, 5, 13, 29, ... plies.
            let mut best = v.len;
            let mut lo: i32 = -1;
            let mut minimal = best <= 1;
            let too_short = |len: u16| min_plies.is_some_and(|m| len < m);
            while !minimal {
                if too_short(best) {
                    sol.plies = Some(best);
                    sol.nodes = s.nodes;
                    sol.time = start.elapsed();
                    sol.stopped_by = s.stopped_by;
                    return sol;
                }
                let gap = best as i32 - lo;
                let depth = if gap > 32 {
                    (2 * (lo + 1) + 1).min(best as i32 - 2) as u16
                } else {
                    best - 2
                };
                s.set_node(pos.clone());
                let w = s.search(depth, &[]);
                if w.is_proven() {
                    best = w.len;
                } else if w.is_disproven() && !s.aborted {
                    lo = depth as i32;
                } else {
                    break;
                }
                minimal = best <= 1 || best as i32 <= lo + 2;
            }
            sol.minimal = minimal;
            sol.plies = Some(best);
            let line = mainline::main_line(s, &pos, best);
            sol.moves = line.moves;
            sol.spare = line.end_hand;
            sol.useless = line.useless;
            sol.complete = line.complete && sol.moves.len() == best as usize;
        }
        sol.nodes = s.nodes;
        sol.time = start.elapsed();
        sol.stopped_by = s.stopped_by;
        sol
    }
}

/// Solves one position with a fresh solver (an error when its table cannot be allocated).
pub fn solve(problem: &Position, config: &SolverConfig) -> Result<Solution, TableError> {
    Ok(Solver::new(config.clone())?.solve(problem))
}
