//! SFEN, the project's native position form (as Fairy-Stockfish writes Tori Shogi positions
//! in USI mode): `board side hands [move-number]`, e.g.
//! `rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1`.

use super::ParseError;
use crate::rules::hand::SFEN_ORDER;
use crate::rules::{Color, Piece, PieceKind, Position, Setup};

/// Parses the board field (ranks a→g separated by `/`, files 7→1 within a rank) into `setup`.
pub fn parse_board(text: &str, setup: &mut Setup) -> Result<(), ParseError> {
    let shown = super::quoted(text);
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() == 1 {
        return Err(ParseError::Board(format!(
            "no `/` in `{shown}`: expected 7 ranks separated by `/`"
        )));
    }
    if ranks.len() != 7 {
        return Err(ParseError::Board(format!(
            "{} ranks separated by `/`, expected 7 in `{shown}`",
            ranks.len()
        )));
    }
    for (row, rank) in ranks.iter().enumerate() {
        let rank_letter = (b'a' + row as u8) as char;
        let rank_shown = super::quoted(rank);
        let mut col = 0usize;
        let mut promoted = false;
        for ch in rank.chars() {
            if col >= 7 {
                return Err(ParseError::Board(format!(
                    "rank {rank_letter} (`{rank_shown}`) describes more than 7 squares"
                )));
            }
            match ch {
                '1'..='7' if !promoted => {
                    col += ch as usize - '0' as usize;
                    if col > 7 {
                        return Err(ParseError::Board(format!(
                            "rank {rank_letter} (`{rank_shown}`) describes more than 7 squares"
                        )));
                    }
                }
                '+' if !promoted => promoted = true,
                '0' | '8' | '9' => {
                    return Err(ParseError::Board(format!(
                        "rank {rank_letter} (`{rank_shown}`): `{ch}`: a count of empty squares is 1 to 7"
                    )));
                }
                _ => {
                    let Some(kind) = PieceKind::from_letter(ch.to_ascii_uppercase()) else {
                        return Err(ParseError::Board(format!(
                            "rank {rank_letter} (`{rank_shown}`): `{ch}` is not a piece letter \
                             (K F C P L R S, upper case Black, lower case White{})",
                            if promoted {
                                ", after `+` only F or S"
                            } else {
                                ""
                            }
                        )));
                    };
                    let kind = if promoted {
                        kind.promoted().ok_or_else(|| {
                            ParseError::Board(format!(
                                "rank {rank_letter} (`{rank_shown}`): `+{ch}`: only a falcon (F) or \
                                 a swallow (S) can be promoted"
                            ))
                        })?
                    } else {
                        kind
                    };
                    let color = if ch.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    setup.board[row * 7 + col] = Some(Piece::new(color, kind));
                    col += 1;
                    promoted = false;
                }
            }
        }
        if promoted {
            return Err(ParseError::Board(format!(
                "rank {rank_letter} (`{rank_shown}`) ends with `+` and no piece"
            )));
        }
        if col != 7 {
            return Err(ParseError::Board(format!(
                "rank {rank_letter} (`{rank_shown}`) describes {col} squares, expected 7"
            )));
        }
    }
    Ok(())
}

/// Parses a hand field: `-` for none, else counts and letters (`2SFc3s`, Black upper case).
/// Repeated letters add up, so `SSs` is accepted too.
pub fn parse_hands(text: &str, setup: &mut Setup) -> Result<(), ParseError> {
    let shown = super::quoted(text);
    if text == "-" || text.is_empty() {
        return Ok(());
    }
    let mut count: Option<u32> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 99 {
                return Err(ParseError::Hand(format!("count too large in `{shown}`")));
            }
            count = Some(n);
            continue;
        }
        let Some(kind) = PieceKind::from_letter(ch.to_ascii_uppercase()) else {
            return Err(ParseError::Hand(format!(
                "`{ch}` in `{shown}` is not a piece letter (F C P L R S)"
            )));
        };
        if !kind.is_hand_kind() {
            return Err(ParseError::Hand(format!(
                "`{ch}` in `{shown}`: a phoenix cannot be held in hand"
            )));
        }
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(ParseError::Hand(format!(
                "count 0 before `{ch}` in `{shown}`"
            )));
        }
        let c = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        setup.hands[c.index()][kind.index()] += n;
    }
    if count.is_some() {
        return Err(ParseError::Hand(format!(
            "`{shown}` ends with a count and no piece letter"
        )));
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            let n = setup.hands[c.index()][k.index()];
            if n > k.total() as u32 {
                return Err(ParseError::Position(crate::rules::PositionError::TooMany {
                    kind: k.name(),
                    count: n,
                    max: k.total() as u32,
                }));
            }
        }
    }
    Ok(())
}

/// Parses an SFEN position (`board side hands [number]`; hands and number may be omitted).
pub fn parse_sfen(text: &str) -> Result<Position, ParseError> {
    Ok(Position::from_setup(&parse_sfen_setup(text)?)?)
}

/// Parses an SFEN position without applying the rules (for tools that repair positions).
pub fn parse_sfen_setup(text: &str) -> Result<Setup, ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let Some(board) = fields.first() else {
        return Err(ParseError::Empty);
    };
    let mut setup = Setup::default();
    parse_board(board, &mut setup)?;
    match fields.get(1) {
        Some(&"b") | None => setup.side = Color::Black,
        Some(&"w") => setup.side = Color::White,
        Some(s) => {
            return Err(ParseError::Side(format!(
                "expected `b` (Black) or `w` (White) in SFEN, found `{}`",
                super::quoted(s)
            )));
        }
    }
    if let Some(h) = fields.get(2) {
        parse_hands(h, &mut setup)?;
    }
    if let Some(n) = fields.get(3) {
        setup.move_number = n
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=super::MAX_MOVE_NUMBER).contains(&n))
            .ok_or_else(|| ParseError::MoveNumber(super::quoted(n)))?;
    }
    if fields.len() > 4 {
        return Err(ParseError::Trailing(super::quoted(&fields[4..].join(" "))));
    }
    Ok(setup)
}

/// The board field of `pos`.
pub fn write_board(pos: &Position) -> String {
    let mut s = String::new();
    for row in 0..7u8 {
        if row > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for col in 0..7u8 {
            let sq = crate::rules::Square::from_row_col(row, col).unwrap();
            match pos.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&p.sfen());
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
    }
    s
}

/// The hand field of `pos` (`-` when both are empty).
pub fn write_hands(pos: &Position) -> String {
    let mut s = pos.hand(Color::Black).sfen_upper();
    let w = pos.hand(Color::White);
    for k in SFEN_ORDER {
        let n = w.count(k);
        if n > 1 {
            s.push_str(&n.to_string());
        }
        if n > 0 {
            s.push(k.letter().to_ascii_lowercase());
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

/// A position shows as its SFEN.
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_sfen(self))
    }
}

/// `Position(<SFEN>)`.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write_sfen(self))
    }
}

/// Writes `pos` as SFEN.
pub fn write_sfen(pos: &Position) -> String {
    format!(
        "{} {} {} {}",
        write_board(pos),
        match pos.side_to_move() {
            Color::Black => 'b',
            Color::White => 'w',
        },
        write_hands(pos),
        pos.move_number()
    )
}
