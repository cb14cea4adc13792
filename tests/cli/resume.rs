//! `toritsume generate --resume`: a run stopped by Ctrl-C, by SIGTERM (a scheduler's time
//! limit) or killed outright goes on from its checkpoint and writes, byte for byte, what
//! the same run writes uninterrupted; and what cannot be resumed is refused, naming why,
//! with nothing written.

use crate::common::{self, run, stderr};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The run every test stops and resumes: long enough to be stopped midway.
const RUN: [&str; 8] = [
    "generate", "--plies", "3..9", "--count", "120", "--seed", "2", "--quiet",
];

fn checkpoint_of(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.checkpoint", out.display()))
}

/// [`RUN`] with `extra`, whose options replace [`RUN`]'s of the same name.
fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![RUN[0]];
    let mut i = 1;
    while i < RUN.len() {
        let takes_value = RUN.get(i + 1).is_some_and(|v| !v.starts_with("--"));
        if !extra.contains(&RUN[i]) {
            args.push(RUN[i]);
            if takes_value {
                args.push(RUN[i + 1]);
            }
        }
        i += 1 + usize::from(takes_value);
    }
    args.extend_from_slice(extra);
    args
}

/// Runs [`RUN`] into `out` with `extra`.
fn generate(out: &Path, extra: &[&str]) -> std::process::Output {
    let path = out.to_str().unwrap();
    run(&with(&[&["--out", path], extra].concat()))
}

/// Asserts that `o`, a run refused as a usage error, exited 2 and said `says` (`what`
/// names the run in a failure).
fn refused_saying(o: &std::process::Output, says: &str, what: &str) {
    assert_eq!(o.status.code(), Some(2), "{what}");
    assert!(stderr(o).contains(says), "{what}: {}", stderr(o));
}

/// Starts [`RUN`] into `out`, waits until a few problems are written, and sends it `signal`;
/// returns its exit status and standard error.
fn stopped(out: &Path, signal: &str, extra: &[&str]) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(RUN)
        .args(["--out", out.to_str().unwrap()])
        .args(extra)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::metadata(out).map(|m| m.len()).unwrap_or(0) < 3000 {
        assert!(start.elapsed().as_secs() < 60, "nothing written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    (o.status.code(), stderr(&o))
}

/// What [`RUN`] writes uninterrupted.
fn uninterrupted(dir: &Path) -> Vec<u8> {
    let out = dir.join("whole.jsonl");
    let o = generate(&out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !checkpoint_of(&out).exists(),
        "a finished run leaves its checkpoint"
    );
    std::fs::read(&out).unwrap()
}

#[test]
fn a_run_stopped_by_a_signal_goes_on_where_it_stopped() {
    let dir = common::scratch("resume-signals");
    let whole = uninterrupted(&dir);
    assert_eq!(whole.iter().filter(|&&b| b == b'\n').count(), 120);
    // (Not SIGHUP: the program leaves it as it finds it, and under `nohup` it is ignored.)
    for signal in ["INT", "TERM", "KILL"] {
        let out = dir.join(format!("{signal}.jsonl"));
        // Saved after every batch, so that a run killed outright has one to go on from.
        let (code, err) = stopped(&out, signal, &["--threads", "2", "--checkpoint-every", "0"]);
        let written = std::fs::read(&out).unwrap();
        assert!(
            written.len() < whole.len(),
            "{signal}: the run was not stopped"
        );
        if signal == "KILL" {
            // Killed where it stood.
            assert_eq!(code, None, "{signal}: {err}");
        } else {
            // Ended cleanly: whole records, and told how to go on.
            assert_eq!(code, Some(130), "{signal}: {err}");
            assert!(
                err.contains("the same command with --resume goes on from here"),
                "{signal}: {err}"
            );
            assert!(written.ends_with(b"\n"));
        }
        assert!(whole.starts_with(&written), "{signal}: not a prefix");
        assert!(checkpoint_of(&out).exists(), "{signal}: no checkpoint");
        // Resumed on another thread count: what the run writes uninterrupted.
        let o = generate(&out, &["--resume", "--threads", "1"]);
        assert!(o.status.success(), "{signal}: {}", stderr(&o));
        assert!(
            std::fs::read(&out).unwrap() == whole,
            "{signal}: another set"
        );
        assert!(
            !checkpoint_of(&out).exists(),
            "{signal}: the checkpoint stays"
        );
    }
}

#[test]
fn a_resumed_run_may_ask_for_more() {
    let dir = common::scratch("resume-more");
    let out = dir.join("p.jsonl");
    let (code, _) = stopped(&out, "INT", &[]);
    assert_eq!(code, Some(130));
    // --count raised: the run with 150 from the start.
    let o = generate(&out, &["--resume", "--count", "150"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let more = dir.join("more.jsonl");
    let o = generate(&more, &["--count", "150"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&more).unwrap());
    // Nothing to resume once the run has ended.
    let o = generate(&out, &["--resume"]);
    refused_saying(&o, "has no checkpoint beside it", "--resume");
}

#[test]
fn what_cannot_be_resumed_is_refused_and_left_as_it_was() {
    let dir = common::scratch("resume-refused");
    let out = dir.join("p.jsonl");
    let cp = checkpoint_of(&out);
    let (code, _) = stopped(&out, "INT", &[]);
    assert_eq!(code, Some(130));
    let before = (std::fs::read(&out).unwrap(), std::fs::read(&cp).unwrap());
    let refused = |extra: &[&str], says: &str| {
        refused_saying(&generate(&out, extra), says, &format!("{extra:?}"));
        assert!(
            (std::fs::read(&out).unwrap(), std::fs::read(&cp).unwrap()) == before,
            "{extra:?} changed the files"
        );
    };
    refused(
        &["--resume", "--seed", "3"],
        "cannot go on under these settings: it was begun with --seed 2, and this run has --seed 3",
    );
    refused(
        &["--resume", "--plies", "3..11"],
        "it was begun with --plies 3..9, and this run has --plies 3..11",
    );
    refused(&["--resume", "--count", "1"], "more than --count 1");
    refused(&[], "from a run that was stopped (its checkpoint is");
    refused(
        &["--resume", "--force"],
        "'--resume' cannot be used with '--force'",
    );
    // A line that is not the run's.
    let mut changed = before.0.clone();
    changed.extend_from_slice(b"my notes\n");
    std::fs::write(&out, &changed).unwrap();
    let o = generate(&out, &["--resume"]);
    refused_saying(&o, "is not a problem the run wrote", "a changed line");
    assert!(std::fs::read(&out).unwrap() == changed);
    // Fewer lines than the checkpoint accounts for.
    std::fs::write(&out, &before.0[..before.0.len() / 2]).unwrap();
    let o = generate(&out, &["--resume"]);
    refused_saying(&o, "is not as its checkpoint left it", "a cut file");
    // Standard output cannot be resumed.
    let o = run(&with(&["--resume"]));
    refused_saying(&o, "--resume needs --out FILE", "standard output");
    // --force starts over, and the checkpoint goes with the old run.
    let o = generate(&out, &["--force", "--count", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!cp.exists());
    assert_eq!(common::load_problems(&out).len(), 3);
}

#[test]
fn resume_starts_a_run_that_has_not_begun() {
    let dir = common::scratch("resume-fresh");
    let out = dir.join("p.jsonl");
    let o = generate(&out, &["--resume", "--count", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(common::load_problems(&out).len(), 4);
    assert!(!checkpoint_of(&out).exists());
}
