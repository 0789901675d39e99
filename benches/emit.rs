//! Emit speed: lowering plus encoding, from a parsed puzzle to script text.
//! `cargo bench --bench emit`. Figures are in the README.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::lower::lower;
use smtgrid::puzzle::{Kind, Puzzle};

/// An n×n sudoku (n = b²) from the standard pattern solution, with about
/// a third of the cells given.
fn sudoku(b: usize) -> Puzzle {
    let n = b * b;
    let givens = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let v = ((r % b) * b + r / b + c) % n + 1;
                    ((r * 7 + c * 13) % 3 == 0).then_some(v as u32)
                })
                .collect()
        })
        .collect();
    let mut p = Puzzle {
        givens,
        ..Puzzle::blank(&format!("bench-{n}x{n}"), Kind::Sudoku, n)
    };
    p.set(smtgrid::elements::boxes::Boxes { rows: b, cols: b });
    p
}

fn bench(c: &mut Criterion) {
    let opts = Options::default();
    let mut g = c.benchmark_group("emit");
    for b in [3usize, 4, 5, 6, 7, 8] {
        let p = sudoku(b);
        for enc in Encoding::ALL {
            let bytes = encode(&lower(&p), enc, &opts).script.len();
            g.throughput(Throughput::Bytes(bytes as u64));
            if b >= 7 {
                g.sample_size(10);
            }
            g.bench_with_input(
                BenchmarkId::new(enc.name(), format!("{}x{}", b * b, b * b)),
                &p,
                |bench, p| bench.iter(|| encode(&lower(p), enc, &opts).script.len()),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
