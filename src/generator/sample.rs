//! Candidate positions: random placement around the defender's phoenix, backward
//! construction from mate positions (un-making moves, at random or every way there is:
//! [`retractions`]), and mutation of problems already found. Every candidate is a legal
//! position with Black (the attacker, without a phoenix) to move; the defender's hand is
//! implied by the tsume convention ([`retractions`] spells it out).

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

/// Pieces of each hand kind not yet placed: the defender's hand under the tsume convention,
/// every hand kind not on the board nor in the attacker's hand; `None` when the board and
/// the attacker's hand hold too many.
fn rest_of(s: &Setup) -> Option<[u32; 6]> {
    let mut p = full_pool();
    for piece in s.board.iter().flatten() {
        if piece.kind != PieceKind::Phoenix {
            let i = piece.kind.unpromoted().index();
            p[i] = p[i].checked_sub(1)?;
        }
    }
    for k in PieceKind::HAND {
        let i = k.index();
        p[i] = p[i].checked_sub(s.hands[ATTACKER.index()][i])?;
    }
    Some(p)
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
            let pool = rest_of(&s)?;
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
                let pool = rest_of(&s)?;
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
                let pool = rest_of(&s)?;
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

/// `s` with `to_move` to move and the defender holding the rest, if that is legal.
fn legal_with_rest(s: &Setup, to_move: Color) -> Option<Position> {
    let mut s = s.clone();
    s.hands[DEFENDER.index()] = rest_of(&s)?;
    legal(&s, to_move)
}

/// The kinds a piece of `kind` had before a board move: itself, and its unpromoted kind
/// when it is promoted (the move may have promoted it).
fn kinds_before(kind: PieceKind) -> impl Iterator<Item = PieceKind> {
    std::iter::once(kind).chain(kind.is_promoted().then(|| kind.unpromoted()))
}

/// Every un-made move of `color` that leads to `after` (`color` just moved): the position
/// before, with the move, for each un-drop and each un-move (from every origin, with every
/// kind before, with nothing or any piece of the other side un-captured). The positions are
/// built with the defender holding the rest; whether the move was legal there is checked by
/// the caller.
fn unmoves(after: &Position, color: Color) -> Vec<(Setup, Move)> {
    let base = after.to_setup();
    let occ = after.occupied();
    let zone = promotion_zone(color);
    let mut out = Vec::new();
    for t in Square::all() {
        let Some(piece) = after.piece_at(t) else {
            continue;
        };
        if piece.color != color {
            continue;
        }
        if piece.kind.is_hand_kind() {
            let mut s = base.clone();
            s.board[t.index()] = None;
            if color == ATTACKER {
                s.hands[ATTACKER.index()][piece.kind.index()] += 1;
            }
            out.push((s, Move::drop(piece.kind, t)));
        }
        for before in kinds_before(piece.kind) {
            // The squares `before` reaches `t` from are those a piece of the other colour
            // reaches from `t` (the two sides' moves are each other's turned round).
            for y in attacks(color.flip(), before, t, occ) - occ {
                let promotes = before.promoted().is_some() && (zone.has(y) || zone.has(t));
                if promotes != (before != piece.kind) {
                    continue;
                }
                let mut s = base.clone();
                s.board[t.index()] = None;
                s.board[y.index()] = Some(Piece::new(color, before));
                let m = Move::normal(y, t, promotes);
                // Un-captures: the captured piece is in the mover's hand (the attacker's
                // as written; the defender's as the rest).
                for k in PieceKind::HAND {
                    let held = if color == ATTACKER {
                        s.hands[ATTACKER.index()][k.index()]
                    } else {
                        rest_of(&s).map_or(0, |r| r[k.index()])
                    };
                    if held == 0 {
                        continue;
                    }
                    for kind in kinds_before(k.promoted().unwrap_or(k)) {
                        let mut c = s.clone();
                        if color == ATTACKER {
                            c.hands[ATTACKER.index()][k.index()] -= 1;
                        }
                        c.board[t.index()] = Some(Piece::new(color.flip(), kind));
                        out.push((c, m));
                    }
                }
                out.push((s, m));
            }
        }
    }
    out
}

/// The position `s` with `side` to move (the defender holding the rest) when `m` is among
/// the moves `generate` gives there and leads to `after`.
fn undone(
    s: &Setup,
    side: Color,
    m: Move,
    generate: fn(&Position, &mut MoveList),
    after: &Position,
    list: &mut MoveList,
) -> Option<Position> {
    let before = legal_with_rest(s, side)?;
    list.clear();
    generate(&before, list);
    if !list.contains(m) {
        return None;
    }
    let mut played = before.clone();
    played.do_move(m);
    (played.key() == after.key()).then_some(before)
}

/// Every way to take back one move pair from `p` (attacker to move): the positions `a`,
/// attacker to move and the defender holding the rest, with a legal check and a legal
/// reply after it that lead from `a` to `p` (its defender holding the rest). Unlike
/// [`extend`]'s random draw it misses none: defender phoenix steps, other defender moves
/// and interposing drops, each with or without an un-capture, then the attacker's
/// un-drops and un-moves (discovered checks included, with or without an un-capture or an
/// un-promotion). Each position comes once.
pub fn retractions(p: &Position) -> Vec<Position> {
    let Some(target) = legal_with_rest(&p.to_setup(), ATTACKER) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for (s, reply) in unmoves(&target, DEFENDER) {
        let Some(d) = undone(&s, DEFENDER, reply, generate_legal, &target, &mut list) else {
            continue;
        };
        if !d.in_check() {
            continue;
        }
        for (s, m) in unmoves(&d, ATTACKER) {
            if let Some(a) = undone(&s, ATTACKER, m, generate_checks, &d, &mut list)
                && seen.insert(a.key())
            {
                out.push(a);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn with_rest(p: &Position) -> Position {
        legal_with_rest(&p.to_setup(), p.side_to_move()).unwrap()
    }

    /// Random positions (defender holding the rest), a random check and a random reply
    /// played: the position before is among the retractions of the one after, and every
    /// retraction leads to it by a check and a legal reply.
    #[test]
    fn retractions_find_the_position_before_and_only_true_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut played = 0;
        // How often the check captured, the reply captured, the reply was a drop.
        let mut kinds = [0; 3];
        let mut list = MoveList::new();
        while played < 60 || kinds.contains(&0) {
            let a = with_rest(&random_position(&mut rng));
            list.clear();
            generate_checks(&a, &mut list);
            if list.is_empty() {
                continue;
            }
            let check = list.as_slice()[rng.random_range(0..list.len())];
            let mut d = a.clone();
            d.do_move(check);
            list.clear();
            generate_legal(&d, &mut list);
            if list.is_empty() {
                continue;
            }
            let reply = list.as_slice()[rng.random_range(0..list.len())];
            kinds[0] += usize::from(a.piece_at(check.to()).is_some());
            kinds[1] += usize::from(d.piece_at(reply.to()).is_some());
            kinds[2] += usize::from(reply.is_drop());
            let mut p = d.clone();
            p.do_move(reply);
            let p = with_rest(&p);
            let back = retractions(&p);
            assert!(
                back.iter().any(|b| b.key() == a.key()),
                "{} after {} {} is not found from {}",
                crate::notation::sfen::write_sfen(&a),
                check.usi(),
                reply.usi(),
                crate::notation::sfen::write_sfen(&p)
            );
            for b in &back {
                let mut checks = MoveList::new();
                generate_checks(b, &mut checks);
                let leads = checks.iter().any(|&c| {
                    let mut d = b.clone();
                    d.do_move(c);
                    let mut replies = MoveList::new();
                    generate_legal(&d, &mut replies);
                    replies.iter().any(|&r| {
                        let mut q = d.clone();
                        q.do_move(r);
                        q.key() == p.key()
                    })
                });
                assert!(
                    leads,
                    "{} does not lead to {}",
                    crate::notation::sfen::write_sfen(b),
                    crate::notation::sfen::write_sfen(&p)
                );
            }
            played += 1;
        }
    }

    /// Worked by hand from RULES.md: White's phoenix alone on 1a, Black's crane on 1c,
    /// Black to move. White's last move was the phoenix's (no other white piece), out of a
    /// check, so it came from 1b, 2a or 2b; Black's move before gave that check. Three of
    /// the positions before: the phoenix on 1b and the crane moved 1d-1c, or dropped on
    /// 1c; the phoenix on 2b and the crane moved 2d-1c (a crane checks diagonally).
    #[test]
    fn a_lone_phoenix_came_from_a_neighbour() {
        let sfen = |p: &Position| crate::notation::sfen::write_sfen(p);
        let p = crate::notation::sfen::parse_sfen("6k/7/6C/7/7/7/7 b - 1").unwrap();
        let back = retractions(&p);
        let found: Vec<String> = back.iter().map(sfen).collect();
        for b in &back {
            let k = b.phoenix(DEFENDER).unwrap().to_string();
            assert!(["1b", "2a", "2b"].contains(&k.as_str()), "{}", sfen(b));
        }
        for want in [
            "7/6k/7/6C/7/7/7 b",
            "7/6k/7/7/7/7/7 b C",
            "7/5k1/7/5C1/7/7/7 b",
        ] {
            assert!(
                found.iter().any(|f| f.starts_with(want)),
                "{want} missing from {found:?}"
            );
        }
    }
}
