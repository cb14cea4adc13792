//! The closing count of a file's answers that `solve` and `verify` give on standard error
//! (`36 problems: 33 sound, 2 cooked, 1 flawed in 1.4 s`), so that a set's outcome is seen
//! without reading every report. Standard output keeps the reports alone.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts of answers by kind, filled from any worker thread.
pub struct Tally {
    /// The kinds, in the order the summary names them.
    kinds: &'static [&'static str],
    counts: Vec<AtomicUsize>,
    start: Instant,
}

impl Tally {
    /// An empty count of the answers `kinds` (each a word the reports use).
    pub fn new(kinds: &'static [&'static str]) -> Tally {
        Tally {
            kinds,
            counts: kinds.iter().map(|_| AtomicUsize::new(0)).collect(),
            start: Instant::now(),
        }
    }

    /// Counts one answer of kind `kind` (one of those given to [`Tally::new`]).
    pub fn add(&self, kind: &str) {
        if let Some(i) = self.kinds.iter().position(|&k| k == kind) {
            self.counts[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The summary line for `total` inputs of which `unreadable` could not be read and
    /// `contradicted` were answered against a claim of their record, each input being one
    /// `noun` (`problem`, `position`): the kinds that occurred, in order.
    pub fn summary(
        &self,
        total: usize,
        (unreadable, contradicted): (usize, usize),
        noun: (&str, &str),
    ) -> String {
        let mut parts: Vec<String> = self
            .kinds
            .iter()
            .zip(&self.counts)
            .map(|(k, c)| (k, c.load(Ordering::Relaxed)))
            .filter(|&(_, n)| n > 0)
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        if unreadable > 0 {
            parts.push(format!("{unreadable} unreadable"));
        }
        if contradicted > 0 {
            parts.push(format!("{contradicted} contradicting their record"));
        }
        format!(
            "{}: {} in {:.1} s",
            toritsume::notation::counted(total as u64, noun.0, noun.1),
            parts.join(", "),
            self.start.elapsed().as_secs_f64()
        )
    }

    /// Writes the closing lines of a run over `items`, chosen by `lines`, (see
    /// [`Tally::summary`]) on standard error: the summary of those answered, for more than
    /// one input unless `quiet`; and, whatever `quiet` says, how far a run Ctrl-C stopped
    /// got (its exit status alone would not say which inputs were left), with the `--lines`
    /// that takes the run up where the stop may have cut it short.
    pub fn close(
        &self,
        o: &super::Outcome,
        (items, lines): (&[super::input::Item], &super::input::LinesArg),
        quiet: bool,
        noun: (&str, &str),
    ) {
        let total = items.len();
        let go_on = o.resume_at.and_then(|i| lines.go_on_from(items, i));
        if total > 1 && !quiet {
            super::say_err!("{}", self.summary(o.done, (o.failed, o.contradicted), noun));
        }
        if o.interrupted {
            if total == 1 {
                super::say_err!("interrupted (Ctrl-C or SIGTERM): the search was stopped");
            } else {
                super::say_err!(
                    "interrupted (Ctrl-C or SIGTERM) after {} of {total} {}: the searches under way were stopped, the rest not started{}",
                    o.done,
                    noun.1,
                    go_on.map_or(String::new(), |g| format!(
                        "; `{g}` takes them up from the first the stop may have cut short"
                    ))
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_the_kinds_that_occurred_in_order() {
        let t = Tally::new(&["mate", "nomate", "unknown"]);
        for k in ["unknown", "mate", "mate", "other"] {
            t.add(k);
        }
        let s = t.summary(4, (1, 0), ("position", "positions"));
        assert!(
            s.starts_with("4 positions: 2 mate, 1 unknown, 1 unreadable in "),
            "{s}"
        );
        let s = t.summary(4, (1, 2), ("position", "positions"));
        assert!(
            s.starts_with(
                "4 positions: 2 mate, 1 unknown, 1 unreadable, 2 contradicting their record in "
            ),
            "{s}"
        );
        assert!(s.ends_with(" s"), "{s}");
    }
}
