//! A random sweep of long mates (heavy: run by `.ci/run` in release): positions drawn the
//! way the generator draws them, nobody choosing them, solved; every mate of 13 plies or
//! more must have a main line of its whole length (docs/RULES.md "Useless interposition":
//! every stated length has a main line that reaches it), which Fairy-Stockfish's Python
//! binding accepts move by move (tests/data/check_lines.py); and every interposition the
//! line leaves out must be useless by the rule, every one it plays a defence, each judged
//! here from the rule's words with separate solves of the positions it names: the longest
//! of the defender's other replies, and Q′ (the checker's capture, the piece back in the
//! defender's hand) mated within that.
//!
//! `SWEEP_SEED` and `SWEEP_MATES` (environment) draw another sample or a larger one.

mod common;

use common::checker::Checker;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::io::Write;
use toritsume::generator::sample::{backward, random_position};
use toritsume::notation::fairy::fairy_move;
use toritsume::notation::fen::write_fen;
use toritsume::notation::sfen::write_sfen;
use toritsume::rules::movegen::interposition;
use toritsume::rules::{Move, MoveList, Piece, PieceKind, Position, Square, generate_legal};
use toritsume::solver::{DefenderHand, Limits, Solver, SolverConfig, Status};

/// Mates of at least this many plies are kept.
const LEAST: u16 = 13;
/// Nodes allowed to a candidate's solve (one past it is skipped, and counted).
const SOLVE_NODES: u64 = 1_500_000;

/// Separate solves of the positions the rule names, the defender's hand as it stands.
struct Judge {
    solver: Solver,
    solves: u64,
}

impl Judge {
    /// The shortest mate of `pos` (attacker to move) within `max` plies; `None` when there
    /// is none. A limit reached is a failure of the sweep, not an answer.
    fn length_within(&mut self, pos: &Position, max: u16) -> Option<u16> {
        self.solves += 1;
        self.solver.clear_table();
        let sol = self.solver.solve_with(
            pos,
            Some(max),
            Limits {
                nodes: Some(20_000_000),
                ..Limits::default()
            },
        );
        match sol.status {
            Status::Mate => {
                assert!(
                    sol.minimal,
                    "{}: a limit kept the length open",
                    write_sfen(pos)
                );
                sol.plies.filter(|&n| n <= max)
            }
            Status::NoMate => None,
            Status::Unknown => panic!("{}: a limit stopped the solve", write_sfen(pos)),
        }
    }

    /// Whether `pos` (defender to move, in check or not) is mated within `r` plies, the rule
    /// applied to each interposition among its replies.
    fn mated_within(&mut self, pos: &Position, r: u16) -> bool {
        if !pos.in_check() {
            return false;
        }
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        // The rule's blocks: those the checker can take with check (Q′ exists).
        let is_block = |m: Move| Checker::q_prime(pos, m).is_some();
        // The length the defender has without interposing, each other reply mated in time.
        let mut without = 0;
        for &e in replies.iter().filter(|&&e| !is_block(e)) {
            if r == 0 {
                return false;
            }
            let mut c = pos.clone();
            c.do_move(e);
            match self.length_within(&c, r - 1) {
                Some(n) => without = without.max(n + 1),
                None => return false,
            }
        }
        for &e in replies.iter().filter(|&&e| is_block(e)) {
            if self.useless(pos, e, without) {
                continue;
            }
            if r == 0 {
                return false;
            }
            let mut c = pos.clone();
            c.do_move(e);
            if self.length_within(&c, r - 1).is_none() {
                return false;
            }
        }
        true
    }

    /// Whether block `m` of `pos` is useless when the defender has `without` plies without
    /// interposing: its Q′ is mated within them.
    fn useless(&mut self, pos: &Position, m: Move, without: u16) -> bool {
        match Checker::q_prime(pos, m) {
            Some(q) => self.mated_within(&q, without),
            None => false,
        }
    }

    /// The length the defender (to move at `pos`, mated within `d` plies) has without
    /// interposing.
    fn without_interposing(&mut self, pos: &Position, d: u16) -> u16 {
        let mut replies = MoveList::new();
        generate_legal(pos, &mut replies);
        let mut without = 0;
        for &e in replies.iter() {
            if Checker::q_prime(pos, e).is_some() {
                continue;
            }
            let mut c = pos.clone();
            c.do_move(e);
            let n = self
                .length_within(&c, d - 1)
                .unwrap_or_else(|| panic!("{}: {e} outlasts {d} plies", write_sfen(pos)));
            without = without.max(n + 1);
        }
        without
    }
}

/// The legal moves of `pos`, as a sorted list of USI strings.
fn legal_usi(pos: &Position) -> Vec<String> {
    let mut l = MoveList::new();
    generate_legal(pos, &mut l);
    let mut v: Vec<String> = l.iter().map(|m| m.usi()).collect();
    v.sort();
    v
}

/// `start` with an attacker's phoenix added (Fairy-Stockfish needs both), on the empty square
/// farthest from the defender's phoenix where the line plays out as before: every move of
/// the line legal, the added phoenix never in check, and the defender's replies the same at
/// every defender move and at the end.
fn with_attacker_phoenix(start: &Position, moves: &[Move]) -> Option<Position> {
    let attacker = start.side_to_move();
    let k = start.phoenix(attacker.flip())?;
    if start.phoenix(attacker).is_some() {
        return Some(start.clone());
    }
    let mut squares: Vec<Square> = Square::all()
        .filter(|&s| start.piece_at(s).is_none())
        .collect();
    let far = |s: Square| s.row().abs_diff(k.row()).max(s.col().abs_diff(k.col()));
    squares.sort_by_key(|&s| (std::cmp::Reverse(far(s)), s));
    squares.into_iter().find_map(|sq| {
        let mut setup = start.to_setup();
        setup.board[sq.index()] = Some(Piece::new(attacker, PieceKind::Phoenix));
        let with = Position::from_setup(&setup).ok()?;
        let (mut a, mut b) = (start.clone(), with.clone());
        for &m in moves {
            let same = if b.side_to_move() == attacker {
                !b.in_check() && legal_usi(&b).contains(&m.usi())
            } else {
                legal_usi(&a) == legal_usi(&b)
            };
            if !same {
                return None;
            }
            a.do_move(m);
            b.do_move(m);
        }
        (legal_usi(&a) == legal_usi(&b)).then_some(with)
    })
}

/// Checks one solved mate's line by the rule; returns what is wrong.
fn check_by_rule(
    judge: &mut Judge,
    start: &Position,
    plies: u16,
    moves: &[Move],
    left_out: &[(usize, Move)],
) -> Result<(), String> {
    let mut p = start.clone();
    for ply in 1..=moves.len() + 1 {
        if ply % 2 == 0 {
            let d = plies - (ply as u16 - 1);
            let without = judge.without_interposing(&p, d);
            for &(_, m) in left_out.iter().filter(|(k, _)| *k == ply) {
                if !judge.useless(&p, m, without) {
                    return Err(format!("{m} left out at ply {ply} is no useless block"));
                }
            }
            if let Some(&m) = moves.get(ply - 1)
                && judge.useless(&p, m, without)
            {
                return Err(format!("{m} played at ply {ply} is a useless block"));
            }
        }
        if let Some(&m) = moves.get(ply - 1) {
            p.do_move(m);
        }
    }
    Ok(())
}

#[test]
#[ignore = "heavy: minutes in release; run by .ci/run"]
fn long_random_mates_have_whole_lines_that_fairy_stockfish_accepts() {
    let seed: u64 = std::env::var("SWEEP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(75);
    let want: usize = std::env::var("SWEEP_MATES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24);
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 64,
        ..SolverConfig::default()
    })
    .unwrap();
    let mut judge = Judge {
        solver: Solver::new(SolverConfig {
            hash_mb: 16,
            defender_hand: DefenderHand::Given,
            ..SolverConfig::default()
        })
        .unwrap(),
        solves: 0,
    };
    let mut records = Vec::new();
    let (mut candidates, mut skipped) = (0u64, 0u64);
    let mut left_out_total = 0;
    let mut blocks_played = 0;
    // Mates whose line changes wherever an attacker's phoenix stands (none so far).
    let mut no_square = 0;
    while records.len() < want {
        assert!(candidates < 200_000, "too few long mates drawn");
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003) ^ candidates);
        let pos = if candidates % 4 == 0 {
            random_position(&mut rng)
        } else {
            backward(&mut rng, 6 + (candidates % 9) as usize)
        };
        candidates += 1;
        solver.clear_table();
        let sol = solver.solve_with(
            &pos,
            None,
            Limits {
                nodes: Some(SOLVE_NODES),
                ..Limits::default()
            },
        );
        // A limit reached anywhere in the solve (the first search, the proof of the
        // shortest, the reading of the line) puts the candidate aside.
        if sol.status == Status::Unknown || sol.stopped_by.is_some() {
            skipped += 1;
            continue;
        }
        let Some(plies) = sol
            .plies
            .filter(|&n| sol.status == Status::Mate && n >= LEAST)
        else {
            continue;
        };
        let what = format!("{} (mate in {plies})", write_sfen(&pos));
        assert!(
            sol.complete && sol.moves.len() == plies as usize,
            "{what}: a line of {} plies",
            sol.moves.len()
        );
        let left_out: Vec<(usize, Move)> = sol.useless.iter().map(|u| (u.ply, u.mv)).collect();
        let t = std::time::Instant::now();
        let solves = judge.solves;
        if let Err(e) = check_by_rule(&mut judge, &sol.position, plies, &sol.moves, &left_out) {
            panic!("{what}: {e}");
        }
        eprintln!(
            "{what}: {} left out, judged in {} solves, {:.1} s",
            left_out.len(),
            judge.solves - solves,
            t.elapsed().as_secs_f64()
        );
        left_out_total += left_out.len();
        let mut p = sol.position.clone();
        for (i, &m) in sol.moves.iter().enumerate() {
            if i % 2 == 1 && interposition(&p).is_some_and(|(b, _)| b.has(m.to())) {
                blocks_played += 1;
            }
            p.do_move(m);
        }
        let Some(with) = with_attacker_phoenix(&sol.position, &sol.moves) else {
            no_square += 1;
            continue;
        };
        records.push(json!({
            "sfen": write_sfen(&sol.position),
            "fen": write_fen(&with),
            "plies": plies,
            "moves": sol.moves.iter().map(|&m| fairy_move(m)).collect::<Vec<_>>(),
            "left_out": sol.useless.iter().map(|u| json!({"ply": u.ply, "move": fairy_move(u.mv)})).collect::<Vec<_>>(),
        }));
    }
    eprintln!(
        "{} mates of {LEAST}+ plies from {candidates} candidates ({skipped} past the node limit, \
         {no_square} with no square for a phoenix); {left_out_total} useless blocks left out, \
         {blocks_played} blocks played; {} separate solves",
        records.len(),
        judge.solves
    );
    let dir = std::env::temp_dir().join(format!("toritsume-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lines.jsonl");
    let mut f = std::fs::File::create(&file).unwrap();
    for r in &records {
        writeln!(f, "{r}").unwrap();
    }
    drop(f);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/check_lines.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(&file)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "Fairy-Stockfish refuses some lines (pip install pyffish if it is missing):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
