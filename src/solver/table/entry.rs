//! What the table holds: the 32-byte [`Entry`] and its [`State`], the bucket of entries a
//! board key selects, and what a lookup returns ([`Found`]).

use super::BUCKET;
use crate::rules::Hand;
use crate::solver::value::Depth;

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
}

/// One table entry (32 bytes).
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
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

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

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
}

/// A bucket: the entries one board key can live in, on their own cache lines.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C, align(128))]
pub(super) struct Bucket(pub(super) [Entry; BUCKET]);

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
    },
    /// No mate within `len`, disproof pieces `hand`; `rep` when it holds only on this path.
    Disproven {
        /// No mate within this many plies.
        len: Depth,
        /// Disproof pieces.
        hand: Hand,
        /// Path-dependent.
        rep: bool,
    },
}

/// The bucket of key `board` among `mask + 1`: the low bits choose it, with the high ones
/// mixed in so that keys differing only there spread too. Doubling the buckets in use adds
/// one bit, so an entry stays in its bucket or moves `mask + 1` further.
#[inline]
pub(super) fn bucket_index(board: u64, mask: usize) -> usize {
    ((board ^ (board >> 29)) as usize) & mask
}
