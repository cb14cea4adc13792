//! `toritsume stats`: the figures of a small set worked out by hand, the JSON form, and bad
//! lines named; and every command reading problem files reads standard input as `-`.

use crate::common::{run, run_with_input, scratch, stderr, stdout};

/// Four records: the three mates in 1 of the merge tests and a mate in 7, with ratings,
/// proof sizes and families chosen so that every figure is known beforehand, and the themes
/// each has (verify's: the second and the fourth have a final dual, the fourth a
/// sacrifice, the falcon taken at once).
const RECORDS: [&str; 4] = [
    r#"{"sfen":"3k3/7/3C3/7/7/7/7 b C 1","moves":["C*4b"],"verdict":"sound","rating":800,"themes":["mateIn1"],"quality":{"proof_nodes":5,"final_duals":0},"family":"A"}"#,
    r#"{"sfen":"6k/7/5SS/7/7/7/3K3 b C 1","moves":["C*2b"],"verdict":"sound","rating":1250,"themes":["mateIn1","finalDual"],"quality":{"proof_nodes":40},"family":"A"}"#,
    r#"{"sfen":"6k/7/6S/7/7/7/3K3 b F 1","moves":["F*1b"],"rating":2900,"themes":["mateIn1"],"quality":{"proof_nodes":70}}"#,
    r#"{"sfen":"1k5/2S4/7/FC5/7/7/7 b FRS 1","moves":["F*6b","6a6b","7d6c","6b7a","S*7b","7a6a","R*6b"],"verdict":"sound","themes":["mateIn4","sacrifice","finalDual"]}"#,
];

#[test]
fn a_small_set_is_counted_as_worked_out_by_hand() {
    let dir = scratch("stats");
    let f = dir.join("set.jsonl");
    std::fs::write(&f, RECORDS.join("\n") + "\n").unwrap();
    let o = run(&["stats", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    // Shapes: `Cr*` twice (one shape), `Fa*`, and the mate in 7's: three of four.
    // Ratings: 800 and 1250 in their bands, 2900 in the top band; the mate in 7 has none.
    // Means: the mates in 1 (800, 1250, 2900) 1650; proof sizes 5 (10^0) and 40, 70 (10^1).
    for line in [
        "4 problems in 1 file: 3 sound, 1 without a verdict",
        "2 with a final dual, 3 distinct solution shapes in 4 solved (750 per 1,000), families of at most 2",
        "Lengths (plies: problems): 1: 3, 7: 1",
        "Ratings: 800–999: 1, 1200–1399: 1, 2800: 1, no rating: 1",
        "Mean rating by length: 1: 1650; by proof size: 10^0 nodes: 800, 10^1 nodes: 2075",
        "Themes: `mateIn1` 3, `finalDual` 2, `mateIn4` 1, `sacrifice` 1",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\n{text}");
    }
    let o = run(&["stats", "--json", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["problems"], 4);
    assert_eq!(v["verdicts"]["sound"], 3);
    assert_eq!(v["final_duals"], 2);
    assert_eq!(v["shapes"], 3);
    assert_eq!(v["families"], 3);
    assert_eq!(v["largest_family"], 2);
    assert_eq!(v["plies"]["1"], 3);
    assert_eq!(v["plies"]["7"], 1);
    assert_eq!(v["ratings"]["2800"], 1);
    assert_eq!(v["unrated"], 1);
    assert_eq!(v["mean_rating_by_plies"]["1"], 1650);
    assert_eq!(v["mean_rating_by_proof_size"]["1"], 2075);
    assert_eq!(v["themes"]["sacrifice"], 1);
    assert_eq!(v["unreadable"], 0);
}

#[test]
fn a_bad_line_is_named_and_fails_the_run() {
    let dir = scratch("stats-bad");
    let f = dir.join("set.jsonl");
    std::fs::write(
        &f,
        format!(
            "{}\n{{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\",\"moves\":[\"1a1b\"]}}\n",
            RECORDS[0]
        ),
    )
    .unwrap();
    let o = run(&["stats", "--json", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2 of "), "{}", stderr(&o));
    assert!(stderr(&o).contains("no piece on 1a"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["problems"], 1);
    assert_eq!(v["unreadable"], 1);
    let o = run(&["stats", "/nonexistent/set.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn problem_files_can_come_from_standard_input() {
    let dir = scratch("stdin");
    let set = RECORDS.join("\n") + "\n";
    let o = run_with_input(&["stats", "--json", "-"], &set);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["problems"], 4);
    let o = run_with_input(&["merge", "-", "--themes", "finalDual", "--out", "-"], &set);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2);
    let o = run_with_input(&["export", "--format", "sfen", "-", "--out", "-"], &set);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 4, "{}", stderr(&o));
    let html = dir.join("book.html");
    let o = run_with_input(&["book", "-", "--out", html.to_str().unwrap()], &set);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
    // A bad line is named as a line of standard input.
    let o = run_with_input(&["book", "-", "--out", "-"], "{\"sfen\":\"kk\"}\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error: line 1 of standard input: "),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("1 bad line in standard input"),
        "{}",
        stderr(&o)
    );
}
