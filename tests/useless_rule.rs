//! The reference's reading of the useless-interposition rule as ../shared/RULES.md settles
//! it ([`Rule::Settled`]: an interposition is useless when its Q′ is mated within the length
//! the defender has without interposing), on positions worked out by hand, beside the rule
//! the solver implements today ([`Rule::SameLength`]: Q′ mated within the plies left).

mod common;

use common::checker::{Checker, Rule, rest_to_defender};
use toritsume::notation::parse_move_list;
use toritsume::rules::{MoveList, Position, generate_legal};

fn pos(sfen: &str) -> Position {
    rest_to_defender(&sfen.parse().expect("a position"))
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
    // Under the rule the solver has today, the same drop is useless at 4 plies left.
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
}
