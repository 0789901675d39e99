//! The solver runner against fake solvers that misbehave (tests/fake_solvers)
//! and against the real solvers installed here: every run ends with the
//! right status within its limit, and leaves no process and no temporary
//! file behind.

use smtgrid::solver::{
    Cancel, Found, Limits, MemoryLimit, RunEnd, RunOutput, Session, SessionError, Solver, Variant,
    discover, parse_solver_cmd, run, select,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// Memory is measured here (a child's peak, which Linux counts from the
// parent's size at the fork), so this file is a test binary of its own,
// small, not a module of tests/it.
#[allow(dead_code, unused_imports)]
#[path = "it/common/mod.rs"]
mod common;
use common::{PROFILES, assert_gone, per_solver, second_z3, solver};

const TINY_LIA: &str = "(set-option :produce-models true)\n(set-logic QF_LIA)\n\
(declare-const x Int)\n(assert (and (> x 2) (< x 5)))\n(check-sat)\n(get-model)\n(exit)\n";

/// [`TINY_LIA`] over Booleans alone, for a SAT solver (`x` is 3 or 4:
/// bit 0 clear, bit 1 set or bit 2 set, not both).
const TINY_BOOL: &str = "(set-option :produce-models true)\n(set-logic QF_UF)\n\
(declare-const x0 Bool)\n(declare-const x1 Bool)\n(declare-const x2 Bool)\n\
(assert (and (not x0) (xor x1 x2)))\n(check-sat)\n(get-model)\n(exit)\n";

/// [`TINY_LIA`] in bit-vectors, for solvers without arithmetic.
const TINY_BV: &str = "(set-option :produce-models true)\n(set-logic QF_BV)\n\
(declare-const x (_ BitVec 4))\n(assert (= (bvadd x #b0001) #b0100))\n(check-sat)\n(get-model)\n(exit)\n";

fn fake_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_solvers")
}

/// A custom solver `sh FAKE PIDFILE`, found through the same path as
/// `--solver-cmd`.
fn fake_solver(fake: &str, pidfile: &Path) -> Solver {
    let spec = format!(
        "{}=/bin/sh '{}' '{}'",
        fake.trim_end_matches(".sh"),
        fake_dir().join(fake).display(),
        pidfile.display()
    );
    let custom = parse_solver_cmd(&spec).expect("valid --solver-cmd");
    let found = discover(&[], &[custom], &Cancel::new());
    let f = found
        .iter()
        .find(|f| f.custom)
        .expect("the custom solver is listed");
    assert!(f.error.is_none(), "{:?}", f.error);
    f.solver().expect("/bin/sh exists")
}

/// The fake's PID, its child's PID if any, and the script path it got.
struct Traces {
    pid: i32,
    child: Option<i32>,
    script: PathBuf,
}

fn traces(pidfile: &Path) -> Traces {
    let text = std::fs::read_to_string(pidfile).expect("the fake wrote its pid file");
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words.len(), 3, "pid file: {text:?}");
    Traces {
        pid: words[0].parse().expect("pid"),
        child: words[1].parse().ok(),
        script: PathBuf::from(words[2]),
    }
}

/// Runs a fake with `timeout` and checks the universal promises: no
/// process and no script file left.
fn run_fake(fake: &str, timeout: Duration) -> RunOutput {
    run_fake_within(fake, &Limits::timeout(timeout))
}

/// [`run_fake`] under any limits.
fn run_fake_within(fake: &str, limits: &Limits) -> RunOutput {
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    let solver = fake_solver(fake, &pidfile);
    let out = run(&solver, TINY_LIA, None, limits, &Cancel::new());
    let t = traces(&pidfile);
    assert_gone(t.pid, fake);
    if let Some(c) = t.child {
        assert_gone(c, &format!("the child of {fake}"));
    }
    assert!(t.script.is_absolute(), "{}", t.script.display());
    assert!(
        !t.script.exists(),
        "{fake}: the script {} was not deleted",
        t.script.display()
    );
    out
}

const SHORT: Duration = Duration::from_millis(1500);

/// A limit the fakes that end by themselves never reach, even on a loaded
/// machine: they must end with their own status, not a timeout.
const AMPLE: Duration = Duration::from_secs(60);

/// A bound for tests of a time limit itself: a run past its limit must end.
/// Generous, so that a loaded machine cannot fail it; how soon it ends is
/// measured by benchmarks, not asserted here.
const GRACE: Duration = Duration::from_secs(30);

#[test]
fn hanging_solver_and_its_child_are_killed() {
    let out = run_fake("hang.sh", SHORT);
    assert_eq!(out.end, RunEnd::TimedOut);
    // Not killed before its limit.
    assert!(out.elapsed >= SHORT, "{:?}", out.elapsed);
    assert!(out.elapsed < SHORT + GRACE, "{:?}", out.elapsed);
}

/// Regression (issue 33 #05): the watcher summed the solver's process
/// group only, so a child in a session of its own grew past the limit and
/// the run ended as a timeout.
#[test]
fn a_descendant_in_its_own_session_counts_towards_the_memory_limit() {
    let start = Instant::now();
    let limits = Limits {
        timeout: Duration::from_secs(60),
        memory: Some(MemoryLimit { mb: 100 }),
    };
    let out = run_fake_within("setsid_hog.sh", &limits);
    assert_eq!(out.end, RunEnd::MemoryLimit, "{}", out.stderr_tail(5));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(out.usage.max_rss_kb < 2048 * 1024, "{:?}", out.usage);
}

#[test]
fn memory_hog_and_its_child_are_stopped_at_the_memory_limit() {
    let start = Instant::now();
    let limits = Limits {
        timeout: Duration::from_secs(60),
        memory: Some(MemoryLimit { mb: 100 }),
    };
    let out = run_fake_within("memory_hog.sh", &limits);
    assert_eq!(out.end, RunEnd::MemoryLimit, "{}", out.stderr_tail(5));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    // Stopped within a watch interval or so of the limit. The watcher sums
    // the group (the hog and its sleeping child, under 4 MiB), while
    // `max_rss_kb` is the largest single process's peak: the hog's is at
    // least the limit less the child's share, and far below what it would
    // reach unstopped.
    assert!(
        ((100 - 4) * 1024..2048 * 1024).contains(&out.usage.max_rss_kb),
        "{:?}",
        out.usage
    );
}

#[test]
fn cpu_time_includes_the_children_the_solver_waited_for() {
    let out = run_fake("busy_child.sh", Duration::from_secs(60));
    assert_eq!(out.end, RunEnd::Exited(0));
    // The loop runs only in the child; the solver itself does nothing.
    let wall = out.elapsed.as_secs_f64() * 1000.0;
    assert!(
        out.usage.cpu_ms > 0.2 * wall.min(200.0),
        "{:?} in {wall} ms",
        out.usage
    );
    assert!(out.usage.max_rss_kb > 0);
    assert_eq!(out.command[0], "/bin/sh", "{:?}", out.command);
    assert!(out.command.iter().any(|a| a.ends_with("busy_child.sh")));
}

#[test]
fn crash_is_reported_as_a_signal() {
    let out = run_fake("crash.sh", AMPLE);
    assert_eq!(out.end, RunEnd::Signaled(libc::SIGSEGV));
    assert_eq!(out.stderr_tail(1), "Segmentation fault in the fake solver");
    assert!(out.end.to_string().contains("SIGSEGV"), "{}", out.end);
}

#[test]
fn garbage_is_returned_as_text() {
    let out = run_fake("garbage.sh", AMPLE);
    assert_eq!(out.end, RunEnd::Exited(0));
    assert!(out.stdout.contains("junk ((( sat"), "{:?}", out.stdout);
    assert!(
        out.stdout.contains('\u{fffd}'),
        "invalid UTF-8 is replaced: {:?}",
        out.stdout
    );
}

/// [`run_fake`], asserting that the fake exited by itself with 0 and that
/// its stdout is exactly `stdout`.
fn run_fake_to_exit(fake: &str, timeout: Duration, stdout: &str) -> RunOutput {
    let out = run_fake(fake, timeout);
    assert_eq!(out.end, RunEnd::Exited(0), "{fake}");
    assert_eq!(out.stdout, stdout, "{fake}");
    out
}

/// One `#[test]` per fake that exits 0 by itself: `name: FAKE, LIMIT =>
/// STDOUT` runs FAKE with LIMIT through [`run_fake_to_exit`].
macro_rules! exits_printing {
    ($($test:ident: $fake:literal, $limit:expr => $stdout:literal;)+) => {
        $(
            #[test]
            fn $test() {
                run_fake_to_exit($fake, $limit, $stdout);
            }
        )+
    };
}

exits_printing! {
    unknown_is_returned: "unknown.sh", AMPLE => "unknown\n";
    wrong_model_is_returned_unchanged: "wrong_model.sh", AMPLE => "sat\n((define-fun x () Int 7))\n";
    // `setsid` takes it out of the solver's process group: only the
    // subreaper and the run's mark find it (repro 09).
    grandchild_in_its_own_session_is_killed: "setsid_grandchild.sh", SHORT => "sat\n";
    // The solver printed a complete answer and exited; a grandchild in a
    // session of its own still held stdout open (repro 10: the answer was
    // thrown away after 2 + 2 s and the grandchild survived).
    grandchild_holding_stdout_costs_no_answer:
        "grandchild_holds_pipe.sh", Duration::from_secs(10) => "sat\n((define-fun x () Int 3))\n";
}

#[test]
fn stderr_flood_neither_blocks_nor_fills_memory() {
    let out = run_fake_to_exit("flood_stderr.sh", AMPLE, "sat\n");
    assert!(
        out.stderr.len() <= smtgrid::solver::STDERR_CAP,
        "{}",
        out.stderr.len()
    );
    assert!(out.stderr.len() >= smtgrid::solver::STDERR_CAP / 2);
    assert!(out.stderr.bytes().all(|b| b == b'e'));
}

#[test]
fn silent_solver_exits_cleanly() {
    let out = run_fake_to_exit("silent.sh", AMPLE, "");
    assert_eq!(out.stderr, "");
}

#[test]
fn answer_then_hang_keeps_the_answer() {
    let out = run_fake("slow_exit.sh", SHORT);
    assert_eq!(out.end, RunEnd::TimedOut);
    assert!(out.elapsed < SHORT + GRACE, "{:?}", out.elapsed);
    assert_eq!(out.stdout, "sat\n");
}

#[test]
fn child_left_behind_after_exit_is_killed() {
    // The child keeps the pipes open: the run must end when the solver
    // exits, not wait for the pipes until the limit (120 s here).
    let limit = Duration::from_secs(120);
    let out = run_fake_to_exit("leaves_child.sh", limit, "sat\n");
    assert!(out.elapsed < limit - GRACE, "{:?}", out.elapsed);
}

/// Runs hang.sh with a 30 s limit and `cancel`, which `stop` (run on a
/// thread of its own, 300 ms after the start) must fire; asserts that the
/// run was cancelled, not timed out, and that hang.sh, its child and its
/// script are gone. `how` names the way it was stopped in failures.
fn hang_until_stopped(cancel: &Cancel, stop: impl FnOnce() + Send + 'static, how: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("pids");
    let solver = fake_solver("hang.sh", &pidfile);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stop();
    });
    let limits = Limits::timeout(Duration::from_secs(30));
    let out = run(&solver, TINY_LIA, None, &limits, cancel);
    stopper.join().expect("stopper");
    // Cancelled, not timed out after its 30 s: `stop` stopped it.
    assert_eq!(out.end, RunEnd::Cancelled, "{how}");
    let t = traces(&pidfile);
    assert_gone(t.pid, &format!("hang.sh {how}"));
    assert_gone(
        t.child.expect("hang.sh starts a child"),
        &format!("the child of hang.sh {how}"),
    );
    assert!(!t.script.exists(), "{how}");
}

#[test]
fn cancel_stops_a_run_at_once() {
    let cancel = Cancel::new();
    let c = cancel.clone();
    hang_until_stopped(&cancel, move || c.cancel(), "after a cancel");
}

#[test]
fn missing_binary_is_a_spawn_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut solver = fake_solver("silent.sh", &dir.path().join("pids"));
    solver.path = dir.path().join("no-such-solver");
    let out = run(&solver, TINY_LIA, None, &Limits::default(), &Cancel::new());
    assert!(
        matches!(&out.end, RunEnd::SpawnFailed(why) if why.contains("no-such-solver")),
        "{:?}",
        out.end
    );
}

/// Asserts that `f` is listed with an error that contains `says`.
fn assert_error_says(f: &Found, says: &str) {
    assert!(
        f.error.as_deref().is_some_and(|e| e.contains(says)),
        "{}: {:?}",
        f.label,
        f.error
    );
}

#[test]
fn custom_solver_with_a_bad_path_is_listed_with_the_reason() {
    let custom = parse_solver_cmd("mine=/no/such/solver --x").expect("valid");
    let found = discover(&[], &[custom], &Cancel::new());
    let f = found.iter().find(|f| f.label == "mine").expect("listed");
    assert!(f.custom && f.path.is_none());
    assert_error_says(f, "/no/such/solver");
    let e = select(&found, &["mine".to_string()]).expect_err("not runnable");
    assert!(e.contains("/no/such/solver"), "{e}");
    let found = discover(
        &[("cvc5".into(), "/no/such/cvc5".into())],
        &[],
        &Cancel::new(),
    );
    let e = select(&found, &["cvc5".to_string()]).expect_err("not runnable");
    assert!(
        e.contains("--solver cvc5=/no/such/cvc5: ") && e.contains("SMTGRID_CVC5"),
        "{e}"
    );
}

// ---- real solvers ----------------------------------------------------

/// The profiles taken from documentation: every other one is tested here.
const UNTESTED: [&str; 2] = ["opensmt", "mathsat"];

fn installed() -> Vec<Found> {
    discover(&[], &[], &Cancel::new())
}

per_solver!(real_solver_answers_a_tiny_script: z3, cvc5, yices2, cvc4, boolector, bitwuzla, glucose);

fn real_solver_answers_a_tiny_script(label: &str) {
    let solver = solver(label);
    let boolector_script = "(set-logic QF_BV)\n(declare-fun x () (_ BitVec 4))\n\
        (assert (= (bvadd x #b0001) #b0100))\n(check-sat)\n(exit)\n";
    // Boolector has no get-model and prints bits; Bitwuzla has no Int.
    let (script, model) = match label {
        "boolector" => (boolector_script, "x 0011"),
        "bitwuzla" => (TINY_BV, "(define-fun x () (_ BitVec 4) #b0011)"),
        "glucose" => (TINY_BOOL, "(define-fun x0 () Bool false)"),
        _ => (TINY_LIA, "define-fun x () Int"),
    };
    let out = run(
        &solver,
        script,
        None,
        &Limits::timeout(Duration::from_secs(20)),
        &Cancel::new(),
    );
    assert!(
        out.exit_ok(&solver),
        "{label}: {} {}",
        out.end,
        out.stderr_tail(5)
    );
    assert_eq!(
        out.stdout.lines().next(),
        Some("sat"),
        "{label}: {}",
        out.stdout
    );
    assert!(
        out.stdout.contains(model),
        "{label} prints the model: {}",
        out.stdout
    );
    let v = solver.version.clone().unwrap_or_default();
    assert!(
        v.starts_with(|c: char| c.is_ascii_digit()),
        "{label} version {v:?}"
    );
    // The kernel's accounting of the run, and the exact command line.
    assert!(out.usage.cpu_ms >= 0.0, "{label}: {:?}", out.usage);
    assert!(out.usage.max_rss_kb > 0, "{label}: {:?}", out.usage);
    assert_eq!(out.command[0], solver.path.display().to_string(), "{label}");
}

#[test]
fn two_z3_versions_side_by_side() {
    solver("z3");
    let path = PathBuf::from(second_z3());
    let found = discover(
        &[("z3@debian".to_string(), path.clone())],
        &[],
        &Cancel::new(),
    );
    let solvers =
        select(&found, &["z3".into(), "z3@debian".into()]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(solvers.len(), 2);
    let (a, b) = (&solvers[0], &solvers[1]);
    assert_eq!(b.label, "z3@debian");
    assert_eq!(b.profile.name, "z3");
    assert_ne!(
        a.version,
        b.version,
        "z3 on PATH ({}) must be another version than {} ({}): put pip's z3 first on PATH",
        a.path.display(),
        common::SECOND_Z3_VAR,
        path.display()
    );
    assert!(a.display_name() != b.display_name());
    // `all` lists the tagged one right after its profile.
    let all = select(&found, &["all".into()]).expect("some solvers");
    let labels: Vec<&str> = all.iter().map(|s| s.label.as_str()).collect();
    let i = labels.iter().position(|l| *l == "z3").expect("z3 in all");
    assert_eq!(labels.get(i + 1), Some(&"z3@debian"), "{labels:?}");
    for s in [a, b] {
        let out = run(
            s,
            TINY_LIA,
            None,
            &Limits::timeout(Duration::from_secs(10)),
            &Cancel::new(),
        );
        assert_eq!(out.end, RunEnd::Exited(0), "{}", s.display_name());
    }
}

/// Pigeonhole: `n + 1` pigeons in `n` holes, hard for every SAT solver.
fn pigeonhole(n: usize) -> String {
    let mut s = String::from("(set-logic QF_UF)\n");
    for p in 0..=n {
        for h in 0..n {
            s += &format!("(declare-const p{p}_{h} Bool)\n");
        }
    }
    for p in 0..=n {
        let holes: Vec<String> = (0..n).map(|h| format!("p{p}_{h}")).collect();
        s += &format!("(assert (or {}))\n", holes.join(" "));
    }
    for h in 0..n {
        for a in 0..=n {
            for b in a + 1..=n {
                s += &format!("(assert (not (and p{a}_{h} p{b}_{h})))\n");
            }
        }
    }
    s + "(check-sat)\n"
}

#[test]
fn timeout_kills_real_z3_on_a_hard_problem() {
    let z3 = solver("z3");
    let timeout = Duration::from_secs(1);
    let out = run(
        &z3,
        &pigeonhole(12),
        None,
        &Limits::timeout(timeout),
        &Cancel::new(),
    );
    assert_eq!(out.end, RunEnd::TimedOut, "stdout {:?}", out.stdout);
    assert!(out.elapsed < timeout + GRACE, "{:?}", out.elapsed);
}

fn value_of_x(reply: &str) -> i64 {
    // `((x 3))` from every solver here.
    let digits: String = reply.chars().filter(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no value in {reply:?}"))
}

/// Asks the session for x's value, excludes it and checks again; returns
/// the value and the new answer.
fn exclude_x(sess: &mut Session, deadline: Instant) -> (i64, String) {
    let reply = sess
        .command("(get-value (x))", deadline)
        .expect("get-value");
    let x = value_of_x(&reply);
    sess.send(&format!("(assert (not (= x {x})))"), deadline)
        .expect("block");
    let again = sess.command("(check-sat)", deadline).expect("check-sat");
    (x, again.trim().to_string())
}

per_solver!(session_enumerates_solutions: z3, cvc5, yices2, cvc4);

fn session_enumerates_solutions(label: &str) {
    let solver = solver(label);
    let deadline = || Instant::now() + Duration::from_secs(10);
    let mut sess = Session::start(&solver, None, &Cancel::new()).expect("starts");
    sess.send(
        "(set-option :produce-models true)\n(set-logic QF_LIA)\n(declare-const x Int)",
        deadline(),
    )
    .expect("send");
    sess.send("(assert (and (> x 2) (< x 5)))", deadline())
        .expect("send");
    let r = sess.command("(check-sat)", deadline()).expect("check-sat");
    assert_eq!(r.trim(), "sat", "{label}");
    let model = sess.command("(get-model)", deadline()).expect("get-model");
    assert!(model.contains("define-fun x () Int"), "{label}: {model}");
    let (first, again) = exclude_x(&mut sess, deadline());
    assert!(first == 3 || first == 4, "{label}: {first}");
    assert_eq!(again, "sat", "{label}");
    let (second, last) = exclude_x(&mut sess, deadline());
    assert_eq!(first + second, 7, "{label}");
    assert_eq!(last, "unsat", "{label}");
    let pid = sess.pid() as i32;
    drop(sess);
    assert_gone(pid, label);
}

/// Bitwuzla's interactive mode (PyPI's library behind
/// scripts/bitwuzla-launcher, reading stdin as it comes): scopes, values,
/// `get-value` after unsat (nothing printed, the session goes on), and the
/// sentinel echo that frames every reply.
#[test]
fn bitwuzla_session_answers_scoped_questions() {
    let solver = solver("bitwuzla");
    let deadline = || Instant::now() + Duration::from_secs(10);
    let mut sess = Session::start(&solver, Some("QF_BV"), &Cancel::new()).expect("starts");
    sess.send(
        "(set-option :produce-models true)\n(set-logic QF_BV)\n(declare-const x (_ BitVec 4))",
        deadline(),
    )
    .expect("send");
    for (given, answer, value) in [
        ("#x3", "sat", Some("((x #b0011))")),
        ("#x4", "sat", Some("((x #b0100))")),
    ] {
        let question = format!("(push 1)\n(assert (= x {given}))\n(check-sat)\n(get-value (x))");
        let r = sess.command(&question, deadline()).expect("answers");
        let mut lines = r.lines();
        assert_eq!(lines.next(), Some(answer), "{r}");
        assert_eq!(lines.next(), value, "{r}");
        sess.send("(pop 1)", deadline()).expect("pop");
    }
    let r = sess
        .command(
            "(push 1)\n(assert (= x #x1))\n(assert (= x #x2))\n(check-sat)\n(get-value (x))",
            deadline(),
        )
        .expect("answers");
    assert_eq!(r.trim(), "unsat", "nothing after unsat: {r:?}");
    sess.send("(pop 1)", deadline()).expect("pop");
    let r = sess.command("(check-sat)", deadline()).expect("goes on");
    assert_eq!(r.trim(), "sat");
    let pid = sess.pid() as i32;
    drop(sess);
    assert_gone(pid, "bitwuzla");
}

/// Glucose with threads splits each check-sat into cubes, one per
/// thread, and splits again as cubes are proven empty: a pigeonhole within
/// reach (about a second) is proven `unsat` by the cubes together, and one
/// far out of reach still answers `unknown` at the time limit, every
/// thread stopped and none started after it.
#[test]
fn glucose_with_threads_proves_by_cubes_and_stops_at_its_limit() {
    let plain = solver("glucose");
    let dir = tempfile::tempdir().expect("temp dir");
    let within = dir.path().join("php8.smt2");
    std::fs::write(&within, pigeonhole(8)).expect("write");
    for threads in [2, 3] {
        let s = plain
            .variant(Variant {
                seed: None,
                threads: Some(threads),
            })
            .expect("glucose takes threads");
        let (answer, _) = run_file(&s, &within, Duration::from_secs(60));
        assert_eq!(answer, "unsat\n", "{}", s.label);
        stops_itself_at(&s, Duration::from_secs(1));
    }
}

/// Runs `solver` on the script file under its own time-limit flag set to
/// `limit`: what it printed and how long it took. It must exit normally.
fn run_file(solver: &Solver, script: &Path, limit: Duration) -> (String, Duration) {
    let start = Instant::now();
    let out = std::process::Command::new(&solver.path)
        .args(&solver.profile.oneshot_args)
        .args(solver.profile.timeout_args_for(limit))
        .arg(script)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", solver.label));
    let took = start.elapsed();
    assert!(out.status.success(), "{}: {:?}", solver.label, out.status);
    (String::from_utf8_lossy(&out.stdout).into_owned(), took)
}

/// `solver` on a pigeonhole far out of its reach answers `unknown` once
/// its own `limit` has passed, and soon after.
fn stops_itself_at(solver: &Solver, limit: Duration) {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("pigeonhole.smt2");
    std::fs::write(&script, pigeonhole(12)).expect("write");
    let (answer, took) = run_file(solver, &script, limit);
    assert_eq!(answer, "unknown\n", "{}", solver.label);
    assert!(
        took >= limit && took < limit + GRACE,
        "{}: {took:?}",
        solver.label
    );
}

per_solver!(launcher_stops_itself_at_its_time_limit: bitwuzla, glucose);

/// A launcher's own time limit (the profile's time-limit flag): Bitwuzla's
/// (`--time-limit={ms}`), as Bitwuzla's binary does it, prints `unknown`
/// and exits 0 once it passes; Glucose's (`--timeout={secs}`) answers the
/// `check-sat` still running `unknown`.
fn launcher_stops_itself_at_its_time_limit(label: &str) {
    let limit = match label {
        "bitwuzla" => Duration::from_millis(500),
        _ => Duration::from_secs(1),
    };
    stops_itself_at(&solver(label), limit);
}

/// Glucose's session (PyPI's python-sat behind scripts/glucose-smt2,
/// reading stdin a line at a time), seeded or not, with one thread or
/// several: scopes that take their clauses and declarations with them,
/// `check-sat-assuming`, values of terms, an error that leaves the session
/// going, statistics, and the sentinel echo that frames every reply.
#[test]
fn glucose_session_answers_scoped_questions() {
    // The same answers with the variables numbered in another order, and
    // with threads that split each question into cubes (the killer race
    // runs two).
    let plain = solver("glucose");
    let variant = |seed, threads| {
        plain
            .variant(Variant { seed, threads })
            .expect("glucose takes seeds and threads")
    };
    let runs = [
        variant(Some(7), None),
        variant(None, Some(2)),
        variant(Some(3), Some(3)),
        plain.clone(),
    ];
    for solver in runs {
        let deadline = || Instant::now() + Duration::from_secs(10);
        let mut sess = Session::start(&solver, Some("QF_UF"), &Cancel::new()).expect("starts");
        sess.send(
            "(set-option :produce-models true)\n(set-logic QF_UF)\n\
             (declare-const a Bool)\n(declare-const b Bool)\n(assert (or a b))",
            deadline(),
        )
        .expect("send");
        let r = sess
            .command(
                "(push 1)\n(declare-const c Bool)\n(assert (and (not a) (= b c)))\n(check-sat)\n\
                 (get-value (a b c (=> a b)))",
                deadline(),
            )
            .expect("answers");
        assert_eq!(
            r.trim(),
            "sat\n((a false) (b true) (c true) ((=> a b) true))"
        );
        let r = sess
            .command("(assert (not b))\n(check-sat)", deadline())
            .expect("answers");
        assert_eq!(r.trim(), "unsat");
        // The pop takes `(not b)`, `(not a)` and `c` with it.
        sess.send("(pop 1)", deadline()).expect("pop");
        let r = sess
            .command(
                "(check-sat-assuming ((not b)))\n(get-value (a c))",
                deadline(),
            )
            .expect("answers");
        assert_eq!(r.trim(), "sat\n(error \"unknown constant c\")");
        let r = sess
            .command("(check-sat-assuming ((not a) (not b)))", deadline())
            .expect("answers");
        assert_eq!(r.trim(), "unsat");
        let r = sess
            .command("(declare-const n Int)\n(check-sat)", deadline())
            .expect("goes on after an error");
        assert_eq!(r.trim(), "(error \"only Bool constants: n is Int\")\nsat");
        let r = sess
            .command("(get-info :all-statistics)", deadline())
            .expect("answers");
        assert!(
            r.contains(":conflicts ") && r.contains(":decisions "),
            "{r}"
        );
        let pid = sess.pid() as i32;
        drop(sess);
        assert_gone(pid, "glucose");
    }
}

#[test]
fn session_reports_a_solver_that_exits_on_an_error() {
    let cvc5 = solver("cvc5");
    let mut sess = Session::start(&cvc5, None, &Cancel::new()).expect("starts");
    // Far off: the later command must fail because cvc5 died, not wait for it.
    let deadline = Instant::now() + Duration::from_secs(120);
    match sess.command("(this-is-no-command)", deadline) {
        Err(SessionError::Died { output, .. }) => {
            assert!(output.contains("Parse Error"), "{output}")
        }
        other => panic!("cvc5 exits after a parse error, got {other:?}"),
    }
    // Later commands fail at once instead of waiting for the deadline.
    let start = Instant::now();
    assert!(matches!(
        sess.command("(check-sat)", deadline),
        Err(SessionError::Died { .. })
    ));
    assert!(start.elapsed() < GRACE, "{:?}", start.elapsed());
    // z3 goes on after an error: the error is part of the reply.
    let z3 = solver("z3");
    let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
    let r = sess.command("(get-model)", deadline).expect("z3 answers");
    assert!(r.contains("error"), "{r}");
}

#[test]
fn session_deadline_kills_the_solver() {
    let z3 = solver("z3");
    let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
    sess.send(
        &pigeonhole(12).replace("(check-sat)\n", ""),
        Instant::now() + Duration::from_secs(10),
    )
    .expect("send");
    let pid = sess.pid() as i32;
    let start = Instant::now();
    let deadline = Duration::from_millis(700);
    let r = sess.command("(check-sat)", Instant::now() + deadline);
    assert!(matches!(r, Err(SessionError::TimedOut { .. })), "{r:?}");
    assert!(start.elapsed() < deadline + GRACE, "{:?}", start.elapsed());
    assert_gone(pid, "z3 after its session deadline");
}

#[test]
fn custom_solvers_have_no_session() {
    let dir = tempfile::tempdir().expect("temp dir");
    let solver = fake_solver("silent.sh", &dir.path().join("pids"));
    assert!(matches!(
        Session::start(&solver, None, &Cancel::new()),
        Err(SessionError::NoInteractiveMode(_))
    ));
}

#[test]
fn ctrl_c_cancels_running_solvers() {
    let cancel = smtgrid::solver::install_ctrlc_handler();
    hang_until_stopped(
        &cancel,
        || {
            // SAFETY: raising a signal that the handler above catches.
            unsafe { libc::raise(libc::SIGINT) };
        },
        "after Ctrl-C",
    );
}

#[test]
fn discover_lists_every_profile() {
    let found = installed();
    let labels: Vec<&str> = found.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(labels, PROFILES);
    for f in &found {
        assert_eq!(
            f.profile.tested,
            !UNTESTED.contains(&f.label.as_str()),
            "{}",
            f.label
        );
        if f.path.is_none() {
            assert_error_says(f, "not on PATH");
        }
    }
}

// ---- escaped descendants, huge output, version probes ----------------

#[test]
fn stdout_flood_is_cut_at_the_cap_and_killed() {
    let out = run_fake("stdout_flood.sh", Duration::from_secs(60));
    assert_eq!(out.end, RunEnd::OutputLimit);
    assert_eq!(out.stdout.len(), smtgrid::solver::STDOUT_CAP);
    assert!(out.stdout.starts_with("sat\n(define-fun x_1_1 () Int 4)\n"));
    assert!(out.end.to_string().contains("MiB"), "{}", out.end);
}

/// A solver of the z3 profile at `path` (as `--solver z3=PATH` gives).
fn as_z3(path: &Path) -> Solver {
    let (label, path) = smtgrid::solver::parse_solver_override(&format!("z3={}", path.display()))
        .expect("valid override");
    let found = discover(&[(label, path)], &[], &Cancel::new());
    found
        .iter()
        .find(|f| f.label == "z3")
        .and_then(|f| f.solver())
        .expect("the fake z3 is found")
}

#[test]
fn session_flood_is_bounded_and_quoted_briefly() {
    for fake in ["interactive_flood.py", "interactive_70mb.py"] {
        let z3 = as_z3(&fake_dir().join(fake));
        assert_eq!(z3.version.as_deref(), Some("9.9.9"));
        let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
        let pid = sess.pid() as i32;
        let start = Instant::now();
        let r = sess.command("(check-sat)", Instant::now() + Duration::from_secs(60));
        let Err(e @ SessionError::Died { .. }) = r else {
            panic!("{fake}: {r:?}")
        };
        let text = e.to_string();
        assert!(text.contains("more than 64 MiB"), "{fake}: {text:.300}");
        assert!(
            text.len() < 1000,
            "{fake}: {} bytes: {text:.300}",
            text.len()
        );
        assert!(e.elapsed().is_some_and(|t| t <= start.elapsed()));
        assert!(start.elapsed() < Duration::from_secs(30), "{fake}");
        assert_gone(pid, fake);
    }
}

#[test]
fn session_errors_carry_real_elapsed_times() {
    let dir = tempfile::tempdir().expect("temp dir");
    let z3 = as_z3(&mute_z3(dir.path()));
    let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
    let wait = Duration::from_millis(300);
    let r = sess.command("(check-sat)", Instant::now() + wait);
    let Err(e @ SessionError::TimedOut { .. }) = r else {
        panic!("{r:?}")
    };
    assert!(e.elapsed().is_some_and(|t| t >= wait), "{e:?}");
    assert!(
        e.to_string().contains("0.3 s") || e.to_string().contains("0.4 s"),
        "{e}"
    );
}

/// A fake z3 in `dir` that sleeps and never answers (not even
/// `--version`).
fn sleeping_z3(dir: &Path) -> PathBuf {
    let script = dir.join("z3");
    common::write_script(&script, "#!/bin/sh\nexec sleep 1000\n");
    script
}

/// A fake z3 in `dir` that tells its version and then, in a session,
/// sleeps and never reads or answers: for the session's own deadlines,
/// without the 15 s a version probe of [`sleeping_z3`] waits.
fn mute_z3(dir: &Path) -> PathBuf {
    let script = dir.join("z3");
    common::write_script(
        &script,
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Z3 version 9.9.9 - 64 bit'; exit 0; }\nexec sleep 1000\n",
    );
    script
}

#[test]
fn versions_are_probed_once_per_binary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fake = dir.path().join("z3");
    let text = std::fs::read_to_string(fake_dir().join("counts_versions.sh")).expect("read");
    common::write_script(&fake, &text);
    let mut z3 = as_z3(&fake);
    assert_eq!(z3.version.as_deref(), Some("9.9.9"));
    for _ in 0..3 {
        z3.version = None;
        smtgrid::solver::read_versions(std::slice::from_mut(&mut z3), AMPLE, &Cancel::new());
        assert_eq!(z3.version.as_deref(), Some("9.9.9"));
    }
    let calls = std::fs::read_to_string(dir.path().join("versions")).expect("counted");
    assert_eq!(
        calls.lines().count(),
        1,
        "probed {} times",
        calls.lines().count()
    );
}

#[test]
fn cancel_stops_a_version_probe_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = sleeping_z3(dir.path());
    let (label, path) =
        smtgrid::solver::parse_solver_override(&format!("z3={}", script.display())).expect("ok");
    let found = discover(&[(label, path)], &[], &{
        let c = Cancel::new();
        c.cancel();
        c
    });
    let z3 = found.iter().find(|f| f.label == "z3").expect("listed");
    assert_eq!(z3.version, None);
    let mut solver = z3.solver().expect("found");
    let cancel = Cancel::new();
    let c = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c.cancel();
    });
    let start = Instant::now();
    smtgrid::solver::read_versions(std::slice::from_mut(&mut solver), AMPLE, &cancel);
    canceller.join().expect("canceller");
    assert_eq!(solver.version, None);
    // The probe's own limit is 15 s.
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

// ---- the binary as a child: exit status and peak memory ---------------

/// What a run of the smtgrid binary did.
struct Binary {
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident memory, from `wait4`'s rusage of this child alone.
    max_rss_kib: i64,
    elapsed: Duration,
}

/// Runs the smtgrid binary with `args` (from the project root) and
/// `interrupt_after`, if given, sends it SIGINT after that long.
fn smtgrid(args: &[&str], env: &[(&str, &Path)], interrupt_after: Option<Duration>) -> Binary {
    let dir = tempfile::tempdir().expect("temp dir");
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let file = |p: &Path| std::fs::File::create(p).expect("create");
    // Reaped by `wait4` below, which also gives its rusage.
    #[allow(clippy::zombie_processes)]
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_smtgrid"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(file(&out))
        .stderr(file(&err))
        .spawn()
        .expect("the smtgrid binary starts");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    if let Some(d) = interrupt_after {
        std::thread::sleep(d);
        // SAFETY: signals a child this test started and has not reaped.
        unsafe { libc::kill(pid, libc::SIGINT) };
    }
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for this child only; both out-pointers are valid.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -libc::WTERMSIG(status)
    };
    Binary {
        code,
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
        max_rss_kib: usage.ru_maxrss,
        elapsed: start.elapsed(),
    }
}

/// "A few times the cap": the output kept, plus what is read from it.
const RSS_BOUND_KIB: i64 = 4 * (smtgrid::solver::STDOUT_CAP as i64 >> 10);

#[test]
fn huge_outputs_cost_bounded_memory_and_short_messages() {
    let spec = |name: &str, fake: &str| format!("{name}={}", fake_dir().join(fake).display());
    let flood = fake_dir().join("stdout_flood.sh");
    let cases = [
        // One-shot: 64 MB of atoms (2.4 GB before), one list of 4 million
        // atoms, and an endless model entry.
        ("atoms", spec("atoms", "atoms.py"), false),
        ("atomlist", spec("atomlist", "atoms_list.py"), false),
        (
            "flood",
            format!("flood=/bin/sh {} /dev/null", flood.display()),
            false,
        ),
        // Sessions (--unique): an endless flood, 70 MB without a newline.
        ("z3", spec("z3", "interactive_flood.py"), true),
        ("z3", spec("z3", "interactive_70mb.py"), true),
    ];
    for (name, spec, session) in cases {
        let mut args = vec!["solve", "puzzles/sudoku-4x4.toml", "--encoding", "lia"];
        args.extend(["--timeout", "60", "--format", "jsonl"]);
        if session {
            args.extend(["--solver", &spec, "--unique"]);
        } else {
            args.extend(["--solver-cmd", &spec, "--solver", name]);
        }
        let b = smtgrid(&args, &[], None);
        assert_eq!(b.code, 1, "{spec}: {}\n{}", b.stdout, b.stderr);
        let line: serde_json::Value = serde_json::from_str(b.stdout.trim()).expect("one JSON line");
        assert_eq!(line["status"], "error", "{spec}: {line}");
        let error = line["error"].as_str().unwrap_or_default();
        assert!(
            error.len() < 1000,
            "{spec}: the error quotes {} bytes",
            error.len()
        );
        assert!(
            b.stdout.len() < 2000,
            "{spec}: {} bytes of report",
            b.stdout.len()
        );
        assert!(
            b.max_rss_kib < RSS_BOUND_KIB,
            "{spec}: peak RSS {} KiB",
            b.max_rss_kib
        );
        assert!(
            b.elapsed < Duration::from_secs(40),
            "{spec}: {:?}",
            b.elapsed
        );
    }
}

#[test]
fn a_word_as_long_as_the_output_costs_the_cap_and_no_copy_of_it() {
    let z3 = |fake: &str| format!("z3={}", fake_dir().join(fake).display());
    let dir = tempfile::tempdir().expect("temp dir");
    let transcripts = dir.path().join("transcripts").display().to_string();
    let (flood, word) = (z3("word_flood.sh"), z3("interactive_long_word.py"));
    let killed = "the solver was killed after printing more than 64 MiB";
    let cases = [
        // A one-shot run reads its output for an answer before the
        // statistics (z3's profile asks for them), and records it whole
        // in a transcript: each once copied all 64 MiB, 200 MB in all.
        (&flood, &["--mode", "process"][..], killed),
        (
            &flood,
            &["--mode", "process", "--transcript", &transcripts],
            killed,
        ),
        // A session's 50 MB reply was copied out of its buffer, and
        // again for the transcript: 215 and 266 MB.
        (&word, &["--unique"], "sat, but no model was printed"),
        (
            &word,
            &["--unique", "--transcript", &transcripts],
            "sat, but no model was printed",
        ),
    ];
    for (solver, extra, error) in cases {
        let mut args = vec!["solve", "puzzles/sudoku-4x4.toml", "--solver", solver];
        args.extend(["--encoding", "lia", "--format", "jsonl"]);
        args.extend(extra);
        let b = smtgrid(&args, &[], None);
        assert_eq!(b.code, 1, "{args:?}: {}\n{}", b.stdout, b.stderr);
        let line: serde_json::Value = serde_json::from_str(b.stdout.trim()).expect("one JSON line");
        assert_eq!(line["status"], "error", "{args:?}: {line}");
        assert_eq!(line["error"], error, "{args:?}");
        // The output kept, and smtgrid itself (about 30 MB).
        let bound = 2 * (smtgrid::solver::STDOUT_CAP as i64 >> 10);
        assert!(
            b.max_rss_kib < bound,
            "{args:?}: peak RSS {} KiB",
            b.max_rss_kib
        );
    }
}

#[test]
fn ctrl_c_during_a_version_probe_exits_130_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pids = dir.path().join("pids");
    let fake = fake_dir().join("hangs_on_version.sh");
    let spec = format!("z3={}", fake.display());
    let args = [
        "solve",
        "puzzles/sudoku-4x4.toml",
        "--solver",
        &spec,
        "--encoding",
        "lia",
    ];
    let b = smtgrid(
        &args,
        &[("FAKE_PIDFILE", &pids)],
        Some(Duration::from_millis(1000)),
    );
    assert_eq!(b.code, 130, "{}", b.stderr);
    // The probe's own limit is 15 s; stopped by Ctrl-C it ends before it
    // (generously: the machine may be loaded).
    assert!(b.elapsed < Duration::from_secs(14), "{:?}", b.elapsed);
    let text = std::fs::read_to_string(&pids).expect("the probe ran");
    for pid in text.split_whitespace() {
        assert_gone(pid.parse().expect("pid"), "the version probe");
    }
}

// ---- session writes never block; answers never come before questions --

#[test]
fn a_session_write_to_a_solver_that_does_not_read_ends_at_its_deadline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let z3 = as_z3(&mute_z3(dir.path()));
    // Far more than a pipe holds: the write must wait for room, and give
    // up at the deadline instead of blocking the thread for good.
    let big = "(assert true)\n".repeat(100_000);
    let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
    let pid = sess.pid() as i32;
    let start = Instant::now();
    let wait = Duration::from_millis(700);
    let r = sess.send(&big, Instant::now() + wait);
    assert!(matches!(r, Err(SessionError::TimedOut { .. })), "{r:?}");
    assert!(start.elapsed() < wait + GRACE, "{:?}", start.elapsed());
    assert_gone(pid, "a solver whose input stayed full");

    // The same with a question, stopped by a cancel rather than the clock.
    let cancel = Cancel::new();
    let mut sess = Session::start(&z3, None, &cancel).expect("starts");
    let pid = sess.pid() as i32;
    let c = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c.cancel();
    });
    let start = Instant::now();
    let r = sess.command(&big, Instant::now() + Duration::from_secs(600));
    assert!(matches!(r, Err(SessionError::Cancelled { .. })), "{r:?}");
    assert!(start.elapsed() < GRACE, "{:?}", start.elapsed());
    canceller.join().expect("canceller");
    assert_gone(pid, "a cancelled solver whose input stayed full");
}

#[test]
fn an_answer_before_its_question_is_a_protocol_error() {
    let mark = std::env::temp_dir().join(format!("smtgrid-early-sentinels-{}", std::process::id()));
    let _ = std::fs::remove_file(&mark);
    let z3 = as_z3(&fake_dir().join("early_sentinels.py"));
    let mut sess = Session::start(&z3, None, &Cancel::new()).expect("starts");
    let pid = sess.pid() as i32;
    let until = Instant::now() + GRACE;
    while !mark.exists() {
        assert!(
            Instant::now() < until,
            "the fake never printed its sentinels"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Give smtgrid's reader a moment to take what the fake printed.
    std::thread::sleep(Duration::from_millis(300));
    let r = sess.command("(check-sat)", Instant::now() + Duration::from_secs(60));
    let Err(e @ SessionError::Protocol { .. }) = r else {
        panic!("{r:?}")
    };
    assert!(e.to_string().contains("smtgrid-sentinel-1"), "{e}");
    assert_gone(pid, "a solver that broke the protocol");
    let _ = std::fs::remove_file(&mark);
    assert!(matches!(
        sess.command("(check-sat)", Instant::now() + Duration::from_secs(60)),
        Err(SessionError::Died { .. })
    ));
}

/// A CPU budget counts what the solver used, not the clock: a solver that
/// waits (as one does whose core other processes hold) answers after its
/// wall-clock deadline, while one that spends its budget is stopped, on
/// any load, before the budget's end.
#[test]
fn a_session_s_cpu_budget_counts_the_solver_s_time_not_the_clock() {
    let sleepy = as_z3(&fake_dir().join("sleepy_session.py"));
    // Without a budget, 0.2 s of the clock end the question (the fake
    // answers after 0.6 s).
    let mut sess = Session::start(&sleepy, None, &Cancel::new()).expect("starts");
    let r = sess.command("(check-sat)", Instant::now() + Duration::from_millis(200));
    assert!(matches!(r, Err(SessionError::TimedOut { .. })), "{r:?}");
    // With 0.2 s of CPU time it answers: asleep, it used next to none.
    let mut sess = Session::start(&sleepy, None, &Cancel::new()).expect("starts");
    sess.set_cpu_budget(Duration::from_millis(200), Instant::now() + GRACE);
    let r = sess.command("(check-sat)", Instant::now() + Duration::from_millis(200));
    assert_eq!(r.as_deref().map(str::trim), Ok("sat"));
    // Nor does the budget outlast its end (the answer would come after
    // 0.6 s).
    let mut sess = Session::start(&sleepy, None, &Cancel::new()).expect("starts");
    let start = Instant::now();
    sess.set_cpu_budget(Duration::from_secs(60), start + Duration::from_millis(300));
    let r = sess.command("(check-sat)", start + Duration::from_millis(100));
    assert!(matches!(r, Err(SessionError::TimedOut { .. })), "{r:?}");

    let spinning = as_z3(&fake_dir().join("spinning_session.py"));
    let mut sess = Session::start(&spinning, None, &Cancel::new()).expect("starts");
    let pid = sess.pid() as i32;
    let start = Instant::now();
    sess.set_cpu_budget(Duration::from_millis(300), start + 2 * GRACE);
    let r = sess.command("(check-sat)", start + Duration::from_millis(100));
    assert!(matches!(r, Err(SessionError::TimedOut { .. })), "{r:?}");
    let used = sess.last_usage().map_or(0.0, |u| u.cpu_ms);
    assert!(
        used >= 300.0 || start.elapsed() >= 2 * GRACE,
        "{used} ms of CPU time"
    );
    assert_gone(pid, "a solver past its CPU budget");
}
