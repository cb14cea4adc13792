//! The dataset card of `export --format all`: a `README.md` for the directory, as dataset
//! hubs (Hugging Face) read it. YAML front matter (the CSV as the data, size category, tags)
//! then, in words and tables, what the files hold, the columns, the conventions a user of
//! the set must know, the lengths, ratings and themes, and where the problems came from.
//! Everything in it is counted from the export itself, and nothing varies from run to run
//! (no date, no timing), so the same problems give the same card.

use super::Puzzle;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What the card is made from besides the puzzles.
#[derive(Clone, Debug, Default)]
pub struct CardInput {
    /// Each file written, relative to the directory, with its number of records.
    pub files: Vec<(String, usize)>,
    /// Each input file's name (without its directory) and its number of records.
    pub sources: Vec<(String, usize)>,
    /// Records left out of the pychess and EPD files, by reason, with their counts.
    pub left_out_of_fairy: Vec<(String, usize)>,
    /// Records left out of every file, by reason, with their counts.
    pub left_out: Vec<(String, usize)>,
}

/// `n` with a comma every three digits.
fn grouped(n: usize) -> String {
    crate::notation::grouped(n as u64)
}

/// `text` as a Markdown code span that shows it as it is: fenced by more backticks than it
/// holds in a row, line breaks made spaces, and in a table cell (`in_table`) `|` written
/// `\|`, so that no text a record or a file name carries can end the span, the cell or the
/// row.
fn code(text: &str, in_table: bool) -> String {
    let mut t: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if in_table {
        t = t.replace('|', "\\|");
    }
    let longest = t.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A span that starts or ends with a backtick needs a space inside its fence.
    let pad = if t.starts_with('`') || t.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{t}{pad}{fence}")
}

/// `text` as plain Markdown text: line breaks made spaces, and every character Markdown or
/// HTML would act on inside a line (`<`, `&`, `*`, `_`, `` ` ``, `[`, `|`, `\\`) escaped, so
/// it shows as it is.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Hugging Face's size category for `n` records.
fn size_category(n: usize) -> &'static str {
    match n {
        0..1_000 => "n<1K",
        1_000..10_000 => "1K<n<10K",
        10_000..100_000 => "10K<n<100K",
        100_000..1_000_000 => "100K<n<1M",
        _ => "1M<n<10M",
    }
}

/// What each file of the directory is.
fn describe_file(name: &str) -> String {
    match name {
        "torishogi-puzzles.csv" => {
            "the Lichess puzzle-database columns, then `Plies` and `SFEN` (every problem)".into()
        }
        "torishogi-pychess.json" => "pychess-variants puzzle records, one JSON object a line, \
             as its import script reads them (the problems that hold under Fairy-Stockfish's \
             rules)"
            .into(),
        "torishogi-puzzles.epd" => "Fairy-Stockfish puzzle-tool EPD lines \
             (`FEN;variant torishogi;bm MOVE;eval #N;type mate;tsume true;pv ...`; the same \
             problems as the pychess file)"
            .into(),
        n => match n
            .strip_prefix("sfen/mate")
            .and_then(|r| r.strip_suffix(".sfen"))
        {
            Some(len) => match len.parse::<u16>() {
                Ok(len) => format!(
                    "one SFEN a line, the problems of {}",
                    crate::notation::plies(len)
                ),
                Err(_) => String::new(),
            },
            None => String::new(),
        },
    }
}

/// The card for the puzzles exported (those in the CSV, in its order).
pub fn dataset_card(puzzles: &[&Puzzle], input: &CardInput) -> String {
    let n = puzzles.len();
    let mut out = String::new();
    let _ = write!(
        out,
        "---\n\
         pretty_name: Tori Shogi mate problems\n\
         language:\n- en\n\
         tags:\n- tori-shogi\n- shogi\n- tsume\n- mate-puzzles\n\
         size_categories:\n- {}\n\
         # license: choose the license the set is published under (for example cc0-1.0)\n\
         configs:\n- config_name: default\n  data_files:\n  - split: train\n    path: torishogi-puzzles.csv\n\
         ---\n\n",
        size_category(n)
    );
    let _ = write!(
        out,
        "# Tori Shogi mate problems\n\n\
         {} mate problems (tsume) of Tori Shogi, the 7×7 \"bird shogi\" with drops. The side to \
         move is the attacker: it checks on every move and mates in the number of plies given, \
         against the longest defence. Each problem was verified sound when this export was made: \
         no cook (no other attacker move mates in time anywhere along the solution), no spare \
         or redundant pieces; a second mating move at the last move (a final dual) is allowed, \
         and tagged `finalDual`.\n\n",
        grouped(n)
    );
    out.push_str("## Files\n\n| file | records | what |\n|---|---|---|\n");
    for (name, count) in &input.files {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            code(name, true),
            grouped(*count),
            describe_file(name)
        );
    }
    out.push_str(
        "\n## The CSV's columns\n\n\
         | column | what |\n|---|---|\n\
         | `PuzzleId` | five word characters from the position, the same in every export (or the problem's own id, when it came with one) |\n\
         | `FEN` | the problem as Fairy-Stockfish writes it, both hands in brackets (`w` = Black, the first player, upper case) |\n\
         | `Moves` | the solution, USI moves separated by spaces, **starting with the attacker's first move** |\n\
         | `Rating` | the problem's difficulty rating, on a 600–2800 scale |\n\
         | `RatingDeviation`, `Popularity`, `NbPlays`, `GameUrl`, `OpeningTags` | empty (nothing is known) |\n\
         | `Themes` | space-separated tags: `mateInN` (N = attacker moves), `mate`, the length (`oneMove`, `short`, `long`, `veryLong`) and the problem's own themes |\n\
         | `Plies` | the solution's length in plies (odd) |\n\
         | `SFEN` | the problem in SFEN (USI) form, the attacker's hand only |\n\n",
    );
    out.push_str(
        "## Conventions\n\n\
         - Lichess's FEN is the position before the opponent's last move, which `Moves` \
         starts with; a mate problem has no move before it, so here the FEN is the problem \
         itself and `Moves` starts with the attacker's move.\n\
         - The defender holds every piece that is neither on the board nor in the \
         attacker's hand (the FEN writes it out), unless the problem says otherwise.\n\
         - Every attacker move checks; the defender answers with any legal move, drops \
         included. A swallow may not be dropped to give mate.\n\
         - The solution is the shortest mate against the longest defence. Useless \
         interpositions (a piece dropped in the way of a ranging check that is simply taken, \
         the same mate following) are left out of it; Fairy-Stockfish, which counts every \
         interposition, gets them played out in the pychess and EPD files.\n\
         - Squares are file 7–1 from Black's left, rank a–g from White's side (`4b`); USI \
         moves are from-square to-square (`3d3c`), `+` when promoting, drops `S*4c`.\n",
    );
    if !input.left_out_of_fairy.is_empty() {
        out.push_str(
            "- Fairy-Stockfish (and so pychess-variants) plays by slightly different rules; \
             left out of the pychess and EPD files:\n",
        );
        for (why, count) in &input.left_out_of_fairy {
            let _ = writeln!(out, "  - {}: {}", grouped(*count), plain(why));
        }
    }
    if !input.left_out.is_empty() {
        out.push_str("- Records of the sources left out of every file:\n");
        for (why, count) in &input.left_out {
            let _ = writeln!(out, "  - {}: {}", grouped(*count), plain(why));
        }
    }

    let mut by_len: BTreeMap<u16, (usize, u64)> = BTreeMap::new();
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    for p in puzzles {
        let e = by_len.entry(p.plies).or_default();
        e.0 += 1;
        e.1 += p.rating as u64;
        // The `mateInN` tags say the length again, which the table below gives.
        for t in p.themes.iter().filter(|t| !t.starts_with("mateIn")) {
            *themes.entry(t.as_str()).or_default() += 1;
        }
    }
    out.push_str("\n## Lengths and ratings\n\n| plies | problems | mean rating |\n|---|---|---|\n");
    for (len, (count, sum)) in &by_len {
        let _ = writeln!(
            out,
            "| {len} | {} | {} |",
            grouped(*count),
            (*sum as f64 / *count as f64).round() as u64
        );
    }
    if let (Some(lo), Some(hi)) = (
        puzzles.iter().map(|p| p.rating).min(),
        puzzles.iter().map(|p| p.rating).max(),
    ) {
        let _ = writeln!(out, "\nRatings range from {lo} to {hi}.");
    }
    if !themes.is_empty() {
        out.push_str("\n## Themes\n\n| theme | problems |\n|---|---|\n");
        for (t, count) in crate::notation::commonest_first(&themes) {
            let _ = writeln!(out, "| {} | {} |", code(t, true), grouped(count));
        }
    }
    out.push_str(
        "\n## Checking and reading the files back\n\n\
         toritsume reads every file here as it reads its own problem files: `toritsume verify \
         torishogi-puzzles.csv` (or the pychess or EPD file, or an SFEN file) solves and \
         verifies each problem again, named by its line; `toritsume merge \
         torishogi-puzzles.csv --out problems.jsonl` makes the CSV's rows problem records \
         again (its rating, themes and id kept), and `toritsume export` of those gives this \
         CSV back unchanged.\n",
    );
    out.push_str("\n## Source\n\nExported by `toritsume export --format all` from ");
    let sources: Vec<String> = input
        .sources
        .iter()
        .map(|(name, count)| format!("{} ({} records)", code(name, false), grouped(*count)))
        .collect();
    out.push_str(&sources.join(", "));
    out.push_str(
        ". Each record's `source` field there says how the problem was made (a generator \
         run and candidate, or its composer).\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(plies: u16, rating: u32, themes: &[&str]) -> Puzzle {
        Puzzle {
            defender_hand: crate::solver::DefenderHand::Rest,
            id: "abcde".into(),
            sfen: String::new(),
            fen: String::new(),
            moves: Vec::new(),
            plies,
            themes: themes.iter().map(|t| t.to_string()).collect(),
            rating,
            url: None,
            fairy: Err(super::super::Skip::Unreadable(String::new())),
        }
    }

    #[test]
    fn the_card_counts_what_it_is_given() {
        let ps = [
            puzzle(3, 1000, &["mateIn2", "sacrifice"]),
            puzzle(3, 1200, &["mateIn2"]),
            puzzle(5, 1500, &["mateIn3", "sacrifice"]),
        ];
        let refs: Vec<&Puzzle> = ps.iter().collect();
        let input = CardInput {
            files: vec![
                ("torishogi-puzzles.csv".into(), 3),
                ("sfen/mate3.sfen".into(), 2),
            ],
            sources: vec![("a.jsonl".into(), 1234)],
            left_out_of_fairy: vec![("cooked there".into(), 1)],
            left_out: Vec::new(),
        };
        let card = dataset_card(&refs, &input);
        assert!(card.starts_with("---\n"));
        assert!(card.contains("size_categories:\n- n<1K\n"));
        assert!(card.contains("    path: torishogi-puzzles.csv\n---\n"));
        assert!(card.contains("\n3 mate problems"));
        assert!(
            card.contains("| `sfen/mate3.sfen` | 2 | one SFEN a line, the problems of 3 plies |")
        );
        assert!(card.contains("\n| `sacrifice` | 2 |\n"));
        assert!(card.contains("| 3 | 2 | 1100 |\n| 5 | 1 | 1500 |\n"));
        assert!(card.contains("Ratings range from 1000 to 1500."));
        assert!(!card.contains("`mateIn2`"), "the lengths table says it");
        assert!(card.contains("  - 1: cooked there\n"));
        assert!(!card.contains("left out of every file"));
        assert!(card.contains("`a.jsonl` (1,234 records)"));
        assert_eq!(size_category(1_000), "1K<n<10K");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
