//! The useless-interposition rule in the search (docs/RULES.md "Useless interposition"): an
//! interposition on square s against a ranging checker is answered, besides by its ordinary
//! continuation, by the position Q′ the checker's capture on s would reach with the captured
//! piece back in the defender's hand, at the *same* remaining depth. If Q′ is mated within
//! it, the interposition adds nothing and costs no plies. Only depth-limited searches apply
//! the rule (the length of a mate is what it changes).

use super::dfpn::Searcher;
use super::path::child_path_key;
use super::value::{Depth, Val};
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
}
