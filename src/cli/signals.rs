//! Ctrl-C and SIGTERM: one request to stop, however many copies of it arrive together.
//!
//! A run that is asked to stop ends its searches, saves what it has (the reports of the
//! searches it stopped, a generation's checkpoint) and exits with [`EXIT_INTERRUPTED`].
//! Schedulers rarely send one signal: `timeout` signals the child and then its process
//! group, and a batch job's script may pass a SIGTERM on while the scheduler signals the
//! whole group. So every SIGINT or SIGTERM within [`SIGNAL_WINDOW`] of the first is the same
//! request; only one that comes later (a person pressing Ctrl-C again because the clean stop
//! takes too long) ends the program at once. SIGHUP is left alone (`nohup` ignores it).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Once, OnceLock};
use std::time::{Duration, Instant};

/// Exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report
/// Ctrl-C).
pub const EXIT_INTERRUPTED: i32 = 130;

/// How long after the first signal further ones are taken as copies of it.
pub const SIGNAL_WINDOW: Duration = Duration::from_secs(1);

/// The process's one stop request: the flag, when the first signal came, and the instant
/// times are counted from.
struct Request {
    flag: Arc<AtomicBool>,
    /// Nanoseconds from `base` to the first signal, plus one; 0 before any.
    first: AtomicU64,
    base: Instant,
}

static REQUEST: OnceLock<Request> = OnceLock::new();

/// What the handler does with one signal: the first raises the flag and notes the time,
/// copies within the window do nothing more, a later one ends the program. Only atomics and
/// the monotonic clock (`clock_gettime`, safe in a signal handler) are touched.
fn on_signal(r: &Request) {
    let now = r.base.elapsed().as_nanos() as u64 + 1;
    match r
        .first
        .compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst)
    {
        Ok(_) => r.flag.store(true, Ordering::SeqCst),
        Err(first) if now.saturating_sub(first) > SIGNAL_WINDOW.as_nanos() as u64 => {
            signal_hook::low_level::exit(EXIT_INTERRUPTED)
        }
        Err(_) => {}
    }
}

/// The flag a stop request raises (see the module's doc), its handlers installed on the
/// first call; every call returns the same flag. Should a handler not install, the signal
/// ends the program as it would anyway.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static INSTALLED: Once = Once::new();
    let r = REQUEST.get_or_init(|| Request {
        flag: Arc::new(AtomicBool::new(false)),
        first: AtomicU64::new(0),
        base: Instant::now(),
    });
    INSTALLED.call_once(|| {
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // SAFETY: the action touches only atomics and the monotonic clock, and ends
            // the process with `_exit`: all safe in a signal handler. The request it reads
            // is set before the handler is installed.
            let _ = unsafe {
                signal_hook::low_level::register(signal, || {
                    if let Some(r) = REQUEST.get() {
                        on_signal(r)
                    }
                })
            };
        }
    });
    Arc::clone(&r.flag)
}
