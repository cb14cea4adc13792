//! Reading the positions and problem records the commands work on: a position given as text
//! (SFEN, FEN, `startpos [moves ...]`, a JSON problem record, a pychess-variants puzzle
//! record or an EPD line), a file with one a line (blank lines and `#` comments skipped, a
//! byte-order mark passed over) or a CSV file of puzzles, or standard input; each line an
//! [`Item`] that names where it came from (`line 3 of set.jsonl`), or says why it could not
//! be read; and [`LineChoice`], a choice of some of a file's lines.

mod lines;

pub use lines::{LineChoice, choose_lines, line_choice};

use crate::notation::parse_position;
use crate::problem::Problem;
use crate::problem::foreign::{csv_rows, is_csv_header, looks_like_epd};
use crate::rules::Position;
use crate::solver::DefenderHand;
use std::io::Read;

/// Why an input could not be read: the message names the file, or the choice of lines, and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// One input position, or why it could not be read.
pub struct Item {
    /// Where it came from (`line 3 of file.jsonl`, or `argument`).
    pub origin: String,
    /// Its line number in the file or standard input (1-based; `None` for an argument).
    pub line: Option<usize>,
    /// The record, when the line was JSON (kept so its fields can be echoed).
    pub record: Option<Problem>,
    /// The position or the error.
    pub position: Result<Position, String>,
}

impl Item {
    /// Whose pieces the defender holds in this item's problem: what its record says
    /// (`defender_hand`), else `default` (the command's `--defender-hand`).
    pub fn defender_hand(&self, default: DefenderHand) -> DefenderHand {
        self.record
            .as_ref()
            .and_then(|r| r.defender_hand)
            .unwrap_or(default)
    }
}

/// Copies a record's fields that an output object does not have of its own (`note`, `source`,
/// your ids and any other unknown field) into `out`, so that results can be joined back to
/// their records.
pub fn carry_record_fields(out: &mut serde_json::Map<String, serde_json::Value>, item: &Item) {
    let Some(r) = &item.record else {
        return;
    };
    for (k, v) in [("note", &r.note), ("source", &r.source)] {
        if let Some(s) = v {
            out.entry(k)
                .or_insert_with(|| serde_json::Value::from(s.as_str()));
        }
    }
    for (k, v) in &r.extra {
        out.entry(k.as_str()).or_insert_with(|| v.clone());
    }
}

/// Reads the positions named by the words of a command line: a position (SFEN, FEN,
/// `startpos [moves ...]`, a JSON record or an EPD line, its words joined), a file with one
/// a line (or a CSV file of puzzles), or `-` for standard input. A file's items each carry
/// their line; a line that cannot be read is an item that says why. An input that holds no
/// position gives no items.
pub fn read_input(words: &[String]) -> Result<Vec<Item>, InputError> {
    let joined = words.join(" ");
    if joined == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| InputError(format!("cannot read standard input: {e}")))?;
        return Ok(read_text(&bytes, "standard input"));
    }
    if words.len() == 1 {
        let path = std::path::Path::new(&words[0]);
        if path.is_file() {
            let bytes = read_file(path)?;
            return Ok(read_text(&bytes, &source_name(path)));
        }
        if path.is_dir() {
            return Err(InputError(format!(
                "{} is a directory, not a position or a file",
                path.display()
            )));
        }
    }
    let item = read_one(&joined, "argument".into());
    if words.len() == 1 && item.position.is_err() && looks_like_path(&words[0]) {
        return Err(InputError(format!(
            "cannot open {}: No such file or directory",
            crate::notation::quoted(&words[0])
        )));
    }
    Ok(vec![item])
}

/// Whether a word that is not a position was meant as a file name: a known extension, or a
/// path that starts like one.
fn looks_like_path(word: &str) -> bool {
    const EXTENSIONS: [&str; 8] = [
        ".jsonl", ".json", ".ndjson", ".txt", ".sfen", ".fen", ".epd", ".csv",
    ];
    let lower = word.to_ascii_lowercase();
    EXTENSIONS.iter().any(|e| lower.ends_with(e))
        || ["/", "./", "../", "~/"].iter().any(|p| word.starts_with(p))
}

/// How messages name an input file: its path, or `standard input` for `-`.
pub fn source_name(path: &std::path::Path) -> String {
    if path == std::path::Path::new("-") {
        "standard input".to_string()
    } else {
        // Printed in reports and messages: a name a terminal would act on is written out.
        crate::notation::printable(&path.display().to_string()).into_owned()
    }
}

/// Reads a whole input file (`-`: standard input); the error names it.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, InputError> {
    if path == std::path::Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| InputError(format!("cannot read standard input: {e}")))?;
        return Ok(bytes);
    }
    std::fs::read(path)
        .map_err(|e| InputError(format!("cannot read {}: {}", path.display(), io_reason(&e))))
}

/// The reason an I/O error gives, without the `(os error N)` that follows it.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}

/// The lines of a file that hold something, each with its 1-based number: the trimmed
/// text, or `not UTF-8` for a line that is not. A UTF-8 byte-order mark at the start is
/// skipped; blank lines and `#` comments are left out.
pub fn content_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, Result<&str, &'static str>)> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(i, raw)| match std::str::from_utf8(raw) {
            Err(_) => Some((i + 1, Err("not UTF-8"))),
            Ok(line) => {
                let t = line.trim();
                (!t.is_empty() && !t.starts_with('#')).then_some((i + 1, Ok(t)))
            }
        })
}

/// One line of an input file that holds something.
pub enum Line<'a> {
    /// Its text: a position, a JSON record or an EPD line.
    Text(&'a str),
    /// A row of a CSV file of puzzles, read into a record, or why it is none.
    Row(Result<Problem, String>),
}

impl Line<'_> {
    /// The problem record the line holds (a JSON record, also pychess-variants', an EPD line
    /// or a CSV row), its claims checked ([`Problem::check`]: every command reads a record
    /// so); the error says why it holds none, or which claim is wrong.
    pub fn record(self) -> Result<Problem, String> {
        match self {
            Line::Text(t) => Problem::read(t).map_err(|e| e.to_string()),
            Line::Row(r) => {
                let record = r?;
                record.check().map_err(|e| e.to_string())?;
                Ok(record)
            }
        }
    }
}

/// The lines of a file that hold something, each with its 1-based number ([`content_lines`]),
/// or, when the first is the header of a CSV file of puzzles (names separated by commas,
/// `FEN` or `SFEN` among them), its rows read into records.
pub fn file_lines(bytes: &[u8]) -> Vec<(usize, Result<Line<'_>, &'static str>)> {
    if let Some((_, Ok(first))) = content_lines(bytes).next()
        && is_csv_header(first)
    {
        let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        return csv_rows(body)
            .into_iter()
            .map(|(n, r)| (n, Ok(Line::Row(r))))
            .collect();
    }
    content_lines(bytes)
        .map(|(n, l)| (n, l.map(Line::Text)))
        .collect()
}

/// The problem records of a file's lines ([`file_lines`], [`Line::record`]), each with its
/// line number, or why the line holds none.
pub fn records(bytes: &[u8]) -> Vec<(usize, Result<Problem, String>)> {
    file_lines(bytes)
        .into_iter()
        .map(|(n, l)| (n, l.map_err(String::from).and_then(Line::record)))
        .collect()
}

/// The items of a file's lines, the file named `name` in their origins (`line 3 of NAME`); a
/// line that is not UTF-8 is an item of its own that says so, and the others are read as
/// usual.
pub fn read_text(bytes: &[u8], name: &str) -> Vec<Item> {
    file_lines(bytes)
        .into_iter()
        .map(|(n, line)| {
            let origin = format!("line {n} of {name}");
            let mut item = match line {
                Ok(Line::Text(t)) => read_one(t, origin),
                Ok(Line::Row(r)) => record_item(r, origin),
                Err(e) => Item {
                    origin,
                    line: None,
                    record: None,
                    position: Err(e.into()),
                },
            };
            item.line = Some(n);
            item
        })
        .collect()
}

/// The item of a record read from `origin`, or of the reason none could be.
fn record_item(record: Result<Problem, String>, origin: String) -> Item {
    match record {
        Ok(p) => {
            let position = p.position().map_err(|e| e.to_string());
            Item {
                origin,
                line: None,
                record: Some(p),
                position,
            }
        }
        Err(e) => Item {
            origin,
            line: None,
            record: None,
            position: Err(e),
        },
    }
}

/// The item of one position or record given as text (a JSON record, an EPD line, or a
/// position in SFEN, FEN or `startpos [moves ...]`), read from `origin`.
pub fn read_one(text: &str, origin: String) -> Item {
    if text.starts_with('{') || looks_like_epd(text) {
        record_item(Line::Text(text).record(), origin)
    } else {
        Item {
            origin,
            line: None,
            record: None,
            position: parse_position(text).map_err(|e| e.to_string()),
        }
    }
}
