//! The df-pn search (Nagai 2002) over checking sequences: OR nodes are the attacker's (checks
//! only), AND nodes the defender's (every evasion, drops included).
//!
//! What is layered on plain df-pn, each switchable in [`Techniques`] so it can be measured:
//! - the table's hand superiority and proof/disproof pieces ([`super::table`],
//!   [`super::hands`]);
//! - df-pn+ initial estimates: a new AND child starts at a proof number from its evasions
//!   (king steps, captures, one per interposition square), a new OR child at a disproof
//!   number from its checks;
//! - a 1-ply mate check when an OR node is expanded (each check is played and its evasions
//!   counted) and a "no check at all" check when an AND node is expanded;
//! - the 1+ε trick (Pawlewicz & Lew): a child's threshold is the second best value times
//!   1+ε, so the search does not thrash between two close children;
//! - delayed interpositions (KomoringHeights): of the drops on one interposition square only
//!   the weakest is a child at first; the next piece replaces it once it is mated;
//! - repetition (Kishimoto & Müller 2004): a child equal to a position on the current path is
//!   a non-mate for this path only; disproofs that depend on it are stored bound to the path
//!   key, and TCA-style threshold widening (Kishimoto 2010) keeps such loops from starving.
//!
//! Depth-limited searches ("mate within d plies") also apply the useless-interposition rule
//! of RULES.md: an interposition on square s against a ranging checker is answered, besides
//! by its ordinary continuation, by the position Q′ the checker's capture on s would reach
//! with the captured piece back in the defender's hand, at the *same* remaining depth. If Q′
//! is mated within it, the interposition adds nothing and costs no plies.

use super::hands::{
    disproof_and_adjust, disproof_or_adjust, disproof_terminal, full_hand, hand_before,
    proof_and_adjust, proof_terminal,
};
use super::table::{Entry, Found, INF, State, Table, TableError, UNLIMITED};
use crate::rules::movegen::{generate_checks, generate_evasions, interposition};
use crate::rules::{Bitboard, Color, Hand, Move, MoveList, PieceKind, Position, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

impl StopReason {
    /// How a report names the limit.
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Nodes => "the node limit (--nodes) was reached",
            StopReason::Time => "the time limit (--time) was reached",
            StopReason::Stop => "the search was stopped",
            StopReason::Recursion => "a checking line reached the 1000-ply recursion limit",
        }
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

/// The value of a node: proof and disproof numbers and, once solved, the length and the
/// proof/disproof pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Val {
    /// Proof number (0 = proven).
    pub pn: u32,
    /// Disproof number (0 = disproven).
    pub dn: u32,
    /// Proven: mate length; disproven: no mate within this many plies.
    pub len: u16,
    /// Proof or disproof pieces (the attacker's hand for unsolved nodes).
    pub hand: Hand,
    /// Disproven only because of a repetition on the current path.
    pub rep: bool,
    /// Best move (raw) of a proven OR node.
    pub best: u16,
}

impl Val {
    fn unknown(pn: u32, dn: u32, hand: Hand) -> Val {
        Val {
            pn,
            dn,
            len: 0,
            hand,
            rep: false,
            best: 0,
        }
    }
    fn proven(len: u16, hand: Hand) -> Val {
        Val {
            pn: 0,
            dn: INF,
            len,
            hand,
            rep: false,
            best: 0,
        }
    }
    fn disproven(len: u16, hand: Hand, rep: bool) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len,
            hand,
            rep,
            best: 0,
        }
    }
    /// Whether proven.
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    /// Whether disproven.
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
    /// Whether (pn, dn) obeys the invariant: [`INF`] only for a solved node (pn = INF ⇔
    /// dn = 0, dn = INF ⇔ pn = 0).
    pub fn is_consistent(&self) -> bool {
        (self.pn == INF) == (self.dn == 0) && (self.dn == INF) == (self.pn == 0)
    }
}

/// The largest proof or disproof number of an unsolved node. [`INF`] is kept for solved
/// nodes alone (pn = INF exactly when dn = 0, and the other way round), so that sums that
/// grow through transpositions and cycles saturate here and are never read as a proof or a
/// disproof. Thresholds may be [`INF`]: a search with that threshold runs until its node is
/// solved (or a limit stops it).
pub const MAX_UNSOLVED: u32 = INF - 1;

/// `a + b` for thresholds, at most [`INF`].
#[inline]
fn sat_add(a: u32, b: u32) -> u32 {
    (a.saturating_add(b)).min(INF)
}

/// `a + b` for the summed number of an unsolved node, at most [`MAX_UNSOLVED`]; an
/// [`INF`] operand (a solved child) keeps it [`INF`].
#[inline]
fn sum_unsolved(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(MAX_UNSOLVED)
    }
}

/// Makes (pn, dn) consistent at the node level: pn = 0 ⇔ dn = INF and dn = 0 ⇔ pn = INF;
/// unsolved values stay within [`MAX_UNSOLVED`].
#[inline]
fn settle(pn: u32, dn: u32) -> (u32, u32) {
    if pn == 0 {
        (0, INF)
    } else if dn == 0 {
        (INF, 0)
    } else {
        (pn.min(MAX_UNSOLVED), dn.min(MAX_UNSOLVED))
    }
}

/// The 1+ε threshold from the second-best value `x` (Pawlewicz & Lew): `x·(1+ε) + 1`, at
/// most [`INF`].
#[inline]
fn epsilon_threshold(x: u32, epsilon_percent: u32) -> u32 {
    if x >= MAX_UNSOLVED {
        return INF;
    }
    let t = x as u64 + 1 + x as u64 * epsilon_percent as u64 / 100;
    t.min(INF as u64) as u32
}

#[inline]
fn child_depth(depth: u16) -> u16 {
    if depth == UNLIMITED {
        UNLIMITED
    } else {
        depth.saturating_sub(1)
    }
}

#[inline]
fn plus_one(len: u16) -> u16 {
    if len == UNLIMITED { UNLIMITED } else { len + 1 }
}

/// Mixes a child's position key into its parent's path key.
#[inline]
pub fn child_path_key(path: u64, position_key: u64) -> u64 {
    (path ^ position_key)
        .rotate_left(23)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// One child of a node in the search.
#[derive(Copy, Clone, Debug)]
struct Child {
    mv: Move,
    /// The position after `mv`.
    val: Val,
    /// Q′ of a useless-interposition candidate (`has_q`).
    q: Val,
    has_q: bool,
    /// Delayed interpositions still to try on this square (bit i = `PieceKind::HAND[i]`).
    rest: u8,
    /// The largest contribution (plies from the parent) and hand of the pieces already
    /// proven useless on this square.
    acc_len: u16,
    acc_hand: Hand,
    acc: bool,
}

impl Child {
    fn new(mv: Move, val: Val) -> Child {
        Child {
            mv,
            val,
            q: Val::unknown(1, 1, Hand::EMPTY),
            has_q: false,
            rest: 0,
            acc_len: 0,
            acc_hand: Hand::EMPTY,
            acc: false,
        }
    }

    /// (pn, dn) as a child of an AND node: the ordinary continuation or Q′, whichever
    /// proves first.
    #[inline]
    fn and_pn_dn(&self) -> (u32, u32) {
        if self.has_q {
            settle(
                self.val.pn.min(self.q.pn),
                self.val.dn.saturating_add(self.q.dn),
            )
        } else {
            (self.val.pn, self.val.dn)
        }
    }

    /// Plies this (proven) child of an AND node adds, and its proof pieces.
    fn and_contribution(&self) -> (u16, Hand) {
        let q = (self.has_q && self.q.is_proven()).then_some((self.q.len, self.q.hand));
        let v = self
            .val
            .is_proven()
            .then_some((plus_one(self.val.len), self.val.hand));
        let (mut len, mut hand) = match (q, v) {
            (Some(a), Some(b)) => {
                if a.0 <= b.0 {
                    a
                } else {
                    b
                }
            }
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => (0, Hand::EMPTY),
        };
        if self.acc {
            len = len.max(self.acc_len);
            hand = hand.max(self.acc_hand);
        }
        (len, hand)
    }
}

/// Per-level scratch space, allocated once and reused: nothing is allocated per node.
#[derive(Default)]
struct Level {
    children: Vec<Child>,
    /// The ranging checker against which interpositions are made (AND nodes).
    checker: Option<Square>,
}

/// Full keys of the positions on the current path (open addressing; the path is short).
struct PathSet {
    slots: Vec<u64>,
    mask: usize,
}

impl PathSet {
    fn new() -> PathSet {
        PathSet {
            slots: vec![0; 4096],
            mask: 4095,
        }
    }
    #[inline]
    fn contains(&self, key: u64) -> bool {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == key {
                return true;
            }
            if s == 0 {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == key {
                return false;
            }
            if s == 0 {
                self.slots[i] = key;
                return true;
            }
            i = (i + 1) & self.mask;
        }
    }
    /// Removes `key` (inserted earlier), keeping probe chains intact.
    fn remove(&mut self, key: u64) {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        while self.slots[i] != key {
            if self.slots[i] == 0 {
                return;
            }
            i = (i + 1) & self.mask;
        }
        self.slots[i] = 0;
        // Re-seat the rest of the cluster.
        let mut j = (i + 1) & self.mask;
        while self.slots[j] != 0 {
            let k = self.slots[j];
            self.slots[j] = 0;
            let mut h = k as usize & self.mask;
            while self.slots[h] != 0 {
                h = (h + 1) & self.mask;
            }
            self.slots[h] = k;
            j = (j + 1) & self.mask;
        }
    }
    fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// The search engine: a position being searched, the table, scratch space and counters.
pub struct Searcher {
    /// The transposition table (kept between searches of related positions).
    pub table: Table,
    /// The position at the current node (moves are made and unmade on it).
    pub pos: Position,
    /// The side that checks.
    pub attacker: Color,
    /// Key of the pieces in play, mixed into table keys so that searches with different
    /// totals of pieces never share entries.
    universe: u64,
    levels: Vec<Level>,
    path: PathSet,
    /// Nodes visited (every position generated moves for).
    pub nodes: u64,
    /// Limits of the current search.
    pub limits: Limits,
    /// Set when a limit stopped the search.
    pub aborted: bool,
    /// The limit that stopped the search (the first one met since the solve began).
    pub stopped_by: Option<StopReason>,
    /// Techniques in use.
    pub techniques: Techniques,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes, for `pos` (attacker = side to move);
    /// an error when the table cannot be allocated.
    pub fn new(pos: Position, hash_mb: usize) -> Result<Searcher, TableError> {
        let attacker = pos.side_to_move();
        let mut s = Searcher {
            table: Table::new(hash_mb)?,
            pos,
            attacker,
            universe: 0,
            levels: Vec::new(),
            path: PathSet::new(),
            nodes: 0,
            limits: Limits::default(),
            aborted: false,
            stopped_by: None,
            techniques: Techniques::default(),
        };
        s.set_position(s.pos.clone());
        Ok(s)
    }

    /// Makes `pos` the position to search (attacker = its side to move). The table is kept:
    /// entries stay valid between positions with the same pieces in play.
    pub fn set_position(&mut self, pos: Position) {
        self.attacker = pos.side_to_move();
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
    pub fn set_node(&mut self, pos: Position) {
        self.pos = pos;
    }

    #[inline]
    fn tt_key(&self, board_key: u64) -> u64 {
        board_key ^ self.universe
    }

    /// Stops the search for `reason` (the first reason met is kept).
    fn stop_for(&mut self, reason: StopReason) {
        self.aborted = true;
        if self.stopped_by.is_none() {
            self.stopped_by = Some(reason);
        }
    }

    #[inline]
    fn check_limits(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            self.stop_for(StopReason::Nodes);
        }
        if self.nodes & 1023 == 0 {
            if let Some(p) = &self.limits.progress {
                p.nodes.store(self.nodes, Ordering::Relaxed);
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
        self.aborted
    }

    /// Searches the current position (an OR or AND node for the attacker) for a mate within
    /// `depth` plies ([`UNLIMITED`] for any length). `ancestors` are the full keys of the
    /// positions before it on the line (they count as repetitions). Returns the root value.
    pub fn search(&mut self, depth: u16, ancestors: &[u64]) -> Val {
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
        match self.table.lookup(board, hand, depth, path_key) {
            Found::Proven { len, hand, best } => {
                let mut v = Val::proven(len, hand);
                v.best = best;
                return v;
            }
            Found::Disproven { len, hand, rep } => return Val::disproven(len, hand, rep),
            _ => {}
        }
        self.table.new_search();
        let v = self.mid(INF, INF, depth, 0, path_key);
        self.path.clear();
        v
    }

    fn store(&mut self, v: &Val, depth: u16, path_key: u64, amount: u64) {
        debug_assert!(v.is_consistent(), "storing {v:?}");
        let state = if v.pn == 0 {
            State::Proven
        } else if v.dn == 0 {
            if v.rep {
                State::RepDisproven
            } else {
                State::Disproven
            }
        } else {
            State::Unknown
        };
        let exact = self.pos.hand(self.attacker);
        let hand = if state == State::Unknown
            || state == State::RepDisproven
            || !self.techniques.proof_pieces
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
        self.table.store(e);
    }

    /// The MID procedure: searches the current position until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`, or it is solved.
    fn mid(
        &mut self,
        mut th_pn: u32,
        mut th_dn: u32,
        depth: u16,
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
            let (pn, dn) = self.node_pn_dn(level, or_node);
            debug_assert!(
                Val::unknown(pn, dn, hand).is_consistent(),
                "pn {pn} dn {dn}: INF without a proof or disproof"
            );
            if pn == 0 || dn == 0 {
                let v = self.finalize(level, or_node, depth);
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
            let (best, second) = self.select(level, or_node);
            let c = self.levels[level].children[best];
            let eps = self.techniques.epsilon_percent;
            // Every child threshold exceeds the child's current value, so each descent makes
            // progress; with values saturated at MAX_UNSOLVED it becomes INF ("until solved").
            let (cth_pn, cth_dn) = if or_node {
                (
                    th_pn.min(epsilon_threshold(second, eps)),
                    sat_add(th_dn - dn, c.val.dn),
                )
            } else {
                let (cpn, _) = c.and_pn_dn();
                (
                    sat_add(th_pn - pn, cpn),
                    th_dn.min(epsilon_threshold(second, eps)),
                )
            };
            if !or_node && c.has_q && c.q.pn <= c.val.pn {
                // Descend into Q′ (as an OR choice inside this child).
                let th_pn_q = cth_pn.min(sat_add(c.val.pn, 1));
                let th_dn_q = cth_dn.saturating_sub(c.val.dn).max(sat_add(c.q.dn, 1));
                let r = self.search_q(level, best, th_pn_q, th_dn_q, depth, path_key);
                self.levels[level].children[best].q = r;
            } else {
                let (th_pn_v, th_dn_v) = if !or_node && c.has_q {
                    (
                        cth_pn.min(sat_add(c.q.pn, 1)),
                        cth_dn.saturating_sub(c.q.dn).max(sat_add(c.val.dn, 1)),
                    )
                } else {
                    (cth_pn, cth_dn)
                };
                let m = c.mv;
                let child_key = self.pos.key_after(m);
                let captured = self.pos.do_move(m);
                self.path.insert(child_key);
                let r = self.mid(
                    th_pn_v,
                    th_dn_v,
                    child_depth(depth),
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
        }
    }

    /// Searches Q′ of child `i` of the AND node at `level` (see the module docs).
    fn search_q(
        &mut self,
        level: usize,
        i: usize,
        th_pn: u32,
        th_dn: u32,
        depth: u16,
        path_key: u64,
    ) -> Val {
        let c = self.levels[level].children[i];
        let checker = self.levels[level].checker.expect("a checker for Q'");
        let Some(q) = useless_reply_position(&self.pos, c.mv, checker) else {
            return Val::disproven(0, self.pos.hand(self.attacker), false);
        };
        let saved = std::mem::replace(&mut self.pos, q);
        let key = self.pos.key();
        let fresh = self.path.insert(key);
        let r = self.mid(
            th_pn,
            th_dn,
            depth,
            level + 1,
            child_path_key(path_key, key),
        );
        if fresh {
            self.path.remove(key);
        }
        self.pos = saved;
        r
    }

    /// (pn, dn) of the node at `level` from its children.
    #[inline]
    fn node_pn_dn(&self, level: usize, or_node: bool) -> (u32, u32) {
        let children = &self.levels[level].children;
        if or_node {
            let mut pn = INF;
            let mut dn = 0u32;
            for c in children {
                pn = pn.min(c.val.pn);
                dn = sum_unsolved(dn, c.val.dn);
            }
            settle(pn, dn)
        } else {
            let mut pn = 0u32;
            let mut dn = INF;
            for c in children {
                let (cpn, cdn) = c.and_pn_dn();
                pn = sum_unsolved(pn, cpn);
                dn = dn.min(cdn);
            }
            settle(pn, dn)
        }
    }

    /// The child to search (smallest pn at OR nodes, smallest dn at AND nodes; the first
    /// on ties) and the second-smallest value.
    #[inline]
    fn select(&self, level: usize, or_node: bool) -> (usize, u32) {
        let children = &self.levels[level].children;
        let mut best = usize::MAX;
        let mut best_v = u32::MAX;
        let mut second = INF;
        for (i, c) in children.iter().enumerate() {
            let v = if or_node { c.val.pn } else { c.and_pn_dn().1 };
            if v < best_v {
                second = best_v.min(second);
                best_v = v;
                best = i;
            } else if v < second {
                second = v;
            }
        }
        (best, second.min(INF))
    }

    /// Computes the value of a solved node from its children.
    fn finalize(&mut self, level: usize, or_node: bool, depth: u16) -> Val {
        let _ = depth;
        let children = &self.levels[level].children;
        let exact = self.pos.hand(self.attacker);
        if or_node {
            // Proven: the shortest proven child. Disproven: every child.
            let mut best: Option<(u16, Hand, u16)> = None;
            for c in children.iter().filter(|c| c.val.is_proven()) {
                let len = plus_one(c.val.len);
                if best.is_none_or(|b| len < b.0) {
                    best = Some((len, hand_before(&self.pos, c.mv, c.val.hand), c.mv.raw()));
                }
            }
            if let Some((len, hand, mv)) = best {
                let mut v = Val::proven(len, hand.min(exact));
                v.best = mv;
                return v;
            }
            let mut len = UNLIMITED;
            let mut hand = full_hand();
            let mut rep = false;
            for c in children {
                len = len.min(plus_one(c.val.len));
                hand = hand.min(hand_before(&self.pos, c.mv, c.val.hand));
                rep |= c.val.rep;
            }
            let hand = disproof_or_adjust(&self.pos, hand).max(exact);
            Val::disproven(len, hand, rep)
        } else {
            let mut disproof: Option<Val> = None;
            for c in children {
                let (_, cdn) = c.and_pn_dn();
                if cdn != 0 {
                    continue;
                }
                let v = if c.has_q {
                    Val::disproven(
                        c.q.len.min(plus_one(c.val.len)),
                        c.q.hand
                            .min(disproof_and_adjust(&self.pos, c.mv, c.val.hand)),
                        c.q.rep || c.val.rep,
                    )
                } else {
                    Val::disproven(
                        plus_one(c.val.len),
                        disproof_and_adjust(&self.pos, c.mv, c.val.hand),
                        c.val.rep,
                    )
                };
                // Prefer a disproof that holds on every path, then the longest.
                let better = match &disproof {
                    None => true,
                    Some(d) => (d.rep && !v.rep) || (d.rep == v.rep && v.len > d.len),
                };
                if better {
                    disproof = Some(v);
                }
            }
            if let Some(mut v) = disproof {
                v.hand = v.hand.max(exact);
                return v;
            }
            let mut len = 0u16;
            let mut hand = Hand::EMPTY;
            for c in children {
                let (l, h) = c.and_contribution();
                len = len.max(l);
                hand = hand.max(h);
            }
            Val::proven(len, proof_and_adjust(&self.pos, hand).min(exact))
        }
    }

    /// After child `i` of an AND node was searched: if it is a delayed interposition that is
    /// now proven, the next piece takes its place on the square.
    fn advance_delayed(&mut self, level: usize, i: usize, depth: u16, path_key: u64) {
        loop {
            let c = self.levels[level].children[i];
            if c.rest == 0 || c.and_pn_dn().0 != 0 {
                return;
            }
            if c.has_q && c.q.is_proven() {
                // Q′ is the same for every piece dropped here: all are useless.
                self.levels[level].children[i].rest = 0;
                return;
            }
            let (len, hand) = c.and_contribution();
            let k = c.rest.trailing_zeros() as usize;
            let mv = Move::drop(PieceKind::HAND[k], c.mv.to());
            let val = self.evaluate_or_child(mv, depth, path_key);
            let ch = &mut self.levels[level].children[i];
            ch.rest &= ch.rest - 1;
            ch.acc = true;
            ch.acc_len = len;
            ch.acc_hand = hand;
            ch.mv = mv;
            ch.val = val;
        }
    }

    /// Expands an OR node: its checks, each looked up or estimated, with the 1-ply mate
    /// check. Returns a value when the node is solved at once, and whether a repetition was
    /// met (for TCA).
    fn expand_or(&mut self, level: usize, depth: u16, path_key: u64) -> (Option<Val>, bool) {
        let hand = self.pos.hand(self.attacker);
        if depth == 0 {
            return (Some(Val::disproven(0, full_hand(), false)), false);
        }
        let mut moves = MoveList::new();
        generate_checks(&self.pos, &mut moves);
        if moves.is_empty() {
            let d = if self.techniques.proof_pieces {
                disproof_terminal(&self.pos).max(hand)
            } else {
                hand
            };
            return (Some(Val::disproven(UNLIMITED, d, false)), false);
        }
        let cdepth = child_depth(depth);
        let mut inc = false;
        let mut children = std::mem::take(&mut self.levels[level].children);
        children.clear();
        for &m in moves.iter() {
            self.table
                .prefetch(self.tt_key(self.pos.board_key_after(m)));
        }
        for &m in moves.iter() {
            let child_key = self.pos.key_after(m);
            if self.path.contains(child_key) {
                inc = true;
                children.push(Child::new(m, Val::disproven(UNLIMITED, hand, true)));
                continue;
            }
            let chand = self.pos.hand_after(m);
            let board = self.tt_key(self.pos.board_key_after(m));
            let cpath = child_path_key(path_key, child_key);
            let val = match self.table.lookup(board, chand, cdepth, cpath) {
                Found::Proven { len, hand, best } => {
                    let mut v = Val::proven(len, hand);
                    v.best = best;
                    v
                }
                Found::Disproven { len, hand, rep } => {
                    inc |= rep;
                    Val::disproven(len, hand, rep)
                }
                Found::Unknown { pn, dn, .. } => Val::unknown(pn, dn, chand),
                Found::None => self.estimate_and_child(m, cdepth),
            };
            let mate_in_one = val.is_proven() && val.len == 0;
            children.push(Child::new(m, val));
            if mate_in_one {
                break;
            }
        }
        self.levels[level].children = children;
        (None, inc)
    }

    /// A new AND child (after check `m`): mated at once (1-ply mate check), refuted by the
    /// depth limit, or an estimate from its evasions (df-pn+).
    fn estimate_and_child(&mut self, m: Move, cdepth: u16) -> Val {
        let chand = self.pos.hand_after(m);
        let t = self.techniques;
        if !t.one_ply && !t.initial_estimates {
            return Val::unknown(1, 1, chand);
        }
        self.nodes += 1;
        let captured = self.pos.do_move(m);
        let mut ev = MoveList::new();
        generate_evasions(&self.pos, &mut ev);
        let v = if t.one_ply && ev.is_empty() {
            let p = if t.proof_pieces {
                proof_terminal(&self.pos).min(chand)
            } else {
                chand
            };
            Val::proven(0, p)
        } else if t.one_ply && cdepth < 2 && !ev.is_empty() && !may_interpose(&self.pos, &ev) {
            Val::disproven(cdepth, chand, false)
        } else if t.initial_estimates {
            Val::unknown(evasion_estimate(&ev), 1, chand)
        } else {
            Val::unknown(1, 1, chand)
        };
        self.pos.undo_move(m, captured);
        v
    }

    /// Value of a new OR child (after evasion `m`): looked up, or refuted at once when no
    /// check exists, or an estimate from its checks (df-pn+).
    fn evaluate_or_child(&mut self, m: Move, depth: u16, path_key: u64) -> Val {
        let hand = self.pos.hand(self.attacker);
        let child_key = self.pos.key_after(m);
        if self.path.contains(child_key) {
            return Val::disproven(UNLIMITED, hand, true);
        }
        let cdepth = child_depth(depth);
        let board = self.tt_key(self.pos.board_key_after(m));
        match self
            .table
            .lookup(board, hand, cdepth, child_path_key(path_key, child_key))
        {
            Found::Proven { len, hand, best } => {
                let mut v = Val::proven(len, hand);
                v.best = best;
                v
            }
            Found::Disproven { len, hand, rep } => Val::disproven(len, hand, rep),
            Found::Unknown { pn, dn, .. } => Val::unknown(pn, dn, hand),
            Found::None => {
                if cdepth == 0 {
                    return Val::disproven(0, full_hand(), false);
                }
                let t = self.techniques;
                if !t.one_ply && !t.initial_estimates {
                    return Val::unknown(1, 1, hand);
                }
                self.nodes += 1;
                let captured = self.pos.do_move(m);
                let mut checks = MoveList::new();
                generate_checks(&self.pos, &mut checks);
                let v = if t.one_ply && checks.is_empty() {
                    let d = if t.proof_pieces {
                        disproof_terminal(&self.pos).max(hand)
                    } else {
                        hand
                    };
                    Val::disproven(UNLIMITED, d, false)
                } else if t.initial_estimates {
                    Val::unknown(1, (checks.len() as u32).div_ceil(2).clamp(1, 8), hand)
                } else {
                    Val::unknown(1, 1, hand)
                };
                self.pos.undo_move(m, captured);
                v
            }
        }
    }

    /// Expands an AND node: every evasion (drops on one square delayed behind the weakest
    /// piece), Q′ for useless-interposition candidates in depth-limited searches.
    fn expand_and(&mut self, level: usize, depth: u16, path_key: u64) -> (Option<Val>, bool) {
        let hand = self.pos.hand(self.attacker);
        let mut moves = MoveList::new();
        generate_evasions(&self.pos, &mut moves);
        if moves.is_empty() {
            let p = if self.techniques.proof_pieces {
                proof_terminal(&self.pos).min(hand)
            } else {
                hand
            };
            return (Some(Val::proven(0, p)), false);
        }
        // The ranging checker interpositions are made against.
        let (block, checker) = match interposition(&self.pos) {
            Some((b, c)) => (b, Some(c)),
            None => (Bitboard::EMPTY, None),
        };
        let useless_rule = depth != UNLIMITED && block.any();
        if depth < 2 && !(useless_rule && moves.iter().any(|m| block.has(m.to()))) {
            // No ply left for the attacker, and no interposition that might be useless.
            return (Some(Val::disproven(depth, hand, false)), false);
        }
        let mut children = std::mem::take(&mut self.levels[level].children);
        children.clear();
        let mut inc = false;
        let mut refuted = None;
        // Drops grouped per square: (square, first index in `children`).
        let mut seen_drop_squares = Bitboard::EMPTY;
        for &m in moves.iter() {
            if !(m.is_drop() && seen_drop_squares.has(m.to())) {
                self.table
                    .prefetch(self.tt_key(self.pos.board_key_after(m)));
            }
            if m.is_drop() {
                seen_drop_squares |= Bitboard::from_square(m.to());
            }
        }
        seen_drop_squares = Bitboard::EMPTY;
        for &m in moves.iter() {
            if m.is_drop() && self.techniques.delayed_interpositions {
                let to = m.to();
                if seen_drop_squares.has(to) {
                    // A later, stronger piece on a square already listed: delay it.
                    if let Some(c) = children
                        .iter_mut()
                        .find(|c| c.mv.is_drop() && c.mv.to() == to)
                    {
                        c.rest |= 1 << m.drop_kind().index();
                    }
                    continue;
                }
                seen_drop_squares |= Bitboard::from_square(to);
            }
            let val = self.evaluate_or_child(m, depth, path_key);
            inc |= val.rep;
            let mut child = Child::new(m, val);
            if useless_rule && block.has(m.to()) {
                let c = checker.expect("checker");
                if let Some(q) = useless_reply_position(&self.pos, m, c) {
                    child.has_q = true;
                    let qhand = q.hand(self.attacker);
                    let qkey = q.key();
                    child.q = if self.path.contains(qkey) {
                        Val::disproven(UNLIMITED, qhand, true)
                    } else {
                        match self.table.lookup(
                            self.tt_key(q.board_key()),
                            qhand,
                            depth,
                            child_path_key(path_key, qkey),
                        ) {
                            Found::Proven { len, hand, .. } => Val::proven(len, hand),
                            Found::Disproven { len, hand, rep } => Val::disproven(len, hand, rep),
                            Found::Unknown { pn, dn, .. } => Val::unknown(pn, dn, qhand),
                            Found::None => Val::unknown(1, 1, qhand),
                        }
                    };
                }
            }
            children.push(child);
        }
        let n = children.len();
        self.levels[level].children = children;
        self.levels[level].checker = checker;
        // Delayed pieces behind an interposition already known to be mated come forward now.
        for i in 0..n {
            self.advance_delayed(level, i, depth, path_key);
            let c = &self.levels[level].children[i];
            inc |= c.val.rep;
            if c.and_pn_dn().1 == 0 && refuted.is_none() {
                refuted = Some(i);
            }
        }
        if refuted.is_some() {
            let v = self.finalize(level, false, depth);
            return (Some(v), inc);
        }
        (None, inc)
    }
}

/// Whether some evasion in `ev` interposes against a single ranging checker (so that at a
/// depth limit the useless-interposition rule may still leave the node mated).
fn may_interpose(pos: &Position, ev: &MoveList) -> bool {
    interposition(pos).is_some_and(|(block, _)| ev.iter().any(|m| block.has(m.to())))
}

/// df-pn+ initial proof number of an AND node from its evasions: phoenix moves and captures
/// count one each, interpositions one per square (the pieces that could be dropped there
/// are alternatives of one idea).
pub fn evasion_estimate(ev: &MoveList) -> u32 {
    let mut squares = Bitboard::EMPTY;
    let mut n = 0u32;
    for &m in ev.iter() {
        if m.is_drop() {
            if !squares.has(m.to()) {
                squares |= Bitboard::from_square(m.to());
                n += 1;
            }
        } else {
            n += 1;
        }
    }
    n.max(1)
}

/// Q′ of an interposition (RULES.md, useless interposition): the position after the
/// defender's interposition `m` on square s and the checker's capture there, with the
/// captured piece back in the defender's hand, defender to move. `None` when the capture
/// is not a legal check or the result is not a legal position.
pub fn useless_reply_position(pos: &Position, m: Move, checker: Square) -> Option<Position> {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let s = m.to();
    let cp = pos.piece_at(checker)?;
    // The capture must be legal for the attacker: check it after the interposition.
    let mut after = pos.clone();
    after.do_move(m);
    if after.phoenix(attacker).is_some() {
        let capture = Move::normal(
            checker,
            s,
            Position::promotes(attacker, cp.kind, checker, s),
        );
        let mut list = MoveList::new();
        generate_checks(&after, &mut list);
        if !list.contains(capture) {
            return None;
        }
    }
    let mut setup = pos.to_setup();
    setup.board[checker.index()] = None;
    let kind = if Position::promotes(attacker, cp.kind, checker, s) {
        cp.kind.promoted().unwrap_or(cp.kind)
    } else {
        cp.kind
    };
    setup.board[s.index()] = Some(crate::rules::Piece::new(attacker, kind));
    if !m.is_drop() {
        let from = m.from();
        let p = pos.piece_at(from)?;
        setup.board[from.index()] = None;
        setup.hands[defender.index()][p.kind.unpromoted().index()] += 1;
    }
    let q = Position::from_setup_with_defender(&setup, defender).ok()?;
    // Q′ must still be the defender in check (it always is when the checker captured along
    // its line) — anything else is not the situation the rule describes.
    if !q.in_check() {
        return None;
    }
    Some(q)
}
