//! Puzzle sets for other programs: each problem record made into a [`Puzzle`] (verified, with
//! its themes and rating), and written as pychess-variants puzzle records, Lichess-style
//! CSV rows, Fairy-Stockfish EPD lines or plain SFEN lines ([`formats`]).
//!
//! Fairy-Stockfish (and so pychess-variants) plays Tori Shogi by slightly different rules: it
//! needs both phoenixes on the board, counts every interposition as a defence, and lets a
//! swallow drop mate. A problem goes there only when it survives all three: the attacker is
//! given a phoenix on a square where the problem is unchanged (same solution, still sound),
//! the problem is solved again counting every interposition (its line is then the one
//! exported, interpositions played out) and must still be sound, and no attacker move but
//! the last may have a swallow-drop mate beside it.

pub mod card;
pub mod formats;
pub mod set;

use crate::generator::themes::{self, distance, swallow_drop_would_mate};
use crate::notation::fairy::fairy_move;
use crate::notation::fen::write_fen;
use crate::notation::sfen::write_sfen;
use crate::problem::{Problem, ProblemError};
use crate::rules::{Piece, PieceKind, Position, Square};
use crate::solver::{DefenderHand, Solution, Solver, SolverConfig, Status, prepare};
use crate::soundness::{Report, Verdict, verify};

/// Where the attacker's phoenix goes for Fairy-Stockfish.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum PhoenixPlacement {
    /// The first of the empty squares farthest from the defender's phoenix on which the
    /// problem is unchanged.
    #[default]
    Auto,
    /// This square (the problem is skipped if it changes anything there).
    On(Square),
}

/// A problem made ready for export.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// Five word characters: the record's own id ([`own_id`]), else derived from the
    /// position (stable across runs and files).
    pub id: String,
    /// The problem position in SFEN, as the record has it.
    pub sfen: String,
    /// The problem position in FEN, both hands written out (the defender holding the rest).
    pub fen: String,
    /// The main line, USI.
    pub moves: Vec<String>,
    /// Its length.
    pub plies: u16,
    /// Themes ([`themes::analyse`]).
    pub themes: Vec<String>,
    /// Difficulty rating ([`themes::rating`]).
    pub rating: u32,
    /// The record's source when it is an absolute URL.
    pub url: Option<String>,
    /// The form Fairy-Stockfish accepts, when the problem holds under its rules.
    pub fairy: Result<FairyLine, Skip>,
    /// Whose pieces the defender holds: `Given` for a problem that states the defender's
    /// hand (its FEN writes it; a plain SFEN cannot).
    pub defender_hand: DefenderHand,
}

/// The problem as Fairy-Stockfish and pychess-variants take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairyLine {
    /// FEN with the attacker's phoenix placed and both hands written out.
    pub fen: String,
    /// The main line counting every interposition, in Fairy-Stockfish's UCI form.
    pub moves: Vec<String>,
    /// Its length in plies.
    pub plies: u16,
}

/// Why a problem was left out of an export.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    /// The record cannot be read.
    #[error("{0}")]
    Unreadable(String),
    /// Not a sound problem (here, or no longer).
    #[error("the problem is {0}, not sound")]
    NotSound(Verdict),
    /// A claim of the record that the record itself or its verification contradicts (a
    /// length, a status, a line that is not the solution, a theme).
    #[error("{0}")]
    Contradicted(String),
    /// A verification needed more than the export's node budget.
    #[error("undecided within the export's node budget (--nodes)")]
    Undecided,
    /// No square for the attacker's phoenix leaves the problem unchanged.
    #[error("no square for the attacker's phoenix leaves the solution and soundness unchanged")]
    NoPhoenixSquare,
    /// Counting every interposition, the problem has no unique line.
    #[error("counting every interposition (Fairy-Stockfish's rules) the problem is {0}")]
    NotSoundUnderFairyRules(Verdict),
    /// A swallow drop would mate before the last move (legal for Fairy-Stockfish).
    #[error("at ply {0} a swallow drop would mate, which Fairy-Stockfish allows")]
    SwallowDropMate(usize),
}

/// How a closing count names the records that cannot be read or claim what is not so.
const BAD_RECORD: &str =
    "a record that cannot be read, or claims what is not so (its line says which)";

impl Skip {
    /// The skip of a record whose reading failed: [`Skip::Contradicted`] for a claim its own
    /// fields contradict, else [`Skip::Unreadable`].
    pub fn of_record(e: ProblemError) -> Skip {
        match e {
            ProblemError::Claim { .. } => Skip::Contradicted(e.to_string()),
            e => Skip::Unreadable(e.to_string()),
        }
    }

    /// Whether the record, rather than the problem, is at fault: it cannot be read, or it
    /// claims what is not so. The commands' exit status says so.
    pub fn is_bad_record(&self) -> bool {
        matches!(self, Skip::Unreadable(_) | Skip::Contradicted(_))
    }

    /// The reason as a closing count groups it: the kind of reason, without what differs
    /// from record to record (the ply of a swallow-drop mate, what made a record unreadable;
    /// each skipped record's own line says that).
    pub fn summary(&self) -> String {
        match self {
            Skip::Unreadable(_) => BAD_RECORD.to_string(),
            Skip::Contradicted(_) => BAD_RECORD.to_string(),
            Skip::SwallowDropMate(_) => {
                "before the last move a swallow drop would mate, which Fairy-Stockfish allows"
                    .to_string()
            }
            other => other.to_string(),
        }
    }
}

/// Five word characters from a position's SFEN (FNV-1a, base 62).
pub fn puzzle_id(sfen: &str) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut h = crate::generator::dedup::text_key(sfen);
    (0..5)
        .map(|_| {
            let d = DIGITS[(h % 62) as usize] as char;
            h /= 62;
            d
        })
        .collect()
}

/// The solver settings of an export: the defaults, or every interposition counting (for the
/// `fairy_solver` of [`puzzle`]), each verification within `nodes` (a problem whose
/// verification needs more is skipped: the same problems are skipped on every machine).
pub fn solver_config(every_interposition_counts: bool, nodes: Option<u64>) -> SolverConfig {
    SolverConfig {
        every_interposition_counts,
        nodes,
        ..SolverConfig::default()
    }
}

/// The default node budget of each verification of an export.
pub const EXPORT_NODES: u64 = 5_000_000;

/// Verifies `pos` on a fresh table: the report, when it is sound.
fn sound(solver: &mut Solver, pos: &Position) -> Result<Report, Verdict> {
    solver.clear_table();
    let r = verify(solver, pos, None);
    if r.verdict == Verdict::Sound {
        Ok(r)
    } else {
        Err(r.verdict)
    }
}

/// Makes `record` into a puzzle, verifying it with `solver` (default settings) and, for the
/// Fairy-Stockfish form when `fairy` is asked, with `fairy_solver` (every interposition
/// counting).
pub fn puzzle(
    record: &Problem,
    solver: &mut Solver,
    fairy_solver: Option<&mut Solver>,
    placement: PhoenixPlacement,
) -> Result<Puzzle, Skip> {
    // The record's claims, as every command reads them ([`Problem::check`]).
    record.check().map_err(Skip::of_record)?;
    let pos = record
        .position()
        .map_err(|e| Skip::Unreadable(e.to_string()))?;
    // The record's own convention (a problem may state the defender's hand).
    let convention = record.convention();
    solver.set_defender_hand(convention);
    solver.clear_table();
    let report = verify(solver, &pos, None);
    // What the verification says against the record's claims: its status, length, line
    // (when not the main line, checked as a solution) and verdict.
    if let Some(e) = record
        .check_against(solver, &report.solution)
        .or_else(|| record.verdict_disagreement(report.verdict))
    {
        return Err(Skip::Contradicted(e.to_string()));
    }
    match report.verdict {
        Verdict::Sound => {}
        Verdict::Unknown => return Err(Skip::Undecided),
        v => return Err(Skip::NotSound(v)),
    }
    let sol = &report.solution;
    let (found, mut features) = themes::analyse(&report);
    if let Some(n) = record
        .extra
        .get("quality")
        .and_then(|q| q.get("proof_nodes"))
        .and_then(|n| n.as_u64())
    {
        features.proof_nodes = n;
    }
    let rating = record.rating().unwrap_or_else(|| themes::rating(&features));
    // The themes the verification finds, then the record's own words that are none of the
    // program's; a theme of the program's that the record claims and the verification
    // does not find is a false claim.
    let mut themes = found;
    for t in record.themes().unwrap_or_default() {
        if themes::is_theme(t) || t == "mate" || formats::is_length_theme(t) {
            if !themes.iter().any(|x| x == t) && !formats::is_length_theme(t) && t != "mate" {
                return Err(Skip::Contradicted(format!(
                    "themes: `{t}`, but the verification does not find it"
                )));
            }
        } else if !themes.iter().any(|x| x == t) {
            themes.push(t.to_string());
        }
    }
    let fairy = match fairy_solver {
        Some(fs) => {
            fs.set_defender_hand(convention);
            fairy_line(solver, fs, &pos, sol, placement)
        }
        None => Err(Skip::Unreadable("not asked for".into())),
    };
    // The record's own id, when it has one (read back from a pychess-variants file, `_id`, or
    // a CSV file, `puzzle_id`), so that the site, which upserts by `_id`, gets the same
    // puzzle again rather than a copy. Else one from the position; a problem stating the
    // defender's hand is another problem than the same position under the convention: its
    // id says so (the ids of the others are as they always were).
    let id = match own_id(record) {
        Some(id) => id,
        None => match convention {
            DefenderHand::Rest => puzzle_id(&write_sfen(&pos)),
            DefenderHand::Given => puzzle_id(&format!("{} given", write_sfen(&pos))),
        },
    };
    Ok(Puzzle {
        id,
        sfen: record.sfen.clone(),
        fen: write_fen(&prepare(&pos, convention)),
        moves: crate::notation::usi::line_to_usi(&sol.moves),
        plies: sol.plies.unwrap_or(0),
        themes,
        rating,
        url: record
            .source
            .clone()
            .filter(|s| s.starts_with("https://") || s.starts_with("http://")),
        fairy,
        defender_hand: convention,
    })
}

/// A record's own puzzle id: its `_id` (a pychess-variants record) or `puzzle_id` (a CSV
/// row's `PuzzleId`), when it is five word characters, as pychess-variants' routes take.
pub fn own_id(record: &Problem) -> Option<String> {
    ["_id", "puzzle_id"].iter().find_map(|k| {
        let id = record.extra.get(*k)?.as_str()?;
        (id.len() == 5 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            .then(|| id.to_string())
    })
}

/// The empty squares for the attacker's phoenix, farthest from the defender's first.
fn phoenix_squares(pos: &Position, placement: PhoenixPlacement) -> Vec<Square> {
    let attacker = pos.side_to_move();
    let Some(k) = pos.phoenix(attacker.flip()) else {
        return Vec::new();
    };
    match placement {
        PhoenixPlacement::On(sq) => vec![sq],
        PhoenixPlacement::Auto => {
            let mut squares: Vec<Square> = Square::all()
                .filter(|&s| pos.piece_at(s).is_none())
                .collect();
            squares.sort_by_key(|&s| (std::cmp::Reverse(distance(s, k)), s));
            squares.truncate(4);
            squares
        }
    }
}

/// The problem under Fairy-Stockfish's rules (see the module docs).
fn fairy_line(
    solver: &mut Solver,
    fairy_solver: &mut Solver,
    pos: &Position,
    sol: &Solution,
    placement: PhoenixPlacement,
) -> Result<FairyLine, Skip> {
    let attacker = pos.side_to_move();
    let with_phoenix = if pos.phoenix(attacker).is_some() {
        Some(pos.clone())
    } else {
        phoenix_squares(pos, placement).into_iter().find_map(|sq| {
            let mut setup = pos.to_setup();
            if setup.board[sq.index()].is_some() {
                return None;
            }
            setup.board[sq.index()] = Some(Piece::new(attacker, PieceKind::Phoenix));
            let q = Position::from_setup(&setup).ok()?;
            let r = sound(solver, &q).ok()?;
            (r.solution.moves == sol.moves).then_some(q)
        })
    };
    let q = with_phoenix.ok_or(Skip::NoPhoenixSquare)?;
    // The site needs a unique line: spare or redundant pieces under its rules do not matter.
    fairy_solver.clear_table();
    let r = verify(fairy_solver, &q, None);
    let line = &r.solution;
    let unique = matches!(r.verdict, Verdict::Sound | Verdict::Flawed) && r.cooks.is_empty();
    if r.verdict == Verdict::Unknown {
        return Err(Skip::Undecided);
    }
    if line.status != Status::Mate || !unique || !line.complete {
        return Err(Skip::NotSoundUnderFairyRules(r.verdict));
    }
    let mut p = line.position.clone();
    for (i, &m) in line.moves.iter().enumerate() {
        if i % 2 == 0 && i + 1 < line.moves.len() && swallow_drop_would_mate(&p) {
            return Err(Skip::SwallowDropMate(i + 1));
        }
        p.do_move(m);
    }
    Ok(FairyLine {
        fen: write_fen(&line.position),
        moves: line.moves.iter().map(|&m| fairy_move(m)).collect(),
        plies: line.plies.unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_are_counted_by_kind() {
        // Swallow-drop mates at different plies are one reason in the closing count, as are
        // records unreadable for different reasons; each record's own line keeps the detail.
        assert_eq!(
            Skip::SwallowDropMate(3).summary(),
            Skip::SwallowDropMate(11).summary()
        );
        assert_ne!(
            Skip::SwallowDropMate(3).to_string(),
            Skip::SwallowDropMate(11).to_string()
        );
        assert_eq!(
            Skip::Unreadable("board field".into()).summary(),
            Skip::Unreadable("moves: move 1".into()).summary()
        );
        // Verdicts stay apart.
        assert_ne!(
            Skip::NotSound(Verdict::Cooked).summary(),
            Skip::NotSound(Verdict::NoMate).summary()
        );
    }

    #[test]
    fn a_records_own_id_is_kept_when_pychess_variants_would_take_it() {
        let id = |line: &str| own_id(&Problem::from_json(line).unwrap());
        assert_eq!(
            id(r#"{"sfen":"x","_id":"T0001"}"#).as_deref(),
            Some("T0001")
        );
        assert_eq!(
            id(r#"{"sfen":"x","puzzle_id":"a_9Zb"}"#).as_deref(),
            Some("a_9Zb")
        );
        for other in [
            r#"{"sfen":"x"}"#,
            r#"{"sfen":"x","_id":"T00012"}"#,
            r#"{"sfen":"x","_id":"T-001"}"#,
            r#"{"sfen":"x","_id":12345}"#,
        ] {
            assert_eq!(id(other), None, "{other}");
        }
    }

    #[test]
    fn ids_are_five_word_characters_and_stable() {
        let a = puzzle_id("7/3cp2/7/7/7/7/7 b P 1");
        assert_eq!(a.len(), 5);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(a, puzzle_id("7/3cp2/7/7/7/7/7 b P 1"));
        assert_ne!(a, puzzle_id("7/3cp2/7/7/7/7/7 b C 1"));
    }
}
