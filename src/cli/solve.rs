//! `toritsume solve`: mate search on one position or a file of them, in parallel.

use super::search_args::{SearchArgs, make_solvers};
use super::ticker::Watch;
use super::{Answer, EXIT_USAGE, run_parallel};
use clap::Args;
use toritsume::notation::hodges::{line_to_hodges, to_hodges};
use toritsume::notation::sfen::write_sfen;
use toritsume::render::text::{Style, diagram};
use toritsume::report::{Extras, solve_item, to_json_line};
use toritsume::rules::{Move, Position, Square};
use toritsume::solver::{DefenderHand, Solution, Status, StopReason, UselessInterposition};

/// Arguments of `solve`.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// One JSON object per position and line.
    #[arg(long)]
    json: bool,
    /// Diagrams with kanji.
    #[arg(long)]
    unicode: bool,
    /// Also the variations: at each defender ply of the main line, every other real defence
    /// with its exact length and the mate that answers it (read like the main line, within
    /// the limits afresh).
    #[arg(long)]
    variations: bool,
    /// Also the tries: every other check at the first move, closest first, each with the
    /// defences that refute it (as `verify --tries` gives them).
    #[arg(long)]
    tries: bool,
    /// No closing count on standard error (given for a file of more than one position), nor
    /// what shows there at a terminal while the work runs (a single position's status line,
    /// a file's bar).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    lines: super::input::LinesArg,
    /// A position (SFEN, FEN, startpos [moves ...]), a FILE with one per line (SFEN, FEN, JSON
    /// problem records, pychess-variants records or EPD lines) or a CSV file of puzzles, or `-`
    /// for standard input.
    #[arg(required = true, num_args = 1..)]
    input: Vec<String>,
}

/// The line the text reports add when the defender holds only the hand the position gives.
pub const GIVEN_HAND_NOTE: &str =
    "Defender's hand: as the position gives it (not every piece left over)\n";

/// Numbered Hodges line: `1. Sw*7c Phx7c 2. Cr*6b`.
pub fn numbered(hodges: &[String]) -> String {
    numbered_from(hodges, 1)
}

/// Hodges moves numbered from ply `first` (1-based): an attacker ply opens its move number
/// (`3. Sw*6b`), a defender ply that opens the line is written `2... Ph-6a`.
pub fn numbered_from(hodges: &[String], first: usize) -> String {
    let mut parts = Vec::with_capacity(hodges.len());
    for (j, h) in hodges.iter().enumerate() {
        let ply = first + j;
        if ply % 2 == 1 {
            parts.push(format!("{}. {h}", ply.div_ceil(2)));
        } else if j == 0 {
            parts.push(format!("{}... {h}", ply / 2));
        } else {
            parts.push(h.clone());
        }
    }
    parts.join(" ")
}

/// A limit that stopped a search, in words, with the option that sets it (`the node limit
/// (--nodes) was reached`), as the text reports name it.
pub fn limit_text(r: StopReason) -> String {
    match r {
        StopReason::Nodes => "the node limit (--nodes) was reached".to_string(),
        StopReason::Time => "the time limit (--time) was reached".to_string(),
        other => other.to_string(),
    }
}

fn solution_text(
    sol: &Solution,
    origin: &str,
    style: Style,
    defender_hand: DefenderHand,
) -> String {
    let mut out = format!("# {origin}\n");
    out.push_str(&diagram(&sol.position, style));
    out.push_str(&format!("SFEN: {}\n", write_sfen(&sol.position)));
    if defender_hand == DefenderHand::Given {
        out.push_str(GIVEN_HAND_NOTE);
    }
    let stats = format!("{} nodes, {} ms", sol.nodes, sol.time.as_millis());
    match sol.status {
        Status::Mate => {
            let plies = sol.plies.unwrap_or(0);
            let limit = sol
                .stopped_by
                .map_or_else(|| "a limit was reached".to_string(), limit_text);
            out.push_str(&format!(
                "Mate in {}{}{} ({stats})\n",
                if sol.minimal { "" } else { "at most " },
                toritsume::notation::plies(plies),
                if sol.minimal {
                    ", proven shortest".to_string()
                } else {
                    format!(", shorter not ruled out ({limit})")
                }
            ));
            if sol.moves.is_empty() {
                out.push_str(&format!("(main line not read: {limit})\n"));
                out.push_str(&useless_interpositions_line(sol));
                return out;
            }
            let hodges = line_to_hodges(&sol.position, &sol.moves);
            out.push_str(&format!("{}\n", numbered(&hodges)));
            if !sol.complete {
                out.push_str(&format!("(main line cut short: {limit})\n"));
            }
            out.push_str(&format!(
                "USI: {}\n",
                sol.moves
                    .iter()
                    .map(|m| m.usi())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            out.push_str(&format!(
                "Spare pieces: {}\n",
                if !sol.complete {
                    "unknown (the main line is not the full length)".to_string()
                } else if sol.spare.is_empty() {
                    "none".to_string()
                } else {
                    toritsume::render::text::hand_hodges(sol.spare)
                }
            ));
            out.push_str(&useless_interpositions_line(sol));
        }
        Status::NoMate => match sol.max_plies {
            Some(n) => out.push_str(&format!(
                "No mate within {} ({stats})\n",
                toritsume::notation::plies(n)
            )),
            None => out.push_str(&format!("No mate ({stats})\n")),
        },
        Status::Unknown => out.push_str(&format!(
            "Unknown: {} ({stats})\n",
            sol.stopped_by
                .map_or_else(|| "a limit was reached".to_string(), limit_text)
        )),
    }
    out
}

/// Runs `solve`.
pub fn run(a: SolveArgs) -> anyhow::Result<i32> {
    // Ctrl-C and SIGTERM are taken from the start: one that comes while the input is read
    // or the tables are made stops the run cleanly too, rather than killing it.
    let _ = super::interrupt_flag();
    let items = a.lines.read(&a.input)?;
    let (workers, config) = a.search.plan(items.len())?;
    let style = if a.unicode {
        Style::Unicode
    } else {
        Style::Ascii
    };
    let json = a.json;
    let mut solvers = make_solvers(&config, workers)?;
    // A single position's status line at a terminal; Ctrl-C stops the searches under way
    // (which report what they proved) and the run.
    let watch = Watch::new(&mut solvers, items.len(), a.quiet);
    let tally = super::tally::Tally::new(&["mate", "nomate", "unknown"]);
    let bar = super::ticker::file_bar(items.len(), a.quiet, "positions");
    let outcome = run_parallel(&items, solvers, bar, Some(&watch.stop), |solver, item| {
        let ticker = watch.ticker();
        let extras = Extras {
            variations: a.variations,
            tries: a.tries,
        };
        let solved = solve_item(solver, item, config.defender_hand, extras);
        // The line is erased before the answer is printed.
        if let Some(t) = ticker {
            t.stop();
        }
        let solved = solved?;
        let sol = &solved.solution;
        tally.add(&sol.status.to_string());
        let text = if json {
            to_json_line(&solved.report)
        } else {
            let defender_hand = solver.config().defender_hand;
            let mut text = solution_text(sol, &item.origin, style, defender_hand);
            if let Some(vars) = &solved.variations {
                text.push_str(&super::variations::text(sol, vars));
            }
            if let Some(t) = &solved.tries {
                text.push_str(&super::tries::text(sol, t));
            }
            text
        };
        let error = solved.contradiction;
        Ok(Answer { text, error })
    })?;
    tally.close(
        &outcome,
        (&items, &a.lines),
        a.quiet,
        ("position", "positions"),
    );
    Ok(if outcome.interrupted {
        super::EXIT_INTERRUPTED
    } else if outcome.failed > 0 || outcome.contradicted > 0 {
        EXIT_USAGE
    } else {
        0
    })
}

/// The report's line naming the useless interpositions a main line leaves out, or nothing
/// when there are none: by ply, in Hodges' notation as the solution is, a board move as
/// itself and the drops on each set of squares written once (`ply 4: Cr-6b, or Sw or Pt
/// dropped on 6b; ply 6: Sw or Pt dropped on 1c or 1d`). The JSON lists each move.
pub(super) fn useless_interpositions_line(sol: &Solution) -> String {
    if sol.useless.is_empty() {
        return String::new();
    }
    format!(
        "Useless interpositions left out: {}\n",
        useless_text(&sol.position, &sol.moves, &sol.useless)
    )
}

/// `a`, `a or b`, `a, b or c`.
fn either(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The useless interpositions `list` (in ply order) grouped by ply, see
/// [`useless_interpositions_line`]: `line` is the main line played from `start`, whose
/// position before each ply writes that ply's board moves. A ply the line does not reach
/// (a line cut short) has its board moves in USI.
fn useless_text(start: &Position, line: &[Move], list: &[UselessInterposition]) -> String {
    let mut pos = start.clone();
    let mut played = 0;
    let mut plies: Vec<String> = Vec::new();
    for chunk in list.chunk_by(|a, b| a.ply == b.ply) {
        let ply = chunk[0].ply;
        while played + 1 < ply && played < line.len() {
            pos.do_move(line[played]);
            played += 1;
        }
        let reached = played + 1 == ply;
        // Each dropped-on square with the kinds dropped there, in the order first seen.
        let mut squares: Vec<(Square, Vec<&str>)> = Vec::new();
        let mut moves = Vec::new();
        for u in chunk {
            if u.mv.is_drop() {
                let name = u.mv.drop_kind().hodges();
                match squares.iter_mut().find(|(sq, _)| *sq == u.mv.to()) {
                    Some((_, kinds)) => kinds.push(name),
                    None => squares.push((u.mv.to(), vec![name])),
                }
            } else if reached {
                moves.push(to_hodges(&pos, u.mv));
            } else {
                moves.push(u.mv.usi());
            }
        }
        // Squares with the same kinds go together.
        let mut groups: Vec<(Vec<&str>, Vec<String>)> = Vec::new();
        for (sq, kinds) in squares {
            match groups.iter_mut().find(|(k, _)| *k == kinds) {
                Some((_, sqs)) => sqs.push(sq.to_string()),
                None => groups.push((kinds, vec![sq.to_string()])),
            }
        }
        let mut parts = moves;
        parts.extend(groups.into_iter().map(|(kinds, sqs)| {
            let kinds: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
            format!("{} dropped on {}", either(&kinds), either(&sqs))
        }));
        plies.push(format!("ply {ply}: {}", parts.join(", or ")));
    }
    plies.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(ply: usize, usi: &str, pos: &str) -> UselessInterposition {
        let p = toritsume::notation::parse_position(pos).expect("a position");
        UselessInterposition {
            ply,
            mv: toritsume::notation::usi::parse_usi_move(&p, usi).expect("a move of the position"),
        }
    }

    #[test]
    fn useless_interpositions_are_grouped_by_ply_and_square() {
        // A position only to read the moves from: White to move with pieces in hand, a
        // White crane on 7a.
        let w = "c5k/7/7/7/7/7/6K w spc 1";
        let list = [
            u(4, "7a6b", w),
            u(4, "S*6b", w),
            u(4, "P*6b", w),
            u(4, "S*5c", w),
            u(4, "P*5c", w),
            u(4, "C*4d", w),
            u(6, "S*1c", w),
        ];
        // Ply 4 is reached from `start` (Black to move, the same pieces) by three phoenix
        // moves that touch none of those squares; the line stops before ply 6.
        let start =
            toritsume::notation::parse_position("c5k/7/7/7/7/7/6K b spc 1").expect("a position");
        let mut pos = start.clone();
        let mut line = Vec::new();
        for m in ["1g2g", "1a2a", "2g1g"] {
            let m = toritsume::notation::usi::parse_usi_move(&pos, m).expect("a legal move");
            pos.do_move(m);
            line.push(m);
        }
        assert_eq!(
            useless_text(&start, &line, &list),
            "ply 4: Cr-6b, or Sw or Pt dropped on 6b or 5c, or Cr dropped on 4d; \
             ply 6: Sw dropped on 1c"
        );
        assert_eq!(either(&["a".into(), "b".into(), "c".into()]), "a, b or c");
    }
}
