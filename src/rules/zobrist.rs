//! Zobrist keys, fixed at compile time from a splitmix64 stream so that keys (and so solver
//! behaviour) are the same on every run and machine.
//!
//! The board key (pieces on squares plus side to move) and the hand key are kept apart: the
//! solver's table is indexed by the board key alone and compares hands inside an entry
//! (hand superiority), while repetition detection uses both.

use super::types::{Color, Piece, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    board: [[u64; 49]; 18],
    hand: [[[u64; 17]; 6]; 2],
    side: u64,
}

const fn build() -> Keys {
    let mut k = Keys {
        board: [[0; 49]; 18],
        hand: [[[0; 17]; 6]; 2],
        side: 0,
    };
    let mut state = 0x746f_7269_7473_756d_u64; // "toritsum"
    let mut p = 0;
    while p < 18 {
        let mut s = 0;
        while s < 49 {
            let (ns, v) = splitmix(state);
            state = ns;
            k.board[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut kind = 0;
        while kind < 6 {
            let mut n = 1;
            while n < 17 {
                let (ns, v) = splitmix(state);
                state = ns;
                k.hand[c][kind][n] = v;
                n += 1;
            }
            kind += 1;
        }
        c += 1;
    }
    let (_, v) = splitmix(state);
    k.side = v;
    k
}

static KEYS: Keys = build();

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.board[piece.index()][sq.index()]
}

/// Key of `color` holding exactly `count` pieces of hand kind `kind` (0 for none).
#[inline]
pub fn hand_key(color: Color, kind: PieceKind, count: u32) -> u64 {
    KEYS.hand[color.index()][kind.index()][count as usize]
}

/// Key toggled when White is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}
