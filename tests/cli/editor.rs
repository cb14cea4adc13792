//! `editor`: the page it writes opens on the position given, refuses a bad one and never
//! overwrites a file unasked; in Chromium a person sets up the README's mate in 7 on it, and
//! the SFEN the page gives solves as that problem does.

use crate::common::{run, stderr, stdout};
use crate::front_ends::{drive_in_chromium, kept_screenshot};
use rand::{RngExt, SeedableRng};

/// `n` SFENs of pieces dropped at random on the board (both phoenixes most of the time, up
/// to ten other pieces of either side, promoted or not), either side to move: many are
/// impossible, the side not to move being in check, a swallow standing on its last rank,
/// three swallows on a file or a phoenix missing or doubled.
fn random_placements(n: usize) -> Vec<String> {
    // The ranging pieces (quails and eagles) more often than the game holds them, as their
    // checks from afar are the likeliest to be misjudged.
    const KINDS: [&str; 12] = [
        "F", "C", "P", "L", "R", "S", "S", "+F", "+S", "L", "R", "+F",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261205);
    (0..n)
        .map(|_| {
            // Each square: empty, or a piece as SFEN writes it (`K`, `+f`).
            let mut board: Vec<Option<String>> = vec![None; 49];
            let mut pieces: Vec<String> = Vec::new();
            for phoenix in ["K", "k"] {
                for _ in 0..[1, 1, 1, 1, 1, 1, 0, 2][rng.random_range(0..8)] {
                    pieces.push(phoenix.to_string());
                }
            }
            for _ in 0..rng.random_range(0..=10) {
                let kind = KINDS[rng.random_range(0..KINDS.len())];
                pieces.push(if rng.random_range(0..2) == 1 {
                    kind.to_lowercase()
                } else {
                    kind.to_string()
                });
            }
            for p in pieces {
                let empty: Vec<usize> = (0..49).filter(|&i| board[i].is_none()).collect();
                board[empty[rng.random_range(0..empty.len())]] = Some(p);
            }
            let rows: Vec<String> = board
                .chunks(7)
                .map(|row| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for x in row {
                        match x {
                            None => empty += 1,
                            Some(p) => {
                                if empty > 0 {
                                    s.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                s.push_str(p);
                            }
                        }
                    }
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                    }
                    s
                })
                .collect();
            let side = if rng.random_range(0..2) == 0 {
                'b'
            } else {
                'w'
            };
            format!("{} {side} - 1", rows.join("/"))
        })
        .collect()
}

#[test]
fn the_page_opens_on_the_position_given() {
    let o = run(&[
        "editor",
        "--out",
        "-",
        "1k5/2SS3/P6/1C5/7/7/7",
        "b",
        "FRS",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains(r#""sfen":"1k5/2SS3/P6/1C5/7/7/7 b FRS 1""#));
    // Without a position: White's phoenix alone.
    let o = run(&["editor", "--letters", "--out", "-"]);
    let page = stdout(&o);
    assert!(page.contains(r#""sfen":"3k3/7/7/7/7/7/7 b - 1""#));
    assert!(page.contains(r#""letters":true"#));
}

#[test]
fn a_bad_position_or_an_existing_file_is_refused() {
    let o = run(&["editor", "--out", "-", "1k5/2SS3/P6/1C5/7/7 b FRS 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("board field"), "{}", stderr(&o));
    let dir = crate::common::scratch("editor");
    let page = dir.join("editor.html");
    std::fs::write(&page, "mine").expect("a file");
    let o = run(&["editor", "--out", page.to_str().expect("a path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&page).expect("the file"), "mine");
    let o = run(&["editor", "--force", "--out", page.to_str().expect("a path")]);
    assert!(o.status.success());
    assert!(
        std::fs::read_to_string(&page)
            .expect("the page")
            .contains("position editor")
    );
}

/// The main line `solve --json` gives for `args`.
fn solved(args: &[&str]) -> (u64, Vec<String>) {
    let o = run(&[&["solve", "--json"], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let moves = v["moves"].as_array().expect("moves");
    (
        v["plies"].as_u64().expect("a mate"),
        moves
            .iter()
            .map(|m| m.as_str().expect("a move").to_string())
            .collect(),
    )
}

#[test]
#[ignore = "needs chromium, and node with tests/browser's packages; .ci/run installs them"]
fn a_person_sets_up_a_problem_in_the_editor_in_chromium() {
    let dir = crate::common::scratch("editor-chromium");
    let page = dir.join("editor.html");
    let o = run(&[
        "editor",
        "--out",
        page.to_str().expect("a path"),
        "1k5/2SS3/P6/1C5/7/7/7 b FRS 1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let positions = random_placements(600);
    std::fs::write(dir.join("positions.txt"), positions.join("\n")).expect("the positions");
    let said = drive_in_chromium("editor.mjs", &page, &dir);
    assert!(said.contains("ok: no errors on the way"), "{said}");
    let given = |prefix: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("the script gave no `{prefix}` line:\n{said}"))
            .to_string()
    };
    // The README's mate in 7, its solution worked out by hand: F*6b 6a6b 7d6c 6b7a S*7b
    // 7a6a R*6b.
    let line = ["F*6b", "6a6b", "7d6c", "6b7a", "S*7b", "7a6a", "R*6b"];
    assert_eq!(
        solved(&[&given("sfen: ")]),
        (7, line.map(String::from).to_vec())
    );
    // White's hand written out as given is the rest, so the same problem.
    assert_eq!(
        solved(&["--defender-hand", "given", &given("given: ")]),
        (7, line.map(String::from).to_vec())
    );
    // The page finds a position legal exactly when the program reads it, and where the
    // program names what is impossible, the page names it too (among what else it finds).
    let mut impossible = 0;
    let mut in_check = 0;
    for sfen in &positions {
        let page_said = said
            .lines()
            .find_map(|l| l.strip_prefix(&format!("position: {sfen} => ")))
            .unwrap_or_else(|| panic!("the page judged no `{sfen}`"));
        match toritsume::notation::parse_position(sfen) {
            Ok(_) => assert_eq!(page_said, "legal", "{sfen}"),
            Err(e) => {
                impossible += 1;
                let reason = e.to_string();
                let reason = reason
                    .strip_prefix("impossible position: ")
                    .unwrap_or(&reason);
                in_check += usize::from(reason.ends_with("is in check"));
                assert!(
                    page_said.split(" | ").any(|w| w == reason),
                    "{sfen}: the program says `{reason}`, the page `{page_said}`"
                );
            }
        }
    }
    assert!(
        (120..480).contains(&impossible) && in_check >= 40,
        "{impossible} of 600 impossible, {in_check} for a check: the sample should hold both \
         kinds, and checks"
    );
    for shot in ["editor-desktop.png", "editor-phone.png"] {
        kept_screenshot(&dir, shot);
    }
}
