//! Every string a record carries is data wherever it goes (property tests, proptest): text
//! made of control characters, text-reordering marks, `<!--`, `</script>`, `<script>`,
//! leading `=`, `+`, `-`, `@`, quotes, backticks, pipes and line breaks goes through each
//! writer (the book's HTML, the training page's inline JSON, a CSV row, the dataset card's
//! Markdown, a terminal) and comes out as text: read back as it went in, and never able to
//! end the element, cell, row or line it is in, start a formula, or drive a terminal.

use proptest::prelude::*;
use toritsume::export::card::{CardInput, dataset_card};
use toritsume::export::formats::{Format, csv};
use toritsume::export::{Puzzle, Skip};
use toritsume::notation::printable;
use toritsume::problem::Problem;
use toritsume::render::svg::Labels;
use toritsume::solver::{DefenderHand, SolverConfig};

/// Pieces of hostile text, joined in any order.
const PIECES: [&str; 24] = [
    "<!--",
    "-->",
    "</script>",
    "<script>alert(1)</script>",
    "<!--<script>",
    "=cmd|' /C calc'!A0",
    "+1+1",
    "@SUM(1)",
    "-1",
    "\"",
    "'",
    "`",
    "|",
    "\\",
    "\n",
    "\r\n",
    "\t",
    "\u{1b}]0;owned\u{7}",
    "\u{1b}[2J",
    "\u{0}",
    "\u{202e}",
    "\u{2028}",
    "&amp;",
    "鳳凰",
];

/// Text built of hostile pieces and plain letters.
fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(PIECES.to_vec()).prop_map(str::to_string),
            "[a-z ]{0,4}",
            any::<char>().prop_map(|c| c.to_string()),
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

/// HTML text unescaped (the four entities the pages write).
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// A mate in 1 (a crane dropped on 4b, the other guarding it) with `note`.
fn record(note: &str) -> Problem {
    let mut p =
        Problem::from_json(r#"{"sfen":"3k3/7/3C3/7/7/7/7 b C 1","plies":1,"moves":["C*4b"]}"#)
            .unwrap();
    p.note = Some(note.to_string());
    p
}

/// A puzzle of the mate in 1 carrying `text` as its id, its first theme and its address.
fn puzzle(text: &str) -> Puzzle {
    Puzzle {
        id: text.to_string(),
        sfen: "3k3/7/3C3/7/7/7/7 b C 1".into(),
        fen: "3k3/7/3C3/7/7/7/7[Cc2f3c4p2l2r16s] w - - 0 1".into(),
        moves: vec!["C*4b".into()],
        plies: 1,
        themes: vec![text.to_string(), "mateIn1".into()],
        rating: 800,
        url: Some(text.to_string()),
        fairy: Err(Skip::Undecided),
        defender_hand: DefenderHand::Rest,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_terminal_is_given_no_character_to_act_on(s in hostile()) {
        let shown = printable(&s);
        prop_assert!(
            !shown.chars().any(|c| c.is_control()
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
            "{shown:?}"
        );
        if !s.chars().any(|c| c.is_control() || ('\u{2000}'..='\u{2fff}').contains(&c)) {
            prop_assert_eq!(shown.as_ref(), s.as_str());
        }
    }

    #[test]
    fn the_books_html_shows_a_note_and_a_title_as_text(s in hostile()) {
        let page = toritsume::render::book::book(&[record(&s)], &s, Labels::Kanji).unwrap();
        // One script (the page's own, which remembers the labels chosen), no comment, and
        // nothing but what the page writes itself opens a tag.
        prop_assert_eq!(page.matches("<script").count(), 1);
        prop_assert!(!page.contains("<!--"));
        let note = page
            .split("<p class=\"note\">")
            .nth(1)
            .and_then(|rest| rest.split("</p>").next())
            .expect("the note's paragraph");
        prop_assert!(!note.contains('<') && !note.contains('>'));
        prop_assert_eq!(unescape(note), s.clone());
        let title = page.split("<title>").nth(1).and_then(|r| r.split("</title>").next()).unwrap();
        prop_assert_eq!(unescape(title), s);
    }

    #[test]
    fn the_training_pages_inline_json_holds_a_note_as_data(s in hostile()) {
        let config = SolverConfig { hash_mb: 1, threads: 1, ..SolverConfig::default() };
        let (page, n) =
            toritsume::render::train::train_page(&[record(&s)], "T", Labels::Kanji, &config, 1)
                .unwrap();
        prop_assert_eq!(n, 1);
        let open = "<script id=\"problems\" type=\"application/json\">";
        let data = page
            .split(open)
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .expect("the data's script element");
        // Nothing in it can end the element or open a comment or a tag.
        prop_assert!(!data.contains('<') && !data.contains('>'));
        let v: serde_json::Value = serde_json::from_str(data).unwrap();
        prop_assert_eq!(v["problems"][0]["note"].as_str(), Some(s.as_str()));
        // One data element and two scripts (the page's and the labels switch's): the note
        // added none.
        prop_assert_eq!(page.matches("<script").count(), 3);
    }

    #[test]
    fn a_csv_row_reads_back_and_starts_no_formula(s in hostile()) {
        // A row as the file has it, after the header.
        let row = csv(&puzzle(&s));
        let file = format!("{}\n{row}\n", Format::Csv.header().unwrap());
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(file.as_bytes());
        let fields: Vec<String> = reader
            .records()
            .next()
            .expect("one row")
            .unwrap()
            .iter()
            .map(str::to_string)
            .collect();
        prop_assert_eq!(fields.len(), 12, "{:?}", row);
        // The fields of text (id, themes, address) start no formula; the position and
        // the moves are the puzzle's own.
        for i in [0, 7, 8] {
            let f = &fields[i];
            prop_assert!(!f.starts_with(['=', '+', '-', '@', '\t', '\r']), "{f:?}");
        }
        // The id and the address as they went in, after the quote that keeps a formula
        // text.
        let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
        for i in [0, 8] {
            let f = &fields[i];
            let back = if formula { f.strip_prefix('\'').unwrap_or(f) } else { f.as_str() };
            prop_assert_eq!(back, s.as_str());
        }
    }

    #[test]
    fn the_dataset_cards_markdown_keeps_its_rows(s in hostile()) {
        let p = puzzle(&s);
        let input = |name: &str| CardInput {
            files: vec![("torishogi-puzzles.csv".into(), 1)],
            sources: vec![(name.to_string(), 1)],
            left_out_of_fairy: vec![(name.to_string(), 1)],
            left_out: vec![(name.to_string(), 1)],
        };
        let card = dataset_card(&[&p], &input(&s));
        // The same card with a plain name has as many lines: nothing broke one.
        let plain = dataset_card(&[&puzzle("x")], &input("x"));
        prop_assert_eq!(card.lines().count(), plain.lines().count(), "{}", card);
        // Each row of the themes table has its two cells.
        let rows: Vec<&str> = card
            .lines()
            .skip_while(|l| !l.starts_with("| theme |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .collect();
        prop_assert!(!rows.is_empty());
        for row in rows {
            let unescaped_pipes = row
                .char_indices()
                .filter(|&(i, c)| c == '|' && (i == 0 || row.as_bytes()[i - 1] != b'\\'))
                .count();
            prop_assert_eq!(unescaped_pipes, 3, "{}", row);
        }
        // Outside code spans no tag opens: the reasons are plain text.
        for l in card.lines().filter(|l| l.starts_with("  - ")) {
            prop_assert!(!l.contains('<'), "{}", l);
        }
    }
}
