//! Parallel search of one position: helper threads that search the same root as the
//! searcher that leads them, on the one table they share, each steering its own way, so
//! that every proof or disproof one of them stores serves the others.
//!
//! How a search uses them ([`Searcher::search`]): the leader starts alone, on a table it
//! grows as a single thread does; a search still unsolved after [`ENGAGE_NODES`] of its
//! nodes hands its root to the helpers (a [`Job`]), the table being marked shared the first
//! time ([`super::table::Table::share`]; from then on it grows only while the helpers are
//! stopped for it, [`Searcher::regrow`]), and from then on whichever thread solves the root
//! first gives the answer: a helper that does raises the team's `done` flag, which
//! stops the leader as a limit would, and the leader takes the helper's value. Every proof
//! and disproof is exact, whoever finds it, so the answer (status, length, main line) is
//! the one a single thread gives; only the work done on the way, and so the node count,
//! differs. The leader does not wait for the helpers to stop (each does within a thousand
//! nodes; one still on an earlier job sees its number is no longer the team's); the table
//! is cleared only once all have let go of it.
//!
//! How the helpers steer apart: each uses a larger ε in the 1+ε thresholds (so it stays
//! longer in a child before switching), helpers of odd number break ties between equal
//! children the other way, and every thread looks its node up again after each child's
//! search, so that a node another thread has solved in the meantime is left at once.

use super::dfpn::Searcher;
use super::limits::Techniques;
use super::table::Table;
use super::value::{Depth, Val};
use crate::rules::{Color, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

/// Nodes a search runs alone before it calls its helpers: most searches of a solve (the
/// many small ones reading the main line) end well before, and waking threads for them
/// would cost more than it gives.
pub(crate) const ENGAGE_NODES: u64 = 20_000;

/// Stack of a helper thread: the search recurses one frame a ply, up to
/// [`super::MAX_LEVEL`].
const HELPER_STACK: usize = 64 << 20;

/// What the helpers are asked to search: the leader's root and how to search it.
pub(crate) struct Job {
    /// The table to search on.
    pub(crate) table: Arc<Table>,
    /// The root position.
    pub(crate) pos: Position,
    /// The side that checks.
    pub(crate) attacker: Color,
    /// The key of the pieces in play (see [`Searcher::set_position`]).
    pub(crate) universe: u64,
    /// Plies to search within.
    pub(crate) depth: Depth,
    /// Full keys of the positions before the root (repetitions).
    pub(crate) ancestors: Vec<u64>,
    /// Techniques in use.
    pub(crate) techniques: Techniques,
    /// Whether useless interpositions are set aside.
    pub(crate) useless_rule: bool,
    /// The user's deadline.
    pub(crate) deadline: Option<Instant>,
    /// The user's stop flag.
    pub(crate) stop: Option<Arc<AtomicBool>>,
}

/// What the leader and its helpers share.
pub(crate) struct Crew {
    board: Mutex<Board>,
    /// Helpers wait here for a job.
    wake: Condvar,
    /// The leader waits here for the helpers to finish.
    idle: Condvar,
    /// The current job is over (a helper solved the root, or the leader is done with it).
    done: AtomicBool,
    /// The number of the current job: a helper still on an earlier one stops.
    serial: AtomicU64,
    /// Nodes the helpers searched in the current job so far (added every 1024 nodes).
    live_nodes: AtomicU64,
}

/// The job board, under the crew's lock.
#[derive(Default)]
struct Board {
    /// Number of the current job (each new job one more).
    serial: u64,
    /// The current job, while it runs.
    job: Option<Arc<Job>>,
    /// Helpers working (on it, or still on an earlier one).
    busy: usize,
    /// The root value a helper solved first.
    result: Option<Val>,
    /// The team is being dropped.
    quit: bool,
}

impl Crew {
    fn lock(&self) -> MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the current job is over.
    #[inline]
    pub(crate) fn is_done(&self) -> bool {
        self.done.load(Ordering::Relaxed)
    }

    /// Whether job number `serial` is over (it is, once a later one has started).
    #[inline]
    pub(crate) fn is_over(&self, serial: u64) -> bool {
        self.is_done() || self.serial.load(Ordering::Relaxed) != serial
    }

    /// Counts `n` more nodes of a helper in the current job.
    #[inline]
    pub(crate) fn add_live_nodes(&self, n: u64) {
        self.live_nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes the helpers have searched in the current job so far.
    #[inline]
    pub(crate) fn live_nodes(&self) -> u64 {
        self.live_nodes.load(Ordering::Relaxed)
    }
}

/// The helper threads of a leading searcher.
pub(crate) struct Team {
    crew: Arc<Crew>,
    handles: Vec<JoinHandle<()>>,
}

impl Team {
    /// A team of `helpers` threads, waiting for work.
    pub(crate) fn new(helpers: usize) -> std::io::Result<Team> {
        let crew = Arc::new(Crew {
            board: Mutex::new(Board::default()),
            wake: Condvar::new(),
            idle: Condvar::new(),
            done: AtomicBool::new(false),
            serial: AtomicU64::new(0),
            live_nodes: AtomicU64::new(0),
        });
        let mut team = Team {
            crew,
            handles: Vec::new(),
        };
        for index in 1..=helpers {
            let crew = Arc::clone(&team.crew);
            let handle = std::thread::Builder::new()
                .name(format!("toritsume-helper-{index}"))
                .stack_size(HELPER_STACK)
                .spawn(move || helper_loop(&crew, index))?;
            team.handles.push(handle);
        }
        Ok(team)
    }

    /// Threads searching with the team: its helpers and the leader.
    pub(crate) fn threads(&self) -> usize {
        self.handles.len() + 1
    }

    /// What the team shares.
    pub(crate) fn crew(&self) -> &Crew {
        &self.crew
    }

    /// Hands `job` to the helpers.
    pub(crate) fn start(&self, job: Job) {
        let mut b = self.crew.lock();
        b.serial += 1;
        b.job = Some(Arc::new(job));
        b.result = None;
        self.crew.serial.store(b.serial, Ordering::Relaxed);
        self.crew.live_nodes.store(0, Ordering::Relaxed);
        self.crew.done.store(false, Ordering::Relaxed);
        drop(b);
        self.crew.wake.notify_all();
    }

    /// Ends the current job and returns the root value a helper solved (if any) and the
    /// nodes the helpers searched in it (each reports every thousand nodes or so, and the
    /// rest when it finishes first; what a helper searches after this is not counted). The
    /// helpers are not waited for: each stops within a thousand nodes, and the next job or
    /// [`Team::quiesce`] finds them idle.
    pub(crate) fn finish(&self) -> (Option<Val>, u64) {
        let mut b = self.crew.lock();
        self.crew.done.store(true, Ordering::Relaxed);
        b.job = None;
        (
            b.result.take(),
            self.crew.live_nodes.swap(0, Ordering::Relaxed),
        )
    }

    /// Waits until every helper has stopped and let go of the table.
    pub(crate) fn quiesce(&self) {
        let mut b = self.crew.lock();
        while b.busy > 0 {
            b = self.crew.idle.wait(b).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.crew.lock().quit = true;
        self.crew.done.store(true, Ordering::Relaxed);
        self.crew.wake.notify_all();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// A helper thread: waits for a job, searches it until it is solved or over, reports.
fn helper_loop(crew: &Arc<Crew>, index: usize) {
    let mut seen = 0;
    loop {
        let job = {
            let mut b = crew.lock();
            loop {
                if b.quit {
                    return;
                }
                if b.serial != seen
                    && let Some(job) = &b.job
                {
                    let job = Arc::clone(job);
                    seen = b.serial;
                    b.busy += 1;
                    break (job, seen);
                }
                b = crew.wake.wait(b).unwrap_or_else(|e| e.into_inner());
            }
        };
        let (job, serial) = job;
        let (value, unreported) = {
            let mut s = Searcher::helper(&job, Arc::clone(crew), index, serial);
            drop(job);
            let v = s.search_as_helper();
            (v, s.nodes() - s.reported)
        };
        // The searcher and the job, and with them the table, are gone before the leader
        // can see this helper idle.
        let mut b = crew.lock();
        if !crew.is_over(serial) {
            // The leader takes the count under the lock too: these nodes are counted once.
            crew.add_live_nodes(unreported);
            if value.is_proven() || value.is_disproven() {
                b.result = Some(value);
                crew.done.store(true, Ordering::Relaxed);
            }
        }
        b.busy -= 1;
        if b.busy == 0 {
            crew.idle.notify_all();
        }
    }
}

impl Searcher {
    /// A helper's searcher for `job`, number `index` of the team.
    fn helper(job: &Job, crew: Arc<Crew>, index: usize, serial: u64) -> Searcher {
        let mut s = Searcher::with_table(
            Arc::clone(&job.table),
            job.pos.clone(),
            job.attacker,
            job.techniques,
            index,
        );
        s.universe = job.universe;
        s.useless_rule = job.useless_rule;
        s.limits.deadline = job.deadline;
        s.limits.stop = job.stop.clone();
        s.crew = Some(crew);
        s.job_serial = serial;
        s.root_ancestors = job.ancestors.clone();
        s.root = Some((job.pos.clone(), job.depth));
        s
    }

    /// Searches a helper's job until its root is solved or the job is over.
    fn search_as_helper(&mut self) -> Val {
        let Some((pos, depth)) = self.root.take() else {
            return Val::unknown(1, 1, crate::rules::Hand::EMPTY);
        };
        self.pos = pos;
        let ancestors = std::mem::take(&mut self.root_ancestors);
        self.search(depth, &ancestors)
    }

    /// Hands the current search's root to the team. The first time since the table was
    /// cleared, the table is marked shared first ([`Table::share`]): until then the leader
    /// had it alone (no helper has had a job on it since). From then on it grows only while
    /// the helpers are stopped ([`Searcher::regrow`]), so that a solve touches no more of
    /// the table than one thread's search would.
    pub(super) fn engage(&mut self) {
        let (Some(team), Some((pos, depth))) = (&self.team, &self.root) else {
            return;
        };
        if !self.table.is_shared() {
            team.quiesce();
            self.table.share();
        }
        team.start(Job {
            table: Arc::clone(&self.table),
            pos: pos.clone(),
            attacker: self.attacker,
            universe: self.universe,
            depth: *depth,
            ancestors: self.root_ancestors.clone(),
            techniques: self.techniques,
            useless_rule: self.useless_rule,
            deadline: self.limits.deadline,
            stop: self.limits.stop.clone(),
        });
        self.engaged = true;
    }

    /// The leader's check (every thousand nodes or so) that lets a shared table grow when
    /// it [wants to](Table::wants_to_grow): in the middle of a search the helpers work on,
    /// through [`Searcher::regrow`]; while the leader searches alone, once the helpers have
    /// stopped (each does within a thousand nodes of its last job).
    pub(super) fn grow_shared_table(&mut self) {
        let Some(team) = &self.team else {
            return;
        };
        if !self.table.is_shared() || !self.table.wants_to_grow() {
            return;
        }
        if !self.engaged {
            team.quiesce();
            self.table.grow_alone(team.threads());
        } else if !team.crew().is_done() {
            self.regrow();
        }
    }

    /// Lets the shared table grow in the middle of a search: the helpers are stopped and
    /// waited for, the table doubles as often as it wants to, and the helpers are handed the
    /// search again (they start over from its root, on a table that keeps what they
    /// stored). A helper that solved the root meanwhile ends the search instead, as when
    /// the leader sees the team done.
    fn regrow(&mut self) {
        let Some(team) = &self.team else {
            return;
        };
        let (answer, nodes) = team.finish();
        self.nodes += nodes;
        self.helper_nodes += nodes;
        if let Some(a) = answer {
            self.helper_answer = Some(a);
            self.cancelled = true;
            self.aborted = true;
            return;
        }
        team.quiesce();
        self.table.grow_alone(team.threads());
        self.engage();
    }

    /// Ends the team's work on the current search, whose root the leader left with value
    /// `v`: the helpers' nodes are counted as the leader's, and when the leader did not
    /// solve the root (a helper did first, or a limit stopped the leader), a helper's
    /// answer is taken.
    pub(super) fn disengage(&mut self, v: Val) -> Val {
        self.engaged = false;
        let cancelled = std::mem::take(&mut self.cancelled);
        let Some(team) = &self.team else {
            return v;
        };
        let (answer, nodes) = team.finish();
        let answer = self.helper_answer.take().or(answer);
        self.nodes += nodes;
        self.helper_nodes += nodes;
        let solved = v.is_proven() || v.is_disproven();
        match answer {
            Some(a) if cancelled || !solved => {
                self.aborted = false;
                a
            }
            _ => v,
        }
    }

    /// The value of the current node when another thread has solved it meanwhile.
    #[inline]
    pub(super) fn solved_elsewhere(&self, depth: Depth, path_key: u64) -> Option<Val> {
        let hand = self.pos.hand(self.attacker);
        let board = self.tt_key(self.pos.board_key());
        Val::from_found(self.table.lookup(board, hand, depth, path_key), hand)
            .filter(|v| v.is_proven() || v.is_disproven())
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::solver::{Solver, SolverConfig, Status};

    /// A solve on two threads whose searches all end before the helpers are called in
    /// leaves the table to grow as one thread's would; one that calls them in shares it,
    /// and it goes on growing while shared (the helpers are called in after 20,000 nodes,
    /// when the table is still small); clearing the table makes it the leader's alone
    /// again.
    #[test]
    fn the_table_is_shared_only_once_the_helpers_are_called_in() {
        let mut solver = Solver::new(SolverConfig {
            threads: 2,
            hash_mb: 64,
            ..SolverConfig::default()
        })
        .expect("a table");
        // problems/climbed.jsonl's 51-ply problem: some 16 K nodes in all.
        let small =
            parse_position("L+s+S1c+s1/l+Sc+S+F1k/s+S4s/c+S+s2P1/R3SS1/R2s1+Ss/+s2F2C b 3P 1")
                .expect("a position");
        let sol = solver.solve(&small);
        assert_eq!((sol.status, sol.plies), (Status::Mate, Some(51)));
        assert_eq!(sol.helper_nodes, 0);
        let table = &solver.searcher().table;
        assert!(!table.is_shared());
        assert!(table.active_capacity() < table.capacity());
        // A no-mate of the hard set whose first search takes millions of nodes.
        let hard = parse_position("3F3/k1s4/7/7/7/7/7 b FPR3S 1").expect("a position");
        solver.clear_table();
        let sol = solver.solve(&hard);
        assert_eq!(sol.status, Status::NoMate);
        assert!(sol.helper_nodes > 0);
        let table = &solver.searcher().table;
        assert!(table.is_shared());
        assert!(
            table.active_capacity() >= table.capacity() / 4,
            "{} of {} slots in use",
            table.active_capacity(),
            table.capacity()
        );
        solver.clear_table();
        assert!(!solver.searcher().table.is_shared());
    }
}
