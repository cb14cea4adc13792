//! The `toritsume` binary driven as a user would: output contents and exit statuses.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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
        (vec!["frobnicate"], "frobnicate"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
    }
}
