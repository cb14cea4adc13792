//! `toritsume perft --suite FILE`: a file of positions with their expected counts, each
//! count checked, as engine authors check a move generator against another program's.
//!
//! The file is the EPD perft-suite layout of chess engines, one position a line with the
//! counts after it, `;D<depth> <nodes>` each (`rpckcpl/.../LPCKCPR b - 1 ;D1 17 ;D2 288`);
//! the position is anything the commands take (SFEN, FEN, `startpos`), and an `;id "name"`
//! names it in the report. Blank lines and `#` comments are skipped. `--make-suite` writes
//! such a file: the counts of every position of a file, to each depth up to the one given.

use super::input::{content_lines, read_file, source_name};
use super::output::emit;
use super::say_err;
use std::path::Path;
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::{parse_position, quoted};
use toritsume::report::to_json_line;
use toritsume::rules::Position;
use toritsume::rules::perft::perft_parallel;

/// One line of a suite: its position and the counts it expects.
struct Entry {
    /// Its line number in the file.
    line: usize,
    /// Its `id`, if it has one.
    id: Option<String>,
    /// The position.
    pos: Position,
    /// `(depth, nodes)`, in the order given.
    counts: Vec<(u32, u64)>,
}

/// Reads one suite line: the position before the first `;`, then `D<depth> <nodes>` and
/// `id "name"` operations (others are passed over).
fn parse_entry(text: &str, line: usize, max_depth: u32) -> Result<Entry, String> {
    let mut parts = text.split(';');
    let position = parts.next().unwrap_or_default().trim();
    let pos = parse_position(position).map_err(|e| e.to_string())?;
    let mut counts = Vec::new();
    let mut id = None;
    for op in parts.map(str::trim).filter(|op| !op.is_empty()) {
        let (name, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        if name == "id" {
            id = Some(value.trim_matches('"').to_string());
        } else if let Some(d) = name.strip_prefix('D').or_else(|| name.strip_prefix('d')) {
            let depth: u32 = d.parse().ok().filter(|&d| d <= max_depth).ok_or_else(|| {
                format!(
                    "`{}`: a depth is a number from 0 to {max_depth}",
                    quoted(name)
                )
            })?;
            let nodes: u64 = value.parse().map_err(|_| {
                format!(
                    "`{}`: the count of depth {depth} is not a number",
                    quoted(op)
                )
            })?;
            counts.push((depth, nodes));
        }
    }
    if counts.is_empty() {
        return Err("no count to check (`;D1 17 ;D2 288`)".to_string());
    }
    Ok(Entry {
        line,
        id,
        pos,
        counts,
    })
}

/// Runs a suite: every count of depth at most `depth_limit` computed and compared. Exit
/// status 0 when all agree, 1 when some differ, 2 when a line cannot be read (the others
/// are still checked).
pub fn run(
    file: &Path,
    depth_limit: Option<u32>,
    json: bool,
    max_depth: u32,
) -> anyhow::Result<i32> {
    let bytes = read_file(file)?;
    let name = source_name(file);
    let mut unreadable = 0;
    let mut entries = Vec::new();
    for (n, line) in content_lines(&bytes) {
        match line
            .map_err(String::from)
            .and_then(|t| parse_entry(t, n, max_depth))
        {
            Ok(e) => entries.push(e),
            Err(e) => {
                unreadable += 1;
                say_err!("error: line {n} of {name}: {e}");
            }
        }
    }
    let (mut checked, mut differ, mut skipped) = (0usize, 0usize, 0usize);
    for e in &entries {
        let label = match &e.id {
            Some(id) => format!("line {} ({id})", e.line),
            None => format!("line {}", e.line),
        };
        for &(depth, expected) in &e.counts {
            if depth_limit.is_some_and(|d| depth > d) {
                skipped += 1;
                continue;
            }
            let got = perft_parallel(&e.pos, depth);
            checked += 1;
            let agree = got == expected;
            differ += usize::from(!agree);
            let text = if json {
                to_json_line(&SuiteLine {
                    line: e.line,
                    id: &e.id,
                    depth,
                    expected,
                    nodes: got,
                    agree,
                })
            } else if agree {
                format!("{label} depth {depth}: {got} ok")
            } else {
                format!("{label} depth {depth}: {got}, expected {expected}: DIFFERS")
            };
            emit(&format!("{text}\n"))?;
        }
    }
    let mut summary = format!(
        "{checked} counts of {} positions checked: {}",
        entries.len(),
        if differ == 0 {
            "all agree".to_string()
        } else {
            format!("{differ} differ")
        }
    );
    if skipped > 0 {
        summary.push_str(&format!(" ({skipped} deeper than --depth left out)"));
    }
    if unreadable > 0 {
        summary.push_str(&format!("; {unreadable} lines unreadable"));
    }
    say_err!("{summary}");
    Ok(if unreadable > 0 {
        2
    } else if differ > 0 {
        1
    } else {
        0
    })
}

/// The `id` operation of a suite line, if it has one.
fn id_of(ops: &str) -> Option<String> {
    ops.split(';').map(str::trim).find_map(|op| {
        let (name, value) = op.split_once(char::is_whitespace)?;
        (name == "id").then(|| value.trim().trim_matches('"').to_string())
    })
}

/// Writes a suite (to standard output): each position of `file` (one a line, as the
/// commands take them, or a suite's line, whose `id` is kept and counts replaced) with its
/// counts at every depth from 1 to `depth`. Exit status 2 when a line cannot be read (named
/// by its line; the others are still written).
pub fn make(file: &Path, depth: u32) -> anyhow::Result<i32> {
    let bytes = read_file(file)?;
    let name = source_name(file);
    let mut unreadable = 0;
    let mut written = 0;
    for (n, line) in content_lines(&bytes) {
        let parsed = line.map_err(String::from).and_then(|t| {
            let (position, ops) = t.split_once(';').unwrap_or((t, ""));
            let pos = parse_position(position).map_err(|e| e.to_string())?;
            Ok((pos, id_of(ops)))
        });
        let (pos, id) = match parsed {
            Ok(p) => p,
            Err(e) => {
                unreadable += 1;
                say_err!("error: line {n} of {name}: {e}");
                continue;
            }
        };
        let mut out = write_sfen(&pos);
        for d in 1..=depth {
            out.push_str(&format!(" ;D{d} {}", perft_parallel(&pos, d)));
        }
        if let Some(id) = id {
            out.push_str(&format!(" ;id \"{id}\""));
        }
        out.push('\n');
        emit(&out)?;
        written += 1;
    }
    say_err!("{written} positions counted to depth {depth}");
    Ok(if unreadable > 0 { 2 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_line_gives_its_position_counts_and_name() {
        let e = parse_entry("startpos ;D1 17 ;id \"start\" ;D2 288 ;c0 \"x\"", 4, 30).unwrap();
        assert_eq!((e.line, e.id.as_deref()), (4, Some("start")));
        assert_eq!(e.counts, [(1, 17), (2, 288)]);
        assert_eq!(e.pos, Position::startpos());
        for (bad, why) in [
            ("startpos", "no count"),
            ("startpos ;D1 x", "not a number"),
            ("startpos ;D31 1", "from 0 to 30"),
            ("startpos ;Dx 1", "from 0 to 30"),
            ("7/7 b - 1 ;D1 1", "ranks"),
        ] {
            let e = parse_entry(bad, 1, 30).err().unwrap_or_default();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}

/// A checked count in `perft --suite --json`.
#[derive(serde::Serialize)]
struct SuiteLine<'a> {
    line: usize,
    id: &'a Option<String>,
    depth: u32,
    expected: u64,
    nodes: u64,
    agree: bool,
}
