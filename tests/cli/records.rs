//! One reading of a record for every command: the table of docs/GUIDE.md ("Problem
//! records: one reading for every command") walked row by row. Each row's bad record follows
//! a good one in a file, every command is run on it, and what it does (its exit status, the
//! record named with the row's message, the good record still handled, a page or a run left
//! unmade) is what the table's cell says.

use crate::common::{run, scratch, stderr, stdout};
use std::path::Path;

/// The good record each bad one follows: a crane dropped on 4b mates (the crane on 4c
/// guards it and covers 3b and 5b).
const GOOD: &str = r#"{"sfen":"3k3/7/3C3/7/7/7/7 b C 1","moves":["C*4b"]}"#;

/// A Markdown table row's cells, `\|` read as `|`, code spans' backticks taken off.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter()
        .map(|c| {
            let c = c.trim();
            let code = c.trim_start_matches('`').trim_end_matches('`');
            if c.starts_with('`') {
                code.trim().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The table: its command columns, and each row's name, example, message and cells.
fn table() -> (Vec<String>, Vec<Vec<String>>) {
    let guide = std::fs::read_to_string("docs/GUIDE.md").expect("docs/GUIDE.md");
    let mut lines = guide
        .lines()
        .skip_while(|l| !l.starts_with("| bad record |"));
    let header = cells(lines.next().expect("the table's header"));
    let rows: Vec<Vec<String>> = lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect();
    assert_eq!(&header[..3], ["bad record", "example", "message"]);
    (header[3..].to_vec(), rows)
}

/// Runs `command` on `file` as the table's test does, writing into `dir`; returns the
/// output and the file the command would write, if it writes one.
fn run_command(command: &str, file: &Path, dir: &Path) -> (std::process::Output, Option<String>) {
    let f = file.to_str().unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    match command {
        "solve" | "verify" => (run(&[command, "--quiet", f]), None),
        "export" => (run(&["export", "--format", "csv", f, "--out", "-"]), None),
        "book" => {
            let page = out("book.html");
            (run(&["book", f, "--out", &page]), Some(page))
        }
        "bench" => (run(&["bench", f]), None),
        "stats" => (run(&["stats", "--json", f]), None),
        "stats --check" => (run(&["stats", "--json", "--check", f]), None),
        "merge" => (run(&["merge", f, "--out", "-"]), None),
        "merge --check" => (run(&["merge", "--check", f, "--out", "-"]), None),
        "generate --from" => {
            let set = out("set.jsonl");
            let args = [
                "generate", "--plies", "1", "--count", "1", "--quiet", "--from", f, "--out", &set,
            ];
            (run(&args), Some(set))
        }
        other => panic!("the table names a command the test does not know: {other}"),
    }
}

/// Whether the good record (line 1) was handled by `command`, the bad one left out.
fn good_one_handled(command: &str, o: &std::process::Output) -> bool {
    let out = stdout(o);
    match command {
        "solve" | "verify" => out.contains("# line 1 of") && !out.contains("# line 2 of"),
        "export" => out.lines().count() == 2,
        "bench" => out.contains("line 1") && !out.contains("line 2"),
        "stats" | "stats --check" => {
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            v["problems"] == 1 && v["unreadable"] == 1
        }
        "merge" | "merge --check" => out.lines().count() == 1,
        _ => true,
    }
}

#[test]
fn every_command_reads_a_bad_record_as_the_guide_says() {
    let (commands, rows) = table();
    assert_eq!(
        commands,
        [
            "solve",
            "verify",
            "export",
            "book",
            "bench",
            "stats",
            "stats --check",
            "merge",
            "merge --check",
            "generate --from"
        ]
    );
    assert!(rows.len() >= 12, "{} rows", rows.len());
    let dir = scratch("records");
    for (r, row) in rows.iter().enumerate() {
        let (name, example, message) = (&row[0], &row[1], &row[2]);
        let file = dir.join(format!("row{r}.jsonl"));
        std::fs::write(&file, format!("{GOOD}\n{example}\n")).unwrap();
        for (command, cell) in commands.iter().zip(&row[3..]) {
            let sub = dir.join(format!("row{r}-{}", command.replace(' ', "")));
            std::fs::create_dir_all(&sub).unwrap();
            let (o, written) = run_command(command, &file, &sub);
            let what = format!(
                "{name} / {command} ({cell})\n{}\n{}",
                stdout(&o),
                stderr(&o)
            );
            let named = stderr(&o).contains("line 2 of") && stderr(&o).contains(message.as_str());
            let code = o.status.code();
            match cell.as_str() {
                "skipped" => {
                    assert_eq!(code, Some(2), "{what}");
                    assert!(named, "{what}");
                    assert!(good_one_handled(command, &o), "{what}");
                }
                "answered, named" => {
                    assert_eq!(code, Some(2), "{what}");
                    assert!(named, "{what}");
                    assert!(stdout(&o).contains("# line 2 of"), "{what}");
                }
                "not written" | "refused" => {
                    assert_eq!(code, Some(2), "{what}");
                    assert!(named, "{what}");
                    let path = written.expect("a command that writes a file");
                    assert!(!Path::new(&path).exists(), "{what}");
                }
                "differs, named" => {
                    assert_eq!(code, Some(2), "{what}");
                    assert!(named, "{what}");
                    assert!(stdout(&o).contains("DIFFERS"), "{what}");
                }
                "as recorded" => {
                    assert_eq!(code, Some(0), "{what}");
                    assert!(!stderr(&o).contains("line 2 of"), "{what}");
                }
                other => panic!("{name} / {command}: a cell the guide does not define: {other}"),
            }
        }
    }
}

#[test]
fn no_record_or_argument_drives_the_terminal() {
    let esc = '\u{1b}';
    let title = "\u{1b}]0;owned\u{7}";
    let dir = scratch("terminal");
    // A record whose position, status and themes carry escape sequences, in a file whose
    // name carries one too.
    let file = dir.join(format!("set{title}.jsonl"));
    let bad = [
        format!(r#"{{"sfen":"{}"}}"#, "3k3\\u001b[2J/7 b C 1"),
        format!(
            r#"{{"sfen":"3k3/7/7/7/7/7/7 b S 1","status":"{}"}}"#,
            "\\u001b]0;owned\\u0007"
        ),
    ];
    std::fs::write(&file, bad.join("\n") + "\n").unwrap();
    for args in [
        vec!["solve", file.to_str().unwrap()],
        vec!["stats", file.to_str().unwrap()],
        vec!["merge", file.to_str().unwrap(), "--out", "-"],
        vec!["solve", "--hash", title, "startpos"],
        vec!["show", title],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(
            !out.contains(esc) && !err.contains(esc),
            "{args:?}: {err:?}"
        );
        assert!(!err.contains('\u{7}'), "{args:?}: {err:?}");
        assert!(
            err.contains(r"\u{1b}"),
            "{args:?}: the escape written out: {err:?}"
        );
    }
    // The USI engine's `info string` quotes what it was sent, written out.
    let o = crate::common::run_with_input(
        &["usi"],
        &format!("position sfen {title}\nfrobnicate{title}\nquit\n"),
    );
    let out = stdout(&o);
    assert!(!out.contains(esc), "{out:?}");
    assert_eq!(out.matches(r"\u{1b}").count(), 2, "{out:?}");
}

#[test]
fn a_length_without_a_line_is_solved_by_the_book_and_not_counted_by_stats() {
    let dir = scratch("length-without-line");
    let file = dir.join("set.jsonl");
    // The mate in 7 of tests/cli/stats.rs with its length and no line, and the good mate
    // in 1.
    std::fs::write(
        &file,
        format!("{GOOD}\n{{\"sfen\":\"1k5/2S4/7/FC5/7/7/7 b FRS 1\",\"plies\":7}}\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    // The book publishes the line its solve finds, not "Mate in 7" over "No mate".
    let page = dir.join("book.html");
    let o = run(&["book", f, "--out", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("No. 2</a> · Mate in 7 plies"), "{html}");
    assert!(html.contains("1.&nbsp;Fa*6b Phx6b"), "{html}");
    assert!(!html.contains("No mate"), "{html}");
    // stats counts the checked line's length only; the stated one apart.
    let o = run(&["stats", "--json", f]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["plies"], serde_json::json!({"1": 1}));
    assert_eq!(v["length_without_line"], 1);
    // merge --plies 7 keeps nothing it cannot measure.
    let o = run(&["merge", f, "--plies", "7", "--out", "-"]);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("1 without a line to measure"),
        "{}",
        stderr(&o)
    );
}
