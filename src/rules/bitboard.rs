//! [`Bitboard`]: a set of squares in one `u64` (bits 0..49, see [`Square`] for the order),
//! with the usual set operations and iteration.

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares. Bit `i` is the square with index `i`; bits 49..64 are always zero.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 49 squares.
    pub const FULL: Bitboard = Bitboard((1u64 << 49) - 1);

    /// The set holding just `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Row `row` (0 = rank a).
    #[inline]
    pub const fn row(row: u8) -> Bitboard {
        Bitboard(0x7f << (row as u32 * 7))
    }

    /// Column `col` (0 = file 7).
    #[inline]
    pub const fn col(col: u8) -> Bitboard {
        Bitboard(0x0001_0204_0810_2040_u64 >> (6 - col as u32) & ((1u64 << 49) - 1))
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest-index square; the set must not be empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Highest-index square; the set must not be empty.
    #[inline]
    pub const fn msb(self) -> Square {
        Square::from_index(63 - self.0.leading_zeros() as usize)
    }

    /// The only square of a one-square set, or the lowest.
    #[inline]
    pub fn single(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(self.lsb()) }
    }

    /// Removes and returns the lowest square.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    /// The set mirrored left-right.
    pub fn mirror(self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self {
            out |= Bitboard::from_square(sq.mirror());
        }
        out
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl std::ops::SubAssign for Bitboard {
    /// Removes the squares of `rhs`.
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for row in 0..7u8 {
            for col in 0..7u8 {
                let sq = Square::from_row_col(row, col).unwrap();
                write!(f, "{}", if self.has(sq) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_cols() {
        assert_eq!(Bitboard::row(0).count(), 7);
        assert!(Bitboard::row(6).has(Square::parse("1g").unwrap()));
        for col in 0..7 {
            let c = Bitboard::col(col);
            assert_eq!(c.count(), 7, "col {col}");
            for sq in c {
                assert_eq!(sq.col(), col);
            }
        }
    }
}
