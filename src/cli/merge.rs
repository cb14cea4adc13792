//! `toritsume merge`: problem files combined (the shards of a generation, say), duplicates
//! and what the family and shape limits leave out dropped.

use super::EXIT_USAGE;
use super::generate::{create_output, parse_plies, refuse_existing};
use super::input::{content_lines, read_file};
use super::output::{emit, io_reason};
use super::say_err;
use anyhow::bail;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use toritsume::generator::{Policy, Refusal, Seed};
use toritsume::notation::counted;
use toritsume::problem::Problem;

/// Arguments of `merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// Problem files (JSON lines), e.g. the outputs of several shards.
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
    /// Keep only records of these lengths: `7`, or a range `21..33` (a record's `plies`, else
    /// the length of its moves; no-mate records are left out).
    #[arg(long, value_name = "MIN..MAX")]
    plies: Option<String>,
}

/// Runs `merge`: keeps the first record of each position (mirror included), solution shape
/// and line, in the order of the files given, within the family and shape limits asked for.
/// A line that cannot be read is reported with its reason and skipped (the others are
/// merged; the exit status is then 2).
pub fn run_merge(a: MergeArgs) -> anyhow::Result<i32> {
    let to_stdout = a.out.as_os_str() == "-";
    if !to_stdout {
        refuse_existing(&a.out, a.force)?;
    }
    let mut records = Vec::new();
    let mut bad = 0;
    for f in &a.files {
        let bytes = read_file(f)?;
        for (n, line) in content_lines(&bytes) {
            let parsed = line.map_err(String::from).and_then(|line| {
                let r = Problem::from_json(line).map_err(|e| e.to_string())?;
                let seed = Seed::from_record(&r, format!("{}:{n}", f.display()))
                    .map_err(|e| e.to_string())?;
                Ok((r, seed))
            });
            match parsed {
                Ok(rk) => records.push(rk),
                Err(e) => {
                    bad += 1;
                    say_err!("error: line {n} of {}: {e}", f.display());
                }
            }
        }
    }
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
    for (r, seed) in &records {
        if let Some((lo, hi)) = range
            && !(lo..=hi).contains(&r.plies.unwrap_or(seed.plies))
        {
            outside += 1;
            continue;
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
        "read {} from {}, kept {kept}, dropped {}{}{}{}",
        counted(records.len() as u64, "record", "records"),
        counted(a.files.len() as u64, "file", "files"),
        counted(dups as u64, "duplicate", "duplicates"),
        if outside > 0 {
            format!(", {outside} of other lengths")
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
