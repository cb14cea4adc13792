//! The command line: argument parsing (clap) and output formatting. The library does the
//! work; this module reads arguments, calls it and prints.

mod perft;
mod show;

use clap::{Parser, Subcommand};
use toritsume::notation::{ParseError, parse_position};
use toritsume::rules::Position;

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
    /// Count legal move paths to a depth (checks the move generator).
    Perft(perft::PerftArgs),
}

/// Runs the command line and returns the process exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Show(a) => show::run(a),
        Command::Perft(a) => perft::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            EXIT_USAGE
        }
    }
}

/// Joins the words of a POSITION argument and parses them.
pub fn position_arg(words: &[String]) -> Result<Position, ParseError> {
    parse_position(&words.join(" "))
}

/// Builds the rayon pool for `--threads` (0 = one per core).
pub fn thread_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}
