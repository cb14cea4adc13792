//! The rules of Tori Shogi (docs/RULES.md): board representation, pieces, hands, attacks, the
//! validated [`Position`] with make/unmake and Zobrist keys, and legal move generation.

pub mod attacks;
pub mod bitboard;
pub mod hand;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::{
    count_legal, generate_checks, generate_evasions, generate_legal, gives_check, has_check,
    has_legal_move, is_checkmate,
};
pub use moves::{Move, MoveList};
pub use position::{Position, PositionError, Setup};
pub use types::{Color, Piece, PieceKind, Square};
