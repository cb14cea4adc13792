//! What a person looks at: text diagrams ([`text`]), SVG boards ([`svg`]), the HTML puzzle
//! book of a problem set ([`book`]), its training page ([`train`]) and the position editor
//! ([`editor`]). Rendering only writes; reading positions and moves is
//! [`crate::notation`]'s.

pub mod book;
pub mod editor;
pub mod pieces;
pub mod svg;
pub mod text;
pub mod train;

use crate::problem::Problem;
use crate::solver::{Solver, SolverConfig};
use rayon::prelude::*;

/// `value` as JSON to put inside a `<script>` element of a page: every `<`, `>` and `&` (which
/// can stand only inside strings) written `\u003c`, `\u003e`, `\u0026`, so that no text a
/// record carries (`</script>`, `<!--`) can end the element or change how it is read; the
/// line and paragraph separators written out too, as old script parsers want.
pub fn inline_json(value: &serde_json::Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// `f` of each problem (its 0-based index, the problem, and a solver made with `config`),
/// the problems shared out among `threads`, the results in the problems' order. `f` clears
/// the table it needs cleared, so that what it finds does not depend on which thread took
/// which problem. The caller makes sure first that a table of `config.hash_mb` can be had
/// (a [`Solver::new`] with `config`): the workers' tables are taken as given.
pub(crate) fn per_problem<T: Send>(
    problems: &[Problem],
    config: &SolverConfig,
    threads: usize,
    f: impl Fn(&mut Solver, usize, &Problem) -> T + Sync,
) -> Vec<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        // The search recurses along the checking line: as deep a stack as the solver's
        // other workers have.
        .stack_size(64 << 20)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        problems
            .par_iter()
            .enumerate()
            .map_init(
                || Solver::new(config.clone()).expect("a table of a size the caller made"),
                |solver, (i, p)| f(solver, i, p),
            )
            .collect()
    })
}
