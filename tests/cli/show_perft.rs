//! `show` and `perft`: positions shown, moves listed, leaf counts and the perft suite.

use crate::common::{json_lines, run, stderr, stdout};

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
