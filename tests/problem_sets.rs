//! The bundled problem sets: every answer checked by the brute-force reference (independent
//! of the solver), the solver finding exactly the recorded solution, and verification
//! confirming the recorded verdict. Long problems and the full generated set run with
//! `--ignored` (in release, by `.ci/run`).

mod common;

use common::checker::{Checker, check_solution, rest_to_defender};
use toritsume::generator::themes::{rating, record_features};
use toritsume::problem::Problem;
use toritsume::solver::{Solver, SolverConfig};
use toritsume::soundness::verify;

fn load(path: &str) -> Vec<Problem> {
    common::load_problems(path)
}

/// The reference confirms each recorded answer (problems up to `max_plies`, or the others).
fn reference_check(path: &str, long: bool) {
    let mut n = 0;
    for p in load(path) {
        let pos = p.position().unwrap();
        if common::recorded_nomate(&p) {
            if long {
                continue;
            }
            // No mate within nine plies by brute force (the solver proves no mate at all).
            let q = rest_to_defender(&pos);
            let mut ck = Checker::new(q.side_to_move());
            assert!(
                !ck.or_mates(&q, 9, &mut Vec::new()).0,
                "{}: a mate exists",
                p.sfen
            );
            n += 1;
            continue;
        }
        let plies = p.plies.expect("plies");
        if (plies > 9) != long {
            continue;
        }
        let (_, moves) = p.main_line().unwrap();
        if let Err(e) = check_solution(&pos, plies, &moves) {
            panic!("{}: recorded solution refuted: {e}", p.sfen);
        }
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn classic_answers_hold_by_brute_force() {
    reference_check("problems/classic.jsonl", false);
}

#[test]
#[ignore = "brute force on 11- to 15-ply problems takes minutes; run in release by .ci/run"]
fn classic_long_answers_hold_by_brute_force() {
    reference_check("problems/classic.jsonl", true);
}

/// The solver and the verifier reproduce each record: status, length, main line, verdict.
fn solver_and_verifier_agree(path: &str, every: usize) {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 128,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB");
    let records = load(path);
    let mut checked = 0;
    for (i, p) in records.iter().enumerate() {
        if i % every != 0 {
            continue;
        }
        let pos = p.position().unwrap();
        // As `toritsume verify` does: each problem from an empty table.
        solver.clear_table();
        let r = verify(&mut solver, &pos, None);
        common::assert_matches_record(&r, p, "");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn classic_set_solves_and_verifies_as_recorded() {
    let records = load("problems/classic.jsonl");
    assert!(records.len() >= 30);
    let lengths: std::collections::BTreeSet<u16> = records.iter().filter_map(|p| p.plies).collect();
    for n in [1, 3, 5, 7, 9, 11] {
        assert!(lengths.contains(&n), "no {n}-ply problem");
    }
    for p in &records {
        assert!(p.source.is_some() && p.note.is_some(), "{}", p.sfen);
    }
    solver_and_verifier_agree("problems/classic.jsonl", 1);
}

/// Each search technique switched off alone (as `--disable` does) changes the work, never
/// the answer: the classic set solves as recorded, main lines included. Without 1+ε plain
/// df-pn thrashes for billions of nodes on the longer problems, so it takes the problems of
/// up to seven plies.
#[test]
fn each_technique_switched_off_leaves_the_answers() {
    use toritsume::solver::Techniques;
    let records = load("problems/classic.jsonl");
    let all = Techniques::default();
    let off: [(&str, Techniques); 16] = [
        (
            "hand superiority",
            Techniques {
                hand_superiority: false,
                ..all
            },
        ),
        (
            "proof pieces",
            Techniques {
                proof_pieces: false,
                ..all
            },
        ),
        (
            "initial estimates",
            Techniques {
                initial_estimates: false,
                ..all
            },
        ),
        (
            "one ply",
            Techniques {
                one_ply: false,
                ..all
            },
        ),
        (
            "delayed interpositions",
            Techniques {
                delayed_interpositions: false,
                ..all
            },
        ),
        (
            "epsilon",
            Techniques {
                epsilon_percent: 0,
                ..all
            },
        ),
        ("tca", Techniques { tca: false, ..all }),
        (
            "capture weight",
            Techniques {
                capture_weight: 0,
                ..all
            },
        ),
        (
            "capture replies",
            Techniques {
                capture_replies: false,
                ..all
            },
        ),
        (
            "quick refutations",
            Techniques {
                quick_refutations: false,
                ..all
            },
        ),
        (
            "refutation hints",
            Techniques {
                refutation_hints: false,
                ..all
            },
        ),
        (
            "early refutation",
            Techniques {
                early_refutation: false,
                ..all
            },
        ),
        (
            "disproof per check",
            Techniques {
                disproof_per_check: 1,
                ..all
            },
        ),
        (
            "estimate cache",
            Techniques {
                estimate_cache: false,
                ..all
            },
        ),
        (
            "escaped before repetition",
            Techniques {
                escaped_before_repetition: false,
                ..all
            },
        ),
        (
            "proof slack",
            Techniques {
                proof_slack: 0,
                ..all
            },
        ),
    ];
    for (name, techniques) in off {
        let mut solver = Solver::new(SolverConfig {
            hash_mb: 16,
            threads: 1,
            techniques,
            ..SolverConfig::default()
        })
        .expect("a table of a few MB");
        for p in &records {
            if name == "epsilon" && p.plies.is_none_or(|n| n > 7) {
                continue;
            }
            let pos = toritsume::notation::parse_position(&p.sfen).expect("a position");
            solver.clear_table();
            let s = solver.solve(&pos);
            common::assert_solution_as_recorded(&s, p, &format!("{name} off"));
        }
    }
}

/// The estimate cache keeps counts that depend on the position alone: with it or without,
/// each problem of the classic set and of the generated set's first 40 takes the same
/// nodes, phase by phase, and gets the same solution.
#[test]
fn the_estimate_cache_changes_no_node() {
    use toritsume::solver::Techniques;
    let mut records = load("problems/classic.jsonl");
    records.extend(load(GENERATED).into_iter().take(40));
    let solver = |estimate_cache| {
        Solver::new(SolverConfig {
            hash_mb: 16,
            threads: 1,
            techniques: Techniques {
                estimate_cache,
                ..Techniques::default()
            },
            ..SolverConfig::default()
        })
        .expect("a table of a few MB")
    };
    let (mut with, mut without) = (solver(true), solver(false));
    let mut nodes = 0;
    for p in &records {
        let pos = toritsume::notation::parse_position(&p.sfen).expect("a position");
        with.clear_table();
        without.clear_table();
        let (a, b) = (with.solve(&pos), without.solve(&pos));
        assert_eq!(a.nodes, b.nodes, "{}", p.sfen);
        assert_eq!(a.effort, b.effort, "{}", p.sfen);
        assert_eq!(a.moves, b.moves, "{}", p.sfen);
        common::assert_solution_as_recorded(&a, p, "with the estimate cache");
        nodes += a.nodes;
    }
    assert!(nodes > 100_000, "only {nodes} nodes searched");
}

const GENERATED: &str = "problems/generated.jsonl";
/// The problems of 21 plies and more.
const LONG: &str = "problems/long.jsonl";
/// The very long problems made by hill-climbing (`examples/climb_long.rs`).
const CLIMBED: &str = "problems/climbed.jsonl";

/// The whole shipped set: both files, as one set under one policy.
fn shipped() -> Vec<Problem> {
    let mut all = load(GENERATED);
    all.extend(load(LONG));
    all
}

/// The board, side and hand of a record (the move number left out, the hand as a sorted list
/// of groups), mirrored left-right when `mirror` (then the quails in hand swap too).
fn problem_key(sfen: &str, mirror: bool) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| match c {
        'l' if mirror => 'r',
        'r' if mirror => 'l',
        'L' if mirror => 'R',
        'R' if mirror => 'L',
        c => c,
    };
    let mut groups: Vec<String> = Vec::new();
    let mut digits = String::new();
    for c in f[2].chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            groups.push(format!("{digits}{}", swap(c)));
            digits.clear();
        }
    }
    groups.sort();
    let board = if mirror {
        common::mirror_board(f[0])
    } else {
        f[0].to_string()
    };
    format!("{board} {} {}", f[1], groups.join(""))
}

#[test]
fn mirror_of_an_sfen_board() {
    // The start position is its own mirror image.
    assert_eq!(
        common::mirror_board("rpckcpl/3f3/2s1+s2"),
        "rpckcpl/3f3/2+s1s2"
    );
    assert_eq!(
        problem_key("1k5/7/7/7/7/7/7 b L2r 1", true),
        "5k1/7/7/7/7/7/7 b 2lR"
    );
    assert_eq!(
        problem_key("1k5/7/7/7/7/7/7 b L2r 1", false),
        "1k5/7/7/7/7/7/7 b 2rL"
    );
}

#[test]
fn shipped_set_is_large_varied_and_free_of_duplicates() {
    let records = shipped();
    assert!(records.len() >= 2900, "{} problems", records.len());
    let mut by_len = std::collections::BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut lines = std::collections::HashSet::new();
    let mut shapes = std::collections::HashSet::new();
    let mut families: std::collections::HashMap<&str, usize> = Default::default();
    for p in &records {
        let plies = p.plies.expect("plies");
        assert!(plies % 2 == 1 && plies >= 3, "{}", p.sfen);
        *by_len.entry(plies).or_insert(0) += 1;
        assert_eq!(p.moves.len(), plies as usize, "{}", p.sfen);
        assert_eq!(p.hodges.len(), plies as usize, "{}", p.sfen);
        assert_eq!(p.verdict.as_deref(), Some("sound"), "{}", p.sfen);
        for field in ["seed", "quality", "themes", "rating", "family"] {
            assert!(p.extra.contains_key(field), "{}: no {field}", p.sfen);
        }
        // The policy: no final duals, no two problems with the same moves, one problem per
        // solution shape, at most four of one family.
        assert!(
            !p.extra.contains_key("final_duals"),
            "{}: a final dual",
            p.sfen
        );
        assert!(
            !p.extra["themes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t == "finalDual"),
            "{}",
            p.sfen
        );
        assert!(
            lines.insert(p.moves.clone()),
            "{}: same moves twice",
            p.sfen
        );
        shapes.insert(toritsume::generator::coarse_shape(&p.hodges));
        *families
            .entry(p.extra["family"].as_str().unwrap())
            .or_default() += 1;
        let key = problem_key(&p.sfen, false);
        let mirrored = problem_key(&p.sfen, true);
        assert!(seen.insert(key.clone()), "{}: duplicate", p.sfen);
        if mirrored != key {
            assert!(
                !seen.contains(&mirrored),
                "{}: its mirror image is in the set",
                p.sfen
            );
        }
        seen.insert(mirrored);
    }
    assert!(
        shapes.len() * 1000 >= records.len() * 900,
        "{} shapes for {} problems",
        shapes.len(),
        records.len()
    );
    assert!(
        families.values().all(|&n| n <= 4),
        "a family of more than four"
    );
    for n in [3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] {
        assert!(
            by_len.get(&n).copied().unwrap_or(0) >= 1,
            "no {n}-ply problems: {by_len:?}"
        );
    }
    // The split between the files: up to 19 plies in one, 21 and more in the other.
    assert!(load(GENERATED).iter().all(|p| p.plies < Some(21)));
    let long = load(LONG);
    assert!(long.iter().all(|p| p.plies >= Some(21)));
    assert!(long.len() >= 40, "{} long problems", long.len());
}

#[test]
fn ratings_follow_the_formula_and_rise_with_length() {
    // Every rating is the documented formula of the record's own features (main line and
    // proof size), and the mean rating of each length (with at least five problems) is above
    // the one before.
    let mut sums: std::collections::BTreeMap<u16, (u64, u64)> = Default::default();
    for p in shipped() {
        let r = p.extra["rating"].as_u64().unwrap();
        assert!((600..=2800).contains(&r), "{}", p.sfen);
        let features = record_features(&p).unwrap();
        assert_eq!(r, rating(&features) as u64, "{}", p.sfen);
        let e = sums.entry(p.plies.unwrap()).or_default();
        e.0 += r;
        e.1 += 1;
    }
    let means: Vec<(u16, u64)> = sums
        .into_iter()
        .filter(|(_, (_, n))| *n >= 5)
        .map(|(len, (sum, n))| (len, sum / n))
        .collect();
    assert!(means.len() >= 5, "{means:?}");
    assert!(means.windows(2).all(|w| w[0].1 < w[1].1), "{means:?}");
    // And within the scale: the longest lengths below its top.
    assert!(means.last().unwrap().1 < 2800, "{means:?}");
}

#[test]
fn every_generated_built_and_climbed_record_has_its_themes_and_rating() {
    // The sets made by the program (not the composed classics) carry what `merge --themes`
    // and `--rating` choose by: the themes verify finds, the length's `mateInN` first, and
    // the rating of the formula.
    for path in [GENERATED, LONG, "problems/built.jsonl", CLIMBED] {
        for p in load(path) {
            let themes = p
                .themes()
                .unwrap_or_else(|| panic!("{path}: {} has no themes", p.sfen));
            let n = p.plies.unwrap().div_ceil(2);
            assert_eq!(themes[0], format!("mateIn{n}"), "{path}: {}", p.sfen);
            let r = p
                .rating()
                .unwrap_or_else(|| panic!("{path}: {} has no rating", p.sfen));
            assert_eq!(
                r,
                rating(&record_features(&p).unwrap()),
                "{path}: {}",
                p.sfen
            );
        }
    }
}

#[test]
fn generated_sample_solves_and_verifies_as_recorded() {
    solver_and_verifier_agree(GENERATED, 25);
}

#[test]
fn generated_sample_holds_by_brute_force() {
    // Every 25th problem of up to 9 plies, checked by the independent reference.
    let records = load(GENERATED);
    let mut n = 0;
    for p in records.iter().step_by(25) {
        let plies = p.plies.unwrap();
        if plies > 9 {
            continue;
        }
        let pos = p.position().unwrap();
        let (_, moves) = p.main_line().unwrap();
        if let Err(e) = check_solution(&pos, plies, &moves) {
            panic!("{}: recorded solution refuted: {e}", p.sfen);
        }
        n += 1;
    }
    assert!(n >= 20);
}

#[test]
#[ignore = "verifies all of problems/generated.jsonl; run in release by .ci/run"]
fn generated_set_solves_and_verifies_as_recorded() {
    solver_and_verifier_agree(GENERATED, 1);
}

#[test]
#[ignore = "verifies all of problems/long.jsonl; run in release by .ci/run"]
fn long_set_solves_and_verifies_as_recorded() {
    solver_and_verifier_agree(LONG, 1);
}

/// Checks each record's main line independently of the solver: it is legal, checks at every
/// attacker move and ends in mate, and its last seven plies are exact by brute force. The
/// mate is one by docs/RULES.md: the defender, in check, has no reply but useless
/// interpositions (none at all, or, as in the 101-ply problem, drops between the eagle and
/// the phoenix that the eagle takes with mate), as the reference checker finds them.
fn replay_by_the_rules(records: &[Problem]) {
    for p in records {
        let plies = p.plies.unwrap();
        let (_, moves) = p.main_line().unwrap();
        let mut pos = rest_to_defender(&p.position().unwrap());
        let attacker = pos.side_to_move();
        for (i, &m) in moves.iter().enumerate() {
            if i == plies as usize - 7
                && let Err(e) = check_solution(&pos, 7, &moves[i..])
            {
                panic!("{}: the last seven plies refuted: {e}", p.sfen);
            }
            let mut legal = toritsume::rules::MoveList::new();
            toritsume::rules::generate_legal(&pos, &mut legal);
            assert!(legal.contains(m), "{}: ply {} illegal", p.sfen, i + 1);
            pos.do_move(m);
            assert!(
                i % 2 == 1 || pos.in_check(),
                "{}: ply {} no check",
                p.sfen,
                i + 1
            );
        }
        // The reference takes a position with no reply as mated, in check or not.
        assert!(pos.in_check(), "{}: no check at the end", p.sfen);
        assert!(
            Checker::new(attacker).and_mated(&pos, 0, &mut Vec::new()).0,
            "{}: no mate at the end",
            p.sfen
        );
    }
}

#[test]
#[ignore = "verifies problems/built.jsonl (39 to 45 plies); run in release by .ci/run"]
fn built_long_problems_solve_and_verify_as_recorded() {
    let records = load("problems/built.jsonl");
    assert_eq!(records.iter().filter(|p| p.plies == Some(45)).count(), 2);
    assert!(records.iter().all(|p| p.plies.unwrap_or(0) >= 39));
    replay_by_the_rules(&records);
    solver_and_verifier_agree("problems/built.jsonl", 1);
}

#[test]
#[ignore = "verifies problems/climbed.jsonl (51 plies and more); run in release by .ci/run"]
fn climbed_very_long_problems_solve_and_verify_as_recorded() {
    let records = load(CLIMBED);
    let lengths: Vec<u16> = records.iter().map(|p| p.plies.unwrap()).collect();
    assert_eq!(lengths, [51, 101]);
    for p in &records {
        // The defender's hand is empty under the convention: every piece is on the board or
        // in the attacker's hand, so no drop can interpose until something is taken.
        let pos = rest_to_defender(&p.position().unwrap());
        let defender = pos.side_to_move().flip();
        assert_eq!(
            pos.hand(defender),
            toritsume::rules::Hand::EMPTY,
            "{}",
            p.sfen
        );
    }
    // The 101-ply problem ends in a mate with replies: the eagle on 3b checks the phoenix on
    // 3d through 3c, and the defender, holding swallows, pheasants, cranes and a right quail
    // by then, can drop any of them on 3c, each a useless interposition (Fairy-Stockfish,
    // which counts interpositions, lists the same four drops there).
    let long = records.iter().find(|p| p.plies == Some(101)).unwrap();
    let (_, moves) = long.main_line().unwrap();
    let mut end = rest_to_defender(&long.position().unwrap());
    for &m in &moves {
        end.do_move(m);
    }
    let mut replies = toritsume::rules::MoveList::new();
    toritsume::rules::generate_legal(&end, &mut replies);
    let mut replies: Vec<String> = replies.iter().map(|m| m.usi()).collect();
    replies.sort();
    assert_eq!(replies, ["C*3c", "P*3c", "R*3c", "S*3c"]);
    replay_by_the_rules(&records);
    solver_and_verifier_agree(CLIMBED, 1);
}

/// `pos` solved from an empty table of `hash_mb` MB on `threads` threads, the rest default.
fn solve_at(
    pos: &toritsume::rules::Position,
    hash_mb: usize,
    threads: usize,
) -> toritsume::solver::Solution {
    Solver::new(SolverConfig {
        hash_mb,
        threads,
        ..SolverConfig::default()
    })
    .unwrap()
    .solve(pos)
}

#[test]
#[ignore = "solves problems/climbed.jsonl at several table sizes and thread counts; run in release by .ci/run"]
fn climbed_problems_have_one_answer_at_any_table_size() {
    // A 16 MB table holds a small part of a 100-ply proof tree: the answer must not change.
    for p in load(CLIMBED) {
        let pos = p.position().unwrap();
        for (hash_mb, threads) in [(16, 1), (16, 2), (256, 2)] {
            let sol = solve_at(&pos, hash_mb, threads);
            common::assert_solution_as_recorded(
                &sol,
                &p,
                &format!("{hash_mb} MB, {threads} threads"),
            );
        }
    }
}

/// The longest mate known here, 139 plies: the eagle saw of the climbed problems (36 plies),
/// then a chase in which, from ply 97, the left quail checks the phoenix on 6c down file 6
/// and the defender drops a swallow on 6d, the quail takes it and walks back round
/// (6d-5e-6f) while the phoenix steps 5d and back: six plies for each of the six swallows
/// the defender has taken by then, a real defence each time (with the swallow given back
/// the mate is six plies longer, so the drop is no useless interposition). Then a pheasant
/// dropped there ends it. Not a problem: the six swallows are left in the attacker's hand.
const MATE_IN_139: &str = "Cs2c+s1/ssFl2k/sSSSp1s/c+sR1pP1/+S3s1r/C3SpS/+s+F+SL3 b - 1";

#[test]
#[ignore = "solves a 139-ply mate at several table sizes and thread counts; run in release by .ci/run"]
fn a_139_ply_mate_has_one_answer_at_any_table_size() {
    use toritsume::rules::{Hand, PieceKind};
    use toritsume::solver::Status;
    let pos = toritsume::notation::parse_position(MATE_IN_139).unwrap();
    let mut first: Option<Vec<String>> = None;
    for (hash_mb, threads) in [(16, 1), (16, 2), (256, 1), (256, 2)] {
        let sol = solve_at(&pos, hash_mb, threads);
        let context = format!("{hash_mb} MB, {threads} threads");
        assert_eq!(sol.status, Status::Mate, "{context}");
        assert_eq!(sol.plies, Some(139), "{context}");
        assert!(sol.minimal && sol.complete, "{context}");
        assert_eq!(sol.stopped_by, None, "{context}");
        let mut six_swallows = Hand::EMPTY;
        six_swallows.set(PieceKind::Swallow, 6);
        assert_eq!(sol.spare, six_swallows, "{context}");
        let moves: Vec<String> = sol.moves.iter().map(|m| m.usi()).collect();
        // The loop, worked out by hand from the position after ply 97 (L*6f).
        assert_eq!(moves[96], "L*6f", "{context}");
        for k in 0..6 {
            assert_eq!(
                moves[97 + 6 * k..103 + 6 * k],
                ["S*6d", "6f6d", "6c5d", "6d5e", "5d6c", "5e6f"],
                "{context}: round {k}"
            );
        }
        assert_eq!(
            moves[133..],
            ["P*6d", "6f6d", "6c5d", "5c5b+", "5d6e", "P*5d"],
            "{context}"
        );
        match &first {
            None => first = Some(moves),
            Some(f) => assert_eq!(&moves, f, "{context}"),
        }
    }
    let record = Problem::from_json(
        &serde_json::json!({"sfen": MATE_IN_139, "plies": 139, "moves": first.unwrap()})
            .to_string(),
    )
    .unwrap();
    replay_by_the_rules(&[record]);
    // Cooked, among other places, at ply 97: the quail dropped on 6g checks down the same
    // file (6f is empty) and the loop runs as from 6f.
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let report = verify(&mut solver, &pos, None);
    assert!(
        report
            .cooks
            .iter()
            .any(|c| c.ply == 97 && c.mv.usi() == "L*6g"),
        "{:?}",
        report
            .cooks
            .iter()
            .map(|c| (c.ply, c.mv.usi()))
            .collect::<Vec<_>>()
    );
}
