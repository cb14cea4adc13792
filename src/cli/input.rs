//! Reading the positions a command works on: a POSITION given on the command line, a FILE
//! with one position per line (SFEN, FEN or a JSON problem record; blank lines and `#`
//! comments skipped), or `-` for standard input.

use std::io::Read;
use toritsume::notation::parse_position;
use toritsume::problem::Problem;
use toritsume::rules::Position;
use toritsume::solver::DefenderHand;

/// One input position, or why it could not be read.
pub struct Item {
    /// Where it came from (`line 3 of file.jsonl`, or `argument`).
    pub origin: String,
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
pub fn carry_record_fields(out: &mut serde_json::Value, item: &Item) {
    let (Some(r), Some(obj)) = (&item.record, out.as_object_mut()) else {
        return;
    };
    for (k, v) in [("note", &r.note), ("source", &r.source)] {
        if let Some(s) = v {
            obj.entry(k)
                .or_insert_with(|| serde_json::Value::from(s.as_str()));
        }
    }
    for (k, v) in &r.extra {
        obj.entry(k.as_str()).or_insert_with(|| v.clone());
    }
}

/// Reads the positions named by the POSITION|FILE|- words.
pub fn read_items(words: &[String]) -> anyhow::Result<Vec<Item>> {
    let joined = words.join(" ");
    if joined == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
        return Ok(parse_lines(&bytes, "standard input"));
    }
    if words.len() == 1 {
        let path = std::path::Path::new(&words[0]);
        if path.is_file() {
            let bytes = read_file(path)?;
            return Ok(parse_lines(&bytes, &path.display().to_string()));
        }
        if path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a position or a file",
                path.display()
            );
        }
    }
    let item = parse_one(&joined, "argument".into());
    if words.len() == 1 && item.position.is_err() && looks_like_path(&words[0]) {
        anyhow::bail!(
            "cannot open {}: No such file or directory",
            toritsume::notation::quoted(&words[0])
        );
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

/// Reads a whole input file; the error names it.
pub fn read_file(path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: {}",
            path.display(),
            super::output::io_reason(&e)
        )
    })
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

/// The items of a file's lines; a line that is not UTF-8 is an item of its own that says
/// so, and the others are read as usual.
fn parse_lines(bytes: &[u8], name: &str) -> Vec<Item> {
    content_lines(bytes)
        .map(|(n, line)| {
            let origin = format!("line {n} of {name}");
            match line {
                Ok(t) => parse_one(t, origin),
                Err(e) => Item {
                    origin,
                    record: None,
                    position: Err(e.into()),
                },
            }
        })
        .collect()
}

fn parse_one(text: &str, origin: String) -> Item {
    if text.starts_with('{') {
        match Problem::from_json(text) {
            Ok(p) => {
                let position = p.position().map_err(|e| e.to_string());
                Item {
                    origin,
                    record: Some(p),
                    position,
                }
            }
            Err(e) => Item {
                origin,
                record: None,
                position: Err(e.to_string()),
            },
        }
    } else {
        Item {
            origin,
            record: None,
            position: parse_position(text).map_err(|e| e.to_string()),
        }
    }
}
