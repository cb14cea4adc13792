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
//!
//! What a command that searches anyway learns against the claims is [`super::answer`]'s.

use super::{Problem, ProblemError};
use crate::generator::themes::{THEMES, line_themes};
use crate::notation::parse_any_move;
use crate::rules::{Move, Position};
use crate::solver::{Solver, SolverConfig};
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

/// Whether the side to move in `pos` is mated, useless interpositions being no defence; an
/// error when the small solver that tells it cannot be had.
fn is_mated(pos: &Position) -> Result<bool, ProblemError> {
    if crate::rules::is_checkmate(pos) {
        return Ok(true);
    }
    if !pos.in_check() {
        return Ok(false);
    }
    with_checker(|s| s.is_mated(pos)).ok_or_else(|| {
        ProblemError::Undecided(
            "no table of 1 MB could be had to check that the line ends in mate".to_string(),
        )
    })
}

/// A word's text as a message quotes it (control characters escaped).
fn shown(text: &str) -> String {
    crate::notation::quoted(text)
}

impl Problem {
    /// A record read from one line of a problem file, as every command reads one: a JSON
    /// record (pychess-variants' too) or an EPD line, its claims checked ([`Problem::check`]).
    pub fn read(line: &str) -> Result<Problem, ProblemError> {
        let record = if super::foreign::looks_like_epd(line) {
            Problem::from_epd(line)?
        } else {
            Problem::from_json(line)?
        };
        record.check()?;
        Ok(record)
    }

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

    /// Whether the record's `moves` claim a whole line to mate: all but the start of a line
    /// that a search's limit cut short, which `solve --json` writes with `"complete":false`.
    pub fn line_is_whole(&self) -> bool {
        self.extra.get("complete") != Some(&Value::Bool(false))
    }

    /// Whether the record's `plies` is a length proven shortest: all but the length of a
    /// mate a limit stopped from being shortened, which `solve --json` writes with
    /// `"minimal":false` (then the shortest mate is at most that long).
    pub fn length_is_shortest(&self) -> bool {
        self.extra.get("minimal") != Some(&Value::Bool(false))
    }

    /// The length limit within which a `nomate` status was found, as `solve --json
    /// --max-plies N` writes it (`"max_plies":N`); `None` for no mate at all.
    pub fn nomate_within(&self) -> Option<u16> {
        self.extra
            .get("max_plies")
            .and_then(Value::as_u64)
            .map(|n| n.min(u16::MAX as u64) as u16)
    }

    /// Every attacker move of the line checks, and the line ends with the defender mated (a
    /// line a limit cut short is only the start of one: its moves are checked as far as
    /// they go).
    fn check_line(&self, start: &Position, moves: &[Move]) -> Result<(), ProblemError> {
        if moves.is_empty() {
            return Ok(());
        }
        if moves.len() > u16::MAX as usize {
            return Err(claim(
                "moves",
                format!(
                    "{} plies, more than a line of a problem can be ({})",
                    moves.len(),
                    u16::MAX
                ),
            ));
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
        if !self.line_is_whole() {
            return Ok(());
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
        if !is_mated(&pos)? {
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
            let whole = self.line_is_whole() && !moves.is_empty();
            return Ok(whole.then_some(moves.len() as u16));
        };
        if p % 2 == 0 {
            return Err(claim(
                "plies",
                format!("{p}: a mate problem's length is an odd number of plies"),
            ));
        }
        let agrees = if self.line_is_whole() {
            moves.is_empty() || moves.len() == p as usize
        } else {
            moves.len() <= p as usize
        };
        if !agrees {
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
                    format!("`{}` is not one of {}", shown(word), words.join(", ")),
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
    pub(super) fn status_claim(&self) -> Option<Result<&str, ()>> {
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
        let shown_by_line =
            (self.line_is_whole() && !moves.is_empty()).then(|| line_themes(start, moves));
        for t in themes {
            let word = !t.is_empty()
                && t.len() <= MAX_THEME_LEN
                && t.starts_with(|c: char| c.is_ascii_alphabetic())
                && t.chars().all(|c| c.is_ascii_alphanumeric());
            if !word {
                return Err(claim(
                    "themes",
                    format!(
                        "`{}` is not a theme name (letters and digits, a letter first, at \
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
        let text = self
            .extra_field_text("rating")
            .unwrap_or_else(|| v.to_string());
        Err(claim(
            "rating",
            format!(
                "`{}` is not a rating (a whole number from 0 to {MAX_RATING})",
                shown(&text)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mate in 7 of the classic set (worked out in tests/cli/stats.rs): a falcon
    /// sacrificed on 6b, taken, the crane up to 6c, the phoenix to 7a, a swallow and a
    /// pheasant dropped.
    const SEVEN: &str = r#""sfen":"1k5/2S4/7/FC5/7/7/7 b FRS 1""#;
    const SEVEN_LINE: &str = r#""moves":["F*6b","6a6b","7d6c","6b7a","S*7b","7a6a","R*6b"]"#;

    fn record(fields: &str) -> Problem {
        Problem::from_json(&format!("{{{fields}}}")).unwrap()
    }

    /// The field and message of a failed check.
    fn fault(fields: &str) -> (&'static str, String) {
        match record(fields).check() {
            Err(ProblemError::Claim { field, reason }) => (field, reason),
            other => panic!("{fields}: {other:?}"),
        }
    }

    #[test]
    fn a_whole_record_passes() {
        let p = record(&format!(
            r#"{SEVEN},{SEVEN_LINE},"hodges":["Fa*6b","Phx6b","Fa-6c","Ph-7a","Sw*7b","Ph-6a","RQ*6b"],"plies":7,"status":"mate","verdict":"sound","themes":["mateIn4","sacrifice","finalDual","mate","veryLong","myOwnTag"],"rating":1500"#
        ));
        assert_eq!(p.check(), Ok(()));
        assert_eq!(p.rating(), Some(1500));
        // A record of a position alone claims nothing.
        assert_eq!(record(r#""sfen":"3k3/7/7/7/7/7/7 b S 1""#).check(), Ok(()));
    }

    #[test]
    fn a_check_whose_interpositions_are_all_useless_ends_in_mate() {
        // The crane on 7e steps aside and the quail on 7g checks the phoenix on 7a down the
        // file; five squares between, each a block the quail takes with check again: no
        // defence (tests/solver_traps.rs), though the defender has legal replies.
        let p = record(r#""sfen":"kp5/7/1C5/7/C6/7/L6 b - 1","moves":["7e6d"]"#);
        let (start, moves) = p.main_line().unwrap();
        let mut end = start.clone();
        end.do_move(moves[0]);
        assert!(!crate::rules::is_checkmate(&end), "the blocks are legal");
        assert_eq!(p.check(), Ok(()));
    }

    #[test]
    fn each_claim_the_record_contradicts_is_named() {
        let cases = [
            // R*6c checks but the phoenix steps to 7b.
            (
                format!(r#"{SEVEN},"moves":["F*6b","6a6b","R*6c"]"#),
                "moves",
                "does not end in mate",
            ),
            // The line stops with the defender's move.
            (
                format!(r#"{SEVEN},"moves":["F*6b","6a6b"]"#),
                "moves",
                "ends with a defender's move",
            ),
            // The crane stepping back from 6d to 6e gives no check.
            (
                format!(r#"{SEVEN},"moves":["6d6e"]"#),
                "moves",
                "ply 1 (6d6e) does not give check",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"plies":5"#),
                "plies",
                "the record says 5, but its moves are 7",
            ),
            (format!(r#"{SEVEN},"plies":6"#), "plies", "odd number"),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"hodges":["Fa*6b"]"#),
                "hodges",
                "1 moves, but `moves` has 7",
            ),
            (
                format!(
                    r#"{SEVEN},{SEVEN_LINE},"hodges":["Sw*6b","Phx6b","Fa-6c","Ph-7a","Sw*7b","Ph-6a","RQ*6b"]"#
                ),
                "hodges",
                "move 1 (Sw*6b) is not ply 1 of `moves` (F*6b)",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"status":"nomate""#),
                "status",
                "the record says nomate, and a mate of 7 plies",
            ),
            (
                format!(r#"{SEVEN},"plies":7,"verdict":"nomate""#),
                "verdict",
                "the record says nomate",
            ),
            (
                format!(r#"{SEVEN},"status":"mated""#),
                "status",
                "`mated` is not one of",
            ),
            (
                format!(r#"{SEVEN},"status":7"#),
                "status",
                "must be a string",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":"mateIn4""#),
                "themes",
                "must be a list",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":["<!--"]"#),
                "themes",
                "`<!--` is not a theme name",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":["mate in 4"]"#),
                "themes",
                "is not a theme name",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":["mateIn3"]"#),
                "themes",
                "`mateIn3`, but the mate is 7 plies",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":["long"]"#),
                "themes",
                "`long`, but a mate of 7 plies is `veryLong`",
            ),
            (
                format!(r#"{SEVEN},{SEVEN_LINE},"themes":["promotion"]"#),
                "themes",
                "`promotion`, but the line does not show it",
            ),
            (
                format!(r#"{SEVEN},"themes":["sacrifice"]"#),
                "themes",
                "no line to show it",
            ),
            (
                format!(r#"{SEVEN},"themes":["mateIn4"]"#),
                "themes",
                "the record has no mate",
            ),
            (
                format!(r#"{SEVEN},"rating":-200"#),
                "rating",
                "`-200` is not a rating",
            ),
            (
                format!(r#"{SEVEN},"rating":1e308"#),
                "rating",
                "`1e308` is not a rating",
            ),
            (
                format!(r#"{SEVEN},"rating":1500.5"#),
                "rating",
                "is not a rating",
            ),
            (
                format!(r#"{SEVEN},"rating":"1500""#),
                "rating",
                "is not a rating",
            ),
        ];
        for (fields, field, says) in cases {
            let (f, reason) = fault(&fields);
            assert_eq!(f, field, "{fields}: {reason}");
            assert!(reason.contains(says), "{fields}: {reason}");
        }
        // Control characters in a quoted value are written out, not passed to a terminal.
        let (_, reason) = fault(&format!(r#"{SEVEN},"status":"\u001b]0;owned\u0007""#));
        assert!(reason.contains(r"\u{1b}]0;owned\u{7}"), "{reason}");
    }
}
