//! The useless-interposition rule (docs/RULES.md "Useless interposition": an interposition
//! is useless when its Q′ is mated within the length the defender has without interposing)
//! on positions worked out by hand, one of each kind the rule must tell apart: a far check
//! whose every block is useless, a block that outlasts the other replies and so is on the
//! main line, two interposition squares, a capture that promotes, a board move and a drop
//! on the same square, and a capture by a piece other than the checker. Each is checked
//! against the brute-force reference ([`Rule::Settled`]) and the solver's answer; where the
//! rule the solver had before ([`Rule::SameLength`]: Q′ mated within the plies left) reads
//! a position otherwise, that is shown too.

mod common;

use common::checker::{Checker, Rule, check_left_out, check_solution, rest_to_defender};
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::rules::{Move, MoveList, Position, generate_legal};
use toritsume::solver::{Solution, SolverConfig, Status, solve};

fn pos(sfen: &str) -> Position {
    rest_to_defender(&sfen.parse().expect("a position"))
}

/// The solver's answer to `sfen`, checked whole: a mate of `plies`, proven shortest, with a
/// main line of all its plies that the reference accepts move by move, and useless
/// interpositions that the reference finds useless.
fn solved(sfen: &str, plies: u16) -> Solution {
    let p = parse_position(sfen).unwrap();
    let sol = solve(&p, &SolverConfig::default()).expect("a table of a few MB");
    assert_eq!(
        (sol.status, sol.plies, sol.minimal, sol.complete),
        (Status::Mate, Some(plies), true, true),
        "{sfen}"
    );
    assert_eq!(sol.moves.len(), plies as usize, "{sfen}");
    check_solution(&p, plies, &sol.moves).unwrap();
    let left_out: Vec<_> = sol.useless.iter().map(|u| (u.ply, u.mv)).collect();
    check_left_out(&p, plies, &sol.moves, &left_out).unwrap();
    sol
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.usi()).collect()
}

/// `p` after the USI moves `line`.
fn after(p: &Position, line: &str) -> Position {
    let mut q = p.clone();
    for m in parse_move_list(p, line).unwrap() {
        q.do_move(m);
    }
    q
}

#[test]
fn a_drop_that_outlasts_the_other_replies_is_a_defence() {
    // tests/solver_traps.rs works it out: the left quail dropped on 3a checks the phoenix
    // on 1c through 2b. Its one other reply, 1c1b, is mated at once by F*2b: without
    // interposing the defender has 2 plies. A drop on 2b is answered by the quail taking it,
    // and that Q′ (the piece back in White's hand) is mated in 4 plies: longer than 2, so
    // the drop is no useless interposition but a defence, counted with its plies.
    let p = pos("7/4S2/5sk/6s/6+F/7/7 b FCLS 1");
    let check = parse_move_list(&p, "L*3a").unwrap()[0];
    let mut after = p.clone();
    after.do_move(check);
    let drop = parse_move_list(&after, "S*2b").unwrap()[0];
    let q = Checker::q_prime(&after, drop).expect("a Q′ for the drop");
    let mut settled = Checker::with_rule(p.side_to_move(), Rule::Settled);
    let mut path = vec![p.key()];
    assert_eq!(settled.without_interposing(&after, 4, &mut path), Some(2));
    assert_eq!(settled.and_length(&q, 6, &mut path), Some(4));
    assert!(!settled.useless(&after, drop, 4, &mut path));
    // Under the rule the solver had before, the same drop was useless at 4 plies left.
    let mut same = Checker::with_rule(p.side_to_move(), Rule::SameLength);
    assert!(same.useless(&after, drop, 4, &mut path));
}

#[test]
fn a_far_check_whose_every_block_is_useless_is_mate() {
    // tests/solver_traps.rs: the crane on 7e steps aside and the quail on 7g checks the
    // phoenix on 7a down the file. The phoenix has no other reply, so without interposing
    // it is mated at once (0 plies); each block is taken with check again, closer, down to
    // 7b, where the quail is guarded by the crane on 6c: every Q′ is mated at once too.
    let p = pos("kp5/7/1C5/7/C6/7/L6 b - 1");
    let m = parse_move_list(&p, "7e6d").unwrap()[0];
    let mut after = p.clone();
    after.do_move(m);
    let mut replies = MoveList::new();
    generate_legal(&after, &mut replies);
    assert!(!replies.is_empty(), "blocks are legal");
    let mut settled = Checker::with_rule(p.side_to_move(), Rule::Settled);
    let mut path = vec![p.key()];
    assert_eq!(settled.without_interposing(&after, 0, &mut path), Some(0));
    assert!(
        replies
            .iter()
            .all(|&e| settled.useless(&after, e, 0, &mut path))
    );
    assert!(settled.and_mated(&after, 0, &mut path).0);
    assert_eq!(settled.or_length(&p, 3, &mut Vec::new()), Some(1));
    // The solver: a mate in 1, every block (five squares, six kinds) left out as useless.
    let sol = solved("kp5/7/1C5/7/C6/7/L6 b - 1", 1);
    assert_eq!(usi(&sol.moves), ["7e6d"]);
    assert_eq!(sol.useless.len(), 30);
}

#[test]
fn a_block_outlasting_the_other_replies_is_on_the_main_line() {
    // Black: left quail 6b, falcon 5c, a falcon in hand; White: phoenix 7a, pheasant 6a.
    // 1. LQ-7c (6b7c) checks down file 7 through 7b. The phoenix cannot move: 7b is on the
    // line, 6b is guarded by the falcon on 5c, 6a holds its pheasant, and nothing can take
    // the quail: without interposing the defender is mated at once (0 plies). A block on
    // 7b, taken by the quail, leaves the quail on 7b unguarded, and the phoenix takes it:
    // that Q′ is not mated at once, so the block is a defence. Whatever is dropped there,
    // the falcon dropped on 6b (guarded by the one on 5c) mates: the phoenix's squares are
    // its own, and no dropped piece reaches 6b. Mate in 3, through the block.
    let sol = solved("kp5/1L5/2F4/7/7/7/7 b F 1", 3);
    assert_eq!(usi(&sol.moves), ["6b7c", "S*7b", "F*6b"]);
    assert!(sol.useless.is_empty());
    let p = pos("kp5/1L5/2F4/7/7/7/7 b F 1");
    let check = after(&p, "6b7c");
    let drop = parse_move_list(&check, "S*7b").unwrap()[0];
    let mut settled = Checker::new(p.side_to_move());
    let mut path = vec![p.key()];
    assert_eq!(settled.without_interposing(&check, 2, &mut path), Some(0));
    let q = Checker::q_prime(&check, drop).expect("a Q′");
    assert!(!settled.and_mated(&q, 0, &mut path).0);
    assert!(!settled.useless(&check, drop, 2, &mut path));
    // Read with the same length (2 plies left) instead, the Q′ is mated in time (the
    // phoenix takes on 7b, and Fa*6b, guarded from 5c, mates it there): the rule the
    // solver had before set the block aside while it set the length, and showed a line of
    // one ply.
    let mut same = Checker::with_rule(p.side_to_move(), Rule::SameLength);
    assert!(same.useless(&check, drop, 2, &mut path));
}

#[test]
fn two_interposition_squares_are_judged_each_by_its_own_capture() {
    // Black: pheasant 4a, right quail 1b; a falcon and a left quail in hand. White: phoenix
    // 2a. 1. LQ*2d checks up file 2 through 2c and 2b. Without interposing: 2a1b (taking
    // the right quail) is mated by Fa*2b (guarded by the quail up the file: 1a, 2a, 1c, 2c
    // all covered), 2a3a by Fa*3b (guarded by the pheasant): two plies. A block on 2b,
    // taken by the quail, leaves it unguarded next to the phoenix, which takes it; a block
    // on 2c, taken, lets the phoenix out to 1b and back behind the quail. Neither Q′ is
    // mated within two plies, so both blocks are defences, each lasting three more plies:
    // mate in 5. The line: 1. LQ*2d Sw*2b 2. Fa*3b (guarded by the pheasant) Phx1b, the
    // only escape, 3. Fax2b+: the falcon takes the blocking swallow and promotes on the
    // capture (a piece other than the checker, so no Q′ of the rule), and the eagle on 2b,
    // guarded by the quail, covers 1a, 2a, 1c and 2c.
    let sfen = "3P1k1/6R/7/7/7/7/7 b FL 1";
    let sol = solved(sfen, 5);
    assert_eq!(usi(&sol.moves), ["L*2d", "S*2b", "F*3b", "2a1b", "3b2b+"]);
    assert!(sol.useless.is_empty());
    assert!(sol.moves[4].promotes());
    let p = pos(sfen);
    let check = after(&p, "L*2d");
    let mut ck = Checker::new(p.side_to_move());
    let mut path = vec![p.key()];
    assert_eq!(ck.without_interposing(&check, 4, &mut path), Some(2));
    for block in ["S*2b", "S*2c"] {
        let m = parse_move_list(&check, block).unwrap()[0];
        let q = Checker::q_prime(&check, m).expect("a Q′");
        assert!(!ck.and_mated(&q, 2, &mut path).0, "{block}");
        assert!(!ck.useless(&check, m, 4, &mut path), "{block}");
        let mut c = check.clone();
        c.do_move(m);
        assert_eq!(ck.or_length(&c, 5, &mut path), Some(3), "{block}");
    }
}

#[test]
fn a_board_move_and_a_drop_on_the_same_square_have_different_q_primes() {
    // Black: eagle 4a, left quail 2c, falcon 1c, pheasant 2d. White: swallow 2a, phoenix
    // 1a. 1. +Fa-4d: the eagle steps back and checks the phoenix up the diagonal through
    // 3c and 2b. The phoenix cannot move (1b: the falcon; 2b: the line). The swallow's step
    // 2a2b is a board-move block: its Q′ has the eagle on 2b, guarded by the quail, and 2a
    // empty, where the eagle's forward step reaches: checkmate, so the step is useless. A
    // swallow dropped on 2b has a Q′ with the swallow still on 2a, which takes the eagle:
    // not mated at once, a defence.
    let sfen = "3+F1sk/7/5LF/5P1/7/7/7 b - 1";
    let sol = solved(sfen, 7);
    assert_eq!(&usi(&sol.moves)[..2], ["4a4d", "S*3c"]);
    let left_out: Vec<(usize, String)> = sol.useless.iter().map(|u| (u.ply, u.mv.usi())).collect();
    assert!(left_out.contains(&(2, "2a2b".to_string())));
    let p = pos(sfen);
    let check = after(&p, "4a4d");
    let mut ck = Checker::new(p.side_to_move());
    let mut path = vec![p.key()];
    assert_eq!(ck.without_interposing(&check, 6, &mut path), Some(0));
    let step = parse_move_list(&check, "2a2b").unwrap()[0];
    let q = Checker::q_prime(&check, step).expect("a Q′");
    let mut replies = MoveList::new();
    generate_legal(&q, &mut replies);
    assert!(
        q.in_check() && replies.is_empty(),
        "the step's Q′ is checkmate"
    );
    assert!(ck.useless(&check, step, 6, &mut path));
    let drop = parse_move_list(&check, "S*2b").unwrap()[0];
    let q = Checker::q_prime(&check, drop).expect("a Q′");
    assert!(!ck.and_mated(&q, 0, &mut path).0);
    assert!(!ck.useless(&check, drop, 6, &mut path));
}

#[test]
fn a_capture_by_another_piece_does_not_make_a_block_useless() {
    // Black: left quail 5a, swallow 4b, eagle 5d; the other quails in hand. White: phoenix
    // 3a, pheasant 2b. 1. LQ*3c checks up file 3 through 3b. The phoenix cannot move (2a:
    // the eagle's diagonal through 4c and 3b; 4a: the swallow; 4b: the quail on 5a), and
    // the pheasant cannot take: 0 plies without interposing. A block on 3b is answered by
    // the eagle taking it, and the eagle on 3b, guarded by the quail on 3c, mates. But the
    // rule asks about the checker's capture: the quail on 3b closes the eagle's diagonal,
    // and the phoenix escapes to 2a. That Q′ is not mated at once, so the block is a
    // defence, and the mate takes 3 plies.
    let sfen = "2L1k2/3S1p1/7/2+F4/7/7/7 b LR 1";
    let sol = solved(sfen, 3);
    assert_eq!(usi(&sol.moves), ["L*3c", "S*3b", "5d3b"]);
    assert!(sol.useless.is_empty());
    let p = pos(sfen);
    let check = after(&p, "L*3c");
    let mut ck = Checker::new(p.side_to_move());
    let mut path = vec![p.key()];
    assert_eq!(ck.without_interposing(&check, 2, &mut path), Some(0));
    let drop = parse_move_list(&check, "S*3b").unwrap()[0];
    let q = Checker::q_prime(&check, drop).expect("a Q′");
    let escape = parse_move_list(&q, "3a2a").unwrap()[0];
    let mut replies = MoveList::new();
    generate_legal(&q, &mut replies);
    assert!(replies.contains(escape));
    assert!(!ck.useless(&check, drop, 2, &mut path));
}
