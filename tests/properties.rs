//! Property tests (proptest, with shrinking): positions reached by random legal moves from
//! random starts round-trip through SFEN and FEN, every legal move round-trips through its
//! USI and Hodges forms, and no parser panics on arbitrary text. A failing case shrinks to
//! the shortest move sequence that shows it.

mod common;

use proptest::prelude::*;
use toritsume::notation::fen::write_fen;
use toritsume::notation::hodges::{parse_hodges, to_hodges_with};
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::usi::parse_usi_move;
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::problem::Problem;
use toritsume::rules::{Color, MoveList, Position, generate_legal};

/// A position: a random legal start (from `seed`), then legal moves each chosen by an
/// index (modulo the number of legal moves). Shrinking drops moves and lowers indices.
fn position() -> impl Strategy<Value = Position> {
    (
        any::<u64>(),
        prop::collection::vec(any::<u16>(), 0..30),
        any::<bool>(),
    )
        .prop_map(|(seed, picks, from_start)| {
            // Random starts may leave one side without a phoenix (tsume positions do); a
            // move would then make that side the one not to move, which no position may be.
            let random = common::random_position(&mut common::rng(seed));
            let both = Color::ALL.iter().all(|&c| random.phoenix(c).is_some());
            let mut pos = if from_start || !both {
                Position::startpos()
            } else {
                random
            };
            for pick in picks {
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                pos.do_move(list[pick as usize % list.len()]);
            }
            pos
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn sfen_and_fen_round_trip(pos in position()) {
        let sfen = write_sfen(&pos);
        let back = parse_position(&sfen).unwrap();
        prop_assert_eq!(back.key(), pos.key(), "{}", sfen);
        prop_assert_eq!(write_sfen(&back), sfen.clone());
        let fen = write_fen(&pos);
        let back = parse_position(&fen).unwrap();
        prop_assert_eq!(back.key(), pos.key(), "{}", fen);
        prop_assert_eq!(write_fen(&back), fen);
    }

    #[test]
    fn random_setups_round_trip_including_a_missing_attacker_phoenix(seed in any::<u64>()) {
        let pos = common::random_position(&mut common::rng(seed));
        for text in [write_sfen(&pos), write_fen(&pos)] {
            let back = parse_position(&text).unwrap();
            prop_assert_eq!(back.key(), pos.key(), "{}", text);
        }
    }

    #[test]
    fn every_legal_move_round_trips_through_usi_and_hodges(pos in position()) {
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        for &m in list.iter() {
            prop_assert_eq!(parse_usi_move(&pos, &m.usi()), Ok(m), "{}", write_sfen(&pos));
            let h = to_hodges_with(&pos, m, &list);
            prop_assert_eq!(parse_hodges(&pos, &h), Ok(m), "{} in {}", h, write_sfen(&pos));
        }
        // A whole line in USI, as `moves` after a position.
        let line: Vec<String> = list.iter().take(1).map(|m| m.usi()).collect();
        let text = format!("{} moves {}", write_sfen(&pos), line.join(" "));
        prop_assert!(parse_position(&text).is_ok(), "{}", text);
    }

    #[test]
    fn parsers_never_panic(text in ".{0,200}", pos in position()) {
        let _ = parse_position(&text);
        let _ = parse_move_list(&pos, &text);
        let _ = Problem::from_json(&text);
        let _ = Problem::from_json(&format!("{{\"sfen\":{:?},\"plies\":{}}}", text, text.len()));
    }

    #[test]
    fn sfen_like_garbage_is_refused_with_a_short_message(
        board in "[kfcplrsKFCPLRS1-9+/]{1,300}",
        side in "[bw ]{0,2}",
        hand in "[0-9kfcplrsKFCPLRS-]{0,40}",
    ) {
        let text = format!("{board} {side} {hand}");
        if let Err(e) = parse_position(&text) {
            // The input is quoted at most 80 characters at a time.
            prop_assert!(e.to_string().len() < 400, "{}", e);
        }
    }
}
