//! What several integration tests share: the repository's paths, the
//! example puzzles, finding the solvers a test needs (failing loudly, never
//! skipping), and checking that processes are gone. Each test module takes
//! it with `use crate::common;`.

pub mod overlaps;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use smtgrid::solver::{Found, Solver, discover};

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The solver profiles smtgrid knows, in the order of `profiles.toml`.
pub const PROFILES: [&str; 9] = [
    "z3",
    "cvc5",
    "yices2",
    "cvc4",
    "boolector",
    "bitwuzla",
    "glucose",
    "opensmt",
    "mathsat",
];

/// The names of the entries of `dir`, sorted.
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The `smtgrid` binary built for these tests, reading no user profiles
/// file (`XDG_CONFIG_HOME` names a folder that does not exist) so that a
/// developer's own profiles cannot change what the tests see.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_smtgrid"));
    c.env("XDG_CONFIG_HOME", root().join("tests/no-such-config"));
    c
}

/// Runs `smtgrid args` in the repository's root and waits for it.
pub fn smtgrid(args: &[&str]) -> Output {
    smtgrid_in(&root(), args)
}

/// Runs `smtgrid args` in folder `dir` and waits for it.
pub fn smtgrid_in(dir: &std::path::Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the smtgrid binary runs")
}

/// `--solver-cmd` for the fake solver `script` of tests/fake_solvers as
/// `label`, writing its process ids to `pidfile`.
pub fn fake_solver(label: &str, script: &str, pidfile: &std::path::Path) -> String {
    format!(
        "{label}=sh {} {}",
        root().join("tests/fake_solvers").join(script).display(),
        pidfile.display()
    )
}

/// Writes the shell script `text` to `path`, executable, through a `sh`
/// of its own, so that this process never holds a descriptor open for
/// writing on it. A process another test of the same binary forks holds
/// a copy of every descriptor open here at that moment until its `exec`,
/// and while it does, an `exec` of the script fails with ETXTBSY ("Text
/// file busy"): written with `std::fs::write`, a script could fail to
/// start while tests run side by side (tests/it runs two at a time).
pub fn write_script(path: &std::path::Path, text: &str) {
    use std::io::Write;
    let mut sh = Command::new("/bin/sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("sh starts");
    sh.stdin
        .take()
        .expect("a pipe")
        .write_all(text.as_bytes())
        .expect("the script goes to sh");
    let status = sh.wait().expect("sh ends");
    assert!(status.success(), "{}: {status}", path.display());
}

/// The keys of the JSON object `v`, sorted; fails the test unless `v` is
/// an object.
pub fn sorted_keys(v: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    keys
}

/// A new temporary directory, and in it a lines file of the first `n`
/// puzzles of puzzles/top95.txt.
pub fn top95_head(n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let all = std::fs::read_to_string(root().join("puzzles/top95.txt")).expect("top95");
    let lines: Vec<&str> = all
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(n)
        .collect();
    let path = dir.path().join("top95-head.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    (dir, path)
}

/// The TOML puzzle files of `puzzles/`, sorted by name.
pub fn puzzle_files() -> Vec<PathBuf> {
    let dir = root().join("puzzles");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// Every solver profile as smtgrid finds it (PATH and `SMTGRID_<NAME>`),
/// looked up once per test binary.
fn installed() -> &'static [Found] {
    static FOUND: OnceLock<Vec<Found>> = OnceLock::new();
    FOUND.get_or_init(|| discover(&[], &[], &smtgrid::solver::Cancel::new()))
}

/// The solver `name` — a label (`yices2`) or one of its binaries
/// (`yices-smt2`) — found as `smtgrid solve` finds it. A missing solver
/// fails the test with what to do about it; it is never skipped.
pub fn solver(name: &str) -> Solver {
    find_solver(name).unwrap_or_else(|why| panic!("{why}"))
}

/// Fails the test, naming every missing one, unless all of `names` (labels
/// or binaries, as for [`solver`]) are installed.
pub fn require(names: &[&str]) {
    let missing: Vec<String> = names.iter().filter_map(|n| find_solver(n).err()).collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

fn find_solver(name: &str) -> Result<Solver, String> {
    let found = installed()
        .iter()
        .find(|f| f.label == name || f.profile.binaries.iter().any(|b| b == name))
        .ok_or_else(|| format!("`{name}` is no solver profile of smtgrid"))?;
    found.solver().ok_or_else(|| {
        format!(
            "this test needs the solver {} ({}). Install it with scripts/install-solvers --for-tests and put \
             the folder that script prints first on PATH (scripts/test does both), or point {} at \
             its binary.",
            found.label,
            found.error.as_deref().unwrap_or("not found"),
            found.profile.env_var()
        )
    })
}

/// The variable naming a second z3 binary, of another version than the z3
/// on PATH, for the tests that run two versions side by side.
pub const SECOND_Z3_VAR: &str = "SMTGRID_Z3_DEBIAN";

/// The path in [`SECOND_Z3_VAR`]; a test failure saying how to set it when
/// it is unset or not a file.
pub fn second_z3() -> String {
    let how = format!(
        "this test runs two z3 versions side by side and finds the second through {SECOND_Z3_VAR}: \
         run `eval \"$(scripts/install-solvers --for-tests --env)\"` (it installs Debian's z3 and exports \
         {SECOND_Z3_VAR}; scripts/test does this), or export {SECOND_Z3_VAR}=/path/to/another/z3"
    );
    let path = std::env::var(SECOND_Z3_VAR)
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| panic!("{SECOND_Z3_VAR} is not set; {how}"));
    assert!(
        std::path::Path::new(&path).is_file(),
        "{SECOND_Z3_VAR}={path} is no file; {how}"
    );
    path
}

/// The process ids a fake solver wrote into `file` (every word of it that
/// is a number).
pub fn recorded_pids(file: &std::path::Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Whether `pid` has ended. A zombie counts: it has ended, and whether it
/// is reaped depends on this machine's init, not on smtgrid.
pub fn gone(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only asks whether the process exists.
    if unsafe { libc::kill(pid, 0) } != 0 {
        return true;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    matches!(state, Some('Z' | 'X') | None)
}

/// Asserts that process `pid` (described by `what`) ends. A killed process
/// vanishes asynchronously, and on a loaded machine that can take a while:
/// the wait is generous, and ends as soon as the process is gone.
pub fn assert_gone(pid: i32, what: &str) {
    let until = Instant::now() + Duration::from_secs(10);
    while !gone(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(gone(pid), "{what} (pid {pid}) is still running");
}

/// [`assert_gone`] for each of `pids`, which must not be empty.
pub fn assert_all_gone(pids: &[i32]) {
    assert!(!pids.is_empty(), "no PID was recorded");
    for &pid in pids {
        assert_gone(pid, "process");
    }
}

/// One `#[test]` per solver, so that one solver's failure hides no other's:
/// `per_solver!(f)` makes `f::z3`, `f::cvc5` and `f::yices2`, each calling
/// `f(LABEL)`; `per_solver!(f: z3, cvc4)` names the solvers.
macro_rules! per_solver {
    ($test:ident) => {
        mod $test {
            #[test]
            fn z3() {
                super::$test("z3");
            }
            #[test]
            fn cvc5() {
                super::$test("cvc5");
            }
            #[test]
            fn yices2() {
                super::$test("yices2");
            }
        }
    };
    ($test:ident: $($solver:ident),+ $(,)?) => {
        mod $test {
            $(
                #[test]
                fn $solver() {
                    super::$test(stringify!($solver));
                }
            )+
        }
    };
}
pub(crate) use per_solver;

/// A file of the first `n` sudokus of the 17-clue set, in `dir`.
pub fn many_sudokus(dir: &std::path::Path, n: usize) -> PathBuf {
    use std::io::Read;
    let gz = std::fs::File::open(root().join("puzzles/sudoku17.txt.gz")).expect("open");
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut text)
        .expect("gunzip");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect();
    let f = dir.join("many.txt");
    std::fs::write(&f, lines.join("\n") + "\n").expect("write");
    f
}

/// The events of every transcript file in `dir`, by file.
pub fn transcripts(dir: &std::path::Path) -> Vec<Vec<serde_json::Value>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .expect("read")
                .lines()
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect()
        })
        .collect()
}

/// Asserts that run record `r` is the invalid answer of a solver that gave
/// the first grid again when asked for a different one.
pub fn assert_first_grid_again(r: &serde_json::Value) {
    assert_eq!(r["status"], "invalid-model", "{r}");
    assert_eq!(r["unique"], serde_json::Value::Null, "{r}");
    assert!(
        r["error"]
            .as_str()
            .is_some_and(|e| e.contains("first grid again")),
        "{r}"
    );
}

/// A 4×4 sudoku that records no solution and whose givens propagation
/// alone completes: no solver is needed to know a solution.
pub const DECIDED_4X4: &str =
    "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n";
