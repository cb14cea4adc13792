//! Makes very long problems by hill-climbing a long one: each step changes the position a
//! little (a piece moved, two swapped, a piece changing sides or being promoted or
//! unpromoted, a piece taken into or out of the attacker's hand, or given to or taken from
//! the defender's), verifies the result with the default conventions (the defender holds the
//! rest; with `--defender-hand given` the hand the position states, and a piece taken off
//! the board may leave play) and keeps it when it scores at least as well: twice its length, less 12 a cook,
//! 6 for spare pieces and 1 a final dual (no mate, or a verification stopped by its node
//! budget, is never kept). The first sound problem of each length is written at once as a
//! record with its length, main line and verdict, so a run can be stopped at any time.
//!
//! It works best from a position whose defender's hand is empty (every piece on the board
//! or in the attacker's hand): then no drop interposes, and long-range checks (the eagle saw
//! of `problems/climbed.jsonl`) run far.
//!
//! ```sh
//! cargo run --release --example climb_long -- \
//!     --from "LC+S+Sc+s1/+SP+S+SS1k/R1SS+F1s/1LF2P1/+S+S4s/P3sR1/+s2C1+sC b P 1" \
//!     --seed 1 --steps 20000 --until 101 --out climb.jsonl
//! ```

use clap::Parser;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::io::Write;
use toritsume::notation::parse_position;
use toritsume::notation::sfen::write_sfen;
use toritsume::rules::{Color, Piece, PieceKind, Position, Setup, Square};
use toritsume::solver::{DefenderHand, Limits, Solver, SolverConfig, Status};
use toritsume::soundness::{Flaw, Redundant, Verdict, VerifyMode, verify_with};

/// Hill-climbs a long problem into longer sound ones.
#[derive(Parser)]
#[command(name = "climb_long")]
struct Args {
    /// The position to start from (SFEN; the attacker to move).
    #[arg(long)]
    from: String,
    /// Seed of the draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Steps (candidates verified).
    #[arg(long, default_value_t = 20_000)]
    steps: usize,
    /// Stop once a sound problem of this many plies is found.
    #[arg(long, default_value_t = 101)]
    until: u16,
    /// Node budget of a candidate's verification.
    #[arg(long, default_value_t = 30_000_000)]
    nodes: u64,
    /// Chance of keeping a candidate that scores a little worse (by up to 4), which gets a
    /// climb out of a dead end.
    #[arg(long, default_value_t = 0.0)]
    accept_worse: f64,
    /// Keep no candidate shorter than this (to repair a long problem's flaws).
    #[arg(long, default_value_t = 1)]
    least: u16,
    /// Weight of the cook and spare-piece penalties (more than 1 to repair a long problem).
    #[arg(long, default_value_t = 1)]
    flaw_weight: i64,
    /// Keep no candidate longer than this (so that a climb cannot lengthen a mate by
    /// giving the defender more of what makes it go round).
    #[arg(long, default_value_t = u16::MAX)]
    most: u16,
    /// Charge the spare-piece penalty once for each piece left in the attacker's hand
    /// rather than once in all, so that a climb can shed spare pieces one at a time.
    #[arg(long)]
    spare_per_piece: bool,
    /// Output file (JSON lines; never overwritten).
    #[arg(long)]
    out: String,
    /// Whose pieces the defender holds: `rest` (the tsume convention) or `given` (the
    /// problems state the defender's hand: the start position's, and a piece taken off the
    /// board leaves play or goes to that hand; the records written say
    /// `"defender_hand": "given"`).
    #[arg(long, default_value = "rest")]
    defender_hand: DefenderHand,
    /// Squares no change may touch (comma-separated, e.g. the squares an eagle saw runs
    /// over, so that the climb works on the rest of the problem).
    #[arg(long, value_delimiter = ',')]
    protect: Vec<String>,
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("climb_long: {e}");
    std::process::exit(2);
}

/// How much worse than the position before a candidate may score and still be kept (now
/// and then, by `--accept-worse`).
const WORSE_BY: i64 = 4;

/// A verified candidate: its score, its length, and, when it is sound, its main line.
struct Scored {
    score: i64,
    plies: u16,
    sound: Option<Vec<String>>,
    /// The redundant pieces, when they are its only flaw.
    redundant_only: Vec<Redundant>,
}

/// Verifies `pos` (the defender holding the rest) and scores it; `None` when it has no
/// mate, no mate of at least `least` plies (found out by a solve that gives up at the first
/// shorter mate, before the verification), or the verification could not decide.
fn score(
    solver: &mut Solver,
    pos: &Position,
    least: u16,
    flaw_weight: i64,
    args: &Args,
) -> Option<Scored> {
    solver.clear_table();
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let sol = solver.solve_range(pos, Some(least), None, limits);
    if sol.status != Status::Mate || !sol.minimal || sol.plies? < least || sol.plies? > args.most {
        return None;
    }
    let report = verify_with(solver, pos, None, VerifyMode::Full);
    if matches!(report.verdict, Verdict::NoMate | Verdict::Unknown)
        || report.reasons.iter().any(Flaw::is_undecided)
    {
        return None;
    }
    let plies = report.solution.plies?;
    let spare = report
        .reasons
        .iter()
        .any(|r| matches!(r, Flaw::SparePieces(_)));
    let (cooks, final_duals) = (report.cooks.len(), report.final_dual_moves().len());
    let score = 2 * i64::from(plies)
        - flaw_weight * 12 * cooks as i64
        - if !spare {
            0
        } else if args.spare_per_piece {
            flaw_weight * 6 * i64::from(report.solution.spare.total().max(1))
        } else {
            flaw_weight * 6
        }
        - final_duals as i64;
    let sound = (report.verdict == Verdict::Sound)
        .then(|| report.solution.moves.iter().map(|m| m.usi()).collect());
    let redundant_only = if report.verdict == Verdict::Flawed
        && report
            .reasons
            .iter()
            .all(|r| matches!(r, Flaw::RedundantPiece(_)))
    {
        report.redundant.clone()
    } else {
        Vec::new()
    };
    Some(Scored {
        score,
        plies,
        sound,
        redundant_only,
    })
}

/// How many pieces of each hand kind are neither on the board nor in a hand (what the
/// defender holds under the tsume convention, where its own hand is left empty).
fn rest(s: &Setup, attacker: Color) -> [u32; 6] {
    let mut r = [0u32; 6];
    for k in PieceKind::HAND {
        r[k.index()] = (k.total() as u32)
            .saturating_sub(s.hands[attacker.index()][k.index()])
            .saturating_sub(s.hands[attacker.flip().index()][k.index()]);
    }
    for p in s.board.iter().flatten() {
        if p.kind != PieceKind::Phoenix {
            let i = p.kind.unpromoted().index();
            r[i] = r[i].saturating_sub(1);
        }
    }
    r
}

/// A hand kind drawn from `counts` (none when all are zero).
fn draw_kind(rng: &mut ChaCha8Rng, counts: &[u32; 6]) -> Option<PieceKind> {
    let kinds: Vec<PieceKind> = PieceKind::HAND
        .into_iter()
        .filter(|k| counts[k.index()] > 0)
        .collect();
    (!kinds.is_empty()).then(|| kinds[rng.random_range(0..kinds.len())])
}

/// `pos` without the pieces of `gone` (out of play: the defender's hand is stated).
fn without(pos: &Position, gone: &[Redundant]) -> Option<Position> {
    let mut s = pos.to_setup();
    let attacker = pos.side_to_move();
    for g in gone {
        match g {
            Redundant::Board { square, .. } => s.board[square.index()] = None,
            Redundant::Hand { kind } => {
                let n = &mut s.hands[attacker.index()][kind.index()];
                *n = n.checked_sub(1)?;
            }
        }
    }
    Position::from_setup(&s).ok()
}

/// One small change of `s` (the attacker to move) on no square of `protected`; the
/// defender's hand is left to the convention.
fn change(
    rng: &mut ChaCha8Rng,
    s: &mut Setup,
    attacker: Color,
    protected: &[bool; 49],
    given: bool,
) {
    let occupied: Vec<usize> = (0..49)
        .filter(|&i| !protected[i] && s.board[i].is_some_and(|p| p.kind != PieceKind::Phoenix))
        .collect();
    let empty: Vec<usize> = (0..49)
        .filter(|&i| !protected[i] && s.board[i].is_none())
        .collect();
    let pick = |rng: &mut ChaCha8Rng, v: &[usize]| v[rng.random_range(0..v.len())];
    match rng.random_range(0..100) {
        // A piece moved to an empty square.
        0..35 if !occupied.is_empty() && !empty.is_empty() => {
            let (from, to) = (pick(rng, &occupied), pick(rng, &empty));
            s.board[to] = s.board[from].take();
        }
        // Two pieces swapped.
        35..50 if occupied.len() > 1 => {
            let (a, b) = (pick(rng, &occupied), pick(rng, &occupied));
            s.board.swap(a, b);
        }
        // A piece changing sides.
        50..62 if !occupied.is_empty() => {
            let i = pick(rng, &occupied);
            let p = s.board[i].unwrap();
            s.board[i] = Some(Piece::new(p.color.flip(), p.kind));
        }
        // A falcon or swallow promoted, or an eagle or goose unpromoted.
        62..70 if !occupied.is_empty() => {
            let i = pick(rng, &occupied);
            let p = s.board[i].unwrap();
            let kind = match p.kind.promoted() {
                Some(k) => k,
                None => p.kind.unpromoted(),
            };
            s.board[i] = Some(Piece::new(p.color, kind));
        }
        // A piece taken into the attacker's hand.
        70..80 if !occupied.is_empty() => {
            let i = pick(rng, &occupied);
            let p = s.board[i].take().unwrap();
            s.hands[attacker.index()][p.kind.unpromoted().index()] += 1;
        }
        // A piece of the attacker's hand, or of the rest, put on the board for either side.
        80..90 if !empty.is_empty() => {
            let from_hand = rng.random_bool(0.5);
            let counts = if from_hand {
                s.hands[attacker.index()]
            } else {
                rest(s, attacker)
            };
            if let Some(kind) = draw_kind(rng, &counts) {
                if from_hand {
                    s.hands[attacker.index()][kind.index()] -= 1;
                }
                let color = if rng.random_bool(0.5) {
                    attacker
                } else {
                    attacker.flip()
                };
                s.board[pick(rng, &empty)] = Some(Piece::new(color, kind));
            }
        }
        // A piece given to the defender (taken off the board); with a stated hand, half the
        // time into it, else out of play.
        _ if !occupied.is_empty() => {
            let p = s.board[pick(rng, &occupied)].take().unwrap();
            if given && rng.random_bool(0.5) {
                s.hands[attacker.flip().index()][p.kind.unpromoted().index()] += 1;
            }
        }
        _ => {}
    }
}

/// Writes a sound problem as a record (at once, so that a run can be stopped any time).
fn write_record(
    out: &mut std::fs::File,
    pos: &Position,
    plies: u16,
    moves: &[String],
    source: &str,
    given: bool,
) {
    let mut rec = json!({
        "sfen": write_sfen(pos),
        "plies": plies,
        "moves": moves,
        "verdict": "sound",
        "source": source,
    });
    if given {
        rec["defender_hand"] = json!("given");
    }
    writeln!(out, "{rec}")
        .and_then(|_| out.flush())
        .unwrap_or_else(|e| fail(e));
}

fn main() {
    let args = Args::parse();
    if std::path::Path::new(&args.out).exists() {
        fail(format!("{} exists; not overwritten", args.out));
    }
    let start = parse_position(&args.from).unwrap_or_else(|e| fail(e));
    let attacker = start.side_to_move();
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 256,
        nodes: Some(args.nodes),
        threads: 1,
        ..SolverConfig::default()
    })
    .unwrap_or_else(|e| fail(e));
    let mut out = std::fs::File::create(&args.out).unwrap_or_else(|e| fail(e));
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut protected = [false; 49];
    for name in &args.protect {
        let sq = Square::parse(name.trim())
            .unwrap_or_else(|| fail(format!("--protect: not a square: {name:?}")));
        protected[sq.index()] = true;
    }
    let given = args.defender_hand == DefenderHand::Given;
    solver.set_defender_hand(args.defender_hand);
    let mut current = start.to_setup();
    if !given {
        current.hands[attacker.flip().index()] = [0; 6];
    }
    let mut best = score(&mut solver, &start, 1, args.flaw_weight, &args)
        .unwrap_or_else(|| fail("the start position has no mate the verifier can decide"));
    // The lengths of the sound problems written so far (one of each length is written).
    let mut written: std::collections::BTreeSet<u16> = best
        .sound
        .is_some()
        .then_some(best.plies)
        .into_iter()
        .collect();
    let command = format!(
        "climb_long --from \"{}\" --seed {} --nodes {} --least {}{} --flaw-weight {} --accept-worse {}{}{}{}",
        args.from,
        args.seed,
        args.nodes,
        args.least,
        if args.most == u16::MAX {
            String::new()
        } else {
            format!(" --most {}", args.most)
        },
        args.flaw_weight,
        args.accept_worse,
        if args.spare_per_piece {
            " --spare-per-piece"
        } else {
            ""
        },
        if args.protect.is_empty() {
            String::new()
        } else {
            format!(" --protect {}", args.protect.join(","))
        },
        if given { " --defender-hand given" } else { "" }
    );
    let started = std::time::Instant::now();
    for step in 0..args.steps {
        if step % 1000 == 0 {
            eprintln!("{:>6.0} s, step {step}", started.elapsed().as_secs_f64());
        }
        let mut cand = current.clone();
        for _ in 0..[1, 1, 1, 2, 3][rng.random_range(0..5)] {
            change(&mut rng, &mut cand, attacker, &protected, given);
        }
        let Ok(pos) = Position::from_setup(&cand) else {
            continue;
        };
        // The least length that could score high enough to be kept.
        let slack = if args.accept_worse > 0.0 { WORSE_BY } else { 0 };
        let least = (u16::try_from((best.score - slack + 1).max(2) / 2).unwrap_or(1) | 1)
            .clamp(args.least, u16::MAX);
        let Some(scored) = score(&mut solver, &pos, least, args.flaw_weight, &args) else {
            continue;
        };
        if scored.score < best.score
            && !(scored.score >= best.score - WORSE_BY && rng.random_bool(args.accept_worse))
        {
            continue;
        }
        if scored.score > best.score {
            eprintln!(
                "{:>6.0} s, step {step}: score {} ({} plies{}) {}",
                started.elapsed().as_secs_f64(),
                scored.score,
                scored.plies,
                if scored.sound.is_some() {
                    ", sound"
                } else {
                    ""
                },
                write_sfen(&pos)
            );
        }
        if let Some(moves) = &scored.sound
            && written.insert(scored.plies)
        {
            write_record(
                &mut out,
                &pos,
                scored.plies,
                moves,
                &format!("{command}, step {step}"),
                given,
            );
        }
        // With the defender's hand stated, a piece left out is out of play: a mate whose only
        // flaw is redundant pieces becomes a problem without them (all of them at once, else
        // one of them).
        if given && !scored.redundant_only.is_empty() && !written.contains(&scored.plies) {
            let r = &scored.redundant_only;
            let tries = std::iter::once(r.clone()).chain(r.iter().map(|x| vec![x.clone()]));
            for gone in tries {
                let Some(q) = without(&pos, &gone) else {
                    continue;
                };
                let Some(s) = score(&mut solver, &q, scored.plies, 1, &args) else {
                    continue;
                };
                if let Some(moves) = &s.sound
                    && s.plies == scored.plies
                    && written.insert(s.plies)
                {
                    eprintln!(
                        "step {step}: sound without its redundant pieces: {}",
                        write_sfen(&q)
                    );
                    write_record(
                        &mut out,
                        &q,
                        s.plies,
                        moves,
                        &format!("{command}, step {step}, redundant pieces taken out"),
                        given,
                    );
                    break;
                }
            }
        }
        current = cand;
        best = scored;
        if written.last().is_some_and(|&n| n >= args.until) {
            break;
        }
    }
}
