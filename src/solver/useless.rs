//! The useless-interposition rule in the search (docs/RULES.md "Useless interposition"): an
//! interposition on square s against a ranging checker is answered, besides by its ordinary
//! continuation, by the position Q′ the checker's capture on s would reach with the captured
//! piece back in the defender's hand. The interposition is useless, adding nothing and
//! costing no plies, when Q′ is mated within the length R the defender has without
//! interposing: the longest of its other replies, counted from the defender's node (0 when
//! it has none). Only depth-limited searches apply the rule (the length of a mate is what it
//! changes).
//!
//! The search takes it in two steps. While an AND node with `d` plies left is searched, an
//! interposition's Q′ is searched within `d` (R is at most `d`): a Q′ not mated within `d`
//! answers nothing. Once the node is proven, [`Searcher::settle_useless`] finds R exactly and
//! keeps only the Q′ mated within it; any other sends its interposition back to be refuted or
//! proven like any defence. What that comparison decides holds for the attacker's exact hand
//! alone (more pieces can shorten the other replies, fewer lengthen them, either way turning
//! the comparison), so the values resting on it are kept for that hand alone
//! ([`super::value::Val::exact`]).

use super::dfpn::Searcher;
use super::expansion::Child;
use super::path::child_path_key;
use super::value::{Depth, INF, Val};
use crate::rules::movegen::generate_checks;
use crate::rules::{Move, MoveList, Position, Square};

/// Q′ of an interposition: the position after the defender's interposition `m` on square
/// s and the checker's capture there, with the captured piece back in the defender's hand,
/// defender to move. `None` when the capture is not a legal check or the result is not a
/// legal position. Played out on a copy (interposition, capture, the piece handed back)
/// rather than built and validated from scratch: the search asks for it at every
/// interposition.
pub(crate) fn useless_reply_position(pos: &Position, m: Move, checker: Square) -> Option<Position> {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let s = m.to();
    let cp = pos.piece_at(checker)?;
    if cp.color != attacker {
        return None;
    }
    let mut q = pos.clone();
    q.do_move(m);
    let capture = Move::normal(
        checker,
        s,
        Position::promotes(attacker, cp.kind, checker, s),
    );
    if q.phoenix(attacker).is_some() {
        // The capture must be legal for the attacker, its own phoenix not left in check.
        let mut list = MoveList::new();
        generate_checks(&q, &mut list);
        if !list.contains(capture) {
            return None;
        }
    }
    let taken = q.do_move(capture)?;
    q.pass_hand_piece(attacker, taken.unpromoted());
    // Q′ must still be the defender in check (it always is when the checker captured along
    // its line) — anything else is not the situation the rule describes.
    if !q.in_check() {
        return None;
    }
    debug_assert_eq!(
        Some(q.key()),
        built_from_setup(pos, m, checker).map(|b| b.key()),
        "Q′ played out and built agree"
    );
    Some(q)
}

/// Q′ built from a description of the position and validated (the definition, kept to
/// check the fast construction against in debug builds).
#[cfg(debug_assertions)]
fn built_from_setup(pos: &Position, m: Move, checker: Square) -> Option<Position> {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let s = m.to();
    let cp = pos.piece_at(checker)?;
    let mut setup = pos.to_setup();
    setup.board[checker.index()] = None;
    let kind = cp
        .kind
        .after_move(Position::promotes(attacker, cp.kind, checker, s));
    setup.board[s.index()] = Some(crate::rules::Piece::new(attacker, kind));
    if !m.is_drop() {
        let from = m.from();
        let p = pos.piece_at(from)?;
        setup.board[from.index()] = None;
        setup.hands[defender.index()][p.kind.unpromoted().index()] += 1;
    }
    let q = Position::from_setup_with_defender(&setup, defender).ok()?;
    q.in_check().then_some(q)
}

#[cfg(not(debug_assertions))]
fn built_from_setup(_: &Position, _: Move, _: Square) -> Option<Position> {
    None
}

impl Searcher {
    /// The starting value of Q′ `q` of an AND node's child searched within `depth` (the
    /// node's own depth: the interposition and its capture cost no plies).
    pub(crate) fn q_value(&self, q: &Position, depth: Depth, path_key: u64) -> Val {
        let hand = q.hand(self.attacker);
        let key = q.key();
        if self.path.contains(key) {
            return Val::disproven(Depth::UNLIMITED, hand, true);
        }
        let found = self.table.lookup(
            self.tt_key(q.board_key()),
            hand,
            depth,
            child_path_key(path_key, key),
        );
        Val::from_found(found, hand).unwrap_or_else(|| Val::unknown(1, 1, hand))
    }

    /// Searches Q′ of child `i` of the AND node at `level` within the thresholds.
    pub(crate) fn search_q(
        &mut self,
        level: usize,
        i: usize,
        th_pn: u32,
        th_dn: u32,
        depth: Depth,
        path_key: u64,
    ) -> Val {
        let c = self.levels[level].children[i];
        let checker = self.levels[level].checker.expect("a checker for Q'");
        let Some(q) = useless_reply_position(&self.pos, c.mv, checker) else {
            return Val::disproven(Depth::ZERO, self.pos.hand(self.attacker), false);
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

    /// At the AND node of `level`, found proven with `depth` plies left (every child mated,
    /// some interpositions answered by their Q′ alone): the useless-interposition rule's
    /// comparison. Keeps the Q′ mated within R, the length the node has without interposing,
    /// and sets the others aside (`q_out`), giving back the pieces a set-aside Q′ answered.
    /// `Some(true)` when the proof stands, `Some(false)` when a Q′ was set aside (the node is
    /// searched on), `None` when a limit stopped the comparison.
    pub(crate) fn settle_useless(
        &mut self,
        level: usize,
        depth: Depth,
        path_key: u64,
    ) -> Option<bool> {
        if !self.levels[level].children.iter().any(Child::by_q) {
            return Some(true);
        }
        let (r, rep) = self.without_interposing(level, depth, path_key)?;
        let mut stands = true;
        for i in 0..self.levels[level].children.len() {
            let c = self.levels[level].children[i];
            if !c.by_q() {
                continue;
            }
            let within = if c.q.len <= Depth::plies(r) {
                true
            } else {
                let v = self.search_q(level, i, INF, INF, Depth::plies(r), path_key);
                if !v.is_proven() && !v.is_disproven() {
                    return None;
                }
                v.is_proven()
            };
            let outcome = &mut self.levels[level].rule;
            // Mated at once, Q′ is mated within any R: that holds for any hand.
            outcome.exact |= c.q.len > Depth::ZERO || !within;
            outcome.rep |= rep;
            let ch = &mut self.levels[level].children[i];
            if !within {
                ch.q_out = true;
                ch.rest |= ch.q_rest;
                ch.q_rest = 0;
                stands = false;
            }
        }
        Some(stands)
    }

    /// R at the AND node of `level` (every reply but the interpositions proven mated within
    /// `depth − 1`): the longest of those replies, plies counted from the node, found by
    /// searching them within two plies less at a time until one is not mated; 0 without
    /// them. With whether a repetition on the path made one last (`None`: a limit stopped a
    /// search).
    fn without_interposing(
        &mut self,
        level: usize,
        depth: Depth,
        path_key: u64,
    ) -> Option<(u16, bool)> {
        let others: Vec<(Move, Depth)> = self.levels[level]
            .children
            .iter()
            .filter(|c| !c.has_q)
            .map(|c| (c.mv, c.val.len))
            .collect();
        let Some(most) = others.iter().map(|&(_, len)| len.plus_one()).max() else {
            return Some((0, false));
        };
        debug_assert!(most <= depth);
        let mut k = most.plies_of_finite();
        // Each other reply is an attacker node, mated in an odd number of plies: R is even,
        // at least 2. It is `k` when a reply is not mated within `k − 3`.
        while k > 2 {
            let below = Depth::plies(k - 3);
            let mut lasts = None;
            for &(mv, len) in &others {
                if len <= below {
                    continue;
                }
                let captured = self.pos.do_move(mv);
                let key = self.pos.key();
                let fresh = self.path.insert(key);
                let v = self.mid(INF, INF, below, level + 1, child_path_key(path_key, key));
                if fresh {
                    self.path.remove(key);
                }
                self.pos.undo_move(mv, captured);
                if v.is_disproven() {
                    lasts = Some(v.rep);
                    break;
                }
                if !v.is_proven() {
                    return None;
                }
            }
            if let Some(rep) = lasts {
                return Some((k, rep));
            }
            k -= 2;
        }
        Some((k.min(2), false))
    }
}
