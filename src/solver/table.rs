//! The transposition table of the df-pn search: entries keyed by board (with side to move)
//! and compared by the attacker's hand inside, so that
//!
//! - a proof with attacker hand `h` (its *proof pieces*) and mate length `n` answers every
//!   lookup of the same board with a hand `⊇ h` and a depth `≥ n` (hand superiority);
//! - a disproof with hand `h` (its *disproof pieces*) and "no mate within `n`" answers every
//!   lookup with a hand `⊆ h` and a depth `≤ n`;
//! - a disproof that depended on a repetition on the search path (graph history interaction,
//!   Kishimoto & Müller 2004) answers only a lookup from the very same path (its path key);
//!   from any other path the position is unknown and searched again.
//!
//! Memory is a fixed array of cache-line-aligned buckets of [`BUCKET`] 32-byte entries, sized
//! by `--hash`; an entry lives in the bucket its board key selects, so a lookup touches two
//! cache lines.
//!
//! How the memory is managed:
//! - it is asked of the operating system zeroed ([`std::alloc::alloc_zeroed`] of a size the
//!   C library serves from fresh pages), and an all-zero entry is an empty one: nothing is
//!   written up front, and a page costs something only once the search touches it. A size
//!   that cannot be had is an error ([`TableError`]), never an abort.
//! - clearing is by generation: each entry carries the generation it was written in, and
//!   [`Table::clear`] moves to the next one in O(1) (entries of older generations count as
//!   empty). When the 8-bit generation wraps, the memory is handed back and asked for anew,
//!   zeroed, rather than written over.
//! - only a part of the memory is in use at first ([`START_BUCKETS`] buckets): when it is
//!   [`GROW_TRIGGER`] full, or an entry finds its bucket full once it is
//!   [`GROW_ON_FULL_BUCKET`] full, it doubles (each entry stays in its bucket or moves to the
//!   one the next key bit selects), up to the whole table. A small search therefore touches a
//!   small part of a large table, and clearing goes back to the start size.
//! - each search ([`Table::new_search`]) has an age; entries carry the age of the search that
//!   last wrote them. When the table passes [`GC_TRIGGER`] of its capacity, garbage
//!   collection empties the entries of earlier searches first (least effort first), and only
//!   then entries of the current search with the least effort (their subtree sizes), until
//!   it is back under [`GC_TARGET`].
//! - nothing the search depends on for its answer lives only in the table: the nodes of the
//!   current path keep their children's values on the search's own stack, so an entry lost
//!   to replacement or collection costs a re-search, never a wrong or different answer.

use crate::rules::Hand;
use std::alloc::Layout;

/// Proof and disproof numbers are capped here; this value means "infinite".
pub const INF: u32 = 1 << 30;
/// A depth or length meaning "no limit" (a disproof with this length holds at any depth).
pub const UNLIMITED: u16 = u16::MAX;

/// Entries per bucket (a bucket is 128 bytes: two cache lines).
pub const BUCKET: usize = 4;
/// Buckets in use after a clear (128 KB), or the whole table when it is smaller.
pub const START_BUCKETS: usize = 1024;
/// Fill ratio of the part in use at which it doubles.
pub const GROW_TRIGGER: f64 = 0.25;
/// Fill ratio above which an entry that finds its bucket full makes the part in use double
/// rather than replace an entry (below it such buckets are rare chance clusters).
pub const GROW_ON_FULL_BUCKET: f64 = 0.125;
/// Fill ratio (of the whole table) at which garbage collection runs.
pub const GC_TRIGGER: f64 = 0.80;
/// Fill ratio garbage collection brings the table back to.
pub const GC_TARGET: f64 = 0.50;

/// What an entry knows.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[repr(u8)]
pub enum State {
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
pub struct Entry {
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
    pub len: u16,
    /// Best move found (raw), for reading lines back.
    pub best: u16,
    /// What the entry knows.
    pub state: State,
    /// Table generation the entry belongs to (older ones count as empty).
    pub generation: u8,
    /// Age of the search that wrote the entry (see [`Table::new_search`]).
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
struct Bucket([Entry; BUCKET]);

/// What a lookup found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Found {
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
        len: u16,
        /// Proof pieces.
        hand: Hand,
        /// Best move.
        best: u16,
    },
    /// No mate within `len`, disproof pieces `hand`; `rep` when it holds only on this path.
    Disproven {
        /// No mate within this many plies.
        len: u16,
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
fn bucket_index(board: u64, mask: usize) -> usize {
    ((board ^ (board >> 29)) as usize) & mask
}

/// A table that cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The operating system refused the memory.
    #[error("cannot allocate a transposition table of {mb} MB: not enough memory")]
    OutOfMemory {
        /// The size asked for, in megabytes.
        mb: usize,
    },
    /// The size is beyond what this machine can address.
    #[error("a transposition table of {mb} MB is too large for this machine")]
    TooLarge {
        /// The size asked for, in megabytes.
        mb: usize,
    },
}

/// The bucket array: zeroed memory from the allocator, touched only where it is used.
///
/// Asked for with the C library's own alignment (so that a large request is served by
/// `calloc` from fresh, untouched pages rather than written with zeros) and a bucket's
/// worth of slack, and aligned by hand.
struct Buckets {
    base: *mut u8,
    layout: Layout,
    start: *mut Bucket,
    len: usize,
}

// SAFETY: `Buckets` owns its allocation exclusively, like a `Box<[Bucket]>`.
unsafe impl Send for Buckets {}
// SAFETY: shared access only reads.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn zeroed(len: usize, mb: usize) -> Result<Buckets, TableError> {
        let size = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .and_then(|s| s.checked_add(std::mem::align_of::<Bucket>()))
            .ok_or(TableError::TooLarge { mb })?;
        let layout = Layout::from_size_align(size, 16).map_err(|_| TableError::TooLarge { mb })?;
        // SAFETY: `layout` has a non-zero size.
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return Err(TableError::OutOfMemory { mb });
        }
        let offset = base.align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: the slack of one bucket's alignment keeps `len` buckets inside the block.
        let start = unsafe { base.add(offset) } as *mut Bucket;
        Ok(Buckets {
            base,
            layout,
            start,
            len,
        })
    }

    #[inline]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `start` is aligned, the block holds `len` buckets, and all-zero bytes are a
        // valid `Bucket` (every field an integer, `State::Empty` = 0).
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `as_slice`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.start, self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with `layout`.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

/// The table.
pub struct Table {
    buckets: Buckets,
    /// The buckets in use: `mask + 1` of them, a power of two.
    mask: usize,
    mb: usize,
    generation: u8,
    age: u16,
    used: usize,
    /// Number of garbage collections run.
    pub gc_runs: u64,
    /// Use hand superiority (a technique that can be switched off to measure it).
    pub hand_superiority: bool,
}

impl Table {
    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least
    /// 256 buckets, 32 KB). The memory is not touched here.
    pub fn new(mb: usize) -> Result<Table, TableError> {
        let bytes = mb
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or(TableError::TooLarge { mb })?;
        let mut n = 256usize;
        while n
            .checked_mul(2 * std::mem::size_of::<Bucket>())
            .is_some_and(|b| b <= bytes)
        {
            n *= 2;
        }
        Ok(Table {
            buckets: Buckets::zeroed(n, mb)?,
            mask: n.min(START_BUCKETS) - 1,
            mb,
            generation: 1,
            age: 0,
            used: 0,
            gc_runs: 0,
            hand_superiority: true,
        })
    }

    /// The size asked for, in megabytes.
    pub fn megabytes(&self) -> usize {
        self.mb
    }

    /// Starts a new search: entries written from now on are of a new age, and garbage
    /// collection ages out those of earlier searches first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Occupied slots.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Number of entry slots in use now (the table grows to [`Table::capacity`]).
    pub fn active_capacity(&self) -> usize {
        (self.mask + 1) * BUCKET
    }

    /// Doubles the part of the table in use: each entry of bucket `b` stays there or moves
    /// to `b + old size`, as the next bit of its key says (the upper half holds nothing of
    /// the current generation, so it takes the entry in the same slot).
    fn grow(&mut self) {
        let old = self.mask + 1;
        self.mask = self.mask * 2 + 1;
        let generation = self.generation;
        let mask = self.mask;
        let buckets = self.buckets.as_mut_slice();
        for b in 0..old {
            for i in 0..BUCKET {
                let e = buckets[b].0[i];
                if e.state == State::Empty || e.generation != generation {
                    continue;
                }
                let nb = bucket_index(e.board, mask);
                if nb != b {
                    debug_assert_eq!(nb, b + old);
                    buckets[nb].0[i] = e;
                    buckets[b].0[i].state = State::Empty;
                }
            }
        }
    }

    /// Number of entry slots.
    pub fn capacity(&self) -> usize {
        self.buckets.len * BUCKET
    }

    /// Occupied slots in thousandths (USI `hashfull`).
    pub fn permille_full(&self) -> u32 {
        (self.used as u64 * 1000 / self.capacity() as u64) as u32
    }

    /// Forgets everything, in O(1): the entries of the old generation count as empty from
    /// now on. Every 255 calls the memory is handed back and asked for anew (zeroed pages
    /// again, not written); should that fail, it is zeroed in place.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            let len = self.buckets.len;
            match Buckets::zeroed(len, self.mb) {
                Ok(b) => self.buckets = b,
                Err(_) => self.buckets.as_mut_slice().fill(Bucket::default()),
            }
            self.generation = 1;
        }
        self.used = 0;
        self.mask = self.buckets.len.min(START_BUCKETS) - 1;
    }

    #[inline]
    fn live(&self, e: &Entry) -> bool {
        e.state != State::Empty && e.generation == self.generation
    }

    #[inline]
    fn bucket_of(&self, board: u64) -> usize {
        bucket_index(board, self.mask)
    }

    /// Asks the processor to start loading the bucket of `board` (a lookup soon follows; the
    /// expansion of a node prefetches all its children's buckets first).
    #[inline]
    pub fn prefetch(&self, board: u64) {
        let p = &self.buckets.as_slice()[self.bucket_of(board)] as *const Bucket as *const i8;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; `p` points into the live bucket array.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p.add(64), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }

    /// Looks up `board` with attacker hand `hand` for a search needing the answer within
    /// `depth` plies, from a path with key `path`.
    #[inline]
    pub fn lookup(&self, board: u64, hand: Hand, depth: u16, path: u64) -> Found {
        let bucket = &self.buckets.as_slice()[self.bucket_of(board)].0;
        let mut unknown = Found::None;
        for e in bucket {
            if e.board != board || !self.live(e) {
                continue;
            }
            match e.state {
                State::Proven if e.len <= depth => {
                    let ok = if self.hand_superiority {
                        hand.superset_of(e.hand)
                    } else {
                        hand == e.hand
                    };
                    if ok {
                        return Found::Proven {
                            len: e.len,
                            hand: e.hand,
                            best: e.best,
                        };
                    }
                }
                State::Disproven if e.len >= depth => {
                    let ok = if self.hand_superiority {
                        e.hand.superset_of(hand)
                    } else {
                        hand == e.hand
                    };
                    if ok {
                        return Found::Disproven {
                            len: e.len,
                            hand: e.hand,
                            rep: false,
                        };
                    }
                }
                State::RepDisproven if e.hand == hand && e.path() == path && e.len >= depth => {
                    return Found::Disproven {
                        len: e.len,
                        hand: e.hand,
                        rep: true,
                    };
                }
                State::Unknown if e.hand == hand => {
                    unknown = Found::Unknown {
                        pn: e.pn,
                        dn: e.dn,
                        amount: e.amount,
                    };
                }
                _ => {}
            }
        }
        unknown
    }

    /// Stores an entry for `entry.board` / `entry.hand`: replaces the unknown entry of the
    /// same position, drops entries a new proof or disproof makes redundant, otherwise takes
    /// a free slot of the window or the one with the least effort.
    pub fn store(&mut self, mut entry: Entry) {
        entry.generation = self.generation;
        entry.age = self.age;
        let b = self.bucket_of(entry.board);
        let age = self.age;
        let can_grow = self.mask < self.buckets.len - 1
            && self.used as f64 > GROW_ON_FULL_BUCKET * self.active_capacity() as f64;
        let buckets = self.buckets.as_mut_slice();
        let mut free: Option<usize> = None;
        let mut victim = 0;
        let mut victim_amount = u32::MAX;
        for i in 0..BUCKET {
            let e = buckets[b].0[i];
            if e.state == State::Empty || e.generation != entry.generation {
                if free.is_none() {
                    free = Some(i);
                }
                continue;
            }
            if e.board == entry.board {
                // An old entry goes only when the new one answers every lookup it answered:
                // an unknown entry holds the progress of a search at depth `e.len`, and
                // dropping it for a proof or disproof that does not hold at that depth would
                // restart that search from scratch each time (df-pn would never converge).
                let redundant = match (entry.state, e.state) {
                    (State::Unknown, State::Unknown) => e.hand == entry.hand,
                    (State::Unknown, _) => false,
                    (State::Proven, State::Unknown) => {
                        e.hand.superset_of(entry.hand) && entry.len <= e.len
                    }
                    (State::Disproven, State::Unknown) => {
                        entry.hand.superset_of(e.hand) && entry.len >= e.len
                    }
                    (State::RepDisproven, State::Unknown) => {
                        e.hand == entry.hand && entry.len >= e.len
                    }
                    (State::Proven, State::Proven) => {
                        e.hand.superset_of(entry.hand) && e.len >= entry.len
                    }
                    (State::Disproven, State::Disproven) => {
                        entry.hand.superset_of(e.hand) && e.len <= entry.len
                    }
                    (State::RepDisproven, State::RepDisproven) => e.hand == entry.hand,
                    _ => false,
                };
                if redundant {
                    buckets[b].0[i].state = State::Empty;
                    self.used -= 1;
                    if free.is_none() {
                        free = Some(i);
                    }
                    continue;
                }
            }
            let weight = match e.state {
                // Solved entries are worth more than their effort suggests.
                State::Proven | State::Disproven => e.amount.saturating_mul(4),
                _ => e.amount,
            };
            // Entries of earlier searches go before any of the current one.
            let weight = if e.age == age {
                weight.saturating_add(1 << 31)
            } else {
                weight.min((1 << 31) - 1)
            };
            if weight < victim_amount {
                victim_amount = weight;
                victim = i;
            }
        }
        let i = match free {
            Some(i) => {
                self.used += 1;
                i
            }
            None if can_grow => {
                // No entry is given up while memory is left unused: grow, then store.
                self.grow();
                return self.store(entry);
            }
            None => victim,
        };
        buckets[b].0[i] = entry;
        if self.mask < self.buckets.len - 1 {
            if self.used as f64 > GROW_TRIGGER * self.active_capacity() as f64 {
                self.grow();
            }
        } else if self.used as f64 > GC_TRIGGER * self.capacity() as f64 {
            self.collect_garbage();
        }
    }

    /// Forgets the estimates of unfinished searches, keeping proofs and disproofs (which
    /// hold for any search) — before searching an unrelated root with the same table.
    pub fn drop_unknown(&mut self) {
        let generation = self.generation;
        let mut removed = 0;
        let active = self.mask + 1;
        for b in self.buckets.as_mut_slice()[..active].iter_mut() {
            for e in b.0.iter_mut() {
                if e.generation == generation && e.state == State::Unknown {
                    e.state = State::Empty;
                    removed += 1;
                }
            }
        }
        self.used -= removed;
    }

    /// Empties entries until the table is at [`GC_TARGET`]: those of earlier searches
    /// first, then those of the current search; within each, least effort first.
    pub fn collect_garbage(&mut self) {
        self.gc_runs += 1;
        let target = (GC_TARGET * self.capacity() as f64) as usize;
        if self.used <= target {
            return;
        }
        // Removal classes: entries of earlier searches in 0..33, of the current one in
        // 33..66, by log2(effort) within each. A histogram finds the cut.
        let (generation, age) = (self.generation, self.age);
        let class = |e: &Entry| -> usize {
            let effort = 32 - e.amount.leading_zeros() as usize;
            if e.age == age { 33 + effort } else { effort }
        };
        let mut hist = [0usize; 66];
        for b in self.buckets.as_slice() {
            for e in &b.0 {
                if e.state != State::Empty && e.generation == generation {
                    hist[class(e)] += 1;
                }
            }
        }
        let mut to_remove = self.used - target;
        let mut cut = 0;
        let mut partial = 0;
        for (c, &n) in hist.iter().enumerate() {
            if n >= to_remove {
                cut = c;
                partial = to_remove;
                break;
            }
            to_remove -= n;
        }
        let mut removed = 0;
        for b in self.buckets.as_mut_slice().iter_mut() {
            for e in b.0.iter_mut() {
                if e.state == State::Empty || e.generation != generation {
                    continue;
                }
                let c = class(e);
                if c < cut || (c == cut && partial > 0) {
                    if c == cut {
                        partial -= 1;
                    }
                    e.state = State::Empty;
                    removed += 1;
                }
            }
        }
        self.used -= removed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PieceKind;

    fn entry(board: u64, hand: Hand, state: State, len: u16) -> Entry {
        Entry {
            board,
            hand,
            state,
            len,
            pn: if state == State::Proven { 0 } else { INF },
            dn: if state == State::Proven { INF } else { 0 },
            amount: 1,
            ..Entry::default()
        }
    }

    #[test]
    fn hand_superiority() {
        let mut t = Table::new(1).unwrap();
        let one = Hand::EMPTY.with(PieceKind::Crane);
        let two = one.with(PieceKind::Swallow);
        t.store(entry(42, one, State::Proven, 5));
        // A larger attacker hand is mated too, at the same or greater depth.
        assert!(matches!(
            t.lookup(42, two, 5, 0),
            Found::Proven { len: 5, .. }
        ));
        assert!(matches!(t.lookup(42, two, 4, 0), Found::None));
        assert!(matches!(t.lookup(42, Hand::EMPTY, 9, 0), Found::None));
        t.store(entry(43, one, State::Disproven, 7));
        assert!(matches!(
            t.lookup(43, Hand::EMPTY, 7, 0),
            Found::Disproven { .. }
        ));
        assert!(matches!(t.lookup(43, two, 7, 0), Found::None));
        assert!(matches!(t.lookup(43, one, 9, 0), Found::None));
    }

    #[test]
    fn repetition_disproof_is_path_bound() {
        let mut t = Table::new(1).unwrap();
        let mut e = entry(7, Hand::EMPTY, State::RepDisproven, UNLIMITED);
        e.set_path(99);
        t.store(e);
        assert!(matches!(
            t.lookup(7, Hand::EMPTY, 3, 99),
            Found::Disproven { rep: true, .. }
        ));
        assert_eq!(t.lookup(7, Hand::EMPTY, 3, 98), Found::None);
        // A repetition disproof found with a length limit says nothing beyond it.
        let mut e = entry(8, Hand::EMPTY, State::RepDisproven, 6);
        e.set_path(99);
        t.store(e);
        assert!(matches!(
            t.lookup(8, Hand::EMPTY, 6, 99),
            Found::Disproven { .. }
        ));
        assert_eq!(t.lookup(8, Hand::EMPTY, 8, 99), Found::None);
    }

    #[test]
    fn garbage_collection_keeps_the_table_bounded() {
        let mut t = Table::new(1).unwrap();
        let cap = t.capacity();
        for i in 0..(cap as u64 * 3) {
            let mut e = entry(
                i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Hand::EMPTY,
                State::Unknown,
                1,
            );
            e.amount = (i % 100) as u32 + 1;
            t.store(e);
        }
        assert!(t.gc_runs > 0);
        assert!(t.permille_full() <= (GC_TRIGGER * 1000.0) as u32 + 1);
    }

    fn hand(counts: &[(PieceKind, u32)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(k, n) in counts {
            h.set(k, n);
        }
        h
    }

    /// Fills the table's bucket of key `board` (entries differing in their hands).
    fn fill_bucket(t: &mut Table, board: u64, amount: u32) -> Vec<Hand> {
        let hands: Vec<Hand> = (0..BUCKET as u32)
            .map(|i| hand(&[(PieceKind::Swallow, i + 1)]))
            .collect();
        for &h in &hands {
            let mut e = entry(board, h, State::Unknown, 3);
            e.amount = amount;
            t.store(e);
        }
        hands
    }

    fn unknown_at(t: &Table, board: u64, h: Hand) -> bool {
        matches!(t.lookup(board, h, 3, 0), Found::Unknown { .. })
    }

    #[test]
    fn clear_forgets_everything_in_every_generation() {
        let mut t = Table::new(1).unwrap();
        // Past the 8-bit generation's wrap, where the memory is asked for anew.
        for round in 0..600u64 {
            let board = 1000 + round;
            t.store(entry(board, Hand::EMPTY, State::Proven, 3));
            assert!(matches!(
                t.lookup(board, Hand::EMPTY, 3, 0),
                Found::Proven { .. }
            ));
            assert_eq!(t.used(), 1);
            t.clear();
            assert_eq!(t.used(), 0);
            assert_eq!(t.lookup(board, Hand::EMPTY, 3, 0), Found::None);
            // An entry of the previous generation is gone too.
            assert_eq!(t.lookup(board - 1, Hand::EMPTY, 3, 0), Found::None);
        }
    }

    #[test]
    fn replacement_takes_entries_of_earlier_searches_first() {
        let mut t = Table::new(1).unwrap();
        t.new_search();
        let old = fill_bucket(&mut t, 77, 1_000_000);
        t.new_search();
        // A full bucket of expensive entries of the previous search, then cheap ones of
        // this search: each new one replaces an old one, never one of its own search.
        for i in 0..BUCKET as u32 {
            let h = hand(&[(PieceKind::Crane, 1), (PieceKind::Pheasant, i)]);
            let mut e = entry(77, h, State::Unknown, 3);
            e.amount = 1;
            t.store(e);
            assert!(unknown_at(&t, 77, h));
        }
        assert!(old.iter().all(|&h| !unknown_at(&t, 77, h)));
        // Within one search, the entry with the least effort goes.
        let h = hand(&[(PieceKind::LeftQuail, 1)]);
        let mut e = entry(77, h, State::Unknown, 3);
        e.amount = 5;
        t.store(e);
        assert!(unknown_at(&t, 77, h));
        assert_eq!(
            (0..BUCKET as u32)
                .filter(|&i| unknown_at(
                    &t,
                    77,
                    hand(&[(PieceKind::Crane, 1), (PieceKind::Pheasant, i)])
                ))
                .count(),
            BUCKET - 1
        );
    }

    #[test]
    fn garbage_collection_ages_out_earlier_searches_first() {
        let mut t = Table::new(1).unwrap();
        let cap = t.capacity() as u64;
        // An earlier search fills 60 % of the table with expensive entries.
        t.new_search();
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let old_n = cap * 6 / 10;
        for i in 0..old_n {
            let mut e = entry(key(i), Hand::EMPTY, State::Proven, 5);
            e.amount = 1 << 20;
            t.store(e);
        }
        let old_kept = t.used() as u64;
        assert!(old_kept > old_n * 9 / 10, "old entries stored: {old_kept}");
        // The current search stores cheap entries until collection runs.
        t.new_search();
        let runs = t.gc_runs;
        let alive =
            |t: &Table, n: u64| (0..n).filter(|&j| unknown_at2(t, key(1 << 40 | j))).count();
        let mut i = 0;
        let mut before = 0;
        while t.gc_runs == runs {
            if t.used() as f64 >= GC_TRIGGER * cap as f64 - 1.0 {
                before = alive(&t, i);
            }
            let mut e = entry(key(1 << 40 | i), Hand::EMPTY, State::Unknown, 5);
            e.amount = 1;
            t.store(e);
            i += 1;
        }
        // The collection took old entries only, although each is worth far more effort:
        // every entry of the current search alive before it is alive after it.
        assert!(before > 0);
        assert!(alive(&t, i) > before, "{} of {before} kept", alive(&t, i));
        assert!(t.permille_full() <= (GC_TARGET * 1000.0) as u32 + 1);
    }

    fn unknown_at2(t: &Table, board: u64) -> bool {
        matches!(t.lookup(board, Hand::EMPTY, 5, 0), Found::Unknown { .. })
    }

    #[test]
    fn impossible_sizes_are_errors() {
        assert!(matches!(
            Table::new(usize::MAX),
            Err(TableError::TooLarge { .. })
        ));
        // 2^46 bytes: addressable, but more than any machine this runs on can give.
        assert!(Table::new(1 << 26).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn memory_is_touched_only_where_used() {
        fn resident_kb() -> u64 {
            let s = std::fs::read_to_string("/proc/self/statm").unwrap();
            let pages: u64 = s.split_whitespace().nth(1).unwrap().parse().unwrap();
            pages * 4
        }
        let before = resident_kb();
        let mut t = Table::new(1024).unwrap();
        t.store(entry(5, Hand::EMPTY, State::Proven, 1));
        t.clear();
        // A small search: 20,000 entries. Spread over the whole gigabyte they would touch
        // some 20,000 pages (80 MB); the table grows from a small part instead.
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for i in 0..20_000 {
            t.store(entry(key(i), Hand::EMPTY, State::Proven, 1));
        }
        let grown = resident_kb().saturating_sub(before);
        // Other test threads allocate too, but far less than this.
        assert!(grown < 30_000, "a 1 GB table made {grown} KB resident");
        // Bucket replacement in chance clusters aside, every entry is kept.
        let found = (0..20_000)
            .filter(|&i| matches!(t.lookup(key(i), Hand::EMPTY, 1, 0), Found::Proven { .. }))
            .count();
        assert!(found >= 19_800, "{found} of 20000");
    }

    #[test]
    fn the_part_in_use_grows_keeping_every_entry_and_clear_shrinks_it() {
        let mut t = Table::new(16).unwrap();
        let start = t.active_capacity();
        assert_eq!(start, START_BUCKETS * BUCKET);
        let key = |i: u64| i.wrapping_mul(0xd6e8_feb8_6659_fd93) | 1;
        let n = start as u64 * 3;
        for i in 0..n {
            let mut e = entry(key(i), Hand::EMPTY, State::Disproven, 4);
            e.amount = i as u32;
            t.store(e);
        }
        assert!(t.active_capacity() >= 4 * start, "{}", t.active_capacity());
        assert_eq!(t.gc_runs, 0);
        // Every entry is found after the moves (bucket replacement aside, which a table
        // kept half empty makes rare).
        let found = (0..n)
            .filter(|&i| matches!(t.lookup(key(i), Hand::EMPTY, 4, 0), Found::Disproven { .. }))
            .count() as u64;
        assert!(found * 1000 >= n * 995, "{found} of {n}");
        assert_eq!(t.used() as u64, found);
        t.clear();
        assert_eq!(t.active_capacity(), start);
        assert!((0..n).all(|i| t.lookup(key(i), Hand::EMPTY, 4, 0) == Found::None));
    }
}
