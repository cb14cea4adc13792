//! Reading and writing positions and moves (docs/RULES.md "Notation"): SFEN (native) and
//! FEN positions, auto-detected, with `startpos` and an optional `moves ...` tail; USI,
//! Hodges and Fairy-Stockfish UCI moves. Diagrams, which are only written, are [`crate::render`]'s.
//!
//! Every parser returns a [`ParseError`] that says what is wrong and where; none panics.

pub mod fairy;
pub mod fen;
pub mod hodges;
pub mod sfen;
pub mod usi;

use crate::rules::{Move, Position, PositionError};

/// The start position in SFEN.
pub const STARTPOS_SFEN: &str = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1";

/// What is wrong with a position or move text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing to parse.
    #[error("empty position text")]
    Empty,
    /// The board field is malformed.
    #[error("board field: {0}")]
    Board(String),
    /// The side-to-move field is malformed.
    #[error("side to move: {0}")]
    Side(String),
    /// The hand field is malformed.
    #[error("hands: {0}")]
    Hand(String),
    /// The move number is malformed, or beyond [`MAX_MOVE_NUMBER`].
    #[error("move number: expected a positive integer up to {MAX_MOVE_NUMBER}, found `{0}`")]
    MoveNumber(String),
    /// Text after the position that is not a `moves` list.
    #[error("unexpected text after the position: `{0}`")]
    Trailing(String),
    /// The position breaks a rule.
    #[error("impossible position: {0}")]
    Position(PositionError),
    /// A move could not be read or is not legal.
    #[error("move {index} `{text}`: {reason}")]
    Move {
        /// 1-based position of the move in its list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        reason: MoveError,
    },
}

/// Why a move text was refused: it is not written as a move, or it names no legal move, or
/// several. Texts are quoted as [`quoted`] cuts them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a USI move (where only USI is accepted).
    #[error("`{0}` is not a USI move (like 3d3c, 4b4a+ or S*4c)")]
    NotUsi(String),
    /// Neither a USI nor a Hodges move.
    #[error(
        "`{0}` is neither a USI move (3d3c, S*4c), a Hodges move (Sw-6d, Fax5e, Cr*4b) nor a \
         Fairy-Stockfish one (a4b5, S@a6)"
    )]
    NotAMove(String),
    /// A drop of a piece that is never in hand.
    #[error("`{0}` cannot be dropped")]
    NotDroppable(char),
    /// A promotion asked of a move or piece that does not promote; the message says which.
    #[error("{0}")]
    NoPromotion(String),
    /// Well written, but not legal here; the message says why.
    #[error("{0}")]
    Illegal(String),
    /// A Hodges move that names several legal moves.
    #[error("`{text}` is ambiguous: {}", .candidates.join(", "))]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The moves it could be, in Hodges notation.
        candidates: Vec<String>,
    },
}

/// The largest move number a position is read with: far beyond any game, and far enough
/// below the counter's end that the moves of a line or a search never run it over.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

/// The longest piece of input an error message quotes; longer input is cut with `...`.
pub const QUOTE_LIMIT: usize = 80;

/// `text` as an error message quotes it: at most [`QUOTE_LIMIT`] characters, then `...`,
/// each character a terminal would act on rather than show written out ([`printable`]).
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((i, _)) => format!("{}...", printable(&text[..i])),
        None => printable(text).into_owned(),
    }
}

/// Whether a terminal acts on `c` rather than showing it: a control character (an escape
/// sequence starts with one: a title set, the screen cleared), or a mark that reorders the
/// text around it (the bidirectional overrides and isolates).
fn acted_on(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// [`printable`] for text of several lines: its line breaks kept.
pub fn printable_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && acted_on(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines: Vec<std::borrow::Cow<'_, str>> = text.split('\n').map(printable).collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

/// `text` made safe to print on a terminal: each character it would act on rather than show
/// (a control character, a mark that reorders text) written out as Rust writes it in a
/// string (`\u{1b}`, `\n`), the rest (kanji included) as it is. What a record or an
/// argument carries is printed through this.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(acted_on) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acted_on(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `n` with its noun, singular for one: `counted(1, "ply", "plies")` is `1 ply`,
/// `counted(3, "ply", "plies")` is `3 plies`.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n plies`, or `1 ply`.
pub fn plies(n: impl Into<u64>) -> String {
    counted(n, "ply", "plies")
}

/// The entries of a map of counts, the commonest first, ties in the map's order (by key): how
/// reports list reasons and themes.
pub fn commonest_first<K: Clone>(counts: &std::collections::BTreeMap<K, usize>) -> Vec<(K, usize)> {
    let mut list: Vec<(K, usize)> = counts.iter().map(|(k, &n)| (k.clone(), n)).collect();
    // Stable: equal counts keep the keys' order.
    list.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    list
}

/// `n` with a comma every three digits (`3,096`).
pub fn grouped(n: impl Into<u64>) -> String {
    let s = n.into().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl From<PositionError> for ParseError {
    fn from(e: PositionError) -> Self {
        // Not a `source`: the message already says it, and error chains would repeat it.
        ParseError::Position(e)
    }
}

/// A position read from `startpos`, SFEN or FEN, with an optional `moves` tail (see
/// [`parse_position`]).
impl std::str::FromStr for Position {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Position, ParseError> {
        parse_position(text)
    }
}

/// Parses a position in any accepted form: `startpos`, SFEN (optionally prefixed `sfen`), or
/// FEN (recognised by its `[hands]`, optionally prefixed `fen` as in UCI), each optionally
/// followed by `moves m1 m2 ...` in USI form or Fairy-Stockfish's (a leading `position` as in
/// the USI and UCI commands is accepted too).
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    parse_position_with_moves(text).map(|(p, _)| p)
}

/// Like [`parse_position`], also returning the moves of the `moves` tail (already played on
/// the returned position).
pub fn parse_position_with_moves(text: &str) -> Result<(Position, Vec<Move>), ParseError> {
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.first() == Some(&"position") {
        tokens.remove(0);
    }
    if tokens.is_empty() {
        return Err(ParseError::Empty);
    }
    let (pos_tokens, move_tokens) = match tokens.iter().position(|&t| t == "moves") {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (&tokens[..], &[][..]),
    };
    let mut pos = match pos_tokens {
        [] => return Err(ParseError::Empty),
        ["startpos"] => Position::startpos(),
        ["startpos", rest @ ..] => return Err(ParseError::Trailing(quoted(&rest.join(" ")))),
        ["sfen", rest @ ..] => sfen::parse_sfen(&rest.join(" "))?,
        ["fen", rest @ ..] => fen::parse_fen(&rest.join(" "))?,
        [first, ..] if first.contains('[') => fen::parse_fen(&pos_tokens.join(" "))?,
        _ => sfen::parse_sfen(&pos_tokens.join(" "))?,
    };
    let mut moves = Vec::with_capacity(move_tokens.len());
    for (i, t) in move_tokens.iter().enumerate() {
        let m = if fairy::looks_like_fairy(t) {
            fairy::parse_fairy_move(&pos, t)
        } else {
            usi::parse_usi_move(&pos, t)
        };
        let m = m.map_err(|reason| ParseError::Move {
            index: i + 1,
            text: quoted(t),
            reason,
        })?;
        pos.do_move(m);
        moves.push(m);
    }
    Ok((pos, moves))
}

/// Parses a list of moves written in USI or Hodges form (mixed freely), skipping move numbers
/// such as `1.` and `2...`, and checks each is legal in turn from `pos`.
pub fn parse_move_list(pos: &Position, text: &str) -> Result<Vec<Move>, ParseError> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    let mut index = 0;
    for t in text.split(|c: char| c.is_whitespace() || c == ',') {
        let t = t.trim();
        if t.is_empty() || is_move_number(t) {
            continue;
        }
        // "1.Sw*7c" style: a number glued to the move.
        let t = strip_move_number(t);
        index += 1;
        let m = parse_any_move(&p, t).map_err(|reason| ParseError::Move {
            index,
            text: quoted(t),
            reason,
        })?;
        p.do_move(m);
        out.push(m);
    }
    Ok(out)
}

fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn strip_move_number(t: &str) -> &str {
    let d = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    if d > 0 && t[d..].starts_with('.') {
        t[d..].trim_start_matches('.')
    } else {
        t
    }
}

/// Reads one move in USI, Fairy-Stockfish UCI (pychess-variants' form) or Hodges form,
/// legal in `pos`.
pub fn parse_any_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let usi = usi::parse_usi_move(pos, text);
    if usi.is_ok() || usi::looks_like_usi(text) {
        return usi;
    }
    if fairy::looks_like_fairy(text.trim()) {
        return fairy::parse_fairy_move(pos, text);
    }
    hodges::parse_hodges(pos, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_come_commonest_first_ties_by_key() {
        let counts: std::collections::BTreeMap<&str, usize> = [
            ("promotion", 2),
            ("sacrifice", 5),
            ("drop", 2),
            ("check", 1),
        ]
        .into();
        assert_eq!(
            commonest_first(&counts),
            [
                ("sacrifice", 5),
                ("drop", 2),
                ("promotion", 2),
                ("check", 1)
            ]
        );
        assert_eq!(grouped(3_096u64), "3,096");
    }

    #[test]
    fn the_start_position_built_by_the_rules_is_the_sfen_of_the_rules() {
        let built = Position::startpos();
        let read = sfen::parse_sfen(STARTPOS_SFEN).expect("the start SFEN");
        assert_eq!(built, read);
        assert_eq!(built.to_string(), STARTPOS_SFEN);
        assert_eq!(format!("{built:?}"), format!("Position({STARTPOS_SFEN})"));
    }

    #[test]
    fn counts_take_the_singular_for_one_alone() {
        assert_eq!(plies(0u16), "0 plies");
        assert_eq!(plies(1u16), "1 ply");
        assert_eq!(plies(2u64), "2 plies");
        assert_eq!(counted(1u8, "file", "files"), "1 file");
        assert_eq!(counted(11u32, "file", "files"), "11 files");
    }

    #[test]
    fn positions_parse_with_from_str() {
        let p: Position = "startpos moves 1e1d".parse().expect("a legal move");
        assert_eq!(p.move_number(), 2);
        assert!(matches!(
            "startpos moves 1e1a".parse::<Position>(),
            Err(ParseError::Move { index: 1, .. })
        ));
        let fen: Position = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1"
            .parse()
            .expect("a FEN");
        assert_eq!(fen, Position::startpos());
    }
}
