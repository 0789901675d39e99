//! What smtgrid adds around one solver run: writing the script, spawning
//! the solver in its own process group, reading both pipes, parsing the
//! answer and verifying the grid, against running the same solver binary
//! on the same script file directly. `cargo bench --bench overhead`
//! (needs yices-smt2 on PATH: scripts/install-solvers).

use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::lower::lower;
use smtgrid::parse::{self, InputFormat};
use smtgrid::smtlib::reply::read_answer;
use smtgrid::solver::{Cancel, Limits, SolverRequest, run};

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn bench(c: &mut Criterion) {
    let puzzles = parse::parse_str(
        PUZZLE,
        &smtgrid::Location::file("top95"),
        Some(InputFormat::Lines),
    )
    .expect("a valid line");
    let model = lower(&puzzles[0]);
    let solvers = SolverRequest::parse(&["yices2".to_string()], &[])
        .and_then(|r| r.solvers())
        .expect("yices-smt2 must be on PATH: run scripts/install-solvers");
    let yices = &solvers[0];
    let limits = Limits::timeout(Duration::from_secs(60));
    let cancel = Cancel::new();
    let mut g = c.benchmark_group("overhead-9x9");
    g.sample_size(30);
    for enc in [Encoding::Onehot, Encoding::Lia] {
        let encoded = encode(&model, enc, &Options::default());
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("p.smt2");
        std::fs::write(&file, &encoded.script).expect("write script");
        let (prog, args) = yices.oneshot_command(&file, Some(encoded.logic), limits.timeout);
        g.bench_function(format!("yices-direct/{enc}"), |b| {
            b.iter(|| {
                let out = Command::new(&prog)
                    .args(&args)
                    .output()
                    .expect("yices runs");
                assert!(out.stdout.starts_with(b"sat"));
            })
        });
        g.bench_function(format!("smtgrid/{enc}"), |b| {
            b.iter(|| {
                let out = run(
                    yices,
                    &encoded.script,
                    Some(encoded.logic),
                    &limits,
                    &cancel,
                );
                let answer = read_answer(&out.stdout).expect("readable");
                let values = encoded.decoder.decode(&answer.model).expect("a model");
                model.check(&values).expect("a valid grid");
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
