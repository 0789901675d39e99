//! The cost of reading input is bounded: endless or oversized input stops
//! at the limit with exit 2, a gzip bomb is stopped on its decompressed
//! size, line files are streamed, and `.gz` line files are read directly.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use flate2::Compression;
use flate2::write::GzEncoder;
use smtgrid::parse::{InputLimits, open};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What a finished run of the binary gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident memory of the process, in KB.
    max_rss_kb: i64,
}

/// Runs smtgrid and measures its peak memory with `wait4`.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also gives its peak memory"
)]
fn run(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smtgrid"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the smtgrid binary runs");
    let mut err_pipe = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err_pipe.read_to_string(&mut s);
        s
    });
    let mut stdout = String::new();
    let _ = child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout);
    let stderr = reader.join().expect("stderr reader");
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    assert!(libc::WIFEXITED(status), "smtgrid was killed: {stderr}");
    Run {
        code: libc::WEXITSTATUS(status),
        stdout,
        stderr,
        max_rss_kb: usage.ru_maxrss,
    }
}

/// Runs smtgrid and asserts that it exits with 2 saying `says` on stderr.
fn refused(args: &[&str], says: &str) -> Run {
    let r = run(args);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(says), "{}", r.stderr);
    r
}

/// Writes `text` gzip-compressed to `path`.
fn write_gz(path: &Path, text: impl Fn(&mut dyn Write)) {
    let file = std::fs::File::create(path).expect("create");
    let mut gz = GzEncoder::new(std::io::BufWriter::new(file), Compression::fast());
    text(&mut gz);
    gz.finish().expect("gzip").flush().expect("flush");
}

#[test]
fn endless_input_stops_with_exit_2_and_little_memory() {
    // Without a format, /dev/zero reads as one endless line.
    let r = refused(
        &["emit", "/dev/zero"],
        "/dev/zero:1: line 1 is longer than 65536 bytes",
    );
    assert!(r.max_rss_kb < 32 * 1024, "{} KB", r.max_rss_kb);
    // As a TOML file it is read whole, up to the limit.
    let r = refused(
        &[
            "emit",
            "/dev/zero",
            "--input-format",
            "toml",
            "--max-input-mb",
            "4",
        ],
        "/dev/zero: the input is larger than 4 MB, the most smtgrid reads from one input: \
         pass --max-input-mb N",
    );
    assert!(r.max_rss_kb < 40 * 1024, "{} KB", r.max_rss_kb);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn a_file_over_the_limit_is_refused_and_one_under_it_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.toml");
    let sudoku = std::fs::read_to_string(root().join("puzzles/sudoku-4x4.toml")).expect("4x4");
    // 2 MB of comments before a valid puzzle.
    let padding = format!("# {}\n", "x".repeat(1000)).repeat(2 * 1024);
    std::fs::write(&big, format!("{padding}{sudoku}")).expect("write");
    let path = big.to_str().expect("utf-8 path");
    refused(
        &["inspect", path, "--max-input-mb", "1"],
        "larger than 1 MB",
    );
    let r = run(&["inspect", path, "--max-input-mb", "3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("big \"Sudoku 4x4\": sudoku 4x4"),
        "{}",
        r.stdout
    );
    let r = run(&["inspect", path, "--max-input-mb", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_gzip_bomb_is_stopped_on_its_decompressed_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bomb = dir.path().join("bomb.txt.gz");
    // 8 MB of comment lines compress to a few KB.
    write_gz(&bomb, |w| {
        let line = format!("# {}\n", "0".repeat(1000));
        for _ in 0..8 * 1024 {
            w.write_all(line.as_bytes()).expect("write");
        }
    });
    assert!(std::fs::metadata(&bomb).expect("bomb").len() < 100_000);
    let bomb = bomb.to_str().expect("path");
    refused(
        &["inspect", bomb, "--max-input-mb", "2"],
        "the input decompresses to more than 2 MB",
    );
}

#[test]
fn gz_line_files_are_read_by_extension_or_content() {
    let fixture = root().join("tests/fixtures/three-sudokus.txt.gz");
    let names: Vec<String> = open(&fixture, None, InputLimits::default())
        .expect("opens")
        .map(|p| p.expect("parses").name)
        .collect();
    let shown = fixture.display().to_string();
    assert_eq!(
        names,
        [2, 3, 4].map(|l| format!("{shown}:{l}")),
        "one puzzle per line, named by line"
    );
    // Without the extension, the gzip magic bytes tell.
    let dir = tempfile::tempdir().expect("tempdir");
    let bare = dir.path().join("three");
    std::fs::copy(&fixture, &bare).expect("copy");
    let r = run(&["inspect", bare.to_str().expect("path")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("sudoku 9x9").count(), 2, "{}", r.stdout);
    assert_eq!(r.stdout.matches("sudoku 4x4").count(), 1, "{}", r.stdout);
    // emit -o DIR writes one script per puzzle.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    let r = run(&[
        "emit",
        "tests/fixtures/three-sudokus.txt.gz",
        "-o",
        out.to_str().expect("path"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .expect("out")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "three-sudokus-00002.smt2",
            "three-sudokus-00003.smt2",
            "three-sudokus-00004.smt2"
        ]
    );
    // A damaged gzip file is an input error.
    let damaged = dir.path().join("damaged.txt.gz");
    let bytes = std::fs::read(&fixture).expect("fixture");
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).expect("write");
    let damaged = damaged.to_str().expect("path");
    refused(&["inspect", damaged], "the gzip data is damaged");
}

#[test]
fn solve_reads_a_gz_line_file() {
    assert!(
        which::which("z3").is_ok(),
        "this test needs the solver `z3` on PATH: run scripts/install-solvers and put the \
         folder it prints first on PATH (scripts/test does both)"
    );
    let r = run(&[
        "solve",
        "tests/fixtures/three-sudokus.txt.gz",
        "--solver",
        "z3",
        "-e",
        "lia",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.matches("sat, verified").count(), 3, "{}", r.stdout);
}

/// Peak resident memory of this process so far, in KB.
fn own_max_rss_kb() -> i64 {
    // SAFETY: rusage is plain data; getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss
}

#[test]
fn a_large_line_file_is_streamed() {
    const PUZZLES: usize = 100_000;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("many.txt");
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        let line = format!("{}\n", ".".repeat(81));
        for _ in 0..PUZZLES {
            w.write_all(line.as_bytes()).expect("write");
        }
        w.flush().expect("flush");
    }
    let before = own_max_rss_kb();
    let mut count = 0;
    for p in open(&path, None, InputLimits::default()).expect("opens") {
        let p = p.expect("parses");
        assert_eq!(p.rows, 9);
        count += 1;
    }
    assert_eq!(count, PUZZLES);
    // Held at once, 100,000 9x9 puzzles take more than 81 × 8 bytes
    // each: over 60 MB. Streamed, the peak barely moves.
    let grown = own_max_rss_kb() - before;
    assert!(grown < 16 * 1024, "peak memory grew by {grown} KB");
}

#[test]
fn every_numeric_flag_out_of_its_range_is_a_usage_error() {
    // Refused by the argument parser, before a file is read, a thread
    // started or a list allocated (docs/limits.md has the table).
    let p = "puzzles/classic.toml";
    let dir = tempfile::tempdir().expect("tempdir");
    let family = dir.path().join("family");
    let family = family.to_str().expect("UTF-8 path");
    let cases: &[(&[&str], &str)] = &[
        (&["solve", p, "--jobs", "0"], "0 is not in 1..=1024"),
        (&["solve", p, "--jobs", "20000"], "20000 is not in 1..=1024"),
        (&["bench", p, "--jobs", "20000"], "20000 is not in 1..=1024"),
        (
            &["emit", p, "--benchmark", family, "--jobs", "20000"],
            "20000 is not in 1..=1024",
        ),
        (&["bench", p, "--repeat", "0"], "0 is not in 1..=10000"),
        (
            &["bench", p, "--repeat", "10001"],
            "10001 is not in 1..=10000",
        ),
        (
            &["emit", p, "--max-input-mb", "0"],
            "0 is not in 1..=1048576",
        ),
        (
            &["inspect", p, "--max-input-mb", "1048577"],
            "1048577 is not in 1..=1048576",
        ),
        (
            &["report", "docs/bench-puzzles.jsonl", "--max-input-mb", "0"],
            "0 is not in 1..=1048576",
        ),
        (&["explain", p, "--count", "1"], "1 is not in 2..=10000"),
        (
            &["explain", p, "--count", "10001"],
            "10001 is not in 2..=10000",
        ),
        (
            &["solve", p, "--memory-limit", "0"],
            "0 is not in 1..=1048576",
        ),
        (&["solve", p, "--timeout", "8d"], "--timeout"),
        (
            &[
                "report",
                "docs/bench-puzzles.jsonl",
                "--plot-size",
                "99999x600",
            ],
            "each 300 to 4000",
        ),
        (&["new", "sudoku", "--size", "100000"], "between 1 and 64"),
    ];
    for (args, says) in cases {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
    assert!(!Path::new(family).exists(), "nothing was written");
}

#[test]
fn report_reads_results_files_within_max_input_mb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.jsonl");
    let records = std::fs::read_to_string(root().join("docs/bench-puzzles.jsonl")).expect("read");
    let mut text = String::new();
    while text.len() <= 1 << 20 {
        text.push_str(&records);
    }
    std::fs::write(&path, text).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    refused(
        &["report", path, "--max-input-mb", "1"],
        "the input is larger than 1 MB",
    );
    // Under a larger limit it is read (the repeated records make a
    // summary of its own, whatever its exit status).
    let r = run(&["report", path, "--max-input-mb", "2"]);
    assert_ne!(r.code, 2, "{}", r.stderr);
    assert!(!r.stdout.is_empty() && r.stderr.is_empty(), "{}", r.stderr);
}
