//! USI moves: `3d3c`, `4b4a+` (promotion), `S*4c` (drop).
//!
//! Promotion is forced in Tori Shogi, so a move into, within or out of the zone by a falcon
//! or swallow is accepted with or without its `+`; a `+` on a move that cannot promote is an
//! error.

use crate::rules::movegen::generate_legal;
use crate::rules::{Move, MoveList, PieceKind, Position, Square};

/// Whether `text` has the shape of a USI move (so a failure to read it as one is final).
pub fn looks_like_usi(text: &str) -> bool {
    let b = text.as_bytes();
    let sq = |i: usize| b.len() >= i + 2 && b[i].is_ascii_digit() && b[i + 1].is_ascii_lowercase();
    (b.len() >= 4 && sq(0) && sq(2)) || (b.len() == 4 && b[1] == b'*' && sq(2))
}

/// Reads a USI move and checks it is legal in `pos`; the error says why not.
pub fn parse_usi_move(pos: &Position, text: &str) -> Result<Move, String> {
    let t = text.trim();
    let b = t.as_bytes();
    let bad = || format!("`{t}` is not a USI move (like 3d3c, 4b4a+ or S*4c)");
    if !t.is_ascii() {
        return Err(bad());
    }
    let square = |s: &str| Square::parse(s).ok_or_else(bad);
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if b.len() == 4 && b[1] == b'*' {
        let kind = PieceKind::from_letter(b[0].to_ascii_uppercase() as char)
            .filter(|k| k.is_hand_kind())
            .ok_or_else(|| format!("`{}` cannot be dropped", b[0] as char))?;
        let to = square(&t[2..4])?;
        let m = Move::drop(kind, to);
        if list.contains(m) {
            return Ok(m);
        }
        return Err(explain_illegal_drop(pos, kind, to));
    }
    if !(b.len() == 4 || (b.len() == 5 && b[4] == b'+')) {
        return Err(bad());
    }
    let from = square(&t[0..2])?;
    let to = square(&t[2..4])?;
    let plus = b.len() == 5;
    match list
        .iter()
        .copied()
        .find(|m| !m.is_drop() && m.from() == from && m.to() == to)
    {
        Some(m) if plus && !m.promotes() => Err(format!("{from}{to} does not promote")),
        Some(m) => Ok(m),
        None => Err(explain_illegal_board(pos, from, to)),
    }
}

fn explain_illegal_drop(pos: &Position, kind: PieceKind, to: Square) -> String {
    let us = pos.side_to_move();
    if !pos.hand(us).has(kind) {
        format!("{} has no {} in hand", us.name(), kind.name())
    } else if pos.piece_at(to).is_some() {
        format!("{to} is occupied")
    } else {
        format!("dropping a {} on {to} is not legal here", kind.name())
    }
}

fn explain_illegal_board(pos: &Position, from: Square, to: Square) -> String {
    let us = pos.side_to_move();
    match pos.piece_at(from) {
        None => format!("no piece on {from}"),
        Some(p) if p.color != us => format!("the piece on {from} is not {}'s", us.name()),
        Some(p) => format!(
            "the {} on {from} cannot legally move to {to}",
            p.kind.name()
        ),
    }
}
