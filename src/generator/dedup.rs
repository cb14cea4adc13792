//! Duplicate detection: a canonical key per problem position and per solution shape, both
//! blind to the left-right mirror (which swaps left and right quails).

use crate::rules::{Color, Move, Piece, PieceKind, Position, Setup, Square};

/// The position mirrored left-right: file f ↔ 8 − f, left and right quails swapped (on the
/// board and in hand).
pub fn mirror(pos: &Position) -> Position {
    let s = pos.to_setup();
    let mut m = Setup {
        board: [None; 49],
        hands: s.hands,
        side: s.side,
        move_number: s.move_number,
    };
    for sq in Square::all() {
        if let Some(p) = s.board[sq.index()] {
            m.board[sq.mirror().index()] = Some(Piece::new(p.color, p.kind.mirror()));
        }
    }
    for c in Color::ALL {
        let h = &mut m.hands[c.index()];
        h.swap(PieceKind::LeftQuail.index(), PieceKind::RightQuail.index());
    }
    Position::from_setup_with_defender(&m, pos.side_to_move().flip())
        .expect("the mirror of a legal position is legal")
}

/// The problem's identity: board, side and attacker hand (the defender's hand is implied by
/// the convention), the smaller of the key and its mirror's.
pub fn position_key(pos: &Position) -> u64 {
    let attacker = pos.side_to_move();
    let one = |p: &Position| {
        p.board_key() ^ (p.hand(attacker).raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    };
    one(pos).min(one(&mirror(pos)))
}

/// The position key (of [`position_key`]) of a problem that states the defender's hand
/// (`prepared`, the defender to answer holding it): the hand mixed in, so that it is never
/// taken for the same position under the convention, nor under another stated hand.
pub fn given_hand_key(key: u64, prepared: &Position) -> u64 {
    let defender = prepared.side_to_move().flip();
    (key ^ 0x5bd1_e995_2f3a_c6b1).wrapping_add(
        (prepared.hand(defender).raw() as u64 + 1).wrapping_mul(0xff51_afd7_ed55_8ccd),
    )
}

/// One step of a solution's shape: what moved, how, and where relative to the defender's
/// phoenix at the start.
fn step(pos: &Position, m: Move, origin: Square, flip: bool) -> u64 {
    let kind = pos.moved_kind(m);
    let kind = if flip { kind.mirror() } else { kind };
    let to = if flip { m.to().mirror() } else { m.to() };
    let dr = to.row() as i64 - origin.row() as i64;
    let dc = to.col() as i64
        - if flip {
            origin.mirror().col()
        } else {
            origin.col()
        } as i64;
    let how = if m.is_drop() {
        1
    } else if pos.is_capture(m) {
        2
    } else {
        3
    } + if m.promotes() { 4 } else { 0 };
    (kind as u64) | (how as u64) << 4 | ((dr + 8) as u64) << 8 | ((dc + 8) as u64) << 13
}

/// The solution's shape: the sequence of (piece kind, drop/capture/move, promotion,
/// destination relative to the defender's phoenix), hashed, the smaller of it and its
/// mirror's.
pub fn shape_key(pos: &Position, moves: &[Move]) -> u64 {
    let defender = pos.side_to_move().flip();
    let Some(origin) = pos.phoenix(defender) else {
        return 0;
    };
    let mut keys = [0u64; 2];
    for (i, flip) in [false, true].into_iter().enumerate() {
        let mut p = pos.clone();
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &m in moves {
            h = (h ^ step(&p, m, origin, flip)).wrapping_mul(0x0000_0100_0000_01b3);
            p.do_move(m);
        }
        keys[i] = h ^ moves.len() as u64;
    }
    keys[0].min(keys[1])
}

/// A stable 64-bit key of a text (FNV-1a): the same on every machine and run.
pub fn text_key(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move_list, parse_position};

    #[test]
    fn a_stated_defenders_hand_makes_another_position() {
        // The same board and attacker hand: under the convention one position whatever the
        // defender's hand is written as; stated, one per hand, and none the convention's.
        let empty = parse_position("3k3/7/3C3/7/7/7/7 b C 1").unwrap();
        let one = parse_position("3k3/7/3C3/7/7/7/7 b Cp 1").unwrap();
        assert_eq!(position_key(&empty), position_key(&one));
        let key = position_key(&empty);
        let (a, b) = (given_hand_key(key, &empty), given_hand_key(key, &one));
        assert_ne!(a, key);
        assert_ne!(b, key);
        assert_ne!(a, b);
        // Mirrored, still the same problem.
        assert_eq!(
            given_hand_key(position_key(&mirror(&one)), &mirror(&one)),
            b
        );
    }

    #[test]
    fn mirror_swaps_files_and_quails() {
        let p = parse_position("k6/7/7/3L3/7/7/6K b R 1").unwrap();
        let m = mirror(&p);
        assert_eq!(
            crate::notation::sfen::write_sfen(&m),
            "6k/7/7/3R3/7/7/K6 b L 1"
        );
        assert_eq!(position_key(&p), position_key(&m));
        assert_ne!(
            position_key(&p),
            position_key(&parse_position("k6/7/7/3R3/7/7/6K b R 1").unwrap())
        );
    }

    #[test]
    fn mirrored_solutions_have_the_same_shape() {
        let p = parse_position("kp5/1s5/1C5/7/7/7/7 b C 1").unwrap();
        let q = mirror(&p);
        let a = parse_move_list(&p, "C*7b").unwrap();
        let b = parse_move_list(&q, "C*1b").unwrap();
        assert_eq!(shape_key(&p, &a), shape_key(&q, &b));
        let c = parse_move_list(&p, "6c7b").unwrap();
        assert_ne!(shape_key(&p, &a), shape_key(&p, &c));
    }
}
