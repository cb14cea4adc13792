//! A whole set exported: every record made into a puzzle in parallel, in order
//! ([`make_puzzles`]), and one format's text of them ([`format_text`]), as `export` writes
//! it.

use super::formats::Format;
use super::{PhoenixPlacement, Puzzle, Skip, puzzle, solver_config};
use crate::problem::Problem;
use crate::solver::{Solver, SolverConfig};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Each record with where it was (any key, such as its file and line) and its puzzle, or
/// why it was skipped.
pub type Made<K> = Vec<(K, Result<Puzzle, Skip>)>;

/// Makes each record of `list` into a puzzle, on `threads` threads, in the order given:
/// verified with a node budget of `nodes` each, and in the Fairy-Stockfish form too when
/// `fairy`. Raising `stop` ends the work early (what is made then is not to be used). The
/// error is a table or threads the machine cannot give.
pub fn make_puzzles<K: Send>(
    list: Vec<(K, Result<Problem, Skip>)>,
    fairy: bool,
    placement: PhoenixPlacement,
    threads: usize,
    nodes: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Made<K>, String> {
    let config = |every| SolverConfig {
        stop: stop.clone(),
        ..solver_config(every, Some(nodes))
    };
    // Tables are made before any work, so that a size the machine cannot give is an error
    // before anything is written.
    Solver::new(config(false)).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(|| {
        list.into_par_iter()
            .map_init(
                || {
                    (
                        Solver::new(config(false)).expect("a table of the size just made"),
                        Solver::new(config(true)).expect("a table of the size just made"),
                    )
                },
                |(solver, fairy_solver), (at, r)| {
                    let made = r.and_then(|record| {
                        puzzle(&record, solver, fairy.then_some(fairy_solver), placement)
                    });
                    (at, made)
                },
            )
            .collect()
    }))
}

/// `format`'s text of `made` (its header, then a line a puzzle), of the puzzles `keep`
/// chooses, uploaded by `by`; with how many were written and the reasons for those
/// skipped, each with its count.
pub fn format_text<K>(
    made: &Made<K>,
    format: Format,
    by: &str,
    keep: impl Fn(&Puzzle) -> bool,
) -> (String, usize, BTreeMap<String, usize>) {
    let mut text = String::new();
    if let Some(h) = format.header() {
        text.push_str(h);
        text.push('\n');
    }
    let mut written = 0;
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for (_, m) in made {
        let line = match m {
            Ok(p) if !keep(p) => continue,
            Ok(p) => match &p.fairy {
                Ok(f) => format.line(p, Some(f), by).map_err(str::to_string),
                Err(e) if format.needs_fairy() => Err(e.summary()),
                Err(_) => format.line(p, None, by).map_err(str::to_string),
            },
            Err(e) => Err(e.summary()),
        };
        match line {
            Ok(l) => {
                text.push_str(&l);
                text.push('\n');
                written += 1;
            }
            Err(why) => *skipped.entry(why).or_default() += 1,
        }
    }
    (text, written, skipped)
}
