//! A generation run, batch by batch ([`Generator`]): candidates evaluated in parallel,
//! merged in index order into what the run keeps and draws from; its checkpoints, and a run
//! resumed from one; and [`generate`], a whole run at once.

use super::checkpoint::{CHECKPOINT_FORMAT, Checkpoint, SavedPools, settings, settings_differ};
use super::draw::Pools;
use super::evaluate::{Outcome, evaluate};
use super::themes::Choice;
use super::{GenConfig, Generated, NO_MATE_PATIENCE, Policy, Stats, solver_config};
use crate::solver::Solver;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What one [`Generator::step`] came to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A batch was evaluated and merged; the run goes on.
    Batch,
    /// The run is over: enough problems kept, the candidate limit reached, or given up
    /// ([`Stats::candidate_limit`], [`Stats::gave_up`]).
    Done,
    /// `stop` was raised: the batch under way was dropped whole, so the run stands where the
    /// last batch left it (what [`Generator::checkpoint`] then saves).
    Stopped,
}

/// Why a run cannot be resumed from a checkpoint.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The checkpoint was written by a build with another format.
    #[error("it is of checkpoint format {0}, and this build reads format {CHECKPOINT_FORMAT}")]
    Format(u32),
    /// The run was begun with other settings.
    #[error("{0}")]
    Settings(String),
    /// The run has already gone past what is asked now.
    #[error("{0}")]
    Past(String),
    /// The checkpoint does not hold what it should.
    #[error("it is damaged: {0}")]
    Damaged(String),
    /// The workers could not be set up.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// What a run of `checkpoint` goes on with under `config` (see [`Generator::resume`]): its
/// counters and pools, once everything the checkpoint says is checked; the error says what
/// does not hold. Sets up no workers.
fn taken_up(config: &GenConfig, checkpoint: &Checkpoint) -> Result<(Stats, Pools), ResumeError> {
    if checkpoint.format != CHECKPOINT_FORMAT {
        return Err(ResumeError::Format(checkpoint.format));
    }
    if let Some(d) = settings_differ(&checkpoint.settings, &settings(config)) {
        return Err(ResumeError::Settings(d));
    }
    let stats = Stats {
        gave_up: false,
        candidate_limit: false,
        ..checkpoint.stats.clone()
    };
    let kept = stats.kept_total();
    if kept > config.count {
        return Err(ResumeError::Past(format!(
            "it has kept {kept} problems, more than --count {}",
            config.count
        )));
    }
    if let Some(max) = config.max_candidates
        && checkpoint.next_candidate > max
    {
        return Err(ResumeError::Past(format!(
            "it has drawn {} candidates, more than --max-candidates {max}",
            checkpoint.next_candidate
        )));
    }
    if checkpoint.shapes.len() > kept
        || checkpoint.shapes.len() != stats.shapes
        || checkpoint.next_candidate != stats.tried
    {
        return Err(ResumeError::Damaged("its counters disagree".into()));
    }
    if checkpoint.next_candidate > last_candidate(config) {
        return Err(ResumeError::Damaged(format!(
            "its next candidate, {}, is past the last one a run can draw",
            checkpoint.next_candidate
        )));
    }
    let pools = checkpoint.pools.pools().map_err(ResumeError::Damaged)?;
    Ok((stats, pools))
}

impl Checkpoint {
    /// Checks that a run could be taken up from this checkpoint under `config`, as
    /// [`Generator::resume`] would, without setting up its workers: the error says what
    /// does not hold. (A checkpoint file read from disk is checked so in full.)
    pub fn check(&self, config: &GenConfig) -> Result<(), ResumeError> {
        taken_up(config, self).map(|_| ())
    }
}

/// The number of candidates a run of `config` can draw: each candidate's index within the
/// shard (`g`) makes a global index `g·N + K` that must fit in 64 bits, with a batch to
/// spare. Far more than any run reaches; a checkpoint claiming more is damaged.
fn last_candidate(config: &GenConfig) -> u64 {
    let (k, n) = (config.shard.0, config.shard.1.max(1));
    ((u64::MAX - k) / n).saturating_sub(config.batch.max(1) as u64)
}

/// A generation run: its workers, and what it has kept and met so far. Driven a batch at a
/// time by [`Generator::step`]; between two steps [`Generator::checkpoint`] tells all it
/// knows, and [`Generator::resume`] goes on from that as if the run had never stopped.
pub struct Generator<'c> {
    config: &'c GenConfig,
    pool: rayon::ThreadPool,
    solvers: Vec<Mutex<Solver>>,
    /// Read by the workers during a batch, written between batches (in candidate order, so
    /// that what is kept does not depend on the thread count).
    seen: Policy,
    pools: Pools,
    stats: Stats,
    /// The distinct solution shapes kept (seeds aside).
    shapes: BTreeSet<String>,
    /// The next candidate, counted within the shard.
    next: u64,
    /// When this process took the run up, and the run's time before that.
    start: Instant,
    before: Duration,
}

impl<'c> Generator<'c> {
    /// A run of `config` from its start (its seeds, `--from`, taken in).
    pub fn new(config: &'c GenConfig) -> std::io::Result<Generator<'c>> {
        let mut g =
            Generator::workers(config, Policy::new(config.family_limit, config.shape_limit))?;
        for s in &config.seeds {
            if g.seen.keep(&s.keys, &s.family) {
                g.pools.drop_family(&s.family);
            }
            if !g.seen.family_full(&s.family) {
                g.pools
                    .kept
                    .push((s.position.clone(), s.plies, s.family.clone()));
            }
        }
        Ok(g)
    }

    /// The run of `checkpoint` taken up again under `config`, which must have the settings
    /// it was begun with ([`settings`]); `--count` may be raised, or lowered to no fewer
    /// problems than were kept, and `--max-candidates` set to no fewer candidates than were
    /// drawn, as those only say when the run ends.
    pub fn resume(
        config: &'c GenConfig,
        checkpoint: &Checkpoint,
    ) -> Result<Generator<'c>, ResumeError> {
        let (stats, pools) = taken_up(config, checkpoint)?;
        let seen = Policy::restored(
            config.family_limit,
            config.shape_limit,
            checkpoint.policy.clone(),
        );
        let mut g = Generator::workers(config, seen)?;
        g.pools = pools;
        g.before = stats.elapsed;
        g.stats = stats;
        g.shapes = checkpoint.shapes.iter().cloned().collect();
        g.next = checkpoint.next_candidate;
        Ok(g)
    }

    /// The workers of a run that has kept `seen`, and nothing else yet.
    fn workers(config: &'c GenConfig, seen: Policy) -> std::io::Result<Generator<'c>> {
        let threads = config.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(64 << 20)
            .build()
            .map_err(std::io::Error::other)?;
        let solver_config = solver_config(config);
        let solvers: Vec<Mutex<Solver>> = (0..threads)
            .map(|_| Solver::new(solver_config.clone()).map(Mutex::new))
            .collect::<Result<_, _>>()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
        Ok(Generator {
            config,
            pool,
            solvers,
            seen,
            pools: Pools::default(),
            stats: Stats::default(),
            shapes: BTreeSet::new(),
            next: 0,
            start: Instant::now(),
            before: Duration::ZERO,
        })
    }

    /// Lets the searches under way stop when `stop` is raised, rather than at the end of their
    /// candidate: a batch stopped so is dropped whole ([`Generator::step`]), so what the run
    /// keeps does not change. Give the same flag to `step`.
    pub fn set_stop(&mut self, stop: std::sync::Arc<AtomicBool>) {
        for solver in &mut self.solvers {
            solver
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .set_stop(Some(std::sync::Arc::clone(&stop)));
        }
    }

    /// The counters so far (the time is the whole run's, resumed runs included).
    pub fn stats(&self) -> Stats {
        let mut s = self.stats.clone();
        s.elapsed = self.before + self.start.elapsed();
        s
    }

    /// All the run knows now, between two steps: resumed from, it goes on as this run would.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            settings: settings(self.config),
            next_candidate: self.next,
            stats: self.stats(),
            shapes: self.shapes.iter().cloned().collect(),
            policy: self.seen.saved(),
            pools: SavedPools::of(&self.pools),
        }
    }

    /// Evaluates the next batch of candidates and merges it, handing each problem kept to
    /// `on_problem` in order (an error it returns ends the run with that error). Raising
    /// `stop` ends the batch early and drops it whole: what was handed on stays a prefix of
    /// what an uninterrupted run hands on.
    pub fn step(
        &mut self,
        stop: &AtomicBool,
        mut on_problem: impl FnMut(&Generated) -> std::io::Result<()>,
    ) -> std::io::Result<Step> {
        let config = self.config;
        if self.stats.kept_total() >= config.count
            || self.stats.gave_up
            || self.stats.candidate_limit
        {
            return Ok(Step::Done);
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(Step::Stopped);
        }
        if let Some(max) = config.max_candidates
            && self.next >= max
        {
            self.stats.candidate_limit = true;
            return Ok(Step::Done);
        }
        let batch = config.batch.max(1) as u64;
        let (k, n) = (config.shard.0, config.shard.1.max(1));
        // The last batch stops at the candidate limit: a prefix of the full batch, whose
        // candidates are merged in index order, so what it keeps is what the full one
        // keeps among them.
        if self.next >= last_candidate(config) {
            self.stats.candidate_limit = true;
            return Ok(Step::Done);
        }
        let end = (self.next + batch).min(last_candidate(config));
        let end = config.max_candidates.map_or(end, |max| end.min(max));
        let indices: Vec<u64> = (self.next..end).map(|g| g * n + k).collect();
        let results: Vec<Mutex<Option<Outcome>>> =
            indices.iter().map(|_| Mutex::new(None)).collect();
        let cursor = AtomicUsize::new(0);
        let (pools, seen) = (&self.pools, &self.seen);
        self.pool.scope(|s| {
            for solver in &self.solvers {
                let (indices, results, cursor) = (&indices, &results, &cursor);
                s.spawn(move |_| {
                    let mut solver = solver.lock().expect("solver lock");
                    loop {
                        let j = cursor.fetch_add(1, Ordering::Relaxed);
                        if j >= indices.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let o = evaluate(config, &mut solver, indices[j], pools, seen);
                        *results[j].lock().expect("result lock") = Some(o);
                    }
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            // An interrupted batch is dropped whole: what was written stays a prefix of
            // what an uninterrupted run writes, and the run stands where it stood before.
            return Ok(Step::Stopped);
        }
        self.next = end;
        for (j, r) in results.into_iter().enumerate() {
            let Some(o) = r.into_inner().expect("result lock") else {
                continue;
            };
            self.merge(o, indices[j], &mut on_problem)?;
        }
        if self.stats.mates == 0 && self.stats.tried >= NO_MATE_PATIENCE {
            self.stats.gave_up = true;
        }
        Ok(Step::Batch)
    }

    /// Takes in the outcome of candidate `index`.
    fn merge(
        &mut self,
        o: Outcome,
        index: u64,
        on_problem: &mut impl FnMut(&Generated) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let (stats, seen, pools) = (&mut self.stats, &mut self.seen, &mut self.pools);
        stats.tried += 1;
        match o {
            Outcome::Rejected {
                mate,
                in_range,
                stone,
                near,
                dual,
            } => {
                stats.final_duals += dual as u64;
                // Bases of a full family could only give more of it.
                if let Some(p) = near.filter(|p| !seen.family_full(&p.2)) {
                    pools.add_near(*p);
                }
                stats.mates += mate as u64;
                stats.in_range += in_range as u64;
                if let Some(st) = stone.filter(|s| !seen.family_full(&s.2)) {
                    pools.add_stone(*st);
                }
            }
            Outcome::Sound(a) => {
                stats.mates += 1;
                stats.in_range += 1;
                stats.sound += 1;
                stats.trimmed += u64::from(a.trimmed > 0);
                let low = self.config.min_score.is_some_and(|m| a.score < m);
                let unchosen = self.config.choice.judge(&a.record) != Choice::In;
                // Taken by a candidate of this same batch, below the score asked for, or
                // outside the rating or themes asked for.
                if low
                    || unchosen
                    || seen.check(&a.keys, &a.family).is_err()
                    || stats.kept_total() >= self.config.count
                {
                    if unchosen {
                        stats.unchosen += 1;
                    } else {
                        stats.dropped += 1;
                    }
                    // Still a base for mutation.
                    if !seen.family_full(&a.family) {
                        pools.add_near((a.position.clone(), a.plies, a.family.clone()));
                    }
                    return Ok(());
                }
                let full = seen.keep(&a.keys, &a.family);
                self.shapes.insert(a.keys.coarse.clone());
                stats.shapes = self.shapes.len();
                *stats.kept.entry(a.plies).or_default() += 1;
                if full {
                    pools.drop_family(&a.family);
                } else {
                    pools
                        .kept
                        .push((a.position.clone(), a.plies, a.family.clone()));
                }
                on_problem(&Generated {
                    record: a.record,
                    index,
                    plies: a.plies,
                })?;
            }
        }
        Ok(())
    }
}

/// Runs the generator whole. `on_problem` receives each kept problem in order (return an
/// error to stop); `on_progress` is called after every batch; raising `stop` ends the run
/// after the current batch. Returns the counters.
pub fn generate(
    config: &GenConfig,
    stop: &AtomicBool,
    mut on_problem: impl FnMut(&Generated) -> std::io::Result<()>,
    mut on_progress: impl FnMut(&Stats),
) -> std::io::Result<Stats> {
    let mut g = Generator::new(config)?;
    while g.step(stop, &mut on_problem)? == Step::Batch {
        on_progress(&g.stats());
    }
    Ok(g.stats())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records `g` hands on until its run is over (or `steps` batches, when given).
    fn records(g: &mut Generator, steps: Option<usize>) -> Vec<String> {
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        let mut n = 0;
        while steps.is_none_or(|s| n < s) {
            let step = g
                .step(&stop, |p| {
                    out.push(p.record.to_json());
                    Ok(())
                })
                .unwrap();
            if step != Step::Batch {
                break;
            }
            n += 1;
        }
        out
    }

    fn config(threads: usize) -> GenConfig {
        let mut c = GenConfig::new(3, 7, 40, 17);
        c.threads = threads;
        c.batch = 16;
        c
    }

    #[test]
    fn a_run_resumed_from_its_checkpoint_writes_what_it_would_have_written() {
        let whole = records(&mut Generator::new(&config(1)).unwrap(), None);
        assert_eq!(whole.len(), 40);
        let first = config(2);
        let mut g = Generator::new(&first).unwrap();
        let head = records(&mut g, Some(5));
        assert!(!head.is_empty() && head.len() < 40, "{}", head.len());
        // Through its text, as the file keeps it; on another thread count.
        let cp = g.checkpoint();
        let text = serde_json::to_string(&cp).unwrap();
        let saved: Checkpoint = serde_json::from_str(&text).unwrap();
        assert_eq!(saved, cp);
        assert_eq!(saved.stats.kept_total(), head.len());
        let again = config(1);
        let mut resumed = Generator::resume(&again, &saved).unwrap();
        assert_eq!(resumed.stats().tried, g.stats().tried);
        let tail = records(&mut resumed, None);
        assert_eq!([head, tail].concat(), whole);
        assert_eq!(resumed.stats().kept_total(), 40);
    }

    #[test]
    fn a_stop_leaves_the_run_where_the_last_batch_left_it() {
        let c = config(1);
        let mut g = Generator::new(&c).unwrap();
        records(&mut g, Some(2));
        let before = g.checkpoint();
        let stop = AtomicBool::new(true);
        let step = g.step(&stop, |_| panic!("nothing is kept")).unwrap();
        assert_eq!(step, Step::Stopped);
        assert_eq!(g.checkpoint().next_candidate, before.next_candidate);
        assert_eq!(g.checkpoint().pools, before.pools);
    }

    #[test]
    fn resuming_refuses_other_settings_and_a_run_gone_past() {
        let c = config(1);
        let mut g = Generator::new(&c).unwrap();
        let kept = records(&mut g, Some(4)).len();
        assert!(kept > 1);
        let cp = g.checkpoint();
        let mut other = config(1);
        other.family_limit = 5;
        let e = Generator::resume(&other, &cp).err().unwrap();
        assert_eq!(
            e.to_string(),
            "it was begun with --family-limit 3, and this run has --family-limit 5"
        );
        let mut fewer = config(1);
        fewer.count = kept - 1;
        let e = Generator::resume(&fewer, &cp).err().unwrap();
        assert_eq!(
            e.to_string(),
            format!(
                "it has kept {kept} problems, more than --count {}",
                kept - 1
            )
        );
        let mut capped = config(1);
        capped.max_candidates = Some(cp.next_candidate - 1);
        assert!(matches!(
            Generator::resume(&capped, &cp),
            Err(ResumeError::Past(_))
        ));
        // A checkpoint edited to a candidate no run reaches (2^64 − 1 would wrap the
        // candidates' indices) is damaged, and so is one whose counters disagree.
        let mut edited = cp.clone();
        edited.next_candidate = u64::MAX;
        edited.stats.tried = u64::MAX;
        let e = Generator::resume(&c, &edited).err().unwrap();
        assert!(matches!(e, ResumeError::Damaged(_)), "{e}");
        assert!(
            e.to_string().contains("past the last one a run can draw"),
            "{e}"
        );
        let mut edited = cp.clone();
        edited.next_candidate += 1;
        let e = Generator::resume(&c, &edited).err().unwrap();
        assert_eq!(e.to_string(), "it is damaged: its counters disagree");
        let mut old = cp.clone();
        old.format = 0;
        assert!(matches!(
            Generator::resume(&c, &old),
            Err(ResumeError::Format(0))
        ));
        let mut damaged = cp.clone();
        damaged.pools.kept[0].sfen = "7/7".into();
        assert!(matches!(
            Generator::resume(&c, &damaged),
            Err(ResumeError::Damaged(_))
        ));
        // As many as were kept, or as many candidates as were drawn: the run is over.
        let mut exact = config(1);
        exact.count = kept;
        let mut done = Generator::resume(&exact, &cp).unwrap();
        assert!(records(&mut done, None).is_empty());
    }
}
