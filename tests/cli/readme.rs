//! The examples of README.md and docs/GUIDE.md stay true: the output they show under a
//! command is what the command prints today, times aside (a time in ms, a USI `time` and
//! `nps`, and the machine's `max` are left out of the comparison). A line `...` stands for
//! lines left out.

use crate::common::{run, stderr, stdout};

/// README.md, then docs/GUIDE.md: the documents whose examples are checked.
pub(crate) fn readme() -> String {
    let read = |name: &str| {
        std::fs::read_to_string(format!("{}/{name}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    format!("{}\n{}", read("README.md"), read("docs/GUIDE.md"))
}

/// The lines of the first fenced block that opens after the line containing `marker`
/// (the output block after a command's `sh` block, or a ```json block).
pub(crate) fn block_after(marker: &str) -> Vec<String> {
    let text = readme();
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("neither README.md nor docs/GUIDE.md has `{marker}`"));
    // Inside a fenced block (the command's own), the next fence closes it.
    let mut inside = text[..at].lines().filter(|l| l.starts_with("```")).count() % 2 == 1;
    let mut out = None;
    for l in text[at..].lines().skip(1) {
        match (l.starts_with("```"), inside, &mut out) {
            (true, true, _) => inside = false,
            (true, false, None) => out = Some(Vec::new()),
            (true, false, Some(block)) => return std::mem::take(block),
            (false, false, Some(block)) => block.push(l.to_string()),
            _ => {}
        }
    }
    panic!("README.md or docs/GUIDE.md: no block after `{marker}`");
}

/// `line` with the figures that vary from run to run replaced by `_`: a number followed by
/// ` ms`, and the number after `time `, `nps ` or `max `.
pub(crate) fn steady(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            let before = &line[..i];
            let varies = line[j..].starts_with(" ms")
                || ["time ", "nps ", "max "]
                    .iter()
                    .any(|w| before.ends_with(w));
            out.push_str(if varies { "_" } else { &line[i..j] });
            i = j;
        } else {
            let c = line[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Every README line of `shown` but `...` appears in `actual`, in the same order, steadied.
pub(crate) fn assert_shown(shown: &[String], actual: &str, what: &str) {
    let have: Vec<String> = actual.lines().map(steady).collect();
    let mut from = 0;
    for want in shown.iter().filter(|l| l.as_str() != "...") {
        let want_s = steady(want);
        match have[from..].iter().position(|h| *h == want_s) {
            Some(k) => from += k + 1,
            None => panic!(
                "README.md shows `{want}` for {what}, which no longer prints it (in order):\n{actual}"
            ),
        }
    }
}

#[test]
fn steady_leaves_out_only_what_varies() {
    assert_eq!(
        steady("Mate in 7 plies, proven shortest (948 nodes, 3 ms)"),
        "Mate in 7 plies, proven shortest (948 nodes, _ ms)"
    );
    assert_eq!(
        steady("info time 12 nodes 948 nps 79000 hashfull 0 score mate 7 pv F*6b"),
        "info time _ nodes 948 nps _ hashfull 0 score mate 7 pv F*6b"
    );
    assert_eq!(steady("1. Fa*6b Phx6b 2. Fa-6c"), "1. Fa*6b Phx6b 2. Fa-6c");
}

#[test]
fn the_solve_examples_print_what_the_readme_shows() {
    let o = run(&["solve", "1k5/2S4/7/FC5/7/7/7 b FRS 1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after(r#"toritsume solve "1k5/2S4/7/FC5/7/7/7 b FRS 1""#);
    assert!(shown.len() >= 4, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the mate in 7");

    // The given-hand example: the README pipes its record to `solve -`; here it is read
    // from a file, the same reading of the same line.
    let dir = crate::common::scratch("readme-given");
    let file = dir.join("given.jsonl");
    std::fs::write(
        &file,
        "{\"sfen\":\"6k/5S1/5S1/7/7/7/7 b L 1\",\"defender_hand\":\"given\"}\n",
    )
    .unwrap();
    let o = run(&["solve", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after("\"defender_hand\":\"given\"}' | toritsume solve -");
    assert_shown(&shown, &stdout(&o), "the given-hand record");

    // The JSON object, field for field but the time.
    let o = run(&["solve", "--json", "1k5/2S4/7/FC5/7/7/7 b FRS 1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown: serde_json::Value =
        serde_json::from_str(&block_after("`--json` prints one object per").join("\n"))
            .expect("README.md's solve JSON parses");
    let mut have: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let mut shown = shown;
    for v in [&mut have, &mut shown] {
        v.as_object_mut().unwrap().remove("time_ms");
    }
    assert_eq!(shown, have, "README.md's solve --json example");
}

#[test]
fn the_verify_example_prints_what_the_readme_shows() {
    let o = run(&["verify", "7/7/6k/4C2/7/7/7 b FCS 1"]);
    // Exit status 1: the problem is not sound.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let shown = block_after(r#"toritsume verify "7/7/6k/4C2/7/7/7 b FCS 1""#);
    assert!(shown.len() >= 4, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the verify example");
}

#[test]
fn the_tries_example_prints_what_the_readme_shows() {
    let o = run(&["verify", "--tries", "1k5/2S4/7/FC5/7/7/7 b FRS 1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after(r#"toritsume verify --tries "1k5/2S4/7/FC5/7/7/7 b FRS 1""#);
    assert!(shown.len() >= 4, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the tries example");
}

#[test]
fn the_variations_example_prints_what_the_readme_shows() {
    let o = run(&["solve", "--variations", "1k5/2S4/7/FC5/7/7/7 b FRS 1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after(r#"toritsume solve --variations "1k5/2S4/7/FC5/7/7/7 b FRS 1""#);
    assert!(shown.len() >= 4, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the variations example");
}

#[test]
fn the_merge_choice_example_prints_what_the_readme_shows() {
    let args = [
        "merge",
        "problems/generated.jsonl",
        "--rating",
        "1500..1600",
        "--themes",
        "sacrifice,quietDrop",
        "--exclude-themes",
        "finalDual",
        "--out",
        "-",
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after(&format!("toritsume {}", args.join(" ")));
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_shown(&shown, &stderr(&o), "the merge choice example");
    // What it keeps is every record of the file rated within the range, with both themes
    // and without a final dual, in file order (the file has no duplicates to drop).
    let wanted = |r: &serde_json::Value| {
        let rating = r["rating"].as_f64().unwrap();
        let themes: Vec<&str> = r["themes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        (1500.0..=1600.0).contains(&rating)
            && themes.contains(&"sacrifice")
            && themes.contains(&"quietDrop")
            && !themes.contains(&"finalDual")
    };
    let file = std::fs::read_to_string("problems/generated.jsonl").unwrap();
    let expected: Vec<serde_json::Value> = file
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(wanted)
        .collect();
    let kept: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(kept.len(), expected.len());
    for (k, e) in kept.iter().zip(&expected) {
        assert_eq!(k["sfen"], e["sfen"]);
    }
}

#[test]
fn the_stats_example_prints_what_the_readme_shows() {
    let o = run(&["stats", "problems/generated.jsonl", "problems/long.jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = block_after("toritsume stats problems/generated.jsonl problems/long.jsonl");
    assert_eq!(shown.len(), 6, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the stats example");
}

#[test]
fn the_repair_example_prints_what_the_readme_shows() {
    let o = run(&["verify", "--repair", "1r5/1k5/7/LF2P2/7/7/7 b FLR 1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let shown = block_after(r#"toritsume verify --repair "1r5/1k5/7/LF2P2/7/7/7 b FLR 1""#);
    assert!(shown.len() >= 8, "{shown:?}");
    assert_shown(&shown, &stdout(&o), "the repair example");
}

/// The lines of the first ```rust block of README.md's section `heading`.
fn rust_block(heading: &str) -> Vec<String> {
    let text = readme();
    let section = text
        .split_once(heading)
        .unwrap_or_else(|| panic!("README.md has no `{heading}`"))
        .1;
    let start = section.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let end = start + section[start..].find("```").expect("its end");
    section[start..end].lines().map(str::to_string).collect()
}

#[test]
fn the_rust_example_is_the_librarys_doctest() {
    // The crate documentation's example runs as a doctest; the README shows it without its
    // hidden lines.
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("src/lib.rs");
    let doc: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let readme = rust_block("## From Rust");
    let at = doc
        .iter()
        .position(|l| *l == readme[0])
        .expect("the README's example in src/lib.rs");
    let shown: Vec<&str> = doc[at..]
        .iter()
        .take_while(|l| !l.starts_with("```"))
        .filter(|l| !l.starts_with("# "))
        .copied()
        .collect();
    assert_eq!(shown, readme);
}
