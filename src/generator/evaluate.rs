//! Evaluating one candidate: solved within its budgets, turned away early when it could
//! not be kept anyway, verified, and kept as a record with its quality, themes and rating;
//! or, when a piece too many is all that keeps it from being a problem, trimmed of that
//! piece and evaluated again.

use super::policy::last_move_has_dual;
use super::quality::{self, Quality};
use super::{FinalDuals, GenConfig, Keys, Policy, Strategy, draw::Pools, draw::draw, themes};
use crate::notation::hodges::line_to_hodges;
use crate::notation::sfen::write_sfen;
use crate::problem::Problem;
use crate::rules::Position;
use crate::solver::{Limits, Solver, Status};
use crate::soundness::{
    MAX_TAKEN_OFF, Redundant, Verdict, VerifyMode, piece_too_many, spare_from_hand, verify_with,
};
use serde_json::json;

/// What evaluating one candidate gave.
pub(super) enum Outcome {
    Rejected {
        mate: bool,
        in_range: bool,
        /// A mate shorter than wanted: a stepping stone for extension.
        stone: Option<Box<(Position, u16, String)>>,
        /// A mate of the right length that is not sound: a base for mutation.
        near: Option<Box<(Position, u16, String)>>,
        /// A final dual (and those are forbidden).
        dual: bool,
    },
    Sound(Box<Accepted>),
}

pub(super) struct Accepted {
    /// Pieces taken off the candidate drawn to make it.
    pub(super) trimmed: u8,
    pub(super) position: Position,
    pub(super) record: Problem,
    pub(super) plies: u16,
    pub(super) keys: Keys,
    pub(super) family: String,
    pub(super) score: f64,
}

/// Evaluates candidate `i` on `solver` (its table cleared first, for reproducibility).
pub(super) fn evaluate(
    config: &GenConfig,
    solver: &mut Solver,
    i: u64,
    pools: &Pools,
    seen: &Policy,
) -> Outcome {
    let (pos, strategy, family) = draw(config, i, pools);
    let family = family.unwrap_or_else(|| format!("{}:{i}", config.seed));
    let candidate = Candidate {
        index: i,
        strategy,
        family,
        trimmed: 0,
    };
    evaluate_position(config, solver, pos, candidate, seen)
}

/// Where a candidate position came from.
struct Candidate {
    index: u64,
    strategy: Strategy,
    family: String,
    /// Pieces taken off the drawn position so far ([`trimmed`]).
    trimmed: u8,
}

/// `pos` with `piece` taken off (a spare or redundant piece: [`spare_from_hand`],
/// [`piece_too_many`]), to be evaluated whole again: a composer's first repair, and a cheap
/// one, as the piece played no part in the solution. `None` without a piece, or once
/// [`MAX_TAKEN_OFF`] pieces are off.
fn trimmed(pos: &Position, taken: &Candidate, piece: Option<Redundant>) -> Option<Position> {
    if usize::from(taken.trimmed) >= MAX_TAKEN_OFF {
        return None;
    }
    piece?.taken_from(pos)
}

/// Evaluates one candidate position (drawn, or drawn and trimmed).
fn evaluate_position(
    config: &GenConfig,
    solver: &mut Solver,
    pos: Position,
    candidate: Candidate,
    seen: &Policy,
) -> Outcome {
    let i = candidate.index;
    let strategy = candidate.strategy;
    let family = candidate.family.clone();
    let trim = |p: Position, solver: &mut Solver| {
        let next = Candidate {
            trimmed: candidate.trimmed + 1,
            family: candidate.family.clone(),
            ..candidate
        };
        evaluate_position(config, solver, p, next, seen)
    };
    let rejected = |mate, in_range| Outcome::Rejected {
        mate,
        in_range,
        stone: None,
        near: None,
        dual: false,
    };
    // The defender's phoenix belongs in or near its camp (ranks a–d); retractions and
    // mutations can walk it away.
    if pos
        .phoenix(pos.side_to_move().flip())
        .is_none_or(|k| k.row() > 3)
    {
        return rejected(false, false);
    }
    solver.clear_table();
    let sol = solver.solve_range(
        &pos,
        Some(config.min_plies),
        Some(config.max_plies),
        Limits {
            nodes: Some(config.solve_nodes),
            first_search_nodes: Some(config.search_nodes),
            ..Limits::default()
        },
    );
    if sol.status != Status::Mate {
        return rejected(false, false);
    }
    let plies = sol.plies.unwrap_or(0);
    let proof_nodes = sol.nodes;
    if plies < config.min_plies {
        // A stepping stone for extension, unless its main line ends with a second mate: an
        // extension ends in the same position, so it would inherit the final dual (long runs
        // once lost nearly all their in-range mates to that). Only stones within six plies
        // of the range, the ones extension draws on first, are read; a farther stone's
        // descendants are read when they get there.
        let clean = plies + 6 < config.min_plies || {
            let line = solver.solve_range(
                &pos,
                None,
                Some(plies),
                Limits {
                    nodes: Some(config.solve_nodes),
                    ..Limits::default()
                },
            );
            line.status == Status::Mate
                && line.complete
                && !last_move_has_dual(&line.position, &line.moves)
        };
        return Outcome::Rejected {
            mate: true,
            in_range: false,
            stone: clean.then(|| Box::new((pos, plies, family))),
            near: None,
            dual: false,
        };
    }
    if !sol.minimal || !sol.complete {
        return rejected(true, false);
    }
    if sol.has_spare_pieces() {
        return match trimmed(&pos, &candidate, spare_from_hand(&pos, sol.spare)) {
            Some(p) => trim(p, solver),
            None => rejected(true, false),
        };
    }
    // Turned away before the verification when it could not be kept anyway (a position,
    // line or shape taken, its family full: the state at the batch's start, which the
    // merge only adds to) or its main line already shows a final dual.
    let keys = Keys::of(&pos, &sol.position, &sol.moves);
    if seen.check(&keys, &family).is_err() {
        return rejected(true, true);
    }
    if config.final_duals == FinalDuals::Forbid && last_move_has_dual(&sol.position, &sol.moves) {
        return Outcome::Rejected {
            mate: true,
            in_range: true,
            stone: None,
            near: Some(Box::new((pos, plies, family))),
            dual: true,
        };
    }
    solver.set_nodes(Some(config.verify_nodes));
    solver.set_max_plies(Some(config.max_plies));
    let report = verify_with(solver, &pos, None, VerifyMode::FirstFlaw);
    let dual = report.verdict == Verdict::Sound
        && config.final_duals == FinalDuals::Forbid
        && !report.final_duals.is_empty();
    if let Some(p) = trimmed(&pos, &candidate, piece_too_many(&pos, &report)) {
        return trim(p, solver);
    }
    if report.verdict != Verdict::Sound || dual {
        return Outcome::Rejected {
            mate: true,
            in_range: true,
            stone: None,
            near: Some(Box::new((pos, plies, family))),
            dual,
        };
    }
    let mut q: Quality = quality::measure(&report);
    q.proof_nodes = proof_nodes;
    q.score = quality::score(&q, plies);
    let (themes, mut features) = themes::analyse(&report);
    features.proof_nodes = proof_nodes;
    let rating = themes::rating(&features);
    let sol = &report.solution;
    let mut extra = serde_json::Map::new();
    extra.insert("seed".into(), json!(config.seed));
    extra.insert("index".into(), json!(i));
    extra.insert("strategy".into(), json!(strategy));
    if candidate.trimmed > 0 {
        extra.insert("trimmed".into(), json!(candidate.trimmed));
    }
    extra.insert("family".into(), json!(family));
    extra.insert("themes".into(), json!(themes));
    extra.insert("rating".into(), json!(rating));
    extra.insert(
        "quality".into(),
        serde_json::to_value(&q).unwrap_or_default(),
    );
    let duals = report.final_dual_moves();
    if !duals.is_empty() {
        extra.insert(
            "final_duals".into(),
            json!(crate::notation::usi::line_to_usi(&duals)),
        );
    }
    let hodges = line_to_hodges(&sol.position, &sol.moves);
    let moves = crate::notation::usi::line_to_usi(&sol.moves);
    let record = Problem {
        sfen: write_sfen(&pos),
        plies: Some(plies),
        moves,
        hodges,
        verdict: Some(Verdict::Sound.to_string()),
        source: Some(format!("toritsume generate --seed {}", config.seed)),
        note: None,
        defender_hand: None,
        extra,
        extra_text: Default::default(),
    };
    Outcome::Sound(Box::new(Accepted {
        trimmed: candidate.trimmed,
        position: pos,
        record,
        plies,
        keys,
        family,
        score: q.score,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::solver_config;

    /// Evaluates `sfen` as a drawn candidate of a run asking for mates in 1.
    fn evaluate_sfen(sfen: &str) -> Outcome {
        evaluate_sfen_with(&GenConfig::new(1, 1, 1, 1), sfen)
    }

    /// Evaluates `sfen` as a drawn candidate of a run with `config`.
    fn evaluate_sfen_with(config: &GenConfig, sfen: &str) -> Outcome {
        let mut solver = Solver::new(solver_config(config)).expect("a table");
        let candidate = Candidate {
            index: 0,
            strategy: Strategy::Random,
            family: "test".into(),
            trimmed: 0,
        };
        let pos: Position = sfen.parse().expect("a position");
        evaluate_position(config, &mut solver, pos, candidate, &Policy::new(3, 1))
    }

    /// The problem kept and the pieces taken off to make it.
    fn kept(o: Outcome) -> (String, serde_json::Value) {
        match o {
            Outcome::Sound(a) => (
                a.record.sfen.clone(),
                a.record.extra.get("trimmed").cloned().unwrap_or_default(),
            ),
            Outcome::Rejected { .. } => panic!("rejected"),
        }
    }

    /// Cr*1b mates (classic problem 1, sound). With a swallow in the attacker's hand too,
    /// the mate ends with it spare; with a swallow on 7g, that swallow is redundant; with
    /// both, both. Each is repaired by taking them off, and the record says how many.
    #[test]
    fn spare_and_redundant_pieces_are_taken_off_a_candidate() {
        let sound = "4pk1/5l1/3C2F/7/7/7/7 b C 1";
        for (candidate, off) in [
            ("4pk1/5l1/3C2F/7/7/7/7 b CS 1", 1),
            ("4pk1/5l1/3C2F/7/7/7/S6 b C 1", 1),
            ("4pk1/5l1/3C2F/7/7/7/S6 b CS 1", 2),
        ] {
            let (sfen, trimmed) = kept(evaluate_sfen(candidate));
            assert_eq!(sfen, sound, "{candidate}");
            assert_eq!(trimmed, off, "{candidate}");
        }
        // A sound candidate is kept as it is, with no `trimmed` field.
        assert_eq!(
            kept(evaluate_sfen(sound)),
            (sound.to_string(), serde_json::Value::Null)
        );
    }

    /// A cooked candidate, its hand used up by the main line, is rejected as it is: only a
    /// redundant or spare piece is ever taken off.
    #[test]
    fn a_cooked_candidate_is_not_trimmed() {
        // A mate in 7 with cooks at plies 3 and 5 (README, "verify").
        let config = GenConfig::new(7, 7, 1, 1);
        match evaluate_sfen_with(&config, "7/2Pk3/2R4/2L4/7/7/7 b F2CL 1") {
            Outcome::Rejected { mate, in_range, .. } => assert!(mate && in_range),
            Outcome::Sound(a) => panic!("kept {}", a.record.sfen),
        }
    }
}
