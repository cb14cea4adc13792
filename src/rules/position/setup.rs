//! [`Setup`]: the unchecked description of a position a parser produces (or the start
//! position), and [`Position::from_setup`], which checks it against every rule
//! (docs/RULES.md, and the tsume convention that the side to move may lack its phoenix),
//! with [`PositionError`], what can be wrong with one.

use super::Position;
use crate::rules::attacks::last_rank;
use crate::rules::types::{Color, Piece, PieceKind, Square};

/// An unchecked position: what a parser read. Turn it into a [`Position`] with
/// [`Position::from_setup`], which applies every rule of docs/RULES.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece on each square (index order of [`Square`]).
    pub board: [Option<Piece>; 49],
    /// Hand counts per colour, in [`PieceKind::HAND`] order (unbounded here; checked later).
    pub hands: [[u32; 6]; 2],
    /// Side to move.
    pub side: Color,
    /// Move number as written (SFEN's last field).
    pub move_number: u32,
}

impl Setup {
    /// The start position of an ordinary game (docs/RULES.md "Start position"): each side's
    /// back rank quail, pheasant, crane, phoenix, crane, pheasant, quail (the left quail on
    /// its owner's left), the falcon in front of the phoenix, a rank of seven swallows and
    /// an eighth swallow ahead of it on the third file from the owner's right.
    pub fn startpos() -> Setup {
        use PieceKind::{Crane, Falcon, LeftQuail, Pheasant, Phoenix, RightQuail, Swallow};
        let mut s = Setup::default();
        let mut put = |row: u8, col: u8, color: Color, kind: PieceKind| {
            let sq = Square::from_row_col(row, col).expect("a square of the board");
            s.board[sq.index()] = Some(Piece::new(color, kind));
        };
        // Rows from rank a (White's back rank), columns from file 7.
        let white_back = [
            RightQuail, Pheasant, Crane, Phoenix, Crane, Pheasant, LeftQuail,
        ];
        let black_back = [
            LeftQuail, Pheasant, Crane, Phoenix, Crane, Pheasant, RightQuail,
        ];
        for col in 0..7u8 {
            put(0, col, Color::White, white_back[col as usize]);
            put(2, col, Color::White, Swallow);
            put(4, col, Color::Black, Swallow);
            put(6, col, Color::Black, black_back[col as usize]);
        }
        put(1, 3, Color::White, Falcon);
        put(3, 2, Color::White, Swallow);
        put(3, 4, Color::Black, Swallow);
        put(5, 3, Color::Black, Falcon);
        s
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            board: [None; 49],
            hands: [[0; 6]; 2],
            side: Color::Black,
            move_number: 1,
        }
    }
}

/// What makes a [`Setup`] unacceptable as a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The defender (the side not to move, in a problem) must have its phoenix.
    #[error("{0} (the side not to move) has no phoenix")]
    MissingPhoenix(&'static str),
    /// At most one phoenix a side.
    #[error("{0} has more than one phoenix")]
    TwoPhoenixes(&'static str),
    /// More pieces of a kind than the game has (board and hands, both sides, promoted pieces
    /// counted as their base kind).
    #[error("too many {kind}s: {count} on the board and in hand, the game has {max}")]
    TooMany {
        /// Base kind name.
        kind: &'static str,
        /// How many were found.
        count: u32,
        /// How many exist.
        max: u32,
    },
    /// A phoenix or promoted piece cannot be held in hand.
    #[error("a {0} cannot be held in hand")]
    BadHandPiece(&'static str),
    /// An unpromoted swallow has no move on its owner's last rank.
    #[error("{color} swallow on {square}, its last rank, where it could never move")]
    SwallowOnLastRank {
        /// Owner.
        color: &'static str,
        /// Square.
        square: Square,
    },
    /// At most two unpromoted swallows of a side on a file.
    #[error("{color} has {count} unpromoted swallows on file {file} (at most two are allowed)")]
    TooManySwallowsOnFile {
        /// Owner.
        color: &'static str,
        /// File number.
        file: u8,
        /// How many.
        count: u32,
    },
    /// The side that just moved cannot have left its phoenix in check.
    #[error("{0} (the side not to move) is in check")]
    NotToMoveInCheck(&'static str),
}

impl Position {
    /// Validates a [`Setup`] against every rule (docs/RULES.md) and builds the position. The side
    /// not to move must have its phoenix (it is the defender of a problem).
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_with_defender(setup, setup.side.flip())
    }

    /// Like [`Position::from_setup`] for a position inside a mate search, where `defender`
    /// (which may be the side to move) must have its phoenix and the other side may lack it.
    pub fn from_setup_with_defender(
        setup: &Setup,
        defender: Color,
    ) -> Result<Position, PositionError> {
        let mut totals = [0u32; 6];
        let mut phoenixes = [0u32; 2];
        for p in setup.board.iter().flatten() {
            if p.kind == PieceKind::Phoenix {
                phoenixes[p.color.index()] += 1;
            } else {
                totals[p.kind.unpromoted().index()] += 1;
            }
        }
        for c in Color::ALL {
            for (i, &n) in setup.hands[c.index()].iter().enumerate() {
                totals[i] += n;
            }
        }
        for c in Color::ALL {
            if phoenixes[c.index()] > 1 {
                return Err(PositionError::TwoPhoenixes(c.name()));
            }
        }
        if phoenixes[defender.index()] == 0 {
            return Err(PositionError::MissingPhoenix(defender.name()));
        }
        for k in PieceKind::HAND {
            let max = k.total() as u32;
            if totals[k.index()] > max {
                return Err(PositionError::TooMany {
                    kind: k.name(),
                    count: totals[k.index()],
                    max,
                });
            }
        }
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                let sq = Square::from_index(i);
                if p.kind == PieceKind::Swallow && last_rank(p.color).has(sq) {
                    return Err(PositionError::SwallowOnLastRank {
                        color: p.color.name(),
                        square: sq,
                    });
                }
            }
        }
        for c in Color::ALL {
            for col in 0..7u8 {
                let n = (0..7u8)
                    .filter(|&row| {
                        setup.board[(row * 7 + col) as usize]
                            == Some(Piece::new(c, PieceKind::Swallow))
                    })
                    .count() as u32;
                if n > 2 {
                    return Err(PositionError::TooManySwallowsOnFile {
                        color: c.name(),
                        file: 7 - col,
                        count: n,
                    });
                }
            }
        }
        let mut pos = Position::empty(setup.side);
        pos.move_number = setup.move_number;
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                pos.put(*p, Square::from_index(i));
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                let n = setup.hands[c.index()][k.index()];
                pos.hands[c.index()].set(k, n);
            }
        }
        pos.hand_key = pos.compute_hand_key();
        let them = pos.side.flip();
        if let Some(k) = pos.phoenix(them)
            && pos.attackers_to(k, pos.side, pos.occupied()).any()
        {
            return Err(PositionError::NotToMoveInCheck(them.name()));
        }
        Ok(pos)
    }

    /// The unchecked description of this position.
    pub fn to_setup(&self) -> Setup {
        let mut hands = [[0u32; 6]; 2];
        for c in Color::ALL {
            for k in PieceKind::HAND {
                hands[c.index()][k.index()] = self.hand(c).count(k);
            }
        }
        Setup {
            board: self.board,
            hands,
            side: self.side,
            move_number: self.move_number,
        }
    }
}
