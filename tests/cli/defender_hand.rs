//! A problem record that states the defender's hand (`"defender_hand": "given"`): `solve`,
//! `verify`, `bench`, `book` and `export` take the hand its SFEN gives for that record alone,
//! the other records of the file keep the tsume convention (or `--defender-hand`), and a
//! value other than `rest` or `given` is refused, naming the line and the field.
//!
//! The position, worked out from docs/RULES.md: White's phoenix on 1a; Black swallows on 2b
//! and 2c, a left quail in hand. A left quail dropped on file 1 at 1c to 1g checks down the
//! file: 2a is the 2b swallow's, 2b is guarded by the 2c swallow, 1b stays on the quail's
//! line, nothing can take the quail. Holding nothing, White cannot interpose: mate in 1 (the
//! quail on 1c, 1d, 1e, 1f or 1g; on 1b the phoenix takes it). Holding the rest, White drops
//! a piece between, so no check mates at once.

use crate::common::{json_lines, run, scratch, stderr, stdout};
use serde_json::Value;

const POSITION: &str = "6k/5S1/5S1/7/7/7/7 b L 1";

/// A file with the problem stated with White's hand empty, then the same position without
/// the field, then one stating the convention itself.
fn records(dir: &std::path::Path) -> String {
    let path = dir.join("hands.jsonl");
    std::fs::write(
        &path,
        format!(
            "{{\"sfen\":\"{POSITION}\",\"defender_hand\":\"given\",\"id\":\"a\"}}\n\
             {{\"sfen\":\"{POSITION}\",\"id\":\"b\"}}\n\
             {{\"sfen\":\"{POSITION}\",\"defender_hand\":\"rest\",\"id\":\"c\"}}\n"
        ),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

fn is_quail_mate(v: &Value) -> bool {
    let first = v["moves"][0].as_str().unwrap_or("");
    v["status"] == "mate"
        && v["plies"] == 1
        && ["L*1c", "L*1d", "L*1e", "L*1f", "L*1g"].contains(&first)
}

fn not_mate_in_one(v: &Value) -> bool {
    v["status"] == "nomate" || v["plies"].as_u64().is_some_and(|p| p > 1)
}

#[test]
fn solve_takes_each_records_own_convention() {
    let dir = scratch("defender-hand-solve");
    let file = records(&dir);
    let o = run(&["solve", "--json", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = json_lines(&o);
    assert_eq!(out.len(), 3);
    let by_id = |id: &str| out.iter().find(|v| v["id"] == id).unwrap();
    let (a, b, c) = (by_id("a"), by_id("b"), by_id("c"));
    assert!(is_quail_mate(a), "{a}");
    assert_eq!(a["defender_hand"], "given");
    assert_eq!(a["position"], POSITION, "White's hand stays empty");
    for v in [b, c] {
        assert!(not_mate_in_one(v), "{v}");
        assert_eq!(v["defender_hand"], "rest");
        assert_ne!(v["position"], POSITION, "White holds the rest");
    }
    // The flag sets the convention of the records that state none; a record's own wins.
    let o = run(&["solve", "--json", "--defender-hand", "given", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = json_lines(&o);
    let by_id = |id: &str| out.iter().find(|v| v["id"] == id).unwrap();
    assert!(is_quail_mate(by_id("a")));
    assert!(is_quail_mate(by_id("b")));
    assert!(not_mate_in_one(by_id("c")));
    // The text report says when the defender holds only what the position gives.
    let o = run(&["solve", &file]);
    let text = stdout(&o);
    assert_eq!(
        text.matches("Defender's hand: as the position gives it")
            .count(),
        1
    );
}

#[test]
fn verify_bench_book_and_export_take_it_too() {
    let dir = scratch("defender-hand-tools");
    let file = dir.join("given.jsonl");
    std::fs::write(
        &file,
        format!(
            "{{\"sfen\":\"{POSITION}\",\"defender_hand\":\"given\",\"status\":\"mate\",\
             \"plies\":1,\"moves\":[\"L*1c\"]}}\n"
        ),
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    // Sound: the mate is unique but for the final duals on file 1.
    let o = run(&["verify", "--json", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["defender_hand"], "given");
    assert_eq!(v["final_duals"].as_array().unwrap().len(), 4);
    // The benchmark finds the recorded answer.
    let o = run(&["bench", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("every answer as recorded"),
        "{}",
        stdout(&o)
    );
    // The book says under the diagram that White holds only the hand shown.
    let page = dir.join("book.html");
    let o = run(&["book", &file, "--out", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("White holds only the hand shown"), "{html}");
    // The pychess FEN writes White's hand as stated (empty), and the id is not that of the
    // same position under the convention.
    let o = run(&["export", "--format", "pychess", &file, "--out", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(
        p["f"].as_str().unwrap().ends_with("/7[L] w - - 0 1"),
        "{}",
        p["f"]
    );
    let stated_file = dir.join("stated.jsonl");
    std::fs::write(
        &stated_file,
        "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\",\"defender_hand\":\"given\"}\n",
    )
    .unwrap();
    let stated = run(&[
        "export",
        "--format",
        "csv",
        stated_file.to_str().unwrap(),
        "--out",
        "-",
    ]);
    let plain = dir.join("plain.jsonl");
    std::fs::write(&plain, "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\"}\n").unwrap();
    let conventional = run(&[
        "export",
        "--format",
        "csv",
        plain.to_str().unwrap(),
        "--out",
        "-",
    ]);
    let id = |o: &std::process::Output| {
        stdout(o)
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .to_string()
    };
    assert_ne!(id(&stated), id(&conventional));
}

#[test]
fn an_unknown_convention_is_refused_by_line_and_field() {
    let dir = scratch("defender-hand-bad");
    let file = dir.join("bad.jsonl");
    std::fs::write(
        &file,
        format!(
            "{{\"sfen\":\"{POSITION}\"}}\n{{\"sfen\":\"{POSITION}\",\"defender_hand\":\"none\"}}\n"
        ),
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    for cmd in ["solve", "verify"] {
        let o = run(&[cmd, &file]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.contains("line 2")
                && err.contains("field `defender_hand`")
                && err.contains("`given`"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn the_book_mates_it_and_an_sfen_line_which_cannot_say_the_hand_leaves_it_out() {
    let dir = scratch("defender-hand-book-sfen");
    let file = dir.join("given.jsonl");
    // The record states the hand and no line: the book solves it with White holding
    // nothing, a mate in 1, rather than showing "No mate".
    std::fs::write(
        &file,
        format!("{{\"sfen\":\"{POSITION}\",\"defender_hand\":\"given\"}}\n"),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let page = dir.join("book.html");
    let o = run(&["book", f, "--out", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Mate in 1 ply"), "{html}");
    assert!(!html.contains("No mate"), "{html}");
    // A plain SFEN read back gives White the rest, another problem (no mate in 1): the
    // record is named and left out of the SFEN lines, kept in the other formats.
    let o = run(&["export", "--format", "sfen", f, "--out", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("line 1 of ")
            && stderr(&o).contains("states the defender's hand, which an SFEN line cannot say"),
        "{}",
        stderr(&o)
    );
    let o = run(&["export", "--format", "csv", f, "--out", "-"]);
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stderr(&o));
}
