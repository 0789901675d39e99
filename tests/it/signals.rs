//! Signals: every catchable signal that would end smtgrid stops it like
//! Ctrl-C (every solver killed, every temporary file removed, exit 130);
//! solvers die with a smtgrid killed outright; no output path can block a
//! command past a signal (see docs/processes.md).

use crate::common;

use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{assert_all_gone, bin, gone, many_sudokus, require, root};

/// How long a stopped smtgrid may take to exit: generous, as the machine
/// may be loaded; the wait ends as soon as it exits.
const GRACE: Duration = Duration::from_secs(30);

fn fake(name: &str) -> PathBuf {
    root().join("tests/fake_solvers").join(name)
}

/// Starts `smtgrid ARGS…` from the root with `TMPDIR` and the fake's PID
/// file set, output discarded, and every signal's default disposition.
fn start(args: &[&str], tmp: &Path, pids: &Path) -> Child {
    start_to(args, tmp, pids, Stdio::null())
}

/// [`start`], with standard output going to `stdout`.
fn start_to(args: &[&str], tmp: &Path, pids: &Path, stdout: Stdio) -> Child {
    let mut cmd = bin();
    cmd.args(args)
        .current_dir(root())
        .env("TMPDIR", tmp)
        .env("SMTGRID_TEST_PIDS", pids)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped());
    // SAFETY: only resets signal dispositions between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            for sig in [libc::SIGINT, libc::SIGQUIT] {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    cmd.spawn().expect("smtgrid starts")
}

/// Waits until `pids` lists `n` processes and returns them.
fn wait_for_pids(pids: &Path, n: usize) -> Vec<i32> {
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        let found: Vec<i32> = std::fs::read_to_string(pids)
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        if found.len() >= n {
            return found;
        }
        assert!(Instant::now() < until, "the fake solvers never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for `child` to exit (at most [`GRACE`]) and returns its status.
fn wait_exit(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        assert!(start.elapsed() < GRACE, "{what}: smtgrid did not stop");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, sig: i32) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: signals the smtgrid child this test started and has not reaped.
    unsafe { libc::kill(pid, sig) };
}

fn solve_on_hanging_solvers(mode: &str) -> Vec<String> {
    let z3 = format!("z3={}", fake("pid_then_hang.sh").display());
    [
        "solve",
        "puzzles/classic.toml",
        "puzzles/sudoku-4x4.toml",
        "--solver",
        &z3,
        "--encoding",
        "lia",
        "--mode",
        mode,
        "--jobs",
        "2",
        "--timeout",
        "600",
    ]
    .map(String::from)
    .to_vec()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn every_catchable_terminating_signal_stops_the_solvers_and_exits_130() {
    let rt = libc::SIGRTMIN() + 1;
    for (sig, name) in [
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGXCPU, "SIGXCPU"),
        (rt, "SIGRTMIN+1"),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).expect("mkdir");
        let pids = dir.path().join("pids");
        let args = solve_on_hanging_solvers("process");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut child = start(&args, &tmp, &pids);
        let solvers = wait_for_pids(&pids, 2);
        signal(&child, sig);
        let status = wait_exit(&mut child, name);
        assert_eq!(status.code(), Some(130), "{name}: {status:?}");
        assert_all_gone(&solvers);
        assert_eq!(names(&tmp), Vec::<String>::new(), "{name}: temporary files");
    }
}

#[test]
fn solvers_die_with_a_smtgrid_killed_outright() {
    for mode in ["process", "incremental"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pids = dir.path().join("pids");
        let args = solve_on_hanging_solvers(mode);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut child = start(&args, dir.path(), &pids);
        let solvers = wait_for_pids(&pids, 2);
        signal(&child, libc::SIGKILL);
        child.wait().expect("wait");
        // The bound: no solver outlives smtgrid by more than a
        // second (the kernel kills it as smtgrid exits).
        let until = Instant::now() + Duration::from_secs(1);
        while !solvers.iter().all(|&p| gone(p)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        for &p in &solvers {
            if !gone(p) {
                // SAFETY: ends the leftover this test made, before failing.
                unsafe { libc::kill(p, libc::SIGKILL) };
                panic!("{mode}: solver {p} outlived the killed smtgrid by a second");
            }
        }
    }
}

#[test]
fn a_signal_while_writing_files_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = many_sudokus(dir.path(), 3000);
    let input = input.to_str().expect("utf-8");
    for cmd in ["convert", "render", "emit"] {
        for (sig, name) in [(libc::SIGINT, "SIGINT"), (libc::SIGTERM, "SIGTERM")] {
            let out = dir.path().join("out");
            let _ = std::fs::remove_dir_all(&out);
            std::fs::create_dir(&out).expect("mkdir");
            let target = format!("{}/", out.display());
            let mut child = start(
                &[cmd, input, "-o", &target],
                dir.path(),
                &dir.path().join("p"),
            );
            // Stop it in the middle of the files.
            let until = Instant::now() + Duration::from_secs(120);
            while names(&out).len() < 3 {
                assert!(Instant::now() < until, "{cmd}: no file written");
                std::thread::sleep(Duration::from_millis(5));
            }
            signal(&child, sig);
            let status = wait_exit(&mut child, cmd);
            assert_eq!(status.code(), Some(130), "{cmd} {name}: {status:?}");
            let left: Vec<String> = names(&out)
                .into_iter()
                .filter(|n| n.starts_with(".smtgrid-"))
                .collect();
            assert!(left.is_empty(), "{cmd} {name}: {left:?}");
        }
    }
}

#[test]
fn a_file_size_limit_fails_the_write_and_keeps_the_old_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("e.smt2");
    std::fs::write(&target, "old\n").expect("write");
    let mut cmd = bin();
    cmd.args([
        "emit",
        "puzzles/sudoku-16x16.toml",
        "--encoding",
        "lia",
        "-o",
    ])
    .arg(&target)
    .current_dir(root());
    // SAFETY: only sets a resource limit between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 8192,
                rlim_max: libc::RLIM_INFINITY,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
    let o = cmd.output().expect("runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{:?} {err}", o.status);
    assert!(err.contains("too large"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "old\n");
    assert_eq!(names(dir.path()), ["e.smt2"]);
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().expect("utf-8")).expect("no NUL");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

#[test]
fn a_named_pipe_nobody_reads_is_refused_at_once() {
    require(&["yices-smt2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("p.smt2");
    mkfifo(&fifo);
    let mut child = start(
        &[
            "emit",
            "puzzles/classic.toml",
            "-o",
            fifo.to_str().expect("utf-8"),
        ],
        dir.path(),
        &dir.path().join("pids"),
    );
    let status = wait_exit(&mut child, "emit -o FIFO");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("read");
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("nobody reads"), "{err}");

    let svg = dir.path().join("svg");
    std::fs::create_dir(&svg).expect("mkdir");
    mkfifo(&svg.join("classic.svg"));
    let args = [
        "solve",
        "puzzles/classic.toml",
        "--solver",
        "yices2",
        "--encoding",
        "onehot",
        "--svg",
        svg.to_str().expect("utf-8"),
    ];
    let mut child = start(&args, dir.path(), &dir.path().join("pids"));
    wait_exit(&mut child, "solve --svg DIR with a FIFO in it");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("read");
    assert!(err.contains("nobody reads"), "{err}");
}

#[test]
fn a_signal_stops_a_write_into_a_pipe_whose_reader_does_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("p.smt2");
    mkfifo(&fifo);
    // A reader that never reads: the script (2 MB, far more than a pipe
    // holds)
    // fills the pipe, and the write waits.
    let reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .expect("open the reading end");
    let mut child = start(
        &[
            "emit",
            "puzzles/sudoku-16x16.toml",
            "--encoding",
            "onehot",
            "-o",
            fifo.to_str().expect("utf-8"),
        ],
        dir.path(),
        &dir.path().join("pids"),
    );
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "emit waits for room"
    );
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, "emit into a full pipe");
    assert_eq!(status.code(), Some(130));
    drop(reader);
}

#[test]
fn ctrl_c_while_generate_grades_kills_its_grading_sessions_and_exits_130() {
    require(&["yices2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let pids = dir.path().join("pids");
    let out = dir.path().join("out");
    // yices2 proves; the grading "z3" never answers.
    let solvers = format!("yices2,z3={}", fake("pid_then_hang.sh").display());
    let args = [
        "generate",
        "sudoku",
        "--size",
        "4",
        "--count",
        "4",
        "--seed",
        "1",
        "--time-limit",
        "600",
        "--solver",
        &solvers,
        "-o",
        out.to_str().expect("utf-8"),
    ];
    let mut child = start(&args, &tmp, &pids);
    wait_for_pids(&pids, 1);
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, "SIGINT");
    assert_eq!(status.code(), Some(130), "{status:?}");
    // Read once smtgrid is gone: every session it started is listed.
    let sessions = wait_for_pids(&pids, 1);
    assert_all_gone(&sessions);
    assert_eq!(names(&tmp), Vec::<String>::new(), "temporary files");
}

/// `solve` keeps a Glucose session idle between puzzles (one per worker):
/// on Ctrl-C the idle one dies with the one still searching.
#[test]
fn ctrl_c_kills_the_idle_sessions_a_solve_keeps_between_puzzles() {
    require(&["glucose"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let transcripts = dir.path().join("transcripts");
    // One worker answers the easy killer in a fraction of a second and
    // has nothing more to do; the other searches the hard one for seconds.
    let args = [
        "solve",
        "puzzles/killers/hs-killer-03.toml",
        "puzzles/killers/mathemagic-13.toml",
        "--solver",
        "glucose",
        "--encoding",
        "onehot",
        "--unique",
        "--jobs",
        "2",
        "--timeout",
        "600",
        "--transcript",
        transcripts.to_str().expect("utf-8"),
    ];
    let mut child = start(&args, &tmp, &dir.path().join("pids"));
    // Both sessions have started once both transcripts exist; the easy
    // one is answered well within the second after.
    let until = Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(&transcripts).map_or(0, Iterator::count) < 2 {
        assert!(Instant::now() < until, "the sessions never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, libc::SIGINT);
    let status = wait_exit(&mut child, "SIGINT");
    assert_eq!(status.code(), Some(130), "{status:?}");
    // Transcripts are named NNNNN-SOLVER-PID.jsonl.
    let sessions: Vec<i32> = names(&transcripts)
        .iter()
        .filter_map(|n| n.strip_suffix(".jsonl")?.rsplit('-').next()?.parse().ok())
        .collect();
    assert_eq!(sessions.len(), 2, "{:?}", names(&transcripts));
    assert_all_gone(&sessions);
}

/// `explain` and `solve --all` ask one puzzle at a time in a session: on
/// Ctrl-C the puzzle in progress is reported as stopped (`"stopped":
/// "interrupted"`, like `solve`'s stopped runs) in a whole JSON document,
/// and the exit status is still 130. They used to exit with nothing on
/// stdout.
#[test]
fn ctrl_c_leaves_explains_json_document_with_the_puzzle_it_stopped() {
    let z3 = format!("z3={}", fake("pid_then_hang.sh").display());
    for command in [&["explain"][..], &["solve", "--all"]] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pids = dir.path().join("pids");
        let args = [
            command,
            &[
                "puzzles/sudoku-4x4.toml",
                "--solver",
                &z3,
                "--timeout",
                "600",
                "--format",
                "json",
            ],
        ]
        .concat();
        let child = start_to(&args, dir.path(), &pids, Stdio::piped());
        let solvers = wait_for_pids(&pids, 1);
        signal(&child, libc::SIGINT);
        let o = child.wait_with_output().expect("smtgrid ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{command:?}: {err}");
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "{command:?}: not a JSON document ({e}): {}",
                String::from_utf8_lossy(&o.stdout)
            )
        });
        let [record] = doc.as_array().expect("an array").as_slice() else {
            panic!("{command:?}: one record: {doc}");
        };
        assert_eq!(record["stopped"], "interrupted", "{command:?}: {record}");
        assert_all_gone(&solvers);
    }
}
