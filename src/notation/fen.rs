//! FEN, the form of Fairy-Stockfish's UCI mode and pychess-variants:
//! `board[hands] side ...`, where the side is `w` for **Black** (the first player) and `b` for
//! White, and the fields after it vary between programs (they are read and ignored).

use super::ParseError;
use super::sfen::{parse_board, parse_hands, write_board};
use crate::rules::hand::SFEN_ORDER;
use crate::rules::{Color, Position, Setup};

/// Parses a FEN position.
pub fn parse_fen(text: &str) -> Result<Position, ParseError> {
    Ok(Position::from_setup(&parse_fen_setup(text)?)?)
}

/// Parses a FEN position without applying the rules.
pub fn parse_fen_setup(text: &str) -> Result<Setup, ParseError> {
    let text = text.trim();
    let open = text
        .find('[')
        .ok_or_else(|| ParseError::Hand("FEN needs its hands in brackets, `[...]`".into()))?;
    let close = text[open..].find(']').map(|i| i + open).ok_or_else(|| {
        ParseError::Hand(format!(
            "no `]` closes the hands in `{}`",
            super::quoted(text)
        ))
    })?;
    let mut setup = Setup::default();
    parse_board(&text[..open], &mut setup)?;
    let hands = &text[open + 1..close];
    parse_hands(if hands.is_empty() { "-" } else { hands }, &mut setup)?;
    let rest: Vec<&str> = text[close + 1..].split_whitespace().collect();
    setup.side = match rest.first() {
        Some(&"w") | None => Color::Black,
        Some(&"b") => Color::White,
        Some(s) => {
            return Err(ParseError::Side(format!(
                "expected `w` (Black, the first player) or `b` (White) in FEN, found `{}`",
                super::quoted(s)
            )));
        }
    };
    // The last field, when numeric, is the full-move number.
    if rest.len() >= 2
        && let Some(text) = rest.last()
        && !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && text.bytes().any(|b| b != b'0')
    {
        let ply = text
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_mul(2))
            .map(|p| p - u64::from(setup.side == Color::Black));
        setup.move_number = ply
            .and_then(|p| u32::try_from(p).ok())
            .filter(|&p| p <= super::MAX_MOVE_NUMBER)
            .ok_or_else(|| ParseError::MoveNumber(super::quoted(text)))?;
    }
    Ok(setup)
}

/// Writes `pos` as FEN (`board[hands] w|b - - 0 N`).
pub fn write_fen(pos: &Position) -> String {
    let mut hands = String::new();
    for c in Color::ALL {
        let h = pos.hand(c);
        for k in SFEN_ORDER {
            for _ in 0..h.count(k) {
                hands.push(match c {
                    Color::Black => k.letter(),
                    Color::White => k.letter().to_ascii_lowercase(),
                });
            }
        }
    }
    format!(
        "{}[{}] {} - - 0 {}",
        write_board(pos),
        hands,
        match pos.side_to_move() {
            Color::Black => 'w',
            Color::White => 'b',
        },
        pos.move_number().div_ceil(2).max(1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_number_beyond_the_largest_is_refused_rather_than_wrapped() {
        let fen = |n: &str| format!("rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 {n}");
        // Full move 500,000,000 with Black to move is ply 999,999,999.
        let p = parse_fen(&fen("500000000")).unwrap();
        assert_eq!(p.move_number(), 999_999_999);
        for big in [
            "500000001",
            "2147483648",
            "4000000000",
            "12559824119885877956",
        ] {
            assert!(
                matches!(parse_fen(&fen(big)), Err(ParseError::MoveNumber(t)) if t == big),
                "{big}"
            );
        }
        // And in SFEN, where the number is the ply.
        let sfen = |n: &str| format!("3k3/7/3C3/7/7/7/7 b C {n}");
        assert!(crate::notation::parse_position(&sfen("1000000000")).is_ok());
        assert!(matches!(
            crate::notation::parse_position(&sfen("4294967295")),
            Err(ParseError::MoveNumber(_))
        ));
    }
}
