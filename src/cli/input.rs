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

/// Reads the positions named by the POSITION|FILE|- words.
pub fn read_items(words: &[String]) -> anyhow::Result<Vec<Item>> {
    let joined = words.join(" ");
    if joined == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
        return Ok(parse_lines(&text, "standard input"));
    }
    if words.len() == 1 {
        let path = std::path::Path::new(&words[0]);
        if path.is_file() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            return Ok(parse_lines(&text, &path.display().to_string()));
        }
        if path.is_dir() {
            anyhow::bail!(
                "{} is a directory, not a position or a file",
                path.display()
            );
        }
    }
    Ok(vec![parse_one(&joined, "argument".into())])
}

fn parse_lines(text: &str, name: &str) -> Vec<Item> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| parse_one(l.trim(), format!("line {} of {name}", i + 1)))
        .collect()
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
