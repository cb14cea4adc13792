//! Helpers shared by the integration tests: random positions and a deliberately simple
//! reference move generator (make every pseudo-legal move, keep those that do not leave the
//! mover in check), written apart from the library's generator so the two can be compared.
#![allow(dead_code)]

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use toritsume::rules::attacks::attacks;
use toritsume::rules::{Color, Move, MoveList, Piece, PieceKind, Position, Setup, Square};

/// Runs the `toritsume` binary with `args` (only in test binaries built with it).
#[cfg(feature = "cli")]
pub fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the `toritsume` binary with `args`, `input` on its standard input.
#[cfg(feature = "cli")]
pub fn run_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let text = input.to_string();
    // Written from a thread, so that a command that answers before reading it all (or
    // fills its output pipe first) cannot deadlock the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary runs");
    let _ = writer.join();
    out
}

/// What a run wrote to standard output.
pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The JSON objects a run printed on standard output, one a line.
pub fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// What a run wrote to standard error.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The records of a problem file (`problems/*.jsonl`), every line required to parse.
pub fn load_problems(path: impl AsRef<std::path::Path>) -> Vec<toritsume::problem::Problem> {
    let path = path.as_ref().display().to_string();
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            toritsume::problem::Problem::from_json(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}"))
        })
        .collect()
}

/// Whether a record says its position has no mate (`"status": "nomate"`).
pub fn recorded_nomate(p: &toritsume::problem::Problem) -> bool {
    p.extra.get("status").and_then(|v| v.as_str()) == Some("nomate")
}

/// Asserts that solution `s` says what record `p` says: status, length, main line read to
/// the end and proven shortest, no limit reached. `context` goes into the failure message.
pub fn assert_solution_as_recorded(
    s: &toritsume::solver::Solution,
    p: &toritsume::problem::Problem,
    context: &str,
) {
    use toritsume::solver::Status;
    if recorded_nomate(p) {
        assert_eq!(s.status, Status::NoMate, "{context}: {}", p.sfen);
        return;
    }
    assert_eq!(s.status, Status::Mate, "{context}: {}", p.sfen);
    assert_eq!(s.plies, p.plies, "{context}: {}", p.sfen);
    let moves: Vec<String> = s.moves.iter().map(|m| m.usi()).collect();
    assert_eq!(moves, p.moves, "{context}: {}", p.sfen);
    assert!(s.minimal && s.complete, "{context}: {}", p.sfen);
    assert_eq!(s.stopped_by, None, "{context}: {}", p.sfen);
}

/// Asserts that a verification says what its record says: status, length, main line (read
/// to the end and proven shortest), verdict. `context` goes into the failure message.
pub fn assert_matches_record(
    r: &toritsume::soundness::Report,
    p: &toritsume::problem::Problem,
    context: &str,
) {
    use toritsume::solver::Status;
    let s = &r.solution;
    if recorded_nomate(p) {
        assert_eq!(s.status, Status::NoMate, "{context}{}", p.sfen);
    } else {
        assert_eq!(s.status, Status::Mate, "{context}{}", p.sfen);
        assert_eq!(s.plies, p.plies, "{context}{}", p.sfen);
        let moves: Vec<String> = s.moves.iter().map(|m| m.usi()).collect();
        assert_eq!(moves, p.moves, "{context}{}", p.sfen);
        assert!(s.minimal && s.complete, "{context}{}", p.sfen);
    }
    assert_eq!(
        Some(r.verdict.to_string()),
        p.verdict,
        "{context}{}: {:?}",
        p.sfen,
        r.reasons
    );
}

/// A solver searching on one thread with a table of `mb` MB (1 MB makes later phases of a
/// search find again what earlier ones left).
pub fn one_thread_solver(mb: usize) -> toritsume::solver::Solver {
    toritsume::solver::Solver::new(toritsume::solver::SolverConfig {
        hash_mb: mb,
        threads: 1,
        ..toritsume::solver::SolverConfig::default()
    })
    .unwrap_or_else(|e| panic!("a {mb} MB table: {e}"))
}

/// An empty scratch directory for one test, removed with everything in it when the test
/// ends, passed or failed (its name starts with the test's and is otherwise unique).
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

/// A new [`Scratch`] directory for the test `name`.
pub fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("toritsume-{name}-"))
            .tempdir()
            .unwrap_or_else(|e| panic!("a scratch directory for {name}: {e}")),
    )
}

/// Keeps a copy of the screenshot `png` as `name` under cargo's directory for test
/// files (`target/tmp/screenshots`), where a person can look at it after the run, and
/// says where.
pub fn keep_screenshot(png: &std::path::Path, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let kept = dir.join(name);
    std::fs::copy(png, &kept).unwrap();
    eprintln!("screenshot kept: {}", kept.display());
}

/// A seeded random generator.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The promotion zone of `c`, written out again here (rows 0–1 for Black, 5–6 for White).
fn in_zone(c: Color, sq: Square) -> bool {
    match c {
        Color::Black => sq.row() <= 1,
        Color::White => sq.row() >= 5,
    }
}

/// Every legal move by brute force. `swallow_mate_rule` off skips rule 3 (used inside the
/// rule's own test, where the question is only whether any reply exists).
pub fn naive_legal(pos: &Position, swallow_mate_rule: bool) -> Vec<Move> {
    let us = pos.side_to_move();
    let them = us.flip();
    let mut pseudo = Vec::new();
    for from in Square::all() {
        let Some(p) = pos.piece_at(from) else {
            continue;
        };
        if p.color != us {
            continue;
        }
        for to in attacks(us, p.kind, from, pos.occupied()) {
            if pos.piece_at(to).is_some_and(|q| q.color == us) {
                continue;
            }
            let promote = matches!(p.kind, PieceKind::Falcon | PieceKind::Swallow)
                && (in_zone(us, from) || in_zone(us, to));
            pseudo.push(Move::normal(from, to, promote));
        }
    }
    for kind in PieceKind::HAND {
        if !pos.hand(us).has(kind) {
            continue;
        }
        for to in Square::all() {
            if pos.piece_at(to).is_some() {
                continue;
            }
            if kind == PieceKind::Swallow {
                let last = if us == Color::Black { 0 } else { 6 };
                if to.row() == last {
                    continue;
                }
                let on_file = (0..7u8)
                    .filter(|&r| {
                        pos.piece_at(Square::from_row_col(r, to.col()).unwrap())
                            == Some(Piece::new(us, PieceKind::Swallow))
                    })
                    .count();
                if on_file >= 2 {
                    continue;
                }
            }
            pseudo.push(Move::drop(kind, to));
        }
    }
    pseudo
        .into_iter()
        .filter(|&m| {
            let mut p = pos.clone();
            p.do_move(m);
            if let Some(k) = p.phoenix(us)
                && p.is_attacked(k, them, p.occupied())
            {
                return false;
            }
            if swallow_mate_rule
                && m.is_drop()
                && m.drop_kind() == PieceKind::Swallow
                && p.in_check()
                && naive_legal(&p, false).is_empty()
            {
                return false;
            }
            true
        })
        .collect()
}

/// Sorted copy of a move list.
pub fn sorted(list: &MoveList) -> Vec<Move> {
    let mut v = list.as_slice().to_vec();
    v.sort();
    v
}

/// A random legal position: both phoenixes (the side to move's only sometimes), a random
/// number of other pieces on random squares, some pieces in hand. Positions the rules reject
/// are redrawn.
pub fn random_position(rng: &mut ChaCha8Rng) -> Position {
    loop {
        let mut s = Setup {
            side: if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            },
            ..Setup::default()
        };
        let mut pool: Vec<PieceKind> = Vec::new();
        for k in PieceKind::HAND {
            for _ in 0..k.total() {
                pool.push(k);
            }
        }
        let mut empty: Vec<usize> = (0..49).collect();
        let mut place = |s: &mut Setup, p: Piece, rng: &mut ChaCha8Rng| {
            let i = rng.random_range(0..empty.len());
            let sq = empty.swap_remove(i);
            s.board[sq] = Some(p);
        };
        let side = s.side;
        place(&mut s, Piece::new(side.flip(), PieceKind::Phoenix), rng);
        if rng.random_bool(0.7) {
            place(&mut s, Piece::new(side, PieceKind::Phoenix), rng);
        }
        let on_board = rng.random_range(0..22);
        for _ in 0..on_board {
            let i = rng.random_range(0..pool.len());
            let mut k = pool.swap_remove(i);
            if let Some(p) = k.promoted()
                && rng.random_bool(0.3)
            {
                k = p;
            }
            let c = if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            place(&mut s, Piece::new(c, k), rng);
        }
        let in_hand = rng.random_range(0..10);
        for _ in 0..in_hand {
            let i = rng.random_range(0..pool.len());
            let k = pool.swap_remove(i);
            let c = rng.random_range(0..2);
            s.hands[c][k.index()] += 1;
        }
        if let Ok(p) = Position::from_setup(&s) {
            return p;
        }
    }
}

/// Plays up to `plies` random legal moves (stopping at a position with none).
pub fn random_walk(pos: &mut Position, plies: usize, rng: &mut ChaCha8Rng) {
    for _ in 0..plies {
        let mut list = MoveList::new();
        toritsume::rules::generate_legal(pos, &mut list);
        if list.is_empty() {
            return;
        }
        let m = list[rng.random_range(0..list.len())];
        pos.do_move(m);
    }
}

/// The reference perft rows: (name, sfen, fen, depth, nodes).
pub fn perft_rows() -> Vec<(String, String, String, u32, u64)> {
    let text = include_str!("../data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

pub mod checker;

/// A random mate-problem-like position: White's phoenix in or near its camp with a few
/// White pieces around it, a few Black pieces and a small Black hand, Black (no phoenix) to
/// move. Positions the rules reject are redrawn.
pub fn random_tsume(rng: &mut ChaCha8Rng) -> Position {
    use toritsume::rules::Square;
    loop {
        let mut s = Setup::default();
        let mut pool: Vec<PieceKind> = Vec::new();
        for k in PieceKind::HAND {
            for _ in 0..k.total() {
                pool.push(k);
            }
        }
        let krow = rng.random_range(0..3u8);
        let kcol = rng.random_range(0..7u8);
        let k = Square::from_row_col(krow, kcol).unwrap();
        s.board[k.index()] = Some(Piece::new(Color::White, PieceKind::Phoenix));
        let near = |rng: &mut ChaCha8Rng, radius: i8| -> Option<usize> {
            let r = krow as i8 + rng.random_range(-radius..=radius);
            let c = kcol as i8 + rng.random_range(-radius..=radius);
            if (0..7).contains(&r) && (0..7).contains(&c) {
                Some((r * 7 + c) as usize)
            } else {
                None
            }
        };
        let defenders = rng.random_range(0..4);
        let attackers = rng.random_range(2..7);
        for (n, color, radius) in [(defenders, Color::White, 1), (attackers, Color::Black, 2)] {
            for _ in 0..n {
                let Some(sq) = near(rng, radius) else {
                    continue;
                };
                if s.board[sq].is_some() {
                    continue;
                }
                let i = rng.random_range(0..pool.len());
                let mut kind = pool.swap_remove(i);
                if let Some(p) = kind.promoted()
                    && rng.random_bool(0.25)
                {
                    kind = p;
                }
                s.board[sq] = Some(Piece::new(color, kind));
            }
        }
        for _ in 0..rng.random_range(0..5) {
            let i = rng.random_range(0..pool.len());
            let kind = pool.swap_remove(i);
            s.hands[0][kind.index()] += 1;
        }
        if let Ok(p) = Position::from_setup(&s) {
            return p;
        }
    }
}

/// The left-right mirror of an SFEN board field (files reversed; the quails swap sides, so
/// `l` and `r` swap), written independently of the library.
pub fn mirror_board(board: &str) -> String {
    board
        .split('/')
        .map(|rank| {
            let mut cells: Vec<String> = Vec::new();
            let mut promoted = false;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    cells.extend((0..d).map(|_| String::new()));
                } else if ch == '+' {
                    promoted = true;
                } else {
                    cells.push(format!(
                        "{}{}",
                        if promoted { "+" } else { "" },
                        swap_quail(ch)
                    ));
                    promoted = false;
                }
            }
            cells.reverse();
            let mut out = String::new();
            let mut empty = 0;
            for c in cells {
                if c.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A quail letter for the other quail (the mirror image of a left quail is a right one).
pub fn swap_quail(c: char) -> char {
    match c {
        'l' => 'r',
        'r' => 'l',
        'L' => 'R',
        'R' => 'L',
        c => c,
    }
}

/// The left-right mirror of a whole SFEN (board, side, hands with quails swapped, number).
pub fn mirror_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let hand: String = f[2].chars().map(swap_quail).collect();
    format!("{} {} {} {}", mirror_board(f[0]), f[1], hand, f[3])
}
