//! `toritsume book`: an HTML puzzle book of a problem set, or (`--interactive`) a training
//! page on which the problems are played.

use super::generate::write_out;
use super::input::{read_file, records, source_name};
use super::say_err;
use clap::Args;
use std::path::PathBuf;
use toritsume::notation::counted;
use toritsume::render::svg::Labels;
use toritsume::solver::{Solver, SolverConfig};

/// Arguments of `book`.
#[derive(Args)]
pub struct BookArgs {
    /// The problems (JSON lines, as in problems/, or a pychess-variants, EPD or CSV file of
    /// puzzles), or `-` for standard input.
    problems: PathBuf,
    /// The HTML file to write (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Title of the page.
    #[arg(long, default_value = "Tori Shogi mate problems")]
    title: String,
    /// Label pieces with SFEN letters instead of kanji.
    #[arg(long)]
    letters: bool,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
    /// A training page instead: play the attacker's moves of each problem and be told
    /// whether they are right (a wrong check answered by a defence that refutes it, hints,
    /// the solution a move at a time, a problem list filtered by length, theme and rating,
    /// progress kept in the browser).
    #[arg(long)]
    interactive: bool,
    /// Under each solution, the close tries: the checks at the first move that a single
    /// defence refutes (`Fa*2c? Ph-1b!`), searched for each problem.
    #[arg(long)]
    tries: bool,
    /// Worker threads (0 = one per core): each problem is solved to check what its record
    /// claims before it is published, and with --interactive and --tries searched for the
    /// defences that refute wrong moves.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Node budget of the solve that checks each record (a problem that needs more is not
    /// published, and its line says so).
    #[arg(long, value_name = "N", default_value_t = CHECK_NODES, value_parser = super::node_budget_arg)]
    nodes: u64,
}

/// The node budget of the training page's searches and of --tries (the tries at one move).
const TRIES_NODES: u64 = 2_000_000;

/// The default node budget of the solve that checks each record: four times what the
/// longest shipped problem takes.
const CHECK_NODES: u64 = 20_000_000;

/// Runs `book`.
pub fn run(a: BookArgs) -> anyhow::Result<i32> {
    // Refused before any solving: the page would not be written over it anyway.
    if a.out.as_os_str() != "-" {
        super::generate::refuse_existing(&a.out, a.force)?;
    }
    let bytes = read_file(&a.problems)?;
    let mut problems = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    // Every problem that cannot be read or drawn, by its line, named in file order.
    let mut errors: Vec<(usize, String)> = Vec::new();
    for (n, record) in records(&bytes) {
        match record {
            Ok(p) => {
                problems.push(p);
                lines.push(n);
            }
            Err(e) => errors.push((n, e)),
        }
    }
    let labels = if a.letters {
        Labels::Letters
    } else {
        Labels::Kanji
    };
    let config = SolverConfig {
        hash_mb: 16,
        // Each search's budget: the tries at one move of a long problem that need more are
        // left out (the page then only says that a wrong move is wrong).
        nodes: Some(TRIES_NODES),
        ..SolverConfig::default()
    };
    let threads = super::threads_arg(a.threads)?;
    if a.tries && a.interactive {
        anyhow::bail!(
            "--tries is for the book; the training page answers every wrong check with its \
             refutation already"
        );
    }
    // Tables are made before any work, so that a size the machine cannot give is an error
    // before anything is written.
    Solver::new(config.clone())?;
    // Each record's claims checked by a solve, its length and line filled in from it when
    // it gives none: nothing is published that nobody checked.
    let check = SolverConfig {
        nodes: Some(a.nodes),
        ..config.clone()
    };
    let settled = toritsume::render::book::settle(&problems, &check, threads);
    let mut kept_lines = Vec::new();
    let mut kept = Vec::new();
    for (n, s) in lines.into_iter().zip(settled) {
        match s {
            Ok(settled) => {
                kept.push(settled);
                kept_lines.push(n);
            }
            Err(e) => errors.push((n, e)),
        }
    }
    let (mut problems, mut lines) = (kept, kept_lines);
    let mut tries = if a.tries {
        toritsume::render::book::close_tries(&problems, &config, threads)
    } else {
        Vec::new()
    };
    // A book with problems missing is not written.
    let (html, shown) = loop {
        let made = if a.interactive {
            toritsume::render::train::train_page(&problems, &a.title, labels, &config, threads)
        } else {
            toritsume::render::book::book_with_tries(&problems, &a.title, labels, &tries)
                .map(|html| (html, problems.len()))
        };
        match made {
            Ok(page) => break page,
            Err(e) => {
                errors.push((lines[e.index], e.reason));
                problems.remove(e.index);
                lines.remove(e.index);
                if e.index < tries.len() {
                    tries.remove(e.index);
                }
            }
        }
    };
    errors.sort_by_key(|(n, _)| *n);
    for (n, e) in &errors {
        say_err!("error: line {n} of {}: {e}", source_name(&a.problems));
    }
    if !errors.is_empty() {
        anyhow::bail!(
            "{} in {}; {} not written",
            counted(errors.len() as u64, "bad line", "bad lines"),
            source_name(&a.problems),
            a.out.display()
        );
    }
    write_out(&a.out, a.force, &html)?;
    let to = if a.out.as_os_str() == "-" {
        "standard output".to_string()
    } else {
        a.out.display().to_string()
    };
    say_err!(
        "{} written to {to}",
        counted(shown as u64, "problem", "problems"),
    );
    if shown < problems.len() {
        say_err!(
            "{} without a mate left out (nothing to play)",
            counted((problems.len() - shown) as u64, "record", "records")
        );
    }
    Ok(0)
}
