//! The children of an expanded node and what is computed from them: the expansion of OR
//! nodes (checks) and AND nodes (evasions, drops on one square delayed), each child's value
//! (and, for an interposition the useless-interposition rule may set aside, the value of its
//! Q′), the node's proof and disproof numbers, the child to search next, delayed
//! interpositions coming forward, and the value of a solved node.

use super::dfpn::Searcher;
use super::hands::{
    disproof_and_adjust, disproof_or_adjust, full_hand, hand_before, proof_and_adjust,
};
use super::path::child_path_key;
use super::useless::useless_reply_position;
use super::value::{Depth, INF, Val, settle, sum_unsolved};
use crate::rules::movegen::{generate_checks, generate_evasions, interposition};
use crate::rules::{Bitboard, Hand, Move, MoveList, PieceKind, Square};

/// One child of a node in the search.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Child {
    /// The move to it.
    pub(crate) mv: Move,
    /// The value of the position after `mv`.
    pub(crate) val: Val,
    /// Q′ of a useless-interposition candidate (`has_q`).
    pub(crate) q: Val,
    /// Whether the child is a useless-interposition candidate with a Q′.
    pub(crate) has_q: bool,
    /// Delayed interpositions still to try on this square (bit i = `PieceKind::HAND[i]`).
    pub(crate) rest: u8,
    /// The largest contribution (plies from the parent) of the pieces already proven
    /// useless on this square (`acc`).
    pub(crate) acc_len: Depth,
    /// Their proof pieces (`acc`).
    pub(crate) acc_hand: Hand,
    /// Whether pieces on this square were proven mated before the present one.
    pub(crate) acc: bool,
    /// Whether the proof of one of those holds for this hand alone (`acc`).
    pub(crate) acc_exact: bool,
    /// Whether the proof of one of those holds on this path alone (`acc`).
    pub(crate) acc_rep: bool,
    /// Whether the useless-interposition rule set Q′ aside here: Q′ is mated within the
    /// plies left but not within the length the defender has without interposing
    /// ([`Searcher::settle_useless`]), so the interposition is a defence like any other.
    pub(crate) q_out: bool,
    /// The pieces still to drop on this square when Q′ was taken to answer them all
    /// (`rest` before [`Searcher::advance_delayed`] cleared it), given back should the rule
    /// set Q′ aside.
    pub(crate) q_rest: u8,
}

impl Child {
    /// A child reached by `mv` with value `val`.
    pub(crate) fn new(mv: Move, val: Val) -> Child {
        Child {
            mv,
            val,
            q: Val::unknown(1, 1, Hand::EMPTY),
            has_q: false,
            rest: 0,
            acc_len: Depth::ZERO,
            acc_hand: Hand::EMPTY,
            acc: false,
            acc_exact: false,
            acc_rep: false,
            q_out: false,
            q_rest: 0,
        }
    }

    /// Whether Q′ may still answer this interposition: a candidate whose Q′ the rule has not
    /// set aside.
    #[inline]
    pub(crate) fn q_open(&self) -> bool {
        self.has_q && !self.q_out
    }

    /// (pn, dn) as a child of an AND node: the ordinary continuation or Q′, whichever
    /// proves first.
    #[inline]
    pub(crate) fn and_pn_dn(&self) -> (u32, u32) {
        if self.q_open() {
            settle(
                self.val.pn.min(self.q.pn),
                self.val.dn.saturating_add(self.q.dn),
            )
        } else {
            (self.val.pn, self.val.dn)
        }
    }

    /// Whether this proven child of an AND node is answered by its Q′ alone (its own
    /// continuation not proven): the useless-interposition rule sets it aside, which
    /// [`Searcher::settle_useless`] confirms before the node counts as proven.
    #[inline]
    pub(crate) fn by_q(&self) -> bool {
        self.q_open() && self.q.is_proven() && !self.val.is_proven()
    }

    /// Plies this (proven) child of an AND node adds, and its proof pieces: its continuation
    /// (one ply more), or, answered by its Q′ alone, Q′'s (no ply: the interposition costs
    /// none); at least as long as the pieces dropped on the square before it.
    pub(crate) fn and_contribution(&self) -> (Depth, Hand) {
        let (mut len, mut hand) = if self.val.is_proven() {
            (self.val.len.plus_one(), self.val.hand)
        } else if self.by_q() {
            (self.q.len, self.q.hand)
        } else {
            (Depth::ZERO, Hand::EMPTY)
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
pub(crate) struct Level {
    /// The children of the node at this level.
    pub(crate) children: Vec<Child>,
    /// Their board keys while the node is expanded (at an AND node, 0 for a drop delayed
    /// behind another piece on its square: not looked up then).
    pub(crate) boards: Vec<u64>,
    /// The ranging checker against which interpositions are made (AND nodes).
    pub(crate) checker: Option<Square>,
    /// What the useless-interposition rule's comparison of replies has told at this AND
    /// node ([`Searcher::settle_useless`]).
    pub(crate) rule: RuleOutcome,
}

/// What the useless-interposition rule's comparison of an AND node's replies rested on:
/// whatever it decided holds for the exact attacker hand alone (`exact`), and, when a
/// repetition on the path made one of the other replies last, on this path alone (`rep`).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RuleOutcome {
    /// An interposition was set aside, or kept, by the comparison.
    pub(crate) exact: bool,
    /// The comparison met a repetition on the path.
    pub(crate) rep: bool,
}

/// (pn, dn) of a node from its children. At an OR node the disproof number is the sum of
/// the children's, but the drops of one quail kind count once, as their largest: a quail
/// checks along a line, and its drops at different distances on it are refuted alike (the
/// same capture or interposition), so summing them would make the node look far harder to
/// disprove than it is (KomoringHeights counts the drops of its ranging pieces so).
#[inline]
pub(crate) fn node_pn_dn(children: &[Child], or_node: bool) -> (u32, u32) {
    if or_node {
        let mut pn = INF;
        let mut dn = 0u32;
        let mut lq = 0u32;
        let mut rq = 0u32;
        for c in children {
            pn = pn.min(c.val.pn);
            if c.mv.is_drop() && c.mv.drop_kind() == PieceKind::LeftQuail {
                lq = lq.max(c.val.dn);
            } else if c.mv.is_drop() && c.mv.drop_kind() == PieceKind::RightQuail {
                rq = rq.max(c.val.dn);
            } else {
                dn = sum_unsolved(dn, c.val.dn);
            }
        }
        dn = sum_unsolved(sum_unsolved(dn, lq), rq);
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

/// The child to search (smallest pn at OR nodes, smallest dn at AND nodes; the first on
/// ties, or the last with `last_on_ties`) and the second-smallest value.
#[inline]
pub(crate) fn select(children: &[Child], or_node: bool, last_on_ties: bool) -> (usize, u32) {
    let mut best = usize::MAX;
    let mut best_v = u32::MAX;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        let v = if or_node { c.val.pn } else { c.and_pn_dn().1 };
        if v < best_v || (last_on_ties && v == best_v) {
            second = best_v.min(second);
            best_v = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second.min(INF))
}

impl Searcher {
    /// Computes the value of a solved node from its children.
    pub(crate) fn finalize(&self, level: usize, or_node: bool) -> Val {
        let children = &self.levels[level].children;
        let pos = &self.pos;
        let exact = pos.hand(self.attacker);
        if or_node {
            // Proven: the shortest proven child (one whose proof holds for other hands and
            // paths first, among equally short ones). Disproven: every child.
            let mut best: Option<(Depth, bool, &Child)> = None;
            for c in children.iter().filter(|c| c.val.is_proven()) {
                let len = c.val.len.plus_one();
                let narrow = c.val.exact || c.val.rep;
                if best.is_none_or(|b| (len, narrow) < (b.0, b.1)) {
                    best = Some((len, narrow, c));
                }
            }
            if let Some((len, _, c)) = best {
                let hand = hand_before(pos, c.mv, c.val.hand);
                let mut v = Val::proven(len, hand.min(exact));
                v.best = c.mv.raw();
                v.rep = c.val.rep;
                v.exact = c.val.exact || c.val.rep;
                if v.exact {
                    v.hand = exact;
                }
                return v;
            }
            let mut len = Depth::UNLIMITED;
            let mut hand = full_hand();
            let mut rep = false;
            let mut narrow = false;
            for c in children {
                len = len.min(c.val.len.plus_one());
                hand = hand.min(hand_before(pos, c.mv, c.val.hand));
                rep |= c.val.rep;
                narrow |= c.val.exact;
            }
            let hand = disproof_or_adjust(pos, hand).max(exact);
            let mut v = Val::disproven(len, hand, rep);
            if narrow && !rep {
                v.exact = true;
                v.hand = exact;
            }
            v
        } else {
            let rule = &self.levels[level].rule;
            let mut disproof: Option<Val> = None;
            for c in children {
                let (_, cdn) = c.and_pn_dn();
                if cdn != 0 {
                    continue;
                }
                let mut v = if c.q_open() {
                    let mut v = Val::disproven(
                        c.q.len.min(c.val.len.plus_one()),
                        c.q.hand.min(disproof_and_adjust(pos, c.mv, c.val.hand)),
                        c.q.rep || c.val.rep,
                    );
                    v.exact = c.q.exact || c.val.exact;
                    v
                } else {
                    let mut v = Val::disproven(
                        c.val.len.plus_one(),
                        disproof_and_adjust(pos, c.mv, c.val.hand),
                        c.val.rep,
                    );
                    v.exact = c.val.exact;
                    v
                };
                if c.q_out {
                    // Refuted because the rule set Q′ aside: that comparison of replies
                    // holds for this hand (and, when it met a repetition, this path) alone.
                    v.exact = true;
                    v.rep |= rule.rep;
                }
                // Prefer a disproof that holds on every path and hand, then the longest.
                let better = match &disproof {
                    None => true,
                    Some(d) => {
                        (d.rep, d.exact, std::cmp::Reverse(d.len))
                            > (v.rep, v.exact, std::cmp::Reverse(v.len))
                    }
                };
                if better {
                    v.best = c.mv.raw();
                    disproof = Some(v);
                }
            }
            if let Some(mut v) = disproof {
                v.hand = if v.exact || v.rep {
                    exact
                } else {
                    v.hand.max(exact)
                };
                return v;
            }
            let mut len = Depth::ZERO;
            let mut hand = Hand::EMPTY;
            let mut rep = rule.rep;
            let mut narrow = rule.exact;
            for c in children {
                let (l, h) = c.and_contribution();
                len = len.max(l);
                hand = hand.max(h);
                let used = if c.val.is_proven() { &c.val } else { &c.q };
                rep |= used.rep || c.acc_rep;
                narrow |= used.exact || c.acc_exact;
            }
            let mut v = Val::proven(len, proof_and_adjust(pos, hand).min(exact));
            if narrow || rep {
                v.exact = true;
                v.rep = rep;
                v.hand = exact;
            }
            v
        }
    }

    /// After child `i` of an AND node was searched: if it is a delayed interposition that is
    /// now proven, the next piece takes its place on the square.
    pub(crate) fn advance_delayed(&mut self, level: usize, i: usize, depth: Depth, path_key: u64) {
        loop {
            let c = self.levels[level].children[i];
            if c.rest == 0 || c.and_pn_dn().0 != 0 {
                return;
            }
            if c.by_q() {
                // Q′ is the same for every piece dropped here: the rule sets them all aside
                // or none. Each piece still to come is a defence Q′ answers, adding what Q′
                // adds (at most: its own continuation is not searched). They are given back
                // should the rule set Q′ aside ([`Searcher::settle_useless`]).
                let ch = &mut self.levels[level].children[i];
                ch.q_rest = ch.rest;
                ch.rest = 0;
                return;
            }
            let (len, hand) = c.and_contribution();
            let k = c.rest.trailing_zeros() as usize;
            let mv = Move::drop(PieceKind::HAND[k], c.mv.to());
            let val = self.evaluate_or_child(mv, depth, path_key);
            let ch = &mut self.levels[level].children[i];
            ch.acc_exact |= ch.val.exact || ch.val.rep;
            ch.acc_rep |= ch.val.rep;
            ch.rest &= ch.rest - 1;
            ch.acc = true;
            ch.acc_len = len;
            ch.acc_hand = hand;
            ch.mv = mv;
            ch.val = val;
        }
    }
}

impl Searcher {
    /// Expands an OR node: its checks, each looked up or estimated, with the 1-ply mate
    /// check. Returns a value when the node is solved at once, and whether a repetition was
    /// met (for TCA).
    pub(super) fn expand_or(
        &mut self,
        level: usize,
        depth: Depth,
        path_key: u64,
    ) -> (Option<Val>, bool) {
        let hand = self.pos.hand(self.attacker);
        if depth == Depth::ZERO {
            return (Some(Val::disproven(Depth::ZERO, full_hand(), false)), false);
        }
        let mut moves = MoveList::new();
        generate_checks(&self.pos, &mut moves);
        if moves.is_empty() {
            return (Some(self.terminal_disproof(hand)), false);
        }
        // Each child's board key once: for the prefetch, the lookup and its full key (the
        // quick refutations at three plies look every check up too).
        let mut boards = std::mem::take(&mut self.levels[level].boards);
        boards.clear();
        for &m in moves.iter() {
            let b = self.pos.board_key_after(m);
            self.table.prefetch(self.tt_key(b));
            boards.push(b);
        }
        if depth == Depth::plies(3)
            && self.techniques.quick_refutations
            && let Some(v) = self.refute_all_at_three(&moves, &boards, path_key)
        {
            self.levels[level].boards = boards;
            return (Some(v), false);
        }
        let cdepth = depth.child();
        let mut inc = false;
        let mut children = std::mem::take(&mut self.levels[level].children);
        children.clear();
        for (i, &m) in moves.iter().enumerate() {
            let child_key = boards[i] ^ self.pos.hand_key_after(m);
            if self.path.contains(child_key) {
                inc = true;
                children.push(Child::new(m, Val::disproven(Depth::UNLIMITED, hand, true)));
                continue;
            }
            let chand = self.pos.hand_after(m);
            let board = self.tt_key(boards[i]);
            let cpath = child_path_key(path_key, child_key);
            let found = self.table.lookup(board, chand, cdepth, cpath);
            let val = match Val::from_found(found, chand) {
                Some(v) => v,
                None => self.estimate_and_child(m, cdepth, child_key),
            };
            inc |= val.rep;
            let mate_in_one = val.is_proven() && val.len == Depth::ZERO;
            children.push(Child::new(m, val));
            if mate_in_one {
                break;
            }
        }
        self.levels[level].children = children;
        self.levels[level].boards = boards;
        (None, inc)
    }

    /// Expands an AND node: every evasion (drops on one square delayed behind the weakest
    /// piece), Q′ for useless-interposition candidates in depth-limited searches.
    pub(super) fn expand_and(
        &mut self,
        level: usize,
        depth: Depth,
        path_key: u64,
    ) -> (Option<Val>, bool) {
        let hand = self.pos.hand(self.attacker);
        let mut moves = MoveList::new();
        generate_evasions(&self.pos, &mut moves);
        if moves.is_empty() {
            return (Some(self.terminal_proof(hand)), false);
        }
        // The ranging checker interpositions are made against.
        let (block, checker) = match interposition(&self.pos) {
            Some((b, c)) => (b, Some(c)),
            None => (Bitboard::EMPTY, None),
        };
        let useless_rule = self.useless_rule && !depth.is_unlimited() && block.any();
        if depth == Depth::plies(2)
            && self.techniques.quick_refutations
            && let Some(v) = self.refute_at_two(
                &moves,
                if useless_rule { block } else { Bitboard::EMPTY },
                path_key,
            )
        {
            return (Some(v), false);
        }
        if depth < Depth::plies(2) && !(useless_rule && moves.iter().any(|m| block.has(m.to()))) {
            // No ply left for the attacker, and no interposition that might be useless.
            return (Some(Val::disproven(depth, hand, false)), false);
        }
        let mut children = std::mem::take(&mut self.levels[level].children);
        children.clear();
        let mut inc = false;
        let mut refuted = None;
        let mut mated_drop = false;
        let mut seen_drop_squares = Bitboard::EMPTY;
        // Each child's board key once, for the prefetch and the lookup (0 for a drop on a
        // square already listed: delayed, it is not looked up now).
        let mut boards = std::mem::take(&mut self.levels[level].boards);
        boards.clear();
        for &m in moves.iter() {
            if !(m.is_drop() && seen_drop_squares.has(m.to())) {
                let b = self.pos.board_key_after(m);
                self.table.prefetch(self.tt_key(b));
                boards.push(b);
            } else {
                boards.push(0);
            }
            if m.is_drop() {
                seen_drop_squares |= Bitboard::from_square(m.to());
            }
        }
        seen_drop_squares = Bitboard::EMPTY;
        for (i, &m) in moves.iter().enumerate() {
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
            let board_after = match boards[i] {
                0 => self.pos.board_key_after(m),
                b => b,
            };
            let val = self.evaluate_or_child_on(m, board_after, depth, path_key);
            inc |= val.rep;
            let mut child = Child::new(m, val);
            if useless_rule && block.has(m.to()) {
                let c = checker.expect("checker");
                if let Some(q) = useless_reply_position(&self.pos, m, c) {
                    child.has_q = true;
                    child.q = self.q_value(&q, depth, path_key);
                }
            }
            children.push(child);
            // A reply that refutes the node for good (no mate at any length, on any path):
            // no later reply can give a better disproof (the first of the best is kept), and
            // while no earlier interposition is mated, no piece delayed behind one comes
            // forward, so the node is settled without estimating the rest.
            if self.techniques.early_refutation
                && !mated_drop
                && !child.has_q
                && child.val.dn == 0
                && !child.val.rep
                && child.val.len.is_unlimited()
            {
                break;
            }
            mated_drop |= m.is_drop() && child.and_pn_dn().0 == 0;
        }
        // The reply that refuted this board with another attacker hand (a disproof the
        // lookup could not use): tried first.
        if self.techniques.refutation_hints
            && let Some(best) = self
                .table
                .refutation_hint(self.tt_key(self.pos.board_key()))
            && let Some(c) = children
                .iter_mut()
                .find(|c| c.mv.raw() == best && !c.has_q && c.rest == 0)
            && c.val.dn > 1
            && c.val.pn != 0
        {
            c.val.dn = 1;
        }
        let n = children.len();
        self.levels[level].children = children;
        self.levels[level].boards = boards;
        self.levels[level].checker = checker;
        self.levels[level].rule = RuleOutcome::default();
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
            let v = self.finalize(level, false);
            return (Some(v), inc);
        }
        (None, inc)
    }
}

#[cfg(test)]
#[path = "expansion_tests.rs"]
mod tests;
