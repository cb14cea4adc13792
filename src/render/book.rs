//! The puzzle book: one self-contained HTML page (no network resources; one small script,
//! which remembers the reader's choice of kanji or letters, [`super::pieces`]) with each
//! problem's diagram, its length, and the solution in Hodges notation behind a click
//! (`<details>`), with its close tries when asked ([`close_tries`]), followed by every
//! solution at the end, as a printed book has them. On a screen the diagrams scale to the
//! window (two a row on a desktop, one on a phone); printed (A4 or Letter), six problems
//! fill a page, none split between pages, the solutions follow on pages of their own, and
//! each problem's number links to its solution and back.

use super::svg::{Labels, escape, page_svg};
use crate::notation::hodges::{answered_to_hodges, line_to_hodges};
use crate::problem::Problem;
use crate::rules::Color;
use crate::solver::{DefenderHand, SolverConfig, Try};

/// One problem drawn: its section among the problems, its entry among the solutions, and
/// the side that moves in it.
struct Drawn {
    problem: String,
    answer: String,
    mover: Color,
}

/// One problem's section and solution entry, or why it could not be drawn; `tries` are its
/// close tries, written out (none when not asked for).
fn draw(i: usize, p: &Problem, tries: &[String]) -> Result<Drawn, String> {
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
    let note = p.note.as_ref().map(|n| escape(n));
    let tries = (!tries.is_empty()).then(|| {
        let list: Vec<String> = tries.iter().map(|t| escape(t)).collect();
        format!("Tries: {}", list.join(" · "))
    });
    let n = i + 1;
    let problem = format!(
        "<section class=\"problem\" id=\"p{n}\"><h2><a href=\"#s{n}\" title=\"Its solution, \
         at the end\">No. {n}</a> · {length}</h2>{board}\
         <details><summary>Solution</summary><p class=\"solution\">{solution}</p>{tries}{note}\
         <p class=\"sfen\">{sfen}</p></details></section>\n",
        board = page_svg(&pos, Some(&caption)),
        tries = tries
            .as_ref()
            .map(|t| format!("<p class=\"tries\">{t}</p>"))
            .unwrap_or_default(),
        note = note
            .as_ref()
            .map(|n| format!("<p class=\"note\">{n}</p>"))
            .unwrap_or_default(),
        sfen = escape(&p.sfen),
    );
    let told = if hodges.is_empty() {
        format!("{length}.")
    } else {
        format!("{length}: <span class=\"solution\">{solution}</span>")
    };
    let answer = format!(
        "<li id=\"s{n}\"><a href=\"#p{n}\" title=\"Back to the problem\">No. {n}</a> · \
         {told}{tries}{note}</li>\n",
        tries = tries
            .map(|t| format!(" <span class=\"tries\">{t}.</span>"))
            .unwrap_or_default(),
        note = note
            .map(|n| format!(" <span class=\"note\">{n}</span>"))
            .unwrap_or_default(),
    );
    Ok(Drawn {
        problem,
        answer,
        mover: pos.side_to_move(),
    })
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

/// The page's opening sentence after the count: who moves and mates, and what the other
/// side holds. `movers` are the sides to move of the problems.
fn who_mates(movers: &[Color], any_given: bool) -> String {
    let except = if any_given {
        " (where a diagram says so, only the hand shown)"
    } else {
        ""
    };
    let mark = |c: Color| match c {
        Color::Black => "☗",
        Color::White => "☖",
    };
    match movers.first() {
        Some(&c) if movers.iter().all(|&m| m == c) => format!(
            "{} ({}) to move and mate; {} ({}) holds every piece not shown{except}.",
            c.name(),
            mark(c),
            c.flip().name(),
            mark(c.flip())
        ),
        _ => format!(
            "The side to move, as each diagram says, mates; the other side holds every piece \
             not shown{except}."
        ),
    }
}

/// Each record as a search of its problem settles it ([`Problem::settled`]): its claims
/// checked, its length and line filled in when it gives none; or why it cannot be shown (a
/// claim contradicted, or `config`'s limits reached first). What a book or a training page
/// publishes is this, never a claim nobody checked. Shared out among `threads`, each
/// problem on a cleared table; the caller makes sure first that a table of
/// `config.hash_mb` can be had.
pub fn settle(
    problems: &[Problem],
    config: &SolverConfig,
    threads: usize,
) -> Vec<Result<Problem, String>> {
    super::per_problem(problems, config, threads, |solver, _, p| {
        p.settled(solver).map_err(|e| e.to_string())
    })
}

/// Close tries shown at most, per problem.
const CLOSE_TRIES: usize = 4;

/// The close tries of each problem, written out for [`book_with_tries`]: the checks at the
/// first move that a single defence refutes (`Fa*2c? Ph-1b!`), as
/// [`crate::solver::Solver::tries_at`] finds them on the record's main line, at most four
/// (then `and N more`); none for a record without a line, and none when `config`'s limits
/// stop the search. Each problem on a cleared table, shared out among `threads`, so the
/// list is the same whatever the thread count. The caller makes sure first that a table of
/// `config.hash_mb` can be had (a [`crate::solver::Solver::new`] with `config`).
pub fn close_tries(
    problems: &[Problem],
    config: &SolverConfig,
    threads: usize,
) -> Vec<Vec<String>> {
    super::per_problem(problems, config, threads, |solver, _, p| {
        let Ok((start, moves)) = p.main_line() else {
            return Vec::new();
        };
        if moves.is_empty() {
            return Vec::new();
        }
        solver.clear_table();
        let tries = solver.tries_at(&start, &moves, 1);
        if !tries.complete {
            return Vec::new();
        }
        let close: Vec<&Try> = tries
            .list
            .iter()
            .filter(|t| t.refutations.len() == 1)
            .collect();
        let mut out: Vec<String> = close
            .iter()
            .take(CLOSE_TRIES)
            .map(|t| {
                let (check, refutation) = answered_to_hodges(&start, t.mv, &t.refutations);
                format!("{check}? {}!", refutation[0])
            })
            .collect();
        if close.len() > CLOSE_TRIES {
            out.push(format!("and {} more", close.len() - CLOSE_TRIES));
        }
        out
    })
}

/// The whole page for `problems`, titled `title`. Fails on the first problem that cannot be
/// drawn, naming it.
pub fn book(problems: &[Problem], title: &str, labels: Labels) -> Result<String, BookError> {
    book_with_tries(problems, title, labels, &[])
}

/// [`book`], each problem's solution followed by its close tries (`tries[i]` for problem
/// `i`, from [`close_tries`]; a problem past the end of `tries` has none shown).
pub fn book_with_tries(
    problems: &[Problem],
    title: &str,
    labels: Labels,
    tries: &[Vec<String>],
) -> Result<String, BookError> {
    let mut body = String::new();
    let mut answers = String::new();
    let mut movers = Vec::with_capacity(problems.len());
    for (i, p) in problems.iter().enumerate() {
        let shown = tries.get(i).map(Vec::as_slice).unwrap_or_default();
        let d = draw(i, p, shown).map_err(|reason| BookError { index: i, reason })?;
        body.push_str(&d.problem);
        answers.push_str(&d.answer);
        movers.push(d.mover);
    }
    let any_given = problems
        .iter()
        .any(|p| p.convention() == DefenderHand::Given);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\" {root}><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{pieces}{STYLE}</style></head><body><h1>{t}</h1>\
         <p class=\"intro\">{count} problems. {who} <span class=\"screen\">Click “Solution” \
         under a problem to see its solution; all of them are at the end.</span>\
         <span class=\"print\">The solutions are at the end.</span></p>\
         <p class=\"screen\">{switch}</p>\
         <div class=\"problems\">\n{body}</div>\
         <section class=\"answers\" id=\"solutions\"><h2>Solutions</h2><ol>\n{answers}</ol>\
         </section><script>{script}</script></body></html>\n",
        t = escape(title),
        count = problems.len(),
        who = who_mates(&movers, any_given),
        root = super::pieces::root_attribute(labels),
        pieces = super::pieces::style(),
        switch = super::pieces::switch(labels),
        script = super::pieces::SWITCH_SCRIPT,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_sentence_names_the_side_that_mates() {
        assert_eq!(
            who_mates(&[Color::Black, Color::Black], false),
            "Black (☗) to move and mate; White (☖) holds every piece not shown."
        );
        assert_eq!(
            who_mates(&[Color::White], true),
            "White (☖) to move and mate; Black (☗) holds every piece not shown (where a \
             diagram says so, only the hand shown)."
        );
        assert!(who_mates(&[Color::Black, Color::White], false).starts_with("The side to move"));
    }
}
