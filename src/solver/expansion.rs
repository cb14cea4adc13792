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
        }
    }

    /// (pn, dn) as a child of an AND node: the ordinary continuation or Q′, whichever
    /// proves first.
    #[inline]
    pub(crate) fn and_pn_dn(&self) -> (u32, u32) {
        if self.has_q {
            settle(
                self.val.pn.min(self.q.pn),
                self.val.dn.saturating_add(self.q.dn),
            )
        } else {
            (self.val.pn, self.val.dn)
        }
    }

    /// Plies this (proven) child of an AND node adds, and its proof pieces: the shorter of
    /// its continuation (one ply more) and its Q′ (no ply: the interposition costs none),
    /// at least as long as the pieces dropped on the square before it.
    pub(crate) fn and_contribution(&self) -> (Depth, Hand) {
        let q = (self.has_q && self.q.is_proven()).then_some((self.q.len, self.q.hand));
        let v = self
            .val
            .is_proven()
            .then_some((self.val.len.plus_one(), self.val.hand));
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
            (None, None) => (Depth::ZERO, Hand::EMPTY),
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
            // Proven: the shortest proven child. Disproven: every child.
            let mut best: Option<(Depth, Hand, u16)> = None;
            for c in children.iter().filter(|c| c.val.is_proven()) {
                let len = c.val.len.plus_one();
                if best.is_none_or(|b| len < b.0) {
                    best = Some((len, hand_before(pos, c.mv, c.val.hand), c.mv.raw()));
                }
            }
            if let Some((len, hand, mv)) = best {
                let mut v = Val::proven(len, hand.min(exact));
                v.best = mv;
                return v;
            }
            let mut len = Depth::UNLIMITED;
            let mut hand = full_hand();
            let mut rep = false;
            for c in children {
                len = len.min(c.val.len.plus_one());
                hand = hand.min(hand_before(pos, c.mv, c.val.hand));
                rep |= c.val.rep;
            }
            let hand = disproof_or_adjust(pos, hand).max(exact);
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
                        c.q.len.min(c.val.len.plus_one()),
                        c.q.hand.min(disproof_and_adjust(pos, c.mv, c.val.hand)),
                        c.q.rep || c.val.rep,
                    )
                } else {
                    Val::disproven(
                        c.val.len.plus_one(),
                        disproof_and_adjust(pos, c.mv, c.val.hand),
                        c.val.rep,
                    )
                };
                // Prefer a disproof that holds on every path, then the longest.
                let better = match &disproof {
                    None => true,
                    Some(d) => (d.rep && !v.rep) || (d.rep == v.rep && v.len > d.len),
                };
                if better {
                    let mut v = v;
                    v.best = c.mv.raw();
                    disproof = Some(v);
                }
            }
            if let Some(mut v) = disproof {
                v.hand = v.hand.max(exact);
                return v;
            }
            let mut len = Depth::ZERO;
            let mut hand = Hand::EMPTY;
            for c in children {
                let (l, h) = c.and_contribution();
                len = len.max(l);
                hand = hand.max(h);
            }
            Val::proven(len, proof_and_adjust(pos, hand).min(exact))
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
            if c.has_q && c.q.is_proven() {
                // Q′ is the same for every piece dropped here: all are useless. Each piece
                // still to come is a defence Q′ answers, so it adds Q′'s length and proof
                // pieces (at most: its own continuation is not searched) to the square's.
                // (Without earlier pieces, `acc_len` and `acc_hand` are zero and empty.)
                let ch = &mut self.levels[level].children[i];
                ch.acc = true;
                ch.acc_len = ch.acc_len.max(ch.q.len);
                ch.acc_hand = ch.acc_hand.max(ch.q.hand);
                ch.rest = 0;
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
mod tests {
    use super::*;
    use crate::rules::Square;

    fn mv() -> Move {
        Move::drop(PieceKind::Swallow, Square::all().next().expect("a square"))
    }

    fn hand(n: u32) -> Hand {
        let mut h = Hand::EMPTY;
        h.set(PieceKind::Swallow, n);
        h
    }

    #[test]
    fn an_and_child_with_q_proves_by_either_and_disproves_by_both() {
        let mut c = Child::new(mv(), Val::unknown(5, 3, Hand::EMPTY));
        assert_eq!(c.and_pn_dn(), (5, 3));
        c.has_q = true;
        c.q = Val::unknown(2, 4, Hand::EMPTY);
        // Proven when either is: the smaller pn; disproven only when both are: the sum.
        assert_eq!(c.and_pn_dn(), (2, 7));
        c.q = Val::proven(Depth::plies(3), Hand::EMPTY);
        assert_eq!(c.and_pn_dn(), (0, INF));
        c.q = Val::disproven(Depth::plies(3), Hand::EMPTY, false);
        // Q′ refuted: the continuation alone decides.
        assert_eq!(c.and_pn_dn(), (5, 3));
    }

    #[test]
    fn contribution_takes_the_shorter_proof_and_the_longest_earlier_piece() {
        // Continuation mated in 4 (5 plies from the parent) with one swallow; Q′ in 3 plies
        // (no ply for the interposition itself) with two.
        let mut c = Child::new(mv(), Val::proven(Depth::plies(4), hand(1)));
        assert_eq!(c.and_contribution(), (Depth::plies(5), hand(1)));
        c.has_q = true;
        c.q = Val::proven(Depth::plies(3), hand(2));
        assert_eq!(c.and_contribution(), (Depth::plies(3), hand(2)));
        // An earlier, weaker piece on the square needed 7 plies and no swallow.
        c.acc = true;
        c.acc_len = Depth::plies(7);
        c.acc_hand = Hand::EMPTY;
        assert_eq!(c.and_contribution(), (Depth::plies(7), hand(2)));
    }

    #[test]
    fn pieces_still_to_drop_behind_a_useless_square_add_what_q_needs() {
        // An interposition square of an AND node (mated within 22): the swallow dropped
        // there first is mated in 15 more plies with no swallow in the attacker's hand, and
        // Q′ is mated in 22 with one. The falcon and the crane still to come on the square
        // are useless too, but only through Q′: each lasts 22 plies, and needs the swallow.
        // The square must say so, or the node would claim a mate in 16 that holds without
        // the swallow (a wrong proof, met on three threads in problems/long.jsonl).
        let pos =
            crate::notation::parse_position("3F3/k1s4/7/7/7/7/7 b FPR3S 1").expect("a position");
        let mut s = Searcher::new(pos, 1, super::super::Techniques::default(), 1, false)
            .expect("a searcher");
        let mut c = Child::new(mv(), Val::proven(Depth::plies(15), Hand::EMPTY));
        c.has_q = true;
        c.q = Val::proven(Depth::plies(22), hand(1));
        c.rest = 1 << PieceKind::Falcon.index() | 1 << PieceKind::Crane.index();
        s.levels = vec![Level::default()];
        s.levels[0].children.push(c);
        s.advance_delayed(0, 0, Depth::plies(22), 0);
        let c = s.levels[0].children[0];
        assert_eq!(c.rest, 0);
        assert_eq!(c.and_contribution(), (Depth::plies(22), hand(1)));
        // With nothing left to drop, the square is the present piece's alone: the shorter
        // of its continuation and Q′.
        let mut alone = Child::new(mv(), Val::proven(Depth::plies(15), Hand::EMPTY));
        alone.has_q = true;
        alone.q = Val::proven(Depth::plies(22), hand(1));
        s.levels[0].children[0] = alone;
        s.advance_delayed(0, 0, Depth::plies(22), 0);
        assert_eq!(
            s.levels[0].children[0].and_contribution(),
            (Depth::plies(16), Hand::EMPTY)
        );
    }

    #[test]
    fn node_numbers_and_selection() {
        let kids = [
            Child::new(mv(), Val::unknown(4, 2, Hand::EMPTY)),
            Child::new(mv(), Val::unknown(1, 6, Hand::EMPTY)),
            Child::new(mv(), Val::unknown(3, 1, Hand::EMPTY)),
        ];
        // OR: pn the minimum, dn the sum; AND: pn the sum, dn the minimum.
        assert_eq!(node_pn_dn(&kids, true), (1, 9));
        assert_eq!(node_pn_dn(&kids, false), (8, 1));
        assert_eq!(select(&kids, true, false), (1, 3));
        assert_eq!(select(&kids, false, false), (2, 2));
        // A proven child proves an OR node; a disproven one disproves an AND node.
        let mut solved = kids;
        solved[0].val = Val::proven(Depth::plies(1), Hand::EMPTY);
        assert_eq!(node_pn_dn(&solved, true), (0, INF));
        solved[0].val = Val::disproven(Depth::plies(1), Hand::EMPTY, false);
        assert_eq!(node_pn_dn(&solved, false), (INF, 0));
        // First on ties.
        let tie = [kids[1], kids[1]];
        assert_eq!(select(&tie, true, false), (0, 1));
        assert_eq!(select(&tie, true, true), (1, 1));
    }
}
