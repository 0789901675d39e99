//! Where the binary's output goes: a reader that closes the pipe stops
//! every command quietly with exit 0; a full disk is an error with exit 2
//! and never leaves a truncated file; `-o` never overwrites the input; and
//! command-line mistakes get a usage message that says what is wrong.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use common::names_in;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_smtgrid"));
    c.current_dir(root());
    c
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn smtgrid(args: &[&str]) -> Output {
    bin().args(args).output().expect("the smtgrid binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_no_panic(what: &str, err: &str) {
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{what}: {err}"
    );
}

/// Runs smtgrid with its standard output going to `out`.
fn with_stdout(args: &[&str], out: impl Into<Stdio>) -> Output {
    bin()
        .args(args)
        .stdout(out)
        .stderr(Stdio::piped())
        .output()
        .expect("the smtgrid binary runs")
}

/// A pipe whose reading end is already closed, so that the first write to
/// it fails with a broken pipe.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

/// `/dev/full`, where every write fails with "no space left on device".
fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

/// Every command that writes to standard output, but `solve` (tested in
/// tests/it/cli.rs, where its solver processes are watched).
const WRITERS: [&[&str]; 8] = [
    &["emit", "puzzles/squares.toml", "--encoding", "onehot"],
    &["inspect", "puzzles/classic.toml", "--encoding", "all"],
    &["inspect", "puzzles/classic.toml", "--format", "json"],
    &["new", "killer"],
    &["new", "sudoku", "--size", "25"],
    &["solvers"],
    &["solvers", "--format", "json"],
    &["--help"],
];

/// Runs each of [`WRITERS`] with its standard output going to a new
/// `out()`, asserting that it exits with `code`; returns each one's
/// arguments and stderr.
fn each_writer<O: Into<Stdio>>(
    out: fn() -> O,
    code: i32,
) -> Vec<(&'static [&'static str], String)> {
    WRITERS
        .iter()
        .map(|&args| {
            let o = with_stdout(args, out());
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
            (args, err)
        })
        .collect()
}

#[test]
fn every_command_stops_quietly_when_the_reader_closes_the_pipe() {
    for (args, err) in each_writer(closed_pipe, 0) {
        assert_eq!(err, "", "{args:?}: a closed pipe is not reported");
    }
}

#[test]
fn emit_piped_into_a_reader_of_one_line_exits_0() {
    // `smtgrid emit … | head -1`: the script (400 KB) is far larger than
    // a pipe holds, so the write fails once the reader is gone.
    let mut child = bin()
        .args(["emit", "puzzles/squares.toml", "--encoding", "onehot"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("smtgrid starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("one line");
    assert_eq!(line, "(set-info :smt-lib-version 2.6)\n");
    let o = child.wait_with_output().expect("smtgrid ends");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(err, "");
}

#[test]
fn a_full_disk_on_standard_output_is_an_error() {
    for (args, err) in each_writer(dev_full, 2) {
        assert!(
            err.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let o = smtgrid(&["emit", "puzzles/classic.toml", "-o", "/dev/full"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("/dev/full: No space left on device"), "{err}");
    assert!(
        Path::new("/dev/full")
            .metadata()
            .is_ok_and(|m| !m.is_file()),
        "-o /dev/full writes into the device; it is never replaced by a file"
    );
}

#[test]
fn an_error_message_to_a_full_standard_error_is_no_panic() {
    let o = bin()
        .args(["emit", "no/such/file.toml"])
        .stderr(dev_full())
        .output()
        .expect("the smtgrid binary runs");
    assert_eq!(o.status.code(), Some(2));
}

/// Runs smtgrid unable to write files larger than `limit` bytes: writing
/// past it fails with "file too large", as a full disk fails a write
/// (SIGXFSZ, which would kill the process instead, is ignored).
fn with_file_size_limit(args: &[&str], limit: u64) -> Output {
    let mut c = bin();
    c.args(args);
    // SAFETY: between fork and exec this calls only setrlimit and signal,
    // which are async-signal-safe.
    unsafe {
        c.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    c.output().expect("the smtgrid binary runs")
}

#[test]
fn a_failed_write_with_o_leaves_no_truncated_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("squares.smt2");
    let args = [
        "emit",
        "puzzles/squares.toml",
        "--encoding",
        "onehot",
        "-o",
        out.to_str().expect("UTF-8 path"),
    ];
    // The onehot script is about 400 KB; 64 KiB cannot hold it.
    let o = with_file_size_limit(&args, 64 * 1024);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("squares.smt2: File too large"), "{err}");
    assert_eq!(names_in(dir.path()), Vec::<String>::new(), "{err}");

    // A file that was there keeps what it held.
    std::fs::write(&out, "old\n").expect("write");
    let o = with_file_size_limit(&args, 64 * 1024);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "old\n");
    assert_eq!(names_in(dir.path()), ["squares.smt2"]);

    // With room, the whole script replaces it.
    let o = smtgrid(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let written = std::fs::read_to_string(&out).expect("read");
    assert!(written.ends_with("(check-sat)\n(get-model)\n(exit)\n"));
    assert_eq!(names_in(dir.path()), ["squares.smt2"]);
}

#[test]
fn emit_never_overwrites_its_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("p.toml");
    let original = std::fs::read(root().join("puzzles/sudoku-4x4.toml")).expect("read");
    std::fs::write(&input, &original).expect("write");
    let link = dir.path().join("link.toml");
    std::fs::hard_link(&input, &link).expect("hard link");
    let same = dir.path().join("./p.toml");
    for target in [&input, &link, &same] {
        let o = smtgrid(&[
            "emit",
            input.to_str().expect("UTF-8 path"),
            "-o",
            target.to_str().expect("UTF-8 path"),
        ]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("that is the input file"), "{err}");
        assert_eq!(std::fs::read(&input).expect("read"), original);
    }
}

#[test]
fn no_output_flag_writes_over_an_input_or_another_flags_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let at = |name: &str| dir.path().join(name).to_str().expect("UTF-8").to_string();
    let results = std::fs::read(root().join("docs/bench-puzzles.jsonl")).expect("read");
    std::fs::write(at("r.jsonl"), &results).expect("write");
    let puzzle = std::fs::read(root().join("puzzles/sudoku-4x4.toml")).expect("read");
    std::fs::write(at("p.toml"), &puzzle).expect("write");
    std::os::unix::fs::symlink(at("r.jsonl"), at("r.html")).expect("symlink");
    std::os::unix::fs::symlink(at("p.toml"), at("p.html")).expect("symlink");
    std::os::unix::fs::symlink(at("r.jsonl"), at("r.svg")).expect("symlink");
    let bench = [
        "bench",
        "--solver",
        "z3",
        "--encoding",
        "lia",
        "--timeout",
        "10",
    ];
    let refused: Vec<Vec<String>> = vec![
        vec![
            "report".into(),
            at("r.jsonl"),
            "--html".into(),
            at("r.jsonl"),
        ],
        vec![
            "report".into(),
            at("r.jsonl"),
            "--html".into(),
            at("r.html"),
        ],
        vec!["report".into(), at("r.jsonl"), "--plot".into(), at("r.svg")],
        vec![
            "report".into(),
            at("r.jsonl"),
            "--html".into(),
            at("x.svg"),
            "--plot".into(),
            at("x.svg"),
        ],
        [&bench[..], &[&at("p.toml"), "--html", &at("p.toml")]]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        [&bench[..], &[&at("p.toml"), "--html", &at("p.html")]]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        [
            &bench[..],
            &[
                &at("p.toml"),
                "-o",
                &at("s.jsonl"),
                "--html",
                &at("s.jsonl"),
            ],
        ]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .collect(),
        vec![
            "convert".into(),
            at("p.toml"),
            "--to".into(),
            "toml".into(),
            "-o".into(),
            format!("{}/", dir.path().display()),
        ],
    ];
    for args in refused {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = smtgrid(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("that is the input file") || err.contains("writes that file already"),
            "{args:?}: {err}"
        );
        assert_eq!(
            std::fs::read(at("r.jsonl")).expect("read"),
            results,
            "{args:?}"
        );
        assert_eq!(
            std::fs::read(at("p.toml")).expect("read"),
            puzzle,
            "{args:?}"
        );
        assert!(!dir.path().join("s.jsonl").exists(), "{args:?}");
        assert!(!dir.path().join("x.svg").exists(), "{args:?}");
    }
}

#[test]
fn o_names_a_directory_with_a_trailing_slash() {
    // A missing folder is created, with its parents: `-o pictures/` works
    // from a fresh clone.
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = format!("{}/", dir.path().join("missing/deeper").display());
    let o = smtgrid(&["emit", "puzzles/sudoku-4x4.toml", "-o", &missing]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        names_in(&dir.path().join("missing/deeper")),
        ["sudoku-4x4.smt2"]
    );

    let in_missing = dir.path().join("new/x.smt2");
    let o = smtgrid(&[
        "emit",
        "puzzles/sudoku-4x4.toml",
        "-o",
        in_missing.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(in_missing.is_file());

    // A folder that cannot be made is an error naming it.
    let blocked = format!("{}/sub/", in_missing.display());
    let o = smtgrid(&["emit", "puzzles/sudoku-4x4.toml", "-o", &blocked]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("x.smt2/sub"), "{err}");

    // An existing directory, with or without the slash: one file per puzzle.
    let lines = dir.path().join("two.txt");
    std::fs::write(&lines, "4.1..2....3..4.1\n4.1..2....3..4..\n").expect("write");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    let slash = format!("{}/", out.display());
    let o = smtgrid(&["emit", lines.to_str().expect("UTF-8 path"), "-o", &slash]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(names_in(&out), ["two-00001.smt2", "two-00002.smt2"]);
    let o = smtgrid(&[
        "emit",
        "puzzles/sudoku-4x4.toml",
        "-o",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        names_in(&out),
        ["sudoku-4x4.smt2", "two-00001.smt2", "two-00002.smt2"]
    );
}

#[test]
fn usage_errors_say_what_is_wrong() {
    let p = "puzzles/sudoku-4x4.toml";
    let cases: [(&[&str], &[&str]); 11] = [
        (&["solve", p, "--solver", ""], &["empty solver name"]),
        (&["solve", p, "--solver", ","], &["empty solver name"]),
        (
            &["solve", p, "--solver", "z3,,cvc5"],
            &["empty solver name"],
        ),
        (
            &["solve", p, "--solver", "z3@=/usr/bin/z3"],
            &["no tag after `@`", "z3@TAG=PATH"],
        ),
        (
            &["solve", p, "--solver", "@x=/usr/bin/z3"],
            &["no solver before `@`", "z3, cvc5, yices2"],
        ),
        (
            &["solve", p, "--solver", "no-such-solver"],
            &["unknown solver", "`all`"],
        ),
        (
            &["solve", "-", "-"],
            &["standard input can be read only once"],
        ),
        (
            &["emit", p, "--encoding", "nope"],
            &["possible values: lia, onehot, bv, all"],
        ),
        (
            &["inspect", p, "--encoding", "nope"],
            &["possible values: lia, onehot, bv, all"],
        ),
        (
            &["new", "hexagon"],
            &["possible values: sudoku, killer, calcudoku, kakuro"],
        ),
        (
            &["inspect", p, "--input-format", "csv"],
            &["possible values: toml, lines, kakuro"],
        ),
    ];
    for (args, says) in cases {
        let o = bin()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("the smtgrid binary runs");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(text(&o.stdout), "", "{args:?}");
        assert_no_panic(&format!("{args:?}"), &err);
        for s in says {
            assert!(err.contains(s), "{args:?}: should say {s:?}: {err}");
        }
    }
}

/// A folder flag given a file, and a file flag given a folder, are usage
/// errors that say so, before anything runs. A file given as a folder
/// with a trailing `/`, or as a folder on the way to one, is named as a
/// file by every command that creates folders, with the fix: not the
/// system's bare "File exists" or "Not a directory".
#[test]
fn folders_and_files_are_not_taken_for_each_other() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "kept\n").expect("write");
    let f = file.to_str().expect("utf-8");
    let d = dir.path().to_str().expect("utf-8");
    let four = "puzzles/sudoku-4x4.toml";
    let a_file = format!("{f}: that is a file, not a folder; give a folder");
    let (slash, under) = (format!("{f}/"), format!("{f}/sub/"));
    let (inner, bench) = (format!("{f}/out.smt2"), format!("{f}/runs.jsonl"));
    let mut cases = vec![
        (vec!["solve", four, "--svg", f], a_file.as_str()),
        (vec!["solve", four, "--transcript", f], &a_file),
        (vec!["generate", "sudoku", "-o", f], &a_file),
        (vec!["report", four, "--html", d], "that is a folder"),
        (vec!["emit", four, "-o", &inner], &a_file),
        (vec!["bench", four, "-o", &bench], &a_file),
    ];
    for d in [slash.as_str(), under.as_str()] {
        cases.extend([
            (
                vec!["generate", "sudoku", "--size", "4", "-o", d],
                a_file.as_str(),
            ),
            (vec!["emit", four, "-o", d], &a_file),
            (vec!["convert", four, "-o", d], &a_file),
            (vec!["render", four, "-o", d], &a_file),
            (vec!["solve", four, "--svg", d], &a_file),
            (vec!["solve", four, "--transcript", d], &a_file),
            (vec!["explain", four, "--svg", d], &a_file),
            (vec!["man", "-o", d], &a_file),
        ]);
    }
    for (args, says) in cases {
        let o = common::smtgrid(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("os error"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept\n");
}
