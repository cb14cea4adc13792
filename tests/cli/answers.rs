//! What `solve`, `verify`, `book` and `bench` answer: verdicts and exit statuses, records'
//! own fields, `--lines`, spare and redundant pieces, counts of a file's answers.

use crate::common::{json_lines, run, stderr, stdout};
use std::process::Command;

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
        crate::refusals::refused_before_any_work(args, &[says]);
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
