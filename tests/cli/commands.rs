//! The `toritsume` binary driven as a user would: output contents and exit statuses.

use crate::common::{json_lines, run, run_with_input, stderr, stdout};
use std::process::{Command, Output};

#[test]
fn show_start_position() {
    let o = run(&["show", "startpos"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.contains("SFEN: rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1"));
    assert!(s.contains("FEN:  rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1"));
    assert!(s.contains("Side to move: Black"));
    assert!(s.contains("In check: no"));
    assert!(s.contains("Legal moves (17)"));
    assert!(s.contains("3d3c") && s.contains("Swx3c"));
    assert!(s.contains("a | r  p  c  k  c  p  l |"), "{s}");
}

#[test]
fn show_accepts_unquoted_words_fen_and_unicode() {
    let o = run(&[
        "show",
        "--unicode",
        "kp5/1s5/1C5/7/7/7/6K[S]",
        "w",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("v鵬"), "{s}");
    assert!(
        s.contains("Legal moves (47)"),
        "S*7b would mate and is not listed"
    );
    assert!(!s.contains("S*7b"));
}

#[test]
fn show_json() {
    let o = run(&["show", "--json", "startpos", "moves", "3d3c"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(v["in_check"], false);
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["hodges"] == "Fax3c")
    );
}

#[test]
fn perft_json_and_divide() {
    let o = run(&["perft", "--depth", "3", "--json", "startpos"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 5430);
    let o = run(&["perft", "--depth", "2", "--divide", "--json", "startpos"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = v["divide"].as_array().unwrap();
    assert_eq!(d.len(), 17);
    assert_eq!(
        d.iter().map(|e| e["nodes"].as_u64().unwrap()).sum::<u64>(),
        288
    );
    let o = run(&["perft", "-d", "1", "--divide", "startpos"]);
    let s = stdout(&o);
    assert!(s.contains("nodes 17"));
    assert!(
        s.lines()
            .any(|l| l.starts_with("3d3c") && l.ends_with(" 1"))
    );
}

/// The shipped perft suite.
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.epd");

#[test]
fn the_shipped_perft_suite_holds_the_reference_counts_and_agrees() {
    // Every count of tests/data/perft.tsv (Fairy-Stockfish's, the rules' column) is in the
    // suite, under its name, and nothing else is.
    let suite = std::fs::read_to_string(SUITE).unwrap();
    let mut expected = 0;
    for (name, sfen, _, depth, nodes) in crate::common::perft_rows() {
        let line = suite
            .lines()
            .find(|l| l.ends_with(&format!(";id \"{name}\"")))
            .unwrap_or_else(|| panic!("{name} not in the suite"));
        assert!(line.starts_with(&format!("{sfen} ;")), "{line}");
        assert!(
            line.contains(&format!(";D{depth} {nodes} ")),
            "{name} {depth}: {line}"
        );
        expected += 1;
    }
    let counts: usize = suite
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.matches(";D").count())
        .sum();
    assert_eq!(counts, expected);
    // Checked to depth 3 (the deeper counts are the heavy perft tests' work): three counts
    // of each of six positions, two of each of the other three, all agreeing.
    let o = run(&["perft", "--suite", SUITE, "--depth", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 24);
    assert!(
        rows.iter()
            .all(|r| r["agree"] == true && r["nodes"] == r["expected"])
    );
    assert_eq!(rows[0]["id"], "startpos");
    assert!(
        stderr(&o).contains(
            "24 counts of 9 positions checked: all agree (11 deeper than --depth left out)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_perft_suite_names_a_count_that_differs_and_a_line_it_cannot_read() {
    let dir = crate::common::scratch("perft-suite");
    let file = dir.join("mine.epd");
    // The start position's counts by hand: 17 moves, and one wrong count; a FEN; a line with
    // no count; one that is no position.
    std::fs::write(
        &file,
        "# mine\n\
         startpos ;D1 17 ;D2 289 ;id \"start\"\n\
         rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1 ;D1 17\n\
         startpos\n\
         7/7 b - 1 ;D1 3\n",
    )
    .unwrap();
    let o = run(&["perft", "--suite", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("line 2 (start) depth 1: 17 ok"), "{out}");
    assert!(
        out.contains("line 2 (start) depth 2: 288, expected 289: DIFFERS"),
        "{out}"
    );
    assert!(out.contains("line 3 depth 1: 17 ok"), "{out}");
    let err = stderr(&o);
    let name = file.display();
    assert!(
        err.contains(&format!("error: line 4 of {name}: no count to check")),
        "{err}"
    );
    assert!(
        err.contains(&format!("error: line 5 of {name}: board field")),
        "{err}"
    );
    assert!(
        err.contains("3 counts of 2 positions checked: 1 differ; 2 lines unreadable"),
        "{err}"
    );
    // Without the unreadable lines, a count that differs is exit status 1.
    std::fs::write(&file, "startpos ;D2 289\n").unwrap();
    assert_eq!(
        run(&["perft", "--suite", file.to_str().unwrap()])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn a_perft_suite_is_made_of_a_file_of_positions_and_reads_back() {
    let dir = crate::common::scratch("perft-make");
    let positions = dir.join("positions.txt");
    // A position, a comment, a suite's line (its counts replaced, its id kept), no position.
    std::fs::write(
        &positions,
        "startpos\n# c\nkp5/1s5/1C5/7/7/7/6K b S 1 ;D1 1 ;id \"swdropmate_w\"\nbad\n",
    )
    .unwrap();
    let o = run(&[
        "perft",
        "--depth",
        "3",
        "--make-suite",
        positions.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 4 of"), "{}", stderr(&o));
    // The counts are Fairy-Stockfish's (tests/data/perft.tsv).
    let suite = stdout(&o);
    assert_eq!(
        suite,
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1 ;D1 17 ;D2 288 ;D3 5430\n\
         kp5/1s5/1C5/7/7/7/6K b S 1 ;D1 47 ;D2 97 ;D3 1266 ;id \"swdropmate_w\"\n"
    );
    let file = dir.join("made.epd");
    std::fs::write(&file, &suite).unwrap();
    let o = run(&["perft", "--suite", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("6 counts of 2 positions checked: all agree"));
}

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
fn refused_before_any_work(args: &[&str], says: &[&str]) {
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

/// Runs the binary with standard output on a full device.
#[cfg(target_os = "linux")]
fn run_to_full_device(args: &[&str], input: Option<&str>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(text) = input {
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn every_command_reports_a_full_device_on_standard_output() {
    let mate1 = "4pk1/5l1/3C2F/7/7/7/7 b C 1";
    let cases: Vec<(Vec<&str>, Option<&str>)> = vec![
        (vec!["show", "startpos"], None),
        (vec!["show", "--json", "startpos"], None),
        (vec!["perft", "--depth", "2", "startpos"], None),
        (vec!["perft", "--json", "--depth", "2", "startpos"], None),
        (vec!["diagram", "startpos"], None),
        (vec!["solve", mate1], None),
        (vec!["solve", "--json", "problems/classic.jsonl"], None),
        (vec!["verify", mate1], None),
        (vec!["verify", "--json", mate1], None),
        (vec!["merge", "problems/classic.jsonl", "--out", "-"], None),
        (vec!["stats", "problems/classic.jsonl"], None),
        (vec!["stats", "--json", "-"], Some("")),
        (
            vec!["generate", "--plies", "3", "--count", "1", "--quiet"],
            None,
        ),
        (vec!["usi"], Some("usi\nquit\n")),
    ];
    for (args, input) in cases {
        let o = run_to_full_device(&args, input);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
    // Files name themselves.
    let o = run(&[
        "generate",
        "--plies",
        "3",
        "--count",
        "1",
        "--quiet",
        "--force",
        "--out",
        "/dev/full",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot write /dev/full: No space left on device"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_pipe_closed_by_its_reader_ends_the_program_quietly() {
    use std::process::Stdio;
    for args in [
        &["perft", "--divide", "--depth", "3", "startpos"][..],
        &["show", "startpos"][..],
        &["solve", "problems/classic.jsonl"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is read.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn merge_writes_standard_output_and_reports_every_bad_line() {
    let dir = crate::common::scratch("merge");
    let f = dir.join("set.jsonl");
    std::fs::write(
        &f,
        concat!(
            "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\",\"moves\":[\"C*1b\"]}\n",
            "{\"sfen\":\"kk5/7/7/7/7/7/6K b - 1\"}\n",
            "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b F 1\",\"moves\":[\"Z*9z\"]}\n",
            "not json\n",
            "{\"sfen\":\"5k1/7/3C2F/7/7/7/7 b C 1\",\"moves\":[\"C*2b\"]}\n",
        ),
    )
    .unwrap();
    let o = run(&["merge", f.to_str().unwrap(), "--out", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    let e = stderr(&o);
    for n in [2, 3, 4] {
        assert!(e.contains(&format!("error: line {n} of ")), "{e}");
    }
    assert!(e.contains("moves"), "the reason is given: {e}");
    assert!(
        !std::path::Path::new("-").exists(),
        "merge made a file named -"
    );
}

#[test]
fn error_messages_quote_at_most_80_characters_and_say_a_reason_once() {
    let long = "x".repeat(10_000);
    let o = run(&["show", &long]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.len() < 300, "{} bytes of error", e.len());
    assert!(e.contains(&format!("`{}...`", "x".repeat(80))), "{e}");
    // An impossible position: the reason once.
    let o = run(&["show", "7/7/7/7/7/7/7 b 99S 1"]);
    let e = stderr(&o);
    assert_eq!(
        e.trim(),
        "error: impossible position: too many swallows: 99 on the board and in hand, the game has 16"
    );
    let o = run(&["diagram", "kk5/7/7/7/7/7/6K b - 1"]);
    assert_eq!(stderr(&o).matches("more than one phoenix").count(), 1);
}

#[test]
fn an_illegal_swallow_drop_says_which_rule_it_breaks() {
    for (pos, why) in [
        (
            "kp5/1s5/1C5/7/7/7/6K b S 1 moves S*7b",
            "a swallow dropped on 7b would give mate, and a swallow drop may not mate",
        ),
        (
            "k6/7/7/7/7/7/6K b S 1 moves S*3a",
            "a swallow may not be dropped on the farthest rank",
        ),
        (
            "k6/2S4/2S4/7/7/7/6K b S 1 moves S*5d",
            "that file already holds two Black swallows",
        ),
    ] {
        let o = run(&["show", pos]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(why), "{pos}: {}", stderr(&o));
    }
}

#[test]
fn thread_counts_beyond_four_per_core_are_refused() {
    let o = run(&["perft", "--depth", "2", "--threads", "10000", "startpos"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--threads 10000: at most"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "solve",
        "--threads",
        "100000",
        "4pk1/5l1/3C2F/7/7/7/7 b C 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// A cook in a side variation is placed where that variation leaves the main line, not by
/// the whole path from the start; the same cooking move in several variations is one
/// reason. Mate in 5: 1. Cr*2d Ph-2b 2. Cr*2a Ph-1a 3. RQ*1b; at ply 3 a crane dropped on
/// 1c mates as well (the phoenix goes to 1a, the right quail is dropped on 1b, and the
/// pheasant on 2c guards 2a), after Ph-2b and after Ph-1b alike.
#[test]
fn verify_places_a_variations_cook_where_it_leaves_the_main_line() {
    let pos = "7/7/4LPk/6r/7/7/7 b 2CRS 1";
    let o = run(&["verify", pos]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.contains("Solution (5 plies): 1. Cr*2d Ph-2b 2. Cr*2a Ph-1a 3. RQ*1b"),
        "{s}"
    );
    assert!(
        s.contains("Cook at ply 3: 2. Cr*1c Ph-1a 3. RQ*1b (USI C*1c 2b1a R*1b)\n"),
        "{s}"
    );
    assert!(
        s.contains(
            "Cook at ply 3 (after the main line to ply 1, then 1... Ph-1b, USI 1c1b): \
             2. Cr*1c Ph-1a 3. RQ*1b (USI C*1c 1b1a R*1b)"
        ),
        "{s}"
    );
    // The final dual at the end of that variation, in Hodges and USI.
    assert!(s.contains("Final dual at ply 5"), "{s}");
    assert!(s.contains(": 3. RQ*1c (USI R*1c)\n"), "{s}");
    assert!(!s.contains("(after 2d"), "{s}");
    assert_eq!(s.matches("- cook at ply 3: C*1c\n").count(), 1, "{s}");
    let o = run(&["verify", "--json", pos]);
    let v = &json_lines(&o)[0];
    let cooks = v["cooks"].as_array().expect("cooks");
    let c1c: Vec<_> = cooks.iter().filter(|c| c["move"] == "C*1c").collect();
    assert_eq!(c1c.len(), 2, "{v}");
    // The JSON keeps each variation's whole path.
    assert!(
        c1c.iter()
            .any(|c| c["after"] == serde_json::json!(["C*2d", "1c1b"])),
        "{v}"
    );
    let reasons = v["reasons"].as_array().expect("reasons");
    assert_eq!(
        reasons
            .iter()
            .filter(|r| *r == "cook at ply 3: C*1c")
            .count(),
        1,
        "{v}"
    );
}

#[test]
fn book_reports_every_bad_line_by_line_and_writes_nothing() {
    let dir = crate::common::scratch("book");
    let f = dir.join("set.jsonl");
    std::fs::write(
        &f,
        "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\"}\n\n{\"sfen\":\"kk\"}\nnot json\n",
    )
    .unwrap();
    let html = dir.join("book.html");
    let o = run(&["book", f.to_str().unwrap(), "--out", html.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    // In file order, though line 4 is found bad on reading and line 3 only on drawing.
    let err = stderr(&o);
    let at = |s: &str| err.find(s).unwrap_or_else(|| panic!("{s}: {err}"));
    assert!(at("error: line 3 of ") < at("error: line 4 of "), "{err}");
    assert!(err.contains("error: 2 bad lines in "), "{err}");
    assert!(!err.contains("problem 2"));
    assert!(!html.exists());
}

#[test]
fn solve_and_verify_carry_a_records_own_fields() {
    let dir = crate::common::scratch("carry");
    let f = dir.join("mine.jsonl");
    std::fs::write(
        &f,
        "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\",\"note\":\"first\",\"id\":\"p-17\",\"index\":1e400}\n",
    )
    .unwrap();
    for cmd in ["solve", "verify"] {
        let o = run(&[cmd, "--json", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["id"], "p-17", "{cmd}");
        assert_eq!(v["note"], "first", "{cmd}");
        assert!(v.get("index").is_some(), "{cmd}");
        assert_eq!(v["moves"][0], "C*1b", "{cmd}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_is_no_panic() {
    use std::process::Stdio;
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    for args in [
        &["solve", "nonexist.jsonl"][..],
        &["generate", "--plies", "3", "--count", "1"][..],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_toritsume"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(full())
            .output()
            .unwrap();
        assert_ne!(o.status.code(), Some(101), "{args:?} panicked");
        assert!(o.status.code().is_some());
    }
}

/// Verdicts, in JSON and as exit statuses (0 sound, 1 flawed or cooked, 2 bad input).
#[test]
fn cli_verdicts_and_exit_statuses() {
    let o = run(&["verify", "--json", "R2L3/2Pk3/7/7/7/7/7 b FCL 1"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["plies"], 7);
    assert!(v["cooks"].as_array().unwrap().is_empty());
    assert!(!v["final_duals"].as_array().unwrap().is_empty());
    assert_eq!(v["spare_pieces"], false);
    assert!(v["redundant_pieces"].as_array().unwrap().is_empty());

    let o = run(&["verify", "--json", "7/2Pk3/2R4/2L4/7/7/7 b F2CL 1"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "cooked");
    let c = &v["cooks"][0];
    assert!(c["ply"].is_number() && c["move"].is_string() && c["line"].is_array());

    let o = run(&[
        "verify",
        "--solution",
        "Sw*9z",
        "R2L3/2Pk3/7/7/7/7/7 b FCL 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("intended solution"));
    // An empty intended solution is a mistake in the call, not a wrong solution.
    for empty in ["", " ", "1."] {
        let o = run(&["verify", "--solution", empty, "R2L3/2Pk3/7/7/7/7/7 b FCL 1"]);
        assert_eq!(o.status.code(), Some(2), "{empty:?}");
        assert!(
            stderr(&o).contains("intended solution: no moves"),
            "{}",
            stderr(&o)
        );
    }
    // A first move that does not check is named as such, with its ply.
    let o = run(&[
        "verify",
        "--json",
        "--solution",
        "C*7g",
        "R2L3/2Pk3/7/7/7/7/7 b FCL 1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "flawed");
    assert_eq!(v["intended"]["is_solution"], false);
    assert_eq!(v["intended"]["problem"], "ply 1 (C*7g) does not give check");

    let o = run(&["verify", "--json", "kp5/1s5/1C5/7/7/7/7 b S 1"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "nomate");
}

#[test]
fn lines_choose_positions_of_a_file_for_solve_verify_and_bench() {
    let set = "problems/classic.jsonl";
    let records = crate::common::load_problems(set);
    // Lines 3, 5 and 6 of the classic set (it has no blank line), and the two no-mates at
    // its end (35 and 36).
    let o = run(&["solve", "--json", "--lines", "3,5-6", set]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = json_lines(&o);
    assert_eq!(out.len(), 3);
    for (v, n) in out.iter().zip([3, 5, 6]) {
        let r = &records[n - 1];
        assert_eq!(v["origin"], format!("line {n} of {set}"));
        assert_eq!(v["plies"].as_u64(), r.plies.map(u64::from), "line {n}");
        assert_eq!(v["moves"], serde_json::json!(r.moves), "line {n}");
    }
    let o = run(&["verify", "--json", "--lines", "5", set]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = json_lines(&o);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["origin"], format!("line 5 of {set}"));
    assert_eq!(out[0]["verdict"], "sound");
    assert_eq!(out[0]["moves"], serde_json::json!(records[4].moves));
    // bench: the lines first, then only the answers recorded as asked.
    let o = run(&[
        "bench",
        "--json",
        "--lines",
        "1-2,34-36",
        "--status",
        "nomate",
        set,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = json_lines(&o);
    let origins: Vec<&str> = out.iter().filter_map(|v| v["origin"].as_str()).collect();
    assert_eq!(
        origins,
        [
            "line 35 of problems/classic.jsonl",
            "line 36 of problems/classic.jsonl"
        ]
    );
    assert_eq!(out.last().unwrap()["summary"]["positions"], 2);
    let o = run(&[
        "bench", "--json", "--lines", "34-36", "--status", "mate", set,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json_lines(&o).last().unwrap()["summary"]["positions"], 1);
}

#[test]
fn a_choice_of_lines_that_holds_no_position_is_refused() {
    let set = "problems/classic.jsonl";
    for (args, says) in [
        (
            &["solve", "--lines", "37", set][..],
            "line 37 of problems/classic.jsonl holds no position",
        ),
        (
            &["verify", "--lines", "30-40", set][..],
            "lines 30-40 of problems/classic.jsonl hold no position",
        ),
        (
            &["bench", "--lines", "0", set][..],
            "lines are numbered from 1",
        ),
        (&["solve", "--lines", "4-2", set][..], "runs backwards"),
        (
            &["solve", "--lines", "a", set][..],
            "`a` is not a line number",
        ),
        (
            &["solve", "--lines", "1", "4pk1/5l1/3C2F/7/7/7/7 b C 1"][..],
            "the input is a position",
        ),
        (
            &["bench", "--lines", "35-36", "--status", "mate", set][..],
            "--status mate: no position chosen",
        ),
    ] {
        refused_before_any_work(args, &[says]);
    }
}

#[test]
fn verify_text_cut_short_by_a_limit_claims_no_whole_solution() {
    // Classic problem 29, a mate in 13, on a 1 MB table: budgets spread over its whole
    // verification stop it before the length is proven shortest, or while the line is read,
    // or later. The solution shown is then said to be at most so long, or cut short, and
    // is otherwise the whole line.
    let sfen = "7/4P2/6k/4CP1/6p/7/7 b F 1";
    let verify = |nodes: Option<u64>| {
        let budget = nodes.map(|n| n.to_string()).unwrap_or_default();
        let mut args = vec!["verify", "--hash", "1", "--threads", "1", sfen];
        if nodes.is_some() {
            args.extend(["--nodes", budget.as_str()]);
        }
        stdout(&run(&args))
    };
    let whole = verify(None);
    let line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Solution ("))
            .map(str::to_string)
    };
    let full = line(&whole).expect("a solution line");
    let moves = full
        .strip_prefix("Solution (13 plies): ")
        .expect("the whole line")
        .to_string();
    let nodes: u64 = whole
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the nodes line");
    let (mut unproven, mut cut) = (0, 0);
    for k in 1..20 {
        let text = verify(Some(nodes * k / 20));
        let Some(shown) = line(&text) else {
            // Stopped before any mate was found.
            assert!(text.contains("Verdict: unknown"), "{text}");
            continue;
        };
        if shown == full {
            continue;
        }
        if shown.starts_with("Solution (at most ") {
            unproven += 1;
            assert!(shown.contains("plies, shorter not ruled out): "), "{shown}");
        } else if let Some(part) = shown
            .strip_prefix("Solution (13 plies): ")
            .and_then(|s| s.strip_suffix(" (cut short)"))
        {
            cut += 1;
            assert!(moves.starts_with(part), "{shown}");
        } else {
            assert_eq!(shown, "Solution (13 plies): (not read)");
        }
    }
    assert!(unproven > 0 && cut > 0, "{unproven} {cut}");
    // The JSON says the same by `minimal` and `complete`.
    let o = run(&["verify", "--json", "--hash", "1", "--threads", "1", sfen]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&v["minimal"], &v["complete"]),
        (&true.into(), &true.into())
    );
    let first_tenth = (nodes / 10).to_string();
    let o = run(&[
        "verify",
        "--json",
        "--hash",
        "1",
        "--threads",
        "1",
        "--nodes",
        &first_tenth,
        sfen,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown");
    assert!(v["minimal"] == false || v["complete"] == false, "{v}");
}

/// `spare_pieces` and `spare` are judged only of a mate whose line is read to the end:
/// null while a limit leaves the line unread or cut short, or the length unproven, and for
/// no mate; never a `false` that claims what was not looked at.
#[test]
fn spare_pieces_are_null_until_the_line_is_read_whole() {
    // Classic problem 29, a mate in 13 ending with the attacker's hand empty; with budgets
    // spread over its whole solve, some stop before the mate is found, some while the
    // length is proven or the line read.
    let sfen = "7/4P2/6k/4CP1/6p/7/7 b F 1";
    let json = |cmd: &str, nodes: Option<u64>| {
        let budget = nodes.map(|n| n.to_string()).unwrap_or_default();
        let mut args = vec![cmd, "--json", "--hash", "1", "--threads", "1", sfen];
        if nodes.is_some() {
            args.extend(["--nodes", budget.as_str()]);
        }
        let o = run(&args);
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    for cmd in ["solve", "verify"] {
        let whole = json(cmd, None);
        assert_eq!(whole["complete"], true, "{whole}");
        assert_eq!(
            (&whole["spare_pieces"], &whole["spare"]),
            (&false.into(), &"".into())
        );
        let nodes = whole["nodes"].as_u64().unwrap();
        let mut unread = 0;
        for k in 1..20 {
            let v = json(cmd, Some(nodes * k / 20));
            if v["complete"] == true {
                assert_eq!(v["spare_pieces"], false, "{v}");
            } else {
                unread += 1;
                assert!(v["spare_pieces"].is_null(), "{cmd} {k}: {v}");
                assert!(v["spare"].is_null(), "{cmd} {k}: {v}");
            }
        }
        assert!(unread > 0, "{cmd}: every budget read the whole line");
    }
    // Cr*1b mates at once; the swallow in hand is left over.
    for cmd in ["solve", "verify"] {
        let o = run(&[cmd, "--json", "4pk1/5l1/3C2F/7/7/7/7 b CS 1"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            (&v["spare_pieces"], &v["spare"]),
            (&true.into(), &"S".into())
        );
    }
    // A position with no mate: nothing to judge.
    let o = run(&["solve", "--json", "7/7/7/3k3/7/7/7 b S 1"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"], "nomate");
    assert!(v["spare_pieces"].is_null() && v["spare"].is_null(), "{v}");
}

/// A problem flawed only by pieces too many is shown the sound problem without them, in
/// text and JSON; a sound or cooked one is not.
#[test]
fn verify_shows_the_sound_problem_without_the_pieces_too_many() {
    let flawed = "4pk1/5l1/3C2F/7/7/7/S6 b CS 1";
    let o = run(&["verify", flawed]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("Sound without "))
        .expect("the sound problem");
    assert!(
        line.starts_with("Sound without Black Sw on 7g and Sw in hand (1 ply, ")
            && line.ends_with(" nodes): 4pk1/5l1/3C2F/7/7/7/7 b C 1"),
        "{line}"
    );
    let o = run(&["verify", "--json", flawed]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let b = &v["sound_without"];
    assert_eq!(b["position"], "4pk1/5l1/3C2F/7/7/7/7 b C 1");
    assert_eq!(b["plies"], 1);
    assert_eq!(b["taken_off"][0]["where"], "7g");
    assert_eq!(b["taken_off"][1]["where"], "hand");
    assert_eq!(b["taken_off"].as_array().unwrap().len(), 2);
    assert!(b["nodes"].as_u64().unwrap() > 0);
    for sound_or_cooked in [
        "4pk1/5l1/3C2F/7/7/7/7 b C 1",
        "7/2Pk3/2R4/2L4/7/7/7 b F2CL 1",
    ] {
        let o = run(&["verify", "--json", sound_or_cooked]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["sound_without"].is_null(), "{v}");
        let o = run(&["verify", sound_or_cooked]);
        assert!(!stdout(&o).contains("Sound without"), "{}", stdout(&o));
    }
}

/// One ply, one record, one file: every count of one reads in the singular, in solve,
/// verify, an intended solution's fault and merge's summary.
#[test]
fn counts_of_one_read_in_the_singular() {
    // Mate in 3 (C*2b 1c1b F*2a); nothing mates in one.
    let sfen = "7/7/6k/5P1/5L1/7/7 b FC 1";
    let o = run(&["solve", "--max-plies", "1", sfen]);
    assert!(
        stdout(&o).contains("No mate within 1 ply ("),
        "{}",
        stdout(&o)
    );
    let o = run(&["verify", "--max-plies", "1", sfen]);
    assert!(
        stdout(&o).contains("- no mate within 1 ply\n"),
        "{}",
        stdout(&o)
    );
    // The crane stepping to 1c checks, and the phoenix takes it.
    let o = run(&["verify", "--solution", "C*2b 1c1b 2b1c", sfen]);
    assert!(
        stdout(&o).contains("ply 3 (2b1c) does not mate within 1 ply\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["solve", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert!(
        stdout(&o).contains("Mate in 1 ply, proven shortest"),
        "{}",
        stdout(&o)
    );
    let dir = crate::common::scratch("singular");
    let f = dir.join("one.jsonl");
    std::fs::write(
        &f,
        "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\",\"moves\":[\"C*1b\"]}\n",
    )
    .unwrap();
    let o = run(&["merge", f.to_str().unwrap(), "--out", "-"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("read 1 record from 1 file, kept 1, dropped 0 duplicates"),
        "{}",
        stderr(&o)
    );
}

/// A file of nothing but blank lines and comments: solve and verify succeed with nothing
/// to print and say why on standard error; bench has nothing to measure and refuses.
#[test]
fn an_input_without_positions_is_noted_and_bench_refuses_it() {
    let dir = crate::common::scratch("no-positions");
    let f = dir.join("empty.jsonl");
    std::fs::write(&f, "# only a comment\n\n   \n").unwrap();
    let name = f.to_str().unwrap();
    for command in ["solve", "verify"] {
        let o = run(&[command, name]);
        assert_eq!(o.status.code(), Some(0), "{command}");
        assert_eq!(stdout(&o), "", "{command}");
        assert!(
            stderr(&o).contains("holds no positions (nothing but blank lines and comments)"),
            "{command}: {}",
            stderr(&o)
        );
    }
    let o = run(&["bench", name]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing to measure"), "{}", stderr(&o));
}

/// A file of several positions closes with the count of each answer on standard error, as
/// the records have them (problems/classic.jsonl: 34 sound mates, 2 recorded no-mates), an
/// unreadable line counted too; `--quiet` leaves the count out, and standard output holds
/// the reports alone.
#[test]
fn a_file_closes_with_the_count_of_each_answer() {
    let o = run(&["solve", "--json", "problems/classic.jsonl"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).starts_with("36 positions: 34 mate, 2 nomate in "),
        "{}",
        stderr(&o)
    );
    assert_eq!(crate::common::json_lines(&o).len(), 36);
    let o = run(&["verify", "problems/classic.jsonl"]);
    assert!(
        stderr(&o).starts_with("36 problems: 34 sound, 2 nomate in "),
        "{}",
        stderr(&o)
    );
    for command in ["solve", "verify"] {
        let o = run(&[command, "--quiet", "problems/classic.jsonl"]);
        assert_eq!(stderr(&o), "", "{command}");
    }
    let dir = crate::common::scratch("tally");
    let f = dir.join("two.jsonl");
    std::fs::write(
        &f,
        "{\"sfen\":\"4pk1/5l1/3C2F/7/7/7/7 b C 1\"}\nnot a position\n",
    )
    .unwrap();
    let o = run(&["verify", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("error: line 2 of "), "{e}");
    assert!(e.contains("2 problems: 1 sound, 1 unreadable in "), "{e}");
    // One position: its report says it all.
    let o = run(&["solve", "4pk1/5l1/3C2F/7/7/7/7 b C 1"]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn bench_outside_the_source_tree_says_where_its_default_file_is() {
    // The default benchmark file's path is relative to the source tree: from elsewhere,
    // bench says so rather than only that the file is missing.
    let dir = crate::common::scratch("bench-elsewhere");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(["bench", "--lines", "1"])
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("benches/data/hard.jsonl, the default benchmark file")
            && err.contains("run bench from there or name a FILE"),
        "{err}"
    );
}

/// Runs `toritsume ARGS` on a pseudo-terminal, as a person at a terminal would (see
/// [`shell_on_a_terminal`]).
fn on_a_terminal(args: &[&str]) -> (String, bool) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    shell_on_a_terminal(&format!(
        "{} {}",
        env!("CARGO_BIN_EXE_toritsume"),
        quoted.join(" ")
    ))
}

/// Runs the shell command `command` on a pseudo-terminal (util-linux `script`, which passes
/// the exit status on) and returns everything the terminal received, and whether the
/// command exited 0.
fn shell_on_a_terminal(command: &str) -> (String, bool) {
    let o = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .output()
        .expect("util-linux `script` runs");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.success(),
    )
}

/// A long single solve at a terminal shows a live status line on standard error (time,
/// nodes, what the solve knows) and erases it before the answer; with `--quiet`, or when
/// standard error is not a terminal, there is none. Hard mate #21 (15 plies, some 3.5 s on
/// one thread in release: its minimality proof and main line each take more than a second)
/// and hard no-mate #1 (some 2 s).
#[test]
#[ignore = "runs searches of seconds on a pseudo-terminal; run by .ci/run in release"]
fn a_long_solve_at_a_terminal_shows_its_progress_and_erases_it() {
    let mate = "P6/1s2C2/P1kf3/R6/7/7/7 b F2CPL 1";
    let (screen, ok) = on_a_terminal(&["solve", mate, "--threads", "1"]);
    assert!(ok, "{screen}");
    let shorter = screen
        .find("mate in 15, looking for a shorter one")
        .unwrap_or_else(|| panic!("no status while shortening:\n{screen}"));
    let reading = screen
        .find("mate in 15 is shortest; reading the line")
        .unwrap_or_else(|| panic!("no status while reading the line:\n{screen}"));
    assert!(shorter < reading);
    assert!(screen.contains(" nodes ("), "{screen}");
    // The last status is erased (the line cleared) before the answer is written.
    let answer = screen
        .find("Mate in 15 plies, proven shortest")
        .expect(&screen);
    let erased = screen[..answer]
        .rfind("\x1b[2K")
        .expect("the line is cleared");
    assert!(erased > reading && !screen[erased..answer].contains(" nodes ("));

    let (screen, _) = on_a_terminal(&["solve", "3F3/k1s4/7/7/7/7/7 b FPR3S 1", "--threads", "1"]);
    assert!(screen.contains("no mate found yet"), "{screen}");
    assert!(screen.contains("No mate ("), "{screen}");

    let (quiet, _) = on_a_terminal(&["solve", mate, "--threads", "1", "--quiet"]);
    assert!(
        quiet.contains("Mate in 15 plies") && !quiet.contains(" nodes ("),
        "{quiet}"
    );
    // Standard error not a terminal: nothing but the answer.
    let o = run(&["solve", mate, "--threads", "1"]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
}

/// A file verified at a terminal with its reports sent to a file shows a bar of the problems
/// answered on standard error, cleared before the closing count; the reports file holds
/// the reports alone. With standard output on the terminal too, or `--quiet`, no bar.
#[test]
#[ignore = "runs on a pseudo-terminal; run by .ci/run in release"]
fn a_file_with_its_reports_sent_elsewhere_shows_a_bar_at_the_terminal() {
    let dir = crate::common::scratch("bar");
    let out = dir.join("reports.jsonl");
    let classic = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.jsonl");
    let quoted = |p: &std::path::Path| format!("'{}'", p.display());
    let run_on_terminal = |extra: &str| {
        let command = format!(
            "{} verify {classic} --json{extra} > {}",
            env!("CARGO_BIN_EXE_toritsume"),
            quoted(&out)
        );
        let (screen, _) = shell_on_a_terminal(&command);
        (screen, std::fs::read_to_string(&out).expect("the reports"))
    };
    let (screen, reports) = run_on_terminal("");
    assert!(screen.contains("/36 problems"), "{screen}");
    let count = screen.find("36 problems: ").expect("the closing count");
    assert!(screen[..count].ends_with("\x1b[2K"), "{screen}");
    assert_eq!(reports.lines().count(), 36);
    assert!(reports.lines().all(|l| l.starts_with('{')));
    let (screen, _) = run_on_terminal(" --quiet");
    assert!(!screen.contains("/36 problems"), "{screen}");
    // Two of the 36 have no mate: the exit status says so (1).
    let (screen, ok) = on_a_terminal(&["verify", classic]);
    assert!(!ok && screen.contains("36 problems: "), "{screen}");
    assert!(!screen.contains("/36 problems"), "{screen}");
}

/// A long verification at a terminal says on standard error what it does as it goes: the
/// solve, then the search for cooks, then the one for redundant pieces, the nodes counted
/// over all of them; the line is erased before the report. Hard mate #25 (11 plies, cooked;
/// some 6 s on one thread in release, more than a second in each of those stages).
#[test]
#[ignore = "runs a verification of seconds on a pseudo-terminal; run by .ci/run in release"]
fn a_long_verification_at_a_terminal_says_what_it_does() {
    let (screen, ok) = on_a_terminal(&[
        "verify",
        "c3C2/1P5/5S1/3k3/7/7/7 b 2F2C2PR 1",
        "--threads",
        "1",
    ]);
    assert!(!ok, "a cooked problem exits 1");
    let at = |what: &str| {
        screen
            .find(what)
            .unwrap_or_else(|| panic!("no `{what}`:\n{screen}"))
    };
    let (cooks, redundant, report) = (
        at("searching for cooks"),
        at("looking for redundant pieces"),
        at("Verdict: cooked"),
    );
    assert!(cooks < redundant && redundant < report);
    // The node count only grows, from one stage to the next too: `5.5 M nodes (`.
    let counts: Vec<f64> = screen[..report]
        .split(['\r', '\n'])
        .filter_map(|line| {
            let (head, _) = line.split_once(" nodes (")?;
            let count = head.rsplit(", ").next()?;
            let (x, unit) = count.split_once(' ').unwrap_or((count, ""));
            let scale = match unit {
                "K" => 1e3,
                "M" => 1e6,
                "G" => 1e9,
                _ => 1.0,
            };
            Some(x.parse::<f64>().ok()? * scale)
        })
        .collect();
    assert!(counts.len() > 10, "{screen}");
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    let erased = screen[..report]
        .rfind("\x1b[2K")
        .expect("the line is cleared");
    assert!(!screen[erased..report].contains(" nodes ("));
}

/// Starts `toritsume ARGS`, sends it Ctrl-C (SIGINT) after `after`, and returns what it
/// printed and its exit code.
fn interrupted(args: &[&str], after: std::time::Duration) -> (String, String, Option<i32>) {
    let child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(after);
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let o = child.wait_with_output().expect("the binary ends");
    (stdout(&o), stderr(&o), o.status.code())
}

/// Ctrl-C stops a solve cleanly: the search under way reports what it proved (`unknown`,
/// stopped by `stop`), standard error says it was interrupted, and the exit status is 130;
/// in a file, the positions answered are printed and counted, and the rest not started.
#[test]
fn ctrl_c_stops_a_solve_and_says_how_far_it_got() {
    let second = std::time::Duration::from_millis(1500);
    // Hard no-mate #30: some 18 s on one thread.
    let (out, err, code) = interrupted(
        &[
            "solve",
            "6c/5k1/7/7/7/7/7 b FCL2R 1",
            "--threads",
            "1",
            "--json",
        ],
        second,
    );
    assert_eq!(code, Some(130), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect(&out);
    assert_eq!(
        (v["status"].as_str(), v["stopped_by"].as_str()),
        (Some("unknown"), Some("stop"))
    );
    assert_eq!(
        err.trim(),
        "interrupted (Ctrl-C or SIGTERM): the search was stopped"
    );

    // The 44 positions of the hard set, each of seconds, on one thread.
    let hard = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/hard.jsonl");
    let (out, err, code) = interrupted(&["solve", hard, "--threads", "1", "--json"], second);
    assert_eq!(code, Some(130), "{err}");
    let answered = out.lines().count();
    assert!((1..44).contains(&answered), "{answered}");
    assert!(
        err.contains(&format!(
            "interrupted (Ctrl-C or SIGTERM) after {answered} of 44 positions"
        )),
        "{err}"
    );
    assert!(err.starts_with(&format!("{answered} position")), "{err}");
    // The one under way (the last, unless Ctrl-C fell between two) was stopped; those before
    // it were answered whole.
    let stopped: Vec<bool> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["stopped_by"] == "stop")
        .collect();
    assert!(!stopped[..answered - 1].contains(&true), "{out}");
    // Where to take the run up: the line of the one stopped, or the next one.
    let from = stopped.iter().position(|&s| s).unwrap_or(answered) + 1;
    assert!(
        err.contains(&format!(
            "; `--lines {from}-` takes them up from the first the stop may have cut short"
        )),
        "{err}"
    );
    // Taken up so (each position given a small budget here), the rest of the file is
    // answered, from that line on.
    let o = run(&[
        "solve",
        hard,
        &format!("--lines={from}-"),
        "--json",
        "--nodes",
        "1000",
    ]);
    let rest = json_lines(&o);
    assert_eq!(rest.len(), 44 - from + 1, "{}", stderr(&o));
    assert!(
        rest[0]["origin"]
            .as_str()
            .is_some_and(|s| s.starts_with(&format!("line {from} of"))),
        "{}",
        rest[0]
    );
}

/// `verify --tries` on classic No. 1 (worked out by hand in `solver::tries`): the falcon's
/// two checks and the crane dropped on 3b each have one refutation, the crane moved to 3b
/// two; the same in JSON at every table size and on one thread or two.
#[test]
fn verify_tries_name_each_other_check_and_its_refutations() {
    let pos = "4pk1/5l1/3C2F/7/7/7/7 b C 1";
    let o = run(&["verify", "--tries", pos]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.contains(
            "Tries (the other checks at ply 1, closest first; each with the defences that \
             refute it within 1 ply):\n  1. Fax2b+? Phx2b!\n  1. Fa-1b+? Phx1b!\n  \
             1. Cr*3b? Ph-1a!\n  1. Cr-3b? Ph-1a! Phx3b!\n"
        ),
        "{s}"
    );
    let mut seen = Vec::new();
    for extra in [&["--hash", "1"][..], &["--threads", "2"][..], &[][..]] {
        let mut args = vec!["verify", "--tries", "--json", pos];
        args.extend_from_slice(extra);
        let o = run(&args);
        let v = &json_lines(&o)[0];
        let t = &v["tries"];
        assert_eq!(t["sought"], true);
        assert_eq!(t["complete"], true);
        let list: Vec<(String, bool, Vec<String>)> = t["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["move"].as_str().unwrap().to_string(),
                    x["mates"].as_bool().unwrap(),
                    x["refutations"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| r.as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect();
        assert_eq!(list[3].0, "4c3b");
        assert_eq!(list[3].2, ["2a1a", "2a3b"]);
        assert_eq!(t["list"][3]["refutations_hodges"][1], "Phx3b");
        seen.push(list);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
    // The cooked mate in 5 of README: the cook comes first, mating too.
    let o = run(&["verify", "--tries", "7/7/6k/4C2/7/7/7 b FCS 1"]);
    assert!(stdout(&o).contains("  1. Sw*1d (mates too: a cook)\n  1. Cr*2b? Phx2b!\n"));
    // `solve --tries` gives the same list.
    let o = run(&["solve", "--tries", pos]);
    assert!(
        stdout(&o).contains("  1. Fax2b+? Phx2b!\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["solve", "--tries", "--json", pos]);
    assert_eq!(json_lines(&o)[0]["tries"]["list"][3]["move"], "4c3b");
    // In a mate in 1 another mate is a final dual, not a cook.
    let o = run_with_input(
        &["verify", "--tries", "-"],
        r#"{"sfen":"6k/5S1/5S1/7/7/7/7 b L 1","defender_hand":"given"}"#,
    );
    assert!(
        stdout(&o).contains("  1. LQ*1d (mates too: a final dual)\n"),
        "{}",
        stdout(&o)
    );
    // A no-mate has no solution to try against.
    let o = run(&["verify", "--tries", "--json", "7/7/7/3k3/7/7/7 b S 1"]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["tries"]["sought"], false);
}
