//! Solver and verifier speed over the bundled problems (problems/classic.jsonl): the whole set
//! solved one after another on one thread, one problem of each length from 5 to 15 plies, and
//! solve against verify on the same mate-in-9 (the verifier reuses the solver's table); and
//! the quick end of the hard set (benches/data/hard.jsonl: every position whose baseline
//! solve took under a second), solved one after another. Every iteration starts from an
//! empty table. The whole hard set, a matter of minutes, is run by `toritsume bench`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use toritsume::problem::Problem;
use toritsume::rules::Position;
use toritsume::solver::{Solver, SolverConfig, Status};
use toritsume::soundness::{Verdict, verify};

fn problems() -> Vec<(Problem, Position)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problems/classic.jsonl"
    ))
    .expect("problems/classic.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let p = Problem::from_json(l).unwrap();
            let pos = p.position().unwrap();
            (p, pos)
        })
        .collect()
}

fn solver() -> Solver {
    Solver::new(SolverConfig {
        hash_mb: 64,
        ..SolverConfig::default()
    })
    .expect("a table of a few MB")
}

fn bench_solve(c: &mut Criterion) {
    let all = problems();
    let mut s = solver();

    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    g.bench_function("classic_all", |b| {
        b.iter(|| {
            for (p, pos) in &all {
                s.clear_table();
                let sol = s.solve(black_box(pos));
                assert_eq!(sol.plies, p.plies);
            }
        })
    });
    // The first (hardest-numbered) problem of each length.
    for len in [5u16, 7, 9, 11, 13, 15] {
        let (p, pos) = all
            .iter()
            .rev()
            .find(|(p, _)| p.plies == Some(len))
            .expect("a problem of this length");
        g.bench_function(format!("mate_in_{len}"), |b| {
            b.iter(|| {
                s.clear_table();
                let sol = s.solve(black_box(pos));
                assert_eq!(sol.status, Status::Mate);
                assert_eq!(sol.plies, p.plies);
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("verify_vs_solve");
    g.sample_size(10);
    let (_, nine) = all
        .iter()
        .find(|(p, _)| p.plies == Some(9))
        .expect("a mate in 9");
    g.bench_function("solve_mate_in_9", |b| {
        b.iter(|| {
            s.clear_table();
            s.solve(black_box(nine)).plies
        })
    });
    g.bench_function("verify_mate_in_9", |b| {
        b.iter(|| {
            s.clear_table();
            let r = verify(&mut s, black_box(nine), None);
            assert_eq!(r.verdict, Verdict::Sound);
        })
    });
    g.finish();
}

/// The hard set's positions whose recorded baseline time is under `ms`, with their records.
fn hard_set_under(ms: u64) -> Vec<(Problem, Position)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/hard.jsonl"
    ))
    .expect("benches/data/hard.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Problem::from_json(l).unwrap())
        .filter(|p| {
            p.extra["baseline"]["time_ms"]
                .as_u64()
                .is_some_and(|t| t < ms)
        })
        .map(|p| {
            let pos = p.position().unwrap();
            (p, pos)
        })
        .collect()
}

fn bench_hard(c: &mut Criterion) {
    let quick = hard_set_under(1000);
    let mut s = Solver::new(SolverConfig {
        hash_mb: 256,
        ..SolverConfig::default()
    })
    .expect("a table of 256 MB");
    let mut g = c.benchmark_group("hard");
    g.sample_size(10);
    g.bench_function(
        format!("under_1s_baseline_{}_positions", quick.len()),
        |b| {
            b.iter(|| {
                for (p, pos) in &quick {
                    s.clear_table();
                    let sol = s.solve(black_box(pos));
                    assert_eq!(sol.plies, p.plies);
                }
            })
        },
    );
    g.finish();
}

/// A mate in 1 as the Python package's `toritsume.solve` runs it, from the text to the JSON
/// report (a fresh solver of the default 256 MB table each time): the figure the package's
/// own cost is measured against (python/benches/bench.py).
fn bench_report(c: &mut Criterion) {
    use toritsume::report::{Extras, solve_item, to_json_line};
    let mut g = c.benchmark_group("report");
    g.bench_function("mate_in_1_from_text", |b| {
        b.iter(|| {
            let mut solver = Solver::new(toritsume::solver::SolverConfig::default()).unwrap();
            let item =
                toritsume::input::read_one("3k3/7/3C3/7/7/7/7 b C 1", "argument".to_string());
            let solved = solve_item(
                &mut solver,
                &item,
                toritsume::solver::DefenderHand::Rest,
                Extras::default(),
            )
            .unwrap();
            to_json_line(&solved.report)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_solve, bench_hard, bench_report);
criterion_main!(benches);
