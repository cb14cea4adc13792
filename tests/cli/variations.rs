//! `solve --variations`: the other defences along the main line, each with its mate, as
//! text and JSON, worked out by hand on the README's mate in 7; and what a limit leaves of
//! them.

use crate::common::{run, stdout};

/// The README's mate in 7: F*6b 6a6b 7d6c 6b7a S*7b 7a6a R*6b. At ply 4 the phoenix on 6b
/// may also go to 6a (5a and 5c are the swallow's and the falcon's, 7b the falcon's, and the
/// falcon on 6c is guarded by the crane behind it); S*6b drives it back to 7a and a right
/// quail dropped on file 7 mates (on 7b the falcon guards it). At plies 2 and 6 the phoenix
/// has one move only.
const MATE_IN_7: &str = "1k5/2S4/7/FC5/7/7/7 b FRS 1";

#[test]
fn the_other_defence_of_the_mate_in_seven_in_text() {
    let o = run(&["solve", "--variations", MATE_IN_7]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let list: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Variations"))
        .collect();
    assert_eq!(list.len(), 2, "{out}");
    assert!(
        list[1].starts_with("  ply 4: 2... Ph-6a 3. Sw*6b Ph-7a 4. RQ*7")
            && list[1].ends_with("(3 plies after the defence)"),
        "{out}"
    );
    // Without the flag the report has none.
    assert!(!stdout(&run(&["solve", MATE_IN_7])).contains("Variations"));
}

#[test]
fn the_other_defence_of_the_mate_in_seven_in_json() {
    let o = run(&["solve", "--json", "--variations", MATE_IN_7]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["variations_complete"], true);
    let list = v["variations"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{v}");
    let x = &list[0];
    assert_eq!(
        (&x["ply"], &x["move"], &x["move_hodges"], &x["plies"]),
        (
            &serde_json::json!(4),
            &serde_json::json!("6b6a"),
            &serde_json::json!("Ph-6a"),
            &serde_json::json!(3)
        )
    );
    let moves: Vec<&str> = x["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves[..2], ["S*6b", "6a7a"]);
    assert!(moves[2].starts_with("R*7"), "{moves:?}");
    assert_eq!(
        (&x["complete"], &x["spare"]),
        (&serde_json::json!(true), &serde_json::json!(""))
    );
    // Without the flag the fields are left out.
    let o = run(&["solve", "--json", MATE_IN_7]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(v.get("variations").is_none());
}

#[test]
fn a_mate_in_one_and_a_position_without_a_mate() {
    // The crane dropped on 4b mates; the phoenix on 4a has no move before it.
    let out = stdout(&run(&["solve", "--variations", "3k3/7/3C3/7/7/7/7 b C 1"]));
    assert!(
        out.contains("Variations: none (no other defence anywhere on the main line)"),
        "{out}"
    );
    let out = stdout(&run(&["solve", "--variations", "7/7/7/3k3/7/7/7 b S 1"]));
    assert!(
        out.contains("No mate") && !out.contains("Variations"),
        "{out}"
    );
}

/// A node limit that the solve stays within but the variations do not: those read before
/// it are given in full (a start of the full list), and the text says where the reading
/// stopped and why.
#[test]
fn a_limit_stops_the_variations_and_says_where() {
    // A mate in 99 plies (a problem of problems/climbed.jsonl before the useless-interposition
    // rule was settled; cooked since).
    let sfen = "c1lcc+s1/1+S1RS1k/1sF+Sp1s/2+s+F1P1/+SL2Sss/P2SPR1/+s1S1+sC1 b S 1";
    let full = |extra: &[&str]| {
        let mut args = vec!["solve", "--json", "--threads", "1", "--variations"];
        args.extend_from_slice(extra);
        args.push(sfen);
        let o = run(&args);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v
    };
    let all = full(&[]);
    assert_eq!(all["variations_complete"], true);
    let cut = full(&["--nodes", "3000000"]);
    assert_eq!(
        (&cut["status"], &cut["complete"]),
        (&"mate".into(), &true.into())
    );
    assert_eq!(cut["variations_complete"], false);
    assert_eq!(cut["variations_stopped_by"], "nodes");
    assert!(all.get("variations_stopped_by").is_none());
    let (all, cut) = (
        all["variations"].as_array().unwrap(),
        cut["variations"].as_array().unwrap(),
    );
    assert!(cut.len() < all.len() && cut[..] == all[..cut.len()]);
    let o = run(&[
        "solve",
        "--threads",
        "1",
        "--nodes",
        "3000000",
        "--variations",
        sfen,
    ]);
    let out = stdout(&o);
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("(variations from ply ")
            && out.contains("on not read: the node limit (--nodes) was reached)"),
        "{out}"
    );
}

#[test]
fn verify_gives_them_too() {
    let o = run(&["verify", "--json", "--variations", MATE_IN_7]);
    assert_eq!(o.status.code(), Some(0), "sound");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdict"], "sound");
    let list = v["variations"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{v}");
    assert_eq!(
        (&list[0]["ply"], &list[0]["move"]),
        (&4.into(), &"6b6a".into())
    );
    let out = stdout(&run(&["verify", "--variations", MATE_IN_7]));
    assert!(
        out.contains("  ply 4: 2... Ph-6a 3. Sw*6b Ph-7a 4. RQ*7"),
        "{out}"
    );
}
