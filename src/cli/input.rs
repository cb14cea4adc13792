//! Reading the positions a command works on: a POSITION given on the command line, a FILE
//! with one position per line (SFEN, FEN, a JSON problem record, a pychess-variants puzzle
//! record or an EPD line; blank lines and `#` comments skipped) or a CSV file of puzzles, or
//! `-` for standard input; the problem records of such files; and `--lines`, the choice of
//! some of a file's lines.

use super::say_err;
use std::io::Read;
use toritsume::generator::Seed;
use toritsume::notation::parse_position;
use toritsume::problem::Problem;
use toritsume::problem::foreign::{csv_rows, is_csv_header, looks_like_epd};
use toritsume::rules::Position;
use toritsume::solver::DefenderHand;

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
        return Ok(noted_if_empty(
            parse_lines(&bytes, "standard input"),
            "standard input",
        ));
    }
    if words.len() == 1 {
        let path = std::path::Path::new(&words[0]);
        if path.is_file() {
            let bytes = read_file(path)?;
            let name = source_name(path);
            return Ok(noted_if_empty(parse_lines(&bytes, &name), &name));
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

/// `items`, after a note on standard error when the input `name` held none: a run over an
/// empty file succeeds, but says why it printed nothing.
fn noted_if_empty(items: Vec<Item>, name: &str) -> Vec<Item> {
    if items.is_empty() {
        super::say_err!("note: {name} holds no positions (nothing but blank lines and comments)");
    }
    items
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

/// Reads the problem records of `files`, in order, each with its [`Seed`] (its position,
/// main line, family and keys; a record naming no family is given `FILE:LINE`), and hands
/// each readable one to `each`. A line that is not a record, or whose moves cannot be
/// played, is named on standard error (`error: line N of FILE: reason`) and counted; the
/// count is returned. A file that cannot be read is an error.
pub fn read_seeded(
    files: &[std::path::PathBuf],
    mut each: impl FnMut(Problem, Seed),
) -> anyhow::Result<usize> {
    read_placed(files, |_, r, seed| each(r, seed))
}

/// [`read_seeded`], each record handed over with where it is (`line N of FILE`).
fn read_placed(
    files: &[std::path::PathBuf],
    mut each: impl FnMut(String, Problem, Seed),
) -> anyhow::Result<usize> {
    let mut bad = 0;
    for f in files {
        let bytes = read_file(f)?;
        for (n, record) in records(&bytes) {
            let parsed = record.and_then(|r| {
                let seed = Seed::from_record(&r, format!("{}:{n}", source_name(f)))
                    .map_err(|e| e.to_string())?;
                Ok((r, seed))
            });
            match parsed {
                Ok((r, seed)) => each(format!("line {n} of {}", source_name(f)), r, seed),
                Err(e) => {
                    bad += 1;
                    say_err!("error: line {n} of {}: {e}", source_name(f));
                }
            }
        }
    }
    Ok(bad)
}

/// `--check`, as `stats` and `merge` take it: each record solved first, and counted or
/// chosen only as far as the solve confirms it.
#[derive(clap::Args, Clone, Debug)]
pub struct CheckArgs {
    /// Solve each record first (as `book` does) and use only what the solve confirms: a
    /// record whose length, status or line the solve contradicts is named and left out, and
    /// one without a line is measured by the line found.
    #[arg(long)]
    check: bool,
    /// With --check, the node budget of each record's solve (a record that needs more is
    /// named and left out).
    #[arg(long, value_name = "N", default_value_t = 20_000_000, value_parser = super::node_budget_arg, requires = "check")]
    check_nodes: u64,
    /// With --check, the worker threads (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    check_threads: usize,
}

/// [`read_seeded`], with `--check` each record first settled by a solve
/// ([`toritsume::problem::Problem::settled`]) and handed to `each` as the solve settles it,
/// those the solve contradicts (or cannot decide within the budget) named and counted as
/// bad lines.
pub fn read_checked(
    files: &[std::path::PathBuf],
    check: &CheckArgs,
    mut each: impl FnMut(Problem, Seed),
) -> anyhow::Result<usize> {
    if !check.check {
        return read_seeded(files, each);
    }
    let mut read = Vec::new();
    let mut bad = read_placed(files, |at, r, seed| read.push((at, r, seed)))?;
    let records: Vec<Problem> = read.iter().map(|(_, r, _)| r.clone()).collect();
    let config = toritsume::solver::SolverConfig {
        hash_mb: 16,
        nodes: Some(check.check_nodes),
        ..toritsume::solver::SolverConfig::default()
    };
    let threads = super::threads_arg(check.check_threads)?;
    let settled = toritsume::problem::answer::settle_all(&records, &config, threads)?;
    for ((at, r, seed), s) in read.into_iter().zip(settled) {
        // The seed of the record as the solve settled it: its length and line the solve's.
        match s.and_then(|p| Seed::from_record(&p, seed.family)) {
            Ok(settled) => each(r, settled),
            Err(e) => {
                bad += 1;
                say_err!("error: {at}: {e}");
            }
        }
    }
    Ok(bad)
}

/// How messages name an input file: its path, or `standard input` for `-`.
pub fn source_name(path: &std::path::Path) -> String {
    if path == std::path::Path::new("-") {
        "standard input".to_string()
    } else {
        // Printed in reports and messages: a name a terminal would act on is written out.
        toritsume::notation::printable(&path.display().to_string()).into_owned()
    }
}

/// Reads a whole input file (`-`: standard input); the error names it.
pub fn read_file(path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    if path == std::path::Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
        return Ok(bytes);
    }
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

/// The items of a file's lines; a line that is not UTF-8 is an item of its own that says
/// so, and the others are read as usual.
fn parse_lines(bytes: &[u8], name: &str) -> Vec<Item> {
    file_lines(bytes)
        .into_iter()
        .map(|(n, line)| {
            let origin = format!("line {n} of {name}");
            let mut item = match line {
                Ok(Line::Text(t)) => parse_one(t, origin),
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

fn parse_one(text: &str, origin: String) -> Item {
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

/// `--lines`, as `solve`, `verify` and `bench` take it.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LinesArg {
    /// Only these lines of the FILE, numbered from 1 as in the reports' `line N of FILE`
    /// (`3,10-12`; an error when one holds no position).
    #[arg(long, value_name = "LIST", value_parser = line_choice_arg)]
    lines: Option<LineChoice>,
}

impl LinesArg {
    /// The positions `words` name ([`read_items`]), on the chosen lines only
    /// ([`choose_lines`]).
    pub fn read(&self, words: &[String]) -> anyhow::Result<Vec<Item>> {
        choose_lines(read_items(words)?, self.lines.as_ref())
    }

    /// The `--lines` that takes up a run from `items[i]` on: what this choice (all lines,
    /// without one) leaves from that item's line, as an option to give; `None` when the
    /// item has no line (a position given as such).
    pub fn go_on_from(&self, items: &[Item], i: usize) -> Option<String> {
        let n = items.get(i)?.line?;
        let ranges = match &self.lines {
            Some(c) => {
                c.0.iter()
                    .filter(|&&(_, b)| b >= n)
                    .map(|&(a, b)| (a.max(n), b))
                    .collect()
            }
            None => vec![(n, usize::MAX)],
        };
        Some(format!("--lines {}", LineChoice(ranges)))
    }
}

/// A choice of lines of an input file (`--lines 3,10-12,40-`): line numbers counted from 1
/// as in the reports' `line N of FILE`, and ranges of them, both ends included (an open
/// end, `40-`, is kept as `usize::MAX`: to the end of the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineChoice(Vec<(usize, usize)>);

impl std::fmt::Display for LineChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|&(a, b)| range_text(a, b)).collect();
        f.write_str(&parts.join(","))
    }
}

/// A range as `--lines` writes it: `7`, `3-5`, or `40-` to the end.
fn range_text(a: usize, b: usize) -> String {
    if b == usize::MAX {
        format!("{a}-")
    } else if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

impl LineChoice {
    /// Whether line `n` is chosen.
    pub fn contains(&self, n: usize) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&n))
    }
}

/// Parses `--lines`: comma-separated line numbers (from 1), ranges `A-B` with A ≤ B, and
/// ranges `A-` to the end of the file.
pub fn line_choice_arg(text: &str) -> Result<LineChoice, String> {
    let number = |w: &str| -> Result<usize, String> {
        match w.trim().parse::<usize>() {
            Ok(0) => Err("lines are numbered from 1".to_string()),
            Ok(n) => Ok(n),
            Err(_) => Err(format!(
                "`{}` is not a line number (give numbers and ranges such as 3,10-12)",
                toritsume::notation::quoted(w.trim())
            )),
        }
    };
    let mut ranges = Vec::new();
    for part in text.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, "")) if !a.trim().is_empty() => (number(a)?, usize::MAX),
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(part)?;
                (n, n)
            }
        };
        if a > b {
            return Err(format!("the range {a}-{b} runs backwards"));
        }
        ranges.push((a, b));
    }
    Ok(LineChoice(ranges))
}

/// The items on the lines `choice` names (all of them without a choice), in file order. An
/// error when the input is not a file or standard input, or when a chosen line holds no
/// position (past the end, blank or a comment): a choice that silently shrank would
/// measure or check less than asked.
pub fn choose_lines(items: Vec<Item>, choice: Option<&LineChoice>) -> anyhow::Result<Vec<Item>> {
    let Some(choice) = choice else {
        return Ok(items);
    };
    if items.iter().any(|i| i.line.is_none()) {
        anyhow::bail!("--lines chooses lines of a file, but the input is a position");
    }
    let source = items
        .first()
        .and_then(|i| i.origin.split_once(" of ").map(|(_, f)| f.to_string()))
        .unwrap_or_else(|| "the input".to_string());
    // The items are in file order, each on a line of its own.
    let present: Vec<usize> = items.iter().filter_map(|i| i.line).collect();
    let last = present.last().copied().unwrap_or(0);
    // A range need not be full (the blank lines and comments in it are passed over), but it
    // must hold a position and end within the file; a single line must hold one itself.
    let missing: Vec<(usize, usize)> = choice
        .0
        .iter()
        .copied()
        .filter(|&(a, b)| {
            (b > last && b != usize::MAX) || !present.iter().any(|n| (a..=b).contains(n))
        })
        .collect();
    if !missing.is_empty() {
        let named: Vec<String> = missing
            .iter()
            .map(|&(a, b)| {
                let s = if a == b { "" } else { "s" };
                format!("line{s} {}", range_text(a, b))
            })
            .collect();
        let one_line = matches!(missing[..], [(a, b)] if a == b);
        anyhow::bail!(
            "--lines: {} of {source} hold{} no position (past the end, blank or a comment)",
            named.join(", "),
            if one_line { "s" } else { "" }
        );
    }
    Ok(items
        .into_iter()
        .filter(|i| i.line.is_some_and(|n| choice.contains(n)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_choices_read_numbers_and_ranges() {
        let c = line_choice_arg("3,10-12, 20").unwrap();
        let chosen: Vec<usize> = (1..=25).filter(|&n| c.contains(n)).collect();
        assert_eq!(chosen, vec![3, 10, 11, 12, 20]);
        assert_eq!(line_choice_arg("7-7").unwrap(), LineChoice(vec![(7, 7)]));
        assert_eq!(
            line_choice_arg("2,9-").unwrap(),
            LineChoice(vec![(2, 2), (9, usize::MAX)])
        );
        assert_eq!(
            line_choice_arg("2, 9-11,40-").unwrap().to_string(),
            "2,9-11,40-"
        );
        for bad in ["", "0", "2-0", "5-3", "x", "1,,2", "-", "0-", "-4", "3.5"] {
            assert!(line_choice_arg(bad).is_err(), "{bad:?} accepted");
        }
        assert!(line_choice_arg("5-3").unwrap_err().contains("backwards"));
        assert!(line_choice_arg("0").unwrap_err().contains("from 1"));
    }

    #[test]
    fn chosen_lines_are_those_of_the_file_and_must_hold_positions() {
        let file = b"# a comment\n4pk1/5l1/3C2F/7/7/7/7 b C 1\n\n5k1/7/3C2F/7/7/7/7 b C 1\nbad\n";
        let lines = |items: &[Item]| items.iter().map(|i| i.line.unwrap()).collect::<Vec<_>>();
        let all = parse_lines(file, "set.txt");
        assert_eq!(lines(&all), vec![2, 4, 5]);
        let pick = |text: &str| {
            choose_lines(
                parse_lines(file, "set.txt"),
                Some(&line_choice_arg(text).unwrap()),
            )
        };
        let refusal = |text: &str| pick(text).err().expect("refused").to_string();
        assert_eq!(lines(&pick("4").unwrap()), vec![4]);
        assert_eq!(lines(&pick("1-3,5").unwrap()), vec![2, 5]);
        let e = refusal("2,3,9-12");
        assert!(
            e.contains("line 3, lines 9-12 of set.txt hold no position"),
            "{e}"
        );
        let e = refusal("4-6");
        assert!(e.contains("lines 4-6 of set.txt hold no position"), "{e}");
        // Told from the positions present, not by walking the range.
        let e = refusal("1000000000-18446744073709551615");
        assert!(e.contains("hold no position"), "{e}");
        let e = refusal("6");
        assert!(e.contains("line 6 of set.txt holds no position"), "{e}");
        // To the end of the file.
        assert_eq!(lines(&pick("3-").unwrap()), vec![4, 5]);
        assert_eq!(lines(&pick("2,5-").unwrap()), vec![2, 5]);
        let e = refusal("6-");
        assert!(e.contains("lines 6- of set.txt hold no position"), "{e}");
        let one = vec![parse_one("4pk1/5l1/3C2F/7/7/7/7 b C 1", "argument".into())];
        let e = choose_lines(one, Some(&line_choice_arg("1").unwrap()))
            .err()
            .expect("refused");
        assert!(e.to_string().contains("the input is a position"), "{e}");
    }

    #[test]
    fn a_run_is_taken_up_from_an_item_with_the_lines_it_leaves() {
        let file = b"4pk1/5l1/3C2F/7/7/7/7 b C 1\n\n5k1/7/3C2F/7/7/7/7 b C 1\nbad\n";
        let items = parse_lines(file, "set.txt");
        let all = LinesArg { lines: None };
        assert_eq!(all.go_on_from(&items, 1).as_deref(), Some("--lines 3-"));
        assert_eq!(all.go_on_from(&items, 3), None);
        let some = LinesArg {
            lines: Some(line_choice_arg("1,3-4,9-12,20-").unwrap()),
        };
        let chosen = choose_lines(parse_lines(file, "set.txt"), some.lines.as_ref());
        assert!(chosen.is_err(), "lines 9-12 and 20- hold nothing here");
        assert_eq!(
            some.go_on_from(&items, 1).as_deref(),
            Some("--lines 3-4,9-12,20-")
        );
        assert_eq!(
            some.go_on_from(&items, 2).as_deref(),
            Some("--lines 4,9-12,20-")
        );
        let one = vec![parse_one("4pk1/5l1/3C2F/7/7/7/7 b C 1", "argument".into())];
        assert_eq!(all.go_on_from(&one, 0), None);
    }
}
