//! Proof pieces and disproof pieces: the smallest attacker hand a proof needs and the largest
//! a disproof tolerates, computed bottom-up as nodes are solved, so that one table entry
//! answers every hand it covers (see [`super::table`]).
//!
//! The adjustments that make this sound with drops (the idea of KomoringHeights' hand sets):
//! - an OR node disproved with a hand lacking kind K could be mated by dropping a K the
//!   larger hand would hold, so K leaves the disproof pieces when some K drop would check;
//! - an AND node proved while the defender lacks K might be saved by interposing a K it would
//!   hold if the attacker held fewer, so the proof pieces keep all of the attacker's K when an
//!   interposition is possible;
//! - an AND node disproved by the defender dropping K needs the defender to keep a K.

use crate::rules::attacks::{attacks, last_rank};
use crate::rules::movegen::{full_swallow_files, interposition};
use crate::rules::{Color, Hand, Move, PieceKind, Position};

/// Every hand piece of the game: the largest possible hand.
pub fn full_hand() -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, k.total() as u32);
    }
    h
}

/// `h` with one more `k`, capped at the number of `k` in the game.
#[inline]
fn add_capped(h: Hand, k: PieceKind) -> Hand {
    if h.count(k) < k.total() as u32 {
        h.with(k)
    } else {
        h
    }
}

/// `h` with one fewer `k`, if it has one.
#[inline]
fn sub_floor(h: Hand, k: PieceKind) -> Hand {
    if h.has(k) { h.without(k) } else { h }
}

/// The attacker hand needed before move `m` (played by the side to move of `pos`) given
/// the hand needed after it: a drop needs its piece, a capture supplies one. Used for proof
/// pieces at OR nodes and disproof pieces from OR nodes' children alike.
#[inline]
pub fn hand_before(pos: &Position, m: Move, after: Hand) -> Hand {
    if m.is_drop() {
        add_capped(after, m.drop_kind())
    } else if let Some(p) = pos.piece_at(m.to()) {
        sub_floor(after, p.kind.unpromoted())
    } else {
        after
    }
}

/// Disproof pieces of an OR node (attacker to move) from the combination of its children's:
/// kinds the attacker does not hold but could check with by a drop are removed.
pub fn disproof_or_adjust(pos: &Position, mut d: Hand) -> Hand {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    let Some(e) = pos.phoenix(us.flip()) else {
        return d;
    };
    let empty = !pos.occupied();
    for k in PieceKind::HAND {
        if hand.has(k) || !d.has(k) {
            continue;
        }
        let mut squares = attacks(us.flip(), k, e, pos.occupied()) & empty;
        if k == PieceKind::Swallow {
            squares = squares - last_rank(us) - full_swallow_files(pos, us);
        }
        if squares.any() {
            d.set(k, 0);
        }
    }
    d.min(hand_cap(pos, us))
}

/// The most the attacker (`attacker`) could hold in `pos`: its hand plus the defender's.
fn hand_cap(pos: &Position, attacker: Color) -> Hand {
    pos.hand(attacker).plus(pos.hand(attacker.flip()))
}

/// Proof pieces of an AND node (defender to move, in check) from the union of its
/// children's: when the check can be blocked, kinds the defender lacks are kept in full.
pub fn proof_and_adjust(pos: &Position, mut p: Hand) -> Hand {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let ah = pos.hand(attacker);
    let dh = pos.hand(defender);
    if let Some((block, _)) = interposition(pos) {
        {
            for kind in PieceKind::HAND {
                if dh.has(kind) || !ah.has(kind) {
                    continue;
                }
                if kind == PieceKind::Swallow {
                    let ok = block - last_rank(defender) - full_swallow_files(pos, defender);
                    if ok.is_empty() {
                        continue;
                    }
                }
                p.set(kind, ah.count(kind));
            }
        }
    }
    p
}

/// Disproof pieces of an AND node refuted by the defender's move `m` whose child has
/// disproof pieces `child`: a refuting drop of K needs the defender to keep a K, so the
/// attacker may hold at most all the other Ks.
pub fn disproof_and_adjust(pos: &Position, m: Move, child: Hand) -> Hand {
    if !m.is_drop() {
        return child;
    }
    let defender = pos.side_to_move();
    let k = m.drop_kind();
    let limit = pos.hand(defender.flip()).count(k) + pos.hand(defender).count(k) - 1;
    let mut d = child;
    if d.count(k) > limit {
        d.set(k, limit);
    }
    d
}

/// Proof pieces of an AND node that is mated (no legal reply).
pub fn proof_terminal(pos: &Position) -> Hand {
    proof_and_adjust(pos, Hand::EMPTY)
}

/// Disproof pieces of an OR node with no checking move.
pub fn disproof_terminal(pos: &Position) -> Hand {
    disproof_or_adjust(pos, full_hand())
}
