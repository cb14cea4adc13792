//! The table's unit tests: lookups by hand superiority and depth, path-bound repetition
//! disproofs, replacement, garbage collection, growth and clearing, memory use.

use super::*;
use crate::rules::PieceKind;
use crate::solver::value::INF;

impl Table {
    /// Stores `e` as a thread alone would (its tally added at once).
    pub(super) fn put(&self, e: Entry) {
        self.store(e, &mut Tally::default());
    }
}

pub(super) fn entry(board: u64, hand: Hand, state: State, len: Depth) -> Entry {
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
    let t = Table::new(1, true).unwrap();
    let one = Hand::EMPTY.with(PieceKind::Crane);
    let two = one.with(PieceKind::Swallow);
    t.put(entry(42, one, State::Proven, Depth::plies(5)));
    // A larger attacker hand is mated too, at the same or greater depth.
    assert!(matches!(
        t.lookup(42, two, Depth::plies(5), 0),
        Found::Proven { len, .. } if len == Depth::plies(5)
    ));
    assert!(matches!(t.lookup(42, two, Depth::plies(4), 0), Found::None));
    assert!(matches!(
        t.lookup(42, Hand::EMPTY, Depth::plies(9), 0),
        Found::None
    ));
    t.put(entry(43, one, State::Disproven, Depth::plies(7)));
    assert!(matches!(
        t.lookup(43, Hand::EMPTY, Depth::plies(7), 0),
        Found::Disproven { .. }
    ));
    assert!(matches!(t.lookup(43, two, Depth::plies(7), 0), Found::None));
    assert!(matches!(t.lookup(43, one, Depth::plies(9), 0), Found::None));
}

#[test]
fn without_hand_superiority_only_the_exact_hand_answers() {
    let t = Table::new(1, false).unwrap();
    let one = Hand::EMPTY.with(PieceKind::Crane);
    let two = one.with(PieceKind::Swallow);
    t.put(entry(42, one, State::Proven, Depth::plies(5)));
    assert!(matches!(
        t.lookup(42, one, Depth::plies(5), 0),
        Found::Proven { .. }
    ));
    assert_eq!(t.lookup(42, two, Depth::plies(5), 0), Found::None);
    t.put(entry(43, two, State::Disproven, Depth::plies(5)));
    assert_eq!(t.lookup(43, one, Depth::plies(5), 0), Found::None);
}

#[test]
fn repetition_disproof_is_path_bound() {
    let t = Table::new(1, true).unwrap();
    let mut e = entry(7, Hand::EMPTY, State::RepDisproven, Depth::UNLIMITED);
    e.set_path(99);
    t.put(e);
    assert!(matches!(
        t.lookup(7, Hand::EMPTY, Depth::plies(3), 99),
        Found::Disproven { rep: true, .. }
    ));
    assert_eq!(t.lookup(7, Hand::EMPTY, Depth::plies(3), 98), Found::None);
    // A repetition disproof found with a length limit says nothing beyond it.
    let mut e = entry(8, Hand::EMPTY, State::RepDisproven, Depth::plies(6));
    e.set_path(99);
    t.put(e);
    assert!(matches!(
        t.lookup(8, Hand::EMPTY, Depth::plies(6), 99),
        Found::Disproven { .. }
    ));
    assert_eq!(t.lookup(8, Hand::EMPTY, Depth::plies(8), 99), Found::None);
}

#[test]
fn garbage_collection_keeps_the_table_bounded() {
    let t = Table::new(1, true).unwrap();
    let cap = t.capacity();
    for i in 0..(cap as u64 * 3) {
        let mut e = entry(
            i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            Hand::EMPTY,
            State::Unknown,
            Depth::plies(1),
        );
        e.amount = (i % 100) as u32 + 1;
        t.put(e);
    }
    assert!(t.gc_runs() > 0);
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
fn fill_bucket(t: &Table, board: u64, amount: u32) -> Vec<Hand> {
    let hands: Vec<Hand> = (0..BUCKET as u32)
        .map(|i| hand(&[(PieceKind::Swallow, i + 1)]))
        .collect();
    for &h in &hands {
        let mut e = entry(board, h, State::Unknown, Depth::plies(3));
        e.amount = amount;
        t.put(e);
    }
    hands
}

fn unknown_at(t: &Table, board: u64, h: Hand) -> bool {
    matches!(
        t.lookup(board, h, Depth::plies(3), 0),
        Found::Unknown { .. }
    )
}

#[test]
fn clear_forgets_everything_in_every_generation() {
    let mut t = Table::new(1, true).unwrap();
    // Past the 8-bit generation's wrap, where the memory is asked for anew.
    for round in 0..600u64 {
        let board = 1000 + round;
        t.put(entry(board, Hand::EMPTY, State::Proven, Depth::plies(3)));
        assert!(matches!(
            t.lookup(board, Hand::EMPTY, Depth::plies(3), 0),
            Found::Proven { .. }
        ));
        assert_eq!(t.used(), 1);
        t.clear();
        assert_eq!(t.used(), 0);
        assert_eq!(
            t.lookup(board, Hand::EMPTY, Depth::plies(3), 0),
            Found::None
        );
        // An entry of the previous generation is gone too.
        assert_eq!(
            t.lookup(board - 1, Hand::EMPTY, Depth::plies(3), 0),
            Found::None
        );
    }
}

#[test]
fn replacement_takes_entries_of_earlier_searches_first() {
    let t = Table::new(1, true).unwrap();
    t.new_search();
    let old = fill_bucket(&t, 77, 1_000_000);
    t.new_search();
    // A full bucket of expensive entries of the previous search, then cheap ones of
    // this search: each new one replaces an old one, never one of its own search.
    for i in 0..BUCKET as u32 {
        let h = hand(&[(PieceKind::Crane, 1), (PieceKind::Pheasant, i)]);
        let mut e = entry(77, h, State::Unknown, Depth::plies(3));
        e.amount = 1;
        t.put(e);
        assert!(unknown_at(&t, 77, h));
    }
    assert!(old.iter().all(|&h| !unknown_at(&t, 77, h)));
    // Within one search, the entry with the least effort goes.
    let h = hand(&[(PieceKind::LeftQuail, 1)]);
    let mut e = entry(77, h, State::Unknown, Depth::plies(3));
    e.amount = 5;
    t.put(e);
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
    let t = Table::new(1, true).unwrap();
    let cap = t.capacity() as u64;
    // An earlier search fills 60 % of the table with expensive entries.
    t.new_search();
    let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let old_n = cap * 6 / 10;
    for i in 0..old_n {
        let mut e = entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(5));
        e.amount = 1 << 20;
        t.put(e);
    }
    let old_kept = t.used() as u64;
    assert!(old_kept > old_n * 9 / 10, "old entries stored: {old_kept}");
    // The current search stores cheap entries until collection runs.
    t.new_search();
    let runs = t.gc_runs();
    let alive = |t: &Table, n: u64| (0..n).filter(|&j| unknown_at2(t, key(1 << 40 | j))).count();
    let mut i = 0;
    let mut before = 0;
    while t.gc_runs() == runs {
        if t.used() as f64 >= GC_TRIGGER * cap as f64 - 1.0 {
            before = alive(&t, i);
        }
        let mut e = entry(
            key(1 << 40 | i),
            Hand::EMPTY,
            State::Unknown,
            Depth::plies(5),
        );
        e.amount = 1;
        t.put(e);
        i += 1;
    }
    // The collection took old entries only, although each is worth far more effort:
    // every entry of the current search alive before it is alive after it.
    assert!(before > 0);
    assert!(alive(&t, i) > before, "{} of {before} kept", alive(&t, i));
    assert!(t.permille_full() <= (GC_TARGET * 1000.0) as u32 + 1);
}

fn unknown_at2(t: &Table, board: u64) -> bool {
    matches!(
        t.lookup(board, Hand::EMPTY, Depth::plies(5), 0),
        Found::Unknown { .. }
    )
}

#[test]
fn impossible_sizes_are_errors() {
    assert!(matches!(
        Table::new(usize::MAX, true),
        Err(TableError::TooLarge { .. })
    ));
    // 2^46 bytes: addressable, but more than any machine this runs on can give.
    assert!(Table::new(1 << 26, true).is_err());
}

#[cfg(target_os = "linux")]
#[test]
fn memory_is_touched_only_where_used() {
    let mut t = Table::new(1024, true).unwrap();
    // Untouched but for the allocator's header on the first page.
    assert!(t.buckets.resident_bytes() <= 8192, "a new table is touched");
    t.put(entry(5, Hand::EMPTY, State::Proven, Depth::plies(1)));
    t.clear();
    // A small search: 20,000 entries. Spread over the whole gigabyte they would touch
    // some 20,000 pages (80 MB); the table grows from a small part instead.
    let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for i in 0..20_000 {
        t.put(entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(1)));
    }
    // The table's own pages (what other test threads allocate meanwhile is not counted).
    let grown = t.buckets.resident_bytes() / 1024;
    assert!(grown < 30_000, "a 1 GB table made {grown} KB resident");
    // Bucket replacement in chance clusters aside, every entry is kept.
    let found = (0..20_000)
        .filter(|&i| {
            matches!(
                t.lookup(key(i), Hand::EMPTY, Depth::plies(1), 0),
                Found::Proven { .. }
            )
        })
        .count();
    assert!(found >= 19_800, "{found} of 20000");
}

#[test]
fn estimates_serve_searches_with_as_many_plies_or_more() {
    let t = Table::new(1, true).unwrap();
    let h = Hand::EMPTY.with(PieceKind::Crane);
    let mut e = entry(9, h, State::Unknown, Depth::plies(7));
    (e.pn, e.dn) = (3, 40);
    t.put(e);
    let at = |d| t.lookup(9, h, d, 0);
    let found = Found::Unknown {
        pn: 3,
        dn: 40,
        amount: 1,
    };
    assert_eq!(at(Depth::plies(7)), found);
    assert_eq!(at(Depth::plies(9)), found);
    assert_eq!(at(Depth::UNLIMITED), found);
    // A search with fewer plies to spare must not take them: it may have to disprove what
    // the deeper one was about to prove.
    assert_eq!(at(Depth::plies(5)), Found::None);
}

#[test]
fn threads_sharing_a_table_read_whole_entries_only() {
    // Two threads write proofs of the same few positions over and over, each its own (its
    // proof pieces in one word, its length and best move in another), while two more read
    // them back: every entry read is one that was written whole, never a mix of two writes.
    // The readers go on until both writers are done (on a loaded machine a writer may not
    // start before a reader with a fixed number of rounds has finished), then read once more,
    // when the last entries written are there to be found.
    let t = Table::new(1, true).unwrap();
    t.share();
    assert!(t.is_shared());
    let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    const KEYS: u64 = 16;
    let rounds: u32 = 50_000;
    let both = Hand::EMPTY.with(PieceKind::Swallow);
    let mixed = std::sync::atomic::AtomicU64::new(0);
    let read = std::sync::atomic::AtomicU64::new(0);
    let writers_done = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|scope| {
        for writer in 0..2u16 {
            let (t, writers_done) = (&t, &writers_done);
            scope.spawn(move || {
                let mut tally = Tally::default();
                let proof = if writer == 0 { Hand::EMPTY } else { both };
                for _ in 0..rounds {
                    for i in 0..KEYS {
                        let mut e =
                            entry(key(i), proof, State::Proven, Depth::plies(5 + 2 * writer));
                        e.best = 100 + writer;
                        t.store(e, &mut tally);
                        // The other writer's entry is not redundant with this one: both stay
                        // unless this one is dropped for it; make room for the next round.
                        t.store(
                            entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(1)),
                            &mut tally,
                        );
                    }
                }
                writers_done.fetch_add(1, std::sync::atomic::Ordering::Release);
            });
        }
        for _ in 0..2 {
            let (t, mixed, read, writers_done) = (&t, &mixed, &read, &writers_done);
            scope.spawn(move || {
                let mut last = false;
                while !last {
                    last = writers_done.load(std::sync::atomic::Ordering::Acquire) == 2;
                    for i in 0..KEYS {
                        if let Found::Proven {
                            len, hand, best, ..
                        } = t.lookup(key(i), both, Depth::plies(9), 0)
                        {
                            read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let ok = match best {
                                100 => hand == Hand::EMPTY && len == Depth::plies(5),
                                101 => hand == both && len == Depth::plies(7),
                                _ => hand == Hand::EMPTY && len == Depth::plies(1),
                            };
                            if !ok {
                                mixed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                        }
                    }
                }
            });
        }
    });
    assert!(read.into_inner() > 0);
    assert_eq!(mixed.into_inner(), 0, "entries read as a mix of two writes");
}

/// Grows `t` (used by this thread alone) to its whole size.
fn grow_whole(t: &Table) {
    while t.mask() < t.buckets.len - 1 {
        t.grow();
    }
}

#[test]
fn a_shared_table_collects_garbage_while_threads_store() {
    let t = Table::new(1, true).unwrap();
    grow_whole(&t);
    t.share();
    let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let n = t.capacity() as u64 * 2;
    std::thread::scope(|scope| {
        for w in 0..2u64 {
            let t = &t;
            scope.spawn(move || {
                let mut tally = Tally::default();
                for i in 0..n {
                    t.store(
                        entry(
                            key(w << 40 | i),
                            Hand::EMPTY,
                            State::Proven,
                            Depth::plies(3),
                        ),
                        &mut tally,
                    );
                }
            });
        }
    });
    assert!(t.gc_runs() > 0);
    assert!(t.permille_full() <= (GC_TRIGGER * 1000.0) as u32 + 20);
}

#[cfg(target_os = "linux")]
#[test]
fn huge_pages_are_asked_for_only_when_wanted() {
    // The kernel marks a mapping advised MADV_HUGEPAGE with the flag `hg` in
    // /proc/self/smaps (where it has transparent huge pages at all).
    if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
        return;
    }
    fn advised(addr: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = first.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = a <= addr && addr < b;
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return flags.split_whitespace().any(|f| f == "hg");
            }
        }
        panic!("no mapping holds {addr:#x}");
    }
    for huge in [true, false] {
        let t = Table::with_pages(64, true, huge).unwrap();
        // Some way into the block, past the first 2 MB boundary.
        let addr = t.buckets.as_slice().as_ptr() as usize + (8 << 20);
        assert_eq!(advised(addr), huge, "huge pages asked for: {huge}");
    }
}
