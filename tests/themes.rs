//! Themes and ratings of problems whose features are known by hand: the notes of the
//! classic set (written when each problem was composed) say which show a sacrifice, a
//! promotion, a useless interposition or the swallow-drop-mate rule, and a few positions
//! are worked out move by move.

mod common;

use toritsume::generator::themes::{Features, analyse, rating, swallow_drop_would_mate};
use toritsume::notation::parse_position;
use toritsume::solver::{Solver, SolverConfig};
use toritsume::soundness::verify;

fn themes_of(sfen: &str) -> Vec<String> {
    let mut s = Solver::new(SolverConfig::default()).expect("a table of a few MB");
    let pos = parse_position(sfen).unwrap();
    analyse(&verify(&mut s, &pos, None)).0
}

#[test]
fn a_contact_drop_mate_in_one_has_no_other_theme() {
    // Cr*4b, guarded by the crane on 4c: next to the phoenix, nothing taken, no promotion.
    assert_eq!(themes_of("3k3/7/3C3/7/7/7/7 b C 1"), vec!["mateIn1"]);
}

#[test]
fn a_quail_uncovered_down_a_file() {
    // The crane on 7e steps off the file and the left quail on 7g checks the phoenix on 7a
    // from six squares away: a discovered, long-range check; a drop between them would be
    // taken by the quail with the same mate.
    let t = themes_of("kp5/7/1C5/7/C6/7/L6 b - 1");
    for want in [
        "mateIn1",
        "discoveredCheck",
        "longRange",
        "uselessInterposition",
    ] {
        assert!(t.iter().any(|x| x == want), "{want} not in {t:?}");
    }
    assert!(!t.iter().any(|x| x == "doubleCheck" || x == "sacrifice"));
}

#[test]
fn the_forbidden_swallow_drop_is_seen() {
    // Sw*7b would mate the phoenix on 7a at once: illegal, so the theme is there, and the
    // position is one where Fairy-Stockfish would accept that drop.
    let sfen = "+Flk4/7/1C5/3L3/7/7/7 b S 1";
    assert!(swallow_drop_would_mate(&parse_position(sfen).unwrap()));
    assert!(themes_of(sfen).iter().any(|x| x == "swallowDropAvoided"));
    // Without the swallow in hand, nothing to avoid.
    assert!(!swallow_drop_would_mate(
        &parse_position("+Flk4/7/1C5/3L3/7/7/7 b C 1").unwrap()
    ));
}

#[test]
fn what_the_classic_notes_say_the_themes_say_too() {
    let mut s = Solver::new(SolverConfig::default()).expect("a table of a few MB");
    let mut checked = 0;
    for p in common::load_problems("problems/classic.jsonl") {
        if common::recorded_nomate(&p) {
            continue;
        }
        let note = p.note.clone().unwrap_or_default();
        s.clear_table();
        let (t, _) = analyse(&verify(&mut s, &p.position().unwrap(), None));
        let has = |x: &str| t.iter().any(|y| y == x);
        let n = p.plies.unwrap().div_ceil(2);
        assert!(has(&format!("mateIn{n}")), "{}: {t:?}", p.sfen);
        for (said, theme) in [
            ("sacrifice", "sacrifice"),
            ("promotion", "promotion"),
            ("useless interpositions left out", "uselessInterposition"),
            (
                "would mate at once, which the rules forbid",
                "swallowDropAvoided",
            ),
        ] {
            if note.contains(said) {
                assert!(has(theme), "{}: the note says {said}, themes {t:?}", p.sfen);
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "only {checked} notes checked");
}

#[test]
fn the_rating_rises_with_length_and_proof_size_within_its_scale() {
    let base = Features {
        plies: 7,
        proof_nodes: 1_000,
        checks: 20,
        attacker_moves: 4,
        sacrifices: 0,
        quiet_drops: 0,
    };
    // 600 + 70·3 + 45·log2(1000) + 15·(16/4) = 600 + 210 + 448.5 + 60 = 1318.5 → 1320.
    assert_eq!(rating(&base), 1320);
    let longer = Features {
        plies: 9,
        attacker_moves: 5,
        checks: 25,
        ..base.clone()
    };
    assert!(rating(&longer) > rating(&base));
    let harder = Features {
        proof_nodes: 100_000,
        ..base.clone()
    };
    assert!(rating(&harder) > rating(&base));
    let tiny = Features {
        plies: 1,
        proof_nodes: 1,
        checks: 1,
        attacker_moves: 1,
        ..base.clone()
    };
    assert_eq!(rating(&tiny), 600);
    let sharp = Features {
        sacrifices: 2,
        quiet_drops: 1,
        ..base.clone()
    };
    // Two sacrifices (+100) and a quiet drop (+30).
    assert_eq!(rating(&sharp), 1450);
    // A 31-ply problem with a million-node proof stays below the top of the scale...
    let long = Features {
        plies: 31,
        proof_nodes: 1 << 20,
        checks: 16 * 5,
        attacker_moves: 16,
        ..base.clone()
    };
    // 600 + 70·15 + 45·20 + 15·4 = 2610.
    assert_eq!(rating(&long), 2610);
    // ... which a 61-ply one with 2^30 nodes reaches.
    let huge = Features {
        plies: 61,
        proof_nodes: 1 << 30,
        ..base
    };
    assert_eq!(rating(&huge), 2800);
}
