//! `toritsume editor`: writes the position editor, an HTML page that sets up a position
//! and gives its SFEN and the command lines that solve and verify it.

use super::generate::create_output;
use super::position_arg;
use anyhow::Context;
use clap::Args;
use std::io::Write;
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
    let page = editor_page(start.as_ref(), labels);
    if a.out.as_os_str() == "-" {
        super::output::emit(&page)?;
    } else {
        let mut f = create_output(&a.out, a.force)?;
        f.write_all(page.as_bytes())
            .with_context(|| format!("cannot write {}", a.out.display()))?;
    }
    Ok(0)
}
