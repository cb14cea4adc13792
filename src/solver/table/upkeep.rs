//! Keeping the table in shape as it fills: doubling the part in use, and garbage collection
//! by age, then effort.

use super::entry::{Entry, State};
use super::{BUCKET, GC_TARGET, Table, bucket_index};

impl Table {
    /// Doubles the part of the table in use: each entry of bucket `b` stays there or moves
    /// to `b + old size`, as the next bit of its key says (the upper half holds nothing of
    /// the current generation, so it takes the entry in the same slot).
    pub(super) fn grow(&mut self) {
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

    /// Empties entries until the table is at [`GC_TARGET`]: those of earlier searches
    /// first, then those of the current search; within each, least effort first.
    pub(super) fn collect_garbage(&mut self) {
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
