//! Themes of a solved problem, each computed exactly from its main line, and the difficulty
//! rating. The themes (names as in the Lichess puzzle database where one exists):
//!
//! - `mateInN`: N attacker moves (N = (plies + 1) / 2);
//! - `sacrifice`: an attacker move whose piece the defender takes at once;
//! - `quietDrop`: an attacker drop two or more squares (king steps) from the defender's
//!   phoenix: every attacker move of a tsume checks, so "quiet" means checking from afar
//!   with a piece that was not on the board, where the eye looks for contact checks;
//! - `promotion`: an attacker move that promotes;
//! - `longRange`: a check by a quail or an eagle from three or more squares away;
//! - `phoenixHunt`: the defender's phoenix ends three or more squares from where it started;
//! - `doubleCheck`: an attacker move after which two pieces give check;
//! - `discoveredCheck`: an attacker board move after which a piece other than the one moved
//!   gives check;
//! - `swallowDropAvoided`: at some attacker move a swallow drop would mate at once, which the
//!   rules forbid (docs/RULES.md "Drops");
//! - `uselessInterposition`: the main line leaves out a useless interposition;
//! - `finalDual`: another move mates at the last move too.

use crate::problem::{Problem, ProblemError};
use crate::rules::movegen::{full_swallow_files, is_checkmate};
use crate::rules::{Color, Move, MoveList, PieceKind, Position, Square, generate_checks};
use crate::soundness::Report;
use serde::{Deserialize, Serialize};

/// King-step (Chebyshev) distance between two squares.
pub fn distance(a: Square, b: Square) -> u8 {
    a.row().abs_diff(b.row()).max(a.col().abs_diff(b.col()))
}

/// The square on which a swallow of `attacker` would check the phoenix on `k` (the one in
/// front of it, seen from the attacker), if there is one.
fn swallow_check_square(attacker: Color, k: Square) -> Option<Square> {
    let row = if attacker == Color::Black {
        k.row().checked_add(1)?
    } else {
        k.row().checked_sub(1)?
    };
    Square::from_row_col(row, k.col())
}

/// Whether the attacker to move in `pos` could mate at once by dropping a swallow, were
/// swallow-drop mates allowed (as Fairy-Stockfish allows them): the swallow in hand, the
/// square free and the drop otherwise legal.
pub fn swallow_drop_would_mate(pos: &Position) -> bool {
    let attacker = pos.side_to_move();
    let defender = attacker.flip();
    if !pos.hand(attacker).has(PieceKind::Swallow) {
        return false;
    }
    let Some(k) = pos.phoenix(defender) else {
        return false;
    };
    let Some(sq) = swallow_check_square(attacker, k) else {
        return false;
    };
    if pos.piece_at(sq).is_some()
        || crate::rules::attacks::last_rank(attacker).has(sq)
        || full_swallow_files(pos, attacker).has(sq)
    {
        return false;
    }
    let mut after = pos.clone();
    after.do_move(Move::drop(PieceKind::Swallow, sq));
    // The dropping side's own phoenix must not be left attacked.
    if let Some(own) = after.phoenix(attacker)
        && after.is_attacked(own, defender, after.occupied())
    {
        return false;
    }
    is_checkmate(&after)
}

/// What the rating is computed from, measured along the main line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// Solution length in plies.
    pub plies: u16,
    /// Solver nodes of the solve (the proof's size).
    pub proof_nodes: u64,
    /// Checks available at the attacker's moves of the main line, summed.
    pub checks: u32,
    /// Attacker moves of the main line.
    pub attacker_moves: u32,
    /// Attacker moves whose piece is taken at once.
    pub sacrifices: u32,
    /// Attacker drops two or more squares from the phoenix.
    pub quiet_drops: u32,
}

/// The lowest and highest rating [`rating`] gives.
pub const RATING_SCALE: (f64, f64) = (600.0, 2800.0);

/// The rating: 600 + 70·(N − 1) + 45·log2(proof nodes) + 15·(checks rejected per attacker
/// move) + 50·sacrifices + 30·quiet drops, N being the attacker's moves, rounded to a
/// multiple of 10 and kept within 600–2800. The weights spread the lengths the generator
/// makes (3 to 31 plies, proofs of 10 to a million nodes) over the scale without reaching
/// its top: a mate in 1 rates about 750, a 27-ply problem about 2,600.
pub fn rating(f: &Features) -> u32 {
    let n = f.plies.div_ceil(2).max(1) as f64;
    let rejected =
        f.checks.saturating_sub(f.attacker_moves) as f64 / f.attacker_moves.max(1) as f64;
    let r = 600.0
        + 70.0 * (n - 1.0)
        + 45.0 * (f.proof_nodes.max(1) as f64).log2()
        + 15.0 * rejected
        + 50.0 * f.sacrifices as f64
        + 30.0 * f.quiet_drops as f64;
    ((r / 10.0).round() * 10.0).clamp(RATING_SCALE.0, RATING_SCALE.1) as u32
}

/// The rating features of a record: measured along its main line, with the proof's size
/// from its `quality.proof_nodes` (the generator's solve; 1 when the record has none).
pub fn record_features(record: &Problem) -> Result<Features, ProblemError> {
    let (start, moves) = record.main_line()?;
    let mut f = walk(&start, &moves).0;
    f.proof_nodes = record
        .extra
        .get("quality")
        .and_then(|q| q.get("proof_nodes"))
        .and_then(|n| n.as_u64())
        .unwrap_or(1);
    Ok(f)
}

/// Theme marks found along a main line.
#[derive(Default)]
struct Marks {
    promotion: bool,
    long_range: bool,
    double: bool,
    discovered: bool,
    avoided: bool,
    hunt: bool,
}

/// The features (but the proof's size) and theme marks of the line `moves` from `start`.
fn walk(start: &Position, moves: &[Move]) -> (Features, Marks) {
    let mut f = Features {
        plies: moves.len() as u16,
        ..Features::default()
    };
    let mut k = Marks::default();
    let mut pos = start.clone();
    let attacker = pos.side_to_move();
    let defender = attacker.flip();
    let first = pos.phoenix(defender);
    for (i, &m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            let mut checks = MoveList::new();
            generate_checks(&pos, &mut checks);
            f.checks += checks.len() as u32;
            f.attacker_moves += 1;
            k.avoided |= swallow_drop_would_mate(&pos);
            f.sacrifices += moves
                .get(i + 1)
                .is_some_and(|r| r.to() == m.to() && !r.is_drop())
                as u32;
            f.quiet_drops += (m.is_drop()
                && pos
                    .phoenix(defender)
                    .is_some_and(|p| distance(p, m.to()) >= 2)) as u32;
            k.promotion |= m.promotes();
            pos.do_move(m);
            let checkers = pos.checkers();
            k.double |= checkers.count() >= 2;
            k.discovered |=
                !m.is_drop() && Iterator::any(&mut checkers.into_iter(), |c| c != m.to());
            if let Some(p) = pos.phoenix(defender) {
                k.long_range |= Iterator::any(&mut checkers.into_iter(), |c| {
                    let kind = pos.piece_at(c).map(|p| p.kind);
                    matches!(
                        kind,
                        Some(PieceKind::LeftQuail | PieceKind::RightQuail | PieceKind::Eagle)
                    ) && distance(c, p) >= 3
                });
            }
        } else {
            pos.do_move(m);
        }
    }
    k.hunt = match (first, pos.phoenix(defender)) {
        (Some(a), Some(b)) => distance(a, b) >= 3,
        _ => false,
    };
    (f, k)
}

/// The themes of [`THEMES`] that the line `moves` from `start` shows by itself, in that
/// order: all but `uselessInterposition` and `finalDual`, which need a search.
pub fn line_themes(start: &Position, moves: &[Move]) -> Vec<&'static str> {
    let (f, k) = walk(start, moves);
    let on = [
        f.sacrifices > 0,
        f.quiet_drops > 0,
        k.promotion,
        k.long_range,
        k.hunt,
        k.double,
        k.discovered,
        k.avoided,
    ];
    on.into_iter()
        .zip(THEMES)
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
}

/// Every theme name but `mateInN`, in the order a record lists them.
pub const THEMES: [&str; 10] = [
    "sacrifice",
    "quietDrop",
    "promotion",
    "longRange",
    "phoenixHunt",
    "doubleCheck",
    "discoveredCheck",
    "swallowDropAvoided",
    "uselessInterposition",
    "finalDual",
];

/// Whether `name` is a theme a record can carry: one of [`THEMES`] or `mateInN` (N ≥ 1).
pub fn is_theme(name: &str) -> bool {
    THEMES.contains(&name)
        || name
            .strip_prefix("mateIn")
            .and_then(|n| n.parse::<u16>().ok())
            .is_some_and(|n| n >= 1)
}

/// A choice of problems by rating and themes: `generate`'s and `merge`'s `--rating`,
/// `--themes` and `--exclude-themes`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThemeChoice {
    /// Lowest and highest rating kept (both included).
    pub rating: Option<(f64, f64)>,
    /// Themes a problem must carry, every one.
    pub with: Vec<String>,
    /// Themes a problem must not carry, any one.
    pub without: Vec<String>,
}

/// What a [`ThemeChoice`] makes of a record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Chosen.
    In,
    /// Outside the rating range, or not carrying the themes asked for (or carrying one left
    /// out).
    Out,
    /// A rating or themes are asked for and the record has none to tell.
    Unmarked,
}

impl ThemeChoice {
    /// The choice the three options' texts make (each `None` when not given): a rating
    /// range `MIN..MAX` or one rating, and comma-separated theme names ([`is_theme`]). The
    /// error names the option and what is wrong.
    pub fn parse(
        rating: Option<&str>,
        with: Option<&str>,
        without: Option<&str>,
    ) -> Result<ThemeChoice, String> {
        Ok(ThemeChoice {
            rating: rating.map(parse_rating).transpose()?,
            with: with
                .map(|t| parse_themes("--themes", t))
                .transpose()?
                .unwrap_or_default(),
            without: without
                .map(|t| parse_themes("--exclude-themes", t))
                .transpose()?
                .unwrap_or_default(),
        })
    }

    /// Why no problem could ever be chosen, when that follows from the choice alone: a theme
    /// both asked for and left out, or two lengths (`mateInN`) asked for.
    pub fn impossible(&self) -> Option<String> {
        if let Some(t) = self.with.iter().find(|t| self.without.contains(t)) {
            return Some(format!(
                "`{t}` is both asked for (--themes) and left out (--exclude-themes)"
            ));
        }
        let lengths: Vec<&String> = self
            .with
            .iter()
            .filter(|t| t.starts_with("mateIn"))
            .collect();
        if let [a, b, ..] = lengths[..]
            && a != b
        {
            return Some(format!("--themes asks for both {a} and {b}"));
        }
        None
    }

    /// Why no problem this program rates could be chosen: a rating range off the scale
    /// ([`RATING_SCALE`]). Records rated elsewhere may be rated off it.
    pub fn off_the_scale(&self) -> Option<String> {
        let (lo, hi) = RATING_SCALE;
        let (a, b) = self.rating?;
        (b < lo || a > hi).then(|| {
            format!("--rating: {a}..{b} is off the scale, whose ratings run from {lo} to {hi}")
        })
    }

    /// Why no problem of at most `plies` plies could be chosen: a theme asked for that needs
    /// a longer mate (a `sacrifice` is taken, then the attacker mates: 3 plies; a
    /// `phoenixHunt` moves the phoenix three squares, a step a defender move: 7 plies).
    pub fn too_short(&self, plies: u16) -> Option<String> {
        self.with.iter().find_map(|t| {
            let least = match t.as_str() {
                "sacrifice" => 3,
                "phoenixHunt" => 7,
                _ => return None,
            };
            (plies < least).then(|| {
                format!(
                    "`{t}` needs a mate of at least {}, and the longest asked for is {}",
                    crate::notation::plies(least as u64),
                    crate::notation::plies(plies as u64)
                )
            })
        })
    }

    /// The length a `mateInN` theme asked for sets, in plies (2N − 1), if one is.
    pub fn plies(&self) -> Option<u16> {
        self.with
            .iter()
            .find_map(|t| t.strip_prefix("mateIn")?.parse::<u16>().ok())
            .map(|n| 2 * n - 1)
    }

    /// Whether nothing is asked for (every problem is chosen).
    pub fn is_empty(&self) -> bool {
        self.rating.is_none() && self.with.is_empty() && self.without.is_empty()
    }

    /// What the choice makes of `r`, by its `rating` and `themes` fields.
    pub fn judge(&self, r: &Problem) -> Choice {
        if let Some((lo, hi)) = self.rating {
            match r.extra.get("rating").and_then(|v| v.as_f64()) {
                None => return Choice::Unmarked,
                Some(x) if x < lo || x > hi => return Choice::Out,
                Some(_) => {}
            }
        }
        let Some(themes) = r.extra.get("themes").and_then(|v| v.as_array()) else {
            return if self.with.is_empty() {
                Choice::In
            } else {
                Choice::Unmarked
            };
        };
        let has = |t: &String| themes.iter().any(|x| x.as_str() == Some(t.as_str()));
        if self.with.iter().all(has) && !self.without.iter().any(has) {
            Choice::In
        } else {
            Choice::Out
        }
    }
}

/// A rating range, `MIN..MAX` or one rating.
fn parse_rating(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text.split_once("..").unwrap_or((text, text));
    let num = |t: &str| -> Result<f64, String> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("--rating: `{}` is not a rating", t.trim()))
    };
    let (lo, hi) = (num(a)?, num(b)?);
    if hi < lo {
        return Err(format!(
            "--rating: the range {lo}..{hi} runs backwards (give MIN..MAX)"
        ));
    }
    Ok((lo, hi))
}

/// A list of theme names (comma-separated), each one a record can carry.
fn parse_themes(flag: &str, text: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = text
        .split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    if names.is_empty() {
        return Err(format!("{flag}: no theme named"));
    }
    if let Some(n) = names.iter().find(|n| !is_theme(n)) {
        return Err(format!(
            "{flag}: `{n}` is not a theme (the themes: mateInN, {})",
            THEMES.join(", ")
        ));
    }
    Ok(names)
}

/// The themes and rating features of a verified problem (its main line and final duals).
pub fn analyse(report: &Report) -> (Vec<String>, Features) {
    let sol = &report.solution;
    let plies = sol.plies.unwrap_or(0);
    let (mut f, k) = walk(&sol.position, &sol.moves);
    f.plies = plies;
    f.proof_nodes = sol.nodes;
    let mut themes = vec![format!("mateIn{}", plies.div_ceil(2))];
    let on = [
        f.sacrifices > 0,
        f.quiet_drops > 0,
        k.promotion,
        k.long_range,
        k.hunt,
        k.double,
        k.discovered,
        k.avoided,
        !sol.useless.is_empty(),
        !report.final_duals.is_empty(),
    ];
    for (on, name) in on.into_iter().zip(THEMES) {
        if on {
            themes.push(name.to_string());
        }
    }
    (themes, f)
}
