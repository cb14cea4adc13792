//! The command line: argument parsing (clap) and output formatting. The library does the
//! work; this module reads arguments, calls it and prints.

mod bench;
mod book;
mod diagram;
mod editor;
mod export;
mod generate;
mod input;
mod merge;
mod output;
mod perft;
mod perft_suite;
mod resume;
mod search_args;
mod show;
mod signals;
mod solve;
mod stats;
mod tally;
mod ticker;
mod tries;
mod usi;
mod variations;
mod verify;

use clap::{Parser, Subcommand};
use toritsume::notation::{ParseError, parse_position};
use toritsume::rules::Position;

/// Writes a line to standard error, each character a terminal would act on (an escape
/// sequence a record or an argument carries) written out ([`toritsume::notation::printable`]);
/// a failure there (a full device) is ignored rather than a panic, as there is nowhere left
/// to report it.
macro_rules! say_err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            toritsume::notation::printable_lines(&text)
        );
    }};
}
pub(crate) use say_err;

/// Exit status for unusable input (a malformed position, an unreadable file, bad options).
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser)]
#[command(
    name = "toritsume",
    version,
    about = "Solve, verify and generate Tori Shogi mate problems (tsume)",
    long_about = "Solve, verify and generate Tori Shogi mate problems (tsume).\n\n\
                  Positions are SFEN (`rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1`), \
                  FEN (`...[hands] w ...`, w = Black) or `startpos`, optionally followed by \
                  `moves` and USI moves. Quote them or not: the words are joined."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show a position: diagram, SFEN and FEN, side to move, check, every legal move.
    Show(show::ShowArgs),
    /// Count legal move paths to a depth (checks the move generator), or check a perft suite.
    Perft(perft::PerftArgs),
    /// Find the mate: shortest attack, longest defence, the main line.
    Solve(solve::SolveArgs),
    /// Check a problem's soundness: cooks, duals, spare and redundant pieces.
    Verify(verify::VerifyArgs),
    /// Generate sound problems (JSON lines).
    Generate(generate::GenerateArgs),
    /// Combine problem files, dropping duplicates.
    Merge(merge::MergeArgs),
    /// Count what a problem set holds: verdicts, lengths, ratings, themes, shapes, families.
    Stats(stats::StatsArgs),
    /// Run as a USI tsume engine (`go mate`) on standard input and output.
    Usi,
    /// Draw a position: an SVG board (--svg FILE) or a text diagram.
    Diagram(diagram::DiagramArgs),
    /// Make a self-contained HTML puzzle book of a problem file.
    Book(book::BookArgs),
    /// Write the position editor: an HTML page that sets up a position by clicks or keys
    /// and gives its SFEN and the commands that solve and verify it.
    Editor(editor::EditorArgs),
    /// Export a problem file for pychess-variants, datasets (CSV), Fairy-Stockfish (EPD) or
    /// as SFEN lines.
    Export(export::ExportArgs),
    /// Solve a benchmark file (the hard set by default) and report times, nodes and
    /// whether each answer is the recorded one.
    Bench(bench::BenchArgs),
    /// Print a shell completion script for the commands and flags (bash, zsh, fish,
    /// elvish, powershell).
    #[command(
        long_about = "Print a shell completion script for the commands and flags.\n\n\
                      bash: toritsume completions bash > ~/.local/share/bash-completion/completions/toritsume\n\
                      zsh:  toritsume completions zsh > ~/.zfunc/_toritsume (with ~/.zfunc on fpath)\n\
                      fish: toritsume completions fish > ~/.config/fish/completions/toritsume.fish"
    )]
    Completions {
        /// The shell to write the script for.
        shell: clap_complete::Shell,
    },
}

/// Runs the command line and returns the process exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            // An argument clap quotes is written out as every message's is.
            say_err!("{}", e.render().to_string().trim_end());
            return EXIT_USAGE;
        }
        Err(e) => {
            let _ = e.print();
            return 0;
        }
    };
    let result = match cli.command {
        Command::Show(a) => show::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Merge(a) => merge::run_merge(a),
        Command::Stats(a) => stats::run(a),
        Command::Usi => usi::run(),
        Command::Diagram(a) => diagram::run(a),
        Command::Book(a) => book::run(a),
        Command::Editor(a) => editor::run(a),
        Command::Export(a) => export::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Completions { shell } => completions(shell),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if e.downcast_ref::<output::StdoutError>()
                .is_some_and(|w| w.is_closed_pipe())
            {
                // The reader took what it wanted and went away.
                return 0;
            }
            say_err!("error: {e:#}");
            EXIT_USAGE
        }
    }
}

/// `completions`: the script for `shell`, written from the same definitions the program
/// parses its arguments with, on standard output.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<i32> {
    use clap::CommandFactory as _;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "toritsume", &mut script);
    // The scripts are ASCII text.
    output::emit(&String::from_utf8_lossy(&script))?;
    Ok(0)
}

/// Joins the words of a POSITION argument and parses them.
pub fn position_arg(words: &[String]) -> Result<Position, ParseError> {
    parse_position(&words.join(" "))
}

/// Most worker threads per core `--threads` accepts: more only share the same cores, and
/// thousands of them exhaust memory or the system's thread limit.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// This machine's cores (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get())
}

/// The most worker threads on this machine: [`MAX_THREADS_PER_CORE`] per core (`--threads`
/// accepts no more, and USI `Threads` advertises it as its maximum).
pub fn max_threads() -> usize {
    cores() * MAX_THREADS_PER_CORE
}

/// Parses a whole number that must be at least 1: `zero` is the error for 0, `of` what
/// the number counts in the error for text that is no such number (` of nodes`).
pub fn at_least_one<T>(text: &str, zero: &str, of: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialEq + From<u8>,
    T::Err: std::fmt::Display,
{
    match text.parse::<T>() {
        Ok(n) if n == T::from(0) => Err(zero.to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!(
            "`{}` is not a whole number{of} ({e})",
            toritsume::notation::quoted(text)
        )),
    }
}

/// Parses `--hash MB`: a whole number of megabytes, at least 1 (a table of 0 MB cannot
/// hold a search; the largest sizes are checked against the machine when the table is made).
pub fn hash_mb_arg(text: &str) -> Result<usize, String> {
    at_least_one(text, "the table needs at least 1 MB", " of megabytes")
}

/// Parses a node budget (`--nodes N`): a whole number of nodes, at least 1.
pub fn node_budget_arg(text: &str) -> Result<u64, String> {
    at_least_one(text, "a node budget is at least 1 node", " of nodes")
}

/// Parses a length limit (`--max-plies N`): a whole number of plies, at least 1 (within no
/// plies nothing mates, and the answer would say nothing).
pub fn max_plies_arg(text: &str) -> Result<u16, String> {
    at_least_one(
        text,
        "a mate takes at least 1 ply",
        &format!(" of plies up to {}", u16::MAX),
    )
}

/// The number of worker threads for `--threads N`: N, or one per core for 0; more than
/// [`MAX_THREADS_PER_CORE`] per core is refused.
pub fn threads_arg(n: usize) -> anyhow::Result<usize> {
    let cores = cores();
    let max = max_threads();
    match n {
        0 => Ok(cores),
        n if n > max => anyhow::bail!(
            "--threads {n}: at most {max} on this machine ({MAX_THREADS_PER_CORE} per core, {cores} cores)"
        ),
        n => Ok(n),
    }
}

/// Builds the rayon pool for `--threads` (0 = one per core).
pub fn thread_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    let threads = threads_arg(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} threads: {e}"))
}

pub use signals::{EXIT_INTERRUPTED, interrupt_flag};

/// What [`run_parallel`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Items answered or reported as failed (all of them unless stopped).
    pub done: usize,
    /// Of those, the items that failed: no answer (an unreadable line, say).
    pub failed: usize,
    /// Of those, the items answered whose record the work found a claim of wrong
    /// ([`Answer::error`]).
    pub contradicted: usize,
    /// The run was stopped (Ctrl-C, SIGTERM): the searches under way then were cut short, and the
    /// items not yet taken left.
    pub interrupted: bool,
    /// Of a stopped run, the first item the stop may have cut short or left (its result came
    /// once the stop was asked for, or it was not reported): where to take the run up.
    pub resume_at: Option<usize>,
}

/// What the work on one item of [`run_parallel`] gives: its report, and beside it, when
/// the work found a claim of the item's record wrong (a length, a status, a line the search
/// contradicts), that error, reported as an unreadable item's is and counted as failed.
pub struct Answer {
    /// The report, printed on standard output.
    pub text: String,
    /// What the search found wrong with the record, if anything.
    pub error: Option<String>,
}

impl From<String> for Answer {
    fn from(text: String) -> Answer {
        Answer { text, error: None }
    }
}

/// Stack size of worker threads: the searches recurse one frame a ply.
const WORKER_STACK: usize = 64 << 20;

/// Runs `work` over `items` on one rayon thread per element of `states` (each worker owns
/// one: a solver and its table, made before any work so that a failure to allocate is
/// reported before anything is printed), and prints each result on stdout in input order as soon
/// as it and all before it are done. An item that fails (`Err`), or whose report comes with
/// an error ([`Answer::error`]), is reported on stderr with its origin (after its report). `bar` (see [`ticker::file_bar`]) counts the items answered, and is erased at
/// the end. Once `stop` is raised no item is started (those under way end as their searches
/// see the flag, and are reported).
pub fn run_parallel<S, W>(
    items: &[input::Item],
    states: Vec<S>,
    bar: Option<indicatif::ProgressBar>,
    stop: Option<&std::sync::atomic::AtomicBool>,
    work: W,
) -> anyhow::Result<Outcome>
where
    S: Send,
    W: Fn(&mut S, &input::Item) -> Result<Answer, String> + Sync,
{
    let workers = states.len();
    use std::collections::BTreeMap;
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .stack_size(WORKER_STACK)
        .build()?;
    let next = AtomicUsize::new(0);
    // Each result says whether the stop was already asked for when it came (then the
    // search may have been cut short).
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Answer, String>, bool)>();
    let mut resume_at = None;
    let (mut failed, mut contradicted) = (0, 0);
    // The next item to print: all before it are printed or reported.
    let mut want = 0;
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (next, work) = (&next, &work);
        scope.spawn(move || {
            pool.scope(|s| {
                for mut state in states {
                    let tx = tx.clone();
                    s.spawn(move |_| {
                        loop {
                            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                                break;
                            }
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= items.len() {
                                break;
                            }
                            let r = work(&mut state, &items[i]);
                            let late = stop.is_some_and(|s| s.load(Ordering::Relaxed));
                            if tx.send((i, r, late)).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(tx);
        });
        let mut pending = BTreeMap::new();
        let stdout = std::io::stdout();
        'results: for (i, r, late) in rx {
            pending.insert(i, (r, late));
            while let Some((r, late)) = pending.remove(&want) {
                if late && r.is_ok() && resume_at.is_none() {
                    resume_at = Some(want);
                }
                let error = match r {
                    Ok(answer) => {
                        let mut out = stdout.lock();
                        let written = writeln!(out, "{}", answer.text.trim_end_matches('\n'))
                            .and_then(|()| out.flush());
                        if let Err(e) = written {
                            // Nothing more can be delivered: stop handing out work (the
                            // receiver goes, so the workers' next send fails and they end).
                            write_error = Some(output::StdoutError(e));
                            next.store(items.len(), Ordering::Relaxed);
                            break 'results;
                        }
                        contradicted += usize::from(answer.error.is_some());
                        answer.error
                    }
                    Err(e) => {
                        failed += 1;
                        Some(e)
                    }
                };
                if let Some(e) = error {
                    let origin = &items[want].origin;
                    match &bar {
                        Some(b) => b.suspend(|| say_err!("error: {origin}: {e}")),
                        None => say_err!("error: {origin}: {e}"),
                    }
                }
                want += 1;
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let interrupted = stop.is_some_and(|s| s.load(Ordering::Relaxed));
    Ok(Outcome {
        done: want,
        failed,
        contradicted,
        interrupted,
        // Cut short where a result came late, else where the results stop.
        resume_at: interrupted
            .then(|| resume_at.or((want < items.len()).then_some(want)))
            .flatten(),
    })
}
