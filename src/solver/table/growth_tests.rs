//! Tests of the table's growth: the part in use doubling and keeping its entries, on one
//! thread or split among several, and a shared table growing only when told to.

use super::tests::entry;
use super::*;

/// The key of entry `i` of the tests that store entries proven in 3 plies.
fn key(i: u64) -> u64 {
    i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
}

/// Whether `t` holds entry `i` (of [`key`]) as proven in 3 plies.
fn found(t: &Table, i: u64) -> bool {
    matches!(
        t.lookup(key(i), Hand::EMPTY, Depth::plies(3), 0),
        Found::Proven { .. }
    )
}

#[test]
fn the_part_in_use_grows_keeping_every_entry_and_clear_shrinks_it() {
    let mut t = Table::new(16, true).unwrap();
    let start = t.active_capacity();
    assert_eq!(start, START_BUCKETS * BUCKET);
    let key = |i: u64| i.wrapping_mul(0xd6e8_feb8_6659_fd93) | 1;
    let n = start as u64 * 3;
    for i in 0..n {
        let mut e = entry(key(i), Hand::EMPTY, State::Disproven, Depth::plies(4));
        e.amount = i as u32;
        t.put(e);
    }
    assert!(t.active_capacity() >= 4 * start, "{}", t.active_capacity());
    assert_eq!(t.gc_runs(), 0);
    // Every entry is found after the moves (bucket replacement aside, which a table
    // kept half empty makes rare).
    let found = (0..n)
        .filter(|&i| {
            matches!(
                t.lookup(key(i), Hand::EMPTY, Depth::plies(4), 0),
                Found::Disproven { .. }
            )
        })
        .count() as u64;
    assert!(found * 1000 >= n * 995, "{found} of {n}");
    assert_eq!(t.used() as u64, found);
    t.clear();
    assert_eq!(t.active_capacity(), start);
    assert!((0..n).all(|i| t.lookup(key(i), Hand::EMPTY, Depth::plies(4), 0) == Found::None));
}

#[test]
fn a_table_grows_while_one_thread_has_it_and_once_shared_only_when_told_to() {
    let mut t = Table::new(16, true).unwrap();
    assert!(!t.is_shared());
    assert_eq!(t.active_capacity(), START_BUCKETS * BUCKET);
    for i in 0..2000 {
        t.put(entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(3)));
    }
    // Grown by the stores, but not to the whole table.
    let grown = t.active_capacity();
    assert!(grown > START_BUCKETS * BUCKET && grown < t.capacity());
    assert!(!t.wants_to_grow());
    // Bucket replacement in chance clusters aside, the entries are there.
    let kept: Vec<u64> = (0..2000).filter(|&i| found(&t, i)).collect();
    assert!(kept.len() > 1900, "{}", kept.len());
    // Shared, it keeps its size however full it gets: the stores only say it should grow.
    t.share();
    assert!(t.is_shared());
    assert_eq!(t.active_capacity(), grown);
    // (A thread of a shared table adds its count of filled slots now and then.)
    let mut tally = Tally::default();
    for i in 2000..6000 {
        t.store(
            entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(3)),
            &mut tally,
        );
    }
    assert_eq!(t.active_capacity(), grown);
    assert!(t.wants_to_grow());
    // Told to (the other threads stopped), it grows as a table used alone would have,
    // and every entry it held is found where the larger table looks for it.
    let held: Vec<u64> = (0..6000).filter(|&i| found(&t, i)).collect();
    t.grow_alone(1);
    assert!(t.active_capacity() > grown && t.active_capacity() <= t.capacity());
    assert!(!t.wants_to_grow());
    assert!(t.is_shared());
    for &i in &held {
        assert!(found(&t, i), "entry {i} lost when the shared table grew");
    }
    // Cleared, it starts small and alone again.
    t.clear();
    assert!(!t.is_shared());
    assert!(!t.wants_to_grow());
    assert_eq!(t.active_capacity(), START_BUCKETS * BUCKET);
}

#[test]
fn growing_empties_a_slot_whose_key_belongs_to_another_bucket() {
    // Two threads writing one slot at once can leave a mix of both writes, whose key (the
    // words XORed) belongs to some other bucket. Growing must empty it, not move it over
    // that bucket's entry (nor stop on it).
    let t = Table::new(16, true).unwrap();
    let old = t.mask() + 1;
    let a = 0x1234_5678_9abc_def1_u64;
    t.put(entry(a, Hand::EMPTY, State::Proven, Depth::plies(3)));
    let home = bucket_index(a, t.mask());
    // A key that goes where `a` goes in the growth, written into another bucket's slot 0
    // (the slot `a` took).
    let stray_key = a ^ (1 << 60);
    assert_eq!(
        bucket_index(stray_key, 2 * old - 1),
        bucket_index(a, 2 * old - 1)
    );
    let elsewhere = (home + 1) % old;
    let mut stray = entry(stray_key, Hand::EMPTY, State::Proven, Depth::plies(5));
    stray.generation = t.generation();
    t.buckets.as_slice()[elsewhere].set(0, &stray);
    t.grow();
    assert_eq!(t.active_capacity(), 2 * old * BUCKET);
    assert!(matches!(
        t.lookup(a, Hand::EMPTY, Depth::plies(3), 0),
        Found::Proven { .. }
    ));
    assert_eq!(
        t.lookup(stray_key, Hand::EMPTY, Depth::plies(5), 0),
        Found::None
    );
    assert!(
        t.buckets.as_slice()[elsewhere]
            .get_if_live(0, t.generation())
            .is_none()
    );
}

#[test]
fn a_shared_table_grown_on_several_threads_holds_what_one_thread_grows_to() {
    // Two tables given the same entries, shared once the part in use is large enough for
    // its doubling to be split among threads; one grows on one thread, the other on three
    // (an uneven split). Both must hold the same entries afterwards, each found where the
    // larger part looks for it, and count the same slots occupied.
    let filled = |threads: usize| {
        let t = Table::new(16, true).unwrap();
        let mut i = 0;
        while t.mask() + 1 < PARALLEL_GROW_BUCKETS {
            t.put(entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(3)));
            i += 1;
        }
        t.share();
        let mut tally = Tally::default();
        while !t.wants_to_grow() {
            t.store(
                entry(key(i), Hand::EMPTY, State::Proven, Depth::plies(3)),
                &mut tally,
            );
            i += 1;
        }
        t.add_tally(&mut tally);
        let before = t.mask() + 1;
        assert!(before >= PARALLEL_GROW_BUCKETS);
        t.grow_alone(threads);
        assert!(t.mask() + 1 >= 2 * before);
        (t, i)
    };
    let (one, n1) = filled(1);
    let (three, n3) = filled(3);
    assert_eq!(n1, n3);
    assert_eq!(one.mask(), three.mask());
    assert_eq!(one.used(), three.used());
    let held: Vec<u64> = (0..n1).filter(|&i| found(&one, i)).collect();
    assert!(held.len() as u64 > n1 * 9 / 10, "{} of {n1}", held.len());
    for i in 0..n1 {
        assert_eq!(found(&one, i), found(&three, i), "entry {i}");
    }
}
