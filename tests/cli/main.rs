//! The `toritsume` binary driven as a user, a script or a GUI would: every test that runs
//! the program is in this one test binary (one link step), a module per front end.

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod completions;
mod defender_hand;
mod editor;
mod export;
mod foreign;
mod front_ends;
mod generate;
mod output;
mod readme;
mod records;
mod refusals;
mod repair;
mod reports;
mod resume;
mod show_perft;
mod signals;
mod stats;
mod terminal;
mod usi;
mod variations;
