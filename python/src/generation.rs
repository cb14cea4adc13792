//! `generate`: a generation run on a thread of its own, its records handed to Python one
//! by one as the program writes them, in the same order.

use crate::{POLL, STACK, lock, panic_text, value_error};
use pyo3::exceptions::{PyRuntimeError, PyUserWarning};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use toritsume::generator::{FinalDuals, GenerateOptions, Generator, Step};

/// A generation run under way: its records, in order, as JSON text.
#[pyclass(module = "toritsume")]
pub struct Generation {
    records: Option<Mutex<Receiver<String>>>,
    stop: Arc<AtomicBool>,
    worker: Option<std::thread::JoinHandle<Result<Option<String>, String>>>,
}

impl Drop for Generation {
    fn drop(&mut self) {
        // A run left unfinished stops within moments (its searches see the flag) and ends
        // on its own thread: Python does not wait for it.
        self.stop.store(true, Ordering::Relaxed);
        self.records = None;
        self.worker = None;
    }
}

/// The run of `config` on a thread of its own, handing each record kept to `tx`; at its end,
/// a note when it stopped at the candidate limit with fewer records than asked for.
fn generation(
    config: toritsume::generator::GenConfig,
    stop: Arc<AtomicBool>,
    tx: SyncSender<String>,
) -> Result<Option<String>, String> {
    let mut generator = Generator::new(&config).map_err(|e| e.to_string())?;
    generator.set_stop(Arc::clone(&stop));
    loop {
        let step = generator
            .step(&stop, |g| {
                tx.send(g.record.to_json())
                    .map_err(|_| std::io::Error::other("the iterator was dropped"))
            })
            .map_err(|e| e.to_string());
        match step {
            Ok(Step::Batch) => {}
            Ok(Step::Done) => break,
            Ok(Step::Stopped) => return Ok(None),
            Err(e) => {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                return Err(e);
            }
        }
    }
    let stats = generator.stats();
    if stats.gave_up {
        return Err(format!(
            "no mate found in the first {} candidates within the node budget: give a larger \
             nodes",
            stats.tried
        ));
    }
    if stats.candidate_limit {
        return Ok(Some(format!(
            "stopped at the candidate limit (max_candidates {}): {} of {} kept",
            config.max_candidates.unwrap_or(0),
            stats.kept_total(),
            config.count
        )));
    }
    Ok(None)
}

#[pymethods]
impl Generation {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        let Some(rx) = &self.records else {
            return Ok(None);
        };
        loop {
            match py.detach(|| lock(rx).recv_timeout(POLL)) {
                Ok(record) => return Ok(Some(record)),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop.store(true, Ordering::Relaxed);
                        self.records = None;
                        if let Some(w) = self.worker.take() {
                            let _ = py.detach(|| w.join());
                        }
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.records = None;
                    let end = match self.worker.take() {
                        Some(w) => py.detach(|| w.join()),
                        None => Ok(Ok(None)),
                    };
                    return match end {
                        Ok(Ok(None)) => Ok(None),
                        Ok(Ok(Some(note))) => {
                            let warning = py.get_type::<PyUserWarning>();
                            PyErr::warn(
                                py,
                                &warning,
                                &std::ffi::CString::new(note).unwrap_or_default(),
                                1,
                            )?;
                            Ok(None)
                        }
                        Ok(Err(e)) => Err(PyRuntimeError::new_err(e)),
                        Err(p) => Err(PyRuntimeError::new_err(format!(
                            "internal error: {}",
                            panic_text(p)
                        ))),
                    };
                }
            }
        }
    }
}

/// Starts a generation run, as `toritsume generate` with the same options.
#[pyfunction]
#[pyo3(signature = (*, plies, count, seed, threads, shard, min_score, rating, themes, exclude_themes, nodes, hash_mb, max_candidates, final_duals, family_limit, shape_limit, from_files))]
#[allow(clippy::too_many_arguments)]
pub fn start_generation(
    plies: (u16, u16),
    count: usize,
    seed: u64,
    threads: usize,
    shard: (u64, u64),
    min_score: Option<f64>,
    rating: Option<String>,
    themes: Option<String>,
    exclude_themes: Option<String>,
    nodes: Option<u64>,
    hash_mb: usize,
    max_candidates: Option<u64>,
    final_duals: &str,
    family_limit: usize,
    shape_limit: usize,
    from_files: Vec<std::path::PathBuf>,
) -> PyResult<Generation> {
    let final_duals: FinalDuals = final_duals.parse().map_err(|_| {
        value_error(format!(
            "final_duals: `{final_duals}` is neither `allow` nor `forbid`"
        ))
    })?;
    if nodes == Some(0) {
        return Err(value_error("nodes: a node budget is at least 1 node"));
    }
    if hash_mb == 0 {
        return Err(value_error("hash_mb: the table needs at least 1 MB"));
    }
    let options = GenerateOptions {
        plies,
        count,
        seed,
        threads,
        shard,
        min_score,
        rating,
        themes,
        exclude_themes,
        nodes,
        hash_mb,
        max_candidates,
        final_duals,
        family_limit,
        shape_limit,
        from: from_files,
    };
    let config = options.config().map_err(value_error)?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = sync_channel(256);
    let run_stop = Arc::clone(&stop);
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || generation(config, run_stop, tx))
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the run: {e}")))?;
    Ok(Generation {
        records: Some(Mutex::new(rx)),
        stop,
        worker: Some(worker),
    })
}
