//! Scans the tail of a long mate for a repair. A change on a square that the first K plies
//! of the main line never touch (no move starts or ends there) leaves those plies playable
//! as they were, so the position after them, the tail, can be verified alone: a few
//! milliseconds where the whole mate takes seconds. Every one and two changes (`--changes`)
//! on those squares are tried: a square emptied, or given a piece of either side, promoted
//! or not, within the game's piece counts. Each changed start position has the first K plies
//! played on it (with the defender's hand of `--defender-hand`, filled in before), and its
//! tail is verified with the hands as they are then. A tail that is sound, or flawed only
//! by redundant pieces (they may serve the plies before it), and makes the whole at least
//! `--least` plies long is set back on the start position, which is then verified whole.
//! Every sound problem of `--least` plies or more is written to `--out` as a record.
//!
//! ```sh
//! cargo run --release --example scan_tails -- \
//!     --from "c3c+s1/rs4k/PL1+sp1s/s3+sP1/SP3sC/3CSs+F/+s+F+S1lR1 b Ss 1" \
//!     --defender-hand given --after 84 --changes 2 --least 101 --out tails.jsonl
//! ```

use clap::Parser;
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use toritsume::notation::parse_position;
use toritsume::notation::sfen::write_sfen;
use toritsume::rules::movegen::generate_legal;
use toritsume::rules::{Color, Hand, Move, MoveList, Piece, PieceKind, Position, Setup, Square};
use toritsume::solver::{DefenderHand, Solver, SolverConfig, prepare};
use toritsume::soundness::{Flaw, Report, Verdict, VerifyMode, verify_with};

/// Scans the tail of a long mate for one- and two-square changes that repair it.
#[derive(Parser)]
#[command(name = "scan_tails")]
struct Args {
    /// The mate (SFEN; the attacker to move).
    #[arg(long)]
    from: String,
    /// Plies of its main line played before the tail (even: the attacker is to move then).
    #[arg(long)]
    after: usize,
    /// Squares changed at once, at most (1 or 2).
    #[arg(long, default_value_t = 2)]
    changes: usize,
    /// The length, in plies, the whole problem must reach.
    #[arg(long, default_value_t = 101)]
    least: usize,
    /// Whose pieces the defender holds in the start position: `rest` (the tsume
    /// convention) or `given` (the hand the position states).
    #[arg(long, default_value = "rest")]
    defender_hand: DefenderHand,
    /// Node budget of a tail's verification.
    #[arg(long, default_value_t = 3_000_000)]
    tail_nodes: u64,
    /// Node budget of a whole position's verification.
    #[arg(long, default_value_t = 60_000_000)]
    nodes: u64,
    /// Output file for the sound problems found (JSON lines; never overwritten).
    #[arg(long)]
    out: String,
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("scan_tails: {e}");
    std::process::exit(2);
}

/// One change: a square and what it holds afterwards (`None`: emptied).
type Change = (Square, Option<Piece>);

/// The start position with `changes` made, its defender's hand filled in per `hand`:
/// `None` when that is no legal position (too many pieces of a kind, a swallow on its last
/// rank, ...).
fn changed(start: &Setup, changes: &[Change], hand: DefenderHand) -> Option<Position> {
    let mut s = start.clone();
    for &(sq, p) in changes {
        s.board[sq.index()] = p;
    }
    if hand == DefenderHand::Rest {
        let defender = s.side.flip();
        s.hands[defender.index()] = [0; 6];
    }
    Position::from_setup(&s).ok().map(|pos| prepare(&pos, hand))
}

/// `pos` after `moves`, each legal in turn; `None` when one is not.
fn played(pos: &Position, moves: &[Move]) -> Option<Position> {
    let mut p = pos.clone();
    let mut list = MoveList::new();
    for &m in moves {
        list.clear();
        generate_legal(&p, &mut list);
        if !list.contains(m) {
            return None;
        }
        p.do_move(m);
    }
    Some(p)
}

/// Whether a report is sound, or flawed by redundant pieces alone.
fn sound_but_redundant(r: &Report) -> bool {
    r.verdict == Verdict::Sound
        || (r.verdict == Verdict::Flawed
            && r.reasons
                .iter()
                .all(|f| matches!(f, Flaw::RedundantPiece(_))))
}

/// A verdict and length, as the summary counts them (`sound 19`, `nomate`).
fn label(r: &Report) -> String {
    let verdict = r.verdict.to_string();
    match r.solution.plies {
        Some(n) => format!("{verdict} {n}"),
        None => verdict,
    }
}

fn solver(hash_mb: usize, nodes: u64) -> Solver {
    Solver::new(SolverConfig {
        hash_mb,
        nodes: Some(nodes),
        threads: 1,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| fail(e))
}

fn main() {
    let args = Args::parse();
    let hand = args.defender_hand;
    if !(1..=2).contains(&args.changes) {
        fail("--changes: 1 or 2");
    }
    if args.after % 2 != 0 {
        fail("--after: an even number of plies (the tail starts with the attacker to move)");
    }
    let start = parse_position(&args.from).unwrap_or_else(|e| fail(e));
    // Opened once the arguments are read and before the scan, never over an existing
    // file, so that a path that cannot be written fails at once rather than after hours
    // of work.
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&args.out)
        .unwrap_or_else(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                fail(format!("{} exists; not overwritten", args.out))
            }
            _ => fail(format!("cannot write {}: {e}", args.out)),
        });
    // The start's own solver is let go once its line is known: the scan runs others.
    let report = {
        let mut whole = solver(256, args.nodes);
        whole.set_defender_hand(hand);
        verify_with(&mut whole, &start, None, VerifyMode::Full)
    };
    let line = &report.solution.moves;
    if line.len() < args.after {
        // Nothing was written: the file this run made goes.
        let _ = std::fs::remove_file(&args.out);
        fail(format!(
            "the main line has {} plies ({}), fewer than --after {}",
            line.len(),
            label(&report),
            args.after
        ));
    }
    eprintln!(
        "start: {} ({} plies read{})",
        label(&report),
        line.len(),
        report
            .reasons
            .first()
            .map(|f| format!("; {f}"))
            .unwrap_or_default()
    );
    let prefix = &line[..args.after];
    let base = prepare(&start, hand);
    let setup = base.to_setup();
    let mut touched = [false; 49];
    for m in prefix {
        if !m.is_drop() {
            touched[m.from().index()] = true;
        }
        touched[m.to().index()] = true;
    }
    let free: Vec<Square> = Square::all()
        .filter(|&sq| {
            !touched[sq.index()]
                && base
                    .piece_at(sq)
                    .is_none_or(|p| p.kind != PieceKind::Phoenix)
        })
        .collect();
    eprintln!(
        "{} squares the first {} plies never touch: {}",
        free.len(),
        args.after,
        free.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // What a free square may hold instead of what it holds.
    let options = |sq: Square| -> Vec<Change> {
        let now = base.piece_at(sq);
        std::iter::once(None)
            .chain(Color::ALL.into_iter().flat_map(|c| {
                PieceKind::ALL
                    .into_iter()
                    .filter(|&k| k != PieceKind::Phoenix)
                    .map(move |k| Some(Piece::new(c, k)))
            }))
            .filter(|&p| p != now)
            .map(|p| (sq, p))
            .collect()
    };
    let mut candidates: Vec<Vec<Change>> = Vec::new();
    for (i, &a) in free.iter().enumerate() {
        for ca in options(a) {
            candidates.push(vec![ca]);
            if args.changes == 2 {
                for &b in &free[i + 1..] {
                    for cb in options(b) {
                        candidates.push(vec![ca, cb]);
                    }
                }
            }
        }
    }
    let tails: Vec<(Vec<Change>, Position, Position)> = candidates
        .into_par_iter()
        .filter_map(|c| {
            let pos = changed(&setup, &c, hand)?;
            let tail = played(&pos, prefix)?;
            Some((c, pos, tail))
        })
        .collect();
    eprintln!("{} changes give a legal start and tail", tails.len());
    let tail_reports: Vec<(String, bool)> = tails
        .par_iter()
        .map_init(
            || {
                let mut s = solver(64, args.tail_nodes);
                s.set_defender_hand(DefenderHand::Given);
                s
            },
            |s, (_, _, tail)| {
                s.clear_table();
                let r = verify_with(s, tail, None, VerifyMode::Full);
                let long = r
                    .solution
                    .plies
                    .is_some_and(|n| args.after + n as usize >= args.least);
                (label(&r), long && sound_but_redundant(&r))
            },
        )
        .collect();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for (l, _) in &tail_reports {
        *tally.entry(l.as_str()).or_default() += 1;
    }
    eprintln!("tails: {tally:?}");
    let good: Vec<&(Vec<Change>, Position, Position)> = tails
        .iter()
        .zip(&tail_reports)
        .filter(|(_, (_, ok))| *ok)
        .map(|(t, _)| t)
        .collect();
    eprintln!(
        "{} tails sound (or flawed by redundant pieces alone) and long enough",
        good.len()
    );
    let wholes: Vec<(String, Option<Vec<String>>, u16)> = good
        .par_iter()
        .map_init(
            || {
                let mut s = solver(128, args.nodes);
                s.set_defender_hand(hand);
                s
            },
            |s, (_, pos, _)| {
                s.clear_table();
                let r = verify_with(s, pos, None, VerifyMode::Full);
                let line = (r.verdict == Verdict::Sound)
                    .then(|| r.solution.moves.iter().map(|m| m.usi()).collect());
                (label(&r), line, r.solution.plies.unwrap_or(0))
            },
        )
        .collect();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for ((changes, pos, _), (l, line, plies)) in good.iter().zip(&wholes) {
        *tally.entry(l.as_str()).or_default() += 1;
        let what: Vec<String> = changes
            .iter()
            .map(|(sq, p)| match p {
                Some(p) => format!("{sq}: {}", p.sfen()),
                None => format!("{sq}: empty"),
            })
            .collect();
        eprintln!("{} -> {l}: {}", what.join(", "), write_sfen(pos));
        if let Some(moves) = line
            && *plies as usize >= args.least
        {
            // Under the convention the record leaves the defender's hand to it, as given.
            let mut shown = pos.clone();
            if hand == DefenderHand::Rest {
                shown.set_hand(shown.side_to_move().flip(), Hand::EMPTY);
            }
            let mut rec = json!({
                "sfen": write_sfen(&shown),
                "plies": plies,
                "moves": moves,
                "verdict": "sound",
                "source": format!("scan_tails --from \"{}\" --after {}, {}", args.from, args.after, what.join(", ")),
            });
            if hand == DefenderHand::Given {
                rec["defender_hand"] = json!("given");
            }
            writeln!(out, "{rec}").unwrap_or_else(|e| fail(e));
        }
    }
    eprintln!("whole positions: {tally:?}");
}
