//! One test per rule of docs/RULES.md, on positions worked out by hand. Each position's expected
//! moves were derived from the rules text (and the tricky ones cross-checked move by move
//! against Fairy-Stockfish, allowing for its listing swallow-drop mates).

use toritsume::notation::{MoveError, ParseError, parse_move_list, parse_position};
use toritsume::rules::attacks::attacks;
use toritsume::rules::movegen::{CheckAnswer, Flights, check_answer};
use toritsume::rules::{
    Bitboard, Color, Move, MoveList, Piece, PieceKind, Position, PositionError, Square,
    generate_legal, is_checkmate,
};

fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut l = MoveList::new();
    generate_legal(p, &mut l);
    l.iter().map(|m| m.usi()).collect()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn play(p: &mut Position, moves: &str) {
    for m in parse_move_list(p, moves).unwrap_or_else(|e| panic!("{moves}: {e}")) {
        p.do_move(m);
    }
}

#[test]
fn start_position_has_seventeen_moves() {
    // Six swallows step forward (one captures on 5d), phoenix ×2, cranes ×4, quails ×2,
    // falcon ×2 sideways: 7 + 2 + 4 + 2 + 2 = 17.
    let p = pos("startpos");
    let moves = legal(&p);
    assert_eq!(moves.len(), 17);
    assert!(moves.contains(&"3d3c".to_string()));
    assert!(moves.contains(&"5e5d".to_string()), "a swallow capture");
    assert!(
        !moves.contains(&"3e3d".to_string()),
        "blocked by its own swallow"
    );
}

#[test]
fn swallow_may_not_be_dropped_on_the_last_rank() {
    let p = pos("k6/7/7/7/7/7/6K b S 1");
    let moves = legal(&p);
    for file in 1..=7 {
        assert!(!moves.contains(&format!("S*{file}a")), "S*{file}a");
        assert!(moves.contains(&format!("S*{file}b")), "S*{file}b");
    }
    // White's last rank is g.
    let p = pos("k6/7/7/7/7/7/6K w s 1");
    let moves = legal(&p);
    assert!(
        !moves
            .iter()
            .any(|m| m.starts_with("S*") && m.ends_with('g'))
    );
    assert!(moves.contains(&"S*4f".to_string()));
}

#[test]
fn pheasant_may_be_dropped_on_the_last_rank() {
    // A pheasant on the last rank still moves diagonally back, so nothing forbids it.
    let p = pos("k6/7/7/7/7/7/6K b P 1");
    let moves = legal(&p);
    assert!(moves.contains(&"P*4a".to_string()));
    assert!(moves.contains(&"P*1a".to_string()));
}

#[test]
fn no_third_swallow_on_a_file() {
    let p = pos("k6/7/7/3S3/3S3/7/6K b S 1");
    let moves = legal(&p);
    assert!(!moves.iter().any(|m| m.starts_with("S*4")), "{moves:?}");
    assert!(moves.contains(&"S*3c".to_string()));
    // A goose does not count towards the two.
    let p = pos("k6/7/7/3S3/3+S3/7/6K b S 1");
    assert!(legal(&p).contains(&"S*4c".to_string()));
    // White's swallows are White's business.
    let p = pos("k6/3s3/3s3/7/7/7/6K b S 1");
    assert!(legal(&p).contains(&"S*4d".to_string()));
}

#[test]
fn swallow_drop_mate_is_illegal_but_other_drops_may_mate() {
    // White phoenix 7a boxed in by its own pheasant (6a) and swallow (6b); a black crane on
    // 6c guards 7b. S*7b would mate: forbidden.
    let p = pos("kp5/1s5/1C5/7/7/7/6K b S 1");
    let moves = legal(&p);
    assert!(!moves.contains(&"S*7b".to_string()));
    assert_eq!(moves.len(), 47, "Fairy-Stockfish's 48 less S*7b");
    // A crane dropped there mates, and is legal.
    let mut p = pos("kp5/1s5/1C5/7/7/7/6K b C 1");
    assert!(legal(&p).contains(&"C*7b".to_string()));
    play(&mut p, "C*7b");
    assert!(is_checkmate(&p));
}

#[test]
fn swallow_drop_check_that_is_not_mate_is_legal() {
    // The phoenix can take the unguarded swallow.
    let p = pos("k6/7/7/7/7/7/6K b S 1");
    assert!(legal(&p).contains(&"S*7b".to_string()));
    let mut q = p.clone();
    play(&mut q, "S*7b");
    assert!(q.in_check());
    assert!(!is_checkmate(&q));
}

#[test]
fn swallow_board_move_may_mate() {
    // Swallow 7d-7c (no promotion outside the zone) checks the phoenix on 7b; every flight
    // square is White's own and the crane on 6d guards 7c.
    let mut p = pos("cp5/ks5/1s5/SC5/7/7/6K b - 1");
    assert!(legal(&p).contains(&"7d7c".to_string()));
    play(&mut p, "7d7c");
    assert!(is_checkmate(&p));
}

#[test]
fn swallow_drop_mate_with_a_pinned_defender() {
    // S*4b checks the phoenix on 4a. Its only capturer other than the phoenix (guarded off by
    // the crane on 4c) is the falcon on 5b, pinned along the diagonal by the eagle on 7d: so
    // the drop would mate and is illegal.
    let p = pos("2pkp2/2f1s2/3C3/+F6/7/7/6K b S 1");
    assert!(!legal(&p).contains(&"S*4b".to_string()));
    // Without the eagle the falcon may capture: the drop is legal.
    let mut p = pos("2pkp2/2f1s2/3C3/7/7/7/6K b S 1");
    assert!(legal(&p).contains(&"S*4b".to_string()));
    play(&mut p, "S*4b");
    assert_eq!(legal(&p), vec!["5b4b".to_string()]);
}

#[test]
fn swallow_drop_next_to_a_phoenix_that_can_flee_is_legal() {
    // Same box but 3a is empty: the phoenix steps out.
    let p = pos("2pk3/2f1s2/3C3/+F6/7/7/6K b S 1");
    assert!(legal(&p).contains(&"S*4b".to_string()));
}

#[test]
fn promotion_is_forced_into_within_and_out_of_the_zone() {
    // Into: a swallow entering rank b promotes.
    let p = pos("k6/7/3S3/7/7/7/6K b - 1");
    assert!(legal(&p).contains(&"4c4b+".to_string()));
    assert!(!legal(&p).contains(&"4c4b".to_string()));
    // Out of: a falcon dropped on 4b that steps back to 3c promotes on leaving.
    let mut p = pos("k6/7/7/7/7/7/6K b F 1");
    play(&mut p, "F*4b 7a6a 4b3c+");
    assert_eq!(
        p.piece_at(sq("3c")),
        Some(Piece::new(Color::Black, PieceKind::Eagle))
    );
    // Outside the zone nothing promotes.
    let p = pos("k6/7/7/3F3/7/7/6K b - 1");
    assert!(legal(&p).iter().all(|m| !m.ends_with('+')));
    // White's zone is ranks f and g.
    let p = pos("k6/7/7/7/3s3/7/6K w - 1");
    assert!(legal(&p).contains(&"4e4f+".to_string()));
}

#[test]
fn falcon_dropped_in_the_zone_promotes_on_its_next_move() {
    let mut p = pos("1k5/7/7/7/7/7/6K b F 1");
    play(&mut p, "F*4b 6a7a");
    assert_eq!(
        p.piece_at(sq("4b")),
        Some(Piece::new(Color::Black, PieceKind::Falcon)),
        "a drop never promotes"
    );
    let falcon_moves: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("4b"))
        .collect();
    assert_eq!(falcon_moves.len(), 7);
    assert!(
        falcon_moves.iter().all(|m| m.ends_with('+')),
        "{falcon_moves:?}"
    );
    // The reference position: every falcon move promotes, out of the zone (to rank c) too.
    let p = pos("1k5/4F2/7/7/7/7/6K b - 1");
    let f: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("3b"))
        .collect();
    assert!(f.contains(&"3b2c+".to_string()) && f.contains(&"3b4c+".to_string()));
    assert!(f.iter().all(|m| m.ends_with('+')));
}

#[test]
fn eagle_back_diagonal_is_blocked_by_a_piece_on_the_first_square() {
    let p = pos("7/7/7/3+F3/4S2/7/k5K b - 1");
    let moves = legal(&p);
    assert!(
        !moves.contains(&"4d2f".to_string()),
        "blocked by the swallow on 3e"
    );
    assert!(
        moves.contains(&"4d6f".to_string()),
        "the other side is open"
    );
    assert!(!moves.contains(&"4d7g".to_string()), "never three squares");
    // The eagle's full set on an open board, from docs/RULES.md: diagonally forward any distance,
    // straight back any distance, one or two diagonally back, one step sideways/forward.
    let a = attacks(Color::Black, PieceKind::Eagle, sq("4d"), Bitboard::EMPTY);
    let expect = [
        "5c", "6b", "7a", "3c", "2b", "1a", "4e", "4f", "4g", "5e", "6f", "3e", "2f", "4c", "5d",
        "3d",
    ];
    assert_eq!(a.count(), expect.len() as u32);
    for s in expect {
        assert!(a.has(sq(s)), "{s}");
    }
}

#[test]
fn quails_keep_their_identity_through_capture() {
    // Black's right quail takes White's left quail: Black now holds a *left* quail.
    let mut p = pos("k6/7/7/3l3/3R3/7/6K b - 1");
    play(&mut p, "4e4d");
    assert_eq!(p.hand(Color::Black).count(PieceKind::LeftQuail), 1);
    assert_eq!(p.hand(Color::Black).count(PieceKind::RightQuail), 0);
    assert!(toritsume::notation::sfen::write_sfen(&p).contains(" L "));
    // Dropped on 3c, it is Black's left quail: ranging diagonally back to Black's right
    // (2d, 1e), one step back to the left (4d) and no further (5e).
    play(&mut p, "7a6a L*3c");
    assert_eq!(
        p.piece_at(sq("3c")),
        Some(Piece::new(Color::Black, PieceKind::LeftQuail))
    );
    let a = p.piece_attacks(sq("3c"));
    assert!(a.has(sq("2d")) && a.has(sq("1e")) && a.has(sq("4d")) && !a.has(sq("5e")));
}

#[test]
fn goose_jumps_over_pieces() {
    // Goose on 4d with every in-between square occupied: it still reaches 6b, 2b and 4f.
    let p = pos("k6/7/2sss2/3+S3/3s3/7/6K b - 1");
    let mut g: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("4d"))
        .collect();
    g.sort();
    assert_eq!(g, vec!["4d2b", "4d4f", "4d6b"]);
}

#[test]
fn pheasant_jumps_two_forward_over_a_piece() {
    let p = pos("k6/7/3s3/3P3/7/7/6K b - 1");
    let mut g: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("4d"))
        .collect();
    g.sort();
    assert_eq!(g, vec!["4d3e", "4d4b", "4d5e"]);
}

#[test]
fn no_move_may_leave_the_phoenix_in_check() {
    // White's left quail on 4a ranges down the file and pins Black's crane on 4f: of the
    // crane's six steps only the one along the file (4e) stays legal.
    let p = pos("3l2k/7/7/7/7/3C3/3K3 b - 1");
    let crane: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("4f"))
        .collect();
    assert_eq!(crane, vec!["4f4e"]);
    // The phoenix may not step onto an attacked square (4f is not the crane's any more).
    let p = pos("3l2k/7/7/7/7/7/3K3 b - 1");
    assert!(legal(&p).iter().all(|m| m != "4g4f"));
}

#[test]
fn check_must_be_answered() {
    // The crane on 4f gives check to the phoenix on 4g... from White: the white crane on 4f
    // attacks 4g. Black must capture, flee, and cannot drop (no interposition against a
    // stepping checker).
    let p = pos("k6/7/7/7/7/3c3/3K3 b S 1");
    assert!(p.in_check());
    let moves = legal(&p);
    assert!(moves.iter().all(|m| m.starts_with("4g")), "{moves:?}");
    assert!(
        moves.contains(&"4g4f".to_string()),
        "capture the unguarded crane"
    );
    // A ranging check can be blocked by a drop.
    let p = pos("3l2k/7/7/7/7/7/3K3 b S 1");
    assert!(p.in_check());
    assert!(legal(&p).contains(&"S*4c".to_string()));
}

#[test]
fn the_side_to_move_may_lack_its_phoenix() {
    // A mate problem: Black has no phoenix, everything is legal for Black.
    let p = pos("3k3/7/3S3/7/7/7/7 b C 1");
    assert!(!p.in_check());
    assert!(legal(&p).contains(&"C*4b".to_string()));
}

#[test]
fn position_errors_name_the_problem() {
    // Each error is of the kind that says what is wrong, and its message names it.
    macro_rules! is {
        ($p:pat) => {
            (|e: &ParseError| matches!(e, $p)) as fn(&ParseError) -> bool
        };
    }
    let cases = [
        (
            "7/7/7/7/7/7/6K b - 1",
            is!(ParseError::Position(PositionError::MissingPhoenix(_))),
            "White (the side not to move) has no phoenix",
        ),
        (
            "k5k/7/7/7/7/7/6K b - 1",
            is!(ParseError::Position(PositionError::TwoPhoenixes(_))),
            "White has more than one phoenix",
        ),
        (
            "k6/7/7/7/7/7/6K b 3F 1",
            is!(ParseError::Position(PositionError::TooMany { .. })),
            "too many falcons",
        ),
        (
            "k6/7/7/7/7/7/6K b 17S 1",
            is!(ParseError::Position(PositionError::TooMany { .. })),
            "too many swallows",
        ),
        (
            "k5S/7/7/7/7/7/6K b - 1",
            is!(ParseError::Position(
                PositionError::SwallowOnLastRank { .. }
            )),
            "Black swallow on 1a",
        ),
        (
            "k6/7/7/3S3/3S3/3S3/6K b - 1",
            is!(ParseError::Position(PositionError::TooManySwallowsOnFile {
                file: 4,
                count: 3,
                ..
            })),
            "3 unpromoted swallows on file 4",
        ),
        (
            "k6/S6/7/7/7/7/6K b - 1",
            is!(ParseError::Position(PositionError::NotToMoveInCheck(_))),
            "White (the side not to move) is in check",
        ),
        (
            "k6/7/7/7/7/7/6K x - 1",
            is!(ParseError::Side(_)),
            "expected `b` (Black) or `w` (White)",
        ),
        ("k6/7/7/7/7/7 b - 1", is!(ParseError::Board(_)), "6 ranks"),
        (
            "k6 b - 1",
            is!(ParseError::Board(_)),
            "no `/` in `k6`: expected 7 ranks",
        ),
        (
            "k7/7/7/7/7/7/6K b - 1",
            is!(ParseError::Board(_)),
            "more than 7 squares",
        ),
        (
            "k5/7/7/7/7/7/6K b - 1",
            is!(ParseError::Board(_)),
            "describes 6 squares",
        ),
        (
            "k5x/7/7/7/7/7/6K b - 1",
            is!(ParseError::Board(_)),
            "`x` is not a piece letter",
        ),
        (
            "k4+c1/7/7/7/7/7/6K b - 1",
            is!(ParseError::Board(_)),
            "only a falcon (F) or a swallow (S)",
        ),
        (
            "k6/7/7/7/7/7/6K b 2 1",
            is!(ParseError::Hand(_)),
            "ends with a count",
        ),
        (
            "k6/7/7/7/7/7/6K b K 1",
            is!(ParseError::Hand(_)),
            "a phoenix cannot be held",
        ),
        (
            "k6/7/7/7/7/7/6K b - 0",
            is!(ParseError::MoveNumber(_)),
            "move number",
        ),
        ("k6/7/7/7/7/7/6K[S w", is!(ParseError::Hand(_)), "no `]`"),
        (
            "startpos moves 3d3c 3c3b",
            is!(ParseError::Move { index: 2, .. }),
            "move 2 `3c3b`",
        ),
        (
            "startpos moves 4g4a",
            is!(ParseError::Move {
                index: 1,
                reason: MoveError::Illegal(_),
                ..
            }),
            "cannot legally move",
        ),
        ("", is!(ParseError::Empty), "empty"),
    ];
    for (text, kind, want) in cases {
        match parse_position(text) {
            Ok(_) => panic!("`{text}` was accepted"),
            Err(e) => {
                assert!(
                    kind(&e),
                    "`{text}`: {e:?} is not the expected kind of error"
                );
                assert!(
                    e.to_string().contains(want),
                    "`{text}`: error `{e}` does not mention `{want}`"
                );
            }
        }
    }
}

#[test]
fn usi_and_hodges_moves() {
    let p = pos("startpos");
    let m = toritsume::notation::usi::parse_usi_move(&p, "3d3c").unwrap();
    assert_eq!(toritsume::notation::hodges::to_hodges(&p, m), "Swx3c");
    // The cranes on 5g and 3g can both reach... neither shares a square; the phoenix and
    // the falcon both reach 5f and 3f: different kinds, so no origin is written.
    let m = toritsume::notation::usi::parse_usi_move(&p, "4f5f").unwrap();
    assert_eq!(toritsume::notation::hodges::to_hodges(&p, m), "Fa-5f");
    // Two cranes able to reach 4f? After 4f5f the cranes on 5g and 3g both can: origin shown.
    let mut q = p.clone();
    play(&mut q, "4f5f 7c7d");
    let m = toritsume::notation::usi::parse_usi_move(&q, "5g4f").unwrap();
    assert_eq!(toritsume::notation::hodges::to_hodges(&q, m), "Cr5g-4f");
    assert_eq!(
        toritsume::notation::hodges::parse_hodges(&q, "Cr5g-4f").unwrap(),
        m
    );
    let e = toritsume::notation::hodges::parse_hodges(&q, "Cr-4f").unwrap_err();
    assert_eq!(
        e,
        MoveError::Ambiguous {
            text: "Cr-4f".into(),
            candidates: vec!["Cr5g-4f".into(), "Cr3g-4f".into()],
        }
    );
    assert_eq!(e.to_string(), "`Cr-4f` is ambiguous: Cr5g-4f, Cr3g-4f");
    // Promotion: forced, so a missing `+` is understood; a wrong `+` is an error.
    let r = pos("k6/7/3S3/7/7/7/6K b - 1");
    let m = toritsume::notation::usi::parse_usi_move(&r, "4c4b").unwrap();
    assert!(m.promotes());
    assert_eq!(m.usi(), "4c4b+");
    assert_eq!(toritsume::notation::hodges::to_hodges(&r, m), "Sw-4b+");
    assert!(matches!(
        toritsume::notation::usi::parse_usi_move(&pos("startpos"), "4f5f+"),
        Err(MoveError::NoPromotion(_))
    ));
    assert!(matches!(
        toritsume::notation::usi::parse_usi_move(&pos("startpos"), "Ph-4f"),
        Err(MoveError::NotUsi(_))
    ));
    assert!(matches!(
        toritsume::notation::parse_any_move(&pos("startpos"), "Ph-4z"),
        Err(MoveError::NotAMove(_))
    ));
    assert!(matches!(
        toritsume::notation::usi::parse_usi_move(&pos("startpos"), "K*4d"),
        Err(MoveError::NotDroppable('K'))
    ));
    assert!(matches!(
        toritsume::notation::usi::parse_usi_move(&pos("startpos"), "4g4a"),
        Err(MoveError::Illegal(_))
    ));
    // Drops and quails.
    let s = pos("k6/7/7/7/7/7/6K b CR 1");
    let m = toritsume::notation::hodges::parse_hodges(&s, "Cr*4b").unwrap();
    assert_eq!(m, Move::drop(PieceKind::Crane, sq("4b")));
    let m = toritsume::notation::hodges::parse_hodges(&s, "Q*4b").unwrap();
    assert_eq!(m, Move::drop(PieceKind::RightQuail, sq("4b")));
    // A full solution line with move numbers.
    let t = pos("startpos");
    let line = parse_move_list(&t, "1. 3d3c Fax3c 2. Fa-5f").unwrap();
    assert_eq!(line.len(), 3);
}

#[test]
fn the_summary_of_evasions_counts_the_captures_of_the_checker() {
    // White's phoenix on 4a, White's falcon on 3a; Black drops a crane on 4b (checking
    // straight forward; it also covers 3a and 5a diagonally). Worked out by hand: the
    // phoenix may step to 3b or 5b or take the crane (nothing of Black's guards 4b), and
    // the falcon may take it (one step diagonally forward, for White towards 4b): four
    // board replies, two of them onto 4b. An adjacent check leaves nothing to interpose.
    let mut p = pos("3kf2/7/7/7/7/7/7 b C 1");
    play(&mut p, "C*4b");
    let mut replies = legal(&p);
    replies.sort();
    assert_eq!(replies, ["3a4b", "4a3b", "4a4b", "4a5b"]);
    let s = toritsume::rules::movegen::evasion_summary(&p, Bitboard::from_square(sq("4b")));
    assert_eq!(s.board_moves, 4);
    assert_eq!(s.onto_watched, 2);
    assert!(s.drop_squares.is_empty());
    // Watching another square counts only what lands there: the phoenix's step to 3b.
    let s = toritsume::rules::movegen::evasion_summary(&p, Bitboard::from_square(sq("3b")));
    assert_eq!(s.onto_watched, 1);
}

#[test]
fn how_a_check_can_be_answered() {
    // White's phoenix on 1a, checked by Black's eagle on 4d along 3c-2b; 2b is on the line,
    // 2a and 1b hold White's own pieces.
    let cases = [
        // The swallow on 2a steps to 2b: an interposition, and nothing else answers.
        (
            "5sk/6s/7/3+F3/7/7/3K3 w - 1",
            CheckAnswer::OnlyInterpositions,
        ),
        // A pheasant on 2a jumps to 2c, off the line: no reply at all.
        ("5pk/6s/7/3+F3/7/7/3K3 w - 1", CheckAnswer::Nothing),
        // With a swallow in hand, drops on 3c or 2b.
        (
            "5pk/6s/7/3+F3/7/7/3K3 w s 1",
            CheckAnswer::OnlyInterpositions,
        ),
        // A swallow on 4c takes the eagle.
        ("5sk/6s/3s3/3+F3/7/7/3K3 w - 1", CheckAnswer::Other),
        // With 1b empty the phoenix steps there.
        ("5pk/7/7/3+F3/7/7/3K3 w s 1", CheckAnswer::Other),
        // A crane's check from 2b: no square between, and the phoenix takes it.
        ("5pk/5C1/7/7/7/7/3K3 w - 1", CheckAnswer::Other),
        // Not in check.
        ("startpos", CheckAnswer::Other),
    ];
    for (text, want) in cases {
        assert_eq!(check_answer(&pos(text)), want, "{text}");
    }
}

#[test]
fn the_flights_tell_a_step_out_of_check_before_the_check_is_made() {
    // (position, check, whether the flights tell the phoenix steps out of it, how the
    // check can be answered once made)
    let cases = [
        // White's lone phoenix on 4a; a swallow dropped on 4b attacks 4a alone, and 3a,
        // 5a, 3b, 5b and the swallow's square stay free.
        ("3k3/7/7/7/7/7/7 b S 1", "S*4b", true, CheckAnswer::Other),
        // White's phoenix on 1a, Black's crane on 3b guarding 2a and falcon on 3c guarding
        // 2b: a swallow dropped on 1b is taken, nothing guarding it.
        ("6k/4C2/4F2/7/7/7/7 b S 1", "S*1b", true, CheckAnswer::Other),
        // The same with Black's left quail on 1g behind a crane on 1d. 1b is the one free
        // step; the crane's move to 2e opens file 1, checks along it and takes 1b away
        // too: mate, though the crane on 2e attacks none of the phoenix's steps.
        (
            "6k/4C2/4F2/6C/7/7/6L b - 1",
            "1d2e",
            false,
            CheckAnswer::Nothing,
        ),
        // The falcon's move to 2b attacks 1b from there; it guarded 2b before, so the
        // flights cannot tell that the phoenix takes it (nothing else guards 2b): a
        // `false` says nothing.
        (
            "6k/4C2/4F2/6C/7/7/6L b - 1",
            "3c2b",
            false,
            CheckAnswer::Other,
        ),
    ];
    for (text, check, escapes, answer) in cases {
        let p = pos(text);
        let m = parse_move_list(&p, check).unwrap()[0];
        let f = Flights::new(&p).expect("White has a phoenix");
        assert_eq!(f.escapes(&p, m), escapes, "{check} in {text}");
        let mut after = p.clone();
        after.do_move(m);
        assert!(after.in_check(), "{check} in {text} gives check");
        assert_eq!(check_answer(&after), answer, "{check} in {text}");
    }
}
