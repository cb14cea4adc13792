//! What `solve` and `verify` show on a terminal's standard error while they work, erased
//! before the answers and never on standard output, left out with `--quiet`:
//! - for a single position, the live status line of its solve or verification
//!   ([`Ticker`]): time, nodes and their rate, and what it knows or does so far (no mate
//!   yet, a mate being shortened, the main line being read; then the search for cooks, for
//!   redundant pieces, the check of the intended solution), appearing after [`DELAY`] so
//!   that quick runs print nothing;
//! - for a file of positions whose reports go to a file or a pipe, a bar of the positions
//!   answered ([`file_bar`]), as download tools show their meter only when their output is
//!   not the terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use toritsume::solver::{KnownMate, Progress, Solver, Stage};

/// What `solve` and `verify` watch while they run: a single position's progress, for its
/// status line at a terminal, and Ctrl-C.
pub struct Watch {
    /// Where the single position's search publishes its progress (at a terminal only).
    progress: Option<Arc<Progress>>,
    /// Raised by Ctrl-C: the searches under way stop and report, no new one starts.
    pub stop: Arc<AtomicBool>,
}

impl Watch {
    /// Sets `solvers` up for a run over `positions` positions: each stops at Ctrl-C, and a
    /// single position at a terminal (unless `quiet`) publishes its progress for the
    /// status line.
    pub fn new(solvers: &mut [Solver], positions: usize, quiet: bool) -> Watch {
        let progress = (positions == 1 && !quiet && std::io::stderr().is_terminal())
            .then(|| Arc::new(Progress::default()));
        let stop = super::interrupt_flag();
        for solver in solvers.iter_mut() {
            solver.set_stop(Some(Arc::clone(&stop)));
            if let Some(p) = &progress {
                solver.set_progress(Some(Arc::clone(p)));
            }
        }
        Watch { progress, stop }
    }

    /// Starts the status line of the single position, if it has one (stop it before the
    /// answer is printed).
    pub fn ticker(&self) -> Option<Ticker> {
        self.progress.clone().map(Ticker::start)
    }
}

/// How long a solve runs before its status line appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(200);

/// A status line being drawn by a thread of its own; dropping it (or [`Ticker::stop`])
/// erases the line and ends the thread.
pub struct Ticker {
    done: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts drawing the status of the solve or verification that publishes into
    /// `progress`.
    pub fn start(progress: Arc<Progress>) -> Ticker {
        let (done, wake) = channel::<()>();
        let start = Instant::now();
        let thread = std::thread::Builder::new()
            .name("toritsume-ticker".into())
            .spawn(move || {
                let mut bar: Option<ProgressBar> = None;
                while let Err(RecvTimeoutError::Timeout) = wake.recv_timeout(EVERY) {
                    let elapsed = start.elapsed();
                    if elapsed < DELAY {
                        continue;
                    }
                    let b = bar.get_or_insert_with(|| {
                        let b = ProgressBar::new_spinner();
                        b.set_style(
                            ProgressStyle::with_template("{spinner} {wide_msg}")
                                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                        );
                        b
                    });
                    let nodes = progress.earlier.load(Ordering::Relaxed)
                        + progress.nodes.load(Ordering::Relaxed);
                    let mate = progress.mate();
                    b.set_message(status_line(nodes, elapsed, mate.as_ref(), progress.stage()));
                    b.tick();
                }
                if let Some(b) = bar {
                    b.finish_and_clear();
                }
            })
            .ok();
        Ticker {
            done: Some(done),
            thread,
        }
    }

    /// Erases the line (if it was drawn) and waits for its thread to end.
    pub fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        drop(self.done.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.end();
    }
}

/// The bar of a file's `positions` (called `noun`, plural): `Some` when there is more than
/// one, standard error is a terminal, standard output is not, and `quiet` is not set.
pub fn file_bar(positions: usize, quiet: bool, noun: &str) -> Option<ProgressBar> {
    if positions < 2 || quiet || !std::io::stderr().is_terminal() || std::io::stdout().is_terminal()
    {
        return None;
    }
    let b = ProgressBar::new(positions as u64);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {noun}  {{elapsed}} (eta {{eta}})");
    b.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(b)
}

/// The status line's text, short enough for an 80-column terminal (a narrower one cuts it):
/// `12.3 s, 41.8 M nodes (3.4 M/s): mate in 27, looking for a shorter one`.
pub fn status_line(
    nodes: u64,
    elapsed: Duration,
    mate: Option<&KnownMate>,
    stage: Stage,
) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let stage = match (stage, mate) {
        (Stage::Cooks, _) => "searching for cooks".to_string(),
        (Stage::Redundancy, _) => "looking for redundant pieces".to_string(),
        (Stage::Intended, _) => "checking the intended solution".to_string(),
        (Stage::Solving, None) => "no mate found yet".to_string(),
        (Stage::Solving, Some(m)) if !m.minimal => {
            format!("mate in {}, looking for a shorter one", m.plies)
        }
        (Stage::Solving, Some(m)) => format!("mate in {} is shortest; reading the line", m.plies),
    };
    format!(
        "{secs:.1} s, {} nodes ({}/s): {stage}",
        count(nodes),
        count(rate)
    )
}

/// A count in short form: `950`, `12.3 K`, `41.8 M`, `1.20 G`.
fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} K", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", n as f64 / 1e6),
        _ => format!("{:.2} G", n as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(plies: u16, minimal: bool) -> KnownMate {
        KnownMate {
            plies,
            minimal,
            line: Vec::new(),
        }
    }

    #[test]
    fn the_line_says_what_the_solve_knows() {
        let s = Duration::from_millis(2500);
        assert_eq!(
            status_line(7_500_000, s, None, Stage::Solving),
            "2.5 s, 7.5 M nodes (3.0 M/s): no mate found yet"
        );
        assert_eq!(
            status_line(
                41_800_000,
                Duration::from_secs(10),
                Some(&mate(27, false)),
                Stage::Solving
            ),
            "10.0 s, 41.8 M nodes (4.2 M/s): mate in 27, looking for a shorter one"
        );
        assert_eq!(
            status_line(
                1_200_000_000,
                Duration::from_secs(400),
                Some(&mate(25, true)),
                Stage::Solving
            ),
            "400.0 s, 1.20 G nodes (3.0 M/s): mate in 25 is shortest; reading the line"
        );
        assert_eq!(
            status_line(950, Duration::ZERO, None, Stage::Solving),
            "0.0 s, 950 nodes (0/s): no mate found yet"
        );
        assert_eq!(count(12_345), "12.3 K");
        // The longest it gets still fits an 80-column terminal beside its spinner.
        let longest = status_line(
            999_000_000,
            Duration::from_secs(9999),
            Some(&mate(999, true)),
            Stage::Solving,
        );
        assert!(longest.chars().count() <= 78, "{longest}");
        // A verification's later stages say what it does, whatever the mate.
        let m = Some(mate(99, true));
        assert_eq!(
            status_line(3_000_000, Duration::from_secs(2), m.as_ref(), Stage::Cooks),
            "2.0 s, 3.0 M nodes (1.5 M/s): searching for cooks"
        );
        assert_eq!(
            status_line(3_000_000, Duration::from_secs(2), None, Stage::Redundancy),
            "2.0 s, 3.0 M nodes (1.5 M/s): looking for redundant pieces"
        );
        assert_eq!(
            status_line(
                3_000_000,
                Duration::from_secs(2),
                m.as_ref(),
                Stage::Intended
            ),
            "2.0 s, 3.0 M nodes (1.5 M/s): checking the intended solution"
        );
    }
}
