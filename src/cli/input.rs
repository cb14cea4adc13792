//! Reading the positions a command works on: a POSITION given on the command line, a FILE
//! with one position per line (SFEN, FEN or a JSON problem record; blank lines and `#`
//! comments skipped), or `-` for standard input.

use std::io::Read;
use toritsume::notation::parse_position;
use toritsume::problem::Problem;
use toritsume::rules::Position;

/// One input position, or why it could not be read.
pub struct Item {
    /// Where it came from (`line 3 of file.jsonl`, or `argument`).
    pub origin: String,
    /// The record, when the line was JSON (kept so its fields can be echoed).
    pub record: Option<Problem>,
    /// The position or the error.
    pub position: Result<Position, String>,
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
            let bytes = std::fs::read(path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
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

/// The lines of a file (a UTF-8 byte-order mark at its start skipped); a line that is not
/// UTF-8 is an item of its own that says so, and the others are read as usual.
fn parse_lines(bytes: &[u8], name: &str) -> Vec<Item> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut out = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let origin = format!("line {} of {name}", i + 1);
        let Ok(line) = std::str::from_utf8(raw) else {
            out.push(Item {
                origin,
                record: None,
                position: Err("not UTF-8".into()),
            });
            continue;
        };
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_one(t, origin));
    }
    out
}

fn parse_one(text: &str, origin: String) -> Item {
    if text.starts_with('{') {
        match Problem::from_json(text) {
            Ok(p) => {
                let position = parse_position(&p.sfen).map_err(|e| e.to_string());
                Item {
                    origin,
                    record: Some(p),
                    position,
                }
            }
            Err(e) => Item {
                origin,
                record: None,
                position: Err(e),
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
