//! How candidates are drawn: each from its own seeded generator, by one of the strategies
//! of [`super::sample`] (random placement, backward construction, mutation, extension), in
//! proportions that depend on the lengths asked for, from the pools of what the run has
//! found so far.

use super::{GenConfig, Strategy, sample};
use crate::rules::Position;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seed of candidate `i`.
pub(super) fn candidate_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What candidates are drawn from: problems kept, and shorter mates met on the way.
#[derive(Default)]
pub(super) struct Pools {
    /// Problems kept (and seeds), with their lengths and families.
    pub(super) kept: Vec<(Position, u16, String)>,
    /// Mates of the right length that were not sound (cooked, redundant pieces...).
    pub(super) near: Vec<(Position, String)>,
    pub(super) stones: Vec<(Position, u16, String)>,
}

/// Most stepping stones remembered (the oldest make way).
pub(super) const MAX_STONES: usize = 4096;

/// Draws candidate `i`: the position, how it was made, and the family it belongs to (its
/// base's, for mutations and extensions).
pub(super) fn draw(
    config: &GenConfig,
    i: u64,
    pools: &Pools,
) -> (Position, Strategy, Option<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(candidate_seed(config.seed, i));
    // Percentages: mutation of kept problems, mutation of near misses, extension of
    // shorter mates and of kept problems, backward construction; the rest random
    // placement. Mutation is by far the most productive once a few problems exist; the
    // others keep the set diverse. Long problems come mostly from extension: a kept mate
    // with one or two more move pairs taken back before it.
    let mix = if config.min_plies >= 15 {
        [25, 15, 45, 10]
    } else {
        [45, 25, 5, 15]
    };
    let roll = rng.random_range(0..100);
    if roll < mix[0] && !pools.kept.is_empty() {
        let (base, _, family) = &pools.kept[rng.random_range(0..pools.kept.len())];
        if let Some(p) = sample::mutate(&mut rng, base) {
            return (p, Strategy::Mutation, Some(family.clone()));
        }
    }
    if roll < mix[0] + mix[1] && !pools.near.is_empty() {
        let (base, family) = &pools.near[rng.random_range(0..pools.near.len())];
        if let Some(p) = sample::mutate(&mut rng, base) {
            return (p, Strategy::Mutation, Some(family.clone()));
        }
    }
    if roll < mix[0] + mix[1] + mix[2] && !(pools.stones.is_empty() && pools.kept.is_empty()) {
        // A mate from the pools (kept problems and shorter mates met on the way), taken
        // back one to three move pairs further: from the longest ones (within three pairs
        // of the range) when there are any, so that a long run climbs from what it has.
        let near_range = |len: u16| len + 6 >= config.min_plies;
        let long: Vec<&(Position, u16, String)> = pools
            .kept
            .iter()
            .chain(pools.stones.iter())
            .filter(|(_, len, _)| near_range(*len))
            .collect();
        let pick = if long.is_empty() {
            let all = pools.kept.len() + pools.stones.len();
            let j = rng.random_range(0..all);
            if j < pools.kept.len() {
                &pools.kept[j]
            } else {
                &pools.stones[j - pools.kept.len()]
            }
        } else {
            long[rng.random_range(0..long.len())]
        };
        let (base, len, family) = pick;
        let target = rng
            .random_range(config.min_plies..=config.max_plies)
            .max(len + 2);
        let pairs = (target.saturating_sub(*len) as usize)
            .div_ceil(2)
            .clamp(1, 3);
        if let Some(p) = sample::extend(&mut rng, base, pairs) {
            return (p, Strategy::Extension, Some(family.clone()));
        }
    }
    if roll < mix[0] + mix[1] + mix[2] + mix[3] {
        let lo = (config.min_plies.saturating_sub(1) / 2) as usize;
        let hi = (config.max_plies.saturating_sub(1) / 2) as usize;
        let pairs = rng.random_range(lo..=hi.max(lo));
        if pairs > 0 {
            return (sample::backward(&mut rng, pairs), Strategy::Backward, None);
        }
    }
    (sample::random_position(&mut rng), Strategy::Random, None)
}
