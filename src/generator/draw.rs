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

/// A base to draw from: a position, the length of its mate, its family.
pub(super) type Base = (Position, u16, String);

/// What candidates are drawn from: problems kept, and mates met on the way.
#[derive(Default)]
pub(super) struct Pools {
    /// Problems kept (and seeds).
    pub(super) kept: Vec<Base>,
    /// Mates of the right length that were not kept (cooked, redundant pieces, final
    /// duals, taken shapes...).
    pub(super) near: Vec<Base>,
    /// Mates shorter than the range: stepping stones for extension.
    pub(super) stones: Vec<Base>,
}

impl Pools {
    /// Remembers a mate of the right length that was not kept (the oldest make way).
    pub(super) fn add_near(&mut self, b: Base) {
        if self.near.len() >= MAX_STONES {
            self.near.remove(0);
        }
        self.near.push(b);
    }

    /// Remembers a stepping stone (the oldest make way).
    pub(super) fn add_stone(&mut self, b: Base) {
        if self.stones.len() >= MAX_STONES {
            self.stones.remove(0);
        }
        self.stones.push(b);
    }

    /// Forgets every base of `family`: its family is full, so nothing drawn from them could
    /// be kept.
    pub(super) fn drop_family(&mut self, family: &str) {
        self.kept.retain(|e| e.2 != family);
        self.near.retain(|e| e.2 != family);
        self.stones.retain(|e| e.2 != family);
    }
}

/// Most stepping stones (and near misses) remembered.
const MAX_STONES: usize = 4096;

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
    // or a stepping stone with one more move pair taken back before it.
    let mix = if config.min_plies >= 15 {
        [15, 10, 60, 10]
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
        let (base, _, family) = &pools.near[rng.random_range(0..pools.near.len())];
        if let Some(p) = sample::mutate(&mut rng, base) {
            return (p, Strategy::Mutation, Some(family.clone()));
        }
    }
    if roll < mix[0] + mix[1] + mix[2]
        && let Some((base, _, family)) = extension_base(&mut rng, config, pools)
    {
        // One move pair taken back: a mate of exactly two plies more comes of about one
        // such retraction in 25 from a long mate, of two pairs at once one in 600 (measured
        // on problems/long.jsonl), so long problems climb a pair at a time, each step a
        // new stepping stone (sound or not: only the last step has to be).
        if let Some(p) = sample::extend(&mut rng, base, 1) {
            return (p, Strategy::Extension, Some(family.clone()));
        }
    }
    if roll < mix[0] + mix[1] + mix[2] + mix[3] {
        // Long runs take back a few pairs only: a mate that short is a stepping stone of a
        // new family, which then climbs by extension.
        let lo = if config.min_plies >= 15 {
            1
        } else {
            (config.min_plies.saturating_sub(1) / 2) as usize
        };
        let hi = (config.max_plies.saturating_sub(1) / 2) as usize;
        let pairs = rng.random_range(lo..=hi.max(lo));
        if pairs > 0 {
            return (sample::backward(&mut rng, pairs), Strategy::Backward, None);
        }
    }
    (sample::random_position(&mut rng), Strategy::Random, None)
}

/// A mate to extend: from the kept problems and stepping stones that leave room
/// for two more plies, three times in four one within six plies of the range when there
/// are any (so that a run climbs from what it has: a base that leads on gives more stones
/// to draw, one that leads nowhere stays a single entry), otherwise any.
fn extension_base<'a>(
    rng: &mut ChaCha8Rng,
    config: &GenConfig,
    pools: &'a Pools,
) -> Option<&'a Base> {
    // Near misses are left out: many end with a second mate, which an extension inherits.
    let all = || {
        pools
            .kept
            .iter()
            .chain(&pools.stones)
            .filter(|b| b.1 + 2 <= config.max_plies)
    };
    let mut pick: Vec<&Base> = Vec::new();
    if rng.random_bool(0.75) {
        pick.extend(all().filter(|b| b.1 + 6 >= config.min_plies));
    }
    if pick.is_empty() {
        pick.extend(all());
    }
    (!pick.is_empty()).then(|| pick[rng.random_range(0..pick.len())])
}
