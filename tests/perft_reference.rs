//! Perft against Fairy-Stockfish's counts (tests/data/perft.tsv, `nodes` column: the rules'
//! count, swallow-drop mates excluded), read from both the SFEN and the FEN column.
//! Rows above [`EVERYDAY_LIMIT`] nodes run only with `--ignored` (in release, by `.ci/run`).

mod common;

use toritsume::notation::parse_position;
use toritsume::rules::perft::perft_parallel;

const EVERYDAY_LIMIT: u64 = 50_000_000;

fn check_rows(heavy: bool) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, sfen, fen, depth, nodes) in common::perft_rows() {
        if (nodes > EVERYDAY_LIMIT) != heavy {
            continue;
        }
        for (form, text) in [("sfen", &sfen), ("fen", &fen)] {
            // The heavy rows are slow enough that one form suffices; the light ones check both.
            if heavy && form == "fen" {
                continue;
            }
            let pos = parse_position(text).unwrap_or_else(|e| panic!("{name} {form}: {e}"));
            let got = perft_parallel(&pos, depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{name} ({form}) depth {depth}: {got}, expected {nodes}"
                ));
            }
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn perft_matches_reference() {
    check_rows(false);
}

#[test]
#[ignore = "about a billion nodes in all; run in release by .ci/run"]
fn perft_matches_reference_heavy() {
    check_rows(true);
}

#[test]
fn sfen_and_fen_columns_are_the_same_position() {
    for (name, sfen, fen, _, _) in common::perft_rows() {
        let a = parse_position(&sfen).unwrap();
        let b = parse_position(&fen).unwrap();
        assert_eq!(a.key(), b.key(), "{name}");
        assert_eq!(a.to_setup().board, b.to_setup().board, "{name}");
    }
}
