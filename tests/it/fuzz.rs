//! Fuzzing on stable Rust: replays the checked-in corpus
//! (`tests/fuzz/corpus/TARGET/`: the puzzles, the bad-input fixtures, the
//! defect reproductions' inputs, recorded solver replies, and minimised
//! crashers) and a few thousand seeded random mutations of it through the
//! same properties as the cargo-fuzz targets in `fuzz/`: no panic, every
//! error names the file on one printable line, emit is deterministic, and
//! the binary exits with 0, 1 or 2. The importers' targets (`links`,
//! `fpuzzles`) mutate links, ISS strings and f-puzzles JSON the project
//! wrote itself: random edits of base64 payloads must be refused, never
//! panic.
//!
//! `SMTGRID_FUZZ_ITERS=N` runs N mutations per target instead of the
//! default, `SMTGRID_FUZZ_SEED=S` another seed; a failing input is written
//! to `target/fuzz-failures/` so it can be added to the corpus.

#[path = "../fuzz/props.rs"]
mod props;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use smtgrid::parse::InputFormat;

use crate::common::root;

/// Mutations per target when `SMTGRID_FUZZ_ITERS` is not set: enough to
/// reach past the corpus, few enough that the whole file runs in seconds.
const DEFAULT_ITERS: u64 = 1500;
/// Inputs grow to at most this many bytes, so one iteration stays cheap.
const MAX_LEN: usize = 64 << 10;

/// xorshift64*: a seeded generator, so a failure found once is found again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = root().join("tests/fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    let inputs: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect();
    assert!(!inputs.is_empty(), "{} holds no inputs", dir.display());
    inputs
}

/// Bytes that mean something to one of the parsers.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r",
    b"\r\n",
    b"\0",
    b"\x1b[31m",
    b"\t",
    b" ",
    b".",
    b"_",
    b"|",
    b",",
    b"x",
    b"-",
    b"+",
    b"*",
    b"/",
    b"=",
    b"\"",
    b"\"\"\"",
    b"'",
    b"#",
    b"[",
    b"]",
    b"[clues]",
    b"{",
    b"}",
    b"kind",
    b"box",
    b"cages",
    b"givens",
    b"solution",
    b"grid",
    b"title",
    b"default-clue",
    b"distinct-cages",
    b"square",
    b"a",
    b"z",
    b"\xff",
    b"\xc3\xa9",
    b"(",
    b")",
    b"sat",
    b"unsat",
    b"(model",
    b"(define-fun x_1_1 () Int 3)",
    b"(error \"",
    b"1979-05-27",
    b"https://www.f-puzzles.com/?load=",
    b"https://sudokupad.app/scl",
    b"https://sudokupad.app/fpuzzles",
    b"N4Ig",
    b"%2F",
    b".Cage~",
    b".~R1C1_",
    b"R0C0",
    b"R17C3",
    b"\"region\":null",
    b"\"killercage\"",
    b"{ce:[[,{v:3},]],re:[[[0,0]]]}",
];

/// Numbers at the edges of what the parsers and encoders take.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "9",
    "10",
    "16",
    "25",
    "63",
    "64",
    "65",
    "77",
    "4096",
    "65535",
    "2147483648",
    "99999999999999999999999",
    "1e19",
    "3.0",
];

/// One to four random edits of `input`, some of them splicing in another
/// corpus input, so structure from elsewhere gets in.
fn mutate(rng: &mut Rng, input: &[u8], pool: &[Vec<u8>]) -> Vec<u8> {
    let mut d = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(d.len() + 1);
        match rng.below(8) {
            0 if !d.is_empty() => {
                let i = rng.below(d.len());
                d[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = rng.pick(TOKENS);
                d.splice(at..at, t.iter().copied());
            }
            2 if !d.is_empty() => {
                let len = 1 + rng.below(16);
                let end = (at + len).min(d.len());
                d.drain(at.min(end)..end);
            }
            3 if !d.is_empty() => {
                let from = rng.below(d.len());
                let end = (from + 1 + rng.below(64)).min(d.len());
                let chunk = d[from..end].to_vec();
                d.splice(at..at, chunk);
            }
            4 => {
                // Replace the run of digits at or after `at` with an edge number.
                if let Some(start) = d[at.min(d.len())..].iter().position(u8::is_ascii_digit) {
                    let start = at + start;
                    let end = d[start..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(d.len(), |n| start + n);
                    let n = rng.pick(NUMBERS);
                    d.splice(start..end, n.bytes());
                }
            }
            5 => {
                let other = rng.pick(pool);
                let cut = rng.below(other.len() + 1);
                d.truncate(at);
                d.extend_from_slice(&other[cut..]);
            }
            6 => {
                // Swap two lines.
                let mut lines: Vec<Vec<u8>> =
                    d.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                    d = lines.join(&b'\n');
                }
            }
            _ => {
                // Repeat a line, which grows grids and cages.
                let lines: Vec<&[u8]> = d.split(|&b| b == b'\n').collect();
                let line = rng.pick(&lines).to_vec();
                let mut line = line;
                line.push(b'\n');
                let at = at.min(d.len());
                d.splice(at..at, line);
            }
        }
        d.truncate(MAX_LEN);
    }
    d
}

/// Keeps a failing input where it can be picked up for the corpus.
fn save_failure(target: &str, n: usize, data: &[u8]) -> PathBuf {
    let dir = root().join("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{target}-{n}"));
    let _ = std::fs::write(&path, data);
    path
}

/// Replays the corpus of `target`, then `iters` mutations of it, through
/// `check`; fails listing every input that broke a property or panicked.
fn fuzz(target: &str, seed: u64, check: impl Fn(&[u8]) -> Result<(), String>) {
    let pool = corpus(target);
    let mut rng = Rng(env_u64("SMTGRID_FUZZ_SEED", seed) | 1);
    let iters = env_u64("SMTGRID_FUZZ_ITERS", DEFAULT_ITERS);
    let mut failures = Vec::new();
    let inputs = pool
        .iter()
        .cloned()
        .chain((0..iters).map(|_| {
            let base = rng.pick(&pool).clone();
            mutate(&mut rng, &base, &pool)
        }))
        .collect::<Vec<_>>();
    for data in &inputs {
        let outcome = catch_unwind(AssertUnwindSafe(|| check(data)));
        let why = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(why)) => why,
            Err(_) => "panicked".to_string(),
        };
        let path = save_failure(target, failures.len(), data);
        failures.push(format!("{}: {why}", path.display()));
    }
    assert!(
        failures.is_empty(),
        "{} of {} {target} inputs broke a property:\n{}",
        failures.len(),
        inputs.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The properties of a puzzle file in `format`, as a check for [`fuzz`].
fn input_in(format: InputFormat) -> impl Fn(&[u8]) -> Result<(), String> {
    move |d| props::puzzle_input(d, format)
}

#[test]
fn native_toml() {
    fuzz("native", 0x5EED_0001, input_in(InputFormat::Toml));
}

#[test]
fn sudoku_lines() {
    fuzz("lines", 0x5EED_0002, input_in(InputFormat::Lines));
}

#[test]
fn kakuro_text() {
    fuzz("kakuro", 0x5EED_0003, input_in(InputFormat::Kakuro));
}

#[test]
fn links_and_iss_strings() {
    fuzz("links", 0x5EED_0006, input_in(InputFormat::Links));
}

#[test]
fn fpuzzles_json() {
    fuzz("fpuzzles", 0x5EED_0007, input_in(InputFormat::Fpuzzles));
}

#[test]
fn solver_replies() {
    fuzz("reply", 0x5EED_0004, props::reply);
}

/// How long one `smtgrid inspect` of a mutated file may take before the
/// harness calls it a hang; generous, since it only catches runaways.
const BINARY_LIMIT: Duration = Duration::from_secs(60);

/// The binary on mutated files of every format: exit status 0 or 2 (input
/// error), never a panic, and an error message that names the file on one
/// line.
#[test]
fn binary_exit_codes_and_messages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rng = Rng(env_u64("SMTGRID_FUZZ_SEED", 0x5EED_0005) | 1);
    let mut failures = Vec::new();
    for (target, ext, count) in [
        ("native", "toml", 120),
        ("lines", "txt", 40),
        ("kakuro", "kakuro", 40),
        ("links", "links", 40),
        ("fpuzzles", "json", 20),
    ] {
        let pool = corpus(target);
        for i in 0..count {
            let base = rng.pick(&pool).clone();
            let data = mutate(&mut rng, &base, &pool);
            let path = dir.path().join(format!("{target}-{i}.{ext}"));
            std::fs::write(&path, &data).expect("write input");
            let mut child = Command::new(env!("CARGO_BIN_EXE_smtgrid"))
                .args(["inspect", "--encoding", "all"])
                .arg(&path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start smtgrid");
            let start = Instant::now();
            let status = loop {
                if let Some(s) = child.try_wait().expect("wait") {
                    break Some(s);
                }
                if start.elapsed() > BINARY_LIMIT {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            let mut stderr = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut stderr);
            }
            let name = path.display().to_string();
            let why = match status.and_then(|s| s.code()) {
                None => Some("did not finish (or was killed)".to_string()),
                Some(0) => None,
                Some(2) if !stderr.contains(&name) => Some(format!(
                    "exit 2, but the message does not name the file: {stderr:?}"
                )),
                Some(2) if stderr.trim_end().lines().count() != 1 => Some(format!(
                    "exit 2, but the message is not one line: {stderr:?}"
                )),
                Some(2) => None,
                Some(c) => Some(format!("exit {c}: {stderr:?}")),
            };
            if let Some(why) = why {
                let saved = save_failure(&format!("binary-{target}"), failures.len(), &data);
                failures.push(format!("{}: {why}", saved.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

mod importers {
    //! Random text shaped like what the importers read: base64 payloads
    //! behind each kind of link, SudokuPad's abbreviated text, ISS strings.
    //! None may panic; every refusal names the file on one line.
    use super::props;
    use proptest::prelude::*;
    use smtgrid::parse::InputFormat;

    const LINKS: [&str; 5] = [
        "https://www.f-puzzles.com/?load=",
        "https://sudokupad.app/fpuzzles",
        "https://sudokupad.app/scl",
        "https://sudokupad.app/ctc",
        "sudokupad.app/?puzzleid=fpuz",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn random_payloads_are_refused_not_panicked_on(
            link in 0..LINKS.len(),
            payload in "[A-Za-z0-9+/=%]{0,600}",
        ) {
            let line = format!("{}{payload}\n", LINKS[link]);
            prop_assert_eq!(props::puzzle_input(line.as_bytes(), InputFormat::Links), Ok(()));
        }

        #[test]
        fn random_sudokupad_text_and_iss_strings_never_panic(
            zipped in "[{}\\[\\],:'\"a-z0-9#.\\-\\\\ ]{0,400}",
            iss in "[.~_RC0-9a-zA-Z]{0,300}",
        ) {
            for text in [zipped.clone(), format!("{{ce:[[{zipped}]],re:[[[0,0]]]}}")] {
                let z = lz_str::compress_to_base64(text.as_str());
                let line = format!("https://sudokupad.app/scl{z}\n");
                prop_assert_eq!(props::puzzle_input(line.as_bytes(), InputFormat::Links), Ok(()));
                prop_assert_eq!(props::puzzle_input(text.as_bytes(), InputFormat::Fpuzzles), Ok(()));
            }
            let line = format!(".{iss}\n");
            prop_assert_eq!(props::puzzle_input(line.as_bytes(), InputFormat::Links), Ok(()));
        }
    }
}

/// `scripts/test` type-checks the fuzz targets in the crate's own target
/// directory, where a dependency already checked by clippy is reused only
/// if fuzz/Cargo.toml builds it with the same settings: when the two dev
/// profiles drifted apart (opt-level 1 here, 2 there), every dependency was
/// checked again, 18 s of that step became 75 s.
#[test]
fn the_fuzz_crate_builds_with_the_crates_dev_profile() {
    let profile = |path: &Path| -> toml::Value {
        let text = std::fs::read_to_string(path).expect("readable manifest");
        let manifest: toml::Table = toml::from_str(&text).expect("a TOML manifest");
        manifest["profile"]["dev"].clone()
    };
    assert_eq!(
        profile(&root().join("fuzz/Cargo.toml")),
        profile(&root().join("Cargo.toml")),
        "fuzz/Cargo.toml's [profile.dev] must be ../Cargo.toml's"
    );
}
