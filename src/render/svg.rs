//! SVG board diagrams: the 7×7 grid with file and rank labels, each piece a wedge pointing
//! towards its owner's front with its kanji (or SFEN letters), promoted pieces in red, White's
//! hand beside the board at the top left and Black's at the bottom right. Self-contained: no
//! fonts or images are fetched.

use crate::rules::hand::SFEN_ORDER;
use crate::rules::{Color, Piece, PieceKind, Position, Square};
use std::fmt::Write;

/// How pieces are labelled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Labels {
    /// Traditional kanji (quails marked 左/右 below).
    #[default]
    Kanji,
    /// SFEN letters (`+F` for an eagle).
    Letters,
}

const SQ: f64 = 56.0;
const BOARD_X: f64 = 86.0;
const BOARD_Y: f64 = 34.0;
const HAND: f64 = 40.0;

fn label(kind: PieceKind, labels: Labels) -> (String, Option<&'static str>) {
    match labels {
        Labels::Letters => {
            let mut s = String::new();
            if kind.is_promoted() {
                s.push('+');
            }
            s.push(kind.letter());
            (s, None)
        }
        Labels::Kanji => match kind {
            PieceKind::LeftQuail => ("鶉".into(), Some("左")),
            PieceKind::RightQuail => ("鶉".into(), Some("右")),
            k => (k.kanji().to_string(), None),
        },
    }
}

/// One label of a piece: its text and, under it, the quail's mark, centred on (`cx`,
/// `cy`), classed `class` when given (a page's switch shows one class of label).
#[allow(clippy::too_many_arguments)]
fn label_text(
    out: &mut String,
    kind: PieceKind,
    labels: Labels,
    class: Option<&str>,
    colour: &str,
    cx: f64,
    cy: f64,
    s: f64,
) {
    let (text, mark) = label(kind, labels);
    let font = if labels == Labels::Letters && text.len() > 1 {
        0.36 * s
    } else {
        0.46 * s
    };
    let class = class.map_or(String::new(), |c| format!(" class=\"{c}\""));
    let _ = write!(
        out,
        "<text{class} x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{font:.1}\" fill=\"{colour}\" \
         text-anchor=\"middle\" dominant-baseline=\"central\">{text}</text>",
        cy + 0.04 * s,
    );
    if let Some(m) = mark {
        let _ = write!(
            out,
            "<text{class} x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" fill=\"{colour}\" \
             text-anchor=\"middle\" dominant-baseline=\"central\">{m}</text>",
            cy + 0.30 * s,
            0.2 * s
        );
    }
}

/// One piece centred on (`cx`, `cy`) in a cell of `size`: a pentagon pointing to its
/// owner's front (White's turned round) with `labels`, or, for a page's switch (`None`),
/// with both labels, classed `lbl-k` and `lbl-l`.
fn piece(out: &mut String, p: Piece, cx: f64, cy: f64, size: f64, labels: Option<Labels>) {
    let s = size;
    let points = [
        (cx, cy - 0.43 * s),
        (cx + 0.31 * s, cy - 0.29 * s),
        (cx + 0.38 * s, cy + 0.41 * s),
        (cx - 0.38 * s, cy + 0.41 * s),
        (cx - 0.31 * s, cy - 0.29 * s),
    ];
    let pts: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    let rotate = if p.color == Color::White {
        format!(" transform=\"rotate(180 {cx:.1} {cy:.1})\"")
    } else {
        String::new()
    };
    let colour = if p.kind.is_promoted() {
        "#b00000"
    } else {
        "#111"
    };
    let _ = write!(
        out,
        "<g class=\"piece\"{rotate}><polygon points=\"{}\" fill=\"#f3d9a4\" stroke=\"#5a3d10\" stroke-width=\"1.2\"/>",
        pts.join(" "),
    );
    match labels {
        Some(l) => label_text(out, p.kind, l, None, colour, cx, cy, s),
        None => {
            label_text(out, p.kind, Labels::Kanji, Some("lbl-k"), colour, cx, cy, s);
            label_text(
                out,
                p.kind,
                Labels::Letters,
                Some("lbl-l"),
                colour,
                cx,
                cy,
                s,
            );
        }
    }
    out.push_str("</g>");
}

/// A kind's name for `n` pieces: `crane`, `2 cranes`, `geese` when listed without a count.
fn named(kind: PieceKind, n: u32, counted: bool) -> String {
    let name = kind.name();
    let plural = match kind {
        PieceKind::Goose => "geese".to_string(),
        PieceKind::Phoenix => "phoenixes".to_string(),
        _ => format!("{name}s"),
    };
    match (n, counted) {
        (1, true) => format!("a {name}"),
        (1, false) => name.to_string(),
        (_, true) => format!("{n} {plural}"),
        (_, false) => plural,
    }
}

/// The position in words, for readers who cannot see the diagram (the SVG's `<title>`, which
/// screen readers announce and browsers show on hover): each side's pieces by kind with
/// their squares, then its hand. `Black: phoenix 4g; crane 4c; in hand: a crane. White:
/// phoenix 2a; ...`
pub fn describe(pos: &Position) -> String {
    const ORDER: [PieceKind; 9] = [
        PieceKind::Phoenix,
        PieceKind::Eagle,
        PieceKind::Falcon,
        PieceKind::Crane,
        PieceKind::Pheasant,
        PieceKind::LeftQuail,
        PieceKind::RightQuail,
        PieceKind::Goose,
        PieceKind::Swallow,
    ];
    let mut sides = Vec::new();
    for color in Color::ALL {
        let mut parts = Vec::new();
        for kind in ORDER {
            let squares: Vec<String> = pos.pieces(color, kind).map(|sq| sq.to_string()).collect();
            if !squares.is_empty() {
                parts.push(format!(
                    "{} {}",
                    named(kind, squares.len() as u32, false),
                    squares.join(", ")
                ));
            }
        }
        let hand = pos.hand(color);
        let held: Vec<String> = SFEN_ORDER
            .iter()
            .filter(|&&k| hand.count(k) > 0)
            .map(|&k| named(k, hand.count(k), true))
            .collect();
        let board = if parts.is_empty() {
            "nothing on the board".to_string()
        } else {
            parts.join("; ")
        };
        let held = if held.is_empty() {
            "nothing".to_string()
        } else {
            held.join(", ")
        };
        sides.push(format!("{}: {board}; in hand: {held}.", color.name()));
    }
    sides.join(" ")
}

/// Draws `pos` as a standalone SVG document (`<svg class="board" ...>`), with an optional
/// caption under the board. Its `<title>` describes the position in words ([`describe`]),
/// the caption (else the side to move) after it. With kanji it carries the piece font
/// ([`super::pieces::font_face`]), so that any viewer draws them.
pub fn svg(pos: &Position, labels: Labels, caption: Option<&str>) -> String {
    draw(pos, Some(labels), caption)
}

/// [`svg`] for a page that shows a switch between the labels ([`super::pieces`]): every
/// piece carries both, and the page carries the font.
pub fn page_svg(pos: &Position, caption: Option<&str>) -> String {
    draw(pos, None, caption)
}

/// [`svg`] with `labels`, or both for a page's switch (`None`).
fn draw(pos: &Position, labels: Option<Labels>, caption: Option<&str>) -> String {
    let width = BOARD_X + 7.0 * SQ + 30.0 + HAND + 16.0;
    let height = BOARD_Y + 7.0 * SQ + if caption.is_some() { 48.0 } else { 20.0 };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" font-family=\"{}\">",
        super::pieces::PIECE_FONTS
    );
    if labels == Some(Labels::Kanji) {
        let _ = write!(out, "<style>{}</style>", super::pieces::font_face());
    }
    let to_move = format!("{} to move", pos.side_to_move().name());
    let _ = write!(
        out,
        "<title>{} {}.</title>",
        escape(&describe(pos)),
        escape(caption.unwrap_or(&to_move))
    );
    let _ = write!(
        out,
        "<rect x=\"{BOARD_X}\" y=\"{BOARD_Y}\" width=\"{}\" height=\"{}\" fill=\"#e8c37a\" stroke=\"#3b2a0b\" stroke-width=\"2\"/>",
        7.0 * SQ,
        7.0 * SQ
    );
    for i in 1..7 {
        let d = i as f64 * SQ;
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{BOARD_Y}\" x2=\"{x:.1}\" y2=\"{y2:.1}\" stroke=\"#3b2a0b\"/>\
             <line x1=\"{BOARD_X}\" y1=\"{y:.1}\" x2=\"{x2:.1}\" y2=\"{y:.1}\" stroke=\"#3b2a0b\"/>",
            x = BOARD_X + d,
            y = BOARD_Y + d,
            y2 = BOARD_Y + 7.0 * SQ,
            x2 = BOARD_X + 7.0 * SQ,
        );
    }
    for col in 0..7u8 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"15\" text-anchor=\"middle\">{}</text>",
            BOARD_X + (col as f64 + 0.5) * SQ,
            BOARD_Y - 10.0,
            7 - col
        );
    }
    for row in 0..7u8 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"15\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text>",
            BOARD_X + 7.0 * SQ + 14.0,
            BOARD_Y + (row as f64 + 0.5) * SQ,
            (b'a' + row) as char
        );
    }
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let cx = BOARD_X + (sq.col() as f64 + 0.5) * SQ;
            let cy = BOARD_Y + (sq.row() as f64 + 0.5) * SQ;
            piece(&mut out, p, cx, cy, SQ, labels);
        }
    }
    // Hands: White's down the left edge from the top, Black's up the right edge from the
    // bottom.
    for color in Color::ALL {
        let hand = pos.hand(color);
        let x = match color {
            Color::White => 12.0 + HAND / 2.0,
            Color::Black => BOARD_X + 7.0 * SQ + 30.0 + HAND / 2.0,
        };
        let title = match color {
            Color::White => "☖",
            Color::Black => "☗",
        };
        let title_y = match color {
            Color::White => BOARD_Y + 8.0,
            Color::Black => BOARD_Y + 7.0 * SQ - 4.0,
        };
        let _ = write!(
            out,
            "<text class=\"hand-title\" x=\"{x:.1}\" y=\"{title_y:.1}\" font-size=\"16\" text-anchor=\"middle\">{title}</text>"
        );
        let mut i = 0.0;
        for k in SFEN_ORDER {
            let n = hand.count(k);
            if n == 0 {
                continue;
            }
            let y = match color {
                Color::White => BOARD_Y + 36.0 + i * (HAND + 10.0),
                Color::Black => BOARD_Y + 7.0 * SQ - 36.0 - i * (HAND + 10.0),
            };
            piece(&mut out, Piece::new(color, k), x, y, HAND, labels);
            if n > 1 {
                let _ = write!(
                    out,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"start\">×{n}</text>",
                    x + HAND / 2.0 - 4.0,
                    y + HAND / 2.0 + 2.0
                );
            }
            i += 1.0;
        }
    }
    if let Some(c) = caption {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"16\" text-anchor=\"middle\">{}</text>",
            BOARD_X + 3.5 * SQ,
            BOARD_Y + 7.0 * SQ + 30.0,
            escape(c)
        );
    }
    out.push_str("</svg>");
    out
}

/// Escapes text for XML and HTML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn every_piece_and_hand_is_drawn() {
        let p = parse_position("rpckcpl/3f3/sssssss/7/SSSSSSS/3F3/LPCKCPR b 2S 1").unwrap();
        let s = svg(&p, Labels::Kanji, Some("start"));
        assert!(s.starts_with("<svg class=\"board\""));
        assert_eq!(s.matches("<polygon").count(), 30 + 1);
        assert_eq!(s.matches("rotate(180").count(), 15);
        assert!(s.contains("鵬") && s.contains(">左<") && s.contains(">右<"));
        assert!(s.contains("×2"));
        let l = svg(
            &parse_position("k6/7/7/4+F2/7/7/7 b - 1").unwrap(),
            Labels::Letters,
            None,
        );
        assert!(l.contains(">+F<") && l.contains("#b00000"));
    }

    #[test]
    fn the_title_says_in_words_what_the_diagram_shows() {
        // Classic No. 1, read off its SFEN by hand: Black's crane on 4c and falcon on 1c,
        // a crane in hand; White's pheasant 3a, phoenix 2a, left quail 2b.
        let p = parse_position("4pk1/5l1/3C2F/7/7/7/7 b C 1").unwrap();
        let s = svg(&p, Labels::Kanji, None);
        assert!(s.contains(
            "<title>Black: falcon 1c; crane 4c; in hand: a crane. White: phoenix 2a; \
             pheasant 3a; left quail 2b; in hand: nothing. Black to move.</title>"
        ));
        assert!(s.contains("role=\"img\""));
        // Plurals, promoted pieces and counts in hand; the caption, escaped, in place of
        // the side to move.
        let p = parse_position("k6/7/7/4+F2/+s+s5/7/7 b 2S3s 1").unwrap();
        assert_eq!(
            describe(&p),
            "Black: eagle 3d; in hand: 2 swallows. White: phoenix 7a; geese 7e, 6e; in hand: \
             3 swallows."
        );
        let s = svg(&p, Labels::Letters, Some("Black to move & mate"));
        assert!(s.contains("3 swallows. Black to move &amp; mate.</title>"));
    }
}
