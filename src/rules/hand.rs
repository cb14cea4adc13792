//! [`Hand`]: the pieces one side holds, packed into a `u32` so that "this hand holds at least
//! as much of every kind as that one" is a single subtraction (used by the solver's table for
//! hand superiority).
//!
//! Each kind has a counter field wide enough for every piece of that kind in the game plus one
//! guard bit above it. `a ⊇ b` exactly when subtracting `b` from `a` with every guard bit set
//! borrows from no guard bit.

use super::types::PieceKind;
use std::fmt;

/// Bit offset of each hand kind's counter, in [`PieceKind::HAND`] order.
const SHIFT: [u32; 6] = [0, 6, 10, 14, 17, 20];
/// Mask of each counter (guard bit excluded), before shifting.
const MASK: [u32; 6] = [0x1f, 0x7, 0x7, 0x3, 0x3, 0x3];
/// The guard bits above every counter.
const GUARD: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 16) | (1 << 19) | (1 << 22);

/// The pieces held in hand by one side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(u32);

impl Hand {
    /// No pieces.
    pub const EMPTY: Hand = Hand(0);

    /// The raw packed value (stable within one build; for tables and hashing).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// A hand from its raw packed value.
    #[inline]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    /// How many pieces of `kind` (a hand kind) are held.
    #[inline]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let i = kind as usize;
        (self.0 >> SHIFT[i]) & MASK[i]
    }

    /// Whether at least one `kind` is held.
    #[inline]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// Adds one `kind`. The caller keeps counts within the game's totals.
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(kind.is_hand_kind());
        debug_assert!(self.count(kind) < MASK[kind as usize]);
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one `kind`, which must be held.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of `kind` (must not exceed the game's total of that kind).
    pub fn set(&mut self, kind: PieceKind, n: u32) {
        let i = kind as usize;
        debug_assert!(n <= MASK[i]);
        self.0 = (self.0 & !(MASK[i] << SHIFT[i])) | ((n & MASK[i]) << SHIFT[i]);
    }

    /// A copy with one more `kind`.
    #[inline]
    pub fn with(mut self, kind: PieceKind) -> Hand {
        self.add(kind);
        self
    }

    /// A copy with one fewer `kind`.
    #[inline]
    pub fn without(mut self, kind: PieceKind) -> Hand {
        self.remove(kind);
        self
    }

    /// Whether the hand is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline]
    pub const fn superset_of(self, other: Hand) -> bool {
        ((self.0 | GUARD).wrapping_sub(other.0) & GUARD) == GUARD
    }

    /// Per-kind minimum.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).min(other.count(k)));
        }
        h
    }

    /// Per-kind maximum.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).max(other.count(k)));
        }
        h
    }

    /// Per-kind difference `self − other`, floored at zero.
    pub fn saturating_sub(self, other: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).saturating_sub(other.count(k)));
        }
        h
    }

    /// Per-kind sum (counts must stay within each field).
    pub fn plus(self, other: Hand) -> Hand {
        Hand(self.0 + other.0)
    }

    /// The kinds held, weakest first.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::HAND.into_iter().filter(move |&k| self.has(k))
    }

    /// The hand with quails swapped (the left-right mirror).
    pub fn mirror(self) -> Hand {
        let mut h = self;
        h.set(PieceKind::LeftQuail, self.count(PieceKind::RightQuail));
        h.set(PieceKind::RightQuail, self.count(PieceKind::LeftQuail));
        h
    }

    /// SFEN hand text for one side, in the order `F C P L R S`, upper case (`2SF` style is
    /// written `F2S`). Empty string for an empty hand.
    pub fn sfen_upper(self) -> String {
        let mut s = String::new();
        for k in SFEN_ORDER {
            let n = self.count(k);
            if n > 1 {
                s.push_str(&n.to_string());
            }
            if n > 0 {
                s.push(k.letter());
            }
        }
        s
    }
}

/// The order kinds are written in a SFEN hand.
pub const SFEN_ORDER: [PieceKind; 6] = [
    PieceKind::Falcon,
    PieceKind::Crane,
    PieceKind::Pheasant,
    PieceKind::LeftQuail,
    PieceKind::RightQuail,
    PieceKind::Swallow,
];

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.sfen_upper();
        if s.is_empty() {
            write!(f, "Hand(-)")
        } else {
            write!(f, "Hand({s})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_superset() {
        let mut a = Hand::EMPTY;
        for _ in 0..16 {
            a.add(PieceKind::Swallow);
        }
        for _ in 0..4 {
            a.add(PieceKind::Crane);
            a.add(PieceKind::Pheasant);
        }
        for _ in 0..2 {
            a.add(PieceKind::LeftQuail);
            a.add(PieceKind::RightQuail);
            a.add(PieceKind::Falcon);
        }
        for k in PieceKind::HAND {
            assert_eq!(a.count(k), k.total() as u32, "{k:?}");
        }
        let b = Hand::EMPTY.with(PieceKind::Crane).with(PieceKind::Swallow);
        assert!(a.superset_of(b));
        assert!(!b.superset_of(a));
        assert!(b.superset_of(b));
        let c = Hand::EMPTY.with(PieceKind::Falcon);
        assert!(!b.superset_of(c));
        assert!(!c.superset_of(b));
        assert_eq!(a.total(), 30);
    }
}
