//! What `export` writes reads back: the pychess-variants records, the EPD lines and the CSV
//! rows of the classic set are solved and verified as the records they came from, a CSV
//! file makes the round trip to records and back unchanged, Fairy-Stockfish's moves are read
//! wherever moves are, and what is not Tori Shogi, or not readable, is named by its line.

use crate::common::{self, json_lines, run, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeMap;
use toritsume::export::puzzle_id;
use toritsume::notation::sfen::write_sfen;
use toritsume::problem::Problem;

const CLASSIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.jsonl");

/// The classic set's mates, by the id `export` gives each.
fn classic_by_id() -> BTreeMap<String, Problem> {
    common::load_problems(CLASSIC)
        .into_iter()
        .filter(|p| !common::recorded_nomate(p))
        .map(|p| (puzzle_id(&p.sfen), p))
        .collect()
}

/// `export --format FORMAT INPUT --out OUT`, checked to succeed: what it printed.
fn export(format: &str, input: &str, out: &str) -> String {
    let o = run(&["export", "--format", format, input, "--out", out]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// `verify --json FILE`'s reports, after checking that it succeeded.
fn verified(file: &std::path::Path) -> Vec<Value> {
    let o = run(&["verify", "--json", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    json_lines(&o)
}

#[test]
fn every_exported_form_verifies_as_the_record_it_came_from() {
    let dir = common::scratch("foreign-all");
    let out = dir.join("x");
    export("all", CLASSIC, out.to_str().unwrap());
    let classic = classic_by_id();

    // pychess-variants: the position from `f` (a phoenix added for the attacker), `_id` and
    // the rest carried to the report, `m` (Fairy-Stockfish's line) not taken for ours.
    let pychess = verified(&out.join("torishogi-pychess.json"));
    assert!(pychess.len() >= 20, "{}", pychess.len());
    let mut ids = Vec::new();
    for r in &pychess {
        let id = r["_id"].as_str().expect("the record's _id carried");
        let p = &classic[id];
        assert_eq!(r["verdict"], "sound", "{r}");
        assert_eq!(r["plies"].as_u64(), p.plies.map(u64::from), "{r}");
        assert_eq!(r["moves"], serde_json::json!(p.moves), "{r}");
        assert_eq!(r["intended"], Value::Null, "{r}");
        assert_eq!(r["v"], "torishogi");
        // Its FEN writes White's hand out, the rest: the convention's problem, as it was.
        assert_eq!(r["defender_hand"], "rest", "{r}");
        ids.push(id.to_string());
    }

    // Exported again, the pychess-variants file is the same, byte for byte: each record keeps
    // its `_id`, so the site's upsert finds the puzzle it has rather than adding a copy.
    let file = out.join("torishogi-pychess.json");
    assert_eq!(
        export("pychess", file.to_str().unwrap(), "-"),
        std::fs::read_to_string(&file).unwrap()
    );

    // EPD: the same puzzles, line for line.
    let epd = verified(&out.join("torishogi-puzzles.epd"));
    assert_eq!(epd.len(), ids.len());
    for (i, (r, id)) in epd.iter().zip(&ids).enumerate() {
        let p = &classic[id];
        assert_eq!(r["verdict"], "sound", "{r}");
        assert_eq!(r["moves"], serde_json::json!(p.moves), "{r}");
        assert_eq!(r["position"], pychess[i]["position"], "{r}");
        assert_eq!(r["intended"], Value::Null, "{r}");
    }

    // CSV: every mate of the set, the position its own (the SFEN column), the recorded main
    // line taken as the intended solution and found to be it.
    let csv = verified(&out.join("torishogi-puzzles.csv"));
    assert_eq!(csv.len(), classic.len());
    for r in &csv {
        let p = &classic[r["puzzle_id"].as_str().expect("PuzzleId carried")];
        assert_eq!(r["verdict"], "sound", "{r}");
        // The problem as solved: White holding the rest.
        let start = write_sfen(&p.start().unwrap());
        assert_eq!(r["position"].as_str(), Some(start.as_str()), "{r}");
        assert_eq!(r["moves"], serde_json::json!(p.moves), "{r}");
        assert_eq!(r["intended"]["moves"], serde_json::json!(p.moves), "{r}");
    }
}

#[test]
fn a_csv_file_makes_the_round_trip_to_records_and_back() {
    let dir = common::scratch("foreign-csv");
    let csv = dir.join("set.csv");
    export("csv", CLASSIC, csv.to_str().unwrap());
    // Records again: position, line and length as the set has them, the rating and themes
    // the export gave (less the two every Lichess mate carries), the id kept.
    let jsonl = dir.join("back.jsonl");
    let o = run(&[
        "merge",
        csv.to_str().unwrap(),
        "--out",
        jsonl.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let back = common::load_problems(&jsonl);
    let classic = classic_by_id();
    assert_eq!(back.len(), classic.len());
    for r in &back {
        let id = r.extra["puzzle_id"].as_str().unwrap();
        let p = &classic[id];
        assert_eq!((&r.sfen, &r.moves, r.plies), (&p.sfen, &p.moves, p.plies));
        assert!(r.extra["rating"].is_u64(), "{}", r.to_json());
        let themes: Vec<&str> = r.extra["themes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let n = p.plies.unwrap().div_ceil(2);
        assert!(
            themes.contains(&format!("mateIn{n}").as_str()),
            "{themes:?}"
        );
        assert!(
            !themes.contains(&"mate") && !themes.contains(&"veryLong"),
            "{themes:?}"
        );
    }
    // And a CSV again, byte for byte the first.
    assert_eq!(
        export("csv", jsonl.to_str().unwrap(), "-"),
        std::fs::read_to_string(&csv).unwrap()
    );
}

#[test]
fn a_csv_file_of_another_tool_is_read_by_its_header() {
    // Columns in another order, quoted fields, Fairy-Stockfish moves, a comment, a blank
    // line, a byte-order mark; the mate in 7 of the README, its line given both ways.
    let dir = common::scratch("foreign-other");
    let csv = dir.join("other.csv");
    std::fs::write(
        &csv,
        "\u{feff}Moves,FEN,Rating,Themes\n\
         # the mate in 7\n\
         \"F@b6 b7b6 a4b5 b6a7 S@a6 a7b7 R@b6\",\"1k5/2S4/7/FC5/7/7/7[FRS] w - - 0 1\",1700,\"mateIn4 sacrifice\"\n\
         \n\
         F*6b 6a6b 7d6c 6b7a S*7b 7a6a R*6b,1k5/2S4/7/FC5/7/7/7[FRS] w - - 0 1,,\n\
         ,,,\n\
         F*6b,,1500,\n\
         S*6b,1k5/2S4/7/FC5/7/7/7[FRS] w - - 0 1,1500,\n",
    )
    .unwrap();
    let o = run(&["verify", "--json", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let reports = json_lines(&o);
    let want = ["F*6b", "6a6b", "7d6c", "6b7a", "S*7b", "7a6a", "R*6b"];
    assert_eq!(reports.len(), 3, "{reports:?}");
    for r in &reports[..2] {
        assert_eq!(r["verdict"], "sound", "{r}");
        assert_eq!(r["moves"], serde_json::json!(want), "{r}");
        assert_eq!(r["intended"]["moves"], serde_json::json!(want), "{r}");
    }
    assert_eq!(reports[0]["origin"], format!("line 3 of {}", csv.display()));
    assert_eq!(reports[0]["rating"], 1700);
    // Its FEN writes White's hand as empty, not the rest: read as Fairy-Stockfish reads it,
    // the problem states that hand (and the mate in 7 is the same).
    assert_eq!(reports[0]["defender_hand"], "given");
    assert_eq!(reports[1]["origin"], format!("line 5 of {}", csv.display()));
    // A row whose intended line is not the solution is a flawed problem, not an error.
    assert_eq!(reports[2]["verdict"], "flawed", "{}", reports[2]);
    // The row with no position is named by its line; the blank row is skipped.
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "line 7 of {}: the row has no position: its `FEN` and `SFEN` columns are empty",
            csv.display()
        )),
        "{err}"
    );
    assert!(!err.contains("line 6 of"), "{err}");
}

#[test]
fn what_is_not_tori_shogi_or_not_readable_is_named_by_its_line() {
    let dir = common::scratch("foreign-bad");
    let file = dir.join("mixed.json");
    std::fs::write(
        &file,
        concat!(
            r##"{"_id":"T0001","v":"torishogi","f":"1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w 0 1","m":"F@b6,b7b6,a4b5,b6a7,S@a6,a7b7,R@b6","t":"mate","e":"#4","s":"","uploaded_by":"me"}"##,
            "\n",
            r#"{"_id":"T0002","v":"minishogi","f":"rbsgk/4p/5/P4/KGSBR[-] w 0 1"}"#,
            "\n",
            "1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w - - 0 1;variant shogi;bm F@b6\n",
            "1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w - - 0 1;variant torishogi;bm F@b6;eval #4\n",
            r#"{"f":7}"#,
            "\n",
        ),
    )
    .unwrap();
    let o = run(&["solve", "--json", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let solved = json_lines(&o);
    assert_eq!(solved.len(), 2);
    for r in &solved {
        assert_eq!(r["status"], "mate", "{r}");
        assert_eq!(r["plies"], 7, "{r}");
    }
    // The pychess record's fields come along, so that results join back to it.
    assert_eq!(solved[0]["_id"], "T0001");
    assert_eq!(solved[0]["uploaded_by"], "me");
    let err = stderr(&o);
    let name = file.display();
    for want in [
        format!("line 2 of {name}: a puzzle of `minishogi`, not of Tori Shogi (`torishogi`)"),
        format!("line 3 of {name}: a puzzle of `shogi`, not of Tori Shogi (`torishogi`)"),
        format!("line 5 of {name}: field `f` must be a string (an SFEN or FEN)"),
    ] {
        assert!(err.contains(&want), "{want}\nnot in\n{err}");
    }
}

#[test]
fn fairy_stockfish_moves_are_read_wherever_moves_are() {
    // The pychess-variants record of the README's mate in 7: its line checked as the
    // intended solution, and played on with `moves`.
    let fen = "1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w 0 1";
    let o = run(&[
        "verify",
        fen,
        "--solution",
        "F@b6,b7b6,a4b5,b6a7,S@a6,a7b7,R@b6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Intended solution: the main line"),
        "{}",
        stdout(&o)
    );
    let o = run(&["show", "--json", &format!("{fen} moves F@b6 b7b6 a4b5")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // By hand: the falcon dropped on 6b is taken by the phoenix, the falcon on 7d goes to 6c.
    assert_eq!(v["sfen"], "7/1kS4/1F5/1C5/7/7/6K w RSf3c4p2lr14s 4");
    // A square off the 7×7 board is no move.
    let o = run(&["verify", fen, "--solution", "F@b8"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("F@b8: a square off the 7×7 board"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_problem_stating_the_defenders_hand_reads_back_as_that_problem() {
    // README's example: White holds nothing, and LQ*1c mates; holding the rest, White would
    // interpose on the file, and there is no mate at all.
    let dir = common::scratch("foreign-given");
    let record = dir.join("given.jsonl");
    std::fs::write(
        &record,
        r#"{"sfen":"6k/5S1/5S1/7/7/7/7 b L 1","defender_hand":"given","plies":1,"moves":["L*1c"]}"#,
    )
    .unwrap();
    let out = dir.join("x");
    export("all", record.to_str().unwrap(), out.to_str().unwrap());
    // Each form writes White's empty hand in its FEN, which is not the rest: read back, the
    // problem states its defender's hand again.
    for file in [
        "torishogi-pychess.json",
        "torishogi-puzzles.epd",
        "torishogi-puzzles.csv",
    ] {
        let r = &verified(&out.join(file))[0];
        assert_eq!(r["defender_hand"], "given", "{file}: {r}");
        assert_eq!(r["verdict"], "sound", "{file}: {r}");
        assert_eq!(r["moves"], serde_json::json!(["L*1c"]), "{file}: {r}");
    }
    // The CSV made a record again says so, and exports to the same row.
    let csv = out.join("torishogi-puzzles.csv");
    let back = dir.join("back.jsonl");
    let o = run(&[
        "merge",
        csv.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p = &common::load_problems(&back)[0];
    assert_eq!(
        p.defender_hand,
        Some(toritsume::solver::DefenderHand::Given)
    );
    assert_eq!(
        export("csv", back.to_str().unwrap(), "-"),
        std::fs::read_to_string(&csv).unwrap()
    );
}
