//! `toritsume verify`: soundness of problems (cooks, duals, spare and redundant pieces).

use super::search_args::SearchArgs;
use super::solve::{numbered, numbered_from};
use super::ticker::Watch;
use super::{Answer, run_parallel};
use clap::Args;
use toritsume::notation::hodges::line_to_hodges;
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::usi::line_to_usi as usi;
use toritsume::report::verify::repaired_sfen;
use toritsume::report::{Mended, VerifyOptions, to_json_line, verify_item};
use toritsume::solver::DefenderHand;
use toritsume::soundness::{Economised, Report, Verdict};

/// Arguments of `verify`.
#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// The intended solution (USI or Hodges, move numbers allowed), for a single position.
    /// Without it, a JSON record's `moves` are taken as its intended solution.
    #[arg(long, value_name = "MOVES")]
    solution: Option<String>,
    /// One JSON object per position and line.
    #[arg(long)]
    json: bool,
    /// Also the variations of the main line, as `solve --variations` gives them.
    #[arg(long)]
    variations: bool,
    /// For a problem that is not sound, the single changes after which it is, with its
    /// solution (the intended one, if given) kept: a defender piece put on an empty square,
    /// an attacker piece taken off the board or out of the hand.
    #[arg(long)]
    repair: bool,
    /// Also the tries: every other check at the first move, closest first, each with the
    /// defences that refute it within the solution's length (none for a check that mates
    /// too: a cook).
    #[arg(long)]
    tries: bool,
    /// No closing count on standard error (given for a file of more than one problem), nor
    /// what shows there at a terminal while the work runs (a single problem's status line,
    /// the bar of a file's problems answered while the reports go to a file or a pipe).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    lines: super::input::LinesArg,
    /// A position, a FILE with one per line (SFEN, FEN, JSON problem records, pychess-variants
    /// records or EPD lines) or a CSV file of puzzles, or `-`.
    #[arg(required = true, num_args = 1..)]
    input: Vec<String>,
}

fn report_text(
    r: &Report,
    better: Option<&Economised>,
    origin: &str,
    defender_hand: DefenderHand,
) -> String {
    let sol = &r.solution;
    let mut out = format!("# {origin}\nSFEN: {}\n", write_sfen(&sol.position));
    if defender_hand == DefenderHand::Given {
        out.push_str(super::solve::GIVEN_HAND_NOTE);
    }
    out.push_str(&format!("Verdict: {}\n", r.verdict));
    if let Some(n) = sol.plies {
        // A limit may have stopped the solve before the length was proven shortest, or
        // while the line was read: what is shown says so.
        out.push_str(&format!(
            "Solution ({}{}{}): {}{}\n",
            if sol.minimal { "" } else { "at most " },
            toritsume::notation::plies(n),
            if sol.minimal {
                ""
            } else {
                ", shorter not ruled out"
            },
            if sol.moves.is_empty() {
                "(not read)".to_string()
            } else {
                numbered(&line_to_hodges(&sol.position, &sol.moves))
            },
            if !sol.moves.is_empty() && !sol.complete {
                " (cut short)"
            } else {
                ""
            }
        ));
    }
    // Where an alternative stands: said only when it is off the main line, and then from
    // where its variation leaves the main line (a long problem's variations share most of
    // their moves with it). Lines are in Hodges, numbered from their ply, then in USI.
    let after = |c: &toritsume::soundness::Cook| {
        let shared = c
            .after
            .iter()
            .zip(&sol.moves)
            .take_while(|(a, b)| a == b)
            .count();
        if c.after.len() + 1 == c.ply && shared == c.after.len() {
            String::new()
        } else {
            let mut pos = sol.position.clone();
            for &m in &c.after[..shared] {
                pos.do_move(m);
            }
            let rest = &c.after[shared..];
            let hodges = numbered_from(&line_to_hodges(&pos, rest), shared + 1);
            let then = format!("{hodges}, USI {}", usi(rest).join(" "));
            if shared == 0 {
                format!(" (after {then})")
            } else {
                format!(" (after the main line to ply {shared}, then {then})")
            }
        }
    };
    // The position at an alternative's ply, where its line starts.
    let at = |c: &toritsume::soundness::Cook| {
        let mut pos = sol.position.clone();
        for &m in &c.after {
            pos.do_move(m);
        }
        pos
    };
    for c in &r.cooks {
        out.push_str(&format!(
            "Cook at ply {}{}: {} (USI {})\n",
            c.ply,
            after(c),
            numbered_from(&line_to_hodges(&at(c), &c.line), c.ply),
            usi(&c.line).join(" ")
        ));
    }
    for c in &r.final_duals {
        out.push_str(&format!(
            "Final dual at ply {}{}: {} (USI {})\n",
            c.ply,
            after(c),
            numbered_from(&line_to_hodges(&at(c), &[c.mv]), c.ply),
            c.mv.usi()
        ));
    }
    if sol.has_spare_pieces() {
        out.push_str(&format!(
            "Spare pieces: {}\n",
            toritsume::render::text::hand_hodges(sol.spare)
        ));
    }
    for x in &r.redundant {
        out.push_str(&format!("Redundant: {x}\n"));
    }
    out.push_str(&super::solve::useless_interpositions_line(sol));
    if let Some(i) = &r.intended {
        out.push_str(&format!(
            "Intended solution: {}\n",
            if i.stopped.is_some() {
                "undecided (a limit stopped its check)".to_string()
            } else if i.is_main_line {
                "the main line".to_string()
            } else if i.is_solution {
                "a solution (another equally long defence)".to_string()
            } else {
                format!(
                    "wrong: {}",
                    i.problem
                        .as_ref()
                        .map(|p| p.to_string())
                        .unwrap_or_default()
                )
            }
        ));
    }
    for reason in &r.reasons {
        out.push_str(&format!("- {reason}\n"));
    }
    if let Some(b) = better {
        let taken: Vec<String> = b.taken_off.iter().map(|x| x.to_string()).collect();
        out.push_str(&format!(
            "Sound without {} ({}, {} nodes): {}\n",
            taken.join(" and "),
            toritsume::notation::plies(b.report.solution.plies.unwrap_or(0)),
            b.nodes,
            write_sfen(&b.position)
        ));
    }
    out.push_str(&format!("{} nodes, {} ms\n", r.nodes, r.time.as_millis()));
    out
}

fn repairs_text(m: &Mended) -> String {
    let r = match m {
        Mended::NotSought(why) => return format!("Repairs: {why}\n"),
        Mended::Sought { repairs, .. } => repairs,
    };
    let mut out = format!(
        "Repairs (single changes after which the problem is sound with this solution): {} of {} changes{}{}\n",
        r.found.len(),
        r.tried,
        if r.undecided.is_empty() {
            String::new()
        } else {
            format!(", {} undecided", r.undecided.len())
        },
        if r.stopped {
            ", stopped before the rest were tried"
        } else {
            ""
        }
    );
    for (change, pos) in &r.found {
        out.push_str(&format!("  {change}: {}\n", repaired_sfen(pos)));
    }
    for (change, why) in &r.undecided {
        out.push_str(&format!("  undecided: {change} ({why})\n"));
    }
    out
}

/// Runs `verify`: exit 0 when every problem is sound, 1 when one is not, 2 on bad input.
pub fn run(a: VerifyArgs) -> anyhow::Result<i32> {
    // Ctrl-C and SIGTERM are taken from the start: one that comes while the input is read
    // or the tables are made stops the run cleanly too, rather than killing it.
    let _ = super::interrupt_flag();
    let items = a.lines.read(&a.input)?;
    if a.solution.is_some() && items.len() != 1 {
        anyhow::bail!(
            "--solution applies to a single position, not {} of them",
            items.len()
        );
    }
    let (workers, config) = a.search.plan(items.len())?;
    // A single problem's repairs share out the threads; a file's problems already do.
    let repair_threads = if items.len() == 1 {
        super::threads_arg(a.search.threads)?
    } else {
        1
    };
    let unsound = std::sync::atomic::AtomicUsize::new(0);
    let json = a.json;
    let options = VerifyOptions {
        solution: a.solution.clone(),
        variations: a.variations,
        tries: a.tries,
        repair: a.repair,
        repair_threads,
    };
    let mut solvers = super::search_args::make_solvers(&config, workers)?;
    // A single problem's status line at a terminal; Ctrl-C stops the verifications under
    // way (which report what they found) and the run.
    let watch = Watch::new(&mut solvers, items.len(), a.quiet);
    let tally = super::tally::Tally::new(&["sound", "cooked", "flawed", "nomate", "unknown"]);
    let bar = super::ticker::file_bar(items.len(), a.quiet, "problems");
    let outcome = run_parallel(&items, solvers, bar, Some(&watch.stop), |solver, item| {
        let ticker = watch.ticker();
        let verified = verify_item(solver, item, config.defender_hand, &options);
        // The line is erased before the report is printed.
        if let Some(t) = ticker {
            t.stop();
        }
        let v = verified?;
        let r = &v.report;
        tally.add(&r.verdict.to_string());
        if r.verdict != Verdict::Sound {
            unsound.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        let text = if json {
            to_json_line(&v.json)
        } else {
            let defender_hand = solver.config().defender_hand;
            let mut text = report_text(r, v.economised.as_ref(), &item.origin, defender_hand);
            if let Some(vars) = &v.variations {
                text.push_str(&super::variations::text(&r.solution, vars));
            }
            if let Some(t) = &v.tries {
                text.push_str(&super::tries::text(&r.solution, t));
            }
            if let Some(m) = &v.repairs {
                text.push_str(&repairs_text(m));
            }
            text
        };
        let error = v.contradiction;
        Ok(Answer { text, error })
    })?;
    tally.close(
        &outcome,
        (&items, &a.lines),
        a.quiet,
        ("problem", "problems"),
    );
    Ok(if outcome.interrupted {
        super::EXIT_INTERRUPTED
    } else if outcome.failed > 0 || outcome.contradicted > 0 {
        super::EXIT_USAGE
    } else if unsound.into_inner() > 0 {
        1
    } else {
        0
    })
}
