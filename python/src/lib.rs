//! `toritsume._native`: the library as a Python extension module. Positions as a class;
//! solve, verify, generate, read and export as functions that take and give JSON text,
//! which `toritsume/__init__.py` turns into reports and dicts. Every search runs on a thread
//! of its own with the GIL released, while the calling thread looks for Ctrl-C every 50 ms
//! and stops the search when one comes; a panic in a search becomes a `RuntimeError`.

mod generation;
mod position;
mod search;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The stack of a search thread, as the program's workers have.
pub(crate) const STACK: usize = 64 << 20;

/// How often a waiting call looks for Ctrl-C.
pub(crate) const POLL: Duration = Duration::from_millis(50);

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The value behind `m`, even when a thread panicked holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a panic said.
pub(crate) fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// Runs `work` on a thread of its own with the GIL released. The calling thread looks for
/// signals meanwhile: on Ctrl-C it raises `stop`, waits for the work to end (a search
/// stops within a few milliseconds of it) and returns the `KeyboardInterrupt`. A panic in
/// the work is a `RuntimeError`.
pub(crate) fn run_released<T: Send + 'static>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = sync_channel(1);
    let handle = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(out);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
    let rx = Mutex::new(rx);
    let mut interrupted = None;
    loop {
        match py.detach(|| lock(&rx).recv_timeout(POLL)) {
            Ok(out) => {
                let _ = handle.join();
                if let Some(e) = interrupted {
                    return Err(e);
                }
                return out.map_err(|p| {
                    PyRuntimeError::new_err(format!("internal error: {}", panic_text(p)))
                });
            }
            Err(RecvTimeoutError::Timeout) => {
                if interrupted.is_none()
                    && let Err(e) = py.check_signals()
                {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = handle.join();
                return Err(PyRuntimeError::new_err(
                    "internal error: a search thread ended",
                ));
            }
        }
    }
}

/// The library's version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<generation::Generation>()?;
    m.add_function(wrap_pyfunction!(search::solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(search::solve_many_json, m)?)?;
    m.add_function(wrap_pyfunction!(search::verify_json, m)?)?;
    m.add_function(wrap_pyfunction!(search::read_problems_json, m)?)?;
    m.add_function(wrap_pyfunction!(search::read_positions, m)?)?;
    m.add_function(wrap_pyfunction!(search::export_text, m)?)?;
    m.add_function(wrap_pyfunction!(generation::start_generation, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
