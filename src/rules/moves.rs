//! [`Move`] (a board move or a drop, packed in 16 bits) and [`MoveList`] (a fixed-capacity
//! list on the stack, so move generation allocates nothing).

use super::types::{PieceKind, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// A move: from-square to to-square (promotion flag set when the move promotes, which in
/// Tori Shogi is never a choice), or a drop of a hand kind on a square.
///
/// Bits 0–5: destination; 6–11: origin square, or the dropped kind; 12: drop; 13: promotes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The null move (never legal; a placeholder).
    pub const NONE: Move = Move(0);

    const DROP: u16 = 1 << 12;
    const PROMOTE: u16 = 1 << 13;

    /// A board move.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(
            to.index() as u16
                | (from.index() as u16) << 6
                | if promote { Move::PROMOTE } else { 0 },
        )
    }

    /// A drop of `kind` on `to`.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | (kind as u16) << 6 | Move::DROP)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    /// Origin square of a board move (meaningless for a drop).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as usize)
    }

    /// Whether this is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.0 & Move::DROP != 0
    }

    /// The dropped kind, for a drop.
    #[inline]
    pub const fn drop_kind(self) -> PieceKind {
        PieceKind::from_index(((self.0 >> 6) & 63) as usize)
    }

    /// Whether the moving piece promotes.
    #[inline]
    pub const fn promotes(self) -> bool {
        self.0 & Move::PROMOTE != 0
    }

    /// The raw 16-bit value.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// A move from its raw value (as produced by [`Move::raw`]).
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// USI text: `3d3c`, `4b4a+`, `S*4c`.
    pub fn usi(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            return write!(f, "none");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.drop_kind().letter(), self.to())
        } else {
            write!(
                f,
                "{}{}{}",
                self.from(),
                self.to(),
                if self.promotes() { "+" } else { "" }
            )
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Capacity of a [`MoveList`]: more than any position can have (at most 6 hand kinds × 49
/// squares of drops plus every board move).
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack. The storage is left uninitialised beyond `len`, so making
/// a list costs nothing (this is on every search node's path).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut l = MoveList::new();
        for &m in self.iter() {
            l.push(m);
        }
        l
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // MAX_MOVES exceeds any position's move count (see its doc); the index is checked.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true (order preserved).
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`/`retain`, and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
