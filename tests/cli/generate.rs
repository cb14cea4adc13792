//! `toritsume generate` and `toritsume merge` driven as a user would: every problem kept is
//! confirmed sound by the brute-force reference (independent of the solver), the output does
//! not depend on the thread count, shards are disjoint, merge drops duplicates, and nothing
//! is overwritten or left half-written.

use crate::common::checker::{Checker, check_solution, rest_to_defender};
use crate::common::{self, json_lines, run, stderr};
use std::path::Path;
use std::process::Command;
use toritsume::problem::Problem;
use toritsume::rules::{MoveList, generate_checks};

fn scratch(name: &str) -> common::Scratch {
    common::scratch(&format!("gen-{name}"))
}

fn load(path: &Path) -> Vec<Problem> {
    common::load_problems(path)
}

fn generate(dir: &Path, name: &str, extra: &[&str]) -> (Vec<Problem>, String) {
    let out = dir.join(name);
    let mut args = vec!["generate", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = run(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (load(&out), err)
}

/// The reference's view of a generated problem: the recorded line mates in exactly the
/// recorded length against the longest defence, no shorter mate exists, and no other
/// attacker move along the line mates in the remaining length (final duals aside).
fn assert_sound_by_brute_force(p: &Problem) {
    let pos = p.position().unwrap();
    let plies = p.plies.unwrap();
    let (_, moves) = p.main_line().unwrap();
    if let Err(e) = check_solution(&pos, plies, &moves) {
        panic!("{}: {e}", p.sfen);
    }
    let mut q = rest_to_defender(&pos);
    let mut ck = Checker::new(q.side_to_move());
    let mut path = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let remaining = plies - i as u16;
        if i % 2 == 0 && remaining > 1 {
            let mut checks = MoveList::new();
            generate_checks(&q, &mut checks);
            for &c in checks.iter().filter(|&&c| c != m) {
                let mut child = q.clone();
                child.do_move(c);
                path.push(q.key());
                let (mated, _) = ck.and_mated(&child, remaining - 1, &mut path);
                path.pop();
                assert!(!mated, "{}: cook {} at ply {}", p.sfen, c.usi(), i + 1);
            }
        }
        path.push(q.key());
        q.do_move(m);
    }
}

#[test]
fn kept_problems_are_sound_and_as_asked() {
    let dir = scratch("sound");
    let (problems, summary) = generate(
        &dir,
        "p.jsonl",
        &["--plies", "3..5", "--count", "16", "--seed", "31"],
    );
    assert_eq!(problems.len(), 16);
    assert!(summary.contains("kept 16"), "{summary}");
    assert!(summary.contains("problems/min"), "{summary}");
    assert!(
        summary.contains(", 16 distinct solution shapes,"),
        "{summary}"
    );
    for p in &problems {
        let plies = p.plies.unwrap();
        assert!(plies == 3 || plies == 5, "{}", p.sfen);
        assert_eq!(p.moves.len(), plies as usize);
        assert_eq!(p.hodges.len(), plies as usize);
        assert_eq!(p.verdict.as_deref(), Some("sound"));
        assert_eq!(p.extra["seed"], 31);
        let q = &p.extra["quality"];
        for f in [
            "score",
            "proof_nodes",
            "defender_alternatives",
            "sacrifices",
            "quiet_drops",
        ] {
            assert!(q.get(f).is_some(), "quality.{f} missing");
        }
        // The defender's phoenix in or near its camp (ranks a-d).
        let rank = p.sfen.split('/').position(|r| r.contains('k')).unwrap();
        assert!(rank <= 3, "{}", p.sfen);
        assert_sound_by_brute_force(p);
        // Themes, a rating and a family in every record.
        let themes = p.extra["themes"].as_array().expect("themes");
        assert_eq!(themes[0], format!("mateIn{}", plies.div_ceil(2)));
        let rating = p.extra["rating"].as_u64().expect("rating");
        assert!((600..=2800).contains(&rating));
        assert!(p.extra["family"].is_string());
    }
    assert_policy(&problems, 3);
    // Some came from candidates with a piece too many taken off (brute-forced sound above
    // like the rest), and the summary counts them.
    let trimmed = problems
        .iter()
        .filter(|p| {
            p.extra
                .get("trimmed")
                .is_some_and(|t| t.as_u64() >= Some(1))
        })
        .count();
    assert!(trimmed > 0, "{summary}");
    assert!(summary.contains(" with pieces taken off), "), "{summary}");
}

/// The generator's policy on a set: no final duals (the brute-force reference looks at
/// every other last move), no two problems with the same moves or the same solution shape,
/// at most `family_limit` of one family.
fn assert_policy(problems: &[Problem], family_limit: usize) {
    let mut lines = std::collections::HashSet::new();
    let mut shapes = std::collections::HashSet::new();
    let mut families: std::collections::HashMap<String, usize> = Default::default();
    for p in problems {
        assert!(
            lines.insert(p.moves.clone()),
            "same moves twice: {}",
            p.sfen
        );
        assert!(
            shapes.insert(toritsume::generator::coarse_shape(&p.hodges)),
            "same shape twice: {:?}",
            p.hodges
        );
        let f = p.extra["family"].as_str().unwrap().to_string();
        *families.entry(f).or_default() += 1;
        assert!(!p.extra.contains_key("final_duals"), "{}", p.sfen);
        assert_no_final_dual(p);
    }
    assert!(
        families.values().all(|&n| n <= family_limit),
        "{families:?}"
    );
}

/// No other attacker move mates at the last move of the main line (by the reference).
fn assert_no_final_dual(p: &Problem) {
    let (start, moves) = p.main_line().unwrap();
    let mut pos = start;
    for &m in &moves[..moves.len() - 1] {
        pos.do_move(m);
    }
    let last = *moves.last().unwrap();
    let mut checks = MoveList::new();
    generate_checks(&pos, &mut checks);
    for &c in checks.iter().filter(|&&c| c != last) {
        let mut q = pos.clone();
        q.do_move(c);
        assert!(
            !toritsume::rules::is_checkmate(&q),
            "{}: {} mates too",
            p.sfen,
            c.usi()
        );
    }
}

#[test]
fn a_run_from_seeds_adds_to_them_within_the_policy() {
    // The seeds count as kept: the run's problems added to them still hold the policy
    // (no shape, line or position twice, families of at most three).
    let dir = scratch("from");
    let args = ["--plies", "3..5", "--count", "12"];
    let (a, _) = generate(&dir, "a.jsonl", &[&args[..], &["--seed", "41"]].concat());
    let seeds = dir.join("a.jsonl");
    let (b, summary) = generate(
        &dir,
        "b.jsonl",
        &[
            &args[..],
            &["--seed", "42", "--from", seeds.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(b.len(), 12);
    // The summary's figures are the run's own, seeds aside.
    assert!(summary.contains("kept 12 "), "{summary}");
    assert!(
        summary.contains("), 12 distinct solution shapes,"),
        "{summary}"
    );
    for p in &b {
        assert!(a.iter().all(|q| q.sfen != p.sfen), "{} is a seed", p.sfen);
    }
    let both: Vec<Problem> = a.into_iter().chain(b).collect();
    assert_policy(&both, 3);
}

#[test]
fn the_same_seed_gives_the_same_problems_whatever_the_threads() {
    let dir = scratch("threads");
    let args = ["--plies", "3..7", "--count", "12", "--seed", "5"];
    let one = [&args[..], &["--threads", "1"]].concat();
    let two = [&args[..], &["--threads", "2"]].concat();
    let (a, _) = generate(&dir, "one.jsonl", &one);
    let (b, _) = generate(&dir, "two.jsonl", &two);
    assert_eq!(a, b);
    let (c, _) = generate(
        &dir,
        "other.jsonl",
        &[&args[..4], &["--seed", "6", "--threads", "2"]].concat(),
    );
    assert_ne!(a, c, "another seed, other problems");
}

#[test]
fn merge_drops_only_the_same_position_or_the_same_solution() {
    // Two positions without a mate (a swallow, or a falcon, in hand against a lone
    // phoenix), then the first twice more.
    let records = [
        r#"{"sfen":"3k3/7/7/7/7/7/7 b S 1"}"#,
        r#"{"sfen":"3k3/7/7/7/7/7/7 b F 1"}"#,
        r#"{"sfen":"3k3/7/7/7/7/7/7 b S 1","note":"again"}"#,
        r#"{"sfen":"3k3/7/7/7/7/7/7 b S 1"}"#,
    ];
    let o = common::run_with_input(&["merge", "-", "--out", "-"], &(records.join("\n") + "\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let kept: Vec<String> = json_lines(&o)
        .iter()
        .map(|r| r["sfen"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kept, ["3k3/7/7/7/7/7/7 b S 1", "3k3/7/7/7/7/7/7 b F 1"]);
    assert!(
        stderr(&o).contains("read 4 records from 1 file, kept 2, dropped 2 duplicates"),
        "{}",
        stderr(&o)
    );
    // The benchmark sets hold no position twice: every record is kept, the no-mates too
    // (the held-out set has 55 of its 78 without a mate).
    for (file, n) in [
        ("benches/data/holdout.jsonl", 78),
        ("benches/data/hard.jsonl", 44),
    ] {
        let o = run(&["merge", file, "--out", "-"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(json_lines(&o).len(), n, "{file}: {}", stderr(&o));
    }
    // Both no-mate problems of the classic set are kept.
    let o = run(&["merge", "problems/classic.jsonl", "--out", "-"]);
    let kept = json_lines(&o);
    let nomates = kept.iter().filter(|r| r["moves"].is_null()).count();
    assert_eq!((kept.len(), nomates), (36, 2), "{}", stderr(&o));
}

#[test]
fn merge_keeps_within_the_family_and_shape_limits() {
    let dir = scratch("merge-limits");
    // Two mates in 1 by a crane drop, worked out by hand: Cr*4b in front of the phoenix,
    // guarded by the crane on 4c (which covers 3b and 5b); and Cr*2b diagonally in front of
    // the phoenix in the corner, guarded by the swallow on 2c, the one on 1c covering 1b.
    // Different positions and fine shapes (the drop's square relative to the phoenix), one
    // coarse shape (`Cr*`); the first two records are of one family.
    let records = [
        r#"{"sfen":"3k3/7/3C3/7/7/7/7 b C 1","moves":["C*4b"],"family":"F"}"#,
        r#"{"sfen":"6k/7/5SS/7/7/7/3K3 b C 1","moves":["C*2b"],"family":"F"}"#,
        r#"{"sfen":"6k/7/6S/7/7/7/3K3 b F 1","moves":["F*1b"],"family":"G"}"#,
    ];
    let f = dir.join("in.jsonl");
    std::fs::write(&f, records.join("\n") + "\n").unwrap();
    let merged = |extra: &[&str], name: &str| {
        let out = dir.join(name);
        let mut args = vec!["merge", f.to_str().unwrap(), "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let sfens: Vec<String> = load(&out).into_iter().map(|p| p.sfen).collect();
        (sfens, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (all, _) = merged(&[], "all.jsonl");
    assert_eq!(all.len(), 3, "no limit asked for: all three");
    for (flag, name) in [
        ("--shape-limit", "shape.jsonl"),
        ("--family-limit", "family.jsonl"),
    ] {
        let (some, said) = merged(&[flag, "1"], name);
        assert_eq!(
            some,
            vec![all[0].clone(), all[2].clone()],
            "{flag} 1: the second crane mate goes"
        );
        assert!(said.contains("1 over the family or shape limit"), "{said}");
    }
    // A length range: all three are mates in 1.
    let (one, _) = merged(&["--plies", "1"], "one.jsonl");
    assert_eq!(one, all);
    let (none, said) = merged(&["--plies", "3..9"], "none.jsonl");
    assert!(none.is_empty());
    assert!(said.contains("3 of other lengths"), "{said}");
    // Records longer than the generator builds are filtered too: problems/climbed.jsonl
    // holds problems of 51 and 101 plies.
    let o = run(&[
        "merge",
        "problems/climbed.jsonl",
        "--plies",
        "21..99",
        "--out",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plies: Vec<u64> = json_lines(&o)
        .iter()
        .map(|r| r["plies"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [51]);
    for (range, says) in [
        ("0..5", "lengths start at 1, not 0"),
        ("5..3", "the range 5..3 runs backwards"),
    ] {
        let o = run(&["merge", f.to_str().unwrap(), "--plies", range, "--out", "-"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(says), "{range}: {}", stderr(&o));
    }
    let o = run(&["generate", "--plies", "3..63", "--count", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 61"), "{}", stderr(&o));
    let o = run(&[
        "merge",
        f.to_str().unwrap(),
        "--out",
        "-",
        "--family-limit",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn merge_chooses_by_rating_and_themes() {
    let dir = scratch("merge-choice");
    // The three mates in 1 above, each given a rating and its themes (the second has a final
    // dual: Cr*2b mates too, worked out by verify), and a fourth record with neither, the
    // mate in 7 of tests/cli/stats.rs.
    let records = [
        r#"{"sfen":"3k3/7/3C3/7/7/7/7 b C 1","moves":["C*4b"],"rating":800,"themes":["mateIn1"]}"#,
        r#"{"sfen":"6k/7/5SS/7/7/7/3K3 b C 1","moves":["C*2b"],"rating":1200,"themes":["mateIn1","finalDual"]}"#,
        r#"{"sfen":"6k/7/6S/7/7/7/3K3 b F 1","moves":["F*1b"],"rating":1600,"themes":["mateIn1"]}"#,
        r#"{"sfen":"1k5/2S4/7/FC5/7/7/7 b FRS 1","moves":["F*6b","6a6b","7d6c","6b7a","S*7b","7a6a","R*6b"]}"#,
    ];
    let f = dir.join("in.jsonl");
    std::fs::write(&f, records.join("\n") + "\n").unwrap();
    let merged = |extra: &[&str]| {
        let mut args = vec!["merge", f.to_str().unwrap(), "--out", "-"];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        let moves: Vec<String> = json_lines(&o)
            .iter()
            .map(|r| r["moves"][0].as_str().unwrap().to_string())
            .collect();
        (moves, stderr(&o))
    };
    let (m, said) = merged(&["--rating", "1000..1600"]);
    assert_eq!(m, ["C*2b", "F*1b"], "both ends included");
    assert!(
        said.contains("1 outside the rating or themes asked for"),
        "{said}"
    );
    assert!(
        said.contains("1 without the rating or themes to choose by"),
        "{said}"
    );
    let (m, _) = merged(&["--rating", "800"]);
    assert_eq!(m, ["C*4b"]);
    let (m, _) = merged(&["--themes", "finalDual"]);
    assert_eq!(m, ["C*2b"]);
    let (m, _) = merged(&["--themes", "mateIn1", "--exclude-themes", "finalDual"]);
    assert_eq!(m, ["C*4b", "F*1b"]);
    // Leaving out themes keeps the record that carries none.
    let (m, _) = merged(&["--exclude-themes", "finalDual"]);
    assert_eq!(m, ["C*4b", "F*1b", "F*6b"]);
    for (args, says) in [
        (["--themes", "sacrfice"], "`sacrfice` is not a theme"),
        (["--exclude-themes", "mateIn0"], "`mateIn0` is not a theme"),
        (["--rating", "1600..1000"], "runs backwards"),
        (["--rating", "high"], "`high` is not a rating"),
    ] {
        let mut a = vec!["merge", f.to_str().unwrap(), "--out", "-"];
        a.extend_from_slice(&args);
        let o = run(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let o = run(&[
        "merge",
        f.to_str().unwrap(),
        "--out",
        "-",
        "--themes",
        "mateIn1",
        "--exclude-themes",
        "mateIn1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no record could be kept: `mateIn1` is both asked for"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn shards_are_disjoint_and_merge_drops_duplicates() {
    let dir = scratch("shards");
    let base = ["--plies", "3..5", "--count", "10", "--seed", "8"];
    let (s0, _) = generate(&dir, "s0.jsonl", &[&base[..], &["--shard", "0/2"]].concat());
    let (s1, _) = generate(&dir, "s1.jsonl", &[&base[..], &["--shard", "1/2"]].concat());
    assert_eq!((s0.len(), s1.len()), (10, 10));
    for p in &s0 {
        assert!(s1.iter().all(|q| q.sfen != p.sfen), "{} in both", p.sfen);
    }
    // Shard indices never overlap: K of N draws the candidates ≡ K (mod N).
    for (shard, set) in [(0, &s0), (1, &s1)] {
        for p in set {
            assert_eq!(p.extra["index"].as_u64().unwrap() % 2, shard);
        }
    }
    let merged = dir.join("all.jsonl");
    let s0p = dir.join("s0.jsonl");
    let s1p = dir.join("s1.jsonl");
    let o = run(&[
        "merge",
        s0p.to_str().unwrap(),
        s1p.to_str().unwrap(),
        s0p.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let all = load(&merged);
    assert!(all.len() <= 20 && all.len() >= 10);
    assert_eq!(&all[..10], &s0[..], "the first file's records come first");
    assert!(String::from_utf8_lossy(&o.stderr).contains("dropped"));
    // A record and its mirror image (files and quails swapped) are one problem.
    let mirrored = dir.join("mirror.jsonl");
    let p = &s0[0];
    let mirror_sfen = common::mirror_sfen(&p.sfen);
    assert_ne!(mirror_sfen, p.sfen);
    std::fs::write(
        &mirrored,
        format!(
            "{}\n{}\n",
            serde_json::json!({"sfen": p.sfen}),
            serde_json::json!({"sfen": mirror_sfen})
        ),
    )
    .unwrap();
    let out = dir.join("m2.jsonl");
    let o = run(&[
        "merge",
        mirrored.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(load(&out).len(), 1);
    // merge never overwrites without --force.
    let o = run(&[
        "merge",
        s1p.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(load(&merged), all);
}

#[test]
fn an_existing_file_is_never_overwritten_without_force() {
    let dir = scratch("force");
    let out = dir.join("mine.jsonl");
    std::fs::write(&out, "precious\n").unwrap();
    let args = [
        "generate",
        "--plies",
        "3",
        "--count",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    let o = run(&[&args[..], &["--force"]].concat());
    assert!(o.status.success());
    assert_eq!(load(&out).len(), 2);
}

#[test]
fn min_score_filters() {
    let dir = scratch("score");
    let (problems, _) = generate(
        &dir,
        "s.jsonl",
        &[
            "--plies",
            "3..5",
            "--count",
            "4",
            "--seed",
            "3",
            "--min-score",
            "7.5",
        ],
    );
    assert_eq!(problems.len(), 4);
    for p in problems {
        assert!(p.extra["quality"]["score"].as_f64().unwrap() >= 7.5);
    }
}

/// The destination square of a USI move (`5c4b+` → `4b`, `S*4b` → `4b`).
fn destination(usi: &str) -> &str {
    let m = usi.trim_end_matches('+');
    &m[m.len() - 2..]
}

#[test]
fn rating_and_themes_choose_what_is_kept() {
    let dir = scratch("choice");
    let args = [
        "--plies",
        "3..5",
        "--count",
        "4",
        "--seed",
        "3",
        "--themes",
        "sacrifice",
        "--rating",
        "900..1300",
        "--exclude-themes",
        "promotion",
    ];
    let (problems, said) = generate(&dir, "c.jsonl", &[&args[..], &["--threads", "1"]].concat());
    assert_eq!(problems.len(), 4, "{said}");
    assert!(
        said.contains(" outside the rating or themes asked for,"),
        "{said}"
    );
    for p in &problems {
        let rating = p.extra["rating"].as_f64().unwrap();
        assert!((900.0..=1300.0).contains(&rating), "{}", p.sfen);
        // A sacrifice, seen in the line itself: the defender takes at once the piece an
        // attacker move put down. No promotion: no attacker move ends in `+`.
        let moves = &p.moves;
        assert!(
            (0..moves.len() - 1)
                .step_by(2)
                .any(|i| destination(&moves[i]) == destination(&moves[i + 1])),
            "{}: {moves:?}",
            p.sfen
        );
        assert!(
            moves.iter().step_by(2).all(|m| !m.ends_with('+')),
            "{}",
            p.sfen
        );
        assert_sound_by_brute_force(p);
    }
    // The same problems whatever the thread count.
    let (two, _) = generate(&dir, "c2.jsonl", &[&args[..], &["--threads", "2"]].concat());
    let sfens = |ps: &[Problem]| ps.iter().map(|p| p.sfen.clone()).collect::<Vec<_>>();
    assert_eq!(sfens(&problems), sfens(&two));
    let o = run(&[
        "generate", "--plies", "3", "--count", "1", "--themes", "sacrfice",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`sacrfice` is not a theme"),
        "{}",
        stderr(&o)
    );
    // A choice no problem can meet is refused at once rather than run for ever.
    for (extra, says) in [
        (
            &["--themes", "mateIn5"][..],
            "mateIn5 is 9 plies, outside --plies 3..5",
        ),
        (
            &["--themes", "mateIn2,mateIn3"][..],
            "asks for both mateIn2 and mateIn3",
        ),
        (&["--themes", "finalDual"][..], "give --final-duals allow"),
        (&["--rating", "3000..4000"][..], "off the scale"),
        (
            &["--themes", "sacrifice", "--exclude-themes", "sacrifice"][..],
            "`sacrifice` is both asked for",
        ),
        // The phoenix steps once a defender move: three squares away takes 7 plies.
        (
            &["--themes", "phoenixHunt"][..],
            "`phoenixHunt` needs a mate of at least 7 plies, and the longest asked for is 5 plies",
        ),
        // At most 5 plies + 3 + 2 (the first move a sacrifice and a quiet drop) + 3 + 1.5
        // (every attacker move both) + 16 (a proof of 2^64 nodes) − 0.5 (one piece).
        (
            &["--min-score", "1e300"][..],
            "--min-score 1e300 is above the best score a problem of at most 5 plies can have (30.00",
        ),
    ] {
        let mut args = vec!["generate", "--plies", "3..5", "--count", "1", "--quiet"];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let err = stderr(&o);
        assert!(err.contains("no problem could ever be kept: "), "{err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

#[test]
fn a_sacrifice_in_one_ply_is_refused() {
    // A mate in 1 has no defender move to take the piece: asked by --plies, or by a
    // mateIn1 theme within a longer range.
    for args in [
        &["--plies", "1", "--themes", "sacrifice"][..],
        &["--plies", "1..9", "--themes", "mateIn1,sacrifice"][..],
    ] {
        let mut all = vec!["generate", "--count", "1"];
        all.extend_from_slice(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains(
                "`sacrifice` needs a mate of at least 3 plies, and the longest asked for is 1 ply"
            ),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// `--max-candidates N` evaluates exactly N candidates (not a whole last batch), keeps what
/// a longer run keeps among them, and says, even with `--quiet`, that it stopped short of
/// the count.
#[test]
fn the_candidate_limit_is_exact_and_said() {
    let dir = scratch("candidate-limit");
    let base = ["--plies", "3..7", "--count", "1000", "--seed", "1"];
    let (short, said) = generate(
        &dir,
        "short.jsonl",
        &[&base[..], &["--max-candidates", "110"]].concat(),
    );
    assert!(said.contains("tried 110,"), "{said}");
    assert!(
        said.contains("stopped at the candidate limit (--max-candidates 110): "),
        "{said}"
    );
    assert!(
        said.contains(&format!("{} of 1000 kept", short.len())),
        "{said}"
    );
    let (long, _) = generate(
        &dir,
        "long.jsonl",
        &[&base[..], &["--max-candidates", "400", "--quiet"]].concat(),
    );
    let index = |p: &Problem| p.extra["index"].as_u64().unwrap();
    // 110 candidates end inside the second batch of 64.
    assert!(short.iter().all(|p| index(p) < 110));
    let among_first: Vec<&Problem> = long.iter().filter(|p| index(p) < 110).collect();
    assert!(!short.is_empty() && long.len() > short.len());
    assert_eq!(
        short.iter().map(|p| &p.sfen).collect::<Vec<_>>(),
        among_first.iter().map(|p| &p.sfen).collect::<Vec<_>>()
    );
    let o = run(&[
        &["generate", "--quiet", "--max-candidates", "10"][..],
        &base[..],
    ]
    .concat());
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stderr).starts_with("stopped at the candidate limit"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn bad_arguments_are_named() {
    for (args, needle) in [
        (vec!["--plies", "4", "--count", "1"], "odd"),
        (vec!["--plies", "9..5", "--count", "1"], "runs backwards"),
        (vec!["--plies", "x", "--count", "1"], "not a number"),
        (vec!["--plies", "99", "--count", "1"], "at most"),
        (vec!["--plies", "3", "--count", "0"], "at least 1"),
        (
            vec!["--plies", "3", "--count", "1", "--max-candidates", "0"],
            "at least 1",
        ),
        (
            vec!["--plies", "3", "--count", "1", "--shard", "2/2"],
            "below N",
        ),
        (
            vec!["--plies", "3", "--count", "1", "--shard", "1"],
            "shard",
        ),
    ] {
        let o = run(&[&["generate"][..], &args[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Runs `generate --plies 3 --count 1` with `extra` into a fresh file, and asserts that it
/// fails with exit 2, says each of `says` on standard error and leaves no file behind.
pub(crate) fn generate_refused_leaving_no_file(name: &str, extra: &[&str], says: &[&str]) {
    let dir = scratch(name);
    let out = dir.join("g.jsonl");
    let mut args = vec!["generate", "--plies", "3", "--count", "1"];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(says.iter().all(|w| err.contains(w)), "{args:?}: {err}");
    assert!(!out.exists(), "generate left {} behind", out.display());
}

#[test]
fn a_node_budget_that_solves_nothing_ends_the_run() {
    // One node solves no candidate: rather than draw candidates for ever, the run gives up
    // after the first 100,000 with no mate at all, says why, exits 2 and leaves no file.
    generate_refused_leaving_no_file(
        "no-mates",
        &["--nodes", "1"],
        &["no mate found in the first", "(--nodes 1)"],
    );
}

#[test]
fn an_interrupted_run_leaves_whole_records() {
    let dir = scratch("interrupt");
    let out = dir.join("long.jsonl");
    let child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args([
            "generate",
            "--plies",
            "3..9",
            "--count",
            "100000",
            "--seed",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some problems are written, then press Ctrl-C.
    let start = std::time::Instant::now();
    while std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0) < 2000 {
        assert!(start.elapsed().as_secs() < 60, "nothing written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&o.stderr).contains("interrupted"));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    let records = load(&out);
    assert!(!records.is_empty() && records.len() < 100000);
    // What was written is the start of what the same run writes uninterrupted.
    let again = dir.join("again.jsonl");
    let n = records.len().to_string();
    let o = run(&[
        "generate",
        "--plies",
        "3..9",
        "--count",
        &n,
        "--seed",
        "2",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(load(&again), records);
}

#[test]
fn out_dash_is_standard_output() {
    let dir = scratch("dash");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(["generate", "--plies", "3", "--count", "2", "--seed", "3"])
        .args(["--out", "-"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(!dir.join("-").exists(), "a file named -");
}
