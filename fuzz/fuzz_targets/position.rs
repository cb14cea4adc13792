//! Positions as the commands read them (SFEN, FEN, `startpos`, with `moves ...`): any text
//! is read or refused with a reason, never a panic; a position read is written as SFEN and
//! FEN and read back the same, when it can be a problem: a line of moves may leave the
//! side not to move without its phoenix (a problem's attacker, after its move), which no
//! position read from SFEN or FEN may lack.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toritsume::notation::fen::write_fen;
use toritsume::notation::parse_position;
use toritsume::notation::sfen::write_sfen;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = parse_position(text) else {
        return;
    };
    if pos.phoenix(pos.side_to_move().flip()).is_none() {
        return;
    }
    let sfen = write_sfen(&pos);
    let again = parse_position(&sfen).expect("an SFEN the program wrote reads back");
    assert_eq!(again.key(), pos.key(), "{sfen}");
    let fen = write_fen(&pos);
    let again = parse_position(&fen).expect("a FEN the program wrote reads back");
    assert_eq!(again.key(), pos.key(), "{fen}");
});
