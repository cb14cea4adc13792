//! Candidate positions: random placement around the defender's phoenix, backward
//! construction from mate positions (un-making moves), and mutation of problems already
//! found. Every candidate is a legal position with Black (the attacker, without a phoenix)
//! to move; the defender's hand is implied by the tsume convention.

use crate::rules::attacks::{attacks, promotion_zone};
use crate::rules::{
    Color, Move, MoveList, Piece, PieceKind, Position, Setup, Square, generate_checks,
    generate_legal, is_checkmate,
};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

const ATTACKER: Color = Color::Black;
const DEFENDER: Color = Color::White;

/// Weighted choice of a kind, from those still available in `pool` (counts per hand kind).
fn pick_kind(rng: &mut ChaCha8Rng, pool: &[u32; 6], weights: &[u32; 6]) -> Option<PieceKind> {
    let total: u32 = (0..6)
        .map(|i| if pool[i] > 0 { weights[i] } else { 0 })
        .sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for i in 0..6 {
        if pool[i] == 0 {
            continue;
        }
        if x < weights[i] {
            return Some(PieceKind::HAND[i]);
        }
        x -= weights[i];
    }
    None
}

/// Pieces of each hand kind not yet placed.
fn full_pool() -> [u32; 6] {
    let mut p = [0u32; 6];
    for k in PieceKind::HAND {
        p[k.index()] = k.total() as u32;
    }
    p
}

fn pool_of(setup: &Setup) -> [u32; 6] {
    let mut p = full_pool();
    for piece in setup.board.iter().flatten() {
        if piece.kind != PieceKind::Phoenix {
            p[piece.kind.unpromoted().index()] -= 1;
        }
    }
    for k in PieceKind::HAND {
        p[k.index()] -= setup.hands[ATTACKER.index()][k.index()];
    }
    p
}

/// An empty square within Chebyshev distance `radius` of `center`, if the draw finds one.
fn near(rng: &mut ChaCha8Rng, setup: &Setup, center: Square, radius: i8) -> Option<Square> {
    for _ in 0..8 {
        let r = center.row() as i8 + rng.random_range(-radius..=radius);
        let c = center.col() as i8 + rng.random_range(-radius..=radius);
        if let Some(sq) = Square::from_row_col(r as u8, c as u8)
            && (0..7).contains(&r)
            && (0..7).contains(&c)
            && setup.board[sq.index()].is_none()
        {
            return Some(sq);
        }
    }
    None
}

// Weights in `PieceKind::HAND` order: swallow, pheasant, crane, left quail, right quail,
// falcon.
const DEFENDER_WEIGHTS: [u32; 6] = [6, 3, 3, 1, 1, 1];
const ATTACKER_WEIGHTS: [u32; 6] = [3, 3, 4, 3, 3, 3];
const HAND_WEIGHTS: [u32; 6] = [4, 3, 4, 2, 2, 3];

/// Random placement: the defender's phoenix on its first ranks, up to three defender pieces
/// next to it, one to four attacker pieces within three squares, up to three pieces in the
/// attacker's hand.
pub fn random_position(rng: &mut ChaCha8Rng) -> Position {
    loop {
        let mut s = Setup::default();
        let row = match rng.random_range(0..20) {
            0..11 => 0,
            11..18 => 1,
            _ => 2,
        };
        let k = Square::from_row_col(row, rng.random_range(0..7)).unwrap();
        s.board[k.index()] = Some(Piece::new(DEFENDER, PieceKind::Phoenix));
        let mut pool = full_pool();
        let defenders = [0, 0, 1, 1, 1, 2, 2, 3][rng.random_range(0..8)];
        for _ in 0..defenders {
            if let (Some(sq), Some(kind)) = (
                near(rng, &s, k, 1),
                pick_kind(rng, &pool, &DEFENDER_WEIGHTS),
            ) {
                pool[kind.index()] -= 1;
                let kind = maybe_promote(rng, kind, 0.15);
                s.board[sq.index()] = Some(Piece::new(DEFENDER, kind));
            }
        }
        let attackers = rng.random_range(1..=4);
        for _ in 0..attackers {
            let radius = rng.random_range(1..=3);
            if let (Some(sq), Some(kind)) = (
                near(rng, &s, k, radius),
                pick_kind(rng, &pool, &ATTACKER_WEIGHTS),
            ) {
                pool[kind.index()] -= 1;
                let kind = maybe_promote(rng, kind, 0.3);
                s.board[sq.index()] = Some(Piece::new(ATTACKER, kind));
            }
        }
        let in_hand = [0, 1, 1, 2, 2, 2, 3, 3][rng.random_range(0..8)];
        for _ in 0..in_hand {
            if let Some(kind) = pick_kind(rng, &pool, &HAND_WEIGHTS) {
                pool[kind.index()] -= 1;
                s.hands[ATTACKER.index()][kind.index()] += 1;
            }
        }
        if let Ok(p) = Position::from_setup(&s) {
            return p;
        }
    }
}

fn maybe_promote(rng: &mut ChaCha8Rng, kind: PieceKind, p: f64) -> PieceKind {
    match kind.promoted() {
        Some(q) if rng.random_bool(p) => q,
        _ => kind,
    }
}

/// Builds a legal position from `s` with `to_move` to move (the defender must keep its
/// phoenix; the attacker has none).
fn legal(s: &Setup, to_move: Color) -> Option<Position> {
    let mut s = s.clone();
    s.side = to_move;
    Position::from_setup_with_defender(&s, DEFENDER).ok()
}

/// A mate-in-1 problem found from random placements: the attacker's position before a
/// mating check.
pub fn mate_in_one(rng: &mut ChaCha8Rng) -> Position {
    loop {
        let p = random_position(rng);
        let mut checks = MoveList::new();
        generate_checks(&p, &mut checks);
        let mut mates = Vec::new();
        for &m in checks.iter() {
            let mut q = p.clone();
            q.do_move(m);
            if is_checkmate(&q) {
                mates.push(m);
            }
        }
        if !mates.is_empty() {
            return p;
        }
    }
}

/// Takes back the defender's last move of `p` (attacker to move): a phoenix step (perhaps
/// capturing an attacker piece), a piece step, or an interposing drop. The result has the
/// defender to move, in check, with that move legal.
fn retract_defender(rng: &mut ChaCha8Rng, p: &Position) -> Option<Position> {
    let k = p.phoenix(DEFENDER)?;
    let mut s = p.to_setup();
    let choice = rng.random_range(0..10);
    let undone: Move;
    if choice < 7 {
        // Phoenix step from an adjacent square.
        let from = near(rng, &s, k, 1)?;
        s.board[k.index()] = None;
        s.board[from.index()] = Some(Piece::new(DEFENDER, PieceKind::Phoenix));
        undone = Move::normal(from, k, false);
        if rng.random_bool(0.25) {
            // It captured an attacker piece.
            let pool = pool_of(&s);
            let kind = pick_kind(rng, &pool, &ATTACKER_WEIGHTS)?;
            s.board[k.index()] = Some(Piece::new(ATTACKER, kind));
        }
    } else {
        // A defender piece that was dropped (interposition or capture-guard): take it back.
        let pieces: Vec<Square> = Square::all()
            .filter(|&q| {
                p.piece_at(q)
                    .is_some_and(|x| x.color == DEFENDER && x.kind.is_hand_kind())
            })
            .collect();
        if pieces.is_empty() {
            return None;
        }
        let q = pieces[rng.random_range(0..pieces.len())];
        let kind = p.piece_at(q)?.kind;
        s.board[q.index()] = None;
        undone = Move::drop(kind, q);
    }
    let d = legal(&s, DEFENDER)?;
    if !d.in_check() {
        return None;
    }
    let mut l = MoveList::new();
    generate_legal(&d, &mut l);
    l.contains(undone).then_some(d)
}

/// Takes back the attacker's last move of `d` (defender to move, in check): the checking
/// piece is un-dropped or moved back (perhaps un-capturing, perhaps un-promoting). The
/// result has the attacker to move, with that move a legal check.
fn retract_attacker(rng: &mut ChaCha8Rng, d: &Position) -> Option<Position> {
    let checkers = d.checkers();
    let x = checkers.single()?;
    let piece = d.piece_at(x)?;
    let mut s = d.to_setup();
    s.board[x.index()] = None;
    let undone: Move;
    if piece.kind.is_hand_kind() && rng.random_bool(0.4) {
        s.hands[ATTACKER.index()][piece.kind.index()] += 1;
        undone = Move::drop(piece.kind, x);
    } else {
        // The kind before the move: unpromoted if the move could have promoted it.
        let before = if piece.kind.is_promoted() && rng.random_bool(0.5) {
            piece.kind.unpromoted()
        } else {
            piece.kind
        };
        let occ = d.occupied();
        let origins: Vec<Square> = (attacks(DEFENDER, before, x, occ) - occ)
            .into_iter()
            .collect();
        if origins.is_empty() {
            return None;
        }
        let y = origins[rng.random_range(0..origins.len())];
        let zone = promotion_zone(ATTACKER);
        let promotes = before.promoted().is_some() && (zone.has(y) || zone.has(x));
        if promotes != (before != piece.kind) {
            return None;
        }
        s.board[y.index()] = Some(Piece::new(ATTACKER, before));
        undone = Move::normal(y, x, promotes);
        if rng.random_bool(0.3) {
            // It captured a defender piece, now in the attacker's hand.
            let held: Vec<PieceKind> = PieceKind::HAND
                .into_iter()
                .filter(|k| s.hands[ATTACKER.index()][k.index()] > 0)
                .collect();
            if !held.is_empty() {
                let k = held[rng.random_range(0..held.len())];
                s.hands[ATTACKER.index()][k.index()] -= 1;
                s.board[x.index()] = Some(Piece::new(DEFENDER, maybe_promote(rng, k, 0.1)));
            }
        }
    }
    let a = legal(&s, ATTACKER)?;
    let mut l = MoveList::new();
    generate_checks(&a, &mut l);
    l.contains(undone).then_some(a)
}

/// Backward construction: a mate-in-1 problem with `pairs` defender/attacker move pairs
/// taken back (fewer when a retraction fails repeatedly).
pub fn backward(rng: &mut ChaCha8Rng, pairs: usize) -> Position {
    let mut p = mate_in_one(rng);
    for _ in 0..pairs {
        match extend(rng, &p, 1) {
            Some(a) => p = a,
            None => break,
        }
    }
    p
}

/// `p` (a mate) with `pairs` defender/attacker move pairs taken back, if the retractions
/// succeed.
pub fn extend(rng: &mut ChaCha8Rng, p: &Position, pairs: usize) -> Option<Position> {
    let mut p = p.clone();
    for _ in 0..pairs {
        let mut next = None;
        for _ in 0..30 {
            if let Some(d) = retract_defender(rng, &p)
                && let Some(a) = retract_attacker(rng, &d)
            {
                next = Some(a);
                break;
            }
        }
        p = next?;
    }
    Some(p)
}

/// A mutation of `p`: a piece moved, added or removed, or the attacker's hand changed.
pub fn mutate(rng: &mut ChaCha8Rng, p: &Position) -> Option<Position> {
    let mut s = p.to_setup();
    let k = p.phoenix(DEFENDER)?;
    let pieces: Vec<Square> = Square::all()
        .filter(|&q| p.piece_at(q).is_some_and(|x| x.kind != PieceKind::Phoenix))
        .collect();
    for _ in 0..rng.random_range(1..=2) {
        match rng.random_range(0..5) {
            0 | 1 if !pieces.is_empty() => {
                let from = pieces[rng.random_range(0..pieces.len())];
                let to = near(rng, &s, k, 2)?;
                s.board[to.index()] = s.board[from.index()].take();
            }
            2 => {
                let pool = pool_of(&s);
                let kind = pick_kind(rng, &pool, &ATTACKER_WEIGHTS)?;
                let to = near(rng, &s, k, 2)?;
                let color = if rng.random_bool(0.6) {
                    ATTACKER
                } else {
                    DEFENDER
                };
                s.board[to.index()] = Some(Piece::new(color, maybe_promote(rng, kind, 0.2)));
            }
            3 if !pieces.is_empty() => {
                let q = pieces[rng.random_range(0..pieces.len())];
                s.board[q.index()] = None;
            }
            _ => {
                let pool = pool_of(&s);
                let held: Vec<PieceKind> = PieceKind::HAND
                    .into_iter()
                    .filter(|k| s.hands[ATTACKER.index()][k.index()] > 0)
                    .collect();
                if !held.is_empty() && rng.random_bool(0.5) {
                    let kind = held[rng.random_range(0..held.len())];
                    s.hands[ATTACKER.index()][kind.index()] -= 1;
                } else if let Some(kind) = pick_kind(rng, &pool, &HAND_WEIGHTS) {
                    s.hands[ATTACKER.index()][kind.index()] += 1;
                }
            }
        }
    }
    s.side = ATTACKER;
    Position::from_setup(&s).ok()
}
