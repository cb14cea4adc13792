//! The training page: one self-contained HTML file (inline script and style, no network,
//! works from `file://`) on which a person plays the attacker's moves of each problem and
//! is told whether they are right. The page carries, per problem, the position (the
//! defender's hand filled in), the main line (USI and Hodges), the moves it accepts at the
//! last attacker move (every mate in one there: the solution's and its final duals), the
//! defence that refutes each other check at each attacker move (the tries), and the
//! record's length, themes, rating and note; `train.js` does the rest.

use super::book::BookError;
use super::svg::{Labels, escape};
use crate::notation::hodges::{answered_to_hodges, line_to_hodges};
use crate::notation::sfen::write_sfen;
use crate::problem::Problem;
use crate::rules::{Move, Position};
use crate::solver::{Solver, SolverConfig};
use serde_json::{Value, json};

/// The page's script and style sheet, after what the pages with a board share.
const SCRIPT: &str = concat!(include_str!("board.js"), include_str!("train.js"));
const STYLE: &str = concat!(include_str!("board.css"), include_str!("train.css"));

/// The mating moves at the main line's last attacker move: the solution's own first, then
/// the final duals (every other move that mates at once, useless interpositions being no
/// defence).
fn last_move_mates(solver: &mut Solver, start: &Position, moves: &[Move]) -> Vec<String> {
    let Some((&last, before)) = moves.split_last() else {
        return Vec::new();
    };
    let mut pos = start.clone();
    for &m in before {
        pos.do_move(m);
    }
    solver.clear_table();
    let mut out = vec![last.usi()];
    out.extend(
        solver
            .mating_moves(&pos, 1)
            .into_iter()
            .filter(|&m| m != last)
            .map(|m| m.usi()),
    );
    out
}

/// For each attacker move of the main line, the checks there that do not mate in time, each
/// with its first refutation (USI and Hodges) and the number of its refutations:
/// `{"F*2c": ["2a1b", "Ph-1b", 1], ...}`, so that the page can answer a wrong check with
/// the defence that beats it. `null` for a move whose tries a limit stopped (the page then
/// says only that the move is wrong).
fn refutations(solver: &mut Solver, start: &Position, moves: &[Move]) -> Vec<Value> {
    solver.clear_table();
    let mut before = start.clone();
    let mut out = Vec::new();
    for ply in (1..=moves.len()).step_by(2) {
        let tries = solver.tries_at(start, moves, ply);
        if tries.complete {
            let mut map = serde_json::Map::new();
            for t in tries.list.iter().filter(|t| !t.mates()) {
                let first = t.refutations[0];
                let (_, hodges) = answered_to_hodges(&before, t.mv, &[first]);
                map.insert(
                    t.mv.usi(),
                    json!([first.usi(), hodges[0], t.refutations.len()]),
                );
            }
            out.push(Value::Object(map));
        } else {
            out.push(Value::Null);
        }
        for &m in moves[ply - 1..].iter().take(2) {
            before.do_move(m);
        }
    }
    out
}

/// What the page knows of problem number `n`; `None` for a record without a mate (nothing
/// to play), an error for one that cannot be read.
fn entry(solver: &mut Solver, n: usize, p: &Problem) -> Result<Option<Value>, String> {
    let Some(plies) = p.plies else {
        return Ok(None);
    };
    if p.moves.is_empty() {
        return Ok(None);
    }
    let (start, moves) = p.main_line().map_err(|e| e.to_string())?;
    if moves.len() != plies as usize {
        return Err(format!(
            "its main line has {} moves, its length is {plies}",
            moves.len()
        ));
    }
    let mut themes: Vec<String> = p
        .extra
        .get("themes")
        .and_then(|t| t.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mate_in = format!("mateIn{}", plies.div_ceil(2));
    if !themes.contains(&mate_in) {
        themes.insert(0, mate_in);
    }
    Ok(Some(json!({
        "n": n,
        "sfen": write_sfen(&start),
        "plies": plies,
        "moves": crate::notation::usi::line_to_usi(&moves),
        "hodges": line_to_hodges(&start, &moves),
        "final": last_move_mates(solver, &start, &moves),
        "tries": refutations(solver, &start, &moves),
        "themes": themes,
        "rating": p.extra.get("rating").and_then(|r| r.as_u64()),
        "note": p.note,
    })))
}

/// A short key of the problem set (its positions and lines), so that the progress of one
/// page is not taken for another's in the browser's storage.
fn set_key(entries: &[Value]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for e in entries {
        for b in e.to_string().bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The page for `problems`, titled `title`, and the number of problems it holds (records
/// without a mate are left out: there is nothing to play). Solvers made with `config` find
/// the moves accepted at each last move and the refutations of the other checks, the
/// problems shared out among `threads` (each problem on a cleared table, so the page is the
/// same whatever the thread count). Fails on the first record that cannot be read, naming
/// it. The caller makes sure first that a table of `config.hash_mb` can be had (a
/// [`Solver::new`] with `config`): the workers' tables are taken as given.
pub fn train_page(
    problems: &[Problem],
    title: &str,
    labels: Labels,
    config: &SolverConfig,
    threads: usize,
) -> Result<(String, usize), BookError> {
    let made = super::per_problem(problems, config, threads, |solver, i, p| {
        entry(solver, i + 1, p)
    });
    let mut entries = Vec::new();
    for (i, e) in made.into_iter().enumerate() {
        if let Some(e) = e.map_err(|reason| BookError { index: i, reason })? {
            entries.push(e);
        }
    }
    let data = json!({
        "set": set_key(&entries),
        "letters": labels == Labels::Letters,
        "problems": entries,
    });
    let data = super::inline_json(&data);
    let count = entries.len();
    let html = format!(
        r#"<!DOCTYPE html>
<html lang="en" {root}><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t}</title><style>{pieces}{STYLE}</style></head>
<body>
<header><h1>{t}</h1>{switch}</header>
<main>
<section id="play" aria-label="board">
<h2 id="title"></h2>
<p id="themes"></p>
<div class="hands" id="hand-w" aria-label="White's hand"></div>
<div id="board" role="grid" aria-label="board"></div>
<div class="hands" id="hand-b" aria-label="Black's hand"></div>
<p id="message" role="status" aria-live="polite"></p>
<div class="controls">
<button id="hint" title="h">Hint</button>
<button id="solution" title="s">Show solution</button>
<button id="step-prev" title=",">◀</button>
<button id="step-next" title=".">▶</button>
<button id="retry" title="r">Start again</button>
<button id="prev" title="p">← Previous</button>
<button id="next" title="n">Next →</button>
</div>
<p id="line"></p>
<p id="note"></p>
<p class="keys">Click a piece (or a piece in hand), then a square. Keys: arrows and Enter on
the board, h hint, s solution (then . and , step), r start again, n/p next/previous.</p>
</section>
<aside id="side" aria-label="problems">
<div class="filters">
<label>Length <select id="f-length"><option value="">all</option></select></label>
<label>Theme <select id="f-theme"><option value="">all</option></select></label>
<label>Rating <input id="f-min" type="number" placeholder="min"> – <input id="f-max" type="number" placeholder="max"></label>
</div>
<p id="count"></p>
<ul id="list"></ul>
<p><button id="reset-progress">Forget my progress</button></p>
</aside>
</main>
<script id="problems" type="application/json">{data}</script>
<script>{SCRIPT}</script>
<script>{switch_script}</script>
</body></html>
"#,
        t = escape(title),
        root = super::pieces::root_attribute(labels),
        pieces = super::pieces::style(),
        switch = super::pieces::switch(labels),
        switch_script = super::pieces::SWITCH_SCRIPT,
    );
    Ok((html, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_move_accepts_every_mate_in_one_there() {
        // problems/classic.jsonl's C*2b 1c1b F*2a: after the first two moves the verifier
        // lists three final duals, 2e1f, F*2c and F*1c; the page accepts those and the
        // solution's own move, which comes first.
        let p = Problem::from_json(
            r#"{"sfen":"7/7/6k/5P1/5L1/7/7 b FC 1","plies":3,"moves":["C*2b","1c1b","F*2a"]}"#,
        )
        .expect("a record");
        let (start, moves) = p.main_line().expect("a legal line");
        let mut solver = Solver::new(Default::default()).expect("a small table");
        let mates = last_move_mates(&mut solver, &start, &moves);
        assert_eq!(mates[0], "F*2a");
        let mut duals = mates[1..].to_vec();
        duals.sort();
        assert_eq!(duals, ["2e1f", "F*1c", "F*2c"]);
    }

    #[test]
    fn a_wrong_check_is_answered_by_a_defence_that_refutes_it() {
        // problems/classic.jsonl's No. 14, worked out by hand: Black's swallow 7b, crane 4b
        // and falcon 7d, a falcon and a right quail in hand; White's phoenix 6a. F*6b is met
        // only by the phoenix taking it (nothing guards 6b, and the falcon holds 5a, 5b,
        // 7a and 7b); R*6b by the phoenix taking it or the swallow on 7b (Ph-5b loses to
        // F*5c). R*7c gives no check, so it is not among the tries.
        let p = Problem::from_json(
            r#"{"sfen":"1k5/S2C3/7/F6/7/7/7 b FR 1","plies":3,"moves":["F*5a","6a7b","R*7c"]}"#,
        )
        .expect("a record");
        let (start, moves) = p.main_line().expect("a legal line");
        let mut solver = Solver::new(Default::default()).expect("a small table");
        let tries = refutations(&mut solver, &start, &moves);
        assert_eq!(tries.len(), 2, "one map per attacker move");
        assert_eq!(tries[0]["F*6b"], json!(["6a6b", "Phx6b", 1]));
        assert_eq!(tries[0]["R*6b"], json!(["6a7b", "Phx7b", 2]));
        assert!(tries[0].get("R*7c").is_none() && tries[0].get("F*5a").is_none());
    }

    #[test]
    fn records_without_a_mate_are_left_out_and_a_bad_line_is_named() {
        let nomate = Problem::from_json(r#"{"sfen":"3k3/7/7/7/7/7/7 b S 1","status":"nomate"}"#)
            .expect("a record");
        let bad = Problem::from_json(
            r#"{"sfen":"7/7/6k/5P1/5L1/7/7 b FC 1","plies":3,"moves":["C*2b","1c1b","F*9z"]}"#,
        )
        .expect("a record");
        let good = Problem::from_json(
            r#"{"sfen":"7/7/6k/5P1/5L1/7/7 b FC 1","plies":3,"moves":["C*2b","1c1b","F*2a"]}"#,
        )
        .expect("a record");
        let config = SolverConfig::default();
        let (html, count) =
            train_page(&[nomate.clone(), good], "T", Labels::Kanji, &config, 2).expect("a page");
        assert_eq!(count, 1);
        assert!(html.contains(r#""final":["F*2a","#));
        let e = train_page(&[nomate, bad], "T", Labels::Kanji, &config, 1).unwrap_err();
        assert_eq!(e.index, 1);
    }
}
