//! `toritsume verify`: soundness of problems (cooks, duals, spare and redundant pieces).

use super::input::Item;
use super::search_args::SearchArgs;
use super::solve::{numbered, numbered_from, useless_json};
use super::ticker::Watch;
use super::{Answer, run_parallel};
use clap::Args;
use serde_json::json;
use toritsume::notation::hodges::line_to_hodges;
use toritsume::notation::parse_move_list;
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::usi::line_to_usi as usi;
use toritsume::rules::{Move, Position};
use toritsume::solver::{DefenderHand, Solver, SolverConfig, prepare};
use toritsume::soundness::{
    Change, Economised, Redundant, Repairs, Report, Verdict, economise, repairs, verify,
};

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

fn intended_moves(
    item: &Item,
    pos: &Position,
    flag: Option<&str>,
    defender_hand: toritsume::solver::DefenderHand,
) -> Result<Option<Vec<Move>>, String> {
    let text = match (flag, &item.record) {
        (Some(t), _) => t.to_string(),
        (None, Some(r)) if !r.moves.is_empty() => r.moves.join(" "),
        _ => return Ok(None),
    };
    let prepared = prepare(pos, defender_hand);
    let moves = parse_move_list(&prepared, &text).map_err(|e| format!("intended solution: {e}"))?;
    if moves.is_empty() {
        return Err("intended solution: no moves in it".to_string());
    }
    Ok(Some(moves))
}

/// A piece too many in JSON: `{where, piece, description}`.
fn redundant_json(x: &Redundant) -> serde_json::Value {
    match x {
        Redundant::Board { square, piece } => json!({
            "where": square.to_string(), "piece": piece.sfen(), "description": x.to_string()
        }),
        Redundant::Hand { kind } => json!({
            "where": "hand", "piece": kind.letter().to_string(), "description": x.to_string()
        }),
    }
}

/// The JSON object of a report, made with the defender holding `defender_hand`.
pub fn report_json(
    r: &Report,
    better: Option<&Economised>,
    item: &Item,
    defender_hand: DefenderHand,
) -> serde_json::Value {
    let sol = &r.solution;
    let cook = |c: &toritsume::soundness::Cook| {
        json!({
            "ply": c.ply,
            "move": c.mv.usi(),
            "line": usi(&c.line),
            "after": usi(&c.after),
        })
    };
    let mut v = json!({
        "position": write_sfen(&sol.position),
        "origin": item.origin,
        "verdict": r.verdict.to_string(),
        "reasons": r.reasons.iter().map(|f| f.to_string()).collect::<Vec<_>>(),
        "plies": sol.plies,
        "minimal": sol.minimal,
        "complete": sol.complete,
        "moves": usi(&sol.moves),
        "hodges": line_to_hodges(&sol.position, &sol.moves),
        "cooks": r.cooks.iter().map(cook).collect::<Vec<_>>(),
        "final_duals": r.final_duals.iter().map(cook).collect::<Vec<_>>(),
        "spare_pieces": super::solve::spare_pieces_json(sol),
        "spare": super::solve::spare_json(sol),
        "redundant_pieces": r.redundant.iter().map(redundant_json).collect::<Vec<_>>(),
        "useless_interpositions": useless_json(&sol.useless),
        "intended": r.intended.as_ref().map(|i| json!({
            "moves": usi(&i.moves),
            "is_main_line": i.is_main_line,
            "is_solution": i.is_solution,
            "problem": i.problem.as_ref().map(|p| p.to_string()),
            "decided": i.stopped.is_none(),
        })),
        "sound_without": better.map(|b| json!({
            "position": write_sfen(&b.position),
            "plies": b.report.solution.plies,
            "taken_off": b.taken_off.iter().map(redundant_json).collect::<Vec<_>>(),
            "nodes": b.nodes,
        })),
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "defender_hand": defender_hand.to_string(),
    });
    if sol.complete && sol.minimal {
        v["themes"] = json!(toritsume::generator::themes::analyse(r).0);
    }
    super::input::carry_record_fields(&mut v, item);
    v
}

fn report_text(
    r: &Report,
    better: Option<&Economised>,
    item: &Item,
    defender_hand: DefenderHand,
) -> String {
    let sol = &r.solution;
    let mut out = format!("# {}\nSFEN: {}\n", item.origin, write_sfen(&sol.position));
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

/// The node budget of each change's verification when `--nodes` sets none.
const REPAIR_NODES: u64 = 5_000_000;

/// The table of the repairs' verifications, MB (as the generator's workers have).
const REPAIR_HASH_MB: usize = 16;

/// What `--repair` made of a problem.
enum Mended {
    /// Sought: what was found.
    Sought {
        repairs: Repairs,
        /// The node budget of each change.
        nodes: u64,
    },
    /// Not sought, and why.
    NotSought(&'static str),
}

/// The repairs of `pos`, whose report is `r`, keeping `intended` or else its main line,
/// `threads` changes verified at a time.
fn repair(
    solver: &Solver,
    pos: &Position,
    r: &Report,
    intended: Option<&[Move]>,
    threads: usize,
) -> Mended {
    let sol = &r.solution;
    match r.verdict {
        Verdict::Sound => return Mended::NotSought("none needed: the problem is sound"),
        Verdict::NoMate | Verdict::Unknown => {
            return Mended::NotSought("not sought: there is no proven solution to keep");
        }
        Verdict::Cooked | Verdict::Flawed => {}
    }
    if !sol.is_whole_mate() {
        return Mended::NotSought("not sought: there is no proven solution to keep");
    }
    if solver.config().defender_hand == DefenderHand::Given {
        return Mended::NotSought(
            "not sought: repairs put down and take off pieces under the tsume convention, \
             and this problem states the defender's hand",
        );
    }
    let target = intended.unwrap_or(&sol.moves).to_vec();
    let nodes = solver.config().nodes.unwrap_or(REPAIR_NODES);
    // Each change on one thread and a table of its own, of a fixed size, so that its node
    // count, and so whether it is decided within the budget, is the same whatever `--hash`
    // and `--threads` are; `threads` of them at a time.
    let config = SolverConfig {
        nodes: Some(nodes),
        hash_mb: REPAIR_HASH_MB,
        ..solver.config().clone()
    };
    match repairs(&config, pos, &target, threads) {
        Ok(repairs) => Mended::Sought { repairs, nodes },
        Err(_) => Mended::NotSought("not sought: no memory for the tables of the repairs"),
    }
}

/// A repaired position as a problem is written: the defender's hand left to the convention.
fn repaired_sfen(pos: &Position) -> String {
    let mut p = pos.clone();
    p.set_hand(pos.side_to_move().flip(), toritsume::rules::Hand::EMPTY);
    write_sfen(&p)
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

fn repairs_json(m: &Mended) -> serde_json::Value {
    let (r, nodes) = match m {
        Mended::NotSought(why) => return json!({ "sought": false, "why": why }),
        Mended::Sought { repairs, nodes } => (repairs, nodes),
    };
    let found: Vec<serde_json::Value> = r
        .found
        .iter()
        .map(|(c, pos)| {
            let (kind, square, piece) = match c {
                Change::Added { square, piece } => {
                    ("added", Some(square.to_string()), piece.sfen())
                }
                Change::TakenOff { square, piece } => {
                    ("taken_off", Some(square.to_string()), piece.sfen())
                }
                Change::OutOfHand { kind } => ("out_of_hand", None, kind.letter().to_string()),
                Change::Moved { to, piece, .. } => ("moved", Some(to.to_string()), piece.sfen()),
            };
            json!({
                "change": kind,
                "square": square,
                "piece": piece,
                "description": c.to_string(),
                "position": repaired_sfen(pos),
            })
        })
        .collect();
    json!({
        "sought": true,
        "found": found,
        "tried": r.tried,
        "undecided": r
            .undecided
            .iter()
            .map(|(c, why)| json!({ "description": c.to_string(), "why": why }))
            .collect::<Vec<_>>(),
        "nodes_each": nodes,
        "nodes": r.nodes,
        "complete": !r.stopped,
    })
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
    let flag = a.solution.as_deref();
    let mut solvers = super::search_args::make_solvers(&config, workers)?;
    // A single problem's status line at a terminal; Ctrl-C stops the verifications under
    // way (which report what they found) and the run.
    let watch = Watch::new(&mut solvers, items.len(), a.quiet);
    let tally = super::tally::Tally::new(&["sound", "cooked", "flawed", "nomate", "unknown"]);
    let bar = super::ticker::file_bar(items.len(), a.quiet, "problems");
    let outcome = run_parallel(&items, solvers, bar, Some(&watch.stop), |solver, item| {
        let pos = item.position.as_ref().map_err(|e| e.clone())?;
        solver.set_defender_hand(item.defender_hand(config.defender_hand));
        let intended = intended_moves(item, pos, flag, solver.config().defender_hand)?;
        // Each problem starts from an empty table: the answer then does not depend on
        // which worker took which problems before, and old entries do not crowd the
        // table.
        solver.clear_table();
        let ticker = watch.ticker();
        let r = verify(solver, pos, intended.as_deref());
        let vars = a.variations.then(|| solver.variations(&r.solution));
        let tries = a.tries.then(|| solver.tries(&r.solution));
        // The line is erased before the report is printed.
        if let Some(t) = ticker {
            t.stop();
        }
        // A problem flawed only by pieces too many: the sound one without them, if any.
        let better = if r.verdict == Verdict::Flawed {
            economise(solver, pos, &r)
        } else {
            None
        };
        let mended = a
            .repair
            .then(|| repair(solver, pos, &r, intended.as_deref(), repair_threads));
        tally.add(&r.verdict.to_string());
        if r.verdict != Verdict::Sound {
            unsound.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        // The record's claims against the report: its status and length, and its line
        // (the intended solution, when --solution gives none other).
        let error = item.record.as_ref().and_then(|rec| {
            rec.disagreement(&r.solution)
                .or_else(|| {
                    let fault = r.intended.as_ref()?.problem.as_ref()?;
                    (flag.is_none()).then(|| toritsume::problem::answer::not_the_solution(fault))
                })
                .or_else(|| {
                    // A verdict is compared only when no length limit of the command's own
                    // could have hidden the mate.
                    r.solution
                        .max_plies
                        .is_none()
                        .then(|| rec.verdict_disagreement(r.verdict))
                        .flatten()
                })
        });
        let error = error.map(|e| e.to_string());
        let defender_hand = solver.config().defender_hand;
        let text = if json {
            let mut v = report_json(&r, better.as_ref(), item, defender_hand);
            if let Some(vars) = &vars {
                super::variations::add_json(&mut v, &r.solution, vars);
            }
            if let Some(t) = &tries {
                v["tries"] = super::tries::json(&r.solution, t);
            }
            if let Some(m) = &mended {
                v["repairs"] = repairs_json(m);
            }
            v.to_string()
        } else {
            let mut text = report_text(&r, better.as_ref(), item, defender_hand);
            if let Some(vars) = &vars {
                text.push_str(&super::variations::text(&r.solution, vars));
            }
            if let Some(t) = &tries {
                text.push_str(&super::tries::text(&r.solution, t));
            }
            if let Some(m) = &mended {
                text.push_str(&repairs_text(m));
            }
            text
        };
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
