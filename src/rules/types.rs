//! The small value types of the game: [`Color`], [`Square`], [`PieceKind`] and [`Piece`].
//!
//! Squares are numbered 0..49 row by row from Black's top-left: index = row·7 + col, where
//! row 0 is rank `a` and col 0 is file 7 (docs/RULES.md, "Board and coordinates"). So `7a` is 0,
//! `1a` is 6 and `1g` is 48; "north" (towards rank a, Black's forward) is −7.

use std::fmt;

/// A side: Black (sente, moves first, at the bottom, upper case) or White (gote).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Sente, upper case in SFEN, moves up the board.
    Black = 0,
    /// Gote, lower case in SFEN, moves down the board.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// One of the 49 squares of the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 49;

    /// The square with this index (0..49); `None` outside the board.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 49 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 49`.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 49);
        Square(index as u8)
    }

    /// The square at (`row`, `col`), both 0..7 (row 0 = rank a, col 0 = file 7).
    #[inline]
    pub const fn from_row_col(row: u8, col: u8) -> Option<Square> {
        if row < 7 && col < 7 {
            Some(Square(row * 7 + col))
        } else {
            None
        }
    }

    /// The square with file 1..=7 and rank letter index 0..=6 (0 = `a`).
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 7 && rank < 7 {
            Some(Square(rank * 7 + (7 - file)))
        } else {
            None
        }
    }

    /// Index 0..49.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0..7, 0 being rank `a` (top).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 7
    }

    /// Column 0..7, 0 being file 7 (Black's left).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 7
    }

    /// File number 1..=7 as written in notation.
    #[inline]
    pub const fn file(self) -> u8 {
        7 - self.col()
    }

    /// Rank letter `a`..=`g`.
    #[inline]
    pub const fn rank_char(self) -> char {
        (b'a' + self.row()) as char
    }

    /// The square seen from the other side of the board (rotated 180°).
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(48 - self.0)
    }

    /// The square mirrored left-right (file f ↔ file 8 − f).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square(self.row() * 7 + (6 - self.col()))
    }

    /// Every square in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..49).map(Square)
    }

    /// Parses `4b` (file digit, rank letter).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0');
        let rank = b[1].wrapping_sub(b'a');
        Square::from_file_rank(file, rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The kinds of piece, promoted ones included. The first six are the kinds that can be held
/// in hand, ordered from weakest to strongest as interposers (swallow first).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// Sw: one step straight forward; promotes to a goose.
    Swallow = 0,
    /// Pt: jumps two squares straight ahead, or one step diagonally back.
    Pheasant = 1,
    /// Cr: one step diagonally or straight forward or back.
    Crane = 2,
    /// LQ: ranges forward and diagonally back-right, one step diagonally back-left.
    LeftQuail = 3,
    /// RQ: ranges forward and diagonally back-left, one step diagonally back-right.
    RightQuail = 4,
    /// Fa: one step in any direction but straight back; promotes to an eagle.
    Falcon = 5,
    /// +Sw: jumps two squares diagonally forward or straight back.
    Goose = 6,
    /// +Fa: the strongest piece.
    Eagle = 7,
    /// Ph: the royal piece.
    Phoenix = 8,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 9;
    /// Number of kinds that can be held in hand.
    pub const HAND_COUNT: usize = 6;

    /// Every kind, in index order.
    pub const ALL: [PieceKind; 9] = [
        PieceKind::Swallow,
        PieceKind::Pheasant,
        PieceKind::Crane,
        PieceKind::LeftQuail,
        PieceKind::RightQuail,
        PieceKind::Falcon,
        PieceKind::Goose,
        PieceKind::Eagle,
        PieceKind::Phoenix,
    ];

    /// The kinds that can be held in hand (unpromoted, not the phoenix), weakest first.
    pub const HAND: [PieceKind; 6] = [
        PieceKind::Swallow,
        PieceKind::Pheasant,
        PieceKind::Crane,
        PieceKind::LeftQuail,
        PieceKind::RightQuail,
        PieceKind::Falcon,
    ];

    /// Index into per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index.
    #[inline]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// The kind this one promotes to, if it promotes.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        match self {
            PieceKind::Swallow => Some(PieceKind::Goose),
            PieceKind::Falcon => Some(PieceKind::Eagle),
            _ => None,
        }
    }

    /// The kind a piece of this kind is once it has moved, promoting when `promotes` (a kind
    /// that does not promote stays as it is).
    #[inline]
    pub const fn after_move(self, promotes: bool) -> PieceKind {
        match self.promoted() {
            Some(k) if promotes => k,
            _ => self,
        }
    }

    /// The unpromoted kind (what a capture puts in hand).
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::Goose => PieceKind::Swallow,
            PieceKind::Eagle => PieceKind::Falcon,
            k => k,
        }
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        matches!(self, PieceKind::Goose | PieceKind::Eagle)
    }

    /// Whether the kind can be held in hand.
    #[inline]
    pub const fn is_hand_kind(self) -> bool {
        (self as usize) < 6
    }

    /// Whether the kind has a ranging move (and so can be blocked and can pin).
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(
            self,
            PieceKind::LeftQuail | PieceKind::RightQuail | PieceKind::Eagle
        )
    }

    /// How many of this base kind exist in the game (both sides, promoted ones counted as
    /// their base kind), docs/RULES.md "Pieces".
    pub const fn total(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Swallow => 16,
            PieceKind::Pheasant => 4,
            PieceKind::Crane => 4,
            PieceKind::LeftQuail => 2,
            PieceKind::RightQuail => 2,
            PieceKind::Falcon => 2,
            _ => 2,
        }
    }

    /// The SFEN letter (upper case, without `+`): `K F C P L R S` and `F`/`S` for the
    /// promoted kinds.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Swallow => 'S',
            PieceKind::Pheasant => 'P',
            PieceKind::Crane => 'C',
            PieceKind::LeftQuail => 'L',
            PieceKind::RightQuail => 'R',
            PieceKind::Falcon => 'F',
            _ => 'K',
        }
    }

    /// The kind written by this (upper-case) SFEN letter, unpromoted.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c {
            'S' => Some(PieceKind::Swallow),
            'P' => Some(PieceKind::Pheasant),
            'C' => Some(PieceKind::Crane),
            'L' => Some(PieceKind::LeftQuail),
            'R' => Some(PieceKind::RightQuail),
            'F' => Some(PieceKind::Falcon),
            'K' => Some(PieceKind::Phoenix),
            _ => None,
        }
    }

    /// Hodges abbreviation (`Ph`, `Fa`, `+Fa`, `Cr`, `Pt`, `LQ`, `RQ`, `Sw`, `+Sw`).
    pub const fn hodges(self) -> &'static str {
        match self {
            PieceKind::Swallow => "Sw",
            PieceKind::Pheasant => "Pt",
            PieceKind::Crane => "Cr",
            PieceKind::LeftQuail => "LQ",
            PieceKind::RightQuail => "RQ",
            PieceKind::Falcon => "Fa",
            PieceKind::Goose => "+Sw",
            PieceKind::Eagle => "+Fa",
            PieceKind::Phoenix => "Ph",
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Swallow => "swallow",
            PieceKind::Pheasant => "pheasant",
            PieceKind::Crane => "crane",
            PieceKind::LeftQuail => "left quail",
            PieceKind::RightQuail => "right quail",
            PieceKind::Falcon => "falcon",
            PieceKind::Goose => "goose",
            PieceKind::Eagle => "eagle",
            PieceKind::Phoenix => "phoenix",
        }
    }

    /// The kind as the left-right mirror image sees it: quails swap, others stay.
    pub const fn mirror(self) -> PieceKind {
        match self {
            PieceKind::LeftQuail => PieceKind::RightQuail,
            PieceKind::RightQuail => PieceKind::LeftQuail,
            k => k,
        }
    }

    /// Kanji used in diagrams.
    pub const fn kanji(self) -> char {
        match self {
            PieceKind::Swallow => '燕',
            PieceKind::Pheasant => '雉',
            PieceKind::Crane => '鶴',
            PieceKind::LeftQuail => '左',
            PieceKind::RightQuail => '右',
            PieceKind::Falcon => '鷹',
            PieceKind::Goose => '鴈',
            PieceKind::Eagle => '鵰',
            PieceKind::Phoenix => '鵬',
        }
    }
}

/// A coloured piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: PieceKind,
}

impl Piece {
    /// Number of distinct coloured pieces.
    pub const COUNT: usize = 18;

    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..18 into per-piece tables (colour-major).
    #[inline]
    pub const fn index(self) -> usize {
        self.color as usize * 9 + self.kind as usize
    }

    /// SFEN text: `+F`, `s`, ...
    pub fn sfen(self) -> String {
        let mut s = String::new();
        if self.kind.is_promoted() {
            s.push('+');
        }
        let l = self.kind.letter();
        s.push(match self.color {
            Color::Black => l,
            Color::White => l.to_ascii_lowercase(),
        });
        s
    }
}
