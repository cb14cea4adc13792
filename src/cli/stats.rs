//! `toritsume stats`: what a problem set holds, from its records alone (no solving): how many
//! problems of each verdict and length, their ratings, themes, solution shapes and families,
//! as README.md's "Quality of the shipped set" gives them.

use super::EXIT_USAGE;
use super::input::read_checked;
use super::output::emit;
use super::say_err;
use clap::Args;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use toritsume::generator::Seed;
use toritsume::problem::Problem;

/// Arguments of `stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// Problem files (JSON lines, or pychess-variants, EPD or CSV files of puzzles), counted
    /// together (`-`: standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// One JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    check: super::input::CheckArgs,
}

/// The verdict counted for a record that states none.
const NO_VERDICT: &str = "none";

/// The top of the rating scale (README.md, "Themes and rating").
const RATING_TOP: i64 = 2800;

/// The figures of a set of records.
#[derive(Default)]
struct Stats {
    problems: usize,
    /// Records by `verdict` ([`NO_VERDICT`] for a record stating none).
    verdicts: BTreeMap<String, usize>,
    /// Records with a final dual (the `finalDual` theme or `quality.final_duals` > 0).
    final_duals: usize,
    /// Distinct coarse solution shapes (Hodges moves without their squares).
    shapes: HashSet<String>,
    /// Records per family (a record naming none is a family of its own).
    families: HashMap<String, usize>,
    /// Records per length in plies; records with no solution are not counted here.
    plies: BTreeMap<u16, usize>,
    /// Records with no solution: no mate, or no length claimed.
    unsolved: usize,
    /// Records that state a length (`plies`) without a line to show it: counted apart, as
    /// no length is counted that nobody checked.
    stated_only: usize,
    /// Records per rating band (the band's lowest rating; 200 wide, the top of the scale
    /// alone).
    ratings: BTreeMap<i64, usize>,
    unrated: usize,
    /// Sum and count of the ratings by length.
    by_plies: BTreeMap<u16, (f64, usize)>,
    /// Sum and count of the ratings by the order of magnitude of `quality.proof_nodes`.
    by_proof: BTreeMap<u32, (f64, usize)>,
    themes: BTreeMap<String, usize>,
}

impl Stats {
    fn add(&mut self, r: &Problem, seed: &Seed) {
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

    fn largest_family(&self) -> usize {
        self.families.values().copied().max().unwrap_or(0)
    }

    /// The themes, the commonest first (ties by name).
    fn themes_by_count(&self) -> Vec<(String, usize)> {
        toritsume::notation::commonest_first(&self.themes)
    }

    fn json(&self, unreadable: usize) -> Value {
        json!({
            "problems": self.problems,
            "unreadable": unreadable,
            "verdicts": self.verdicts,
            "final_duals": self.final_duals,
            "shapes": self.shapes.len(),
            "families": self.families.len(),
            "largest_family": self.largest_family(),
            "plies": self.plies.iter().map(|(k, v)| (k.to_string(), *v)).collect::<BTreeMap<_, _>>(),
            "unsolved": self.unsolved,
            "length_without_line": self.stated_only,
            "ratings": self.ratings.iter().map(|(k, v)| (k.to_string(), *v)).collect::<BTreeMap<_, _>>(),
            "unrated": self.unrated,
            "mean_rating_by_plies": self.by_plies.iter().map(|(k, v)| (k.to_string(), mean(v))).collect::<BTreeMap<_, _>>(),
            "mean_rating_by_proof_size": self.by_proof.iter().map(|(k, v)| (k.to_string(), mean(v))).collect::<BTreeMap<_, _>>(),
            "themes": self.themes,
        })
    }

    fn text(&self, files: usize) -> String {
        let n = self.problems;
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        let mut out = String::new();
        let mut verdicts: Vec<String> = self
            .verdicts
            .iter()
            .filter(|(v, _)| v.as_str() != NO_VERDICT)
            .map(|(v, c)| format!("{} {v}", grouped(*c)))
            .collect();
        if let Some(c) = self.verdicts.get(NO_VERDICT) {
            verdicts.push(format!("{} without a verdict", grouped(*c)));
        }
        let verdicts = list(verdicts);
        out += &format!(
            "{} in {}: {verdicts}\n",
            counted_grouped(n, "problem", "problems"),
            counted_grouped(files, "file", "files"),
        );
        let solved = n - self.unsolved - self.stated_only;
        let per_thousand = (self.shapes.len() * 1000 + solved / 2)
            .checked_div(solved)
            .unwrap_or(0);
        out += &format!(
            "{} with a final dual, {} distinct solution shapes in {} solved ({} per 1,000), families of at most {}\n",
            grouped(self.final_duals),
            grouped(self.shapes.len()),
            grouped(solved),
            grouped(per_thousand),
            self.largest_family()
        );
        let mut lengths: Vec<String> = self
            .plies
            .iter()
            .map(|(p, c)| format!("{p}: {c}"))
            .collect();
        if self.unsolved > 0 {
            lengths.push(format!("no solution: {}", self.unsolved));
        }
        if self.stated_only > 0 {
            lengths.push(format!("a length without a line: {}", self.stated_only));
        }
        out += &format!("Lengths (plies: problems): {}\n", list(lengths));
        let mut ratings: Vec<String> = self
            .ratings
            .iter()
            .map(|(lo, c)| {
                if *lo >= RATING_TOP {
                    format!("{RATING_TOP}: {c}")
                } else {
                    format!("{lo}–{}: {c}", lo + 199)
                }
            })
            .collect();
        if self.unrated > 0 {
            ratings.push(format!("no rating: {}", self.unrated));
        }
        out += &format!("Ratings: {}\n", list(ratings));
        out += &format!(
            "Mean rating by length: {}; by proof size: {}\n",
            list(
                self.by_plies
                    .iter()
                    .map(|(p, v)| format!("{p}: {}", mean(v)))
                    .collect()
            ),
            list(
                self.by_proof
                    .iter()
                    .map(|(k, v)| format!("10^{k} nodes: {}", mean(v)))
                    .collect()
            )
        );
        out += &format!(
            "Themes: {}\n",
            list(
                self.themes_by_count()
                    .into_iter()
                    .map(|(t, c)| format!("`{t}` {c}"))
                    .collect()
            )
        );
        out
    }
}

/// The mean of a sum of ratings over their count, rounded.
fn mean((sum, n): &(f64, usize)) -> i64 {
    (sum / *n as f64).round() as i64
}

/// `n` with a comma every three digits (`3,096`).
fn grouped(n: usize) -> String {
    toritsume::notation::grouped(n as u64)
}

/// `3,096 problems`, or `1 problem`.
fn counted_grouped(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// Runs `stats`: reads every record (a line that cannot be read, or whose moves cannot be
/// played, is named and makes the exit status 2; the rest are counted) and prints the figures.
pub fn run(a: StatsArgs) -> anyhow::Result<i32> {
    let mut stats = Stats::default();
    let bad = read_checked(&a.files, &a.check, |r, seed| stats.add(&r, &seed))?;
    if a.json {
        emit(&format!("{}\n", stats.json(bad)))?;
    } else {
        emit(&stats.text(a.files.len()))?;
    }
    if bad > 0 {
        say_err!(
            "{} left out",
            counted_grouped(bad, "unreadable line", "unreadable lines")
        );
        return Ok(EXIT_USAGE);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(3096), "3,096");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(counted_grouped(1, "problem", "problems"), "1 problem");
    }
}
