//! `toritsume stats`: what a problem set holds, from its records alone (no solving): how many
//! problems of each verdict and length, their ratings, themes, solution shapes and families,
//! as docs/GUIDE.md's "Quality of the shipped set" gives them.

use super::EXIT_USAGE;
use super::input::read_checked;
use super::output::emit;
use super::say_err;
use clap::Args;
use std::path::PathBuf;
use toritsume::report::stats::{NO_VERDICT, RATING_TOP, SetStats, mean};

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

/// The text report of `stats`, over `files` files.
fn text(stats: &SetStats, files: usize) -> String {
    let s = stats;
    {
        let n = s.problems;
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        let mut out = String::new();
        let mut verdicts: Vec<String> = s
            .verdicts
            .iter()
            .filter(|(v, _)| v.as_str() != NO_VERDICT)
            .map(|(v, c)| format!("{} {v}", grouped(*c)))
            .collect();
        if let Some(c) = s.verdicts.get(NO_VERDICT) {
            verdicts.push(format!("{} without a verdict", grouped(*c)));
        }
        let verdicts = list(verdicts);
        out += &format!(
            "{} in {}: {verdicts}\n",
            counted_grouped(n, "problem", "problems"),
            counted_grouped(files, "file", "files"),
        );
        let solved = n - s.unsolved - s.stated_only;
        let per_thousand = (s.shapes.len() * 1000 + solved / 2)
            .checked_div(solved)
            .unwrap_or(0);
        out += &format!(
            "{} with a final dual, {} distinct solution shapes in {} solved ({} per 1,000), families of at most {}\n",
            grouped(s.final_duals),
            grouped(s.shapes.len()),
            grouped(solved),
            grouped(per_thousand),
            s.largest_family()
        );
        let mut lengths: Vec<String> = s.plies.iter().map(|(p, c)| format!("{p}: {c}")).collect();
        if s.unsolved > 0 {
            lengths.push(format!("no solution: {}", s.unsolved));
        }
        if s.stated_only > 0 {
            lengths.push(format!("a length without a line: {}", s.stated_only));
        }
        out += &format!("Lengths (plies: problems): {}\n", list(lengths));
        let mut ratings: Vec<String> = s
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
        if s.unrated > 0 {
            ratings.push(format!("no rating: {}", s.unrated));
        }
        out += &format!("Ratings: {}\n", list(ratings));
        out += &format!(
            "Mean rating by length: {}; by proof size: {}\n",
            list(
                s.by_plies
                    .iter()
                    .map(|(p, v)| format!("{p}: {}", mean(v)))
                    .collect()
            ),
            list(
                s.by_proof
                    .iter()
                    .map(|(k, v)| format!("10^{k} nodes: {}", mean(v)))
                    .collect()
            )
        );
        out += &format!(
            "Themes: {}\n",
            list(
                s.themes_by_count()
                    .into_iter()
                    .map(|(t, c)| format!("`{t}` {c}"))
                    .collect()
            )
        );
        out
    }
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
    let mut stats = SetStats::default();
    let bad = read_checked(&a.files, &a.check, |r, seed| stats.add(&r, &seed))?;
    if a.json {
        emit(&format!(
            "{}\n",
            toritsume::report::to_json_line(&stats.report(bad))
        ))?;
    } else {
        emit(&text(&stats, a.files.len()))?;
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
