//! Fairy-Stockfish's UCI moves, as pychess-variants and Fairy-Stockfish's puzzle tools write
//! them: squares with files `a`–`g` from Black's left (USI file 7 = `a`) and ranks `1`–`7`
//! from Black's side (USI rank g = `1`), so USI `7d` is `a4`; moves `a4b5`, promotions
//! `c5c6+`, drops `S@a6` (the piece letter in upper case for either side).
//!
//! Read by turning the move into USI and reading that, so that the legality checks and
//! their messages are USI's; the message then names the move as written and as USI.

use super::MoveError;
use super::usi::parse_usi_move;
use crate::rules::{Move, Position, Square};

/// A square in Fairy-Stockfish's UCI form: files a–g from Black's left (file 7 = `a`),
/// ranks 1–7 from Black's side (rank g = `1`).
pub fn fairy_square(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.col()) as char, 7 - sq.row())
}

/// A move in Fairy-Stockfish's UCI form: `c5c6+`, drops `S@a6`.
pub fn fairy_move(m: Move) -> String {
    if m.is_drop() {
        format!("{}@{}", m.drop_kind().letter(), fairy_square(m.to()))
    } else {
        format!(
            "{}{}{}",
            fairy_square(m.from()),
            fairy_square(m.to()),
            if m.promotes() { "+" } else { "" }
        )
    }
}

/// The USI name of Fairy-Stockfish square `a`–`g` × `1`–`7` (`a4` → `7d`), if it is one.
fn usi_square(file: u8, rank: u8) -> Option<String> {
    let col = file.checked_sub(b'a').filter(|&c| c < 7)?;
    let row = 7u8
        .checked_sub(rank.checked_sub(b'0')?)
        .filter(|&r| r < 7)?;
    Some(format!("{}{}", 7 - col, (b'a' + row) as char))
}

/// `text`, a move in Fairy-Stockfish's UCI form, written in USI: `a4b5` → `7d6c`, `S@a6` →
/// `S*7b`, `c5c6+` → `5c5b+`; `None` when it has not that form.
pub fn fairy_to_usi(text: &str) -> Option<String> {
    let b = text.as_bytes();
    match b {
        [piece, b'@', f, r] if piece.is_ascii_alphabetic() => {
            Some(format!("{}*{}", *piece as char, usi_square(*f, *r)?))
        }
        [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => Some(format!(
            "{}{}{}",
            usi_square(*f1, *r1)?,
            usi_square(*f2, *r2)?,
            if rest.is_empty() { "" } else { "+" }
        )),
        _ => None,
    }
}

/// Whether `text` has the shape of a Fairy-Stockfish UCI move, squares off the 7×7 board
/// included (so a failure to read it as one is final, and says why).
pub fn looks_like_fairy(text: &str) -> bool {
    let sq = |f: &u8, r: &u8| f.is_ascii_lowercase() && r.is_ascii_digit();
    match text.as_bytes() {
        [p, b'@', f, r] => p.is_ascii_alphabetic() && sq(f, r),
        [f1, r1, f2, r2, rest @ ..] => {
            (rest.is_empty() || rest == b"+") && sq(f1, r1) && sq(f2, r2)
        }
        _ => false,
    }
}

/// Reads a move in Fairy-Stockfish's UCI form and checks it is legal in `pos`; the error
/// says why not.
pub fn parse_fairy_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let usi = fairy_to_usi(t).ok_or_else(|| {
        if looks_like_fairy(t) {
            MoveError::Illegal(format!(
                "{t}: a square off the 7×7 board (files a–g, ranks 1–7 in Fairy-Stockfish's form)"
            ))
        } else {
            MoveError::NotAMove(super::quoted(t))
        }
    })?;
    parse_usi_move(pos, &usi).map_err(|e| match e {
        MoveError::Illegal(why) => MoveError::Illegal(format!("{t} (USI {usi}): {why}")),
        MoveError::NoPromotion(why) => MoveError::NoPromotion(format!("{t} (USI {usi}): {why}")),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::rules::PieceKind;

    #[test]
    fn squares_and_moves_are_written_from_blacks_left_and_side() {
        // USI 7d is a4; 1a is g7; 7g is a1; drops with `@`.
        assert_eq!(fairy_square(Square::parse("7d").unwrap()), "a4");
        assert_eq!(fairy_square(Square::parse("1a").unwrap()), "g7");
        assert_eq!(fairy_square(Square::parse("7g").unwrap()), "a1");
        assert_eq!(
            fairy_move(Move::drop(PieceKind::Falcon, Square::parse("6b").unwrap())),
            "F@b6"
        );
        let m = Move::normal(
            Square::parse("5b").unwrap(),
            Square::parse("5a").unwrap(),
            true,
        );
        assert_eq!(fairy_move(m), "c6c7+");
    }

    #[test]
    fn moves_read_back_as_usi() {
        assert_eq!(fairy_to_usi("a4b5").as_deref(), Some("7d6c"));
        assert_eq!(fairy_to_usi("S@a6").as_deref(), Some("S*7b"));
        assert_eq!(fairy_to_usi("c6c7+").as_deref(), Some("5b5a+"));
        assert_eq!(fairy_to_usi("g1a7").as_deref(), Some("1g7a"));
        // Off the 7×7 board, or not that shape.
        for bad in [
            "h1a1", "a8a7", "a0a1", "S@h1", "7d6c", "S*7b", "a4b5=", "a4",
        ] {
            assert_eq!(fairy_to_usi(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_readme_mate_in_seven_reads_in_fairy_form() {
        // The pychess-variants record of FORMATS.md: the mate in 7, a phoenix added on 1g.
        let mut pos =
            parse_position("1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w 0 1").unwrap();
        let line = "F@b6,b7b6,a4b5,b6a7,S@a6,a7b7,R@b6";
        let usi: Vec<String> = line
            .split(',')
            .map(|t| {
                let m = parse_fairy_move(&pos, t).unwrap();
                pos.do_move(m);
                m.usi()
            })
            .collect();
        assert_eq!(
            usi,
            ["F*6b", "6a6b", "7d6c", "6b7a", "S*7b", "7a6a", "R*6b"]
        );
        assert!(crate::rules::movegen::is_checkmate(&pos));
    }

    #[test]
    fn an_illegal_move_names_itself_in_both_forms() {
        let pos =
            parse_position("1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w 0 1").unwrap();
        let e = parse_fairy_move(&pos, "a1a2").unwrap_err().to_string();
        assert!(
            e.contains("a1a2 (USI 7g7f)") && e.contains("no piece on 7g"),
            "{e}"
        );
        let e = parse_fairy_move(&pos, "L@a6").unwrap_err().to_string();
        assert!(e.contains("has no"), "{e}");
        for off in ["F@b8", "h1a1", "a1a0+"] {
            assert!(looks_like_fairy(off), "{off}");
            let e = parse_fairy_move(&pos, off).unwrap_err().to_string();
            assert!(e.contains("a square off the 7×7 board"), "{off}: {e}");
        }
    }
}
