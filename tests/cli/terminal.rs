//! At a terminal and under Ctrl-C: the status line, the progress bar, what a stopped search
//! says; and `verify --tries`.

use crate::common::{json_lines, run, run_with_input, stderr, stdout};
use std::process::Command;

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
