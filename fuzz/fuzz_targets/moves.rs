//! Moves as the commands read them (USI, Hodges, Fairy-Stockfish's form, move lists with
//! numbers), played from one of a few positions: any text is read or refused, never a
//! panic; a move read is legal there and its USI reads back as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toritsume::notation::{parse_any_move, parse_move_list, parse_position};
use toritsume::rules::{MoveList, generate_legal};

/// The positions the moves are played from: the start, a problem with drops, promotions
/// near, and White in check from a quail with swallows and cranes in hand.
const POSITIONS: [&str; 4] = [
    "startpos",
    "1k5/2S4/7/FC5/7/7/7 b FRS 1",
    "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1",
    "kp5/7/1C5/7/7/7/L5K w 2S2c 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let pos = parse_position(POSITIONS[pick as usize % POSITIONS.len()]).expect("a position");
    if let Ok(m) = parse_any_move(&pos, text) {
        let mut legal = MoveList::new();
        generate_legal(&pos, &mut legal);
        assert!(
            legal.contains(m),
            "{text:?} read as {} is not legal",
            m.usi()
        );
        assert_eq!(parse_any_move(&pos, &m.usi()), Ok(m));
    }
    let _ = parse_move_list(&pos, text);
});
