//! `toritsume export`: a problem file as pychess-variants puzzles, Lichess-style CSV,
//! Fairy-Stockfish EPD or SFEN lines; `--format all` writes every one of them into a
//! directory (with the SFEN split by length, and a dataset card, `README.md`), as
//! `problems/export/` is made.

use super::generate::{refuse_existing, write_file, write_out};
use super::input::{read_file, records, source_name};
use super::output::io_reason;
use super::say_err;
use anyhow::{Context, bail};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toritsume::export::card::{CardInput, dataset_card};
use toritsume::export::formats::Format;
use toritsume::export::set::{format_text, make_puzzles};
use toritsume::export::{EXPORT_NODES, PhoenixPlacement, Puzzle, Skip};
use toritsume::notation::commonest_first;
use toritsume::rules::Square;

/// Arguments of `export`.
#[derive(Args)]
pub struct ExportArgs {
    /// pychess, csv, epd, sfen, or all (every format into the directory --out).
    #[arg(long, value_name = "FORMAT", value_parser = ["pychess", "csv", "epd", "sfen", "all"])]
    format: String,
    /// The problems (JSON lines, or a pychess-variants, EPD or CSV file): one file or more,
    /// exported in the order given (`-`: standard input).
    #[arg(required = true)]
    problems: Vec<PathBuf>,
    /// The file to write (`-` for standard output); a directory with `--format all`.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite what --out names if it exists.
    #[arg(long)]
    force: bool,
    /// The uploader's name in pychess records.
    #[arg(long, value_name = "NAME", default_value = "toritsume")]
    by: String,
    /// Where the attacker's phoenix goes for Fairy-Stockfish: `auto` or a square (`1g`).
    #[arg(long, value_name = "auto|SQUARE", default_value = "auto")]
    attacker_phoenix: String,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Node budget of each verification (a problem needing more is skipped, and says so).
    #[arg(
        long,
        value_name = "N",
        default_value_t = EXPORT_NODES,
        value_parser = super::node_budget_arg
    )]
    nodes: u64,
}

/// What was made of each record: where it was (file, line) and the puzzle, or why it was
/// skipped.
type Made = toritsume::export::set::Made<(usize, usize)>;

/// Reads the records and makes each into a puzzle, in parallel, in file order.
fn make(a: &ExportArgs, fairy: bool, placement: PhoenixPlacement) -> anyhow::Result<Made> {
    let mut list = Vec::new();
    for (f, path) in a.problems.iter().enumerate() {
        let bytes = read_file(path)?;
        for (n, record) in records(&bytes) {
            list.push(((f, n), record.map_err(Skip::Unreadable)));
        }
    }
    let threads = super::threads_arg(a.threads)?;
    make_puzzles(list, fairy, placement, threads, a.nodes, None).map_err(anyhow::Error::msg)
}

/// Writes `format`'s lines of `made` to `out` (`-`: standard output); returns how many were
/// written and the reasons for those skipped, each with its count.
fn write_format(
    made: &Made,
    format: Format,
    by: &str,
    out: &Path,
    force: bool,
    keep: impl Fn(&Puzzle) -> bool,
) -> anyhow::Result<(usize, BTreeMap<String, usize>)> {
    let (text, written, skipped) = format_text(made, format, by, keep);
    write_out(out, force, &text)?;
    Ok((written, skipped))
}

/// Names each record left out, by its file and line, with its reason: `skipped` when it
/// could not be made at all; `fairy` (when given) when Fairy-Stockfish's rules leave it out;
/// `sfen` (when given) when an SFEN line cannot carry it.
fn name_skipped(a: &ExportArgs, made: &Made, fairy: Option<&str>, sfen: Option<&str>) {
    for ((f, n), m) in made {
        let file = source_name(&a.problems[*f]);
        match m {
            Err(e) => say_err!("line {n} of {file}: skipped: {e}"),
            Ok(p) => {
                if let (Some(what), Err(e)) = (fairy, &p.fairy) {
                    say_err!("line {n} of {file}: {what}: {e}");
                }
                if let (Some(what), Err(e)) = (sfen, Format::Sfen.line(p, None, "")) {
                    say_err!("line {n} of {file}: {what}: {e}");
                }
            }
        }
    }
}

fn report(what: &str, written: usize, skipped: &BTreeMap<String, usize>) {
    let n: usize = skipped.values().sum();
    say_err!("{what}: {written} written, {n} skipped");
    for (why, count) in commonest_first(skipped) {
        say_err!("  {count} × {why}");
    }
}

/// Runs `export`.
pub fn run(a: ExportArgs) -> anyhow::Result<i32> {
    let placement = match a.attacker_phoenix.as_str() {
        "auto" => PhoenixPlacement::Auto,
        s => PhoenixPlacement::On(Square::parse(s).with_context(|| {
            format!("--attacker-phoenix: `{s}` is neither `auto` nor a square like 1g")
        })?),
    };
    if a.format == "all" {
        if a.out == Path::new("-") {
            bail!("--format all writes several files into a directory: give one with --out DIR");
        }
        if a.out.exists() && !a.out.is_dir() {
            bail!(
                "{} is not a directory: --format all writes several files into the directory --out names",
                a.out.display()
            );
        }
        let mut entries = match a.out.read_dir() {
            Ok(d) => Some(d),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => bail!("cannot read {}: {}", a.out.display(), io_reason(&e)),
        };
        if !a.force && entries.as_mut().is_some_and(|d| d.next().is_some()) {
            bail!(
                "{} is not empty; pass --force to write into it",
                a.out.display()
            );
        }
        std::fs::create_dir_all(a.out.join("sfen"))
            .with_context(|| format!("cannot make {}", a.out.display()))?;
        let made = make(&a, true, placement)?;
        name_skipped(
            &a,
            &made,
            Some("left out of the pychess and EPD files"),
            Some("left out of the sfen files"),
        );
        let mut files = Vec::new();
        for (format, name) in [
            (Format::Pychess, "torishogi-pychess.json"),
            (Format::Csv, "torishogi-puzzles.csv"),
            (Format::Epd, "torishogi-puzzles.epd"),
        ] {
            let (w, s) = write_format(&made, format, &a.by, &a.out.join(name), true, |_| true)?;
            report(name, w, &s);
            files.push((name.to_string(), w));
        }
        let lengths: std::collections::BTreeSet<u16> = made
            .iter()
            .filter_map(|(_, m)| m.as_ref().ok().map(|p| p.plies))
            .collect();
        for len in lengths {
            let name = format!("sfen/mate{len}.sfen");
            let path = a.out.join(&name);
            let (w, _) = write_format(&made, Format::Sfen, &a.by, &path, true, |p| p.plies == len)?;
            say_err!("{name}: {w} written");
            files.push((name, w));
        }
        write_card(&a, &made, files)?;
        return Ok(status(&made));
    }
    let format: Format = a.format.parse().map_err(|_| {
        anyhow::anyhow!(
            "--format: `{}` is not one of pychess, csv, epd, sfen, all",
            a.format
        )
    })?;
    if a.out != Path::new("-") {
        refuse_existing(&a.out, a.force)?;
    }
    let made = make(&a, format.needs_fairy(), placement)?;
    let (written, skipped) = write_format(&made, format, &a.by, &a.out, a.force, |_| true)?;
    name_skipped(
        &a,
        &made,
        format.needs_fairy().then_some("skipped"),
        (format == Format::Sfen).then_some("skipped"),
    );
    report(&format.to_string(), written, &skipped);
    Ok(status(&made))
}

/// Writes the dataset card, `README.md`, of a `--format all` directory: `files` are the
/// files written with their counts.
fn write_card(a: &ExportArgs, made: &Made, files: Vec<(String, usize)>) -> anyhow::Result<()> {
    let mut fairy: BTreeMap<String, usize> = BTreeMap::new();
    let mut every: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_file = vec![0usize; a.problems.len()];
    let mut puzzles = Vec::new();
    for ((f, _), m) in made {
        per_file[*f] += 1;
        match m {
            Ok(p) => {
                puzzles.push(p);
                if let Err(e) = &p.fairy {
                    *fairy.entry(e.summary()).or_default() += 1;
                }
            }
            Err(e) => *every.entry(e.summary()).or_default() += 1,
        }
    }
    let sources = a
        .problems
        .iter()
        .zip(per_file)
        .map(|(path, n)| {
            let name = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| source_name(path));
            (name, n)
        })
        .collect();
    let input = CardInput {
        files,
        sources,
        left_out_of_fairy: commonest_first(&fairy),
        left_out: commonest_first(&every),
    };
    let path = a.out.join("README.md");
    write_file(&path, true, &dataset_card(&puzzles, &input))?;
    say_err!("README.md: the dataset card written");
    Ok(())
}

/// The exit status: 2 when a record could not be read or claims what is not so (the others
/// are still written, as `merge` writes what it can read), else 0; a record skipped for what
/// it is (not sound, or outside Fairy-Stockfish's rules) is no error.
fn status(made: &Made) -> i32 {
    let bad = made
        .iter()
        .any(|(_, m)| m.as_ref().is_err_and(Skip::is_bad_record));
    if bad { 2 } else { 0 }
}
