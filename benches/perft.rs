//! Perft speed: startpos depth 5 and drops_w depth 3 (one thread, bulk counting at the last
//! ply), plus move generation alone on a drop-heavy position.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use toritsume::notation::parse_position;
use toritsume::rules::perft::perft;
use toritsume::rules::{MoveList, generate_checks, generate_legal};

const DROPS_W: &str = "2ck1p1/2s1s2/1s3s1/3+F3/1S4+s/2S1S2/2PKC2 b FCLR4Sc2plr4s 1";

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = parse_position("startpos").unwrap();
    g.bench_function("startpos_d5", |b| {
        b.iter(|| assert_eq!(perft(&mut start.clone(), black_box(5)), 2_179_749))
    });
    let drops = parse_position(DROPS_W).unwrap();
    g.bench_function("drops_w_d3", |b| {
        b.iter(|| assert_eq!(perft(&mut drops.clone(), black_box(3)), 4_658_906))
    });
    g.finish();

    let mut g = c.benchmark_group("movegen");
    g.bench_function("legal_drops_w", |b| {
        b.iter(|| {
            let mut l = MoveList::new();
            generate_legal(black_box(&drops), &mut l);
            l.len()
        })
    });
    g.bench_function("checks_drops_w", |b| {
        b.iter(|| {
            let mut l = MoveList::new();
            generate_checks(black_box(&drops), &mut l);
            l.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
