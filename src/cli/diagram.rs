//! `toritsume diagram`: a board as SVG or as a text diagram.

use super::generate::write_file;
use super::position_arg;
use clap::Args;
use std::path::PathBuf;
use toritsume::render::svg::{Labels, svg};
use toritsume::render::text::{Style, diagram};

/// Arguments of `diagram`.
#[derive(Args)]
pub struct DiagramArgs {
    /// Write an SVG board to FILE (without it, a text diagram is printed).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Label pieces with SFEN letters instead of kanji.
    #[arg(long)]
    letters: bool,
    /// Text diagram with kanji.
    #[arg(long)]
    unicode: bool,
    /// Overwrite the SVG file if it exists.
    #[arg(long)]
    force: bool,
    /// The position (SFEN, FEN or startpos, optionally with `moves ...`).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
}

/// Runs `diagram`.
pub fn run(a: DiagramArgs) -> anyhow::Result<i32> {
    let pos = position_arg(&a.position)?;
    match &a.svg {
        Some(path) => {
            let labels = if a.letters {
                Labels::Letters
            } else {
                Labels::Kanji
            };
            write_file(path, a.force, &svg(&pos, labels, None))?;
        }
        None => super::output::emit(&diagram(
            &pos,
            if a.unicode {
                Style::Unicode
            } else {
                Style::Ascii
            },
        ))?,
    }
    Ok(0)
}
