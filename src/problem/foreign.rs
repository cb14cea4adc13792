//! Puzzles in the forms other programs keep them, read into [`Problem`] records, so that a
//! file `toritsume export` wrote (or another tool, in the same layout) is solved, verified,
//! merged or made into a book as our own records are:
//! - a pychess-variants puzzle record (`f` the FEN, `v` the variant), read by
//!   [`Problem::from_json`] with the help of [`check_pychess`];
//! - an EPD line of Fairy-Stockfish's puzzle tools (`FEN;variant torishogi;...`);
//! - a row of a CSV file in the Lichess puzzle database's layout (`PuzzleId,FEN,Moves,...`,
//!   with our `Plies` and `SFEN` columns when present).
//!
//! The lines pychess-variants records and EPD lines hold are played by Fairy-Stockfish's
//! rules, every interposition counted, and are not taken for main lines. A CSV row's `Moves`
//! are (our export writes the main line there), kept in USI as in our records:
//! Fairy-Stockfish's are rewritten square by square (`a4b5` → `7d6c`), with no need of the
//! position. A FEN writes both hands, and is read as Fairy-Stockfish reads it
//! ([`stated_defender_hand`]).

use super::{Problem, ProblemError};
use crate::notation::fairy::fairy_to_usi;
use crate::notation::parse_position;
use crate::solver::{DefenderHand, prepare};
use serde_json::{Map, Value};

/// The variant name of Tori Shogi in pychess-variants and Fairy-Stockfish.
pub const VARIANT: &str = "torishogi";

/// The themes every Lichess mate puzzle carries, which `export --format csv` adds to a
/// record's own: taken off again when a CSV row is read, so that a record makes the round
/// trip unchanged.
const LICHESS_ADDED_THEMES: [&str; 5] = ["mate", "oneMove", "short", "long", "veryLong"];

/// A move as our records keep it: USI, rewritten from Fairy-Stockfish's form when it has
/// that form (anything else is kept as written, to be read, or refused, with the line).
fn usi_text(text: &str) -> String {
    let t = text.trim();
    fairy_to_usi(t).unwrap_or_else(|| t.to_string())
}

/// Whether a FEN, which writes both hands, states the defender's: `Given` when the hand it
/// writes for the side not to move is not the rest (every piece neither on the board nor in
/// the attacker's hand), so that a problem stating its defender's hand, exported, reads back
/// as the same problem. When it is the rest the two conventions are one, and `None` leaves
/// the record as a record of the convention. A FEN that cannot be read gives `None` (the
/// record's position then says what is wrong).
pub fn stated_defender_hand(fen: &str) -> Option<DefenderHand> {
    if !fen.contains('[') {
        return None;
    }
    let pos = parse_position(fen).ok()?;
    let defender = pos.side_to_move().flip();
    let rest = prepare(&pos, DefenderHand::Rest);
    (pos.hand(defender) != rest.hand(defender)).then_some(DefenderHand::Given)
}

/// Checks a variant name: Tori Shogi's, else [`ProblemError::Variant`].
fn check_variant(v: &str) -> Result<(), ProblemError> {
    if v.trim().eq_ignore_ascii_case(VARIANT) {
        Ok(())
    } else {
        Err(ProblemError::Variant(v.trim().to_string()))
    }
}

/// Checks the fields of a pychess-variants puzzle record (one whose position was its `f`):
/// `v` must be `torishogi` when given; and, unless the record says, states the defender's
/// hand when its FEN does ([`stated_defender_hand`]). The others (`m`, `_id`, `e`, `t`, `s`,
/// `uploaded_by`, ...) stay as they are: `m` in particular is not taken for the main line,
/// as it is played by Fairy-Stockfish's rules, every interposition counted (`verify
/// --solution` checks it against ours when asked).
pub fn check_pychess(map: &mut Map<String, Value>, fen: &str) -> Result<(), ProblemError> {
    match map.get("v") {
        None | Some(Value::Null) => {}
        Some(Value::String(v)) => check_variant(v)?,
        Some(_) => return Err(field_error("v", "must be a string (the variant)")),
    }
    if !map.contains_key("defender_hand")
        && let Some(d) = stated_defender_hand(fen)
    {
        map.insert("defender_hand".into(), Value::from(d.to_string()));
    }
    Ok(())
}

fn field_error(name: &str, reason: &str) -> ProblemError {
    ProblemError::Field {
        name: name.to_string(),
        reason: reason.to_string(),
    }
}

/// Whether `line` is an EPD line with operations (`FEN;op value;...`): a FEN with its
/// `[hands]`, then `;`.
pub fn looks_like_epd(line: &str) -> bool {
    match (line.find('['), line.find(';')) {
        (Some(open), Some(semi)) => open < semi && !line.starts_with('{'),
        _ => false,
    }
}

impl Problem {
    /// Reads a record from an EPD line as Fairy-Stockfish's puzzle tools write it,
    /// `FEN;variant torishogi;bm MOVE;eval #N;type mate;tsume true;pv M1,M2,...`: the FEN is
    /// the position, its defender's hand stated when the FEN's is not the rest
    /// ([`stated_defender_hand`]); a `variant` other than `torishogi` is refused. The
    /// operations are not kept: `bm` and `pv` are played by Fairy-Stockfish's rules, every
    /// interposition counted, and are not the main line by ours.
    pub fn from_epd(line: &str) -> Result<Problem, ProblemError> {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim();
        for op in parts {
            let op = op.trim();
            if let Some(("variant", value)) = op.split_once(char::is_whitespace) {
                check_variant(value)?;
            }
        }
        Ok(Problem {
            sfen: fen.to_string(),
            defender_hand: stated_defender_hand(fen),
            ..Problem::default()
        })
    }

    /// Reads a record from a row of a CSV file in the Lichess puzzle database's layout, the
    /// columns named by `header`: the position from `SFEN` when it has one (our export's last
    /// column) and from `FEN` otherwise, the defender's hand stated when the FEN's is not the
    /// rest ([`stated_defender_hand`]); `Moves` (space-separated, USI or Fairy-Stockfish's
    /// form) the main line; `Plies` the length; `Rating` the rating; `Themes` the themes (less
    /// the ones every Lichess mate puzzle carries and the export adds: `mate` and the length
    /// theme); `GameUrl` the source; `PuzzleId` kept as `puzzle_id`, and every other column
    /// with a value under its own name.
    pub fn from_csv_row(header: &[String], row: &[String]) -> Result<Problem, ProblemError> {
        let get = |name: &str| {
            header
                .iter()
                .position(|h| h.trim() == name)
                .and_then(|i| row.get(i))
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
        };
        let sfen = get("SFEN")
            .or_else(|| get("FEN"))
            .ok_or(ProblemError::NoCsvPosition)?;
        let mut p = Problem {
            sfen: sfen.to_string(),
            defender_hand: get("FEN").and_then(stated_defender_hand),
            moves: get("Moves")
                .map(|m| m.split_whitespace().map(usi_text).collect())
                .unwrap_or_default(),
            source: get("GameUrl").map(String::from),
            ..Problem::default()
        };
        if let Some(n) = get("Plies") {
            p.plies =
                Some(n.parse().map_err(|_| {
                    field_error("Plies", &format!("`{}` is not a number of plies", n))
                })?);
        }
        for (i, name) in header.iter().enumerate() {
            let name = name.trim();
            let Some(value) = row.get(i).map(|v| v.trim()).filter(|v| !v.is_empty()) else {
                continue;
            };
            let (key, v) = match name {
                "SFEN" | "FEN" | "Moves" | "Plies" | "GameUrl" | "" => continue,
                "PuzzleId" => ("puzzle_id".to_string(), Value::from(value)),
                "Rating" => match value.parse::<i64>() {
                    Ok(r) => ("rating".to_string(), Value::from(r)),
                    Err(_) => ("Rating".to_string(), Value::from(value)),
                },
                "Themes" => {
                    let own: Vec<Value> = value
                        .split_whitespace()
                        .filter(|t| !LICHESS_ADDED_THEMES.contains(t))
                        .map(Value::from)
                        .collect();
                    ("themes".to_string(), Value::Array(own))
                }
                other => (other.to_string(), Value::from(value)),
            };
            p.extra.insert(key, v);
        }
        Ok(p)
    }
}

/// Whether the first line of a file is the header of a CSV file of puzzles: comma-separated
/// names, one of them `FEN` or `SFEN`.
pub fn is_csv_header(line: &str) -> bool {
    !line.starts_with('{')
        && line.contains(',')
        && line
            .split(',')
            .any(|c| matches!(c.trim().trim_matches('"'), "FEN" | "SFEN"))
}

/// The rows of a CSV file of puzzles (its first line the header), each with the number of
/// the line it starts on, as records (see [`Problem::from_csv_row`]) or the reason it is
/// none. Blank lines and lines starting with `#` are skipped, as in our other files.
pub fn csv_rows(bytes: &[u8]) -> Vec<(usize, Result<Problem, String>)> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(bytes);
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(String::from).collect(),
        Err(e) => return vec![(1, Err(format!("the CSV header cannot be read: {e}")))],
    };
    // The line a row starts on, counted from its byte offset: the reader's own count leaves
    // comment lines out, and its offset is where it began to read, before the blank and
    // comment lines it passed over.
    let line_at = |p: Option<&csv::Position>| {
        p.map_or(0, |p| {
            let mut at = (p.byte() as usize).min(bytes.len());
            while at < bytes.len() {
                let rest = &bytes[at..];
                let len = rest
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(rest.len(), |i| i + 1);
                let text = rest[..len].trim_ascii();
                if !(text.is_empty() || text.starts_with(b"#")) {
                    break;
                }
                at += len;
            }
            1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
        })
    };
    let mut out = Vec::new();
    for row in reader.records() {
        match row {
            Ok(r) => {
                let line = line_at(r.position());
                let cells: Vec<String> = r.iter().map(String::from).collect();
                if cells.iter().all(|c| c.trim().is_empty()) {
                    continue;
                }
                out.push((
                    line,
                    Problem::from_csv_row(&header, &cells).map_err(|e| e.to_string()),
                ));
            }
            Err(e) => {
                let line = line_at(e.position());
                let why = match e.kind() {
                    csv::ErrorKind::Utf8 { .. } => "not UTF-8".to_string(),
                    _ => format!("not a CSV row: {e}"),
                };
                out.push((line, Err(why)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_csv_row_becomes_a_record_by_its_column_names() {
        let header = strings(&[
            "PuzzleId", "FEN", "Moves", "Rating", "Themes", "GameUrl", "NbPlays", "Plies", "SFEN",
        ]);
        let row = strings(&[
            "abcde",
            "7/7/7/7/7/7/7[-] w - - 0 1",
            "a4b5 S*7b",
            "1450",
            "mateIn2 sacrifice mate short",
            "https://example.org/p/1",
            " 12 ",
            "3",
            "3k3/7/3C3/7/7/7/6K b C 1",
        ]);
        let p = Problem::from_csv_row(&header, &row).unwrap();
        // The SFEN column before the FEN; Fairy-Stockfish moves in USI.
        assert_eq!(p.sfen, "3k3/7/3C3/7/7/7/6K b C 1");
        assert_eq!(p.moves, ["7d6c", "S*7b"]);
        assert_eq!(p.plies, Some(3));
        assert_eq!(p.source.as_deref(), Some("https://example.org/p/1"));
        assert_eq!(p.extra["puzzle_id"], "abcde");
        assert_eq!(p.extra["rating"], 1450);
        assert_eq!(
            p.extra["themes"],
            serde_json::json!(["mateIn2", "sacrifice"])
        );
        assert_eq!(p.extra["NbPlays"], "12");
        // Without the SFEN column, the FEN; a rating that is not a number kept as written.
        let p = Problem::from_csv_row(
            &strings(&["FEN", "Rating"]),
            &strings(&["3k3/7/3C3/7/7/7/6K[C] w - - 0 1", "high"]),
        )
        .unwrap();
        assert_eq!(p.sfen, "3k3/7/3C3/7/7/7/6K[C] w - - 0 1");
        assert_eq!(p.extra["Rating"], "high");
        assert!(!p.extra.contains_key("rating"));
        // No position, or a length that is none.
        assert_eq!(
            Problem::from_csv_row(&strings(&["FEN", "SFEN"]), &strings(&["", " "])),
            Err(ProblemError::NoCsvPosition)
        );
        assert!(matches!(
            Problem::from_csv_row(&strings(&["FEN", "Plies"]), &strings(&["x", "three"])),
            Err(ProblemError::Field { name, .. }) if name == "Plies"
        ));
    }

    #[test]
    fn a_fen_states_the_defenders_hand_when_it_writes_other_than_the_rest() {
        // Black holds a left quail and has two swallows on the board; White would hold the
        // 27 other pieces but the phoenixes: 2 falcons, 4 cranes, 4 pheasants, a left quail,
        // 2 right quails and 14 swallows.
        let rest = format!(
            "6k/5S1/5S1/7/7/7/7[Lffccccpppplrr{}] w - - 0 1",
            "s".repeat(14)
        );
        assert_eq!(stated_defender_hand(&rest), None);
        // Less than that (one swallow fewer, a pheasant only, nothing).
        for stated in [
            rest.replace("ss]", "s]"),
            "6k/5S1/5S1/7/7/7/7[Lp] w - - 0 1".to_string(),
            "6k/5S1/5S1/7/7/7/7[L] w - - 0 1".to_string(),
        ] {
            assert_eq!(
                stated_defender_hand(&stated),
                Some(DefenderHand::Given),
                "{stated}"
            );
        }
        // Three left quails in all: no position, nothing stated.
        assert_eq!(
            stated_defender_hand("6k/5S1/5S1/7/7/7/7[Lll] w - - 0 1"),
            None
        );
        // An SFEN writes no hands to compare; a FEN that cannot be read states nothing.
        assert_eq!(stated_defender_hand("6k/5S1/5S1/7/7/7/7 b L 1"), None);
        assert_eq!(stated_defender_hand("6k/5S1[L] w"), None);
        // The record of each form says so.
        let p = Problem::from_epd("6k/5S1/5S1/7/7/7/7[L] w - - 0 1;variant torishogi").unwrap();
        assert_eq!(p.defender_hand, Some(DefenderHand::Given));
        let p = Problem::from_json(r#"{"f":"6k/5S1/5S1/7/7/7/7[L] w - - 0 1"}"#).unwrap();
        assert_eq!(p.defender_hand, Some(DefenderHand::Given));
        let p = Problem::from_json(&format!(r#"{{"f":"{rest}"}}"#)).unwrap();
        assert_eq!(p.defender_hand, None);
        // A record that says otherwise is taken at its word.
        let p =
            Problem::from_json(r#"{"f":"6k/5S1/5S1/7/7/7/7[L] w - - 0 1","defender_hand":"rest"}"#)
                .unwrap();
        assert_eq!(p.defender_hand, Some(DefenderHand::Rest));
    }

    #[test]
    fn headers_and_epd_lines_are_told_from_positions_and_records() {
        assert!(is_csv_header("PuzzleId,FEN,Moves,Rating"));
        assert!(is_csv_header("\"SFEN\",note"));
        assert!(!is_csv_header("3k3/7/3C3/7/7/7/6K b C 1"));
        assert!(!is_csv_header(r#"{"sfen":"x","FEN":1}"#));
        assert!(!is_csv_header("FENs,Moves"));
        assert!(looks_like_epd(
            "7/7/7/7/7/7/7[-] w - - 0 1;variant torishogi"
        ));
        assert!(!looks_like_epd("7/7/7/7/7/7/7[-] w - - 0 1"));
        assert!(!looks_like_epd(r#"{"f":"7/7/7/7/7/7/7[-] w;x"}"#));
    }

    #[test]
    fn an_epd_line_gives_its_position_and_names_another_variant() {
        let fen = "1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w - - 0 1";
        let p =
            Problem::from_epd(&format!("{fen};variant torishogi;bm F@b6;pv F@b6,b7b6")).unwrap();
        assert_eq!(p.sfen, fen);
        assert!(p.moves.is_empty() && p.extra.is_empty());
        assert!(p.position().is_ok());
        assert_eq!(
            Problem::from_epd(&format!("{fen};variant shogi")),
            Err(ProblemError::Variant("shogi".into()))
        );
    }

    #[test]
    fn a_pychess_record_must_be_tori_shogi() {
        let read = |v: &str| Problem::from_json(&format!(r#"{{"f":"x","v":{v},"m":"a1a2"}}"#));
        let p = read(r#""torishogi""#).unwrap();
        assert_eq!(p.sfen, "x");
        // `m` stays as it was, not the main line.
        assert!(p.moves.is_empty());
        assert_eq!(p.extra["m"], "a1a2");
        assert_eq!(
            read(r#""shogi""#),
            Err(ProblemError::Variant("shogi".into()))
        );
        assert!(matches!(read("3"), Err(ProblemError::Field { name, .. }) if name == "v"));
    }
}
