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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::rules::Square;

    fn pos(sfen: &str) -> Position {
        parse_position(sfen).expect("a valid position")
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("a square")
    }

    fn hand(counts: &[(PieceKind, u32)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(k, n) in counts {
            h.set(k, n);
        }
        h
    }

    #[test]
    fn a_drop_needs_its_piece_and_a_capture_supplies_one() {
        // Black crane on 4c can take the White swallow on 4b.
        let p = pos("3k3/3s3/3C3/7/7/7/6K b C 1");
        let after = hand(&[(PieceKind::Swallow, 1), (PieceKind::Crane, 1)]);
        // The capture brought the swallow: before it, none was needed.
        let take = Move::normal(sq("4c"), sq("4b"), false);
        assert_eq!(hand_before(&p, take, after), hand(&[(PieceKind::Crane, 1)]));
        // A drop needs one more of its piece, never beyond the pieces of the game (four
        // cranes).
        let drop = Move::drop(PieceKind::Crane, sq("5b"));
        assert_eq!(
            hand_before(&p, drop, after),
            hand(&[(PieceKind::Swallow, 1), (PieceKind::Crane, 2)])
        );
        let all = hand(&[(PieceKind::Crane, 4)]);
        assert_eq!(hand_before(&p, drop, all), all);
        // A capture with nothing of its kind needed leaves the hand as it is.
        assert_eq!(hand_before(&p, take, Hand::EMPTY), Hand::EMPTY);
    }

    #[test]
    fn a_disproof_drops_kinds_the_attacker_could_check_with() {
        // White's phoenix on 4a, its own swallow on 4b: no Black swallow drop can check
        // (the only square, 4b, is taken), so swallows stay in the disproof pieces; a
        // crane is held, so it stays; every other kind could check from an empty square
        // and goes. All capped by the pieces in hands (Black C, White S).
        let p = pos("3k3/3s3/7/7/7/7/6K b Cs 1");
        assert_eq!(
            disproof_terminal(&p),
            hand(&[(PieceKind::Swallow, 1), (PieceKind::Crane, 1)])
        );
        // Without the blocking swallow a dropped swallow on 4b checks: swallows go too.
        let q = pos("3k3/7/7/7/7/7/6K b Cs 1");
        assert_eq!(disproof_terminal(&q), hand(&[(PieceKind::Crane, 1)]));
    }

    #[test]
    fn a_proof_against_a_blockable_check_keeps_the_kinds_the_defender_lacks() {
        // White's phoenix on 4a checked down the file by Black's left quail on 4e: White
        // could interpose on 4b-4d a crane it would hold if Black held fewer, so the proof
        // needs all of Black's cranes.
        let p = pos("3k3/7/7/7/3L3/7/K6 w C 1");
        assert_eq!(proof_terminal(&p), hand(&[(PieceKind::Crane, 1)]));
        // A crane on 4b checks from next door: nothing to interpose, nothing needed.
        let q = pos("3k3/3C3/3C3/7/7/7/K6 w C 1");
        assert_eq!(proof_terminal(&q), Hand::EMPTY);
    }

    #[test]
    fn a_refuting_drop_leaves_the_defender_one_of_its_kind() {
        // Cranes in hands: Black 1, White 1. White's crane drop refutes: the disproof holds
        // while Black holds at most 1 + 1 - 1 = 1 crane.
        let p = pos("3k3/7/7/7/3L3/7/K6 w Cc 1");
        let drop = Move::drop(PieceKind::Crane, sq("4b"));
        let child = hand(&[(PieceKind::Crane, 2), (PieceKind::Swallow, 3)]);
        assert_eq!(
            disproof_and_adjust(&p, drop, child),
            hand(&[(PieceKind::Crane, 1), (PieceKind::Swallow, 3)])
        );
        // A phoenix step needs nothing kept.
        let step = Move::normal(sq("4a"), sq("3a"), false);
        assert_eq!(disproof_and_adjust(&p, step, child), child);
    }
}
