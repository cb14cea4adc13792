//! The export formats, one line per puzzle: pychess-variants puzzle records (NDJSON, as its
//! import script reads them), Lichess puzzle-database CSV rows, Fairy-Stockfish puzzle-tool
//! EPD lines, and plain SFEN lines.

use super::{FairyLine, Puzzle};
use crate::solver::DefenderHand;
use serde_json::json;

/// An export format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, strum::Display, strum::EnumString)]
#[strum(serialize_all = "lowercase")]
pub enum Format {
    /// pychess-variants puzzle records.
    Pychess,
    /// Lichess puzzle-database columns.
    Csv,
    /// Fairy-Stockfish puzzle-tool EPD.
    Epd,
    /// One SFEN a line.
    Sfen,
}

impl Format {
    /// Whether the format needs the Fairy-Stockfish form of the problem.
    pub fn needs_fairy(self) -> bool {
        matches!(self, Format::Pychess | Format::Epd)
    }

    /// The header line, if the format has one.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Format::Csv => Some(
                "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,\
                 OpeningTags,Plies,SFEN",
            ),
            _ => None,
        }
    }

    /// The line of `p` (without its newline), or why the format cannot carry it; `by` names
    /// the uploader for pychess.
    pub fn line(
        self,
        p: &Puzzle,
        fairy: Option<&FairyLine>,
        by: &str,
    ) -> Result<String, &'static str> {
        const NO_FAIRY: &str = "no Fairy-Stockfish form of the problem";
        match self {
            Format::Pychess => fairy.map(|f| pychess(p, f, by)).ok_or(NO_FAIRY),
            Format::Epd => fairy.map(epd).ok_or(NO_FAIRY),
            Format::Csv => Ok(csv(p)),
            // A plain SFEN read back gives the defender the rest: a problem stating the
            // defender's hand would come back as another problem.
            Format::Sfen if p.defender_hand == DefenderHand::Given => Err(
                "it states the defender's hand, which an SFEN line cannot say (the pychess, CSV \
                 and EPD files keep it)",
            ),
            Format::Sfen => Ok(p.sfen.clone()),
        }
    }
}

/// Mate in N moves for a line of `plies` plies: N = (plies + 1) / 2.
fn mate_in(plies: u16) -> u16 {
    plies.div_ceil(2)
}

/// A pychess-variants puzzle record.
pub fn pychess(p: &Puzzle, f: &FairyLine, by: &str) -> String {
    json!({
        "_id": p.id,
        "v": "torishogi",
        "f": f.fen,
        "m": f.moves.join(","),
        "t": "mate",
        "e": format!("#{}", mate_in(f.plies)),
        "s": p.url.clone().unwrap_or_default(),
        "uploaded_by": by,
    })
    .to_string()
}

/// A Fairy-Stockfish puzzle-tool EPD line.
pub fn epd(f: &FairyLine) -> String {
    format!(
        "{};variant torishogi;bm {};eval #{};type mate;tsume true;pv {}",
        f.fen,
        f.moves.first().map_or("", String::as_str),
        mate_in(f.plies),
        f.moves.join(",")
    )
}

/// A CSV field, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A CSV field of text a record carries (its id, themes, address): one that a spreadsheet
/// would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return)
/// gets a `'` before it, so that it is shown as text and never run. Positions and moves,
/// checked when read (an SFEN may start with `+`, a promoted piece), are written as they
/// are.
fn text_field(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        field(&format!("'{s}"))
    } else {
        field(s)
    }
}

/// Lichess's length theme of a mate of `plies` plies, by the solver's moves: `oneMove`,
/// `short` (two), `long` (three), `veryLong` (four or more).
pub fn length_theme(plies: u16) -> &'static str {
    match plies.div_ceil(2) {
        0 | 1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    }
}

/// Whether `t` is one of Lichess's length themes ([`length_theme`]).
pub fn is_length_theme(t: &str) -> bool {
    ["oneMove", "short", "long", "veryLong"].contains(&t)
}

/// The `Themes` of a CSV row: the record's own, then the two that every Lichess mate puzzle
/// carries, `mate` and its length theme, so that a filter written for Lichess's file finds
/// them.
fn csv_themes(p: &Puzzle) -> String {
    let mut themes = p.themes.clone();
    for t in ["mate", length_theme(p.plies)] {
        if !themes.iter().any(|x| x == t) {
            themes.push(t.to_string());
        }
    }
    themes.join(" ")
}

/// A Lichess-style CSV row (what we do not know left empty), with `Plies` and `SFEN` at the
/// end.
pub fn csv(p: &Puzzle) -> String {
    [
        text_field(&p.id),
        field(&p.fen),
        field(&p.moves.join(" ")),
        p.rating.to_string(),
        String::new(),
        String::new(),
        String::new(),
        text_field(&csv_themes(p)),
        text_field(p.url.as_deref().unwrap_or_default()),
        String::new(),
        p.plies.to_string(),
        field(&p.sfen),
    ]
    .join(",")
}
