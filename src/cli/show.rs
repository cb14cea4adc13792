//! `toritsume show`: everything about one position.

use super::output::emit;
use super::position_arg;
use clap::Args;
use std::fmt::Write as _;
use toritsume::notation::fen::write_fen;
use toritsume::notation::hodges::to_hodges_with;
use toritsume::notation::sfen::write_sfen;
use toritsume::render::text::{Style, diagram};
use toritsume::report::to_json_line;
use toritsume::rules::{MoveList, generate_legal};

/// Arguments of `show`.
#[derive(Args)]
pub struct ShowArgs {
    /// Draw pieces with kanji instead of letters.
    #[arg(long)]
    unicode: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The position (SFEN, FEN or startpos, optionally with `moves ...`).
    #[arg(required = true, num_args = 1..)]
    position: Vec<String>,
}

/// Runs `show`.
pub fn run(a: ShowArgs) -> anyhow::Result<i32> {
    let pos = position_arg(&a.position)?;
    let mut list = MoveList::new();
    generate_legal(&pos, &mut list);
    let moves: Vec<(String, String)> = list
        .iter()
        .map(|&m| (m.usi(), to_hodges_with(&pos, m, &list)))
        .collect();
    if a.json {
        let v = Shown {
            sfen: write_sfen(&pos),
            fen: write_fen(&pos),
            side_to_move: pos.side_to_move().name().to_lowercase(),
            in_check: pos.in_check(),
            checkmate: pos.in_check() && list.is_empty(),
            moves: moves
                .iter()
                .map(|(usi, hodges)| ShownMove { usi, hodges })
                .collect(),
        };
        emit(&format!("{}\n", to_json_line(&v)))?;
        return Ok(0);
    }
    let style = if a.unicode {
        Style::Unicode
    } else {
        Style::Ascii
    };
    let mut out = diagram(&pos, style);
    writeln!(out, "SFEN: {}", write_sfen(&pos))?;
    writeln!(out, "FEN:  {}", write_fen(&pos))?;
    writeln!(out, "Side to move: {}", pos.side_to_move().name())?;
    let status = if !pos.in_check() {
        "no"
    } else if list.is_empty() {
        "yes (checkmate)"
    } else {
        "yes"
    };
    writeln!(out, "In check: {status}")?;
    writeln!(out, "Legal moves ({}):", moves.len())?;
    for chunk in moves.chunks(6) {
        let line: Vec<String> = chunk
            .iter()
            .map(|(u, h)| format!("{u:<6} {h:<10}"))
            .collect();
        writeln!(out, "  {}", line.join(" ").trim_end())?;
    }
    emit(&out)?;
    Ok(0)
}

/// What `show --json` prints.
#[derive(serde::Serialize)]
struct Shown<'a> {
    sfen: String,
    fen: String,
    side_to_move: String,
    in_check: bool,
    checkmate: bool,
    moves: Vec<ShownMove<'a>>,
}

/// A legal move in `show --json`.
#[derive(serde::Serialize)]
struct ShownMove<'a> {
    usi: &'a str,
    hodges: &'a str,
}
