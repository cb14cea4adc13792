//! The report of a verification ([`VerifyReport`], what `verify --json` prints) and the
//! verification of one input item that makes it ([`verify_item`]): the verdict, the cooks
//! and duals, spare and redundant pieces, the intended solution, the sound problem without
//! the pieces too many, and on request the tries, the variations and the repairs.

use super::{TriesReport, UselessMove, VariationsReport, carried, useless_moves};
use super::{tries_report, variations_report};
use crate::input::Item;
use crate::notation::hodges::line_to_hodges;
use crate::notation::parse_move_list;
use crate::notation::sfen::write_sfen;
use crate::notation::usi::line_to_usi;
use crate::rules::{Hand, Move, Position};
use crate::solver::{DefenderHand, Solver, SolverConfig, Tries, Variations, prepare};
use crate::soundness::{
    Change, Cook, Economised, Redundant, Repairs, Report, Verdict, economise, repairs, verify,
};
use serde::{Deserialize, Serialize};

/// What `verify --json` prints of one problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// The problem, with the defender's hand as it was verified (SFEN).
    pub position: String,
    /// Where it came from (`line 3 of set.jsonl`, `argument`).
    pub origin: String,
    /// `sound`, `cooked`, `flawed`, `nomate` or `unknown`.
    pub verdict: String,
    /// Why the verdict is not `sound`, each in words.
    pub reasons: Vec<String>,
    /// The mate's length in plies; null without a mate.
    pub plies: Option<u16>,
    /// Whether no shorter mate exists.
    pub minimal: bool,
    /// Whether the main line reaches the mate.
    pub complete: bool,
    /// The main line, in USI.
    pub moves: Vec<String>,
    /// The main line in Hodges' notation.
    pub hodges: Vec<String>,
    /// The other mates where the attacker must have one move: cooks.
    pub cooks: Vec<CookReport>,
    /// The other mates at the last move.
    pub final_duals: Vec<CookReport>,
    /// Whether the attacker has pieces left in hand at the mate; null while not known.
    pub spare_pieces: Option<bool>,
    /// Those pieces (SFEN letters, `""` for none); null while not known.
    pub spare: Option<String>,
    /// The pieces the mate does not need.
    pub redundant_pieces: Vec<RedundantReport>,
    /// The useless interpositions the main line leaves out.
    pub useless_interpositions: Vec<UselessMove>,
    /// The intended solution, when one was given, and what it is.
    pub intended: Option<IntendedReport>,
    /// For a problem flawed only by pieces too many: the sound problem without them.
    pub sound_without: Option<SoundWithout>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
    /// Whose pieces the defender held: `rest` or `given`.
    pub defender_hand: String,
    /// The themes of a mate proven shortest and read to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub themes: Option<Vec<String>>,
    /// The variations, when asked for.
    #[serde(default, flatten)]
    pub variations: Option<VariationsReport>,
    /// The tries, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tries: Option<TriesReport>,
    /// The repairs, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repairs: Option<RepairsReport>,
    /// The record's other fields, carried over.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A cook or a final dual: where it is and its line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CookReport {
    /// The ply of the other move.
    pub ply: usize,
    /// The other move, in USI.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its mate, from the other move on, in USI.
    pub line: Vec<String>,
    /// The moves before it, in USI.
    pub after: Vec<String>,
}

/// A piece the mate does not need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedundantReport {
    /// Its square, or `hand`.
    #[serde(rename = "where")]
    pub place: String,
    /// The piece (SFEN letter).
    pub piece: String,
    /// In words.
    pub description: String,
}

/// The intended solution and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntendedReport {
    /// Its moves, in USI.
    pub moves: Vec<String>,
    /// Whether it is the main line.
    pub is_main_line: bool,
    /// Whether it is a solution (another equally long defence at least).
    pub is_solution: bool,
    /// What is wrong with it, when it is not a solution.
    pub problem: Option<String>,
    /// Whether its check ended within the limits.
    pub decided: bool,
}

/// The sound problem without the pieces too many.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoundWithout {
    /// The problem (SFEN).
    pub position: String,
    /// Its length in plies.
    pub plies: Option<u16>,
    /// The pieces taken off.
    pub taken_off: Vec<RedundantReport>,
    /// Nodes searched to find it.
    pub nodes: u64,
}

/// `repairs` in a report: not sought (and why), or what was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RepairsReport {
    /// The repairs were sought.
    Sought {
        /// Always true.
        sought: bool,
        /// The single changes after which the problem is sound with its solution.
        found: Vec<RepairReport>,
        /// How many changes were tried.
        tried: usize,
        /// The changes a limit left undecided.
        undecided: Vec<UndecidedRepair>,
        /// The node budget of each change.
        nodes_each: u64,
        /// Nodes searched in all.
        nodes: u64,
        /// Whether every change was tried.
        complete: bool,
    },
    /// They were not sought.
    NotSought {
        /// Always false.
        sought: bool,
        /// Why not.
        why: String,
    },
}

/// A change after which the problem is sound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairReport {
    /// `added`, `taken_off`, `out_of_hand` or `moved`.
    pub change: String,
    /// The square changed; null for a piece out of the hand.
    pub square: Option<String>,
    /// The piece (SFEN letter).
    pub piece: String,
    /// In words.
    pub description: String,
    /// The repaired problem (SFEN, the defender's hand left to the convention).
    pub position: String,
}

/// A change a limit left undecided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndecidedRepair {
    /// The change in words.
    pub description: String,
    /// Why it is undecided.
    pub why: String,
}

fn cook_report(c: &Cook) -> CookReport {
    CookReport {
        ply: c.ply,
        mv: c.mv.usi(),
        line: line_to_usi(&c.line),
        after: line_to_usi(&c.after),
    }
}

fn redundant_report(x: &Redundant) -> RedundantReport {
    let (place, piece) = match x {
        Redundant::Board { square, piece } => (square.to_string(), piece.sfen()),
        Redundant::Hand { kind } => ("hand".to_string(), kind.letter().to_string()),
    };
    RedundantReport {
        place,
        piece,
        description: x.to_string(),
    }
}

impl VerifyReport {
    /// The report of `r`, made with the defender holding `defender_hand`, of the problem
    /// read from `origin`; `better` is the sound problem without its pieces too many.
    pub fn new(
        r: &Report,
        better: Option<&Economised>,
        origin: &str,
        defender_hand: DefenderHand,
    ) -> VerifyReport {
        let sol = &r.solution;
        VerifyReport {
            position: write_sfen(&sol.position),
            origin: origin.to_string(),
            verdict: r.verdict.to_string(),
            reasons: r.reasons.iter().map(|f| f.to_string()).collect(),
            plies: sol.plies,
            minimal: sol.minimal,
            complete: sol.complete,
            moves: line_to_usi(&sol.moves),
            hodges: line_to_hodges(&sol.position, &sol.moves),
            cooks: r.cooks.iter().map(cook_report).collect(),
            final_duals: r.final_duals.iter().map(cook_report).collect(),
            spare_pieces: sol.spare_pieces(),
            spare: sol.spare_hand().map(|h| h.sfen_upper()),
            redundant_pieces: r.redundant.iter().map(redundant_report).collect(),
            useless_interpositions: useless_moves(&sol.useless),
            intended: r.intended.as_ref().map(|i| IntendedReport {
                moves: line_to_usi(&i.moves),
                is_main_line: i.is_main_line,
                is_solution: i.is_solution,
                problem: i.problem.as_ref().map(|p| p.to_string()),
                decided: i.stopped.is_none(),
            }),
            sound_without: better.map(|b| SoundWithout {
                position: write_sfen(&b.position),
                plies: b.report.solution.plies,
                taken_off: b.taken_off.iter().map(redundant_report).collect(),
                nodes: b.nodes,
            }),
            nodes: r.nodes,
            time_ms: r.time.as_millis() as u64,
            defender_hand: defender_hand.to_string(),
            themes: (sol.complete && sol.minimal).then(|| crate::generator::themes::analyse(r).0),
            variations: None,
            tries: None,
            repairs: None,
            extra: Default::default(),
        }
    }
}

/// What a verification adds to its report, and the intended solution it checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The intended solution (USI or Hodges, move numbers allowed). Without it, a record's
    /// `moves` are taken as its intended solution.
    pub solution: Option<String>,
    /// The variations of the main line.
    pub variations: bool,
    /// The tries at the first move.
    pub tries: bool,
    /// For a problem that is not sound, the single changes after which it is.
    pub repair: bool,
    /// Changes verified at a time by the repairs (at least 1).
    pub repair_threads: usize,
}

/// The node budget of each repair's verification when the solver's config sets none.
pub const REPAIR_NODES: u64 = 5_000_000;

/// The table of each repair's verification, MB (as the generator's workers have).
pub const REPAIR_HASH_MB: usize = 16;

/// What the repairs of a problem came to.
#[derive(Clone, Debug)]
pub enum Mended {
    /// Sought: what was found.
    Sought {
        /// The changes found and tried.
        repairs: Repairs,
        /// The node budget of each change.
        nodes: u64,
    },
    /// Not sought, and why.
    NotSought(&'static str),
}

/// A verification of one input item: its report, what it adds, and what the item's record
/// claims that the verification contradicts.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The verification.
    pub report: Report,
    /// For a problem flawed only by pieces too many, the sound problem without them.
    pub economised: Option<Economised>,
    /// The variations, when asked for.
    pub variations: Option<Variations>,
    /// The tries, when asked for.
    pub tries: Option<Tries>,
    /// The repairs, when asked for.
    pub repairs: Option<Mended>,
    /// The report as `verify --json` prints it.
    pub json: VerifyReport,
    /// The record's claim the verification contradicts, if any.
    pub contradiction: Option<String>,
}

/// The intended solution of `item`: `given`, or else its record's moves.
fn intended_moves(
    item: &Item,
    pos: &Position,
    given: Option<&str>,
    defender_hand: DefenderHand,
) -> Result<Option<Vec<Move>>, String> {
    let text = match (given, &item.record) {
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

/// Verifies `item` from an empty table, the defender holding what its record says or else
/// `default_hand`, with what `options` ask for. The error is why the item holds no problem,
/// or why its intended solution cannot be read.
pub fn verify_item(
    solver: &mut Solver,
    item: &Item,
    default_hand: DefenderHand,
    options: &VerifyOptions,
) -> Result<Verified, String> {
    let pos = item.position.as_ref().map_err(|e| e.clone())?;
    solver.set_defender_hand(item.defender_hand(default_hand));
    let given = options.solution.as_deref();
    let intended = intended_moves(item, pos, given, solver.config().defender_hand)?;
    // Each problem starts from an empty table: the answer then does not depend on what was
    // verified before, and old entries do not crowd the table.
    solver.clear_table();
    let r = verify(solver, pos, intended.as_deref());
    let variations = options.variations.then(|| solver.variations(&r.solution));
    let tries = options.tries.then(|| solver.tries(&r.solution));
    let economised = if r.verdict == Verdict::Flawed {
        economise(solver, pos, &r)
    } else {
        None
    };
    let mended = options.repair.then(|| {
        repair(
            solver,
            pos,
            &r,
            intended.as_deref(),
            options.repair_threads.max(1),
        )
    });
    // The record's claims against the report: its status and length, and its line (the
    // intended solution, when none other is given).
    let contradiction = item.record.as_ref().and_then(|rec| {
        rec.disagreement(&r.solution)
            .or_else(|| {
                let fault = r.intended.as_ref()?.problem.as_ref()?;
                given
                    .is_none()
                    .then(|| crate::problem::answer::not_the_solution(fault))
            })
            .or_else(|| {
                // A verdict is compared only when no length limit of the verification's own
                // could have hidden the mate.
                r.solution
                    .max_plies
                    .is_none()
                    .then(|| rec.verdict_disagreement(r.verdict))
                    .flatten()
            })
            .map(|e| e.to_string())
    });
    let mut json = VerifyReport::new(
        &r,
        economised.as_ref(),
        &item.origin,
        solver.config().defender_hand,
    );
    json.variations = variations
        .as_ref()
        .map(|v| variations_report(&r.solution, v));
    json.tries = tries.as_ref().map(|t| tries_report(&r.solution, t));
    json.repairs = mended.as_ref().map(repairs_report);
    json.extra = carried(&json, item);
    Ok(Verified {
        report: r,
        economised,
        variations,
        tries,
        repairs: mended,
        json,
        contradiction,
    })
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
    // count, and so whether it is decided within the budget, is the same whatever the
    // solver's table size and threads are; `threads` of them at a time.
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
pub fn repaired_sfen(pos: &Position) -> String {
    let mut p = pos.clone();
    p.set_hand(pos.side_to_move().flip(), Hand::EMPTY);
    write_sfen(&p)
}

fn repairs_report(m: &Mended) -> RepairsReport {
    let (r, nodes) = match m {
        Mended::NotSought(why) => {
            return RepairsReport::NotSought {
                sought: false,
                why: why.to_string(),
            };
        }
        Mended::Sought { repairs, nodes } => (repairs, *nodes),
    };
    let found = r
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
            RepairReport {
                change: kind.to_string(),
                square,
                piece,
                description: c.to_string(),
                position: repaired_sfen(pos),
            }
        })
        .collect();
    RepairsReport::Sought {
        sought: true,
        found,
        tried: r.tried,
        undecided: r
            .undecided
            .iter()
            .map(|(c, why)| UndecidedRepair {
                description: c.to_string(),
                why: why.clone(),
            })
            .collect(),
        nodes_each: nodes,
        nodes: r.nodes,
        complete: !r.stopped,
    }
}
