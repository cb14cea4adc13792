//! [`Position`]: a validated game position (board, both hands, side to move) with
//! incremental Zobrist keys and make/unmake, attack queries and move effects. How one is
//! built from its parts and checked ([`Setup`], [`PositionError`]) is in `setup`.

use super::attacks::{Dir, attacks, promotion_zone, ray_attacks, short_ray_attacks, step_attacks};
use super::bitboard::Bitboard;
use super::hand::Hand;
use super::moves::Move;
use super::types::{Color, Piece, PieceKind, Square};
use super::zobrist;

mod setup;

pub use setup::{PositionError, Setup};

/// What a move took off the board, needed to take the move back.
pub type Captured = Option<PieceKind>;

/// A legal position: board, hands, side to move, and the keys kept up to date by
/// [`Position::do_move`] / [`Position::undo_move`].
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 49],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 9],
    hands: [Hand; 2],
    side: Color,
    board_key: u64,
    hand_key: u64,
    move_number: u32,
}

impl Position {
    fn empty(side: Color) -> Position {
        Position {
            board: [None; 49],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 9],
            hands: [Hand::EMPTY; 2],
            side,
            board_key: if side == Color::White {
                zobrist::side_key()
            } else {
                0
            },
            hand_key: 0,
            move_number: 1,
        }
    }

    /// The start position of an ordinary game (docs/RULES.md "Start position").
    pub fn startpos() -> Position {
        Position::from_setup(&Setup::startpos()).expect("the start position is valid")
    }

    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        self.put_with::<true>(p, sq);
    }

    /// [`Position::put`], the keys kept up to date only when `KEYS`.
    #[inline]
    fn put_with<const KEYS: bool>(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(p);
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        if KEYS {
            self.board_key ^= zobrist::piece_key(p, sq);
        }
    }

    /// Takes the piece off `sq` (there must be one), the keys kept up to date only when
    /// `KEYS`.
    #[inline]
    fn remove_with<const KEYS: bool>(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()].take().expect("a piece to remove");
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        if KEYS {
            self.board_key ^= zobrist::piece_key(p, sq);
        }
        p
    }

    #[inline]
    fn hand_add(&mut self, c: Color, k: PieceKind) {
        self.hand_add_with::<true>(c, k);
    }

    /// [`Position::hand_add`], the keys kept up to date only when `KEYS`.
    #[inline]
    fn hand_add_with<const KEYS: bool>(&mut self, c: Color, k: PieceKind) {
        if KEYS {
            let n = self.hands[c.index()].count(k);
            self.hand_key ^= zobrist::hand_key(c, k, n) ^ zobrist::hand_key(c, k, n + 1);
        }
        self.hands[c.index()].add(k);
    }

    #[inline]
    fn hand_remove(&mut self, c: Color, k: PieceKind) {
        self.hand_remove_with::<true>(c, k);
    }

    /// [`Position::hand_remove`], the keys kept up to date only when `KEYS`.
    #[inline]
    fn hand_remove_with<const KEYS: bool>(&mut self, c: Color, k: PieceKind) {
        if KEYS {
            let n = self.hands[c.index()].count(k);
            self.hand_key ^= zobrist::hand_key(c, k, n) ^ zobrist::hand_key(c, k, n - 1);
        }
        self.hands[c.index()].remove(k);
    }

    fn compute_hand_key(&self) -> u64 {
        let mut key = 0;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                key ^= zobrist::hand_key(c, k, self.hand(c).count(k));
            }
        }
        key
    }

    /// The board key and hand key computed from scratch (tests compare them with the
    /// incrementally kept ones).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut key = if self.side == Color::White {
            zobrist::side_key()
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        (key, self.compute_hand_key())
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Move number (as read from SFEN, incremented by every move).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The hand of `c`.
    #[inline]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Squares holding pieces of `c`.
    #[inline]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares holding pieces of `kind` (either colour).
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding pieces of `c` and `kind`.
    #[inline]
    pub fn pieces(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The phoenix of `c`, if it is on the board.
    #[inline]
    pub fn phoenix(&self, c: Color) -> Option<Square> {
        self.pieces(c, PieceKind::Phoenix).single()
    }

    /// Key of board and side to move (hands excluded).
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// Key of both hands.
    #[inline]
    pub fn hand_key(&self) -> u64 {
        self.hand_key
    }

    /// Key of the whole position (board, side to move and hands).
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// Pieces of colour `by` attacking `sq`, with occupancy `occ` (which may differ from the
    /// board's, to ask "after this piece moves").
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let rev = by.flip();
        let own = self.by_color[by.index()];
        let k = &self.by_kind;
        use PieceKind::*;
        let quails = k[LeftQuail.index()] | k[RightQuail.index()];
        let eagles = k[Eagle.index()];
        let steps = (step_attacks(rev, Swallow, sq) & k[Swallow.index()])
            | (step_attacks(rev, Pheasant, sq) & k[Pheasant.index()])
            | (step_attacks(rev, Crane, sq) & k[Crane.index()])
            | (step_attacks(rev, LeftQuail, sq) & k[LeftQuail.index()])
            | (step_attacks(rev, RightQuail, sq) & k[RightQuail.index()])
            | (step_attacks(rev, Falcon, sq) & k[Falcon.index()])
            | (step_attacks(rev, Goose, sq) & k[Goose.index()])
            | (step_attacks(rev, Phoenix, sq) & (eagles | k[Phoenix.index()]));
        let mut sliders = Bitboard::EMPTY;
        if (quails & own).any() {
            sliders |= ray_attacks(Dir::N.for_color(rev), sq, occ) & quails;
            sliders |= ray_attacks(Dir::SE.for_color(rev), sq, occ) & k[LeftQuail.index()];
            sliders |= ray_attacks(Dir::SW.for_color(rev), sq, occ) & k[RightQuail.index()];
        }
        if (eagles & own).any() {
            sliders |= (ray_attacks(Dir::NE.for_color(rev), sq, occ)
                | ray_attacks(Dir::NW.for_color(rev), sq, occ)
                | ray_attacks(Dir::S.for_color(rev), sq, occ)
                | short_ray_attacks(Dir::SE.for_color(rev), sq, occ)
                | short_ray_attacks(Dir::SW.for_color(rev), sq, occ))
                & eagles;
        }
        (steps | sliders) & own
    }

    /// Whether any piece of `by` attacks `sq` given occupancy `occ` (stops at the first
    /// kind found).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let rev = by.flip();
        let own = self.by_color[by.index()];
        let k = &self.by_kind;
        use PieceKind::*;
        let step = |kind: PieceKind, bb: Bitboard| (step_attacks(rev, kind, sq) & bb & own).any();
        if step(Phoenix, k[Eagle.index()] | k[Phoenix.index()])
            || step(Swallow, k[Swallow.index()])
            || step(Crane, k[Crane.index()])
            || step(Falcon, k[Falcon.index()])
            || step(Pheasant, k[Pheasant.index()])
            || step(Goose, k[Goose.index()])
            || step(LeftQuail, k[LeftQuail.index()])
            || step(RightQuail, k[RightQuail.index()])
        {
            return true;
        }
        let lq = k[LeftQuail.index()] & own;
        let rq = k[RightQuail.index()] & own;
        if (lq | rq).any()
            && ((ray_attacks(Dir::N.for_color(rev), sq, occ) & (lq | rq)).any()
                || (ray_attacks(Dir::SE.for_color(rev), sq, occ) & lq).any()
                || (ray_attacks(Dir::SW.for_color(rev), sq, occ) & rq).any())
        {
            return true;
        }
        let eagles = k[Eagle.index()] & own;
        eagles.any()
            && ((ray_attacks(Dir::NE.for_color(rev), sq, occ)
                | ray_attacks(Dir::NW.for_color(rev), sq, occ)
                | ray_attacks(Dir::S.for_color(rev), sq, occ)
                | short_ray_attacks(Dir::SE.for_color(rev), sq, occ)
                | short_ray_attacks(Dir::SW.for_color(rev), sq, occ))
                & eagles)
                .any()
    }

    /// Every square a piece of `by` attacks, with occupancy `occ`.
    pub fn attacked_squares(&self, by: Color, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self.by_color[by.index()] {
            if let Some(p) = self.board[sq.index()] {
                out |= attacks(by, p.kind, sq, occ);
            }
        }
        out
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.phoenix(self.side) {
            Some(k) => self.attackers_to(k, self.side.flip(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// The pieces of `slider_color` that attack `ksq` along a ranging line on an empty
    /// board: the candidates for pinning a piece to, or discovering check on, `ksq`.
    #[inline]
    pub fn snipers(&self, ksq: Square, slider_color: Color) -> Bitboard {
        use super::attacks::ray;
        let rev = slider_color.flip();
        let c = slider_color;
        let lq = self.pieces(c, PieceKind::LeftQuail);
        let rq = self.pieces(c, PieceKind::RightQuail);
        let eagles = self.pieces(c, PieceKind::Eagle);
        let mut s = ray(Dir::N.for_color(rev), ksq) & (lq | rq);
        s |= ray(Dir::SE.for_color(rev), ksq) & lq;
        s |= ray(Dir::SW.for_color(rev), ksq) & rq;
        if eagles.any() {
            s |= (ray(Dir::NE.for_color(rev), ksq)
                | ray(Dir::NW.for_color(rev), ksq)
                | ray(Dir::S.for_color(rev), ksq)
                | short_ray_attacks(Dir::SE.for_color(rev), ksq, Bitboard::EMPTY)
                | short_ray_attacks(Dir::SW.for_color(rev), ksq, Bitboard::EMPTY))
                & eagles;
        }
        s
    }

    /// Pieces (of either colour) that are the only piece between `ksq` and a ranging piece
    /// of `slider_color` aimed at it, and those ranging pieces.
    #[inline]
    pub fn slider_blockers(&self, ksq: Square, slider_color: Color) -> (Bitboard, Bitboard) {
        self.slider_blockers_with(ksq, slider_color, self.occupied())
    }

    /// [`Position::slider_blockers`] with a different occupancy (as after a drop).
    #[inline]
    pub fn slider_blockers_with(
        &self,
        ksq: Square,
        slider_color: Color,
        occ: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for s in self.snipers(ksq, slider_color) {
            let b = super::attacks::between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
                pinners |= Bitboard::from_square(s);
            }
        }
        (blockers, pinners)
    }

    /// Whether a falcon or swallow of `c` moving `from` → `to` promotes (into, within or out
    /// of the zone, docs/RULES.md "Promotion").
    #[inline]
    pub fn promotes(c: Color, kind: PieceKind, from: Square, to: Square) -> bool {
        kind.promoted().is_some() && {
            let z = promotion_zone(c);
            z.has(from) || z.has(to)
        }
    }

    /// Whether `m` is a capture.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && self.board[m.to().index()].is_some()
    }

    /// The kind of piece that makes move `m` (the dropped kind for a drop).
    #[inline]
    pub fn moved_kind(&self, m: Move) -> PieceKind {
        if m.is_drop() {
            m.drop_kind()
        } else {
            self.board[m.from().index()]
                .map(|p| p.kind)
                .unwrap_or(PieceKind::Phoenix)
        }
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal: a piece of the side to move
    /// on the origin, no own piece on the destination). Returns what was captured, for
    /// [`Position::undo_move`].
    #[inline]
    pub fn do_move(&mut self, m: Move) -> Captured {
        self.do_move_with::<true>(m)
    }

    /// Takes back `m`, played by [`Position::do_move`] which returned `captured`.
    #[inline]
    pub fn undo_move(&mut self, m: Move, captured: Captured) {
        self.undo_move_with::<true>(m, captured)
    }

    /// Plays `m` as [`Position::do_move`] does but leaves the keys as they were: for a look
    /// at the position after `m` that asks nothing of its keys (the search's estimates of
    /// new children), taken back with [`Position::undo_move_unkeyed`] before anything else.
    #[inline]
    pub fn do_move_unkeyed(&mut self, m: Move) -> Captured {
        self.do_move_with::<false>(m)
    }

    /// Takes back `m`, played by [`Position::do_move_unkeyed`] which returned `captured`.
    #[inline]
    pub fn undo_move_unkeyed(&mut self, m: Move, captured: Captured) {
        self.undo_move_with::<false>(m, captured)
    }

    #[inline]
    fn do_move_with<const KEYS: bool>(&mut self, m: Move) -> Captured {
        let us = self.side;
        let to = m.to();
        let captured;
        if m.is_drop() {
            let k = m.drop_kind();
            self.hand_remove_with::<KEYS>(us, k);
            self.put_with::<KEYS>(Piece::new(us, k), to);
            captured = None;
        } else {
            let from = m.from();
            let p = self.remove_with::<KEYS>(from);
            captured = self.board[to.index()].map(|c| c.kind);
            if captured.is_some() {
                let c = self.remove_with::<KEYS>(to);
                self.hand_add_with::<KEYS>(us, c.kind.unpromoted());
            }
            let kind = p.kind.after_move(m.promotes());
            self.put_with::<KEYS>(Piece::new(us, kind), to);
        }
        self.side = us.flip();
        if KEYS {
            self.board_key ^= zobrist::side_key();
        }
        self.move_number += 1;
        captured
    }

    #[inline]
    fn undo_move_with<const KEYS: bool>(&mut self, m: Move, captured: Captured) {
        let us = self.side.flip();
        self.side = us;
        if KEYS {
            self.board_key ^= zobrist::side_key();
        }
        self.move_number -= 1;
        let to = m.to();
        if m.is_drop() {
            self.remove_with::<KEYS>(to);
            self.hand_add_with::<KEYS>(us, m.drop_kind());
        } else {
            let p = self.remove_with::<KEYS>(to);
            let kind = if m.promotes() {
                p.kind.unpromoted()
            } else {
                p.kind
            };
            self.put_with::<KEYS>(Piece::new(us, kind), m.from());
            if let Some(c) = captured {
                self.hand_remove_with::<KEYS>(us, c.unpromoted());
                self.put_with::<KEYS>(Piece::new(us.flip(), c), to);
            }
        }
    }

    /// The board key the position would have after `m` (without playing it).
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut key = self.board_key ^ zobrist::side_key();
        if m.is_drop() {
            key ^= zobrist::piece_key(Piece::new(us, m.drop_kind()), to);
        } else {
            let from = m.from();
            let p = self.board[from.index()].expect("a piece on the origin");
            key ^= zobrist::piece_key(p, from);
            if let Some(c) = self.board[to.index()] {
                key ^= zobrist::piece_key(c, to);
            }
            let kind = p.kind.after_move(m.promotes());
            key ^= zobrist::piece_key(Piece::new(us, kind), to);
        }
        key
    }

    /// The key of both hands the position would have after `m` (without playing it).
    #[inline]
    pub fn hand_key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let mut hk = self.hand_key;
        if m.is_drop() {
            let k = m.drop_kind();
            let n = self.hands[us.index()].count(k);
            hk ^= zobrist::hand_key(us, k, n) ^ zobrist::hand_key(us, k, n - 1);
        } else if let Some(p) = self.board[m.to().index()] {
            let k = p.kind.unpromoted();
            let n = self.hands[us.index()].count(k);
            hk ^= zobrist::hand_key(us, k, n) ^ zobrist::hand_key(us, k, n + 1);
        }
        hk
    }

    /// The full key (board, side and hands) the position would have after `m`.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        self.board_key_after(m) ^ self.hand_key_after(m)
    }

    /// The hand of the side to move after it plays `m` (without playing it). The other
    /// side's hand never changes on this side's move.
    #[inline]
    pub fn hand_after(&self, m: Move) -> Hand {
        let mut h = self.hands[self.side.index()];
        if m.is_drop() {
            h.remove(m.drop_kind());
        } else if let Some(p) = self.board[m.to().index()] {
            h.add(p.kind.unpromoted());
        }
        h
    }

    /// A copy with the side to move switched (no move made). Used by tests and by the
    /// generator; the result may be an illegal position, so it is validated.
    pub fn with_side_to_move(&self, side: Color) -> Result<Position, PositionError> {
        let mut s = self.to_setup();
        s.side = side;
        Position::from_setup(&s)
    }

    /// Attacks of the piece on `sq` (empty if none), with the current occupancy.
    pub fn piece_attacks(&self, sq: Square) -> Bitboard {
        match self.board[sq.index()] {
            Some(p) => attacks(p.color, p.kind, sq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Moves one `kind` from the hand of `from` to the other side's (the keys follow). The
    /// hand of `from` must hold one.
    #[inline]
    pub fn pass_hand_piece(&mut self, from: Color, kind: PieceKind) {
        debug_assert!(self.hand(from).has(kind));
        self.hand_remove(from, kind);
        self.hand_add(from.flip(), kind);
    }

    /// Replaces a hand wholesale (used to give the defender "the rest"); the key is
    /// recomputed. Counts must stay within the game's totals.
    pub fn set_hand(&mut self, c: Color, hand: Hand) {
        self.hands[c.index()] = hand;
        self.hand_key = self.compute_hand_key();
    }
}
