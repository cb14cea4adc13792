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
//! cache lines. When the table passes [`GC_TRIGGER`] of its capacity, garbage collection
//! empties the entries with the least search effort (their subtree sizes) until it is back
//! under [`GC_TARGET`].

use crate::rules::Hand;

/// Proof and disproof numbers are capped here; this value means "infinite".
pub const INF: u32 = 1 << 30;
/// A depth or length meaning "no limit" (a disproof with this length holds at any depth).
pub const UNLIMITED: u16 = u16::MAX;

/// Entries per bucket (a bucket is 128 bytes: two cache lines).
pub const BUCKET: usize = 4;
/// Fill ratio at which garbage collection runs.
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

/// The table.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
    used: usize,
    /// Number of garbage collections run.
    pub gc_runs: u64,
    /// Use hand superiority (a technique that can be switched off to measure it).
    pub hand_superiority: bool,
}

impl Table {
    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least
    /// 256 buckets).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024;
        let mut n = 256usize;
        while n * 2 * std::mem::size_of::<Bucket>() <= bytes {
            n *= 2;
        }
        Table {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            generation: 1,
            used: 0,
            gc_runs: 0,
            hand_superiority: true,
        }
    }

    /// Number of entry slots.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    /// Occupied slots in thousandths (USI `hashfull`).
    pub fn permille_full(&self) -> u32 {
        (self.used as u64 * 1000 / self.capacity() as u64) as u32
    }

    /// Forgets everything (in O(1) but for a real clear every 255 calls).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
        self.used = 0;
    }

    #[inline]
    fn live(&self, e: &Entry) -> bool {
        e.state != State::Empty && e.generation == self.generation
    }

    #[inline]
    fn bucket_of(&self, board: u64) -> usize {
        // The low bits choose the bucket; mix in the high ones so that keys differing only
        // there spread too.
        ((board ^ (board >> 29)) as usize) & self.mask
    }

    /// Asks the processor to start loading the bucket of `board` (a lookup soon follows; the
    /// expansion of a node prefetches all its children's buckets first).
    #[inline]
    pub fn prefetch(&self, board: u64) {
        let p = &self.buckets[self.bucket_of(board)] as *const Bucket as *const i8;
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
        let bucket = &self.buckets[self.bucket_of(board)].0;
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
        let b = self.bucket_of(entry.board);
        let mut free: Option<usize> = None;
        let mut victim = 0;
        let mut victim_amount = u32::MAX;
        for i in 0..BUCKET {
            let e = self.buckets[b].0[i];
            if !self.live(&e) {
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
                    self.buckets[b].0[i].state = State::Empty;
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
            None => victim,
        };
        self.buckets[b].0[i] = entry;
        if self.used as f64 > GC_TRIGGER * self.capacity() as f64 {
            self.collect_garbage();
        }
    }

    /// Forgets the estimates of unfinished searches, keeping proofs and disproofs (which
    /// hold for any search) — before searching an unrelated root with the same table.
    pub fn drop_unknown(&mut self) {
        let generation = self.generation;
        let mut removed = 0;
        for b in self.buckets.iter_mut() {
            for e in b.0.iter_mut() {
                if e.generation == generation && e.state == State::Unknown {
                    e.state = State::Empty;
                    removed += 1;
                }
            }
        }
        self.used -= removed;
    }

    /// Empties the entries with the least search effort until the table is at
    /// [`GC_TARGET`].
    pub fn collect_garbage(&mut self) {
        self.gc_runs += 1;
        let target = (GC_TARGET * self.capacity() as f64) as usize;
        if self.used <= target {
            return;
        }
        // Find the effort threshold by a histogram over log2(amount).
        let mut hist = [0usize; 33];
        let generation = self.generation;
        for b in &self.buckets {
            for e in &b.0 {
                if e.state != State::Empty && e.generation == generation {
                    hist[32 - e.amount.leading_zeros() as usize] += 1;
                }
            }
        }
        let mut to_remove = self.used - target;
        let mut cut = 0;
        let mut partial = 0;
        for (b, &n) in hist.iter().enumerate() {
            if n >= to_remove {
                cut = b;
                partial = to_remove;
                break;
            }
            to_remove -= n;
        }
        let mut removed = 0;
        for b in self.buckets.iter_mut() {
            for e in b.0.iter_mut() {
                if e.state == State::Empty || e.generation != generation {
                    continue;
                }
                let class = 32 - e.amount.leading_zeros() as usize;
                if class < cut || (class == cut && partial > 0) {
                    if class == cut {
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
        let mut t = Table::new(1);
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
        let mut t = Table::new(1);
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
        let mut t = Table::new(1);
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
}
