//! Solving, verifying, reading and exporting from Python: each takes and gives JSON text,
//! and runs on a thread of its own with the GIL released ([`crate::run_released`]).

use crate::{STACK, lock, run_released, value_error};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use toritsume::export::formats::Format;
use toritsume::export::set::{format_text, make_puzzles};
use toritsume::export::{PhoenixPlacement, Skip};
use toritsume::input::{Item, read_file, read_one, read_text, records, source_name};
use toritsume::notation::sfen::write_sfen;
use toritsume::report::{Extras, VerifyOptions, solve_item, to_json_line, verify_item};
use toritsume::rules::Square;
use toritsume::solver::{DefenderHand, Solver, SolverConfig};

/// The longest time limit, in seconds.
const MAX_TIME_SECONDS: f64 = 1e9;

/// The solver settings of the keyword arguments, checked as the program checks its options.
#[allow(clippy::too_many_arguments)]
fn solver_config(
    max_plies: Option<u16>,
    nodes: Option<u64>,
    time: Option<f64>,
    hash_mb: usize,
    threads: usize,
    defender_hand: &str,
    stop: &Arc<AtomicBool>,
) -> PyResult<SolverConfig> {
    if max_plies == Some(0) {
        return Err(value_error("max_plies: a mate takes at least 1 ply"));
    }
    if nodes == Some(0) {
        return Err(value_error("nodes: a node budget is at least 1 node"));
    }
    if hash_mb == 0 {
        return Err(value_error("hash_mb: the table needs at least 1 MB"));
    }
    if threads == 0 {
        return Err(value_error("threads: at least 1"));
    }
    if let Some(t) = time
        && !(t.is_finite() && t > 0.0 && t <= MAX_TIME_SECONDS)
    {
        return Err(value_error(format!(
            "time must be a positive number of seconds, at most {MAX_TIME_SECONDS:e}, got {t}"
        )));
    }
    let defender_hand: DefenderHand = defender_hand.parse().map_err(|_| {
        value_error(format!(
            "defender_hand: `{defender_hand}` is neither `rest` nor `given`"
        ))
    })?;
    Ok(SolverConfig {
        max_plies,
        nodes,
        time: time.map(Duration::from_secs_f64),
        hash_mb,
        defender_hand,
        threads,
        stop: Some(Arc::clone(stop)),
        ..SolverConfig::default()
    })
}

/// The input item of a position or record given as text (`argument`, as the program names
/// a position given on its command line); an input that holds none is a `ValueError`.
fn item_of(text: &str) -> PyResult<Item> {
    let item = read_one(text.trim(), "argument".to_string());
    if let Err(e) = &item.position {
        return Err(value_error(e));
    }
    Ok(item)
}

/// Why a search gave no report: no memory for its table, or input it cannot take.
enum Failure {
    Memory(String),
    Input(String),
}

impl Failure {
    fn into_py(self) -> PyErr {
        match self {
            Failure::Memory(e) => PyMemoryError::new_err(e),
            Failure::Input(e) => value_error(e),
        }
    }
}

/// Runs `work` on the item of `text` with a fresh solver of `config` (and the defender's
/// hand it sets) on a search thread, the GIL released ([`run_released`]). A solver the
/// machine cannot give is a `MemoryError`, an error of `work` a `ValueError`.
fn with_solver(
    py: Python<'_>,
    text: &str,
    config: SolverConfig,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce(&mut Solver, &Item, DefenderHand) -> Result<Answer, String> + Send + 'static,
) -> PyResult<Answer> {
    let item = item_of(text)?;
    let out = run_released(py, stop, move || -> Result<Answer, Failure> {
        let hand = config.defender_hand;
        let mut solver = Solver::new(config).map_err(|e| Failure::Memory(e.to_string()))?;
        work(&mut solver, &item, hand).map_err(Failure::Input)
    })?;
    out.map_err(Failure::into_py)
}

/// What a solve or verification gives Python: the report as JSON, and what the record
/// claims that the search contradicts.
type Answer = (String, Option<String>);

/// Solves a position or record (text), as `toritsume solve --json` does.
#[pyfunction]
#[pyo3(signature = (text, *, max_plies, nodes, time, hash_mb, threads, defender_hand, variations, tries))]
#[allow(clippy::too_many_arguments)]
pub fn solve_json(
    py: Python<'_>,
    text: &str,
    max_plies: Option<u16>,
    nodes: Option<u64>,
    time: Option<f64>,
    hash_mb: usize,
    threads: usize,
    defender_hand: &str,
    variations: bool,
    tries: bool,
) -> PyResult<Answer> {
    let stop = Arc::new(AtomicBool::new(false));
    let config = solver_config(
        max_plies,
        nodes,
        time,
        hash_mb,
        threads,
        defender_hand,
        &stop,
    )?;
    let extras = Extras { variations, tries };
    with_solver(py, text, config, &stop, move |solver, item, hand| {
        let solved = solve_item(solver, item, hand, extras)?;
        Ok((to_json_line(&solved.report), solved.contradiction))
    })
}

/// Solves many positions or records (text), `threads` at a time, each on one thread from
/// an empty table: the reports in input order, as `toritsume solve --json FILE` prints them.
/// Each is `(report, contradiction, error)`: the report as JSON and what the record claims
/// that the solve contradicts, or why the item holds no position.
#[pyfunction]
#[pyo3(signature = (texts, *, max_plies, nodes, time, hash_mb, threads, defender_hand, variations, tries))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many_json(
    py: Python<'_>,
    texts: Vec<String>,
    max_plies: Option<u16>,
    nodes: Option<u64>,
    time: Option<f64>,
    hash_mb: usize,
    threads: usize,
    defender_hand: &str,
    variations: bool,
    tries: bool,
) -> PyResult<Vec<Solved>> {
    let stop = Arc::new(AtomicBool::new(false));
    // The table shared out among the workers, as the program shares out --hash.
    let workers = threads.min(texts.len()).max(1).min(hash_mb.max(1));
    let mut config = solver_config(
        max_plies,
        nodes,
        time,
        (hash_mb / workers).max(1),
        1,
        defender_hand,
        &stop,
    )?;
    config.threads = (threads / workers).max(1);
    let extras = Extras { variations, tries };
    let items: Vec<Item> = texts
        .iter()
        .map(|t| read_one(t.trim(), "argument".to_string()))
        .collect();
    // Every problem read before any is solved.
    for (i, item) in items.iter().enumerate() {
        if let Err(e) = &item.position {
            return Err(value_error(format!("problem {i}: {e}")));
        }
    }
    let stopped = Arc::clone(&stop);
    let answers = run_released(py, &stop, move || {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let memory: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
        let results: Vec<std::sync::Mutex<Option<Result<Answer, String>>>> =
            items.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|s| {
            for _ in 0..workers {
                let (next, results, items, config) = (&next, &results, &items, &config);
                let memory = &memory;
                let stopped = &stopped;
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let mut solver = match Solver::new(config.clone()) {
                            Ok(s) => s,
                            Err(e) => {
                                stopped.store(true, Ordering::Relaxed);
                                *lock(memory) = Some(e.to_string());
                                return;
                            }
                        };
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= items.len() || stopped.load(Ordering::Relaxed) {
                                break;
                            }
                            let out =
                                solve_item(&mut solver, &items[i], config.defender_hand, extras)
                                    .map(|s| (to_json_line(&s.report), s.contradiction));
                            *lock(&results[i]) = Some(out);
                        }
                    })
                    .expect("a worker thread");
            }
        });
        if let Some(e) = memory.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        Ok(results
            .into_iter()
            .map(|r| {
                r.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| Err("not solved: the run was stopped".to_string()))
            })
            .map(|r| match r {
                Ok((json, contradiction)) => (Some(json), contradiction, None),
                Err(e) => (None, None, Some(e)),
            })
            .collect())
    })?;
    answers.map_err(PyMemoryError::new_err)
}

/// A report of `solve_many_json`: the report, the record's contradicted claim, or the
/// item's error.
type Solved = (Option<String>, Option<String>, Option<String>);

/// Verifies a problem (text), as `toritsume verify --json` does.
#[pyfunction]
#[pyo3(signature = (text, *, solution, max_plies, nodes, time, hash_mb, threads, defender_hand, variations, tries, repair))]
#[allow(clippy::too_many_arguments)]
pub fn verify_json(
    py: Python<'_>,
    text: &str,
    solution: Option<String>,
    max_plies: Option<u16>,
    nodes: Option<u64>,
    time: Option<f64>,
    hash_mb: usize,
    threads: usize,
    defender_hand: &str,
    variations: bool,
    tries: bool,
    repair: bool,
) -> PyResult<Answer> {
    let stop = Arc::new(AtomicBool::new(false));
    let config = solver_config(
        max_plies,
        nodes,
        time,
        hash_mb,
        threads,
        defender_hand,
        &stop,
    )?;
    let options = VerifyOptions {
        solution,
        variations,
        tries,
        repair,
        repair_threads: threads,
    };
    with_solver(py, text, config, &stop, move |solver, item, hand| {
        let v = verify_item(solver, item, hand, &options)?;
        Ok((to_json_line(&v.json), v.contradiction))
    })
}

/// The records of a problem file (JSON lines, pychess-variants, EPD or CSV), each as JSON;
/// a line that holds no record is a `ValueError` naming it.
#[pyfunction]
pub fn read_problems_json(path: std::path::PathBuf) -> PyResult<Vec<String>> {
    if path == std::path::Path::new("-") {
        return Err(value_error(
            "read_problems reads a file; `-` (standard input) is the command line's",
        ));
    }
    let bytes = read_file(&path).map_err(value_error)?;
    let name = source_name(&path);
    let mut out = Vec::new();
    for (n, record) in records(&bytes) {
        match record {
            Ok(r) => out.push(r.to_json()),
            Err(e) => return Err(value_error(format!("line {n} of {name}: {e}"))),
        }
    }
    Ok(out)
}

/// The positions of a file's text, each as SFEN, for `Position` lists; a line that holds no
/// position is a `ValueError` naming it.
#[pyfunction]
pub fn read_positions(text: &str, name: &str) -> PyResult<Vec<String>> {
    read_text(text.as_bytes(), name)
        .into_iter()
        .map(|item| {
            item.position
                .map(|p| write_sfen(&p))
                .map_err(|e| value_error(format!("{}: {e}", item.origin)))
        })
        .collect()
}

/// The text `toritsume export --format FORMAT` writes of the records (JSON), and the
/// reasons for those skipped with their counts.
#[pyfunction]
#[pyo3(signature = (records_json, format, *, by, attacker_phoenix, threads, nodes))]
pub fn export_text(
    py: Python<'_>,
    records_json: Vec<String>,
    format: &str,
    by: String,
    attacker_phoenix: &str,
    threads: usize,
    nodes: u64,
) -> PyResult<(String, Vec<(String, usize)>)> {
    let format: Format = format.parse().map_err(|_| {
        value_error(format!(
            "format: `{format}` is not one of pychess, csv, epd, sfen"
        ))
    })?;
    let placement = match attacker_phoenix {
        "auto" => PhoenixPlacement::Auto,
        s => PhoenixPlacement::On(Square::parse(s).ok_or_else(|| {
            value_error(format!(
                "attacker_phoenix: `{s}` is neither `auto` nor a square like 1g"
            ))
        })?),
    };
    if threads == 0 || nodes == 0 {
        return Err(value_error("threads and nodes: at least 1"));
    }
    let list: Vec<(usize, Result<toritsume::problem::Problem, Skip>)> = records_json
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let r = read_one(t, format!("record {}", i + 1));
            (
                i,
                r.record.ok_or_else(|| {
                    Skip::Unreadable(r.position.err().unwrap_or_else(|| "not a record".into()))
                }),
            )
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let raised = Some(Arc::clone(&stop));
    let made = run_released(py, &stop, move || {
        make_puzzles(
            list,
            format.needs_fairy(),
            placement,
            threads,
            nodes,
            raised,
        )
    })?
    .map_err(PyMemoryError::new_err)?;
    let (text, _, skipped) = format_text(&made, format, &by, |_| true);
    Ok((text, skipped.into_iter().collect()))
}
