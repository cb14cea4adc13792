//! Perft: the number of legal move paths of a given depth, the standard check of a move
//! generator against an independent engine (shared/reference/perft.tsv). The last ply is
//! counted in bulk; the root moves can be split over threads.

use super::movegen::{count_legal, generate_legal};
use super::moves::{Move, MoveList};
use super::position::Position;
use rayon::prelude::*;

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
