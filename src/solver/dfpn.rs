//! The df-pn search (Nagai 2002) over checking sequences: OR nodes are the attacker's (checks
//! only), AND nodes the defender's (every evasion, drops included).
//!
//! What is layered on plain df-pn, each switchable in [`Techniques`] so it can be measured:
//! - the table's hand superiority and proof/disproof pieces ([`super::table`],
//!   [`super::hands`]);
//! - df-pn+ initial estimates and the 1-ply checks ([`super::estimate`]);
//! - the 1+ε trick (Pawlewicz & Lew): a child's threshold is the second best value times
//!   1+ε, so the search does not thrash between two close children;
//! - delayed interpositions (KomoringHeights): of the drops on one interposition square only
//!   the weakest is a child at first; the next piece replaces it once it is mated
//!   ([`super::expansion`]);
//! - repetition (Kishimoto & Müller 2004): a child equal to a position on the current path is
//!   a non-mate for this path only ([`super::path`]); disproofs that depend on it are stored
//!   bound to the path key, and TCA-style threshold widening (Kishimoto 2010) keeps such
//!   loops from starving.
//!
//! Depth-limited searches ("mate within d plies") also apply the useless-interposition rule
//! ([`super::useless`]).
//!
//! This file holds the searcher itself: its state, the root of a search, the MID loop and
//! the store of a node's value; [`super::expansion`] expands OR and AND nodes,
//! [`super::limits`] checks the limits, [`super::parallel`] runs the helper threads.

use super::estimate::EstimateCache;
use super::expansion::{Level, node_pn_dn, select};
use super::limits::{CHECK_EVERY, Limits, MAX_LEVEL, StopReason, Techniques};
use super::parallel::{Crew, Team};
use super::path::{PathSet, child_path_key};
use super::table::{Entry, State, Table, TableError, Tally};
use super::value::{Depth, INF, Val, epsilon_threshold, sat_add};
use crate::rules::{Color, PieceKind, Position, Square};
use std::sync::Arc;

/// The search engine: a position being searched, the table, scratch space and counters.
/// Everything is private to the solver; [`super::Solver`] is how the rest of the crate
/// drives it.
pub(crate) struct Searcher {
    /// The transposition table (kept between searches of related positions; shared with
    /// the helper threads of a parallel search).
    pub(super) table: Arc<Table>,
    /// The slots this searcher filled in the table, not yet counted there.
    tally: Tally,
    /// The position at the current node (moves are made and unmade on it).
    pub(super) pos: Position,
    /// The side that checks.
    pub(super) attacker: Color,
    /// Key of the pieces in play, mixed into table keys so that searches with different
    /// totals of pieces never share entries.
    pub(super) universe: u64,
    /// Per-level scratch space.
    pub(super) levels: Vec<Level>,
    /// The positions on the current path.
    pub(super) path: PathSet,
    /// Nodes visited (every position generated moves for).
    pub(super) nodes: u64,
    /// Limits of the current search.
    pub(super) limits: Limits,
    /// Set when a limit stopped the search.
    pub(super) aborted: bool,
    /// The limit that stopped the search (the first one met since the solve began).
    pub(super) stopped_by: Option<StopReason>,
    /// Techniques in use.
    pub(super) techniques: Techniques,
    /// Whether useless interpositions are set aside (docs/RULES.md); off, every
    /// interposition is a defence.
    pub(super) useless_rule: bool,
    /// ε of the 1+ε thresholds, in percent (a helper's is its own).
    pub(super) epsilon: u32,
    /// The helpers a leading searcher hands hard searches to ([`super::parallel`]).
    pub(super) team: Option<Team>,
    /// A helper's link to its leader's crew, and its number (the leader is 0).
    pub(super) crew: Option<Arc<Crew>>,
    pub(super) index: usize,
    /// The root of the current search, kept for the helpers while a team leads.
    pub(super) root: Option<(Position, Depth)>,
    pub(super) root_ancestors: Vec<u64>,
    /// Nodes when the current search began.
    pub(super) search_start: u64,
    /// The helpers work on the current search.
    pub(super) engaged: bool,
    /// A helper solved the current search's root: stop as at a limit, and take its value.
    pub(super) cancelled: bool,
    /// The value a helper solved the root with, taken from the team while the helpers were
    /// stopped for the table to grow ([`Searcher::regrow`]).
    pub(super) helper_answer: Option<Val>,
    /// Nodes the helpers searched since [`Searcher::begin`] (counted in `nodes` too).
    pub(super) helper_nodes: u64,
    /// A helper's job number.
    pub(super) job_serial: u64,
    /// The node count at which the limits are next checked (every 1024 nodes or so; the
    /// count moves by more than one at a time).
    pub(super) next_check: u64,
    /// A helper's nodes already counted for the leader.
    pub(super) reported: u64,
    /// The counts new children's estimates are made from, kept for nodes expanded again
    /// ([`Techniques::estimate_cache`]).
    pub(super) estimates: EstimateCache,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes (on huge pages when `huge_pages`)
    /// using `techniques`, for `pos` (attacker = side to move), searching with `threads`
    /// threads (itself and helpers); an error when the table cannot be allocated or the
    /// helpers cannot start.
    pub(crate) fn new(
        pos: Position,
        hash_mb: usize,
        techniques: Techniques,
        threads: usize,
        huge_pages: bool,
    ) -> Result<Searcher, TableError> {
        let attacker = pos.side_to_move();
        let table = Table::with_pages(hash_mb, techniques.hand_superiority, huge_pages)?;
        let team = if threads > 1 {
            Some(Team::new(threads - 1).map_err(|e| TableError::Threads {
                threads,
                reason: e.to_string(),
            })?)
        } else {
            None
        };
        let mut s = Searcher::with_table(Arc::new(table), pos, attacker, techniques, 0);
        s.team = team;
        s.set_position(s.pos.clone());
        Ok(s)
    }

    /// A searcher on `table` for `pos` with `attacker` checking, number `index` of its
    /// team (0: the leader, or a searcher alone).
    pub(super) fn with_table(
        table: Arc<Table>,
        pos: Position,
        attacker: Color,
        techniques: Techniques,
        index: usize,
    ) -> Searcher {
        Searcher {
            table,
            tally: Tally::default(),
            pos,
            attacker,
            universe: 0,
            levels: Vec::new(),
            path: PathSet::new(),
            nodes: 0,
            limits: Limits::default(),
            aborted: false,
            stopped_by: None,
            techniques,
            useless_rule: true,
            epsilon: techniques.epsilon_percent + 20 * index as u32,
            team: None,
            crew: None,
            index,
            root: None,
            root_ancestors: Vec::new(),
            search_start: 0,
            engaged: false,
            cancelled: false,
            helper_answer: None,
            helper_nodes: 0,
            job_serial: 0,
            next_check: CHECK_EVERY,
            reported: 0,
            estimates: EstimateCache::new(),
        }
    }

    /// Starts a new piece of work within `limits`: the node count from zero, no limit met.
    /// The table is kept.
    pub(crate) fn begin(&mut self, limits: Limits) {
        self.limits = limits;
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.reported = 0;
        self.helper_nodes = 0;
        self.aborted = false;
        self.stopped_by = None;
    }

    /// Sets whether useless interpositions are set aside.
    pub(crate) fn set_useless_rule(&mut self, on: bool) {
        self.useless_rule = on;
    }

    /// Whether useless interpositions are set aside.
    pub(crate) fn useless_rule(&self) -> bool {
        self.useless_rule
    }

    /// Forgets a limit met so far (one the caller set for a pass of its own, not the user's).
    pub(crate) fn resume(&mut self) {
        self.aborted = false;
        self.stopped_by = None;
    }

    /// Forgets everything the table holds.
    pub(crate) fn clear_table(&mut self) {
        self.tally = Tally::default();
        if let Some(team) = &self.team {
            team.quiesce();
        }
        match Arc::get_mut(&mut self.table) {
            Some(t) => t.clear(),
            // The helpers have let go of the table (quiesced above), so this is not
            // expected; should one still hold it, the table is cleared in place.
            None => self.table.clear_in_place(),
        }
    }

    /// The node budget in force.
    pub(crate) fn node_limit(&self) -> Option<u64> {
        self.limits.nodes
    }

    /// Sets the node budget (counted from the start of the work, see [`Searcher::begin`]).
    pub(crate) fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.limits.nodes = nodes;
    }

    /// The first search's own node budget, if any ([`Limits::first_search_nodes`]).
    pub(crate) fn first_search_nodes(&self) -> Option<u64> {
        self.limits.first_search_nodes
    }

    /// Nodes searched since [`Searcher::begin`] (the helpers' included).
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes the helper threads searched since [`Searcher::begin`].
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.helper_nodes
    }

    /// Whether a limit stopped the last search.
    pub(crate) fn stopped(&self) -> bool {
        self.aborted
    }

    /// The first limit met since [`Searcher::begin`].
    pub(crate) fn stopped_by(&self) -> Option<StopReason> {
        self.stopped_by
    }

    /// The side that checks.
    pub(crate) fn attacker(&self) -> Color {
        self.attacker
    }

    /// Makes `pos` the position to search (attacker = its side to move). The table is kept:
    /// entries stay valid between positions with the same pieces in play.
    pub(crate) fn set_position(&mut self, pos: Position) {
        let attacker = pos.side_to_move();
        self.set_position_of(pos, attacker);
    }

    /// Makes `pos` the position to search, `attacker` checking (the side not to move when
    /// `pos` is a defender's node), as [`Searcher::set_position`] does.
    pub(crate) fn set_position_of(&mut self, pos: Position, attacker: Color) {
        self.attacker = attacker;
        let mut universe = 0x5bd1_e995_u64;
        let mut counts = [0u32; 6];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq)
                && p.kind != PieceKind::Phoenix
            {
                counts[p.kind.unpromoted().index()] += 1;
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                counts[k.index()] += pos.hand(c).count(k);
            }
        }
        for (i, n) in counts.iter().enumerate() {
            universe = (universe ^ (*n as u64) << (i * 5)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        }
        // The attacker colour matters too: the table's hands are the attacker's.
        universe ^= (self.attacker as u64 + 1).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        self.universe = universe;
        self.pos = pos;
    }

    /// Replaces the position to search, keeping the attacker and the table (for positions
    /// of the same problem: its lines, or Q′ positions).
    pub(crate) fn set_node(&mut self, pos: Position) {
        self.pos = pos;
    }

    /// The table key of a board key: mixed with the universe of pieces in play.
    #[inline]
    pub(super) fn tt_key(&self, board_key: u64) -> u64 {
        board_key ^ self.universe
    }

    /// Searches the current position (an OR or AND node for the attacker) for a mate within
    /// `depth` plies ([`Depth::UNLIMITED`] for any length). `ancestors` are the full keys of
    /// the positions before it on the line (they count as repetitions). Returns the root
    /// value.
    pub(crate) fn search(&mut self, depth: Depth, ancestors: &[u64]) -> Val {
        self.aborted = false;
        self.path.clear();
        for &k in ancestors {
            self.path.insert(k);
        }
        let root_key = self.pos.key();
        self.path.insert(root_key);
        let path_key = ancestors.iter().fold(0u64, |p, &k| child_path_key(p, k));
        let path_key = child_path_key(path_key, root_key);
        let hand = self.pos.hand(self.attacker);
        let board = self.tt_key(self.pos.board_key());
        if let Some(v) = Val::from_found(self.table.lookup(board, hand, depth, path_key), hand)
            && (v.is_proven() || v.is_disproven())
        {
            return v;
        }
        self.table.new_search();
        if self.team.is_some() {
            self.root = Some((self.pos.clone(), depth));
            self.root_ancestors.clear();
            self.root_ancestors.extend_from_slice(ancestors);
            self.search_start = self.nodes;
        }
        let mut v = self.mid(INF, INF, depth, 0, path_key);
        if self.engaged {
            v = self.disengage(v);
        }
        self.path.clear();
        v
    }

    pub(super) fn store(&mut self, v: &Val, depth: Depth, path_key: u64, amount: u64) {
        debug_assert!(v.is_consistent(), "storing {v:?}");
        // A proof that holds on this path alone is not kept: its position is searched again
        // from any other path (and, rarely, from this one).
        if v.pn == 0 && v.rep {
            return;
        }
        let state = if v.pn == 0 {
            if v.exact {
                State::ProvenExact
            } else {
                State::Proven
            }
        } else if v.dn == 0 {
            if v.rep {
                State::RepDisproven
            } else if v.exact {
                State::DisprovenExact
            } else {
                State::Disproven
            }
        } else {
            State::Unknown
        };
        let exact = self.pos.hand(self.attacker);
        let hand = if matches!(
            state,
            State::Unknown | State::RepDisproven | State::ProvenExact | State::DisprovenExact
        ) || !self.techniques.proof_pieces
        {
            exact
        } else {
            v.hand
        };
        debug_assert!(state != State::Proven || exact.superset_of(hand));
        debug_assert!(state != State::Disproven || hand.superset_of(exact));
        let mut e = Entry {
            board: self.tt_key(self.pos.board_key()),
            hand,
            pn: v.pn,
            dn: v.dn,
            amount: amount.min(u32::MAX as u64) as u32,
            len: if state == State::Unknown {
                depth
            } else {
                v.len
            },
            best: v.best,
            state,
            generation: 0,
            age: 0,
        };
        if state == State::RepDisproven {
            e.set_path(path_key);
        }
        self.table.store(e, &mut self.tally);
    }

    /// The MID procedure: searches the current position until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`, or it is solved.
    pub(super) fn mid(
        &mut self,
        mut th_pn: u32,
        mut th_dn: u32,
        depth: Depth,
        level: usize,
        path_key: u64,
    ) -> Val {
        self.nodes += 1;
        let start_nodes = self.nodes;
        let or_node = self.pos.side_to_move() == self.attacker;
        let hand = self.pos.hand(self.attacker);
        if self.check_limits() {
            return Val::unknown(1, 1, hand);
        }
        if level >= MAX_LEVEL {
            // Too deep to follow: the search stops here, as at a limit, rather than claim
            // anything about this line (or loop on it).
            self.stop_for(StopReason::Recursion);
            return Val::unknown(1, 1, hand);
        }
        if self.levels.len() <= level {
            self.levels.resize_with(level + 1, Level::default);
        }
        let (immediate, inc) = if or_node {
            self.expand_or(level, depth, path_key)
        } else {
            self.expand_and(level, depth, path_key)
        };
        if let Some(v) = immediate {
            self.store(&v, depth, path_key, 1);
            return v;
        }
        let mut first = true;
        loop {
            let (pn, dn) = node_pn_dn(&self.levels[level].children, or_node);
            debug_assert!(
                Val::unknown(pn, dn, hand).is_consistent(),
                "pn {pn} dn {dn}: INF without a proof or disproof"
            );
            if pn == 0 && !or_node {
                // Proven, with interpositions perhaps answered by their Q′ alone: the rule's
                // comparison keeps those Q′ or sets them aside (then the search goes on).
                match self.settle_useless(level, depth, path_key) {
                    Some(true) => {}
                    Some(false) => continue,
                    None => return Val::unknown(1, 1, hand),
                }
            }
            if pn == 0 || dn == 0 {
                let v = self.finalize(level, or_node);
                self.store(&v, depth, path_key, self.nodes - start_nodes + 1);
                return v;
            }
            if first && inc && self.techniques.tca {
                // TCA: next to a repetition the values can stall below the thresholds the
                // parent set; make sure this node makes progress before returning.
                th_pn = th_pn.max(pn.saturating_add(1).min(INF));
                th_dn = th_dn.max(dn.saturating_add(1).min(INF));
            }
            first = false;
            if pn >= th_pn || dn >= th_dn || self.aborted {
                let v = Val::unknown(pn, dn, hand);
                self.store(&v, depth, path_key, self.nodes - start_nodes + 1);
                return v;
            }
            let (best, second) = select(&self.levels[level].children, or_node, self.index % 2 == 1);
            let c = self.levels[level].children[best];
            let eps = self.epsilon;
            // Every child threshold exceeds the child's current value, so each descent makes
            // progress; with values saturated at MAX_UNSOLVED it becomes INF ("until solved").
            let (cth_pn, cth_dn) = if or_node {
                (
                    th_pn.min(epsilon_threshold(second, eps)),
                    sat_add(th_dn - dn, c.val.dn),
                )
            } else {
                let (cpn, _) = c.and_pn_dn();
                // A node that looks refuted lets the reply it reads go on past a proof
                // number its estimate did not foresee (Techniques::proof_slack).
                let slack = if (dn as u64) * 4 < pn as u64 {
                    self.techniques.proof_slack
                } else {
                    0
                };
                (
                    sat_add(sat_add(th_pn - pn, cpn), slack),
                    th_dn.min(epsilon_threshold(second, eps)),
                )
            };
            if !or_node && c.q_open() && c.q.pn <= c.val.pn {
                // Descend into Q′ (as an OR choice inside this child).
                let th_pn_q = cth_pn.min(sat_add(c.val.pn, 1));
                let th_dn_q = cth_dn.saturating_sub(c.val.dn).max(sat_add(c.q.dn, 1));
                let r = self.search_q(level, best, th_pn_q, th_dn_q, depth, path_key);
                self.levels[level].children[best].q = r;
            } else {
                let (th_pn_v, th_dn_v) = if !or_node && c.q_open() {
                    (
                        cth_pn.min(sat_add(c.q.pn, 1)),
                        cth_dn.saturating_sub(c.q.dn).max(sat_add(c.val.dn, 1)),
                    )
                } else {
                    (cth_pn, cth_dn)
                };
                let m = c.mv;
                let captured = self.pos.do_move(m);
                let child_key = self.pos.key();
                self.path.insert(child_key);
                let r = self.mid(
                    th_pn_v,
                    th_dn_v,
                    depth.child(),
                    level + 1,
                    child_path_key(path_key, child_key),
                );
                self.path.remove(child_key);
                self.pos.undo_move(m, captured);
                self.levels[level].children[best].val = r;
            }
            if !or_node {
                self.advance_delayed(level, best, depth, path_key);
            }
            if self.table.is_shared()
                && let Some(v) = self.solved_elsewhere(depth, path_key)
            {
                return v;
            }
        }
    }
}
