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
//! Memory is a fixed array of cache-line-aligned buckets of [`BUCKET`] 32-byte entries ([`entry`]), sized
//! by `--hash`; an entry lives in the bucket its board key selects, so a lookup touches two
//! cache lines.
//!
//! How the memory is managed:
//! - it is asked of the operating system zeroed ([`std::alloc::alloc_zeroed`] of a size the
//!   C library serves from fresh pages, [`memory`]), and an all-zero entry is an empty one: nothing is
//!   written up front, and a page costs something only once the search touches it. A size
//!   that cannot be had is an error ([`TableError`]), never an abort.
//! - clearing is by generation: each entry carries the generation it was written in, and
//!   [`Table::clear`] moves to the next one in O(1) (entries of older generations count as
//!   empty). When the 8-bit generation wraps, the memory is handed back and asked for anew,
//!   zeroed, rather than written over.
//! - only a part of the memory is in use at first ([`upkeep`]) ([`START_BUCKETS`] buckets): when it is
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
//! - threads share one table without locks: every entry is four atomic words, the first
//!   checking the others, so that a read mixing two writes is a miss ([`entry`]), and a
//!   write lost to another thread's is an entry lost. A table grows only while one thread
//!   has it: once [`Table::share`] has marked it shared (until it is cleared), no store makes
//!   it grow; it only says that it wants to ([`Table::wants_to_grow`]), and the thread that
//!   shared it stops the others, waits for them to let go, and grows it
//!   ([`Table::grow_alone`]), splitting the moves among as many threads as searched it. So
//!   a solve touches as much of the table on several threads as on one. Once shared, each
//!   thread counts the slots it fills in its own [`Tally`] and adds them to the table's
//!   count now and then, and one collection runs at a time.

mod entry;
#[cfg(test)]
mod growth_tests;
mod memory;
#[cfg(test)]
mod tests;
mod upkeep;

use entry::{Bucket, bucket_index};
pub(crate) use entry::{Entry, Found, State};
use memory::Buckets;
pub use memory::TableError;

use super::value::Depth;
use crate::rules::Hand;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU64, AtomicUsize, Ordering};

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
/// Buckets in use (1 MB) from which a shared table's doubling is split among threads
/// ([`Table::grow_alone`]): below it, starting a thread costs more than it saves.
pub const PARALLEL_GROW_BUCKETS: usize = 8192;
/// Slots a thread of a shared table fills (or frees) before it adds them to the table's
/// count.
const SHARED_TALLY: isize = 256;

/// The table.
pub(crate) struct Table {
    buckets: Buckets,
    /// The buckets in use: `mask + 1` of them, a power of two.
    mask: AtomicUsize,
    mb: usize,
    generation: AtomicU8,
    age: AtomicU16,
    /// Occupied slots (of a shared table: as the threads last added their tallies).
    used: AtomicUsize,
    /// Number of garbage collections run.
    gc_runs: AtomicU64,
    /// Set while a collection runs (one at a time).
    collecting: AtomicBool,
    /// Use hand superiority (a technique that can be switched off to measure it).
    hand_superiority: bool,
    /// The memory is asked for on huge pages (and again so when it is handed back and asked
    /// for anew).
    huge_pages: bool,
    /// Handed to other threads ([`Table::share`]) until cleared: it then grows only while
    /// they have all stopped ([`Table::grow_alone`]).
    shared: AtomicBool,
    /// A shared table met a full bucket while it could have grown (a table used alone grows
    /// at once then).
    grow_wanted: AtomicBool,
}

/// The slots one thread filled (positive) or freed in a table since it last added them to
/// the table's count.
#[derive(Default, Debug)]
pub(crate) struct Tally(isize);

impl Table {
    /// A table of about `mb` megabytes on huge pages where the system has them (see
    /// [`Table::with_pages`]).
    #[cfg(test)]
    pub(crate) fn new(mb: usize, hand_superiority: bool) -> Result<Table, TableError> {
        Self::with_pages(mb, hand_superiority, true)
    }

    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least
    /// 256 buckets, 32 KB), answering by hand superiority when `hand_superiority` (else for
    /// exact hands only), asking for huge pages only when `huge_pages` (see
    /// [`crate::solver::SolverConfig::huge_pages`]). The memory is not touched here.
    pub(crate) fn with_pages(
        mb: usize,
        hand_superiority: bool,
        huge_pages: bool,
    ) -> Result<Table, TableError> {
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
            buckets: Buckets::zeroed(n, mb, huge_pages)?,
            mask: AtomicUsize::new(Self::start_buckets(n) - 1),
            mb,
            generation: AtomicU8::new(1),
            age: AtomicU16::new(0),
            used: AtomicUsize::new(0),
            gc_runs: AtomicU64::new(0),
            collecting: AtomicBool::new(false),
            hand_superiority,
            huge_pages,
            shared: AtomicBool::new(false),
            grow_wanted: AtomicBool::new(false),
        })
    }

    /// Buckets in use after a clear, of `n`.
    fn start_buckets(n: usize) -> usize {
        n.min(START_BUCKETS)
    }

    /// Whether other threads may be using the table ([`Table::share`]).
    #[inline]
    pub(crate) fn is_shared(&self) -> bool {
        self.shared.load(Ordering::Relaxed)
    }

    /// Makes the table fit for other threads to use: from now on until it is cleared, no
    /// store makes it grow (a table growing under another thread's reads would lose entries
    /// to it mid-move). It grows only when the thread that shared it has stopped the others
    /// and calls [`Table::grow_alone`], asked to by [`Table::wants_to_grow`]. To be called by
    /// the one thread using the table, before it hands the table to others.
    pub(crate) fn share(&self) {
        self.shared.store(true, Ordering::Release);
    }

    /// Whether the part in use should double, as a table used alone would have doubled by
    /// now (it is a quarter full, or an eighth full and a bucket was full). A shared table
    /// only says so; see [`Table::grow_alone`].
    pub(crate) fn wants_to_grow(&self) -> bool {
        self.due_to_double(
            self.used.load(Ordering::Relaxed) as f64,
            self.grow_wanted.load(Ordering::Relaxed),
        )
    }

    /// Whether the part in use, with `used` slots occupied, should double: it is not the
    /// whole table yet, and it is [`GROW_TRIGGER`] full, or [`GROW_ON_FULL_BUCKET`] full
    /// when an entry found its bucket full (`full_bucket`). The one rule of growth, for a
    /// table alone ([`Table::store`], [`Table::upkeep`]) and a shared one
    /// ([`Table::wants_to_grow`]).
    #[inline]
    fn due_to_double(&self, used: f64, full_bucket: bool) -> bool {
        let active = self.active_capacity() as f64;
        self.mask() < self.buckets.len - 1
            && (used > GROW_TRIGGER * active
                || (full_bucket && used > GROW_ON_FULL_BUCKET * active))
    }

    /// Doubles the part in use until it no longer [wants to grow](Table::wants_to_grow).
    /// Only while no other thread uses the table: the caller has stopped every thread it
    /// shared the table with and waited for them to let go of it. The cores those threads
    /// searched on being idle meanwhile, the moves are split among `threads` threads
    /// ([`Table::grow_on`]).
    pub(crate) fn grow_alone(&self, threads: usize) {
        while self.wants_to_grow() {
            self.grow_on(threads);
            self.grow_wanted.store(false, Ordering::Relaxed);
        }
        self.grow_wanted.store(false, Ordering::Relaxed);
    }

    /// Starts a new search: entries written from now on are of a new age, and garbage
    /// collection ages out those of earlier searches first.
    pub(crate) fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// Occupied slots.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Number of garbage collections run.
    #[cfg(test)]
    pub(crate) fn gc_runs(&self) -> u64 {
        self.gc_runs.load(Ordering::Relaxed)
    }

    #[inline]
    fn mask(&self) -> usize {
        self.mask.load(Ordering::Relaxed)
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Number of entry slots in use now (the table grows to [`Table::capacity`]).
    pub(crate) fn active_capacity(&self) -> usize {
        (self.mask() + 1) * BUCKET
    }

    /// Number of entry slots.
    pub(crate) fn capacity(&self) -> usize {
        self.buckets.len * BUCKET
    }

    /// Occupied slots in thousandths (USI `hashfull`).
    pub(crate) fn permille_full(&self) -> u32 {
        (self.used.load(Ordering::Relaxed) as u64 * 1000 / self.capacity() as u64).min(1000) as u32
    }

    /// Forgets everything, in O(1): the entries of the old generation count as empty from
    /// now on. Every 255 calls the memory is handed back and asked for anew (zeroed pages
    /// again, not written); should that fail, it is zeroed in place.
    pub(crate) fn clear(&mut self) {
        let g = self.generation.get_mut();
        *g = g.wrapping_add(1);
        if *g == 0 {
            let len = self.buckets.len;
            match Buckets::zeroed(len, self.mb, self.huge_pages) {
                Ok(b) => self.buckets = b,
                Err(_) => {
                    for b in self.buckets.as_slice() {
                        for i in 0..BUCKET {
                            b.clear(i);
                        }
                    }
                }
            }
            *self.generation.get_mut() = 1;
        }
        *self.used.get_mut() = 0;
        *self.mask.get_mut() = Self::start_buckets(self.buckets.len) - 1;
        *self.shared.get_mut() = false;
        *self.grow_wanted.get_mut() = false;
    }

    /// Forgets everything while other threads may still hold the table: the next generation,
    /// and at its wrap every entry zeroed in place.
    pub(crate) fn clear_in_place(&self) {
        let g = self
            .generation
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_add(1);
        if g == 0 {
            for b in self.buckets.as_slice() {
                for i in 0..BUCKET {
                    b.clear(i);
                }
            }
            self.generation.store(1, Ordering::Relaxed);
        }
        self.used.store(0, Ordering::Relaxed);
    }

    #[inline]
    fn bucket_of(&self, board: u64) -> &Bucket {
        &self.buckets.as_slice()[bucket_index(board, self.mask())]
    }

    /// Asks the processor to start loading the bucket of `board` (a lookup soon follows; the
    /// expansion of a node prefetches all its children's buckets first).
    #[inline]
    pub(crate) fn prefetch(&self, board: u64) {
        let p = self.bucket_of(board) as *const Bucket as *const i8;
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

    /// Whether an entry for hand `smaller` answers a lookup with hand `larger` (a proof's
    /// pieces and the hand looked up, or the hand looked up and a disproof's pieces): by
    /// hand superiority `larger ⊇ smaller`, else only the same hand.
    #[inline]
    fn covers(&self, larger: Hand, smaller: Hand) -> bool {
        if self.hand_superiority {
            larger.superset_of(smaller)
        } else {
            larger == smaller
        }
    }

    /// Looks up `board` with attacker hand `hand` for a search needing the answer within
    /// `depth` plies, from a path with key `path`.
    #[inline]
    pub(crate) fn lookup(&self, board: u64, hand: Hand, depth: Depth, path: u64) -> Found {
        let bucket = self.bucket_of(board);
        let generation = self.generation();
        let mut unknown = Found::None;
        for i in 0..BUCKET {
            let Some(e) = bucket.get_live(i, board, generation) else {
                continue;
            };
            match e.state {
                State::Proven if e.len <= depth && self.covers(hand, e.hand) => {
                    return Found::Proven {
                        len: e.len,
                        hand: e.hand,
                        best: e.best,
                        exact: false,
                    };
                }
                State::ProvenExact if e.len <= depth && e.hand == hand => {
                    return Found::Proven {
                        len: e.len,
                        hand: e.hand,
                        best: e.best,
                        exact: true,
                    };
                }
                State::Disproven if e.len >= depth && self.covers(e.hand, hand) => {
                    return Found::Disproven {
                        len: e.len,
                        hand: e.hand,
                        rep: false,
                        exact: false,
                    };
                }
                State::DisprovenExact if e.len >= depth && e.hand == hand => {
                    return Found::Disproven {
                        len: e.len,
                        hand: e.hand,
                        rep: false,
                        exact: true,
                    };
                }
                State::RepDisproven if e.hand == hand && e.path() == path && e.len >= depth => {
                    return Found::Disproven {
                        len: e.len,
                        hand: e.hand,
                        rep: true,
                        exact: true,
                    };
                }
                // Estimates made with more plies to spare mislead a shallower search: a small
                // pn where it must now disprove (a minimality proof after a longer mate
                // once stalled for minutes on them). Ones made with fewer plies serve.
                State::Unknown if e.hand == hand && e.len <= depth => {
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

    /// The refuting reply of a disproof of `board` (a defender node) with any attacker hand,
    /// if the table holds one.
    #[inline]
    pub(crate) fn refutation_hint(&self, board: u64) -> Option<u16> {
        let bucket = self.bucket_of(board);
        let generation = self.generation();
        (0..BUCKET).find_map(|i| {
            let e = bucket.get_live(i, board, generation)?;
            (matches!(e.state, State::Disproven | State::DisprovenExact) && e.best != 0)
                .then_some(e.best)
        })
    }

    /// Stores an entry for `entry.board` / `entry.hand`: replaces the unknown entry of the
    /// same position, drops entries a new proof or disproof makes redundant, otherwise takes
    /// a free slot of the window or the one with the least effort. The slots filled or
    /// freed are counted in `tally` (the storing thread's).
    pub(crate) fn store(&self, mut entry: Entry, tally: &mut Tally) {
        let generation = self.generation();
        let age = self.age.load(Ordering::Relaxed);
        entry.generation = generation;
        entry.age = age;
        let mask = self.mask();
        let bucket = &self.buckets.as_slice()[bucket_index(entry.board, mask)];
        let used = self.used.load(Ordering::Relaxed) as isize + tally.0;
        let shared = self.is_shared();
        // A full bucket makes a table this full double (a shared one only says so).
        let grow_on_full = self.due_to_double(used as f64, true);
        let can_grow = !shared && grow_on_full;
        let mut free: Option<usize> = None;
        let mut victim = 0;
        let mut victim_amount = u32::MAX;
        for i in 0..BUCKET {
            let Some(e) = bucket.get_if_live(i, generation) else {
                if free.is_none() {
                    free = Some(i);
                }
                continue;
            };
            if e.board == entry.board {
                // An old entry goes only when the new one answers every lookup it answered:
                // an unknown entry holds the progress of a search at depth `e.len`, and
                // dropping it for a proof or disproof that does not hold at that depth would
                // restart that search from scratch each time (df-pn would never converge).
                let redundant = match (entry.state, e.state) {
                    (State::Unknown, State::Unknown) => e.hand == entry.hand,
                    (State::Unknown, _) => false,
                    (State::Proven, State::Unknown) => {
                        self.covers(e.hand, entry.hand) && entry.len <= e.len
                    }
                    (State::Disproven, State::Unknown) => {
                        self.covers(entry.hand, e.hand) && entry.len >= e.len
                    }
                    (State::RepDisproven, State::Unknown) => {
                        e.hand == entry.hand && entry.len >= e.len
                    }
                    (State::Proven, State::Proven) => {
                        self.covers(e.hand, entry.hand) && e.len >= entry.len
                    }
                    (State::Disproven, State::Disproven) => {
                        self.covers(entry.hand, e.hand) && e.len <= entry.len
                    }
                    (State::RepDisproven, State::RepDisproven) => e.hand == entry.hand,
                    // An answer for one hand alone replaces what it answers for that hand.
                    (State::ProvenExact, State::Unknown | State::ProvenExact) => {
                        e.hand == entry.hand && entry.len <= e.len
                    }
                    (State::DisprovenExact, State::Unknown | State::DisprovenExact) => {
                        e.hand == entry.hand && entry.len >= e.len
                    }
                    _ => false,
                };
                if redundant {
                    bucket.clear(i);
                    tally.0 -= 1;
                    if free.is_none() {
                        free = Some(i);
                    }
                    continue;
                }
            }
            let weight = match e.state {
                // Solved entries are worth more than their effort suggests.
                State::Proven | State::Disproven | State::ProvenExact | State::DisprovenExact => {
                    e.amount.saturating_mul(4)
                }
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
                tally.0 += 1;
                i
            }
            None if can_grow => {
                // No entry is given up while memory is left unused: grow, then store.
                self.add_tally(tally);
                self.grow();
                return self.store(entry, tally);
            }
            None => {
                if grow_on_full {
                    // Shared (else it would have grown above): the leader grows it.
                    self.grow_wanted.store(true, Ordering::Relaxed);
                }
                victim
            }
        };
        bucket.set(i, &entry);
        if !shared || tally.0.abs() >= SHARED_TALLY {
            self.add_tally(tally);
            self.upkeep();
        }
    }

    /// Adds a thread's tally to the table's count.
    fn add_tally(&self, tally: &mut Tally) {
        if tally.0 > 0 {
            self.used.fetch_add(tally.0 as usize, Ordering::Relaxed);
        } else if tally.0 < 0 {
            let n = tally.0.unsigned_abs();
            let _ = self
                .used
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |u| {
                    Some(u.saturating_sub(n))
                });
        }
        tally.0 = 0;
    }

    /// Grows the part in use or collects garbage when the count says so.
    fn upkeep(&self) {
        let used = self.used.load(Ordering::Relaxed) as f64;
        if !self.is_shared() && self.mask() < self.buckets.len - 1 {
            if self.due_to_double(used, false) {
                self.grow();
            }
        } else if used > GC_TRIGGER * self.capacity() as f64
            && self
                .collecting
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            self.collect_garbage();
            self.collecting.store(false, Ordering::Release);
        }
    }
}
