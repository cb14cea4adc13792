//! Output that cannot be written: a full device, a closed pipe, a full standard error;
//! error messages' length and standard output for merge.

use crate::common::{run, stderr, stdout};
use std::process::{Command, Output};

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
