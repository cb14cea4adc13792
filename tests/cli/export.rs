//! `toritsume export`: the CSV and SFEN forms of the classic set, nothing overwritten, bad
//! options named; and (heavy, needs Python's `pyffish`, installed by `.ci/run`) every
//! pychess and EPD record checked by Fairy-Stockfish itself, and `problems/export/` up to
//! date with the problem files.

use crate::common::{self, run, stderr, stdout};
use std::path::Path;

const CLASSIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.jsonl");

#[test]
fn csv_rows_hold_what_the_records_say() {
    let o = run(&["export", "--format", "csv", CLASSIC, "--out", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,\
             OpeningTags,Plies,SFEN"
        )
    );
    let records = common::load_problems(CLASSIC);
    let mut rows = 0;
    for line in lines {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(cols.len(), 12, "{line}");
        let r = records
            .iter()
            .find(|r| r.sfen == cols[11])
            .expect("the SFEN of a record");
        assert_eq!(cols[0].len(), 5);
        assert_eq!(cols[2], r.moves.join(" "));
        assert_eq!(cols[10], r.plies.unwrap().to_string());
        let rating: u32 = cols[3].parse().unwrap();
        assert!((600..=2800).contains(&rating));
        let n = r.plies.unwrap().div_ceil(2);
        let themes: Vec<&str> = cols[7].split(' ').collect();
        assert!(themes.contains(&format!("mateIn{n}").as_str()), "{line}");
        // Lichess's own: `mate`, and the length by the solver's moves.
        let length = match n {
            1 => "oneMove",
            2 => "short",
            3 => "long",
            _ => "veryLong",
        };
        assert!(themes.contains(&"mate"), "{line}");
        assert!(themes.contains(&length), "{line}");
        let lengths = ["oneMove", "short", "long", "veryLong"];
        assert_eq!(
            themes.iter().filter(|t| lengths.contains(t)).count(),
            1,
            "{line}"
        );
        assert!(cols[1].contains('[') && cols[1].contains(" w "), "{line}");
        rows += 1;
    }
    // Every problem but the two without a mate.
    assert_eq!(rows, records.len() - 2);
    assert!(
        stderr(&o).contains("csv: 34 written, 2 skipped"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sfen_lines_and_no_overwrite() {
    let dir = common::scratch("export");
    let out = dir.join("set.sfen");
    let o = run(&[
        "export",
        "--format",
        "sfen",
        CLASSIC,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 34);
    assert!(text.lines().all(|l| l.split(' ').count() == 4));
    // Again without --force: refused, the file untouched.
    let o = run(&[
        "export",
        "--format",
        "csv",
        CLASSIC,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // `--format all` writes a directory: a file there is named and left as it was, even
    // with --force, and standard output is refused.
    for force in [false, true] {
        let mut args = vec!["export", "--format", "all", CLASSIC, "--out"];
        args.push(out.to_str().unwrap());
        if force {
            args.push("--force");
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("set.sfen is not a directory"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    }
    let o = run(&["export", "--format", "all", CLASSIC, "--out", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--out DIR"), "{}", stderr(&o));
    assert!(!Path::new("-").exists());
}

#[test]
fn several_files_are_exported_in_order_and_named_in_messages() {
    let dir = common::scratch("export-files");
    let bad = dir.join("bad.jsonl");
    // An unreadable position, then a sound mate in 1 whose recorded line cannot be played
    // (no piece on 1a).
    std::fs::write(
        &bad,
        "{\"sfen\": \"7/7/7 b - 1\"}\n\
         {\"sfen\": \"4pk1/5l1/3C2F/7/7/7/7 b C 1\", \"plies\": 1, \"moves\": [\"1a1b\"]}\n",
    )
    .unwrap();
    let o = run(&[
        "export",
        "--format",
        "sfen",
        CLASSIC,
        bad.to_str().unwrap(),
        CLASSIC,
        "--out",
        "-",
    ]);
    // Written all the same, but the unreadable records fail the run.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    // The 34 mates of the classic set twice, in file order; the bad records skipped and
    // named by their file and line.
    assert_eq!(lines.len(), 68);
    assert_eq!(lines[..34], lines[34..]);
    assert!(
        stderr(&o).contains(&format!("line 1 of {}: skipped", bad.display())),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(&format!(
            "line 2 of {}: skipped: moves: move 1 `1a1b`: no piece on 1a",
            bad.display()
        )),
        "{}",
        stderr(&o)
    );
    // The closing count groups the reasons by kind, the commonest first: the classic
    // set's two problems without a mate, twice, then the two bad records.
    assert!(
        stderr(&o).contains(
            "sfen: 68 written, 6 skipped\n  4 × the problem is nomate, not sound\n  \
             2 × a record that cannot be read, or claims what is not so (its line says which)\n"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn all_formats_name_each_record_left_out() {
    // The classic set: its two problems without a mate are skipped everywhere; line 31's
    // mate has a swallow-drop mate beside its first move, so Fairy-Stockfish's rules keep it
    // out of the pychess and EPD files only (the CSV has it).
    let dir = common::scratch("export-all-classic");
    let out = dir.join("export");
    let o = run(&[
        "export",
        "--format",
        "all",
        CLASSIC,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for line in [
        format!("line 35 of {CLASSIC}: skipped: the problem is nomate, not sound"),
        format!("line 36 of {CLASSIC}: skipped: the problem is nomate, not sound"),
        format!(
            "line 31 of {CLASSIC}: left out of the pychess and EPD files: at ply 1 a swallow \
             drop would mate, which Fairy-Stockfish allows"
        ),
    ] {
        assert!(err.lines().any(|l| l == line), "{line}\n{err}");
    }
    assert!(
        err.contains(
            "torishogi-puzzles.csv: 34 written, 2 skipped\n  2 × the problem is nomate, not sound\n"
        ),
        "{err}"
    );
    let csv = std::fs::read_to_string(out.join("torishogi-puzzles.csv")).unwrap();
    let epd = std::fs::read_to_string(out.join("torishogi-puzzles.epd")).unwrap();
    let sfen31 = common::load_problems(CLASSIC)[30].sfen.clone();
    assert!(csv.contains(&sfen31), "line 31 is in the CSV");
    assert_eq!(epd.lines().count() + 7, csv.lines().count() - 1, "{err}");

    // The dataset card says what the directory holds, each count the files' own.
    let card = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(card.starts_with("---\n"), "front matter first");
    assert!(card.contains("  - split: train\n    path: torishogi-puzzles.csv\n---\n"));
    assert!(card.contains("size_categories:\n- n<1K\n"));
    assert!(card.contains("\n34 mate problems (tsume) of Tori Shogi"));
    assert!(card.contains("| `torishogi-puzzles.csv` | 34 |"));
    assert!(card.contains(&format!(
        "| `torishogi-puzzles.epd` | {} |",
        epd.lines().count()
    )));
    assert!(card.contains("  - 2: the problem is nomate, not sound\n"));
    assert!(card.contains("`classic.jsonl` (36 records)"));
    // The lengths table: per length, the problems of the CSV and of that length's SFEN
    // file, and their mean rating worked out from the CSV's Rating column.
    let mut by_len: std::collections::BTreeMap<u32, Vec<u32>> = Default::default();
    for row in csv.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        by_len
            .entry(cols[10].parse().unwrap())
            .or_default()
            .push(cols[3].parse().unwrap());
    }
    assert_eq!(by_len.len(), 8, "1 to 15 plies");
    for (len, ratings) in &by_len {
        let sfen = std::fs::read_to_string(out.join(format!("sfen/mate{len}.sfen"))).unwrap();
        assert_eq!(sfen.lines().count(), ratings.len());
        let mean = (ratings.iter().sum::<u32>() as f64 / ratings.len() as f64).round();
        let row = format!("\n| {len} | {} | {mean} |\n", ratings.len());
        assert!(card.contains(&row), "{row}\n{card}");
    }
}

#[test]
fn unreadable_records_are_named_and_fail_the_run_while_the_rest_is_written() {
    let dir = common::scratch("export-bad");
    let f = dir.join("mixed.jsonl");
    let first = std::fs::read_to_string(CLASSIC).unwrap();
    let first = first.lines().next().unwrap();
    std::fs::write(&f, format!("{first}\n{{\"sfen\":\"kk\"}}\nnot json\n")).unwrap();
    let out = dir.join("set.csv");
    let o = run(&[
        "export",
        "--format",
        "csv",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("line 2 of "), "{err}");
    assert!(err.contains("line 3 of "), "{err}");
    assert!(err.contains("csv: 1 written, 2 skipped"), "{err}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        csv.lines().count(),
        2,
        "the header and the one readable record"
    );
    // A problem skipped for what it is (the classic set's two no-mates) is no error.
    let o = run(&["export", "--format", "csv", CLASSIC, "--out", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 skipped"), "{}", stderr(&o));
}

#[test]
fn bad_options_are_named() {
    let o = run(&["export", "--format", "pgn", CLASSIC, "--out", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'pgn'")
            && stderr(&o).contains("[possible values: pychess, csv, epd, sfen, all]"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "export",
        "--format",
        "pychess",
        "--attacker-phoenix",
        "9z",
        CLASSIC,
        "--out",
        "-",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`9z`"), "{}", stderr(&o));
}

fn check_with_pyffish(files: &[&Path]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/check_fairy.py");
    let o = std::process::Command::new("python3")
        .arg(script)
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "Fairy-Stockfish refuses some records (pip install pyffish if it is missing):\n{}{}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
#[ignore = "needs pyffish; run by .ci/run"]
fn fairy_stockfish_accepts_every_exported_puzzle() {
    let dir = common::scratch("export-fairy");
    let pychess = dir.join("classic.ndjson");
    let epd = dir.join("classic.epd");
    for (format, out) in [("pychess", &pychess), ("epd", &epd)] {
        let o = run(&[
            "export",
            "--format",
            format,
            CLASSIC,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(std::fs::read_to_string(&pychess).unwrap().lines().count() >= 25);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/export");
    check_with_pyffish(&[
        &pychess,
        &epd,
        &shipped.join("torishogi-pychess.json"),
        &shipped.join("torishogi-puzzles.epd"),
    ]);
}

#[test]
#[ignore = "exports the whole shipped set; run by .ci/run"]
fn the_shipped_exports_are_up_to_date() {
    let dir = common::scratch("export-all");
    let out = dir.join("export");
    let generated = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/generated.jsonl");
    let long = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/long.jsonl");
    let o = run(&[
        "export",
        "--format",
        "all",
        generated,
        long,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/export");
    let mut files = Vec::new();
    for sub in ["", "sfen"] {
        for e in std::fs::read_dir(shipped.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p.strip_prefix(&shipped).unwrap().to_path_buf());
            }
        }
    }
    let mut made = 0;
    for sub in ["", "sfen"] {
        made += std::fs::read_dir(out.join(sub))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().is_file())
            .count();
    }
    // The guide shows this command's closing counts for the pychess and CSV files.
    let readme = crate::readme::readme();
    let err = stderr(&o);
    let counts: Vec<&str> = err
        .lines()
        .skip_while(|l| !l.starts_with("torishogi-pychess.json: "))
        .take_while(|l| !l.starts_with("torishogi-puzzles.epd: "))
        .collect();
    assert!(counts.len() >= 3, "{err}");
    assert!(
        readme.contains(&counts.join("\n")),
        "the export example of README.md or docs/GUIDE.md should show:\n{}",
        counts.join("\n")
    );
    assert_eq!(files.len(), made, "files in problems/export");
    for f in files {
        let want = std::fs::read(out.join(&f)).unwrap();
        let have = std::fs::read(shipped.join(&f)).unwrap();
        assert!(
            want == have,
            "problems/export/{} is out of date: run the export command in the README",
            f.display()
        );
    }
}
