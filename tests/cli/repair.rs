//! `verify --repair`: a sound problem with a defender piece taken off is cooked, and the
//! repairs of the cooked one include putting the piece back; every repair listed is a sound
//! problem with the same solution when verified on its own.

use crate::common::{run, stderr, stdout};

/// A sound mate in 9 of `problems/generated.jsonl`, and the same without White's crane on
/// 7c: then `7d7a` (the left quail taking the square the crane guarded) mates in 9 as well.
const SOUND: &str = "1r5/1k5/c6/LF2P2/7/7/7 b FLR 1";
const COOKED: &str = "1r5/1k5/7/LF2P2/7/7/7 b FLR 1";

#[test]
fn the_piece_taken_off_is_found_again_and_every_repair_is_sound() {
    let o = run(&["verify", "--json", SOUND]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sound: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let o = run(&["verify", "--json", "--repair", COOKED]);
    // Exit 1: the problem itself is not sound.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "cooked");
    assert_eq!(v["cooks"][0]["move"], "7d7a");
    assert_eq!(
        v["moves"], sound["moves"],
        "the cooked problem keeps the solution"
    );
    let r = &v["repairs"];
    assert_eq!(r["sought"], true);
    assert_eq!(r["complete"], true);
    // 44 empty squares: a crane, a pheasant or a goose on each, a swallow on all but
    // rank g; three board pieces and three hand pieces of Black's taken away; the four
    // board pieces but the phoenix moved to an empty square, save the 12 moves that would
    // leave White in check (worked out in `soundness::repair`'s own test): 175 + 164.
    assert_eq!(r["tried"], 339);
    let found = r["found"].as_array().unwrap();
    let crane = found
        .iter()
        .find(|f| f["change"] == "added" && f["square"] == "7c" && f["piece"] == "c")
        .unwrap_or_else(|| panic!("the crane on 7c: {r}"));
    assert_eq!(crane["position"], SOUND);
    assert_eq!(crane["description"], "White Cr put on 7c");
    for f in found {
        let p = f["position"].as_str().unwrap();
        let o = run(&["verify", "--json", p]);
        assert_eq!(o.status.code(), Some(0), "{p}: {}", stdout(&o));
        let w: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(w["verdict"], "sound", "{p}");
        assert_eq!(w["moves"], sound["moves"], "{p}");
    }
    // The text names the same repairs.
    let o = run(&["verify", "--repair", COOKED]);
    let text = stdout(&o);
    assert!(
        text.contains(&format!("  White Cr put on 7c: {SOUND}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Repairs (single changes after which the problem is sound with this solution): {} of 339 changes",
            found.len()
        )),
        "{text}"
    );
}

#[test]
fn nothing_is_sought_for_a_sound_problem_or_one_without_a_mate() {
    let o = run(&["verify", "--repair", SOUND]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Repairs: none needed: the problem is sound\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["verify", "--repair", "--json", "3k3/7/7/7/7/7/7 b S 1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "nomate");
    assert_eq!(v["repairs"]["sought"], false);
}

#[test]
fn the_intended_solution_is_the_one_kept() {
    // The README's cooked mate in 5, its intended line given: the spare swallow, which
    // also gives the cook, comes out of the hand.
    let o = run(&[
        "verify",
        "--repair",
        "--json",
        "--solution",
        "F*2c 1c2d C*2e 2d1e 2c1b+",
        "7/7/6k/4C2/7/7/7 b FCS 1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let found = v["repairs"]["found"].as_array().unwrap();
    let descriptions: Vec<&str> = found
        .iter()
        .map(|f| f["description"].as_str().unwrap())
        .collect();
    assert_eq!(descriptions, ["one Sw out of the hand"], "{v}");
    assert_eq!(found[0]["position"], "7/7/6k/4C2/7/7/7 b FC 1");
}

#[test]
fn the_repairs_are_the_same_whatever_the_table_and_the_threads() {
    let repairs = |extra: &[&str]| {
        let mut args = vec!["verify", "--json", "--repair"];
        args.extend_from_slice(extra);
        args.push(COOKED);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["repairs"].clone()
    };
    let one = repairs(&["--threads", "1"]);
    // Node counts included: each change is verified on a table of its own.
    assert_eq!(repairs(&["--threads", "2", "--hash", "1"]), one);
    assert_eq!(repairs(&["--hash", "64"]), one);
}
