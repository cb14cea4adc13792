//! The positions on the current search path: a set of full position keys (a child equal to
//! one of them is a repetition, a non-mate for this path only), and the path key that binds
//! repetition-dependent disproofs to the path they were found on (docs/RULES.md
//! "Repetition").

/// Mixes a child's position key into its parent's path key.
#[inline]
pub(crate) fn child_path_key(path: u64, position_key: u64) -> u64 {
    (path ^ position_key)
        .rotate_left(23)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Full keys of the positions on the current path (open addressing with linear probing; the
/// path is short, so the set stays sparse). Allocated once: nothing is allocated per node.
pub(crate) struct PathSet {
    slots: Vec<u64>,
    mask: usize,
}

impl PathSet {
    /// An empty set.
    pub(crate) fn new() -> PathSet {
        PathSet {
            slots: vec![0; 4096],
            mask: 4095,
        }
    }

    /// Whether `key` is on the path.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == key {
                return true;
            }
            if s == 0 {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Adds `key`; `false` when it was there already.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == key {
                return false;
            }
            if s == 0 {
                self.slots[i] = key;
                return true;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Removes `key` (inserted earlier), keeping probe chains intact.
    pub(crate) fn remove(&mut self, key: u64) {
        let key = key | 1;
        let mut i = key as usize & self.mask;
        while self.slots[i] != key {
            if self.slots[i] == 0 {
                return;
            }
            i = (i + 1) & self.mask;
        }
        self.slots[i] = 0;
        // Re-seat the rest of the cluster.
        let mut j = (i + 1) & self.mask;
        while self.slots[j] != 0 {
            let k = self.slots[j];
            self.slots[j] = 0;
            let mut h = k as usize & self.mask;
            while self.slots[h] != 0 {
                h = (h + 1) & self.mask;
            }
            self.slots[h] = k;
            j = (j + 1) & self.mask;
        }
    }

    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that all land in the same slot (same low bits), so they form one probe chain.
    fn colliding(n: u64) -> Vec<u64> {
        (1..=n).map(|i| (i << 32) | 0x10).collect()
    }

    #[test]
    fn removal_from_the_middle_of_a_chain_keeps_the_rest_findable() {
        let mut p = PathSet::new();
        let keys = colliding(6);
        for &k in &keys {
            assert!(p.insert(k));
        }
        assert!(
            !p.insert(keys[2]),
            "a second insert reports the key present"
        );
        p.remove(keys[2]);
        assert!(!p.contains(keys[2]));
        for (i, &k) in keys.iter().enumerate() {
            if i != 2 {
                assert!(p.contains(k), "key {i} lost after removing key 2");
            }
        }
        // Removing the head and the tail of the chain too.
        p.remove(keys[0]);
        p.remove(keys[5]);
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(p.contains(k), ![0, 2, 5].contains(&i), "key {i}");
        }
    }

    #[test]
    fn removal_keeps_chains_that_wrap_around_the_end() {
        let mut p = PathSet::new();
        // Home slot 4095 (the last): the chain wraps to slots 0, 1, ...
        let keys: Vec<u64> = (1..=4u64).map(|i| (i << 40) | 4095).collect();
        for &k in &keys {
            p.insert(k);
        }
        // A key whose home is slot 0, pushed further by the wrapped chain.
        let other = 1u64 << 50;
        p.insert(other);
        p.remove(keys[0]);
        assert!(!p.contains(keys[0]));
        for &k in keys.iter().skip(1).chain([other].iter()) {
            assert!(p.contains(k));
        }
        p.remove(keys[1]);
        p.remove(other);
        assert!(p.contains(keys[2]) && p.contains(keys[3]) && !p.contains(other));
    }

    #[test]
    fn removing_an_absent_key_changes_nothing_and_clear_empties() {
        let mut p = PathSet::new();
        p.insert(42);
        p.remove(7);
        assert!(p.contains(42));
        // Keys differing only in the lowest bit are the same key (bit 0 marks a used slot).
        assert!(p.contains(43));
        p.clear();
        assert!(!p.contains(42));
    }

    #[test]
    fn path_keys_depend_on_the_order_of_the_path() {
        let a = child_path_key(child_path_key(0, 1), 2);
        let b = child_path_key(child_path_key(0, 2), 1);
        assert_ne!(a, b);
        assert_eq!(a, child_path_key(child_path_key(0, 1), 2));
    }
}
