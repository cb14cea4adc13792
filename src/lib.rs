//! # toritsume
//!
//! Solves, verifies and generates mate problems (tsume) for Tori Shogi, the 7×7 "bird
//! shogi" with drops.
//!
//! - [`rules`]: the game itself: positions, legal moves (all, checks only, evasions), perft.
//! - [`notation`]: SFEN / FEN positions, USI and Hodges moves, read and written.
//! - [`solver`]: df-pn mate search, exact solution length and main line.
//! - [`soundness`]: cooks, duals, spare and redundant pieces: is a problem sound?
//! - [`generator`]: random, backward and mutated candidates, kept only when proven sound.
//! - [`problem`]: the JSON problem record.
//! - [`render`]: text diagrams, SVG boards and the HTML puzzle book of a set.
//!
//! ```
//! use toritsume::notation::parse_position;
//! use toritsume::rules::perft::perft;
//!
//! let mut pos = parse_position("startpos").unwrap();
//! assert_eq!(perft(&mut pos, 2), 288);
//! ```

#![warn(missing_docs)]

pub mod generator;
pub mod notation;
pub mod problem;
pub mod render;
pub mod rules;
pub mod solver;
pub mod soundness;
