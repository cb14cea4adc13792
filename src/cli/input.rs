//! The command line's side of reading input ([`toritsume::input`] does the reading): a
//! note when an input holds no positions, `--lines` and `--check` as options, and the
//! problem records of files handed over with their [`Seed`]s.

use super::say_err;
use toritsume::generator::Seed;
use toritsume::input::{LineChoice, choose_lines, read_input};
use toritsume::problem::Problem;

pub use toritsume::input::{Item, content_lines, read_file, records, source_name};

/// Reads the positions named by the POSITION|FILE|- words ([`read_input`]), after a note on
/// standard error when a file or standard input held none: a run over an empty file
/// succeeds, but says why it printed nothing.
pub fn read_items(words: &[String]) -> anyhow::Result<Vec<Item>> {
    let items = read_input(words)?;
    if items.is_empty() {
        let name = if words.join(" ") == "-" {
            "standard input".to_string()
        } else {
            source_name(std::path::Path::new(&words[0]))
        };
        say_err!("note: {name} holds no positions (nothing but blank lines and comments)");
    }
    Ok(items)
}

/// Reads the problem records of `files`, in order, each with its [`Seed`] (its position,
/// main line, family and keys; a record naming no family is given `FILE:LINE`), and hands
/// each readable one to `each`. A line that is not a record, or whose moves cannot be
/// played, is named on standard error (`error: line N of FILE: reason`) and counted; the
/// count is returned. A file that cannot be read is an error.
pub fn read_seeded(
    files: &[std::path::PathBuf],
    mut each: impl FnMut(Problem, Seed),
) -> anyhow::Result<usize> {
    read_placed(files, |_, r, seed| each(r, seed))
}

/// [`read_seeded`], each record handed over with where it is (`line N of FILE`).
fn read_placed(
    files: &[std::path::PathBuf],
    mut each: impl FnMut(String, Problem, Seed),
) -> anyhow::Result<usize> {
    let mut bad = 0;
    for f in files {
        let bytes = read_file(f)?;
        for (n, record) in records(&bytes) {
            let parsed = record.and_then(|r| {
                let seed = Seed::from_record(&r, format!("{}:{n}", source_name(f)))
                    .map_err(|e| e.to_string())?;
                Ok((r, seed))
            });
            match parsed {
                Ok((r, seed)) => each(format!("line {n} of {}", source_name(f)), r, seed),
                Err(e) => {
                    bad += 1;
                    say_err!("error: line {n} of {}: {e}", source_name(f));
                }
            }
        }
    }
    Ok(bad)
}

/// `--check`, as `stats` and `merge` take it: each record solved first, and counted or
/// chosen only as far as the solve confirms it.
#[derive(clap::Args, Clone, Debug)]
pub struct CheckArgs {
    /// Solve each record first (as `book` does) and use only what the solve confirms: a
    /// record whose length, status or line the solve contradicts is named and left out, and
    /// one without a line is measured by the line found.
    #[arg(long)]
    check: bool,
    /// With --check, the node budget of each record's solve (a record that needs more is
    /// named and left out).
    #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = super::node_budget_arg, requires = "check")]
    check_nodes: u64,
    /// With --check, the worker threads (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    check_threads: usize,
}

/// [`read_seeded`], with `--check` each record first settled by a solve
/// ([`toritsume::problem::Problem::settled`]) and handed to `each` as the solve settles it,
/// those the solve contradicts (or cannot decide within the budget) named and counted as
/// bad lines.
pub fn read_checked(
    files: &[std::path::PathBuf],
    check: &CheckArgs,
    mut each: impl FnMut(Problem, Seed),
) -> anyhow::Result<usize> {
    if !check.check {
        return read_seeded(files, each);
    }
    let mut read = Vec::new();
    let mut bad = read_placed(files, |at, r, seed| read.push((at, r, seed)))?;
    let records: Vec<Problem> = read.iter().map(|(_, r, _)| r.clone()).collect();
    let config = toritsume::solver::SolverConfig {
        hash_mb: 16,
        nodes: Some(check.check_nodes),
        ..toritsume::solver::SolverConfig::default()
    };
    let threads = super::threads_arg(check.check_threads)?;
    let settled = toritsume::problem::answer::settle_all(&records, &config, threads)?;
    for ((at, r, seed), s) in read.into_iter().zip(settled) {
        // The seed of the record as the solve settled it: its length and line the solve's.
        match s.and_then(|p| Seed::from_record(&p, seed.family)) {
            Ok(settled) => each(r, settled),
            Err(e) => {
                bad += 1;
                say_err!("error: {at}: {e}");
            }
        }
    }
    Ok(bad)
}

/// `--lines`, as `solve`, `verify` and `bench` take it.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LinesArg {
    /// Only these lines of the FILE, numbered from 1 as in the reports' `line N of FILE`
    /// (`3,10-12`; an error when one holds no position).
    #[arg(long, value_name = "LIST", value_parser = toritsume::input::line_choice)]
    lines: Option<LineChoice>,
}

impl LinesArg {
    /// The positions `words` name ([`read_items`]), on the chosen lines only
    /// ([`choose_lines`]).
    pub fn read(&self, words: &[String]) -> anyhow::Result<Vec<Item>> {
        Ok(choose_lines(read_items(words)?, self.lines.as_ref())?)
    }

    /// The `--lines` that takes up a run from `items[i]` on: what this choice (all lines,
    /// without one) leaves from that item's line, as an option to give; `None` when the
    /// item has no line (a position given as such).
    pub fn go_on_from(&self, items: &[Item], i: usize) -> Option<String> {
        let n = items.get(i)?.line?;
        Some(format!(
            "--lines {}",
            LineChoice::from_line(self.lines.as_ref(), n)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toritsume::input::{line_choice, read_one, read_text};

    #[test]
    fn a_run_is_taken_up_from_an_item_with_the_lines_it_leaves() {
        let file = b"4pk1/5l1/3C2F/7/7/7/7 b C 1\n\n5k1/7/3C2F/7/7/7/7 b C 1\nbad\n";
        let items = read_text(file, "set.txt");
        let all = LinesArg { lines: None };
        assert_eq!(all.go_on_from(&items, 1).as_deref(), Some("--lines 3-"));
        assert_eq!(all.go_on_from(&items, 3), None);
        let some = LinesArg {
            lines: Some(line_choice("1,3-4,9-12,20-").unwrap()),
        };
        let chosen = choose_lines(read_text(file, "set.txt"), some.lines.as_ref());
        assert!(chosen.is_err(), "lines 9-12 and 20- hold nothing here");
        assert_eq!(
            some.go_on_from(&items, 1).as_deref(),
            Some("--lines 3-4,9-12,20-")
        );
        assert_eq!(
            some.go_on_from(&items, 2).as_deref(),
            Some("--lines 4,9-12,20-")
        );
        let one = vec![read_one("4pk1/5l1/3C2F/7/7/7/7 b C 1", "argument".into())];
        assert_eq!(all.go_on_from(&one, 0), None);
    }
}
