//! Keeping the table in shape as it fills: doubling the part in use, and garbage collection
//! by age, then effort.

use super::entry::Entry;
use super::{BUCKET, GC_TARGET, PARALLEL_GROW_BUCKETS, Table, Tally, bucket_index};
use std::sync::atomic::Ordering;

impl Table {
    /// Doubles the part of the table in use: each entry of bucket `b` stays there or moves
    /// to `b + old size`, as the next bit of its key says (the upper half holds nothing of
    /// the current generation, so it takes the entry in the same slot). Only a table no
    /// other thread uses grows (a shared one through [`Table::grow_alone`]).
    pub(super) fn grow(&self) {
        self.grow_on(1);
    }

    /// [`Table::grow`] with the moves split among `threads` threads (the caller's and
    /// `threads - 1` started for it) once the part in use is [`PARALLEL_GROW_BUCKETS`] or
    /// more: a shared table grows while every thread that searches it waits, and what
    /// takes the time is the first touch of the upper half's pages and the moves, which
    /// several cores share well. The buckets each thread moves, and the buckets they move
    /// to, are its own. A thread that cannot be started leaves its part to the caller.
    pub(super) fn grow_on(&self, threads: usize) {
        let old = self.mask() + 1;
        let mask = old * 2 - 1;
        self.mask.store(mask, Ordering::Relaxed);
        let parts = if old >= PARALLEL_GROW_BUCKETS {
            threads.clamp(1, 64)
        } else {
            1
        };
        let mut emptied = Tally::default();
        if parts == 1 {
            emptied.0 = self.move_up(0..old, old);
        } else {
            let chunk = old.div_ceil(parts);
            std::thread::scope(|s| {
                let mut others = Vec::with_capacity(parts - 1);
                for p in 1..parts {
                    let range = (p * chunk).min(old)..((p + 1) * chunk).min(old);
                    let job = range.clone();
                    let started =
                        std::thread::Builder::new().spawn_scoped(s, move || self.move_up(job, old));
                    match started {
                        Ok(h) => others.push(h),
                        Err(_) => emptied.0 += self.move_up(range, old),
                    }
                }
                emptied.0 += self.move_up(0..chunk, old);
                for h in others {
                    // `move_up` does not panic; were it to, its part's entries would only
                    // be lost to lookups (left where the doubled mask no longer looks).
                    emptied.0 += h.join().unwrap_or(0);
                }
            });
        }
        self.add_tally(&mut emptied);
    }

    /// Moves the entries of buckets `range` (of the `old` in use before doubling) that the
    /// doubled mask sends to the upper half; returns minus the number of slots emptied.
    ///
    /// A slot two threads wrote at once may hold a mix of the two writes: its key then
    /// belongs to neither bucket (every lookup misses it). Such a slot is emptied rather
    /// than moved over another bucket's entry.
    fn move_up(&self, range: std::ops::Range<usize>, old: usize) -> isize {
        let mask = old * 2 - 1;
        let generation = self.generation();
        let buckets = self.buckets.as_slice();
        let mut emptied = 0;
        for b in range {
            for i in 0..BUCKET {
                let Some(board) = buckets[b].live_key(i, generation) else {
                    continue;
                };
                let nb = bucket_index(board, mask);
                if nb == b + old {
                    buckets[b].move_to(i, &buckets[nb]);
                } else if nb != b {
                    buckets[b].clear(i);
                    emptied -= 1;
                }
            }
        }
        emptied
    }

    /// Empties entries until the table is at [`GC_TARGET`]: those of earlier searches
    /// first, then those of the current search; within each, least effort first. The count
    /// of occupied slots is made exact again on the way (other threads' tallies aside).
    pub(super) fn collect_garbage(&self) {
        self.gc_runs.fetch_add(1, Ordering::Relaxed);
        let target = (GC_TARGET * self.capacity() as f64) as usize;
        // Removal classes: entries of earlier searches in 0..33, of the current one in
        // 33..66, by log2(effort) within each. A histogram finds the cut.
        let generation = self.generation();
        let age = self.age.load(Ordering::Relaxed);
        let class = |e: &Entry| -> usize {
            let effort = 32 - e.amount.leading_zeros() as usize;
            if e.age == age { 33 + effort } else { effort }
        };
        let mut hist = [0usize; 66];
        let mut live = 0;
        for b in self.buckets.as_slice() {
            for i in 0..BUCKET {
                if let Some(e) = b.get_if_live(i, generation) {
                    hist[class(&e)] += 1;
                    live += 1;
                }
            }
        }
        if live <= target {
            self.used.store(live, Ordering::Relaxed);
            return;
        }
        let mut to_remove = live - target;
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
        for b in self.buckets.as_slice() {
            for i in 0..BUCKET {
                let Some(e) = b.get_if_live(i, generation) else {
                    continue;
                };
                let c = class(&e);
                if c < cut || (c == cut && partial > 0) {
                    if c == cut {
                        partial -= 1;
                    }
                    b.clear(i);
                    removed += 1;
                }
            }
        }
        self.used.store(live - removed, Ordering::Relaxed);
    }
}
