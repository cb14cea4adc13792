//! The checking moves: every legal move of the side to move that gives check, found from
//! the squares each kind would check the enemy phoenix from (and the lines a moving piece
//! uncovers), listed, counted or merely asked for.

use super::{
    Any, Counter, KingInfo, MoveSink, block_squares, drop_targets, phoenix_steps, promo_targets,
};
use crate::rules::attacks::{attacks, between, step_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::types::{Color, PieceKind, Square};

/// Per-kind squares from which a piece of the side to move would attack the enemy phoenix
/// on `e`: the reverse attacks, index [`PieceKind::index`]. The ranging kinds' (the quails
/// and the eagle, whose rays cost the most) only when the side to move has one to move or
/// drop; the others are a table lookup each.
#[inline]
fn check_squares(pos: &Position, e: Square) -> [Bitboard; 9] {
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = pos.occupied();
    let hand = pos.hand(us);
    let mut cs = [Bitboard::EMPTY; 9];
    for kind in PieceKind::ALL {
        let needed = match kind {
            PieceKind::Phoenix => false,
            PieceKind::LeftQuail | PieceKind::RightQuail => {
                hand.has(kind) || pos.pieces(us, kind).any()
            }
            PieceKind::Eagle => pos.pieces(us, kind).any(),
            _ => true,
        };
        if needed {
            cs[kind.index()] = attacks(them, kind, e, occ);
        }
    }
    cs
}

fn generate_checks_into<S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = us.flip();
    let Some(e) = pos.phoenix(them) else {
        return;
    };
    let own = pos.color_bb(us);
    let occ = pos.occupied();
    let info = KingInfo::new(pos);
    let (disc_blockers, snipers) = pos.slider_blockers(e, us);
    let discoverers = disc_blockers & own;
    // The line a discovering piece must leave to uncover its sniper.
    let disc_line = |from: Square| -> Bitboard {
        for s in snipers {
            let b = between(e, s);
            if b.has(from) {
                return b;
            }
        }
        Bitboard::EMPTY
    };
    if let Some(k) = info.king {
        if discoverers.has(k) {
            let t = phoenix_steps(pos, k, us, own, occ) - disc_line(k);
            sink.board(k, t, Bitboard::EMPTY);
        }
        if info.checkers.more_than_one() {
            return;
        }
    }
    let cs = check_squares(pos, e);
    let target = info.evasion_target(pos) - own;
    for kind in PieceKind::ALL {
        if kind == PieceKind::Phoenix {
            continue;
        }
        for from in pos.pieces(us, kind) {
            let t = info.unpinned(from, attacks(us, kind, from, occ) & target);
            if t.is_empty() {
                continue;
            }
            let promo = promo_targets(us, kind, from, t);
            let mut checks = match kind {
                // A falcon promoting to an eagle gains a ranging move straight back, which may
                // run through the square it just left: look with that square emptied.
                PieceKind::Falcon => {
                    let eagle = if promo.any() {
                        attacks(them, PieceKind::Eagle, e, occ ^ Bitboard::from_square(from))
                    } else {
                        Bitboard::EMPTY
                    };
                    (promo & eagle) | ((t - promo) & cs[kind.index()])
                }
                PieceKind::Swallow => {
                    (promo & cs[PieceKind::Goose.index()]) | ((t - promo) & cs[kind.index()])
                }
                _ => t & cs[kind.index()],
            };
            if discoverers.has(from) {
                checks |= t - disc_line(from);
            }
            sink.board(from, checks, promo & checks);
        }
    }
    let hand = pos.hand(us);
    if !hand.is_empty() {
        let drop_target = if info.checkers.any() {
            block_squares(pos, info.king.unwrap(), info.checkers.lsb())
        } else {
            !occ
        };
        for kind in hand.kinds() {
            let t = drop_target & cs[kind.index()];
            if t.any() {
                sink.drops(kind, drop_targets(pos, kind, t));
            }
        }
    }
}

/// The enemy phoenix's way out of a check, read before the check is made: which of its
/// steps no piece of the side to move attacks (ranging attacks pass through the phoenix's
/// square, as they would once it stepped off it). A mate-in-one test asks it, for each
/// check, whether the phoenix can still step out of that check; `true` is certain, `false`
/// says nothing (the move must then be made and looked at, [`super::check_answer`]).
///
/// Why `true` is certain: a check adds the attacks of the piece that gives it from its new
/// square, and takes away nothing the phoenix could step to but the squares its own side
/// occupies (which are no steps to begin with). A drop only blocks lines; a board move may
/// also open the lines through the square it leaves, which the ranging pieces' attacks are
/// computed again for. So a step free before the check and not attacked after it by the
/// moving piece or a reopened line stays free, and the phoenix steps there out of check
/// (a phoenix move is never pinned). A step onto the dropped or moved piece's square is
/// such a step when nothing else attacks that square.
pub struct Flights {
    us: Color,
    /// Occupied squares without the enemy phoenix.
    occ: Bitboard,
    /// The phoenix's steps (onto empty squares or the side to move's pieces) that no piece
    /// of the side to move attacks.
    free: Bitboard,
}

impl Flights {
    /// The enemy phoenix's free steps in `pos` (the side to move about to check); `None`
    /// when the enemy has no phoenix.
    pub fn new(pos: &Position) -> Option<Flights> {
        let us = pos.side_to_move();
        let them = us.flip();
        let k = pos.phoenix(them)?;
        let occ = pos.occupied() ^ Bitboard::from_square(k);
        let steps = step_attacks(them, PieceKind::Phoenix, k) - pos.color_bb(them);
        let free = steps - pos.attacked_squares(us, occ);
        Some(Flights { us, occ, free })
    }

    /// Whether the phoenix steps out of check after `m`, a legal check of the side to move
    /// in the position this was made for (certain when `true`; `false` says nothing).
    #[inline]
    pub fn escapes(&self, pos: &Position, m: Move) -> bool {
        if self.free.is_empty() {
            return false;
        }
        let to = Bitboard::from_square(m.to());
        if m.is_drop() {
            return (self.free - attacks(self.us, m.drop_kind(), m.to(), self.occ | to)).any();
        }
        let from = m.from();
        let Some(piece) = pos.piece_at(from) else {
            return false;
        };
        let kind = piece.kind.after_move(m.promotes());
        let occ = (self.occ ^ Bitboard::from_square(from)) | to;
        let mut left = self.free - attacks(self.us, kind, m.to(), occ);
        for k in [
            PieceKind::LeftQuail,
            PieceKind::RightQuail,
            PieceKind::Eagle,
        ] {
            for sq in pos.pieces(self.us, k) {
                if left.is_empty() {
                    return false;
                }
                if sq != from {
                    left -= attacks(self.us, k, sq, occ);
                }
            }
        }
        left.any()
    }
}

/// Every legal move of the side to move that gives check (drops included): the attacker's
/// moves in a mate search.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    generate_checks_into(pos, list);
}

/// The number of legal checking moves of the side to move, without listing them.
pub fn count_checks(pos: &Position) -> u32 {
    let mut c = Counter::default();
    generate_checks_into(pos, &mut c);
    c.0 as u32
}

/// Whether the side to move has any legal checking move.
pub fn has_check(pos: &Position) -> bool {
    let mut a = Any::default();
    generate_checks_into(pos, &mut a);
    a.0
}

/// Whether `m` (a legal move of the side to move) gives check.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.do_move(m);
    p.in_check()
}
