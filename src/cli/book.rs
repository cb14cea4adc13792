//! `toritsume diagram` (a board as SVG or text) and `toritsume book` (an HTML puzzle book).

use super::generate::create_output;
use super::position_arg;
use anyhow::Context;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use toritsume::notation::diagram::{Style, diagram};
use toritsume::notation::svg::{Labels, svg};
use toritsume::problem::Problem;

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
pub fn run_diagram(a: DiagramArgs) -> anyhow::Result<i32> {
    let pos = position_arg(&a.position)?;
    match &a.svg {
        Some(path) => {
            let labels = if a.letters {
                Labels::Letters
            } else {
                Labels::Kanji
            };
            let mut f = create_output(path, a.force)?;
            f.write_all(svg(&pos, labels, None).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
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

/// Arguments of `book`.
#[derive(Args)]
pub struct BookArgs {
    /// The problems (JSON lines, as in problems/).
    problems: PathBuf,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Title of the page.
    #[arg(long, default_value = "Tori Shogi mate problems")]
    title: String,
    /// Label pieces with SFEN letters instead of kanji.
    #[arg(long)]
    letters: bool,
    /// Overwrite --out if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs `book`.
pub fn run_book(a: BookArgs) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&a.problems)
        .with_context(|| format!("cannot read {}", a.problems.display()))?;
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let p = Problem::from_json(line)
            .map_err(|e| anyhow::anyhow!("{} line {}: {e}", a.problems.display(), i + 1))?;
        problems.push(p);
    }
    let labels = if a.letters {
        Labels::Letters
    } else {
        Labels::Kanji
    };
    let html = toritsume::book::book(&problems, &a.title, labels)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.problems.display()))?;
    let mut f = create_output(&a.out, a.force)?;
    f.write_all(html.as_bytes())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    eprintln!("{} problems written to {}", problems.len(), a.out.display());
    Ok(0)
}
