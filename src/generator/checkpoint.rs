//! A run's checkpoint: everything the generator knows between two batches (the policy's
//! keys, the pools it draws from, its counters, the next candidate), kept as JSON so that a
//! run stopped at any moment goes on where it was and writes what an uninterrupted run
//! writes; and the settings a run was begun with, which a resumed run must share.

use super::draw::{Base, Pools};
use super::policy::SavedPolicy;
use super::{GenConfig, Stats, dedup};
use crate::notation::sfen::{parse_sfen, write_sfen};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The format of [`Checkpoint`]s this build reads and writes.
pub const CHECKPOINT_FORMAT: u32 = 1;

/// What a run knows between two batches (see [`super::Generator::checkpoint`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`].
    pub format: u32,
    /// The settings the run was begun with ([`settings`]).
    pub settings: BTreeMap<String, Value>,
    /// The next candidate to draw (counted within the run's shard).
    pub next_candidate: u64,
    /// The run's counters so far (its time the time spent before the checkpoint).
    pub stats: Stats,
    /// The distinct solution shapes the run has kept (their number is [`Stats::shapes`]).
    pub shapes: Vec<String>,
    /// What the run has kept, as far as the keeping policy is concerned.
    pub policy: SavedPolicy,
    /// What candidates are drawn from.
    pub pools: SavedPools,
}

/// The pools a run draws from, each base as its SFEN, length and family.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedPools {
    /// Problems kept (and seeds).
    pub kept: Vec<SavedBase>,
    /// Mates of the right length that were not kept.
    pub near: Vec<SavedBase>,
    /// Mates shorter than the range.
    pub stones: Vec<SavedBase>,
}

/// One base of a pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedBase {
    /// Its position.
    pub sfen: String,
    /// The length of its mate.
    pub plies: u16,
    /// Its family.
    pub family: String,
}

impl SavedPools {
    /// The pools `pools` as a checkpoint keeps them.
    pub(super) fn of(pools: &Pools) -> SavedPools {
        let saved = |v: &[Base]| {
            v.iter()
                .map(|(p, plies, family)| SavedBase {
                    sfen: write_sfen(p),
                    plies: *plies,
                    family: family.clone(),
                })
                .collect()
        };
        SavedPools {
            kept: saved(&pools.kept),
            near: saved(&pools.near),
            stones: saved(&pools.stones),
        }
    }

    /// The pools these were made of, or what is wrong with a base.
    pub(super) fn pools(&self) -> Result<Pools, String> {
        let read = |v: &[SavedBase], name: &str| -> Result<Vec<Base>, String> {
            v.iter()
                .enumerate()
                .map(|(i, b)| {
                    parse_sfen(&b.sfen)
                        .map(|p| (p, b.plies, b.family.clone()))
                        .map_err(|e| format!("base {} of the {name} pool: {e}", i + 1))
                })
                .collect()
        };
        Ok(Pools {
            kept: read(&self.kept, "kept")?,
            near: read(&self.near, "near")?,
            stones: read(&self.stones, "stones")?,
        })
    }
}

/// The settings of `config` that decide what a run writes, by the name of the option that
/// sets them (`--count` and `--max-candidates` aside: a resumed run may change them, see
/// [`super::Generator::resume`]; `--threads` aside: it changes nothing written). The
/// problems started from (`--from`) are kept as their number and a digest of their keys.
pub fn settings(config: &GenConfig) -> BTreeMap<String, Value> {
    let mut from = String::new();
    for s in &config.seeds {
        from.push_str(&format!(
            "{}:{:x}:{:x}:{:x}:{}:{};",
            s.plies,
            s.keys.position,
            s.keys.shape.unwrap_or(0),
            s.keys.line.unwrap_or(0),
            s.keys.coarse,
            s.family
        ));
    }
    let entries = [
        ("version", json!(env!("CARGO_PKG_VERSION"))),
        (
            "plies",
            json!(format!("{}..{}", config.min_plies, config.max_plies)),
        ),
        ("seed", json!(config.seed)),
        (
            "shard",
            json!(format!("{}/{}", config.shard.0, config.shard.1)),
        ),
        ("min-score", json!(config.min_score)),
        ("nodes", json!(config.solve_nodes)),
        ("search-nodes", json!(config.search_nodes)),
        ("verify-nodes", json!(config.verify_nodes)),
        ("hash", json!(config.hash_mb)),
        ("batch", json!(config.batch)),
        ("final-duals", json!(config.final_duals.to_string())),
        ("family-limit", json!(config.family_limit)),
        ("shape-limit", json!(config.shape_limit)),
        (
            "from",
            json!(format!(
                "{} problems, digest {:016x}",
                config.seeds.len(),
                dedup::text_key(&from)
            )),
        ),
    ];
    // Asked for only with the options, so that a checkpoint written before they existed
    // still matches a run without them.
    let c = &config.choice;
    let choice = [
        c.rating
            .map(|(lo, hi)| ("rating", json!(format!("{lo}..{hi}")))),
        (!c.with.is_empty()).then(|| ("themes", json!(c.with.join(",")))),
        (!c.without.is_empty()).then(|| ("exclude-themes", json!(c.without.join(",")))),
    ];
    entries
        .into_iter()
        .chain(choice.into_iter().flatten())
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// How a setting reads in a message: as given on the command line.
fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "none".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// The settings in the order a difference is told in: those given on the command line
/// first, then those that follow from them (the node budgets from `--plies`), then the build.
const TOLD_FIRST: [&str; 14] = [
    "plies",
    "seed",
    "shard",
    "from",
    "min-score",
    "final-duals",
    "family-limit",
    "shape-limit",
    "nodes",
    "hash",
    "search-nodes",
    "verify-nodes",
    "batch",
    "version",
];

/// The first setting in which `now` differs from `begun` (the checkpoint's), said as the
/// options that set them; `None` when they agree.
pub fn settings_differ(
    begun: &BTreeMap<String, Value>,
    now: &BTreeMap<String, Value>,
) -> Option<String> {
    let key = TOLD_FIRST
        .iter()
        .map(|k| k.to_string())
        .chain(begun.keys().cloned())
        .chain(now.keys().cloned())
        .find(|k| begun.get(k) != now.get(k))?;
    let (was, is) = (shown(begun.get(&key)), shown(now.get(&key)));
    Some(match key.as_str() {
        "version" => format!("it was begun by toritsume {was}, and this is toritsume {is}"),
        "from" => format!(
            "its --from problems differ: it was begun from {was}, and this run starts from {is}"
        ),
        "search-nodes" | "verify-nodes" | "batch" => {
            format!("its {key} was {was}, and this run's is {is}")
        }
        _ => format!("it was begun with --{key} {was}, and this run has --{key} {is}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_the_option_that_differs() {
        let a = GenConfig::new(5, 9, 10, 1);
        let mut b = a.clone();
        assert_eq!(settings_differ(&settings(&a), &settings(&b)), None);
        b.count = 99;
        b.threads = 8;
        b.max_candidates = Some(5);
        assert_eq!(settings_differ(&settings(&a), &settings(&b)), None);
        b.seed = 2;
        assert_eq!(
            settings_differ(&settings(&a), &settings(&b)).as_deref(),
            Some("it was begun with --seed 1, and this run has --seed 2")
        );
        let mut c = a.clone();
        c.min_score = Some(7.5);
        assert_eq!(
            settings_differ(&settings(&a), &settings(&c)).as_deref(),
            Some("it was begun with --min-score none, and this run has --min-score 7.5")
        );
        // A run without a choice of rating or themes writes none of their keys, as runs did
        // before the options existed; one with a choice names what differs.
        assert!(!settings(&a).contains_key("themes"));
        assert!(!settings(&a).contains_key("rating"));
        let mut d = a.clone();
        d.choice = crate::generator::themes::ThemeChoice::parse(
            Some("1200..1400"),
            Some("sacrifice"),
            None,
        )
        .unwrap();
        assert_eq!(
            settings_differ(&settings(&a), &settings(&d)).as_deref(),
            Some("it was begun with --rating none, and this run has --rating 1200..1400")
        );
    }
}
