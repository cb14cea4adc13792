//! Move generation: every legal move, only the legal checking moves (the attacker's moves in
//! a mate search), and the legal replies to a check (the defender's), all from one core so
//! that they cannot disagree.
//!
//! Moves are handed to a [`MoveSink`] a piece at a time as destination bitboards. A
//! [`MoveList`] sink expands them into moves; the [`count_legal`] sink only counts bits,
//! which is what makes bulk-counting perft fast. Legality is decided while generating (pins,
//! checkers, interposition squares), never by playing a move and looking.
//!
//! Rules applied here (docs/RULES.md): forced promotion into, within and out of the zone; drops on
//! empty squares only; no swallow drop on the last rank or on a file with two unpromoted
//! swallows of the dropper; no swallow drop that mates; no move leaving one's own phoenix in
//! check.

mod checks;

pub use checks::{Flights, count_checks, generate_checks, gives_check, has_check};

use super::attacks::{attacks, between, last_rank, promotion_zone, step_attacks};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::types::{Color, PieceKind, Square};

/// Receives generated moves, a piece (or a dropped kind) at a time.
pub trait MoveSink {
    /// Moves of the piece on `from` to every square of `targets`; those in `promo` promote.
    fn board(&mut self, from: Square, targets: Bitboard, promo: Bitboard);
    /// Drops of `kind` on every square of `targets`.
    fn drops(&mut self, kind: PieceKind, targets: Bitboard);
    /// Whether generation may stop early (the sink has what it needs).
    #[inline]
    fn satisfied(&self) -> bool {
        false
    }
    /// Whether one move is all the sink needs: the phoenix's steps are then tested one
    /// square at a time and stop at the first safe one.
    const ONE: bool = false;
}

impl MoveSink for MoveList {
    #[inline]
    fn board(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to, promo.has(to)));
        }
    }
    #[inline]
    fn drops(&mut self, kind: PieceKind, targets: Bitboard) {
        for to in targets {
            self.push(Move::drop(kind, to));
        }
    }
}

/// Counts moves without listing them.
#[derive(Default)]
struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn board(&mut self, _from: Square, targets: Bitboard, _promo: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn drops(&mut self, _kind: PieceKind, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// Notes whether any move exists, and stops at the first.
#[derive(Default)]
struct Any(bool);

impl MoveSink for Any {
    #[inline]
    fn board(&mut self, _from: Square, targets: Bitboard, _promo: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn drops(&mut self, _kind: PieceKind, targets: Bitboard) {
        self.0 |= targets.any();
    }
    #[inline]
    fn satisfied(&self) -> bool {
        self.0
    }
    const ONE: bool = true;
}

/// What the replies to a check amount to, without listing them: the df-pn+ estimate of a
/// defender node needs only these ([`evasion_summary`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EvasionSummary {
    /// Board moves (phoenix steps and captures or interpositions by a board piece).
    pub board_moves: u32,
    /// Every square some drop may land on.
    pub drop_squares: Bitboard,
    /// Every square some reply lands on.
    pub destinations: Bitboard,
    /// Board moves onto the squares watched ([`evasion_summary`]'s `watch`; the square of
    /// the piece that gave check: its captures).
    pub onto_watched: u32,
    /// The squares watched.
    watch: Bitboard,
}

impl EvasionSummary {
    /// Whether there is no reply: mate.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.board_moves == 0 && self.drop_squares.is_empty()
    }

    /// Replies counted as ideas: each board move one, the drops on one square one together.
    #[inline]
    pub fn ideas(&self) -> u32 {
        self.board_moves + self.drop_squares.count()
    }
}

impl MoveSink for EvasionSummary {
    #[inline]
    fn board(&mut self, _from: Square, targets: Bitboard, _promo: Bitboard) {
        self.board_moves += targets.count();
        self.destinations |= targets;
        self.onto_watched += (targets & self.watch).count();
    }
    #[inline]
    fn drops(&mut self, _kind: PieceKind, targets: Bitboard) {
        self.drop_squares |= targets;
        self.destinations |= targets;
    }
}

/// The side to move's phoenix and what constrains its moves: checkers, pinned pieces and
/// the pieces pinning them.
#[derive(Copy, Clone, Debug)]
pub struct KingInfo {
    /// The phoenix of the side to move, if on the board.
    pub king: Option<Square>,
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Own pieces that may move only along their pin line.
    pub pinned: Bitboard,
    /// Enemy ranging pieces pinning them.
    pub pinners: Bitboard,
}

impl KingInfo {
    /// Computes the constraints on the side to move.
    #[inline]
    pub fn new(pos: &Position) -> KingInfo {
        let us = pos.side_to_move();
        match pos.phoenix(us) {
            None => KingInfo {
                king: None,
                checkers: Bitboard::EMPTY,
                pinned: Bitboard::EMPTY,
                pinners: Bitboard::EMPTY,
            },
            Some(k) => {
                let them = us.flip();
                let checkers = pos.attackers_to(k, them, pos.occupied());
                let (blockers, pinners) = pos.slider_blockers(k, them);
                KingInfo {
                    king: Some(k),
                    checkers,
                    pinned: blockers & pos.color_bb(us),
                    pinners,
                }
            }
        }
    }

    /// The squares a pinned piece on `from` may move to (its line to the pinner, the pinner
    /// included).
    #[inline]
    pub fn pin_ray(&self, from: Square) -> Bitboard {
        let k = self.king.expect("a pinned piece implies a phoenix");
        for p in self.pinners {
            let b = between(k, p);
            if b.has(from) {
                return b | Bitboard::from_square(p);
            }
        }
        Bitboard::FULL
    }

    /// The squares of `targets` a non-phoenix piece on `from` may move to: all of them, or
    /// those on its pin line when it is pinned.
    #[inline]
    pub fn unpinned(&self, from: Square, targets: Bitboard) -> Bitboard {
        if self.pinned.has(from) {
            targets & self.pin_ray(from)
        } else {
            targets
        }
    }

    /// Squares a non-phoenix move must land on to answer the check (the checker, or a square
    /// between it and the phoenix when it is a ranging piece), for a single check; every
    /// square when not in check; none in double check.
    #[inline]
    pub fn evasion_target(&self, pos: &Position) -> Bitboard {
        if self.checkers.is_empty() {
            return Bitboard::FULL;
        }
        if self.checkers.more_than_one() {
            return Bitboard::EMPTY;
        }
        let c = self.checkers.lsb();
        block_squares(pos, self.king.expect("checked phoenix"), c) | self.checkers
    }
}

/// Squares where a piece interposes between the phoenix on `k` and checker `c`: those between
/// them when the checker ranges, none for a stepping or jumping checker.
#[inline]
fn block_squares(pos: &Position, k: Square, c: Square) -> Bitboard {
    match pos.piece_at(c) {
        Some(p) if p.kind.is_slider() => between(k, c),
        _ => Bitboard::EMPTY,
    }
}

/// The interposition squares against the check on the side to move, with the checker: the
/// squares between the phoenix and a single ranging checker. `None` when not in check, in
/// double check, or checked by a stepping or jumping piece.
pub fn interposition(pos: &Position) -> Option<(Bitboard, Square)> {
    let k = pos.phoenix(pos.side_to_move())?;
    let checkers = pos.checkers();
    let c = checkers.single()?;
    if checkers.more_than_one() {
        return None;
    }
    let b = block_squares(pos, k, c);
    b.any().then_some((b, c))
}

/// Files on which `c` already has two unpromoted swallows (no third may be dropped there).
#[inline]
pub fn full_swallow_files(pos: &Position, c: Color) -> Bitboard {
    let mut once = Bitboard::EMPTY;
    let mut twice = Bitboard::EMPTY;
    for sq in pos.pieces(c, PieceKind::Swallow) {
        let file = Bitboard::col(sq.col());
        if (once & file).any() {
            twice |= file;
        }
        once |= file;
    }
    twice
}

/// Whether a swallow of the side to move dropped on `s` (empty, in front of the enemy
/// phoenix) would mate: the enemy phoenix could neither step out of check nor have the
/// swallow captured (docs/RULES.md "Drops", rule 3). Decided without playing the drop.
pub fn swallow_drop_mates(pos: &Position, s: Square) -> bool {
    let us = pos.side_to_move();
    let them = us.flip();
    let Some(e) = pos.phoenix(them) else {
        return false;
    };
    let occ = pos.occupied() | Bitboard::from_square(s);
    let e_bb = Bitboard::from_square(e);
    // Phoenix steps (capturing the swallow included). The new swallow attacks only the
    // phoenix's own square, so the board's attackers are the whole story.
    for to in step_attacks(them, PieceKind::Phoenix, e) - pos.color_bb(them) {
        if !pos.is_attacked(to, us, occ ^ e_bb) {
            return false;
        }
    }
    // Another piece capturing the swallow, if not pinned away from it.
    let capturers = pos.attackers_to(s, them, occ) - e_bb;
    if capturers.any() {
        let (blockers, pinners) = pos.slider_blockers_with(e, us, occ);
        for a in capturers {
            if !blockers.has(a) {
                return false;
            }
            for p in pinners {
                let line = between(e, p) | Bitboard::from_square(p);
                if line.has(a) && line.has(s) {
                    return false;
                }
            }
        }
    }
    true
}

#[inline]
fn promo_targets(us: Color, kind: PieceKind, from: Square, targets: Bitboard) -> Bitboard {
    if kind.promoted().is_none() {
        return Bitboard::EMPTY;
    }
    let zone = promotion_zone(us);
    if zone.has(from) {
        targets
    } else {
        targets & zone
    }
}

/// Legal drop destinations of `kind` for the side to move within `allowed` (empty squares the
/// caller has already restricted), swallow rules applied.
#[inline]
fn drop_targets(pos: &Position, kind: PieceKind, allowed: Bitboard) -> Bitboard {
    if kind != PieceKind::Swallow {
        return allowed;
    }
    let us = pos.side_to_move();
    let mut t = allowed - last_rank(us) - full_swallow_files(pos, us);
    if let Some(e) = pos.phoenix(us.flip()) {
        // The one square where a swallow would give check: in front of the enemy phoenix.
        let front = step_attacks(us.flip(), PieceKind::Swallow, e);
        if (t & front).any() && swallow_drop_mates(pos, front.lsb()) {
            t -= front;
        }
    }
    t
}

/// The squares the phoenix of `us` on `k` may step to. With few enemy pieces (a mate
/// problem's attacker) one attack map is cheaper than asking square by square.
#[inline]
fn phoenix_steps(pos: &Position, k: Square, us: Color, own: Bitboard, occ: Bitboard) -> Bitboard {
    let them = us.flip();
    let mut t = step_attacks(us, PieceKind::Phoenix, k) - own;
    let without_king = occ ^ Bitboard::from_square(k);
    if pos.color_bb(them).count() <= 6 {
        t - pos.attacked_squares(them, without_king)
    } else {
        for to in t {
            if pos.is_attacked(to, them, without_king) {
                t ^= Bitboard::from_square(to);
            }
        }
        t
    }
}

/// Squares the phoenix of `us` on `k` may step to, empty only when it has none: as
/// [`phoenix_steps`], but testing square by square stops at the first safe one.
#[inline]
fn first_phoenix_step(
    pos: &Position,
    k: Square,
    us: Color,
    own: Bitboard,
    occ: Bitboard,
) -> Bitboard {
    let them = us.flip();
    let t = step_attacks(us, PieceKind::Phoenix, k) - own;
    let without_king = occ ^ Bitboard::from_square(k);
    if pos.color_bb(them).count() <= 6 {
        t - pos.attacked_squares(them, without_king)
    } else {
        for to in t {
            if !pos.is_attacked(to, them, without_king) {
                return Bitboard::from_square(to);
            }
        }
        Bitboard::EMPTY
    }
}

/// The core: every legal move (in check: every evasion) into `sink`.
fn generate<S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let own = pos.color_bb(us);
    let occ = pos.occupied();
    let info = KingInfo::new(pos);
    if let Some(k) = info.king {
        let t = if S::ONE {
            first_phoenix_step(pos, k, us, own, occ)
        } else {
            phoenix_steps(pos, k, us, own, occ)
        };
        sink.board(k, t, Bitboard::EMPTY);
        if info.checkers.more_than_one() || sink.satisfied() {
            return;
        }
    }
    let target = info.evasion_target(pos) - own;
    let drop_target = if info.checkers.any() {
        block_squares(pos, info.king.unwrap(), info.checkers.lsb())
    } else {
        !occ
    };
    piece_moves(pos, &info, sink, target, drop_target);
}

/// The moves of the pieces other than the phoenix onto `target`, and the drops onto
/// `drop_target`, into `sink` ([`generate`]'s second half).
#[inline]
fn piece_moves<S: MoveSink>(
    pos: &Position,
    info: &KingInfo,
    sink: &mut S,
    target: Bitboard,
    drop_target: Bitboard,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    for kind in PieceKind::ALL {
        if kind == PieceKind::Phoenix {
            continue;
        }
        for from in pos.pieces(us, kind) {
            let t = info.unpinned(from, attacks(us, kind, from, occ) & target);
            sink.board(from, t, promo_targets(us, kind, from, t));
        }
        if sink.satisfied() {
            return;
        }
    }
    let hand = pos.hand(us);
    if !hand.is_empty() && drop_target.any() {
        for kind in hand.kinds() {
            sink.drops(kind, drop_targets(pos, kind, drop_target));
        }
    }
}

/// How the side to move can answer a check, as far as a mate-in-one test needs to know
/// ([`check_answer`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckAnswer {
    /// No legal move.
    Nothing,
    /// Interpositions between the phoenix and a single ranging checker, and nothing else:
    /// a mate unless one lasts, which the useless-interposition rule may set aside.
    OnlyInterpositions,
    /// A move that is not such an interposition.
    Other,
}

/// How the side to move can answer the check it is in, found with one look at the checkers
/// and stopping at the first move that settles it (a phoenix step, then a capture of the
/// checker, then an interposition). Not in check, [`CheckAnswer::Other`] when any move
/// exists. [`CheckAnswer::OnlyInterpositions`] means a mate unless an interposition lasts,
/// which the useless-interposition rule may set aside (docs/RULES.md "Useless
/// interposition").
pub fn check_answer(pos: &Position) -> CheckAnswer {
    let us = pos.side_to_move();
    let own = pos.color_bb(us);
    let occ = pos.occupied();
    let info = KingInfo::new(pos);
    let Some(k) = info.king.filter(|_| info.checkers.any()) else {
        return if has_legal_move(pos) {
            CheckAnswer::Other
        } else {
            CheckAnswer::Nothing
        };
    };
    if first_phoenix_step(pos, k, us, own, occ).any() {
        return CheckAnswer::Other;
    }
    if info.checkers.more_than_one() {
        return CheckAnswer::Nothing;
    }
    let c = info.checkers.lsb();
    let mut capture = Any::default();
    piece_moves(pos, &info, &mut capture, info.checkers, Bitboard::EMPTY);
    if capture.0 {
        return CheckAnswer::Other;
    }
    let block = block_squares(pos, k, c);
    if block.is_empty() {
        return CheckAnswer::Nothing;
    }
    let mut interpose = Any::default();
    piece_moves(pos, &info, &mut interpose, block, block);
    if interpose.0 {
        CheckAnswer::OnlyInterpositions
    } else {
        CheckAnswer::Nothing
    }
}

/// Every legal move of the side to move, appended to `list`.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    generate(pos, list);
}

/// Every legal reply to a check (the side to move must be in check): phoenix moves, captures
/// of the checker and interpositions, drops included.
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    generate(pos, list);
}

/// The replies to a check (the side to move must be in check), summed up without listing them,
/// the board moves onto the squares `watch` counted apart.
pub fn evasion_summary(pos: &Position, watch: Bitboard) -> EvasionSummary {
    debug_assert!(pos.in_check());
    let mut s = EvasionSummary {
        watch,
        ..EvasionSummary::default()
    };
    generate(pos, &mut s);
    s
}

/// The number of legal moves (perft's last ply), without listing them.
pub fn count_legal(pos: &Position) -> u64 {
    let mut c = Counter::default();
    generate(pos, &mut c);
    c.0
}

/// Whether the side to move has any legal move (so, in check, whether it is not mated).
pub fn has_legal_move(pos: &Position) -> bool {
    let mut a = Any::default();
    generate(pos, &mut a);
    a.0
}

/// Whether the side to move is checkmated.
pub fn is_checkmate(pos: &Position) -> bool {
    pos.in_check() && !has_legal_move(pos)
}

/// The legal move written `m` if it is legal in `pos`.
pub fn find_legal(pos: &Position, m: Move) -> Option<Move> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list.iter().copied().find(|&x| x == m)
}
