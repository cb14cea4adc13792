//! Input and options refused before any work: bad positions, limits of nothing, tables and
//! threads the machine cannot give, files that cannot be read.

use crate::common::{run, stderr, stdout};

#[test]
fn bad_input_exits_2_with_a_reason() {
    for (args, reason) in [
        (vec!["show", "k6/7/7/7/7/7/6K b 3F 1"], "too many falcons"),
        (vec!["show", "hello"], "board field"),
        (vec!["show", "startpos", "moves", "9z9y"], "move 1 `9z9y`"),
        (
            vec!["perft", "--depth", "2", "k6/7/7/7/7/7 b - 1"],
            "6 ranks",
        ),
        (vec!["perft", "startpos"], "--depth"),
        // A depth the recursion could not reach (it overflowed the stack and aborted).
        (vec!["perft", "--depth", "99999", "startpos"], "0..=30"),
        (
            vec!["perft", "--depth", "31", "--divide", "startpos"],
            "0..=30",
        ),
        (vec!["frobnicate"], "frobnicate"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
    }
}

/// Runs `args` and asserts that the command exits 2, printing nothing on stdout, with an
/// error naming every one of `says`.
pub(crate) fn refused_before_any_work(args: &[&str], says: &[&str]) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let e = stderr(&o);
    assert!(says.iter().all(|w| e.contains(w)), "{args:?}: {e}");
    assert!(o.stdout.is_empty(), "{args:?} printed before failing");
}

#[test]
fn a_table_that_cannot_be_allocated_is_an_error_before_any_work() {
    // A terabyte: more than any machine this runs on can give.
    for args in [
        &["solve", "--hash", "1000000", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["verify", "--hash", "1000000", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["solve", "--hash", "1000000", "problems/classic.jsonl"][..],
    ] {
        refused_before_any_work(args, &["cannot allocate a transposition table", "--hash"]);
    }
    // generate leaves no output file behind.
    crate::generate::generate_refused_leaving_no_file(
        "hash",
        &["--hash", "1000000"],
        &["cannot allocate"],
    );
}

#[test]
fn a_node_budget_of_no_nodes_is_refused() {
    // --nodes 0 would stop every search before it starts (and leave generate drawing
    // candidates for ever): every command that takes --nodes refuses it and does no work.
    for args in [
        &["solve", "--nodes", "0", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["verify", "--nodes", "0", "problems/classic.jsonl"][..],
        &["generate", "--plies", "3", "--count", "1", "--nodes", "0"][..],
        &[
            "export",
            "--format",
            "sfen",
            "--nodes",
            "0",
            "problems/classic.jsonl",
            "--out",
            "-",
        ][..],
    ] {
        refused_before_any_work(args, &["--nodes", "at least 1 node"]);
    }
    let o = run(&["solve", "--nodes", "many", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a whole number of nodes"),
        "{}",
        stderr(&o)
    );
    // A budget of one node is a budget: the search stops at it and says so.
    let o = run(&[
        "solve",
        "--nodes",
        "1",
        "--threads",
        "1",
        "1k5/2S4/7/FC5/7/7/7 b FRS 1",
    ]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("Unknown: the node limit (--nodes)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_length_limit_of_no_plies_is_refused() {
    // Within 0 plies nothing mates: `--max-plies 0` would answer "no mate" to every
    // problem, the mate in 1 included.
    for command in ["solve", "verify"] {
        refused_before_any_work(
            &[command, "--max-plies", "0", "4pk1/5l1/3C2F/7/7/7/7 b C 1"],
            &["--max-plies", "a mate takes at least 1 ply"],
        );
        refused_before_any_work(
            &[command, "--max-plies", "70000", "problems/classic.jsonl"],
            &["--max-plies", "not a whole number of plies up to 65535"],
        );
    }
    // One ply is a limit: the mate in 1 is found within it.
    let o = run(&["solve", "--max-plies", "1", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert!(
        stdout(&o).contains("Mate in 1 ply, proven shortest"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_table_of_no_megabytes_is_refused() {
    // 0 MB cannot hold a search: every command that takes --hash says so and does no work.
    for args in [
        &["solve", "--hash", "0", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["verify", "--hash", "0", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["bench", "--hash", "0", "problems/classic.jsonl"][..],
        &["generate", "--plies", "3", "--count", "1", "--hash", "0"][..],
    ] {
        refused_before_any_work(args, &["--hash", "at least 1 MB"]);
    }
    let o = run(&["solve", "--hash", "lots", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a whole number of megabytes"),
        "{}",
        stderr(&o)
    );
    // The smallest table is fine.
    let o = run(&["solve", "--hash", "1", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Mate in 1 ply"));
}

/// `out`, the JSON lines of `solve --json problems/classic.jsonl`, gives every recorded
/// answer: status, length and main line.
fn classic_answers_as_recorded(out: &str) {
    let recorded = crate::common::load_problems("problems/classic.jsonl");
    assert_eq!(out.lines().count(), recorded.len());
    for (line, p) in out.lines().zip(&recorded) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if crate::common::recorded_nomate(p) {
            assert_eq!(v["status"], "nomate", "{line}");
        } else {
            assert_eq!(v["status"], "mate", "{line}");
            assert_eq!(v["plies"], serde_json::json!(p.plies), "{line}");
            assert_eq!(v["moves"], serde_json::json!(p.moves), "{line}");
            assert_eq!(v["minimal"], true, "{line}");
            assert_eq!(v["complete"], true, "{line}");
        }
    }
}

#[test]
fn small_pages_change_nothing_but_the_time() {
    // The table on 4 KB pages rather than huge pages: every answer the recorded one, for a
    // file on one worker and for a single position on two threads.
    let o = run(&[
        "solve",
        "--small-pages",
        "--threads",
        "1",
        "--json",
        "problems/classic.jsonl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    classic_answers_as_recorded(&stdout(&o));
    let o = run(&[
        "solve",
        "--small-pages",
        "--threads",
        "2",
        "--json",
        "7/7/6k/4C2/7/7/7 b FCS 1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "mate");
    assert_eq!(v["plies"], 5);
    let o = run(&[
        "bench",
        "--small-pages",
        "--lines",
        "2",
        "benches/data/hard.jsonl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("every answer as recorded"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_table_too_small_to_share_out_serves_fewer_workers() {
    // --hash is the memory of all the tables together, and a table has at least 1 MB: 2 MB
    // cannot give four workers a table each, so two work, and say so. Every answer is the
    // recorded one.
    let o = run(&[
        "solve",
        "--hash",
        "2",
        "--threads",
        "4",
        "--json",
        "problems/classic.jsonl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("serves 2 workers of 1 MB") && e.contains("not 4"),
        "{e}"
    );
    classic_answers_as_recorded(&stdout(&o));
    // Enough for every worker: no note.
    let o = run(&[
        "solve",
        "--hash",
        "4",
        "--threads",
        "4",
        "problems/classic.jsonl",
    ]);
    assert!(o.status.success());
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

#[test]
fn unknown_names_the_limit_that_was_reached() {
    // No mate, but far too much to prove within 50 nodes.
    let o = run(&["solve", "--nodes", "50", "3k3/7/7/7/7/7/3K3 b 2F2C2P 1"]);
    assert!(
        stdout(&o).contains("Unknown: the node limit (--nodes) was reached"),
        "{}",
        stdout(&o)
    );
    let o = run(&[
        "solve",
        "--json",
        "--nodes",
        "50",
        "3k3/7/7/7/7/7/3K3 b 2F2C2P 1",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["stopped_by"], "nodes");
    // Without a limit there is an answer, and no stop reason.
    let o = run(&["solve", "--json", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "mate");
    assert!(v.get("stopped_by").is_none());
}

#[test]
fn solve_json_splits_nodes_by_phase() {
    let phases = |pos: &str| {
        let o = run(&["solve", "--json", pos]);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let p = &v["nodes_by_phase"];
        let [first, minimality, main_line] =
            ["first", "minimality", "main_line"].map(|k| p[k].as_u64().unwrap());
        assert_eq!(first + minimality + main_line, v["nodes"].as_u64().unwrap());
        (first, minimality, main_line)
    };
    // A mate in 1 is minimal as found: no minimality search, only its line read.
    let (first, minimality, main_line) = phases("4pk1/5l1/3C2F/7/7/7/7 b C 1");
    assert!(first > 0 && main_line > 0);
    assert_eq!(minimality, 0);
    // A mate in 3 needs "no mate in 1" shown.
    let (_, minimality, _) = phases("7/7/6k/5P1/5L1/7/7 b FC 1");
    assert!(minimality > 0);
    // No mate: the first search is all.
    let (first, minimality, main_line) = phases("3k3/7/7/7/7/7/3K3 b P 1");
    assert!(first > 0);
    assert_eq!((minimality, main_line), (0, 0));
}

#[test]
fn huge_times_and_nan_scores_are_refused_not_panics() {
    for args in [
        &["solve", "--time", "1e30", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &["verify", "--time", "1e19", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
        &[
            "generate",
            "--plies",
            "3",
            "--count",
            "1",
            "--min-score",
            "nan",
        ][..],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("error: --"), "{}", stderr(&o));
    }
    // A long but representable time is fine.
    let o = run(&["solve", "--time", "1e9", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Mate in 1 ply"));
}

#[test]
fn missing_files_bom_and_bad_utf8_lines() {
    let o = run(&["solve", "nonexist.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        "error: cannot open nonexist.jsonl: No such file or directory"
    );
    let dir = crate::common::scratch("input");
    let file = dir.join("mixed.txt");
    // A byte-order mark, a mate in 1, a line that is not UTF-8, another mate in 1.
    let mut bytes = b"\xef\xbb\xbf4pk1/5l1/3C2F/7/7/7/7 b C 1\n".to_vec();
    bytes.extend_from_slice(b"\xff\xfe not text\n4pk1/5l1/3C2F/7/7/7/7 b F 1\n");
    std::fs::write(&file, bytes).unwrap();
    let o = run(&["solve", "--json", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let text = stdout(&o);
    let answered: Vec<&str> = text.lines().collect();
    assert_eq!(answered.len(), 2, "{answered:?}");
    assert!(answered.iter().all(|l| l.contains("\"status\":\"mate\"")));
    assert!(stderr(&o).contains("line 2 of") && stderr(&o).contains("not UTF-8"));
}
