//! The shortest mate: once a search has proven a mate of some length, lower the length
//! until no mate exists within it, so that the length is proven minimal. One loop serves
//! the solve of a problem and the exact length of each defence in the main line.

use super::dfpn::Searcher;
use super::limits::KnownMate;
use super::value::Depth;
use crate::rules::{Move, MoveList, Position, generate_checks};

/// What lowering the length found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shortest {
    /// The shortest mate proven.
    pub(crate) len: u16,
    /// Whether no shorter mate exists (proven); false when a limit stopped the lowering or
    /// it gave up early (`too_short`).
    pub(crate) minimal: bool,
    /// Given up because a mate shorter than the caller's minimum was proven.
    pub(crate) too_short: bool,
}

/// A gap (plies between the proven length and the longest length known to have no mate)
/// beyond which the length is approached from below rather than lowered two plies at a time.
const DEEPEN_FROM_BELOW_GAP: i32 = 32;

impl Searcher {
    /// Lowers the length of `pos`, proven mated in `proven` plies (reached after the
    /// positions `ancestors`), until no mate exists within it; gives up as soon as a mate
    /// shorter than `min_plies` is proven. With `publish` (the solve's root), each shorter
    /// mate is published in the search's progress as it is proven.
    ///
    /// `lo` is the longest length proven to have no mate (−1: nothing known). Next to the
    /// proven length, one step of two plies at a time (the first search is usually right
    /// or nearly). Far from it (an unlimited search can prove a mate of thousands of plies
    /// through long checking tours, and deep depth-limited searches of such positions are
    /// hopeless), deepen from below instead: 1, 5, 13, 29, ... plies.
    pub(crate) fn shortest(
        &mut self,
        pos: &Position,
        proven: u16,
        ancestors: &[u64],
        min_plies: Option<u16>,
        publish: bool,
    ) -> Shortest {
        let mut best = proven;
        let mut lo: i32 = -1;
        let mut minimal = best <= 1;
        while !minimal {
            if min_plies.is_some_and(|m| best < m) {
                return Shortest {
                    len: best,
                    minimal: false,
                    too_short: true,
                };
            }
            let gap = best as i32 - lo;
            let depth = if gap > DEEPEN_FROM_BELOW_GAP {
                (2 * (lo + 1) + 1).min(best as i32 - 2) as u16
            } else {
                best - 2
            };
            self.set_node(pos.clone());
            let w = self.search(Depth::plies(depth), ancestors);
            if w.is_proven() {
                best = w.len.plies_of_finite();
                if publish {
                    self.publish_mate(best, false, w.best);
                }
            } else if w.is_disproven() && !self.stopped() {
                lo = depth as i32;
            } else {
                break;
            }
            minimal = best <= 1 || best as i32 <= lo + 2;
        }
        Shortest {
            len: best,
            minimal,
            too_short: false,
        }
    }
}

impl Searcher {
    /// Publishes a mate of the root in `plies` found with first move `best` (raw; left out
    /// when it is not a check of the root, as when no table entry kept it) in the search's
    /// progress, if it has one.
    pub(crate) fn publish_mate(&self, plies: u16, minimal: bool, best: u16) {
        let Some(p) = &self.limits.progress else {
            return;
        };
        // The nodes so far go with it, not those of the last 1024-node report.
        p.nodes
            .fetch_max(self.nodes, std::sync::atomic::Ordering::Relaxed);
        let first = Move::from_raw(best);
        let mut checks = MoveList::new();
        generate_checks(&self.pos, &mut checks);
        p.set_mate(KnownMate {
            plies,
            minimal,
            line: checks
                .contains(first)
                .then_some(first)
                .into_iter()
                .collect(),
        });
    }
}
