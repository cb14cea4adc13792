//! The figures of a problem set from its records alone ([`SetStats`]), and the report of
//! them that `stats --json` prints ([`StatsReport`]).

use crate::generator::Seed;
use crate::problem::Problem;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The verdict counted for a record that states none.
pub const NO_VERDICT: &str = "none";

/// The top of the rating scale (docs/GUIDE.md, "Themes and rating").
pub const RATING_TOP: i64 = 2800;

/// The figures of a set of records.
#[derive(Clone, Debug, Default)]
pub struct SetStats {
    /// Records counted.
    pub problems: usize,
    /// Records by `verdict` ([`NO_VERDICT`] for a record stating none).
    pub verdicts: BTreeMap<String, usize>,
    /// Records with a final dual (the `finalDual` theme or `quality.final_duals` > 0).
    pub final_duals: usize,
    /// Distinct coarse solution shapes (Hodges moves without their squares).
    pub shapes: HashSet<String>,
    /// Records per family (a record naming none is a family of its own).
    pub families: HashMap<String, usize>,
    /// Records per length in plies; records with no solution are not counted here.
    pub plies: BTreeMap<u16, usize>,
    /// Records with no solution: no mate, or no length claimed.
    pub unsolved: usize,
    /// Records that state a length (`plies`) without a line to show it: counted apart, as
    /// no length is counted that nobody checked.
    pub stated_only: usize,
    /// Records per rating band (the band's lowest rating; 200 wide, the top of the scale
    /// alone).
    pub ratings: BTreeMap<i64, usize>,
    /// Records without a rating.
    pub unrated: usize,
    /// Sum and count of the ratings by length.
    pub by_plies: BTreeMap<u16, (f64, usize)>,
    /// Sum and count of the ratings by the order of magnitude of `quality.proof_nodes`.
    pub by_proof: BTreeMap<u32, (f64, usize)>,
    /// Records per theme.
    pub themes: BTreeMap<String, usize>,
}

impl SetStats {
    /// Counts the record `r`, whose line (checked on reading) `seed` holds.
    pub fn add(&mut self, r: &Problem, seed: &Seed) {
        self.problems += 1;
        let verdict = r.verdict.clone().unwrap_or_else(|| NO_VERDICT.to_string());
        *self.verdicts.entry(verdict).or_default() += 1;
        let themes: Vec<&str> = r
            .extra
            .get("themes")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let duals = r
            .extra
            .get("quality")
            .and_then(|q| q.get("final_duals"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        if duals > 0 || themes.contains(&"finalDual") {
            self.final_duals += 1;
        }
        for t in &themes {
            *self.themes.entry(t.to_string()).or_default() += 1;
        }
        *self.families.entry(seed.family.clone()).or_default() += 1;
        // The length of the line, checked on reading to mate in as many plies as `plies`
        // says; a length stated without a line is not counted as one.
        let plies = seed.plies;
        if plies > 0 {
            self.shapes.insert(seed.keys.coarse.clone());
            *self.plies.entry(plies).or_default() += 1;
        } else if r.plies.is_some() {
            self.stated_only += 1;
        } else {
            self.unsolved += 1;
        }
        // Checked on reading: a whole number from 0 to the top of the scales.
        let Some(rating) = r.rating() else {
            self.unrated += 1;
            return;
        };
        let rating = f64::from(rating);
        let band = ((rating as i64).div_euclid(200) * 200).min(RATING_TOP);
        *self.ratings.entry(band).or_default() += 1;
        if plies > 0 {
            let e = self.by_plies.entry(plies).or_default();
            e.0 += rating;
            e.1 += 1;
        }
        if let Some(n) = r
            .extra
            .get("quality")
            .and_then(|q| q.get("proof_nodes"))
            .and_then(Value::as_u64)
            .filter(|&n| n > 0)
        {
            let e = self.by_proof.entry(n.ilog10()).or_default();
            e.0 += rating;
            e.1 += 1;
        }
    }

    /// The most records of one family.
    pub fn largest_family(&self) -> usize {
        self.families.values().copied().max().unwrap_or(0)
    }

    /// The themes, the commonest first (ties by name).
    pub fn themes_by_count(&self) -> Vec<(String, usize)> {
        crate::notation::commonest_first(&self.themes)
    }

    /// The figures as `stats --json` prints them, `unreadable` lines having been left out.
    pub fn report(&self, unreadable: usize) -> StatsReport {
        let keyed = |m: &BTreeMap<u16, usize>| m.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        StatsReport {
            problems: self.problems,
            unreadable,
            verdicts: self.verdicts.clone(),
            final_duals: self.final_duals,
            shapes: self.shapes.len(),
            families: self.families.len(),
            largest_family: self.largest_family(),
            plies: keyed(&self.plies),
            unsolved: self.unsolved,
            length_without_line: self.stated_only,
            ratings: self
                .ratings
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
            unrated: self.unrated,
            mean_rating_by_plies: self
                .by_plies
                .iter()
                .map(|(k, v)| (k.to_string(), mean(v)))
                .collect(),
            mean_rating_by_proof_size: self
                .by_proof
                .iter()
                .map(|(k, v)| (k.to_string(), mean(v)))
                .collect(),
            themes: self.themes.clone(),
        }
    }
}

/// What `stats --json` prints: the figures of a set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsReport {
    /// Records counted.
    pub problems: usize,
    /// Lines that could not be read, left out.
    pub unreadable: usize,
    /// Records by verdict (`none` for those stating none).
    pub verdicts: BTreeMap<String, usize>,
    /// Records with a final dual.
    pub final_duals: usize,
    /// Distinct coarse solution shapes.
    pub shapes: usize,
    /// Families.
    pub families: usize,
    /// The most records of one family.
    pub largest_family: usize,
    /// Records by length in plies.
    pub plies: BTreeMap<String, usize>,
    /// Records with no solution.
    pub unsolved: usize,
    /// Records stating a length without a line.
    pub length_without_line: usize,
    /// Records by rating band (its lowest rating).
    pub ratings: BTreeMap<String, usize>,
    /// Records without a rating.
    pub unrated: usize,
    /// The mean rating by length in plies.
    pub mean_rating_by_plies: BTreeMap<String, i64>,
    /// The mean rating by the order of magnitude of the proof's size.
    pub mean_rating_by_proof_size: BTreeMap<String, i64>,
    /// Records per theme.
    pub themes: BTreeMap<String, usize>,
}

/// The mean of a sum of ratings over their count, rounded.
pub fn mean((sum, n): &(f64, usize)) -> i64 {
    (sum / *n as f64).round() as i64
}
