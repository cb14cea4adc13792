//! Position and move notation: SFEN/FEN round trips over random positions, hand-checked
//! conversions, and a fuzz test throwing random and mutated text at every parser.

mod common;

use common::{random_position, rng};
use rand::RngExt;
use toritsume::notation::fairy::{fairy_move, fairy_to_usi, parse_fairy_move};
use toritsume::notation::fen::write_fen;
use toritsume::notation::hodges::{parse_hodges, to_hodges};
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::usi::parse_usi_move;
use toritsume::notation::{parse_move_list, parse_position};
use toritsume::problem::Problem;
use toritsume::problem::foreign::csv_rows;
use toritsume::rules::{MoveList, generate_legal};

#[test]
fn sfen_and_fen_round_trip() {
    let mut r = rng(7);
    for _ in 0..5000 {
        let p = random_position(&mut r);
        let s = write_sfen(&p);
        let f = write_fen(&p);
        let ps = parse_position(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let pf = parse_position(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(ps, p, "{s}");
        assert_eq!(pf.key(), p.key(), "{f}");
        assert_eq!(pf.to_setup().board, p.to_setup().board, "{f}");
        assert_eq!(write_sfen(&ps), s);
    }
}

#[test]
fn known_forms() {
    let p = parse_position("startpos").unwrap();
    assert_eq!(
        write_sfen(&p),
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1"
    );
    assert_eq!(
        write_fen(&p),
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1"
    );
    // Hands: Black upper case first, counts before letters.
    let p = parse_position("2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1").unwrap();
    assert_eq!(
        write_sfen(&p),
        "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1"
    );
    // FEN with pyffish's `[-]`, no trailing fields, and `w` meaning Black.
    let a = parse_position("rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1").unwrap();
    let b = parse_position("rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[]").unwrap();
    assert_eq!(a.key(), parse_position("startpos").unwrap().key());
    assert_eq!(b.key(), a.key());
    // USI-command forms and a moves tail.
    let c = parse_position("position startpos moves 3d3c 4b3c").unwrap();
    let d =
        parse_position("sfen rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1 moves 3d3c 4b3c")
            .unwrap();
    assert_eq!(c, d);
    // UCI's form, as Fairy-Stockfish and pychess-variants send it: `fen`, then Fairy-Stockfish
    // moves (3d3c is e4e5, 4b3c is d6e5).
    let e = parse_position(
        "position fen rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1 moves e4e5 d6e5",
    )
    .unwrap();
    assert_eq!(e, c);
    assert!(parse_position("fen rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1").is_err());
    assert_eq!(c.side_to_move(), toritsume::rules::Color::Black);
    assert_eq!(
        write_sfen(&c),
        "rpckcpl/7/ssssfss/2s4/SSSSSSS/3F3/LPCKCPR b Ss 3"
    );
}

#[test]
fn every_legal_move_round_trips_through_usi_hodges_and_fairy_stockfish() {
    let mut r = rng(8);
    for _ in 0..2000 {
        let p = random_position(&mut r);
        let mut l = MoveList::new();
        generate_legal(&p, &mut l);
        for &m in l.iter() {
            assert_eq!(parse_usi_move(&p, &m.usi()), Ok(m), "{p:?} {m}");
            let h = to_hodges(&p, m);
            assert_eq!(parse_hodges(&p, &h), Ok(m), "{p:?} {m} {h}");
            // Fairy-Stockfish's form, as `export` writes it, reads back, and is USI square
            // for square.
            let f = fairy_move(m);
            assert_eq!(parse_fairy_move(&p, &f), Ok(m), "{p:?} {m} {f}");
            assert_eq!(fairy_to_usi(&f), Some(m.usi()), "{f}");
        }
    }
}

fn mutate(text: &str, r: &mut rand_chacha::ChaCha8Rng) -> String {
    const ALPHABET: &[u8] = b"kfcplrsKFCPLRS+/-[]*0123456789 bwamoves@;,\"\n";
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..r.random_range(1..4) {
        let i = if b.is_empty() {
            0
        } else {
            r.random_range(0..b.len())
        };
        let c = ALPHABET[r.random_range(0..ALPHABET.len())];
        match r.random_range(0..3) {
            0 if !b.is_empty() => b[i] = c,
            1 => b.insert(i, c),
            _ if !b.is_empty() => {
                b.remove(i);
            }
            _ => b.push(c),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn parsers_never_panic_on_garbage() {
    let mut r = rng(9);
    let seeds = [
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1",
        "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[] w - - 0 1",
        "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1",
        "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2[RLCFSSSSpprlcssss] w - - 0 1",
        "startpos moves 3d3c 4b3c 5e5d",
        "kp5/1s5/1C5/7/7/7/6K b S 1 moves S*7b",
        "1k5/2S4/7/FC5/7/7/6K[FRS] w 0 1 moves F@b6 b7b6 a4b5",
        "1k5/2S4/7/FC5/7/7/6K[FRS] w - - 0 1;variant torishogi;bm F@b6;pv F@b6,b7b6",
        "PuzzleId,FEN,Moves\nab,\"1k5/2S4/7/FC5/7/7/6K[FRS] w 0 1\",F@b6 b7b6",
    ];
    let mut accepted = 0;
    for i in 0..60_000 {
        let text = if i % 4 == 0 {
            // Pure noise, multi-byte characters included.
            let n = r.random_range(0..40);
            (0..n)
                .map(|_| char::from_u32(r.random_range(0..0x3000)).unwrap_or('?'))
                .collect()
        } else {
            mutate(seeds[i % seeds.len()], &mut r)
        };
        if let Ok(p) = parse_position(&text) {
            accepted += 1;
            // Whatever is accepted writes back and reads the same, except a position reached
            // by a `moves` tail from a mate problem, where the side that just moved (the
            // attacker) has no phoenix: as a starting position that is refused.
            match parse_position(&write_sfen(&p)) {
                Ok(q) => assert_eq!(q, p, "{text}"),
                Err(e) => assert!(p.phoenix(p.side_to_move().flip()).is_none(), "{text}: {e}"),
            }
        }
        // Move parsers on the same noise.
        let start = parse_position("startpos").unwrap();
        let _ = parse_move_list(&start, &text);
        let _ = parse_hodges(&start, &text);
        let _ = parse_usi_move(&start, &text);
        let _ = parse_fairy_move(&start, &text);
        // The readers of other programs' puzzles.
        let _ = Problem::from_epd(&text);
        for (_, row) in csv_rows(text.as_bytes()) {
            if let Ok(p) = row {
                let _ = p.main_line();
            }
        }
    }
    assert!(
        accepted > 100,
        "the mutations should keep some positions valid"
    );
}
