//! Hodges notation, the English texts' form: piece, `-` (move) / `x` (capture) / `*` (drop),
//! destination, `+` when promoting; the origin square after the piece only when two like
//! pieces could make the move (`Cr5c-4b`). Quails are `LQ`/`RQ`, or `Q` when unambiguous;
//! promoted pieces are `+Fa` (eagle) and `+Sw` (goose).

use super::MoveError;
use crate::rules::movegen::generate_legal;
use crate::rules::{Move, MoveList, PieceKind, Position, Square};

/// Writes legal move `m` of `pos` in Hodges notation.
pub fn to_hodges(pos: &Position, m: Move) -> String {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    to_hodges_with(pos, m, &list)
}

/// [`to_hodges`] given the legal moves of `pos` (to avoid regenerating them).
pub fn to_hodges_with(pos: &Position, m: Move, legal: &MoveList) -> String {
    let to = m.to();
    if m.is_drop() {
        return format!("{}*{}", m.drop_kind().hodges(), to);
    }
    let from = m.from();
    let kind = pos.moved_kind(m);
    let ambiguous = legal
        .iter()
        .any(|&o| !o.is_drop() && o.to() == to && o.from() != from && pos.moved_kind(o) == kind);
    let mut s = String::from(kind.hodges());
    if ambiguous {
        s.push_str(&from.to_string());
    }
    s.push(if pos.is_capture(m) { 'x' } else { '-' });
    s.push_str(&to.to_string());
    if m.promotes() {
        s.push('+');
    }
    s
}

/// Writes move `m` of `pos` and each of `replies` (moves of the position after it) in Hodges
/// notation: a try and its refutations (`Fa*2c`, `[Ph-1b]`).
pub fn answered_to_hodges(pos: &Position, m: Move, replies: &[Move]) -> (String, Vec<String>) {
    let mut after = pos.clone();
    let first = to_hodges(&after, m);
    after.do_move(m);
    let mut legal = MoveList::new();
    generate_legal(&after, &mut legal);
    let replies = replies
        .iter()
        .map(|&e| to_hodges_with(&after, e, &legal))
        .collect();
    (first, replies)
}

/// Writes a line of moves from `pos` in Hodges notation.
pub fn line_to_hodges(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let s = to_hodges(&p, m);
            p.do_move(m);
            s
        })
        .collect()
}

/// Reads a Hodges move and finds the legal move it names in `pos`; the error says why none
/// or several match.
pub fn parse_hodges(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let shown = super::quoted(t);
    let bad = || MoveError::NotAMove(shown.clone());
    if !t.is_ascii() {
        return Err(bad());
    }
    let mut rest = t;
    let promoted = rest.starts_with('+');
    if promoted {
        rest = &rest[1..];
    }
    // Piece abbreviation: two letters, or `Q` for either quail.
    let (kinds, after): (Vec<PieceKind>, &str) = {
        let two = rest.get(..2).map(|s| s.to_ascii_lowercase());
        match two.as_deref() {
            Some("ph") => (vec![PieceKind::Phoenix], &rest[2..]),
            Some("fa") => (vec![PieceKind::Falcon], &rest[2..]),
            Some("cr") => (vec![PieceKind::Crane], &rest[2..]),
            Some("pt") => (vec![PieceKind::Pheasant], &rest[2..]),
            Some("lq") => (vec![PieceKind::LeftQuail], &rest[2..]),
            Some("rq") => (vec![PieceKind::RightQuail], &rest[2..]),
            Some("sw") => (vec![PieceKind::Swallow], &rest[2..]),
            _ if rest.starts_with(['Q', 'q']) => (
                vec![PieceKind::LeftQuail, PieceKind::RightQuail],
                &rest[1..],
            ),
            _ => return Err(bad()),
        }
    };
    let kinds: Vec<PieceKind> = if promoted {
        let p: Vec<PieceKind> = kinds.iter().filter_map(|k| k.promoted()).collect();
        if p.is_empty() {
            return Err(MoveError::NoPromotion(format!(
                "`{shown}`: only a falcon or a swallow can be promoted"
            )));
        }
        p
    } else {
        kinds
    };
    let mut rest = after;
    // Optional origin square.
    let mut origin = None;
    if rest.len() >= 2
        && let Some(sq) = Square::parse(&rest[..2])
    {
        origin = Some(sq);
        rest = &rest[2..];
    }
    let sep = rest.chars().next().ok_or_else(bad)?;
    if !matches!(sep, '-' | 'x' | '*') {
        return Err(bad());
    }
    rest = &rest[1..];
    let to = rest.get(..2).and_then(Square::parse).ok_or_else(bad)?;
    rest = &rest[2..];
    let plus = match rest {
        "" => false,
        "+" => true,
        _ => return Err(bad()),
    };
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let matches: Vec<Move> = list
        .iter()
        .copied()
        .filter(|&m| {
            m.to() == to
                && kinds.contains(&pos.moved_kind(m))
                && (sep == '*') == m.is_drop()
                && origin.is_none_or(|o| !m.is_drop() && m.from() == o)
                && (sep != 'x' || pos.is_capture(m))
                && (sep != '-' || !pos.is_capture(m))
        })
        .collect();
    match matches.as_slice() {
        [] => Err(MoveError::Illegal(format!(
            "`{shown}` is not a legal move here"
        ))),
        [m] if plus && !m.promotes() => Err(MoveError::NoPromotion(format!(
            "`{shown}`: this move does not promote"
        ))),
        [m] => Ok(*m),
        several => Err(MoveError::Ambiguous {
            text: shown,
            candidates: several
                .iter()
                .map(|&m| to_hodges_with(pos, m, &list))
                .collect(),
        }),
    }
}
