//! The puzzle book: one self-contained HTML page (no network resources, no script) with each
//! problem's diagram, its length, and the solution in Hodges notation behind a click
//! (`<details>`).

use super::svg::{Labels, escape, svg};
use crate::notation::hodges::line_to_hodges;
use crate::problem::Problem;
use crate::solver::DefenderHand;

/// One problem's section, or why it could not be drawn.
fn section(i: usize, p: &Problem, labels: Labels) -> Result<String, String> {
    let pos = p.position().map_err(|e| e.to_string())?;
    let length = match p.plies {
        Some(n) => format!("Mate in {}", crate::notation::plies(n)),
        None => "No mate".to_string(),
    };
    let hodges = if !p.hodges.is_empty() {
        p.hodges.clone()
    } else if !p.moves.is_empty() {
        let (prepared, moves) = p.main_line().map_err(|e| e.to_string())?;
        line_to_hodges(&prepared, &moves)
    } else {
        Vec::new()
    };
    let mut numbered = String::new();
    for (j, h) in hodges.iter().enumerate() {
        if j % 2 == 0 {
            numbered.push_str(&format!("{}.&nbsp;", j / 2 + 1));
        }
        numbered.push_str(&escape(h));
        numbered.push(' ');
    }
    let solution = if hodges.is_empty() {
        "No mate.".to_string()
    } else {
        numbered.trim_end().to_string()
    };
    // A problem that states the defender's hand says so under its diagram: the page's
    // header speaks for the others (the defender holds every piece not shown).
    let caption = match p.convention() {
        DefenderHand::Rest => format!("{} to move", pos.side_to_move().name()),
        DefenderHand::Given => format!(
            "{} to move; {} holds only the hand shown",
            pos.side_to_move().name(),
            pos.side_to_move().flip().name()
        ),
    };
    let note = p
        .note
        .as_ref()
        .map(|n| format!("<p class=\"note\">{}</p>", escape(n)))
        .unwrap_or_default();
    Ok(format!(
        "<section class=\"problem\" id=\"p{n}\"><h2>No. {n} · {length}</h2>{board}\
         <details><summary>Solution</summary><p class=\"solution\">{solution}</p>{note}\
         <p class=\"sfen\">{sfen}</p></details></section>\n",
        n = i + 1,
        board = svg(&pos, labels, Some(&caption)),
        sfen = escape(&p.sfen),
    ))
}

/// The page's style sheet.
const STYLE: &str = include_str!("book.css");

/// A problem the book cannot show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("problem {}: {reason}", .index + 1)]
pub struct BookError {
    /// Which problem (0-based, in the order given).
    pub index: usize,
    /// Why.
    pub reason: String,
}

/// The whole page for `problems`, titled `title`. Fails on the first problem that cannot be
/// drawn, naming it.
pub fn book(problems: &[Problem], title: &str, labels: Labels) -> Result<String, BookError> {
    let mut body = String::new();
    for (i, p) in problems.iter().enumerate() {
        body.push_str(&section(i, p, labels).map_err(|reason| BookError { index: i, reason })?);
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t}</title><style>{STYLE}</style></head><body><h1>{t}</h1><p>{count} problems. Black (☗) to move and mate; \
         White (☖) holds every piece not shown{except}. Click “Solution” to see it.</p>\
         <div class=\"problems\">\n{body}</div></body></html>\n",
        t = escape(title),
        count = problems.len(),
        except = if problems
            .iter()
            .any(|p| p.convention() == DefenderHand::Given)
        {
            " (where a diagram says so, only the hand shown)"
        } else {
            ""
        },
    ))
}
