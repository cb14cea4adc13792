//! Attack tables: where each piece moves from each square, computed once at compile time
//! (const fn), and the ranging moves resolved against an occupancy.
//!
//! Piece movements follow docs/RULES.md "Pieces". Every piece's moves are written from Black's
//! point of view; White's are the same offsets negated (the board turned 180°). A consequence
//! used throughout: a piece of colour `c` on `x` attacks `y` exactly when a piece of the same
//! kind and colour `!c` on `y` attacks `x`, so "who attacks this square" is one more call to
//! [`attacks`] with the colour flipped.

use super::bitboard::Bitboard;
use super::types::{Color, PieceKind, Square};

/// A direction on the board, named from Black's side (north = towards rank a, east = towards
/// file 1).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Dir {
    /// Towards rank a.
    N = 0,
    /// Towards rank a and file 1.
    NE = 1,
    /// Towards file 1.
    E = 2,
    /// Towards rank g and file 1.
    SE = 3,
    /// Towards rank g.
    S = 4,
    /// Towards rank g and file 7.
    SW = 5,
    /// Towards file 7.
    W = 6,
    /// Towards rank a and file 7.
    NW = 7,
}

impl Dir {
    /// All eight directions.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// (row, col) step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (-1, 0),
            Dir::NE => (-1, 1),
            Dir::E => (0, 1),
            Dir::SE => (1, 1),
            Dir::S => (1, 0),
            Dir::SW => (1, -1),
            Dir::W => (0, -1),
            Dir::NW => (-1, -1),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 4) & 7]
    }

    /// Whether stepping this way increases the square index (so the nearest blocker on a
    /// ray is its lowest bit).
    pub const fn is_positive(self) -> bool {
        matches!(self, Dir::E | Dir::SE | Dir::S | Dir::SW)
    }

    /// This direction (named for Black) as it is for `color`.
    #[inline]
    pub const fn for_color(self, color: Color) -> Dir {
        match color {
            Color::Black => self,
            Color::White => self.opposite(),
        }
    }
}

const fn offset(sq: usize, dr: i8, dc: i8) -> Option<usize> {
    let r = (sq / 7) as i8 + dr;
    let c = (sq % 7) as i8 + dc;
    if r >= 0 && r < 7 && c >= 0 && c < 7 {
        Some(r as usize * 7 + c as usize)
    } else {
        None
    }
}

const fn build_rays(limit: usize) -> [[u64; 49]; 8] {
    let mut t = [[0u64; 49]; 8];
    let mut d = 0;
    while d < 8 {
        let (dr, dc) = Dir::ALL[d].delta();
        let mut sq = 0;
        while sq < 49 {
            let mut cur = sq;
            let mut n = 0;
            while n < limit {
                match offset(cur, dr, dc) {
                    Some(next) => {
                        t[d][sq] |= 1u64 << next;
                        cur = next;
                    }
                    None => break,
                }
                n += 1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// Full rays: `RAYS[dir][sq]` is every square from `sq` (exclusive) to the edge.
static RAYS: [[u64; 49]; 8] = build_rays(7);
/// Rays of length two (the eagle's diagonal back move).
static RAYS2: [[u64; 49]; 8] = build_rays(2);

/// Black-relative (row, col) offsets of the non-ranging moves of each kind (jumps
/// included), in `PieceKind` index order.
const fn step_offsets(kind: usize) -> &'static [(i8, i8)] {
    match kind {
        // Swallow: one step forward.
        0 => &[(-1, 0)],
        // Pheasant: jump two forward; one step diagonally back.
        1 => &[(-2, 0), (1, -1), (1, 1)],
        // Crane: diagonals, straight forward and back.
        2 => &[(-1, -1), (-1, 1), (1, -1), (1, 1), (-1, 0), (1, 0)],
        // Left quail: one step diagonally back-left (its ranges are separate).
        3 => &[(1, -1)],
        // Right quail: one step diagonally back-right.
        4 => &[(1, 1)],
        // Falcon: every direction but straight back.
        5 => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 1)],
        // Goose: jumps two diagonally forward or two straight back.
        6 => &[(-2, -2), (-2, 2), (2, 0)],
        // Eagle and phoenix: one step every way (the eagle's ranges are separate).
        _ => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
    }
}

const fn build_steps() -> [[[u64; 49]; 9]; 2] {
    let mut t = [[[0u64; 49]; 9]; 2];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 9 {
            let offs = step_offsets(kind);
            let mut sq = 0;
            while sq < 49 {
                let mut i = 0;
                while i < offs.len() {
                    let (mut dr, mut dc) = offs[i];
                    if color == 1 {
                        dr = -dr;
                        dc = -dc;
                    }
                    if let Some(to) = offset(sq, dr, dc) {
                        t[color][kind][sq] |= 1u64 << to;
                    }
                    i += 1;
                }
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    t
}

/// Non-ranging moves: `STEPS[color][kind][sq]`.
static STEPS: [[[u64; 49]; 9]; 2] = build_steps();

const fn build_between() -> [[u64; 49]; 49] {
    let mut t = [[0u64; 49]; 49];
    let mut a = 0;
    while a < 49 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = Dir::ALL[d].delta();
            let mut acc = 0u64;
            let mut cur = a;
            while let Some(next) = offset(cur, dr, dc) {
                t[a][next] = acc;
                acc |= 1u64 << next;
                cur = next;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
static BETWEEN: [[u64; 49]; 49] = build_between();

/// The squares strictly between two squares on a common line (empty if none).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The full ray from `sq` in direction `dir`, ignoring pieces.
#[inline]
pub fn ray(dir: Dir, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir as usize][sq.index()])
}

/// The ray from `sq` in `dir` up to and including the first occupied square.
#[inline(always)]
pub fn ray_attacks(dir: Dir, sq: Square, occ: Bitboard) -> Bitboard {
    cut_at_first_blocker(dir, RAYS[dir as usize][sq.index()], occ)
}

/// At most two squares from `sq` in `dir`, the second only when the first is empty.
#[inline(always)]
pub fn short_ray_attacks(dir: Dir, sq: Square, occ: Bitboard) -> Bitboard {
    cut_at_first_blocker(dir, RAYS2[dir as usize][sq.index()], occ)
}

/// The squares of `ray` (squares in `dir` from some square, nearest first) up to and
/// including the first one `occ` occupies.
#[inline(always)]
fn cut_at_first_blocker(dir: Dir, ray: u64, occ: Bitboard) -> Bitboard {
    let blockers = ray & occ.0;
    if blockers == 0 {
        return Bitboard(ray);
    }
    let first = if dir.is_positive() {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    Bitboard(ray & !RAYS[dir as usize][first as usize])
}

/// The non-ranging moves of a piece (jumps included).
#[inline(always)]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    Bitboard(STEPS[color as usize][kind as usize][sq.index()])
}

/// Every square a piece of `color` and `kind` on `sq` attacks (moves to or captures on),
/// given the occupied squares `occ`. Friendly pieces are not removed.
#[inline(always)]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::LeftQuail | PieceKind::RightQuail | PieceKind::Eagle => {
            ranging_attacks(color, kind, sq, occ)
        }
        // The other kinds only step or jump: a table lookup, inlined where it is asked for.
        _ => step_attacks(color, kind, sq),
    }
}

/// [`attacks`] of the kinds that range (the quails and the eagle).
#[inline(never)]
fn ranging_attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    let steps = step_attacks(color, kind, sq);
    match kind {
        PieceKind::LeftQuail => {
            steps
                | ray_attacks(Dir::N.for_color(color), sq, occ)
                | ray_attacks(Dir::SE.for_color(color), sq, occ)
        }
        PieceKind::RightQuail => {
            steps
                | ray_attacks(Dir::N.for_color(color), sq, occ)
                | ray_attacks(Dir::SW.for_color(color), sq, occ)
        }
        PieceKind::Eagle => {
            steps
                | ray_attacks(Dir::NE.for_color(color), sq, occ)
                | ray_attacks(Dir::NW.for_color(color), sq, occ)
                | ray_attacks(Dir::S.for_color(color), sq, occ)
                | short_ray_attacks(Dir::SE.for_color(color), sq, occ)
                | short_ray_attacks(Dir::SW.for_color(color), sq, occ)
        }
        _ => steps,
    }
}

/// The promotion zone of `color`: the two farthest ranks (docs/RULES.md "Promotion").
#[inline]
pub const fn promotion_zone(color: Color) -> Bitboard {
    match color {
        Color::Black => Bitboard(Bitboard::row(0).0 | Bitboard::row(1).0),
        Color::White => Bitboard(Bitboard::row(5).0 | Bitboard::row(6).0),
    }
}

/// The farthest rank of `color` (where a swallow may not be dropped).
#[inline]
pub const fn last_rank(color: Color) -> Bitboard {
    match color {
        Color::Black => Bitboard::row(0),
        Color::White => Bitboard::row(6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn set(list: &[&str]) -> Bitboard {
        list.iter().fold(Bitboard::EMPTY, |b, s| b | sq(s).into())
    }

    #[test]
    fn left_quail_on_empty_board() {
        // Black left quail on 4d: forward to 4c, 4b, 4a; diagonally back-right (towards
        // file 1) 3e, 2f, 1g; one step back-left to 5e.
        let a = attacks(
            Color::Black,
            PieceKind::LeftQuail,
            sq("4d"),
            Bitboard::EMPTY,
        );
        assert_eq!(a, set(&["4c", "4b", "4a", "3e", "2f", "1g", "5e"]));
        // White's left quail on 4d: forward is down, back-right is towards file 7 and up.
        let a = attacks(
            Color::White,
            PieceKind::LeftQuail,
            sq("4d"),
            Bitboard::EMPTY,
        );
        assert_eq!(a, set(&["4e", "4f", "4g", "5c", "6b", "7a", "3c"]));
    }

    #[test]
    fn eagle_back_diagonal_blocked() {
        let occ = set(&["3e"]);
        let a = attacks(Color::Black, PieceKind::Eagle, sq("4d"), occ);
        assert!(a.has(sq("3e")));
        assert!(!a.has(sq("2f")), "the first square blocks the second");
        assert!(a.has(sq("6f")));
        assert!(!a.has(sq("7g")), "at most two squares diagonally back");
    }

    #[test]
    fn between_table() {
        assert_eq!(between(sq("4d"), sq("4a")), set(&["4c", "4b"]));
        assert_eq!(between(sq("7a"), sq("1g")).count(), 5);
        assert!(between(sq("4d"), sq("3b")).is_empty());
        assert!(between(sq("4d"), sq("4c")).is_empty());
    }
}
