//! `toritsume generate`: problem sets, written as they are found, and stopped runs resumed.

use super::output::{StdoutError, io_reason};
use super::resume::{SavedRun, checkpoint_path, earlier_run};
use super::say_err;
use anyhow::bail;
use clap::Args;
use clap::builder::TypedValueParser as _;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use toritsume::generator::{
    FinalDuals, GENERATE_MAX_PLIES, GenerateOptions, Generator, ResumeError, Stats, Step,
    parse_shard,
};
use toritsume::notation::counted;

/// Arguments of `generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// Solution length in plies: `7`, or a range `5..9` (odd lengths; both ends included).
    #[arg(long, value_name = "MIN..MAX")]
    plies: String,
    /// Number of problems to produce (at least 1).
    #[arg(long, value_parser = count_arg::<usize>)]
    count: usize,
    /// Seed: the same seed and count give the same problems, whatever --threads is.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write the problems here (JSON lines) instead of standard output (`-`: standard output,
    /// as without the option).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Overwrite --out if it exists (and start over a run stopped there).
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Go on with the run that was stopped writing --out (Ctrl-C, a signal, a crash), from
    /// its checkpoint `OUT.checkpoint`: the same command with --resume writes what the run
    /// would have written uninterrupted. Starts the run when --out does not exist yet.
    #[arg(long)]
    resume: bool,
    /// How often a run writing --out saves its checkpoint, in seconds (0: after every
    /// batch); also saved when it is stopped, and removed when it ends.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = seconds_arg)]
    checkpoint_every: f64,
    /// No progress bar and no closing summary.
    #[arg(long)]
    quiet: bool,
    /// Keep only problems scoring at least this (see docs/GUIDE.md, "Quality").
    #[arg(long, value_name = "SCORE")]
    min_score: Option<f64>,
    #[command(flatten)]
    choice: super::merge::ChoiceArgs,
    /// Run shard K of N (0-based): disjoint candidates, so N machines can share a job.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Node budget of a candidate's first solve (its verification gets 8×).
    #[arg(long, value_name = "N", value_parser = super::node_budget_arg)]
    nodes: Option<u64>,
    /// Table size per worker, MB.
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = super::hash_mb_arg)]
    hash: usize,
    /// Stop after this many candidates (at least 1) even if fewer problems were found.
    #[arg(long, value_name = "N", value_parser = count_arg::<u64>)]
    max_candidates: Option<u64>,
    /// Whether a problem whose last move has an alternative mate may be kept.
    #[arg(
        long,
        value_name = "allow|forbid",
        default_value = "forbid",
        value_parser = clap::builder::PossibleValuesParser::new(["allow", "forbid"])
            .try_map(|s| s.parse::<FinalDuals>())
    )]
    final_duals: FinalDuals,
    /// Most problems kept from one family (problems descending from one ancestor).
    #[arg(long, value_name = "N", default_value_t = 3)]
    family_limit: usize,
    /// Most problems kept with one solution shape (Hodges moves without their squares).
    #[arg(long, value_name = "N", default_value_t = 1)]
    shape_limit: usize,
    /// Start from these problems (JSON lines, or a pychess-variants, EPD or CSV file): they
    /// are mutated and extended like the problems kept, never written. Long runs grow from
    /// shorter sets this way.
    #[arg(long, value_name = "FILE")]
    from: Vec<PathBuf>,
}

/// Parses a count that must be at least 1 (`--count`, `--max-candidates`): none would
/// ask for nothing, and the run would do nothing.
fn count_arg<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialEq + From<u8>,
    T::Err: std::fmt::Display,
{
    super::at_least_one(text, "at least 1", "")
}

/// Parses a number of seconds, 0 or more.
fn seconds_arg(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "`{}` is not a number of seconds (0 or more)",
            toritsume::notation::quoted(text)
        )),
    }
}

/// Parses `--plies MIN..MAX` (or `N`): a range of solution lengths from 1 up, at most
/// `most` when given (`generate`'s reach; `merge` filters records of any length).
pub(super) fn parse_plies(text: &str, most: Option<u16>) -> anyhow::Result<(u16, u16)> {
    toritsume::generator::parse_plies(text, most).map_err(anyhow::Error::msg)
}

/// An output file opened at its first write, so that a run that fails before it has
/// anything to write (a table that cannot be allocated, say) leaves no file behind. Whether
/// the file may be written is checked when it is made ([`LazyFile::new`]).
struct LazyFile {
    path: PathBuf,
    force: bool,
    file: Option<File>,
}

impl LazyFile {
    fn new(path: &Path, force: bool) -> anyhow::Result<LazyFile> {
        refuse_existing(path, force)?;
        Ok(LazyFile {
            path: path.to_path_buf(),
            force,
            file: None,
        })
    }

    /// The output of a resumed run: `file`, open where it goes on.
    fn resumed(path: &Path, file: File) -> LazyFile {
        LazyFile {
            path: path.to_path_buf(),
            force: false,
            file: Some(file),
        }
    }

    /// The file, created now if it was not yet.
    fn open(&mut self) -> std::io::Result<&mut File> {
        if self.file.is_none() {
            self.file = Some(open_output(&self.path, self.force)?);
        }
        Ok(self.file.as_mut().expect("just opened"))
    }
}

impl Write for LazyFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.open()?.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

/// Refuses an output file that exists, unless `force` (checked before any work, so that
/// a run does not end in that error).
pub(super) fn refuse_existing(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && path.exists() {
        bail!("{} exists; pass --force to overwrite it", path.display());
    }
    Ok(())
}

/// Opens `path` for writing: truncated with `force`, else only if it does not exist.
fn open_output(path: &Path, force: bool) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true);
    if force {
        o.create(true).truncate(true);
    } else {
        o.create_new(true);
    }
    o.open(path)
}

/// Opens `path` for writing: refuses to overwrite without `force`.
pub fn create_output(path: &Path, force: bool) -> anyhow::Result<File> {
    open_output(path, force).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            anyhow::anyhow!("{} exists; pass --force to overwrite it", path.display())
        } else {
            anyhow::anyhow!("cannot write {}: {e}", path.display())
        }
    })
}

/// Writes `text` to a new file `path` ([`create_output`]: never over one unless `force`),
/// naming the file when the write fails.
pub fn write_file(path: &Path, force: bool, text: &str) -> anyhow::Result<()> {
    let mut f = create_output(path, force)?;
    f.write_all(text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), io_reason(&e)))
}

/// Writes `text` to standard output when `path` is `-`, else as [`write_file`] does.
pub fn write_out(path: &Path, force: bool, text: &str) -> anyhow::Result<()> {
    if path == Path::new("-") {
        Ok(super::output::emit(text)?)
    } else {
        write_file(path, force, text)
    }
}

fn summary(stats: &Stats) -> String {
    let kept: Vec<String> = stats
        .kept
        .iter()
        .map(|(p, n)| format!("{}: {n}", toritsume::notation::plies(*p)))
        .collect();
    format!(
        "tried {}, mates {}, in range {}, sound {}{}{}, final duals {}, kept {} ({}), {} \
         distinct solution shapes, {:.1} problems/min in {:.1} s",
        stats.tried,
        stats.mates,
        stats.in_range,
        stats.sound,
        if stats.trimmed > 0 {
            format!(" ({} with pieces taken off)", stats.trimmed)
        } else {
            String::new()
        },
        if stats.unchosen > 0 {
            format!(
                ", {} outside the rating or themes asked for",
                stats.unchosen
            )
        } else {
            String::new()
        },
        stats.final_duals,
        stats.kept_total(),
        if kept.is_empty() {
            "none".into()
        } else {
            kept.join(", ")
        },
        stats.shapes,
        stats.per_minute(),
        stats.elapsed.as_secs_f64()
    )
}

/// Runs `generate`.
pub fn run(mut a: GenerateArgs) -> anyhow::Result<i32> {
    // Ctrl-C and SIGTERM are taken from the start: one that comes while the input is read
    // or the tables are made stops the run cleanly too, rather than killing it.
    let _ = super::interrupt_flag();
    let options = GenerateOptions {
        plies: parse_plies(&a.plies, Some(GENERATE_MAX_PLIES))?,
        count: a.count,
        seed: a.seed,
        threads: super::threads_arg(a.threads)?,
        shard: match &a.shard {
            Some(s) => parse_shard(s).map_err(anyhow::Error::msg)?,
            None => (0, 1),
        },
        min_score: a.min_score,
        rating: a.choice.rating.clone(),
        themes: a.choice.themes.clone(),
        exclude_themes: a.choice.exclude_themes.clone(),
        nodes: a.nodes,
        hash_mb: a.hash,
        max_candidates: a.max_candidates,
        final_duals: a.final_duals,
        family_limit: a.family_limit,
        shape_limit: a.shape_limit,
        from: a.from.clone(),
    };
    let config = options.config().map_err(|e| {
        // The message names --plies as the user wrote it.
        anyhow::anyhow!(
            "{}",
            e.replace(
                &format!("outside --plies {}", range_text(options.plies)),
                &format!("outside --plies {}", a.plies)
            )
        )
    })?;
    if a.out.as_deref() == Some(std::path::Path::new("-")) {
        a.out = None;
    }
    if a.resume && a.out.is_none() {
        bail!("--resume needs --out FILE: a run written to standard output cannot be taken up");
    }
    // A device or a pipe given as --out (`/dev/stdout`, a FIFO) is written as standard
    // output is: a run into it cannot be taken up, so it keeps no checkpoint.
    let regular = a
        .out
        .as_deref()
        .is_some_and(|p| std::fs::metadata(p).map_or(true, |m| m.is_file()));
    if a.resume && !regular {
        bail!(
            "--resume: {} is not a file: a run written to a device or a pipe cannot be taken up",
            a.out
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string())
        );
    }
    let checkpoint = a.out.as_deref().filter(|_| regular).map(checkpoint_path);
    let saved = match (&a.out, &checkpoint) {
        (Some(out), Some(cp)) => earlier_run(out, cp, a.resume, a.force)?,
        _ => None,
    };
    let mut generator = match &saved {
        Some(s) => Generator::resume(&config, &s.run).map_err(|e| match e {
            ResumeError::Io(e) => out_of_memory(e),
            e => anyhow::anyhow!(
                "--resume: the run stopped in {} cannot go on under these settings: {e}",
                a.out
                    .as_deref()
                    .map_or(String::new(), |p| p.display().to_string())
            ),
        })?,
        None => Generator::new(&config).map_err(out_of_memory)?,
    };
    let (mut file, mut bytes) = match (&a.out, &saved) {
        (Some(out), Some(s)) => {
            let (f, after) = s.reopen(out)?;
            if !a.quiet {
                say_err!(
                    "resuming the run in {} at candidate {}: {} written{}",
                    out.display(),
                    s.run.next_candidate,
                    counted(s.problems(), "problem", "problems"),
                    if after > 0 {
                        format!(
                            ", and {} written after it, which the run writes again",
                            counted(after, "problem", "problems")
                        )
                    } else {
                        String::new()
                    }
                );
            }
            (Some(LazyFile::resumed(out, f)), s.out_bytes)
        }
        (Some(out), None) => (Some(LazyFile::new(out, a.force)?), 0),
        _ => (None, 0),
    };
    let mut stdout = std::io::stdout();
    // Ctrl-C or SIGTERM (any number of them at once) lets the run finish writing cleanly
    // and save its checkpoint; another one later ends it at once.
    let stop = super::interrupt_flag();
    generator.set_stop(std::sync::Arc::clone(&stop));
    let bar = if !a.quiet && std::io::stderr().is_terminal() {
        let b = ProgressBar::new(a.count as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} problems  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_position(generator.stats().kept_total() as u64);
        Some(b)
    } else {
        None
    };
    let write_error = |e: std::io::Error| -> anyhow::Error {
        match &a.out {
            Some(p) => anyhow::anyhow!("cannot write {}: {}", p.display(), io_reason(&e)),
            None => StdoutError(e).into(),
        }
    };
    // A new run's first checkpoint, then its output, are made before any work, so that a
    // run killed outright (SIGKILL, a machine gone) before its next checkpoint can be
    // resumed from the start rather than refused.
    let fresh = saved.is_none();
    if let (Some(cp), Some(f), true) = (&checkpoint, &mut file, fresh) {
        SavedRun::new(generator.checkpoint(), 0).save(cp, None)?;
        f.open().map_err(write_error)?;
    }
    let every = std::time::Duration::from_secs_f64(a.checkpoint_every);
    let mut saved_at = std::time::Instant::now();
    let end = loop {
        let out: &mut dyn Write = match &mut file {
            Some(f) => f,
            None => &mut stdout,
        };
        let step = generator
            .step(&stop, |g| {
                let line = format!("{}\n", g.record.to_json());
                out.write_all(line.as_bytes())?;
                out.flush()?;
                bytes += line.len() as u64;
                if let Some(b) = &bar {
                    b.inc(1);
                }
                Ok(())
            })
            .map_err(write_error)?;
        let save = match step {
            Step::Batch => saved_at.elapsed() >= every,
            Step::Stopped => true,
            Step::Done => false,
        };
        if let (Some(cp), true) = (&checkpoint, save) {
            let f = file
                .as_mut()
                .map(|f| f.open())
                .transpose()
                .map_err(write_error)?;
            SavedRun::new(generator.checkpoint(), bytes).save(cp, f.as_deref())?;
            saved_at = std::time::Instant::now();
        }
        if step != Step::Batch {
            break step;
        }
        if let Some(b) = &bar {
            let s = generator.stats();
            b.set_message(format!("tried {}, {:.1}/min", s.tried, s.per_minute()));
        }
    };
    let stats = generator.stats();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if end == Step::Done
        && let Some(cp) = &checkpoint
    {
        // The run is over: nothing is left to resume.
        match std::fs::remove_file(cp) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => bail!(
                "cannot remove the checkpoint {}: {}",
                cp.display(),
                io_reason(&e)
            ),
        }
    }
    if stats.gave_up {
        // A new run that wrote nothing leaves no output behind.
        if let (Some(f), true, 0) = (&file, fresh, bytes) {
            let _ = std::fs::remove_file(&f.path);
        }
        anyhow::bail!(
            "no mate found in the first {} candidates within {}: give a larger --nodes",
            stats.tried,
            a.nodes
                .map_or("the default node budget".to_string(), |n| format!(
                    "the node budget (--nodes {n})"
                ))
        );
    }
    if let Some(f) = &mut file {
        // A run that kept nothing still leaves its (empty) output file.
        let path = f.path.display().to_string();
        f.open()
            .map_err(|e| anyhow::anyhow!("cannot write {path}: {}", io_reason(&e)))?;
    }
    if !a.quiet {
        say_err!("{}", summary(&stats));
    }
    if stats.candidate_limit {
        // Said even with --quiet: the output holds fewer problems than asked for.
        say_err!(
            "stopped at the candidate limit (--max-candidates {}): {} of {} kept",
            a.max_candidates.unwrap_or(0),
            stats.kept_total(),
            a.count
        );
    }
    if end == Step::Stopped {
        say_err!(
            "interrupted: {} written{}",
            counted(stats.kept_total() as u64, "problem", "problems"),
            if checkpoint.is_some() {
                "; the same command with --resume goes on from here"
            } else {
                ""
            }
        );
        return Ok(super::EXIT_INTERRUPTED);
    }
    Ok(0)
}

/// The error of workers that cannot be set up: their tables, as a rule.
fn out_of_memory(e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::OutOfMemory {
        anyhow::anyhow!("{e}; give a smaller --hash")
    } else {
        e.into()
    }
}

/// A range of lengths as the library's messages write it: `7`, or `5..9`.
fn range_text((lo, hi): (u16, u16)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}..{hi}")
    }
}
