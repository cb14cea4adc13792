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
//! - [`input`]: positions and records read from text, files and standard input.
//! - [`report`]: the solve, verify and set reports, as serde types.
//! - [`render`]: text diagrams, SVG boards and the HTML puzzle book of a set.
//! - [`export`]: puzzle sets for pychess-variants, datasets and Fairy-Stockfish.
//!
//! Solving and verifying a problem (a crane dropped on 4b mates the phoenix on 4a, the
//! other crane on 4c guarding it):
//!
//! ```
//! use toritsume::rules::Position;
//! use toritsume::solver::{Solver, SolverConfig, Status};
//! use toritsume::soundness::{Verdict, verify};
//!
//! let problem: Position = "3k3/7/3C3/7/7/7/7 b C 1".parse()?;
//! let mut solver = Solver::new(SolverConfig::default())?;
//! let solution = solver.solve(&problem);
//! assert_eq!((solution.status, solution.plies), (Status::Mate, Some(1)));
//! assert_eq!(solution.moves[0].usi(), "C*4b");
//! solver.clear_table();
//! assert_eq!(verify(&mut solver, &problem, None).verdict, Verdict::Sound);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The report `solve --json` prints, for a position read as the program reads its input
//! (README.md's "From Rust", which a test keeps equal to this):
//!
//! ```
//! use toritsume::input::read_one;
//! use toritsume::report::{Extras, solve_item};
//! use toritsume::solver::{DefenderHand, Solver, SolverConfig};
//!
//! let mut solver = Solver::new(SolverConfig::default())?;
//! let item = read_one("1k5/2S4/7/FC5/7/7/7 b FRS 1", "argument".to_string());
//! let solved = solve_item(&mut solver, &item, DefenderHand::Rest, Extras::default())?;
//! assert_eq!(solved.report.plies, Some(7));
//! assert_eq!(solved.report.moves[0], "F*6b");
//! // The report `solve --json` prints.
//! let json = toritsume::report::to_json_line(&solved.report);
//! assert!(json.starts_with("{\"complete\":true"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Counting the positions two plies from the start:
//!
//! ```
//! use toritsume::notation::parse_position;
//! use toritsume::rules::perft::perft;
//!
//! let mut pos = parse_position("startpos").unwrap();
//! assert_eq!(perft(&mut pos, 2), 288);
//! ```

#![warn(missing_docs)]

pub mod export;
pub mod generator;
pub mod input;
pub mod notation;
pub mod problem;
pub mod render;
pub mod report;
pub mod rules;
pub mod solver;
pub mod soundness;
