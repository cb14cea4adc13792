//! Stop requests as schedulers send them: two SIGTERMs 1 ms apart (a job script passing one
//! on beside the scheduler's own), and `timeout`'s pattern (the child signalled, then its
//! whole process group), are one request to stop. `solve` and `verify` report the
//! searches they stopped and say how to take the run up; `generate` saves its checkpoint,
//! and the run resumed writes what it would have written uninterrupted.

use crate::common::{self, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An open phoenix facing a full hand: a search far too long to end by itself.
const ENDLESS: &str = "7/7/7/3k3/7/7/7 b 2F2C2P2L2R8S8s 1";

/// Sends `child` two SIGTERMs 1 ms apart, from one shell.
fn two_terms(child: &Child) {
    let pid = child.id();
    let s = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -TERM {pid}; sleep 0.001; kill -TERM {pid}"))
        .status()
        .unwrap();
    assert!(s.success());
}

/// A file of three endless positions.
fn endless_file(dir: &Path) -> PathBuf {
    let f = dir.join("endless.txt");
    std::fs::write(&f, format!("{ENDLESS}\n{ENDLESS}\n{ENDLESS}\n")).unwrap();
    f
}

fn toritsume(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_toritsume"));
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// What a stopped `solve` or `verify` over [`endless_file`] (on one thread) must show:
/// the first position's stopped search reported, and the `--lines` that takes the run up.
fn reported_and_resumable(o: &std::process::Output, what: &str, says: &str) {
    let nouns = if what == "verify" {
        "problems"
    } else {
        "positions"
    };
    let (out, err) = (stdout(o), stderr(o));
    assert!(
        out.contains("# line 1 of"),
        "{what}: no report: {out}\n{err}"
    );
    assert!(out.contains(says), "{what}: {out}");
    assert!(
        err.contains(&format!(
            "interrupted (Ctrl-C or SIGTERM) after 1 of 3 {nouns}"
        )),
        "{what}: {err}"
    );
    assert!(err.contains("`--lines 1-` takes them up"), "{what}: {err}");
}

#[test]
fn two_terms_at_once_stop_solve_and_verify_cleanly() {
    let dir = common::scratch("signals-solve");
    let file = endless_file(&dir);
    for command in ["solve", "verify"] {
        let child = toritsume(&[
            command,
            "--threads",
            "1",
            "--hash",
            "16",
            file.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        two_terms(&child);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(130), "{command}: {}", stderr(&o));
        let says = if command == "solve" {
            "Unknown: the search was stopped"
        } else {
            "Verdict: unknown"
        };
        reported_and_resumable(&o, command, says);
    }
}

#[test]
fn timeout_stops_solve_and_verify_cleanly_and_the_run_is_taken_up() {
    let dir = common::scratch("signals-timeout");
    let file = endless_file(&dir);
    for (command, says) in [
        ("solve", "Unknown: the search was stopped"),
        ("verify", "Verdict: unknown"),
    ] {
        // `timeout` signals the child, then its process group: the child gets two SIGTERMs.
        let o = Command::new("timeout")
            .args([
                "1",
                env!("CARGO_BIN_EXE_toritsume"),
                command,
                "--threads",
                "1",
            ])
            .args(["--hash", "16"])
            .arg(&file)
            .output()
            .unwrap();
        // 124: `timeout` says the time ran out (the child's own status was 130).
        assert_eq!(o.status.code(), Some(124), "{command}: {}", stderr(&o));
        reported_and_resumable(&o, command, says);
        // The option it names takes the run up: here within a node budget, so that it
        // ends, every position answered (unknown: verify's exit status 1, not sound).
        let f = file.to_str().unwrap();
        let o = common::run(&[command, "--lines", "1-", "--nodes", "2000", f]);
        let code = if command == "solve" { 0 } else { 1 };
        assert_eq!(o.status.code(), Some(code), "{command}: {}", stderr(&o));
        assert_eq!(stdout(&o).matches("# line ").count(), 3, "{command}");
    }
}

/// `generate` of `count` problems into `out` with `extra` (tests/cli/resume.rs's run).
fn generate(out: &Path, count: &str, extra: &[&str]) -> Command {
    let mut args = vec!["generate", "--plies", "3..9", "--seed", "2", "--quiet"];
    args.extend(["--count", count, "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    toritsume(&args)
}

/// Waits until `out` holds at least `bytes` bytes.
fn written(out: &Path, bytes: u64) {
    let start = Instant::now();
    while std::fs::metadata(out).map(|m| m.len()).unwrap_or(0) < bytes {
        assert!(start.elapsed().as_secs() < 60, "nothing written");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn generate_stopped_by_two_terms_or_timeout_saves_its_checkpoint_and_resumes() {
    let dir = common::scratch("signals-generate");
    let whole = dir.join("whole.jsonl");
    let o = generate(&whole, "120", &[]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = std::fs::read(&whole).unwrap();
    let checkpoint = |out: &Path| PathBuf::from(format!("{}.checkpoint", out.display()));
    // Two TERMs 1 ms apart, a few problems in: the default checkpoint interval (a minute)
    // has not come, so the checkpoint is the one saved on the way out.
    let out = dir.join("terms.jsonl");
    let child = generate(&out, "120", &["--threads", "2"]).spawn().unwrap();
    written(&out, 3000);
    two_terms(&child);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the same command with --resume goes on from here"),
        "{}",
        stderr(&o)
    );
    // Under `timeout`, half a second in (a quarter of the whole run), before its first
    // problem or after some: either way it resumes.
    let timed = dir.join("timeout.jsonl");
    let args: Vec<String> = generate(&timed, "120", &["--threads", "2"])
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let o = Command::new("timeout")
        .arg("0.5")
        .arg(env!("CARGO_BIN_EXE_toritsume"))
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the same command with --resume goes on from here"),
        "{}",
        stderr(&o)
    );
    for out in [&out, &timed] {
        assert!(checkpoint(out).exists(), "{}: no checkpoint", out.display());
        let o = generate(out, "120", &["--resume", "--threads", "1"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {}", out.display(), stderr(&o));
        assert!(
            std::fs::read(out).unwrap() == whole,
            "{}: another set",
            out.display()
        );
        assert!(!checkpoint(out).exists());
    }
}

#[test]
fn generate_killed_before_its_first_checkpoint_resumes_from_the_start() {
    let dir = common::scratch("signals-kill");
    let out = dir.join("killed.jsonl");
    let mut child = generate(&out, "120", &["--threads", "1"]).spawn().unwrap();
    // Killed outright as soon as its checkpoint exists, long before its first periodic one:
    // the one saved as the run began remains.
    let start = Instant::now();
    while !PathBuf::from(format!("{}.checkpoint", out.display())).exists() {
        assert!(start.elapsed().as_secs() < 30, "no checkpoint at the start");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Had it been killed between its first checkpoint and its output, the output would not
    // be there: nothing was written, and it goes on from the start all the same.
    if std::fs::metadata(&out).map_or(0, |m| m.len()) == 0 {
        let _ = std::fs::remove_file(&out);
    }
    let o = generate(&out, "4", &["--resume"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(common::load_problems(&out).len(), 4);
}
