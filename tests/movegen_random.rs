//! The library's generators against brute force, over thousands of random positions and
//! positions reached by random play: legal moves, checks only, evasions, counting, and
//! make/unmake with its keys.

mod common;

use common::{naive_legal, random_position, random_walk, rng, sorted};
use std::sync::atomic::{AtomicU64, Ordering};
use toritsume::notation::parse_position;
use toritsume::rules::movegen::{
    CheckAnswer, Flights, check_answer, evasion_summary, has_check, has_legal_move, interposition,
};

/// Checks after which [`Flights`] told the phoenix steps out, over the board moves and the
/// drops (the sample must exercise both).
static FLIGHTS_SEEN: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
use toritsume::rules::{
    Bitboard, MoveList, Position, count_legal, generate_checks, generate_evasions, generate_legal,
};

/// Every property checked on one position; how it can answer its check, as found.
fn check_position(pos: &Position, what: &str) -> CheckAnswer {
    let mut legal = MoveList::new();
    generate_legal(pos, &mut legal);
    let mut naive = naive_legal(pos, true);
    naive.sort();
    assert_eq!(
        sorted(&legal),
        naive,
        "legal moves differ in {what}: {pos:?}"
    );
    assert_eq!(
        count_legal(pos),
        legal.len() as u64,
        "count in {what}: {pos:?}"
    );
    assert_eq!(has_legal_move(pos), !legal.is_empty(), "{what}: {pos:?}");

    // Checks only = the legal moves that give check.
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut expect: Vec<_> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let mut p = pos.clone();
            p.do_move(m);
            p.in_check()
        })
        .collect();
    expect.sort();
    assert_eq!(sorted(&checks), expect, "checks differ in {what}: {pos:?}");
    assert_eq!(has_check(pos), !expect.is_empty(), "{what}: {pos:?}");

    // A check the flights say the phoenix steps out of leaves it a legal phoenix move.
    if let Some(f) = Flights::new(pos) {
        for &m in checks.iter() {
            if !f.escapes(pos, m) {
                continue;
            }
            let mut p = pos.clone();
            p.do_move(m);
            let k = p
                .phoenix(p.side_to_move())
                .expect("the checked side's phoenix");
            let mut replies = MoveList::new();
            generate_legal(&p, &mut replies);
            assert!(
                replies.iter().any(|r| !r.is_drop() && r.from() == k),
                "{m} in {what} leaves no phoenix step: {pos:?}"
            );
            FLIGHTS_SEEN[m.is_drop() as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    // Evasions = every legal move, when in check.
    let mut answer = CheckAnswer::Other;
    if pos.in_check() {
        let mut ev = MoveList::new();
        generate_evasions(pos, &mut ev);
        assert_eq!(sorted(&ev), sorted(&legal), "evasions in {what}: {pos:?}");

        // The summary of the evasions adds up the list, the board moves onto the
        // checkers' squares (their captures) counted apart.
        let watch = pos.checkers();
        let sum = evasion_summary(pos, watch);
        let board: Vec<_> = legal.iter().filter(|m| !m.is_drop()).collect();
        assert_eq!(sum.board_moves as usize, board.len(), "{what}: {pos:?}");
        assert_eq!(
            sum.onto_watched as usize,
            board.iter().filter(|m| watch.has(m.to())).count(),
            "{what}: {pos:?}"
        );
        let mut drops = Bitboard::EMPTY;
        let mut all = Bitboard::EMPTY;
        for m in legal.iter() {
            if m.is_drop() {
                drops |= Bitboard::from_square(m.to());
            }
            all |= Bitboard::from_square(m.to());
        }
        assert_eq!(sum.drop_squares, drops, "{what}: {pos:?}");
        assert_eq!(sum.destinations, all, "{what}: {pos:?}");
        assert_eq!(sum.is_empty(), legal.is_empty(), "{what}: {pos:?}");

        // How the check can be answered, from the list: nothing; only moves onto the
        // squares between the phoenix and a single ranging checker; or something else.
        let between = interposition(pos).map_or(Bitboard::EMPTY, |(b, _)| b);
        let expect = if legal.is_empty() {
            CheckAnswer::Nothing
        } else if between.any() && legal.iter().all(|m| between.has(m.to())) {
            CheckAnswer::OnlyInterpositions
        } else {
            CheckAnswer::Other
        };
        assert_eq!(check_answer(pos), expect, "{what}: {pos:?}");
        answer = expect;
    } else {
        let expect = if legal.is_empty() {
            CheckAnswer::Nothing
        } else {
            CheckAnswer::Other
        };
        assert_eq!(check_answer(pos), expect, "{what}: {pos:?}");
    }

    // Make/unmake restores everything; incremental keys equal keys from scratch; the
    // predicted key and hand after a move are right.
    let mut p = pos.clone();
    for &m in legal.iter() {
        let key_after = p.board_key_after(m);
        let hand_after = p.hand_after(m);
        let mover = p.side_to_move();
        let c = p.do_move(m);
        assert_eq!(
            (p.board_key(), p.hand_key()),
            p.compute_keys(),
            "keys after {m} in {what}"
        );
        assert_eq!(p.board_key(), key_after, "board_key_after {m} in {what}");
        assert_eq!(p.hand(mover), hand_after, "hand_after {m} in {what}");
        // The same move played without the keys: the same board and hands, the keys as
        // they were before it, and everything restored by its own unmake.
        let mut q = pos.clone();
        let cq = q.do_move_unkeyed(m);
        assert_eq!(cq, c, "capture of unkeyed {m} in {what}");
        assert_eq!(q.to_setup(), p.to_setup(), "unkeyed {m} in {what}");
        assert_eq!(
            (q.board_key(), q.hand_key()),
            (pos.board_key(), pos.hand_key()),
            "keys after unkeyed {m} in {what}"
        );
        q.undo_move_unkeyed(m, cq);
        assert!(q == *pos, "unkeyed undo of {m} in {what}");
        p.undo_move(m, c);
        assert!(p == *pos, "undo of {m} in {what}");
    }
    answer
}

#[test]
fn random_positions_agree_with_brute_force() {
    let mut r = rng(1);
    let mut in_check = 0;
    let mut with_checks = 0;
    let (mut mated, mut interposing) = (0, 0);
    for i in 0..20000 {
        let mut pos = random_position(&mut r);
        let before = check_position(&pos, &format!("random position {i}"));
        random_walk(&mut pos, 3, &mut r);
        let after = check_position(&pos, &format!("random position {i} after a walk"));
        for a in [before, after] {
            match a {
                CheckAnswer::Nothing => mated += 1,
                CheckAnswer::OnlyInterpositions => interposing += 1,
                CheckAnswer::Other => {}
            }
        }
        in_check += pos.in_check() as u32;
        let mut l = MoveList::new();
        generate_checks(&pos, &mut l);
        with_checks += !l.is_empty() as u32;
    }
    // The sample must exercise the interesting cases.
    assert!(in_check > 1000, "only {in_check} positions in check");
    assert!(
        with_checks > 8000,
        "only {with_checks} positions with a check"
    );
    assert!(
        mated > 50 && interposing >= 5,
        "{mated} mated, {interposing} with only interpositions"
    );
    let [board, drops] = FLIGHTS_SEEN.each_ref().map(|a| a.load(Ordering::Relaxed));
    assert!(
        board > 1000 && drops > 1000,
        "the flights told a step out of {board} board checks and {drops} drops"
    );
}

#[test]
fn random_games_agree_with_brute_force() {
    let starts = [
        "startpos",
        "rp3pl/1c1c1k1/ssSsfss/2S4/SS1S1SS/2CF1C1/LPK2PR w 3Ss 1",
        "rp2cpl/1k5/s2s1ss/1c2S2/Sf1S1SS/L4C1/2cFKPR b P4S3s 1",
        "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1",
    ];
    let mut r = rng(2);
    let mut n = 0;
    for game in 0..200 {
        let mut pos = parse_position(starts[game % starts.len()]).unwrap();
        for ply in 0..80 {
            check_position(&pos, &format!("game {game} ply {ply}"));
            n += 1;
            let mut l = MoveList::new();
            generate_legal(&pos, &mut l);
            if l.is_empty() {
                break;
            }
            random_walk(&mut pos, 1, &mut r);
        }
    }
    assert!(n > 2000);
}
