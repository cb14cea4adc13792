//! The JSON reports, built by the library's report types, print the same bytes as the
//! program printed when it built them field by field: `solve --json`, `verify --json
//! --tries --variations` and `stats --json` over the classic set and the first 200 problems
//! of the generated set; `verify --repair` over cooked and flawed problems (cooks, repairs,
//! the sound problem without the pieces too many); and searches stopped by a node limit.
//! Against their outputs kept in tests/data/reports/ (one thread, times set to 0: the only
//! figures that vary from run to run). The stopped searches' outputs are the earlier
//! program's with the two recorded changes applied (CHANGELOG: `stop_reason` names no
//! option, `tries.stopped_by` is the short name).

use crate::common::{run, run_with_input, stderr, stdout};

/// `text` with every `"time_ms":N` and `"variations_time_ms":N` set to 0.
fn timeless(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("time_ms\":") {
        let (head, tail) = rest.split_at(i + "time_ms\":".len());
        out.push_str(head);
        out.push('0');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

fn kept(name: &str) -> String {
    let path = format!("tests/data/reports/{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn first_200() -> String {
    let all = std::fs::read_to_string("problems/generated.jsonl").expect("the generated set");
    all.lines().take(200).map(|l| format!("{l}\n")).collect()
}

fn same(out: &std::process::Output, name: &str) {
    assert!(out.status.code().is_some(), "{}", stderr(out));
    let now = timeless(&stdout(out));
    let before = timeless(&kept(name));
    if now != before {
        let at = now
            .lines()
            .zip(before.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(now.lines().count().min(before.lines().count()));
        panic!(
            "{name} differs from line {}:\nnow:    {}\nbefore: {}",
            at + 1,
            now.lines().nth(at).unwrap_or("(none)"),
            before.lines().nth(at).unwrap_or("(none)")
        );
    }
}

#[test]
fn time_fields_are_all_that_timeless_changes() {
    assert_eq!(
        timeless(r#"{"a":1,"time_ms":123,"variations_time_ms":9,"x":"time_ms"}"#),
        r#"{"a":1,"time_ms":0,"variations_time_ms":0,"x":"time_ms"}"#
    );
}

#[test]
#[ignore = "heavy: 236 verifications with tries and variations; run by .ci/run in release"]
fn json_reports_print_the_same_bytes_as_before() {
    let classic = "problems/classic.jsonl";
    let one = ["--threads", "1", "--quiet"];
    let args = |cmd: &[&'static str], input: &'static str| -> Vec<&'static str> {
        let mut v = cmd.to_vec();
        v.extend(one);
        v.push(input);
        v
    };
    let solve = ["solve", "--json"];
    let verify = ["verify", "--json", "--tries", "--variations"];
    same(&run(&args(&solve, classic)), "solve-classic.jsonl");
    same(&run(&args(&verify, classic)), "verify-classic.jsonl");
    same(&run(&["stats", "--json", classic]), "stats-classic.json");
    let generated = first_200();
    same(
        &run_with_input(&args(&solve, "-"), &generated),
        "solve-generated-200.jsonl",
    );
    same(
        &run_with_input(&args(&verify, "-"), &generated),
        "verify-generated-200.jsonl",
    );
    same(
        &run_with_input(&["stats", "--json", "-"], &generated),
        "stats-generated-200.json",
    );
    let unsound = "tests/data/reports/unsound.txt";
    let mut repair = verify.to_vec();
    repair.push("--repair");
    same(&run(&args(&repair, unsound)), "verify-unsound.jsonl");
    let limited = "tests/data/reports/limited.txt";
    let mut solve_limited = solve.to_vec();
    solve_limited.extend(["--tries", "--variations", "--nodes", "3000"]);
    same(&run(&args(&solve_limited, limited)), "solve-limited.jsonl");
    let mut verify_limited = verify.to_vec();
    verify_limited.extend(["--nodes", "20000"]);
    same(
        &run(&args(&verify_limited, limited)),
        "verify-limited.jsonl",
    );
}
