//! What a problem record claims, checked once as the record is read, so that every command
//! works from the same record and none publishes, exports, counts or filters on a claim
//! nobody checked.
//!
//! - [`Problem::check`]: what needs no search. The position can be read; the `moves` can be
//!   played, every attacker move checks and the line ends in mate; `hodges` are the same
//!   moves; `plies` is odd and agrees with the moves; `status` and `verdict` are words the
//!   program writes and do not say "no mate" beside a mating line; `themes` are words, the
//!   length themes agree with the length and the themes the line shows by itself are shown
//!   by it; `rating` is a whole number from 0 to [`MAX_RATING`].
//! - [`Problem::disagreement`] and [`Problem::check_against`]: what a command that searches
//!   anyway learns against the claims: a `status`, `verdict` or `plies` the answer
//!   contradicts, a line that is not the solution.

use super::{Problem, ProblemError};
use crate::generator::themes::{THEMES, line_themes};
use crate::notation::parse_any_move;
use crate::rules::{Move, Position};
use crate::solver::{Solution, Solver, SolverConfig, Status};
use crate::soundness::IntendedFault;
use serde_json::Value;
use std::cell::RefCell;

/// The highest rating a record may carry (rating scales of puzzle sites end below it).
pub const MAX_RATING: u64 = 4000;

/// The words `status` may be, as `solve --json` writes them.
const STATUSES: [&str; 3] = ["mate", "nomate", "unknown"];

/// The words `verdict` may be, as `verify --json` writes them.
const VERDICTS: [&str; 5] = ["sound", "cooked", "flawed", "nomate", "unknown"];

/// The length themes of the Lichess puzzle database, which the CSV export adds: `mate`,
/// then one of these by the number of attacker moves.
const LICHESS_LENGTHS: [&str; 4] = ["oneMove", "short", "long", "veryLong"];

/// The themes of [`THEMES`] that only a search tells: not checked on reading.
const SEARCHED_THEMES: [&str; 2] = ["uselessInterposition", "finalDual"];

/// The longest theme name taken.
const MAX_THEME_LEN: usize = 64;

fn claim(field: &'static str, reason: impl Into<String>) -> ProblemError {
    ProblemError::Claim {
        field,
        reason: reason.into(),
    }
}

thread_local! {
    /// A small solver for the few checks on reading that need one (a mate by a check whose
    /// interpositions are all useless; a final dual), made at its first use on a thread.
    static CHECKER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's small solver ([`CHECKER`]); `None` when no table of 1 MB can
/// be had.
fn with_checker<T>(f: impl FnOnce(&mut Solver) -> T) -> Option<T> {
    CHECKER.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = Solver::new(SolverConfig {
                hash_mb: 1,
                threads: 1,
                huge_pages: false,
                ..SolverConfig::default()
            })
            .ok();
        }
        let solver = c.as_mut()?;
        solver.clear_table();
        Some(f(solver))
    })
}

/// Whether the side to move in `pos` is mated, useless interpositions being no defence.
fn is_mated(pos: &Position) -> bool {
    if crate::rules::is_checkmate(pos) {
        return true;
    }
    pos.in_check() && with_checker(|s| s.is_mated(pos)).unwrap_or(false)
}

/// A word's text as a message quotes it (control characters escaped).
fn shown(text: &str) -> String {
    crate::notation::quoted(text)
}

impl Problem {
    /// Checks what the record claims that needs no search (see the module's doc); the
    /// error names the field and what is wrong with it.
    pub fn check(&self) -> Result<(), ProblemError> {
        let (start, moves) = self.main_line()?;
        self.check_line(&start, &moves)?;
        self.check_hodges(&start, &moves)?;
        let length = self.check_plies(&moves)?;
        self.check_words(length)?;
        self.check_themes(&start, &moves, length)?;
        self.check_rating()
    }

    /// Every attacker move of the line checks, and the line ends with the defender mated.
    fn check_line(&self, start: &Position, moves: &[Move]) -> Result<(), ProblemError> {
        if moves.is_empty() {
            return Ok(());
        }
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            pos.do_move(m);
            if i % 2 == 0 && !pos.in_check() {
                return Err(claim(
                    "moves",
                    format!(
                        "ply {} ({}) does not give check (every attacker move of a mate \
                         problem checks)",
                        i + 1,
                        m.usi()
                    ),
                ));
            }
        }
        if moves.len().is_multiple_of(2) {
            return Err(claim(
                "moves",
                format!(
                    "the line ends with a defender's move (ply {}): a mate problem's line \
                     ends with the attacker's mate",
                    moves.len()
                ),
            ));
        }
        if !is_mated(&pos) {
            return Err(claim(
                "moves",
                format!(
                    "the line does not end in mate: after its {} the defender still has a \
                     defence",
                    crate::notation::plies(moves.len() as u64)
                ),
            ));
        }
        Ok(())
    }

    /// `hodges`, when given, are the moves of `moves`, one for one.
    fn check_hodges(&self, start: &Position, moves: &[Move]) -> Result<(), ProblemError> {
        if self.hodges.is_empty() {
            return Ok(());
        }
        if self.hodges.len() != moves.len() {
            return Err(claim(
                "hodges",
                format!(
                    "{} moves, but `moves` has {}",
                    self.hodges.len(),
                    moves.len()
                ),
            ));
        }
        let mut pos = start.clone();
        for (i, (text, &m)) in self.hodges.iter().zip(moves).enumerate() {
            if parse_any_move(&pos, text).ok() != Some(m) {
                return Err(claim(
                    "hodges",
                    format!(
                        "move {} ({}) is not ply {} of `moves` ({})",
                        i + 1,
                        shown(text),
                        i + 1,
                        m.usi()
                    ),
                ));
            }
            pos.do_move(m);
        }
        Ok(())
    }

    /// `plies` is odd and, beside a line, its length: the length the record claims, if any.
    fn check_plies(&self, moves: &[Move]) -> Result<Option<u16>, ProblemError> {
        let Some(p) = self.plies else {
            return Ok((!moves.is_empty()).then_some(moves.len() as u16));
        };
        if p % 2 == 0 {
            return Err(claim(
                "plies",
                format!("{p}: a mate problem's length is an odd number of plies"),
            ));
        }
        if !moves.is_empty() && moves.len() != p as usize {
            return Err(claim(
                "plies",
                format!("the record says {p}, but its moves are {}", moves.len()),
            ));
        }
        Ok(Some(p))
    }

    /// `status` and `verdict` are words the program writes, and say no "no mate" beside a
    /// length.
    fn check_words(&self, length: Option<u16>) -> Result<(), ProblemError> {
        for (field, value, words) in [
            ("status", self.status_claim(), &STATUSES[..]),
            ("verdict", self.verdict.as_deref().map(Ok), &VERDICTS[..]),
        ] {
            let Some(value) = value else { continue };
            let word = value.map_err(|_| claim(field, "must be a string"))?;
            if !words.contains(&word) {
                return Err(claim(
                    field,
                    format!("{} is not one of {}", shown(word), words.join(", ")),
                ));
            }
            if let (Some(n), "nomate") = (length, word) {
                return Err(claim(
                    field,
                    format!(
                        "the record says nomate, and a mate of {}",
                        crate::notation::plies(n as u64)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The record's `status`: `None` when it has none, `Err` when it is not a string.
    fn status_claim(&self) -> Option<Result<&str, ()>> {
        match self.extra.get("status")? {
            Value::Null => None,
            Value::String(s) => Some(Ok(s)),
            _ => Some(Err(())),
        }
    }

    /// The record's `themes`, each a string: `None` when it has none.
    pub fn themes(&self) -> Option<Vec<&str>> {
        match self.extra.get("themes")? {
            Value::Array(a) => a.iter().map(Value::as_str).collect(),
            _ => None,
        }
    }

    /// `themes` are words; the length themes agree with the length, and each theme the
    /// line shows by itself is shown by it.
    fn check_themes(
        &self,
        start: &Position,
        moves: &[Move],
        length: Option<u16>,
    ) -> Result<(), ProblemError> {
        let Some(value) = self.extra.get("themes") else {
            return Ok(());
        };
        if value.is_null() {
            return Ok(());
        }
        let Some(themes) = self.themes() else {
            return Err(claim("themes", "must be a list of theme names (strings)"));
        };
        let shown_by_line = (!moves.is_empty()).then(|| line_themes(start, moves));
        for t in themes {
            let word = !t.is_empty()
                && t.len() <= MAX_THEME_LEN
                && t.starts_with(|c: char| c.is_ascii_alphabetic())
                && t.chars().all(|c| c.is_ascii_alphanumeric());
            if !word {
                return Err(claim(
                    "themes",
                    format!(
                        "{} is not a theme name (letters and digits, a letter first, at \
                         most {MAX_THEME_LEN})",
                        shown(t)
                    ),
                ));
            }
            let needs_length = |what: String| -> Result<u16, ProblemError> {
                length.ok_or_else(|| claim("themes", format!("{what}, but the record has no mate")))
            };
            if let Some(n) = t.strip_prefix("mateIn").and_then(|n| n.parse::<u16>().ok()) {
                let len = needs_length(format!("`{t}`"))?;
                if len.div_ceil(2) != n {
                    return Err(claim(
                        "themes",
                        format!(
                            "`{t}`, but the mate is {}",
                            crate::notation::plies(len as u64)
                        ),
                    ));
                }
            } else if t == "mate" {
                needs_length("`mate`".to_string())?;
            } else if LICHESS_LENGTHS.contains(&t) {
                let len = needs_length(format!("`{t}`"))?;
                let right = crate::export::formats::length_theme(len);
                if t != right {
                    return Err(claim(
                        "themes",
                        format!(
                            "`{t}`, but a mate of {} is `{right}`",
                            crate::notation::plies(len as u64)
                        ),
                    ));
                }
            } else if THEMES.contains(&t) {
                let Some(line) = &shown_by_line else {
                    return Err(claim(
                        "themes",
                        format!("`{t}`, but the record has no line to show it"),
                    ));
                };
                // The two themes a search tells (a final dual may follow another equally
                // long defence than the line's) are checked where a command searches.
                if !SEARCHED_THEMES.contains(&t) && !line.contains(&t) {
                    return Err(claim(
                        "themes",
                        format!("`{t}`, but the line does not show it"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `rating`, when given, is a whole number from 0 to [`MAX_RATING`].
    fn check_rating(&self) -> Result<(), ProblemError> {
        let Some(v) = self.extra.get("rating") else {
            return Ok(());
        };
        if v.is_null() || v.as_u64().is_some_and(|r| r <= MAX_RATING) {
            return Ok(());
        }
        Err(claim(
            "rating",
            format!(
                "{} is not a rating (a whole number from 0 to {MAX_RATING})",
                shown(&v.to_string())
            ),
        ))
    }

    /// The record's rating, once [`Problem::check`]ed: a whole number within the scale.
    pub fn rating(&self) -> Option<u32> {
        self.extra
            .get("rating")
            .and_then(Value::as_u64)
            .filter(|&r| r <= MAX_RATING)
            .map(|r| r as u32)
    }

    /// What `sol`, a search's answer for this record's problem, says against its claims
    /// (its `status`, `verdict` and `plies`; its line is [`Problem::check`]ed to mate):
    /// `None` when nothing, or when the answer decides nothing (a limit stopped it, or a
    /// length limit below the length claimed).
    pub fn disagreement(&self, sol: &Solution) -> Option<ProblemError> {
        let status = self.status_claim().and_then(Result::ok);
        let says_nomate = |field: &'static str| -> Option<ProblemError> {
            let word = match field {
                "status" => status,
                _ => self.verdict.as_deref(),
            };
            (word == Some("nomate")).then(|| {
                claim(
                    field,
                    format!(
                        "the record says nomate, but the position mates in {}{}",
                        if sol.minimal { "" } else { "at most " },
                        crate::notation::plies(sol.plies.unwrap_or(0) as u64)
                    ),
                )
            })
        };
        let length = self
            .plies
            .or_else(|| (!self.moves.is_empty()).then_some(self.moves.len() as u16));
        match sol.status {
            Status::Unknown => None,
            Status::Mate => {
                if let Some(e) = says_nomate("status").or_else(|| says_nomate("verdict")) {
                    return Some(e);
                }
                let found = sol.plies?;
                let claimed = length?;
                // A mate not proven shortest contradicts only a longer claim.
                let wrong = if sol.minimal {
                    claimed != found
                } else {
                    claimed > found
                };
                wrong.then(|| {
                    claim(
                        "plies",
                        format!(
                            "the record says {claimed}, but the position mates in {}{}",
                            if sol.minimal { "" } else { "at most " },
                            crate::notation::plies(found as u64)
                        ),
                    )
                })
            }
            Status::NoMate => {
                let claims_mate = length.is_some()
                    || status == Some("mate")
                    || matches!(self.verdict.as_deref(), Some("sound" | "cooked" | "flawed"));
                let within = match (sol.max_plies, length) {
                    (None, _) => true,
                    (Some(m), Some(n)) => n <= m,
                    (Some(_), None) => false,
                };
                (claims_mate && within).then(|| {
                    let what = match length {
                        Some(n) => format!("a mate in {}", crate::notation::plies(n as u64)),
                        None => "a mate".to_string(),
                    };
                    let field = if length.is_some() {
                        "plies"
                    } else if status == Some("mate") {
                        "status"
                    } else {
                        "verdict"
                    };
                    claim(
                        field,
                        format!(
                            "the record says {what}, but the position has no mate{}",
                            sol.max_plies.map_or(String::new(), |m| format!(
                                " within {}",
                                crate::notation::plies(m as u64)
                            ))
                        ),
                    )
                })
            }
        }
    }

    /// [`Problem::disagreement`], then, for a mate whose line the search has read whole,
    /// the record's line when it is not that main line: checked against the rules of a
    /// solution with `solver` (within its limits; a check a limit stops finds nothing).
    /// `sol` must be the answer for this record's problem, from [`Problem::start`].
    pub fn check_against(&self, solver: &mut Solver, sol: &Solution) -> Option<ProblemError> {
        if let Some(e) = self.disagreement(sol) {
            return Some(e);
        }
        if self.moves.is_empty()
            || sol.status != Status::Mate
            || !sol.minimal
            || !sol.complete
            || sol.moves.is_empty()
        {
            return None;
        }
        let (start, moves) = self.main_line().ok()?;
        if moves == sol.moves || start.key() != sol.position.key() {
            return None;
        }
        let checked = crate::soundness::check_line(solver, sol, &moves);
        checked.problem.as_ref().map(not_the_solution)
    }
}

impl Problem {
    /// The record as a search of its problem with `solver` (its table cleared, the record's
    /// own convention) settles it: its claims checked against the answer
    /// ([`Problem::check_against`]), and the length and line it does not give filled in
    /// from the answer (a record without a mate keeps none). What a page that publishes
    /// the record shows. An error when a claim is contradicted, or when `solver`'s limits
    /// stop the search before it decides ([`ProblemError::Undecided`]).
    pub fn settled(&self, solver: &mut Solver) -> Result<Problem, ProblemError> {
        self.check()?;
        let pos = self.position()?;
        solver.set_defender_hand(self.convention());
        solver.clear_table();
        let sol = solver.solve(&pos);
        let decided = match sol.status {
            Status::Mate => sol.minimal && sol.complete,
            Status::NoMate => sol.max_plies.is_none(),
            Status::Unknown => false,
        };
        if let Some(e) = self.check_against(solver, &sol) {
            return Err(e);
        }
        if !decided {
            return Err(ProblemError::Undecided(sol.stopped_by.map_or_else(
                || "a limit was reached".to_string(),
                |r| r.to_string(),
            )));
        }
        let mut settled = self.clone();
        if sol.status == Status::Mate {
            settled.plies = sol.plies;
            if settled.moves.is_empty() {
                settled.moves = crate::notation::usi::line_to_usi(&sol.moves);
                settled.hodges.clear();
            }
        }
        Ok(settled)
    }
}

/// The error of a record whose line breaks the rules of a solution by `fault`.
pub fn not_the_solution(fault: &IntendedFault) -> ProblemError {
    claim("moves", format!("the line is not the solution: {fault}"))
}
