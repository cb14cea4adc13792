//! `toritsume editor`: writes the position editor, an HTML page that sets up a position
//! and gives its SFEN and the command lines that solve and verify it.

use super::generate::write_out;
use super::position_arg;
use clap::Args;
use std::path::PathBuf;
use toritsume::render::editor::editor_page;
use toritsume::render::svg::Labels;

/// Arguments of `editor`.
#[derive(Args)]
pub struct EditorArgs {
    /// The page to write (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
    /// Label pieces with SFEN letters instead of kanji.
    #[arg(long)]
    letters: bool,
    /// The position the page opens on (SFEN, FEN or startpos, optionally with `moves ...`);
    /// without it, White's phoenix alone on 4a.
    position: Vec<String>,
}

/// Runs `editor`.
pub fn run(a: EditorArgs) -> anyhow::Result<i32> {
    let start = if a.position.is_empty() {
        None
    } else {
        Some(position_arg(&a.position)?)
    };
    let labels = if a.letters {
        Labels::Letters
    } else {
        Labels::Kanji
    };
    write_out(&a.out, a.force, &editor_page(start.as_ref(), labels))?;
    Ok(0)
}
