//! Perft: the number of legal move paths of a given depth, the standard check of a move
//! generator against an independent engine (shared/reference/perft.tsv). The last ply is
//! counted in bulk; the root moves can be split over threads.

use super::movegen::{count_legal, generate_legal};
use super::moves::{Move, MoveList};
use super::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of legal move paths of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos),
        _ => {
            let mut list = MoveList::new();
            generate_legal(pos, &mut list);
            let mut n = 0;
            for &m in list.iter() {
                let c = pos.do_move(m);
                n += perft(pos, depth - 1);
                pos.undo_move(m, c);
            }
            n
        }
    }
}

/// The count below each root move (`depth` ≥ 1), in generation order, computed on the
/// current rayon pool.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.as_slice()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.do_move(m);
            (m, perft(&mut p, depth.saturating_sub(1)))
        })
        .collect()
}

/// [`perft`] with the root moves split over the current rayon pool.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(&mut pos.clone(), depth);
    }
    perft_divide(pos, depth).iter().map(|&(_, n)| n).sum()
}

/// [`perft`] that gives up, `None`, once `stop` is raised: looked at in every node above the
/// last two plies, so that a deep count stops within a fraction of a second.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut n = 0;
    for &m in list.iter() {
        let c = pos.do_move(m);
        let below = perft_until(pos, depth - 1, stop);
        pos.undo_move(m, c);
        n += below?;
    }
    Some(n)
}

/// [`perft_divide`] that gives up, `None`, once `stop` is raised ([`perft_until`]).
pub fn perft_divide_until(
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.as_slice()
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.do_move(m);
            perft_until(&mut p, depth.saturating_sub(1), stop).map(|n| (m, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_that_may_stop_counts_the_same_and_stops_when_asked() {
        let start = Position::startpos();
        let go = AtomicBool::new(false);
        for depth in 1..=4 {
            assert_eq!(
                perft_until(&mut start.clone(), depth, &go),
                Some(perft(&mut start.clone(), depth))
            );
        }
        let divided = perft_divide_until(&start, 3, &go).unwrap();
        assert_eq!(divided, perft_divide(&start, 3));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&mut start.clone(), 30, &stopped), None);
        assert_eq!(perft_divide_until(&start, 30, &stopped), None);
    }
}
