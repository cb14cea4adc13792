//! What the table holds: the 32-byte [`Entry`] and its [`State`], how an entry is kept in
//! four atomic words so that threads can share the table without locks, the bucket of
//! entries a board key selects, and what a lookup returns ([`Found`]).
//!
//! An entry is written and read as four 64-bit words, each atomically but not the four
//! together, so a reader may see a mix of two writes. The first word is therefore the board
//! key XOR the other three (the lockless hashing of Hyatt and Mann): a mixed read gives a
//! key that matches no lookup (but with a chance of 2^-64), and is taken for a miss. A
//! write lost to another thread's write of the same slot is an entry lost, which costs time
//! and never an answer (see [`super`]).

use super::BUCKET;
use crate::rules::Hand;
use crate::solver::value::Depth;
use std::sync::atomic::{AtomicU64, Ordering};

/// What an entry knows.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[repr(u8)]
pub(crate) enum State {
    /// Free slot.
    #[default]
    Empty = 0,
    /// Search in progress: estimates only.
    Unknown = 1,
    /// Mate within `len` for any attacker hand ⊇ `hand`.
    Proven = 2,
    /// No mate within `len` for any attacker hand ⊆ `hand`.
    Disproven = 3,
    /// No mate, but only because of a repetition on the path with key `path`; exact hand.
    RepDisproven = 4,
    /// Mate within `len` for exactly the attacker hand `hand` (a proof that relied on the
    /// useless-interposition rule's comparison of replies: [`crate::solver::value::Val::exact`]).
    ProvenExact = 5,
    /// No mate within `len` for exactly the attacker hand `hand` (a disproof that relied on
    /// that comparison).
    DisprovenExact = 6,
}

impl State {
    #[inline]
    fn from_bits(b: u8) -> State {
        match b {
            1 => State::Unknown,
            2 => State::Proven,
            3 => State::Disproven,
            4 => State::RepDisproven,
            5 => State::ProvenExact,
            6 => State::DisprovenExact,
            _ => State::Empty,
        }
    }
}

/// One table entry (32 bytes once packed).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Board key (with side to move), mixed with the search's universe key.
    pub board: u64,
    /// Attacker hand: exact for unknown entries, the proof/disproof pieces for solved ones.
    pub hand: Hand,
    /// Proof number (for [`State::RepDisproven`]: the low half of the path key).
    pub pn: u32,
    /// Disproof number (for [`State::RepDisproven`]: the high half of the path key).
    pub dn: u32,
    /// Search effort spent below this node (for replacement and garbage collection).
    pub amount: u32,
    /// Proven: mate length; disproven: no mate within this many plies; unknown: the depth
    /// the estimates were made at.
    pub len: Depth,
    /// Best move found (raw), for reading lines back.
    pub best: u16,
    /// What the entry knows.
    pub state: State,
    /// Table generation the entry belongs to (older ones count as empty).
    pub generation: u8,
    /// Age of the search that wrote the entry (see [`super::Table::new_search`]).
    pub age: u16,
}

impl Entry {
    /// The path key of a [`State::RepDisproven`] entry.
    #[inline]
    pub fn path(&self) -> u64 {
        self.pn as u64 | (self.dn as u64) << 32
    }

    /// Makes this a [`State::RepDisproven`] entry for path `path`.
    #[inline]
    pub fn set_path(&mut self, path: u64) {
        self.pn = path as u32;
        self.dn = (path >> 32) as u32;
    }

    /// The four words the entry is kept in (the first checks the other three).
    #[inline]
    fn pack(&self) -> [u64; 4] {
        let w1 = self.hand.raw() as u64 | (self.pn as u64) << 32;
        let w2 = self.dn as u64 | (self.amount as u64) << 32;
        let w3 = self.len.raw() as u64
            | (self.best as u64) << 16
            | (self.state as u64) << 32
            | (self.generation as u64) << 40
            | (self.age as u64) << 48;
        [self.board ^ w1 ^ w2 ^ w3, w1, w2, w3]
    }

    /// The entry kept in `w` (its board key as the words say: wrong for a mixed read).
    #[inline]
    fn unpack(w: [u64; 4]) -> Entry {
        let [w0, w1, w2, w3] = w;
        Entry {
            board: w0 ^ w1 ^ w2 ^ w3,
            hand: Hand::from_raw(w1 as u32),
            pn: (w1 >> 32) as u32,
            dn: w2 as u32,
            amount: (w2 >> 32) as u32,
            len: Depth::from_raw(w3 as u16),
            best: (w3 >> 16) as u16,
            state: State::from_bits((w3 >> 32) as u8),
            generation: (w3 >> 40) as u8,
            age: (w3 >> 48) as u16,
        }
    }
}

/// A bucket: the entries one board key can live in, on their own two cache lines, each
/// entry four atomic words. All-zero words are an empty entry.
#[derive(Default)]
#[repr(C, align(128))]
pub(super) struct Bucket([AtomicU64; 4 * BUCKET]);

impl Bucket {
    /// The entry in slot `i` (whatever it holds; the search reads slots through
    /// [`Bucket::get_if_live`] and [`Bucket::get_live`]).
    #[cfg(test)]
    pub(super) fn get(&self, i: usize) -> Entry {
        let w = &self.0[4 * i..4 * i + 4];
        Entry::unpack([
            w[0].load(Ordering::Relaxed),
            w[1].load(Ordering::Relaxed),
            w[2].load(Ordering::Relaxed),
            w[3].load(Ordering::Relaxed),
        ])
    }

    /// The entry in slot `i` if it is of position `board` and generation `generation` (the
    /// other fields are decoded only then).
    #[inline]
    pub(super) fn get_live(&self, i: usize, board: u64, generation: u8) -> Option<Entry> {
        self.live_words(i, generation)
            .filter(|[w0, w1, w2, w3]| w0 ^ w1 ^ w2 ^ w3 == board)
            .map(Entry::unpack)
    }

    /// The words of slot `i` if it holds an entry of generation `generation` (the other
    /// three are read only then).
    #[inline]
    fn live_words(&self, i: usize, generation: u8) -> Option<[u64; 4]> {
        let w = &self.0[4 * i..4 * i + 4];
        let w3 = w[3].load(Ordering::Relaxed);
        if (w3 >> 40) as u8 != generation || State::from_bits((w3 >> 32) as u8) == State::Empty {
            return None;
        }
        Some([
            w[0].load(Ordering::Relaxed),
            w[1].load(Ordering::Relaxed),
            w[2].load(Ordering::Relaxed),
            w3,
        ])
    }

    /// The board key of slot `i` if it holds an entry of generation `generation`, without
    /// decoding the rest (for moving entries about as they are).
    #[inline]
    pub(super) fn live_key(&self, i: usize, generation: u8) -> Option<u64> {
        self.live_words(i, generation)
            .map(|[w0, w1, w2, w3]| w0 ^ w1 ^ w2 ^ w3)
    }

    /// The entry in slot `i` if it is of generation `generation` and not empty.
    #[inline]
    pub(super) fn get_if_live(&self, i: usize, generation: u8) -> Option<Entry> {
        self.live_words(i, generation).map(Entry::unpack)
    }

    /// Moves slot `i`'s words into slot `i` of `to` as they are, and empties slot `i`.
    #[inline]
    pub(super) fn move_to(&self, i: usize, to: &Bucket) {
        for k in 4 * i..4 * i + 4 {
            to.0[k].store(self.0[k].load(Ordering::Relaxed), Ordering::Relaxed);
        }
        self.clear(i);
    }

    /// Writes `e` into slot `i`.
    #[inline]
    pub(super) fn set(&self, i: usize, e: &Entry) {
        let w = e.pack();
        let s = &self.0[4 * i..4 * i + 4];
        for (slot, word) in s.iter().zip(w) {
            slot.store(word, Ordering::Relaxed);
        }
    }

    /// Empties slot `i`.
    #[inline]
    pub(super) fn clear(&self, i: usize) {
        for slot in &self.0[4 * i..4 * i + 4] {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

/// What a lookup found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// Nothing usable.
    None,
    /// Estimates of an unfinished search of exactly this position.
    Unknown {
        /// Proof number.
        pn: u32,
        /// Disproof number.
        dn: u32,
        /// Effort so far.
        amount: u32,
    },
    /// Mate within `len` proven with proof pieces `hand`.
    Proven {
        /// Mate length.
        len: Depth,
        /// Proof pieces.
        hand: Hand,
        /// Best move.
        best: u16,
        /// For this exact hand alone.
        exact: bool,
    },
    /// No mate within `len`, disproof pieces `hand`; `rep` when it holds only on this path.
    Disproven {
        /// No mate within this many plies.
        len: Depth,
        /// Disproof pieces.
        hand: Hand,
        /// Path-dependent.
        rep: bool,
        /// For this exact hand alone.
        exact: bool,
    },
}

/// The bucket of key `board` among `mask + 1`: the low bits choose it, with the high ones
/// mixed in so that keys differing only there spread too. Doubling the buckets in use adds
/// one bit, so an entry stays in its bucket or moves `mask + 1` further.
#[inline]
pub(super) fn bucket_index(board: u64, mask: usize) -> usize {
    ((board ^ (board >> 29)) as usize) & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

    #[test]
    fn an_entry_survives_its_words_and_a_mixed_read_matches_no_key() {
        let e = Entry {
            board: 0x0123_4567_89ab_cdef,
            hand: Hand::EMPTY.with(PieceKind::Crane).with(PieceKind::Swallow),
            pn: 17,
            dn: 1 << 30,
            amount: 99,
            len: Depth::plies(31),
            best: 0xbeef,
            state: State::Proven,
            generation: 200,
            age: 65_000,
        };
        assert_eq!(Entry::unpack(e.pack()), e);
        let b = Bucket::default();
        b.set(2, &e);
        assert_eq!(b.get(2), e);
        assert_eq!(b.get(1), Entry::default());
        // Another write of the same position with other numbers, read half old, half new.
        let f = Entry { pn: 18, ..e };
        let (old, new) = (e.pack(), f.pack());
        let mixed = Entry::unpack([new[0], old[1], old[2], old[3]]);
        assert_ne!(mixed.board, e.board);
        b.clear(2);
        assert_eq!(b.get(2).state, State::Empty);
    }
}
