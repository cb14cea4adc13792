//! Text diagrams of a position: ASCII (SFEN letters, `+` for promoted pieces, White in lower
//! case) or Unicode with the traditional kanji (White's pieces marked `v`, as in Japanese
//! diagrams). White's hand is printed above the board, Black's below.

use crate::rules::hand::SFEN_ORDER;
use crate::rules::{Color, Hand, Position, Square};

/// Diagram style.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// SFEN letters.
    #[default]
    Ascii,
    /// Kanji.
    Unicode,
}

/// A hand in Hodges' abbreviations, a count after `×` (`Fa Sw×6`): the empty hand is
/// the empty string.
pub fn hand_hodges(hand: Hand) -> String {
    hand_names(hand, Style::Ascii)
}

/// A hand as the diagram writes it: `-` when empty.
fn hand_text(hand: Hand, style: Style) -> String {
    if hand.is_empty() {
        return "-".into();
    }
    hand_names(hand, style)
}

/// Each kind held, in SFEN order, named in `style`, a count after `×`.
fn hand_names(hand: Hand, style: Style) -> String {
    let mut parts = Vec::new();
    for k in SFEN_ORDER {
        let n = hand.count(k);
        if n == 0 {
            continue;
        }
        let name = match style {
            Style::Ascii => k.hodges().to_string(),
            Style::Unicode => k.kanji().to_string(),
        };
        parts.push(if n > 1 { format!("{name}×{n}") } else { name });
    }
    parts.join(" ")
}

/// Draws `pos` as text.
pub fn diagram(pos: &Position, style: Style) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "White hand: {}\n",
        hand_text(pos.hand(Color::White), style)
    ));
    s.push_str("    7  6  5  4  3  2  1\n");
    s.push_str("  +---------------------+\n");
    for row in 0..7u8 {
        s.push((b'a' + row) as char);
        s.push_str(" |");
        for col in 0..7u8 {
            let sq = Square::from_row_col(row, col).unwrap();
            let cell = match (pos.piece_at(sq), style) {
                (None, Style::Ascii) => " . ".to_string(),
                (None, Style::Unicode) => " ・".to_string(),
                (Some(p), Style::Ascii) => format!("{:>2} ", p.sfen()),
                (Some(p), Style::Unicode) => format!(
                    "{}{}",
                    if p.color == Color::White { 'v' } else { ' ' },
                    p.kind.kanji()
                ),
            };
            s.push_str(&cell);
        }
        s.push_str("|\n");
    }
    s.push_str("  +---------------------+\n");
    s.push_str(&format!(
        "Black hand: {}\n",
        hand_text(pos.hand(Color::Black), style)
    ));
    s.push_str(&format!("{} to move\n", pos.side_to_move().name()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

    #[test]
    fn a_hand_is_written_in_hodges_with_its_counts() {
        let hand = Hand::EMPTY
            .with(PieceKind::Swallow)
            .with(PieceKind::Swallow)
            .with(PieceKind::Falcon)
            .with(PieceKind::RightQuail);
        assert_eq!(hand_hodges(hand), "Fa RQ Sw×2");
        assert_eq!(hand_hodges(Hand::EMPTY), "");
    }
}
