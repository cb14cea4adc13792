//! USI moves: `3d3c`, `4b4a+` (promotion), `S*4c` (drop).
//!
//! Promotion is forced in Tori Shogi, so a move into, within or out of the zone by a falcon
//! or swallow is accepted with or without its `+`; a `+` on a move that cannot promote is an
//! error.

use super::MoveError;
use crate::rules::movegen::{generate_legal, is_checkmate};
use crate::rules::{Color, Move, MoveList, Piece, PieceKind, Position, Square};

/// A line of moves in USI, one string a move (the twin of
/// [`super::hodges::line_to_hodges`], which needs the position; USI does not).
pub fn line_to_usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.usi()).collect()
}

/// Whether `text` has the shape of a USI move (so a failure to read it as one is final).
pub fn looks_like_usi(text: &str) -> bool {
    let b = text.as_bytes();
    let sq = |i: usize| b.len() >= i + 2 && b[i].is_ascii_digit() && b[i + 1].is_ascii_lowercase();
    (b.len() >= 4 && sq(0) && sq(2)) || (b.len() == 4 && b[1] == b'*' && sq(2))
}

/// Reads a USI move and checks it is legal in `pos`; the error says why not.
pub fn parse_usi_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let shown = super::quoted(t);
    let b = t.as_bytes();
    let bad = || MoveError::NotUsi(shown.clone());
    if !t.is_ascii() {
        return Err(bad());
    }
    let square = |s: &str| Square::parse(s).ok_or_else(bad);
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if b.len() == 4 && b[1] == b'*' {
        let kind = PieceKind::from_letter(b[0].to_ascii_uppercase() as char)
            .filter(|k| k.is_hand_kind())
            .ok_or(MoveError::NotDroppable(b[0] as char))?;
        let to = square(&t[2..4])?;
        let m = Move::drop(kind, to);
        if list.contains(m) {
            return Ok(m);
        }
        return Err(MoveError::Illegal(explain_illegal_drop(pos, kind, to)));
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
        Some(m) if plus && !m.promotes() => Err(MoveError::NoPromotion(format!(
            "{from}{to} does not promote"
        ))),
        Some(m) => Ok(m),
        None => Err(MoveError::Illegal(explain_illegal_board(pos, from, to))),
    }
}

fn explain_illegal_drop(pos: &Position, kind: PieceKind, to: Square) -> String {
    let us = pos.side_to_move();
    if !pos.hand(us).has(kind) {
        format!("{} has no {} in hand", us.name(), kind.name())
    } else if pos.piece_at(to).is_some() {
        format!("{to} is occupied")
    } else if kind == PieceKind::Swallow {
        swallow_drop_reason(pos, to)
    } else {
        format!("dropping a {} on {to} is not legal here", kind.name())
    }
}

/// Why a swallow may not be dropped on the empty square `to` (docs/RULES.md, drops 1–3), or,
/// failing those, that it would leave the dropping side's phoenix attacked.
fn swallow_drop_reason(pos: &Position, to: Square) -> String {
    let us = pos.side_to_move();
    let last_row = if us == Color::Black { 0 } else { 6 };
    if to.row() == last_row {
        return format!("a swallow may not be dropped on the farthest rank ({to})");
    }
    let own_on_file = Square::all()
        .filter(|s| s.col() == to.col())
        .filter(|&s| pos.piece_at(s) == Some(Piece::new(us, PieceKind::Swallow)))
        .count();
    if own_on_file >= 2 {
        return format!("{to}: that file already holds two {} swallows", us.name());
    }
    let mut after = pos.clone();
    after.do_move(Move::drop(PieceKind::Swallow, to));
    if is_checkmate(&after) {
        return format!(
            "a swallow dropped on {to} would give mate, and a swallow drop may not mate"
        );
    }
    format!("dropping a swallow on {to} is not legal here")
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
