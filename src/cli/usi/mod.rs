//! `toritsume usi`: a tsume engine speaking USI on standard input and output, for shogi GUIs.
//!
//! Commands: `usi`, `isready`, `setoption name USI_Hash|Hash|Threads value N`, `usinewgame`,
//! `position sfen ...|startpos [moves ...]`, `go mate <ms>|infinite` (answered
//! `checkmate ...` with a whole mating line, `nomate` or `timeout`), a plain
//! `go [infinite|movetime MS|byoyomi MS ...]` (a mate search answered
//! `bestmove <first move>`, or `bestmove resign` without one), `go perft N` (each root move's
//! count, then `Nodes searched: N`, as UCI engines answer it; counted on its own thread,
//! as a search is, and stopped by `stop` or `quit`), `stop`, `quit` (and
//! `gameover`, `ponderhit`, ignored). The search runs on its own thread, so `stop` and
//! `quit` are answered at once, and a `go` sent meanwhile waits for its answer, the commands
//! after it waiting their turn (the end of input lets every search still to come answer
//! under its own limit); while it runs, an `info` line with `nodes`, `nps`,
//! `hashfull` and `time` is printed every second, with `score mate N pv ...` once a mate is
//! known (and a last one with the main line before the answer); a proven no-mate is
//! announced with `info string no mate: proven`. Hands are taken as given in the position.
//! Anything malformed is answered with an `info string` saying why, never a crash. A
//! rejected `position` leaves no position: a `go` then answers `info string no position ...`
//! and `checkmate nomate` rather than search an earlier one.

mod parse;
mod session;

pub use parse::MAX_PERFT_DEPTH;
pub use session::run;

use super::output::StdoutError;
use parse::{Command, Refusal};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use toritsume::notation::quoted;
use toritsume::rules::Position;
use toritsume::solver::{
    DefenderHand, Progress, Solution, Solver, SolverConfig, Status, TableError,
};

/// Writes whole lines to standard output from any thread, keeping the first failure (the
/// command loop then ends: an engine whose answers cannot be delivered stops).
#[derive(Clone)]
struct Out(Arc<Mutex<Option<std::io::Error>>>);

impl Out {
    fn say(&self, line: &str) {
        let mut failed = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if failed.is_some() {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            *failed = Some(e);
        }
    }

    /// The first failed write, taken.
    fn failure(&self) -> Option<std::io::Error> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

struct Search {
    stop: Arc<AtomicBool>,
    /// Set once the answer is out: the thread is only returning then.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

struct Engine {
    out: Out,
    hash_mb: usize,
    threads: usize,
    /// The position to search; none after a rejected `position` command.
    position: Option<Position>,
    /// The solver (its table kept between searches); taken by a running search.
    solver: Arc<Mutex<Option<Solver>>>,
    search: Option<Search>,
}

const DEFAULT_HASH_MB: usize = 256;

const MAX_HASH_MB: usize = 65536;

impl Engine {
    /// An engine with the default options, set to the start position, no table yet.
    fn new() -> Engine {
        Engine {
            out: Out(Arc::new(Mutex::new(None))),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            position: Some(Position::startpos()),
            solver: Arc::new(Mutex::new(None)),
            search: None,
        }
    }

    /// An `info string` line: what it quotes of a command (anything a GUI or a script sent)
    /// written out where a terminal would act on it, and on one line.
    fn info(&self, text: &str) {
        self.out.say(&format!(
            "info string {}",
            toritsume::notation::printable(text)
        ));
    }

    fn config(&self) -> SolverConfig {
        SolverConfig {
            hash_mb: self.hash_mb,
            defender_hand: DefenderHand::Given,
            threads: self.threads,
            ..SolverConfig::default()
        }
    }

    /// Makes sure a solver with the current table size exists (not while searching). When
    /// the size asked for cannot be allocated, says so and keeps (or falls back to) a size
    /// that can: the previous table's, else the largest power of two that can be had.
    fn ensure_solver(&mut self) {
        let mut slot = self.solver.lock().unwrap_or_else(|e| e.into_inner());
        let previous = slot
            .as_ref()
            .map(|s| (s.config().hash_mb, s.config().threads));
        if previous == Some((self.hash_mb, self.threads)) {
            return;
        }
        let old = slot.take(); // free the old table before allocating the new one
        match Solver::new(self.config()) {
            Ok(s) => *slot = Some(s),
            Err(e @ TableError::Threads { .. }) => {
                // The machine would not start the helpers: search on one thread.
                self.threads = 1;
                let one = Solver::new(self.config());
                drop(slot);
                self.info(&format!("Threads: {e}; using 1"));
                *self.solver.lock().unwrap_or_else(|e| e.into_inner()) = one.ok().or(old);
            }
            Err(e) => {
                let asked = self.hash_mb;
                let mut fallback = old;
                let mut mb = asked;
                while fallback.is_none() && mb > 1 {
                    mb /= 2;
                    self.hash_mb = mb;
                    fallback = Solver::new(self.config()).ok();
                }
                if let Some(s) = &fallback {
                    self.hash_mb = s.config().hash_mb;
                }
                drop(slot);
                self.info(&format!("USI_Hash {asked}: {e}; using {} MB", self.hash_mb));
                *self.solver.lock().unwrap_or_else(|e| e.into_inner()) = fallback;
            }
        }
    }

    fn finish_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::SeqCst);
            let _ = s.handle.join();
        }
    }

    fn searching(&mut self) -> bool {
        match &self.search {
            // A GUI may send the next `go` the moment it reads `checkmate`: the search is
            // over then, even if its thread has not quite returned (it is joined below).
            Some(s) if !s.handle.is_finished() && !s.answered.load(Ordering::SeqCst) => true,
            Some(_) => {
                if let Some(s) = self.search.take() {
                    let _ = s.handle.join();
                }
                false
            }
            None => false,
        }
    }

    fn setoption(&mut self, name: &str, value: &str) {
        let number = value.parse::<usize>();
        match (name, number) {
            // `Hash`, the name chess engines and some shogi GUIs use, is taken as `USI_Hash`.
            ("USI_Hash" | "Hash", Ok(mb)) if mb >= 1 => {
                // Lowered to the maximum, as Threads is, rather than refused.
                self.hash_mb = mb.min(MAX_HASH_MB);
                if mb > MAX_HASH_MB {
                    self.info(&format!(
                        "{name} {mb}: at most {MAX_HASH_MB} MB; using {MAX_HASH_MB}"
                    ));
                }
            }
            ("Threads", Ok(t)) if t >= 1 => {
                let max = super::max_threads();
                self.threads = t.min(max);
                if t > max {
                    self.info(&format!(
                        "Threads {t}: at most {max} on this machine ({} per core); using {max}",
                        super::MAX_THREADS_PER_CORE
                    ));
                }
            }
            ("USI_Hash" | "Hash" | "Threads", _) => self.info(&format!(
                "{}: `{}` is not an allowed value",
                quoted(name),
                quoted(value)
            )),
            ("USI_Ponder", _) => {}
            _ => self.info(&format!("unknown option `{}`", quoted(name))),
        }
    }

    /// `go perft N`, answered as UCI engines answer it, for the tools that check a move
    /// generator against another engine's by driving both: each root move with its count of
    /// paths of N plies (`3d3c: 16`, in USI), a blank line, then `Nodes searched: <total>`.
    fn go_perft(&mut self, depth: u32) {
        if self.searching() {
            self.info("already searching; send stop first");
            return;
        }
        let Some(pos) = self.position.clone() else {
            self.info("no position: the last position command was rejected");
            return;
        };
        // Counted on a thread of its own, as a search is, so that `stop`, `quit` and
        // `isready` are answered while it runs.
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (stop2, answered2, out) = (stop.clone(), answered.clone(), self.out.clone());
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let divide = toritsume::rules::perft::perft_divide_until(&pos, depth, &stop2);
                let Some(divide) = divide else {
                    answered2.store(true, Ordering::SeqCst);
                    out.say(&format!(
                        "info string go perft {depth}: stopped before the count was done"
                    ));
                    return;
                };
                for (m, n) in &divide {
                    out.say(&format!("{}: {n}", m.usi()));
                }
                out.say("");
                let total: u64 = divide.iter().map(|&(_, n)| n).sum();
                // The answer's last line: a `go` held back may start once it is out.
                answered2.store(true, Ordering::SeqCst);
                out.say(&format!("Nodes searched: {total}"));
            });
        match handle {
            Ok(handle) => {
                self.search = Some(Search {
                    stop,
                    answered,
                    handle,
                })
            }
            Err(e) => self.info(&format!("cannot start the count: {e}")),
        }
    }

    fn go(&mut self, mate: bool, limit: Option<Duration>) {
        // The command loop holds a `go` back until the running search has answered.
        if self.searching() {
            self.info("already searching; send stop first");
            return;
        }
        // What a failed `go` answers: `checkmate ...` to `go mate`, `bestmove resign` to a
        // plain `go`.
        let give_up = |e: &Engine, mate_answer: &str| {
            e.out
                .say(if mate { mate_answer } else { "bestmove resign" });
        };
        let Some(pos) = self.position.clone() else {
            self.info("no position: the last position command was rejected");
            give_up(self, "checkmate nomate");
            return;
        };
        self.ensure_solver();
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Progress::default());
        let solver_slot = self.solver.clone();
        let out = self.out.clone();
        let (stop2, progress2) = (stop.clone(), progress.clone());
        let answered = Arc::new(AtomicBool::new(false));
        let answered2 = answered.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let taken = solver_slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                let Some(mut solver) = taken else {
                    answered2.store(true, Ordering::SeqCst);
                    out.say("info string no transposition table could be allocated");
                    out.say("checkmate timeout");
                    return;
                };
                solver.set_time(limit);
                solver.set_stop(Some(stop2.clone()));
                solver.set_progress(Some(progress2.clone()));
                let start = Instant::now();
                // The reporter wakes every 50 ms, and at once when the search ends (the
                // sender dropped), so a quick answer never waits for its sleep.
                let (done, wake) = std::sync::mpsc::channel::<()>();
                let reporter = {
                    let (out, progress) = (out.clone(), progress2.clone());
                    std::thread::spawn(move || {
                        let mut last = Instant::now();
                        let mut announced = None;
                        while let Err(RecvTimeoutError::Timeout) =
                            wake.recv_timeout(Duration::from_millis(50))
                        {
                            // Every second, and at once when a (shorter) mate is proven.
                            let mate = progress.mate().map(|m| m.plies);
                            if last.elapsed() >= Duration::from_secs(1) || mate != announced {
                                last = Instant::now();
                                announced = mate;
                                say_info(&out, &progress, start.elapsed());
                            }
                        }
                    })
                };
                let sol = solver.solve(&pos);
                drop(done);
                let _ = reporter.join();
                progress2.nodes.store(sol.nodes, Ordering::Relaxed);
                say_info(&out, &progress2, start.elapsed());
                if sol.status == Status::NoMate {
                    out.say("info string no mate: proven");
                }
                if sol.status == Status::Mate && !sol.minimal {
                    out.say("info string the mate found is not proven shortest: stopped first");
                }
                let answer = answer(mate, &sol);
                // The solver goes back first, so the next search finds its table.
                solver.set_stop(None);
                solver.set_progress(None);
                *solver_slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(solver);
                answered2.store(true, Ordering::SeqCst);
                out.say(&answer);
            });
        match handle {
            Ok(handle) => {
                self.search = Some(Search {
                    stop,
                    answered,
                    handle,
                })
            }
            Err(e) => {
                self.info(&format!("cannot start the search: {e}"));
                self.out.say("checkmate timeout");
            }
        }
    }

    /// A line too long to keep, passed over: said so; when it was a `position`, the earlier
    /// position is dropped, as a `position` refused for any other reason drops it.
    fn too_long(&mut self, first: Option<&str>) {
        let limit = session::MAX_LINE;
        if first == Some("position") {
            self.position = None;
            self.info(&format!(
                "position ignored, and no position is set now: a line of over {limit} bytes"
            ));
        } else {
            self.info(&format!("a line of over {limit} bytes; ignored"));
        }
    }

    /// Handles one command line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let command = match parse::parse(line) {
            Ok(c) => c,
            Err(Refusal::Info(why)) => {
                self.info(&why);
                return true;
            }
            Err(Refusal::Position(why)) => {
                // The earlier position is gone too: a `go` now must not answer for it.
                self.position = None;
                self.info(&why);
                return true;
            }
            Err(Refusal::Go { mate, why }) => {
                self.info(&why);
                self.out.say(if mate {
                    "checkmate timeout"
                } else {
                    "bestmove resign"
                });
                return true;
            }
        };
        match command {
            Command::Empty | Command::Ignored => {}
            Command::Usi => {
                self.out
                    .say(&format!("id name toritsume {}", env!("CARGO_PKG_VERSION")));
                self.out.say("id author the toritsume authors");
                self.out.say(&format!(
                    "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                ));
                self.out.say(&format!(
                    "option name Threads type spin default 1 min 1 max {}",
                    super::max_threads()
                ));
                self.out.say("usiok");
            }
            Command::IsReady => {
                if !self.searching() {
                    self.ensure_solver();
                }
                self.out.say("readyok");
            }
            Command::SetOption { name, value } => self.setoption(&name, &value),
            Command::UsiNewGame => {
                if self.searching() {
                    self.info("usinewgame ignored while searching");
                } else if let Some(s) = self
                    .solver
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_mut()
                {
                    s.clear_table();
                }
            }
            Command::Position(p) => self.position = Some(*p),
            Command::GoPerft(depth) => self.go_perft(depth),
            Command::Go { mate, limit } => self.go(mate, limit),
            Command::Stop => self.finish_search(),
            Command::Quit => {
                self.finish_search();
                return false;
            }
        }
        true
    }
}

/// The answer to `go mate` (`mate`) or `go`: `checkmate` with a whole mating line (the
/// last `info` line carries its length), `nomate` or `timeout`; `bestmove` with the first
/// move of a mate, or `resign`. A mating line that a limit cut short is no `checkmate`
/// answer, though its first move is a `bestmove`.
fn answer(mate: bool, sol: &Solution) -> String {
    let found = sol.status == Status::Mate && !sol.moves.is_empty();
    match (mate, sol.status) {
        (true, Status::Mate) if found && sol.complete => {
            let line = toritsume::notation::usi::line_to_usi(&sol.moves);
            format!("checkmate {}", line.join(" "))
        }
        (true, Status::NoMate) => "checkmate nomate".into(),
        (true, _) => "checkmate timeout".into(),
        (false, _) if found => format!("bestmove {}", sol.moves[0].usi()),
        (false, _) => "bestmove resign".into(),
    }
}

/// The `info` line of a running search: time, nodes, speed, table fill, and once a mate
/// is known its length and line so far (`score mate N pv ...`, the principal variation
/// last, as USI wants it).
fn say_info(out: &Out, progress: &Progress, elapsed: Duration) {
    let nodes = progress.nodes.load(Ordering::Relaxed);
    let ms = elapsed.as_millis().max(1) as u64;
    let mut line = format!(
        "info time {ms} nodes {nodes} nps {} hashfull {}",
        nodes * 1000 / ms,
        progress.hashfull.load(Ordering::Relaxed)
    );
    if let Some(m) = progress.mate()
        && !m.line.is_empty()
    {
        line.push_str(&format!(" score mate {} pv", m.plies));
        for mv in &m.line {
            line.push(' ');
            line.push_str(&mv.usi());
        }
    }
    out.say(&line);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classic problem 34, a mate in 15, on a 1 MB table with a node budget that runs out
    /// while the main line is read: the mate's length is proven, its line is not whole.
    #[test]
    fn a_line_cut_short_is_no_checkmate_answer() {
        let pos: toritsume::rules::Position = "7/7/7/7/2F4/kflC3/1Pr4 b 2CRSc3pl15s 1"
            .parse()
            .expect("a position");
        let solve = |nodes: Option<u64>| {
            let mut solver = Solver::new(SolverConfig {
                hash_mb: 1,
                threads: 1,
                ..SolverConfig::default()
            })
            .expect("a 1 MB table");
            solver.set_nodes(nodes);
            solver.solve(&pos)
        };
        let whole = solve(None);
        let expected = "checkmate C*6e 7f6g 6e6f 5g6f R*7f 6g7f 5e6f 7f6f F*5e 6f7f S*7g 7f7g \
                        C*6f 7g7f R*7g";
        assert_eq!(answer(true, &whole), expected);
        assert_eq!(answer(false, &whole), "bestmove C*6e");
        // Budgets from the first search to the end of the main line: each answer is the whole
        // line or a time-out, and some are time-outs with the length proven and part of the
        // line read (the budgets of the last twentieth cut the line once its first moves
        // are read: most of its nodes go to refuting the checks before the first move).
        let budgets = (1..20)
            .map(|k| whole.nodes * k / 20)
            .chain((1..5).map(|k| whole.nodes - whole.nodes * k / 100));
        let mut cut_lines = 0;
        for budget in budgets {
            let cut = solve(Some(budget));
            let a = answer(true, &cut);
            assert!(a == expected || a == "checkmate timeout", "{budget}: {a}");
            if cut.minimal && !cut.complete && !cut.moves.is_empty() {
                cut_lines += 1;
                assert_eq!(a, "checkmate timeout");
                assert_eq!(answer(false, &cut), "bestmove C*6e");
            }
        }
        assert!(cut_lines > 0);
    }
}
