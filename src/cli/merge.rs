//! `toritsume merge`: problem files combined (the shards of a generation, say), duplicates
//! and what the family and shape limits leave out dropped, and a set chosen by length,
//! rating and themes.

use super::EXIT_USAGE;
use super::generate::{create_output, parse_plies, refuse_existing};
use super::input::read_checked;
use super::output::{emit, io_reason};
use super::say_err;
use anyhow::bail;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use toritsume::generator::themes::{Choice, ThemeChoice};
use toritsume::generator::{Policy, Refusal};
use toritsume::notation::counted;

/// Arguments of `merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// Problem files (JSON lines, or pychess-variants, EPD or CSV files of puzzles), e.g. the
    /// outputs of several shards (`-`: standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The combined, de-duplicated file (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
    /// Keep at most N records of one family (the records' `family` field), the first ones.
    #[arg(long, value_name = "N")]
    family_limit: Option<usize>,
    /// Keep at most N records of one coarse solution shape (Hodges moves without squares).
    #[arg(long, value_name = "N")]
    shape_limit: Option<usize>,
    /// Keep only records of these lengths: `7`, or a range `21..33` (the length of a record's
    /// line, checked on reading to mate in as many plies as its `plies` says; records
    /// without a line are left out).
    #[arg(long, value_name = "MIN..MAX")]
    plies: Option<String>,
    #[command(flatten)]
    choice: ChoiceArgs,
    #[command(flatten)]
    check: super::input::CheckArgs,
}

/// The choice of problems by rating and themes, as `merge` and `generate` take it.
#[derive(Args)]
pub struct ChoiceArgs {
    /// Keep only problems rated within this range: `1200..1600`, or `1500` (a record's
    /// `rating`; one without a rating is left out).
    #[arg(long, value_name = "MIN..MAX")]
    pub rating: Option<String>,
    /// Keep only problems carrying every one of these themes: `sacrifice,quietDrop` (a
    /// record's `themes`; see docs/GUIDE.md, "Themes and rating").
    #[arg(long, value_name = "LIST")]
    pub themes: Option<String>,
    /// Leave out problems carrying any of these themes: `finalDual,uselessInterposition`.
    #[arg(long, value_name = "LIST")]
    pub exclude_themes: Option<String>,
}

impl ChoiceArgs {
    /// The choice the options make; the error names the option and what is wrong.
    pub fn choice(&self) -> anyhow::Result<ThemeChoice> {
        ThemeChoice::parse(
            self.rating.as_deref(),
            self.themes.as_deref(),
            self.exclude_themes.as_deref(),
        )
        .map_err(anyhow::Error::msg)
    }
}

/// Runs `merge`: keeps the first record of each position (mirror included), solution shape
/// and line, in the order of the files given, within the family and shape limits asked for.
/// A line that cannot be read is reported with its reason and skipped (the others are
/// merged; the exit status is then 2).
pub fn run_merge(a: MergeArgs) -> anyhow::Result<i32> {
    let choice = a.choice.choice()?;
    if let Some(why) = choice.impossible() {
        bail!("no record could be kept: {why}");
    }
    let to_stdout = a.out.as_os_str() == "-";
    if !to_stdout {
        refuse_existing(&a.out, a.force)?;
    }
    let mut records = Vec::new();
    let bad = read_checked(&a.files, &a.check, |r, seed| records.push((r, seed)))?;
    if a.family_limit == Some(0) || a.shape_limit == Some(0) {
        bail!("--family-limit and --shape-limit must be at least 1");
    }
    let mut policy = Policy::new(
        a.family_limit.unwrap_or(usize::MAX),
        a.shape_limit.unwrap_or(usize::MAX),
    );
    let range = a
        .plies
        .as_deref()
        .map(|t| parse_plies(t, None))
        .transpose()?;
    let mut text = String::new();
    let (mut kept, mut dups, mut over, mut outside) = (0, 0, 0, 0);
    let (mut unchosen, mut unmarked, mut unlined) = (0, 0, 0);
    for (r, seed) in &records {
        if let Some((lo, hi)) = range {
            if seed.plies == 0 {
                // A no-mate, or a length stated without a line to check it by.
                unlined += 1;
                continue;
            }
            if !(lo..=hi).contains(&seed.plies) {
                outside += 1;
                continue;
            }
        }
        match choice.judge(r) {
            Choice::In => {}
            Choice::Out => {
                unchosen += 1;
                continue;
            }
            Choice::Unmarked => {
                unmarked += 1;
                continue;
            }
        }
        match policy.check(&seed.keys, &seed.family) {
            Err(Refusal::Duplicate) => {
                dups += 1;
                continue;
            }
            Err(_) => {
                over += 1;
                continue;
            }
            Ok(()) => {}
        }
        policy.keep(&seed.keys, &seed.family);
        text.push_str(&r.to_json());
        text.push('\n');
        kept += 1;
    }
    if to_stdout {
        emit(&text)?;
    } else {
        let mut out = create_output(&a.out, a.force)?;
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {}", a.out.display(), io_reason(&e)))?;
    }
    say_err!(
        "read {} from {}, kept {kept}, dropped {}{}{}{}{}{}{}",
        counted(records.len() as u64, "record", "records"),
        counted(a.files.len() as u64, "file", "files"),
        counted(dups as u64, "duplicate", "duplicates"),
        if outside > 0 {
            format!(", {outside} of other lengths")
        } else {
            String::new()
        },
        if unlined > 0 {
            format!(", {unlined} without a line to measure")
        } else {
            String::new()
        },
        if unchosen > 0 {
            format!(", {unchosen} outside the rating or themes asked for")
        } else {
            String::new()
        },
        if unmarked > 0 {
            format!(", {unmarked} without the rating or themes to choose by")
        } else {
            String::new()
        },
        if over > 0 {
            format!(", {over} over the family or shape limit")
        } else {
            String::new()
        },
        if bad > 0 {
            format!(
                ", skipped {}",
                counted(bad as u64, "unreadable line", "unreadable lines")
            )
        } else {
            String::new()
        }
    );
    Ok(if bad > 0 { EXIT_USAGE } else { 0 })
}
