//! `bench` and `report`: every (puzzle, solver, encoding) triple run `K`
//! times through the one scheduler ([`crate::solve::solve_pairs`]), each
//! run written as a JSON Lines [`Record`] as it finishes, and the records
//! of any number of files summarised ([`summary`]) and plotted ([`plot`]).
//!
//! - The run list is deterministic: repeat-major (every triple once, then
//!   every triple again: repeats are interleaved, never `K` in a row),
//!   puzzles in input order, solvers as given, encodings as given.
//! - `--shard K/N` keeps the runs whose key hashes to `K` mod `N`: a split
//!   that needs no coordination and does not move when the list grows.
//! - `--resume` skips the runs whose key is already in the results file.

pub mod plot;
pub mod stats;
pub mod summary;

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::encode::Encoding;
use crate::error::{Error, InputError, Location, Result};
use crate::puzzle::{Kind, Puzzle};
use crate::solve::{Measured, Outcome, Plan, RunMode, Status, solve_pairs};
use crate::solver::{Cancel, MemoryLimitBy};

pub use crate::provenance::Machine;

/// One run of one (puzzle, solver, encoding) triple: one line of a results
/// file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The puzzle's name (`puzzles/top95.txt:3`).
    pub puzzle: String,
    /// Its kind.
    pub kind: Kind,
    /// Rows × columns, e.g. `9x9`.
    pub size: String,
    /// The solver's label.
    pub solver: String,
    /// Its version, if known.
    pub solver_version: Option<String>,
    /// The encoding.
    pub encoding: Encoding,
    /// How the solver was run.
    pub mode: RunMode,
    /// How the run ended, in `solve`'s vocabulary.
    pub status: Status,
    /// Whether the checker accepted the solver's grid.
    pub verified: bool,
    /// Wall-clock time of the solver's process in milliseconds, to the
    /// microsecond.
    pub time_ms: f64,
    /// CPU time, peak memory, the command line and the binary's hash.
    #[serde(flatten)]
    pub measured: Measured,
    /// The time limit of the run in milliseconds (PAR-2 charges twice this
    /// for a run without a definite answer).
    pub timeout_ms: u64,
    /// `--memory-limit` in MiB, or `null` for none.
    #[serde(default)]
    pub memory_limit_mb: Option<u64>,
    /// How the memory limit was held, or `null` for none.
    #[serde(default)]
    pub memory_limit_by: Option<MemoryLimitBy>,
    /// Which of the `--repeat` runs of the triple this is, from 0.
    pub repeat: u32,
    /// The machine it ran on.
    pub machine: Machine,
    /// When the run ended (UTC, ISO 8601); `null` in older files.
    #[serde(default)]
    pub date: Option<String>,
    /// What went wrong, or `null`.
    pub error: Option<String>,
}

impl Record {
    /// What identifies the run in a set of results files.
    pub fn key(&self) -> RunKey {
        RunKey {
            puzzle: self.puzzle.clone(),
            solver: self.solver.clone(),
            encoding: self.encoding,
            repeat: self.repeat,
        }
    }

    /// A verified sat or an unsat: the run solved its puzzle.
    pub fn solved(&self) -> bool {
        (self.status == Status::Sat && self.verified) || self.status == Status::Unsat
    }
}

/// What identifies a run: (puzzle, solver, encoding, repeat).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    /// The puzzle's name.
    pub puzzle: String,
    /// The solver's label.
    pub solver: String,
    /// The encoding.
    pub encoding: Encoding,
    /// The repeat index.
    pub repeat: u32,
}

impl std::fmt::Display for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}/{} repeat {}",
            self.puzzle, self.solver, self.encoding, self.repeat
        )
    }
}

/// `--shard K/N`: the `K`-th (from 0) of `N` slices of the run list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, `0..count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 0 <= K < N (e.g. 0/4 … 3/4), not `{s}`");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether this slice runs `key`. The split hashes the key with
    /// FNV-1a, which (unlike std's hasher) is fixed, so every machine and
    /// every smtgrid build splits the same way.
    pub fn takes(&self, key: &RunKey) -> bool {
        let text = format!(
            "{}\0{}\0{}\0{}",
            key.puzzle, key.solver, key.encoding, key.repeat
        );
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h % self.count == self.index
    }
}

/// The runs still to make for one puzzle in one repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Index into the puzzle list.
    pub puzzle: usize,
    /// The repeat index.
    pub repeat: u32,
    /// (solver index, encoding) pairs, in the given order.
    pub pairs: Vec<(usize, Encoding)>,
}

/// The run list: repeat-major, then puzzles in order, then solvers (by
/// label, as in the plan) × encodings; only the runs `shard` takes and
/// `done` does not hold.
pub fn run_list(
    puzzles: &[String],
    solvers: &[&str],
    encodings: &[Encoding],
    repeats: u32,
    shard: Option<Shard>,
    done: &HashSet<RunKey>,
) -> Vec<Group> {
    let mut groups = Vec::new();
    for repeat in 0..repeats {
        for (i, name) in puzzles.iter().enumerate() {
            let pairs: Vec<(usize, Encoding)> = (0..solvers.len())
                .flat_map(|s| encodings.iter().map(move |&e| (s, e)))
                .filter(|&(s, encoding)| {
                    let key = RunKey {
                        puzzle: name.clone(),
                        solver: solvers[s].to_string(),
                        encoding,
                        repeat,
                    };
                    shard.is_none_or(|sh| sh.takes(&key)) && !done.contains(&key)
                })
                .collect();
            if !pairs.is_empty() {
                groups.push(Group {
                    puzzle: i,
                    repeat,
                    pairs,
                });
            }
        }
    }
    groups
}

/// Runs every group through the scheduler and calls `finished` with each
/// group's records as the group completes (in run-list order). Runs that
/// smtgrid stopped (Ctrl-C) give no record, so `--resume` runs them again.
/// When `finished` breaks, every solver is stopped and nothing more runs.
///
/// `pass` reads the puzzles again, in the run list's order (the group's
/// `puzzle` indexes it), once per repeat: only the puzzles in flight are
/// held. A pass that fails or ends early (the input changed since the run
/// list was made) stops the run with that error.
pub fn run<I: Iterator<Item = Result<Puzzle>>>(
    pass: impl Fn() -> I,
    groups: &[Group],
    plan: &Plan,
    cancel: &Cancel,
    mut finished: impl FnMut(&Group, Vec<Record>) -> ControlFlow<()>,
) -> Result<()> {
    let machine = Machine::this();
    let timeout_ms = plan.limits.timeout.as_millis() as u64;
    let error = std::cell::RefCell::new(None);
    let mut source: Option<(u32, usize, I)> = None;
    let items = groups.iter().map_while(|g| {
        let (_, next, puzzles) = match &mut source {
            Some(s) if s.0 == g.repeat => s,
            _ => source.insert((g.repeat, 0, pass())),
        };
        loop {
            let index = *next;
            *next += 1;
            match puzzles.next() {
                Some(Ok(p)) if index == g.puzzle => return Some((p, g.pairs.clone())),
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    error.borrow_mut().get_or_insert(e);
                    return None;
                }
                None => {
                    error.borrow_mut().get_or_insert(Error::Usage(
                        "the puzzle files changed while the benchmark ran: they hold fewer \
                         puzzles than when it started"
                            .into(),
                    ));
                    return None;
                }
            }
        }
    });
    solve_pairs(items, plan, cancel, |p, r| {
        let g = &groups[r.index];
        let date = crate::provenance::now_utc();
        let records = r
            .lines
            .iter()
            .filter(|l| !matches!(l.run.outcome, Outcome::Stopped(_)))
            .map(|l| {
                let rep = l.run.report(p);
                Record {
                    puzzle: rep.puzzle,
                    kind: rep.kind,
                    size: format!("{}x{}", p.rows, p.cols),
                    solver: rep.solver,
                    solver_version: rep.solver_version,
                    encoding: rep.encoding,
                    mode: l.run.mode,
                    status: rep.status,
                    verified: rep.verified,
                    time_ms: rep.time_ms,
                    measured: rep.measured,
                    timeout_ms,
                    memory_limit_mb: plan.limits.memory.map(|m| m.mb),
                    memory_limit_by: plan.limits.memory.map(|m| m.by()),
                    repeat: g.repeat,
                    machine: machine.clone(),
                    date: Some(date.clone()),
                    error: rep.error,
                }
            })
            .collect();
        finished(g, records)
    });
    error.into_inner().map_or(Ok(()), Err)
}

/// The progress bar on stderr: runs done of all, elapsed time, ETA, runs
/// per second and failures so far. Drawn only when stderr is a terminal,
/// so nothing of it reaches a file or a pipe, and never on stdout.
pub struct Progress {
    bar: indicatif::ProgressBar,
    failures: u64,
}

impl Progress {
    /// A bar for `total` runs.
    pub fn new(total: u64) -> Progress {
        use std::io::IsTerminal;
        let bar = if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(total);
            // Elapsed time and ETA move on while a slow run holds the count.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} runs  {elapsed} elapsed  ETA {eta}  {per_sec}  {msg}",
        ) {
            bar.set_style(style);
        }
        bar.set_message("0 failed");
        Progress { bar, failures: 0 }
    }

    /// Counts a finished group: `runs` runs (stopped ones included), of
    /// which `records` were recorded. A failure is a run that is neither
    /// solved nor unsupported.
    pub fn add(&mut self, runs: usize, records: &[Record]) {
        self.failures += records
            .iter()
            .filter(|r| !r.solved() && r.status != Status::Unsupported)
            .count() as u64;
        self.bar.set_message(format!("{} failed", self.failures));
        self.bar.inc(runs as u64);
    }

    /// Draws the bar's final state and leaves it on the terminal.
    pub fn finish(&self) {
        self.bar.finish();
    }
}

/// The records of a results file, and what was wrong with it.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Every record, in file order.
    pub records: Vec<Record>,
    /// Bytes up to the end of the last record.
    pub complete_len: u64,
    /// A last line cut off mid-way (the run was killed while writing it),
    /// if any; it is ignored.
    pub cut_off: Option<Location>,
}

/// Reads a results file. A line that is not a record is an input error
/// naming the file and line, except a last line without its newline,
/// which a killed run may leave: that one is reported in
/// [`Loaded::cut_off`] and ignored.
pub fn read_results(path: &Path) -> Result<Loaded> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let mut reader = BufReader::new(file);
    let mut loaded = Loaded::default();
    let at = Location::file(path);
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(io)?;
        if n == 0 {
            break;
        }
        number += 1;
        let complete = line.ends_with('\n');
        if line.trim().is_empty() {
            loaded.complete_len += n as u64;
            continue;
        }
        match serde_json::from_str::<Record>(line.trim_end()) {
            Ok(r) => {
                loaded.records.push(r);
                loaded.complete_len += n as u64;
            }
            Err(_) if !complete => loaded.cut_off = Some(at.at_line(number)),
            Err(e) => {
                return Err(InputError::new(
                    at.at(number, e.column().max(1)),
                    format!(
                        "not a smtgrid bench record ({e}); give files written by `smtgrid bench --out`"
                    ),
                )
                .into());
            }
        }
    }
    Ok(loaded)
}

/// A results file open for appending, one flushed line per record, so an
/// interrupted bench leaves a valid file.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens `path` for a bench: with `resume`, reads the records already
    /// there (dropping a cut-off last line) and appends after them;
    /// without, refuses a file that holds records, so no results are lost
    /// by accident.
    pub fn open(path: &Path, resume: bool) -> Result<(ResultsFile, Vec<Record>)> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let exists = path.metadata().is_ok_and(|m| m.len() > 0);
        let mut records = Vec::new();
        if exists && !resume {
            return Err(Error::Usage(format!(
                "{} already holds results: add --resume to skip the runs in it and add the rest, \
                 or remove it",
                path.display()
            )));
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if exists {
            let loaded = read_results(path)?;
            if let Some(at) = &loaded.cut_off {
                crate::output::note(format_args!(
                    "{at}: dropping a cut-off last line; that run is made again"
                ));
                file.set_len(loaded.complete_len).map_err(io)?;
            }
            // A complete file may still lack its last newline only if it
            // was written by hand; a record must start on its own line.
            if loaded.complete_len > 0 {
                let mut last = [0u8];
                file.seek(SeekFrom::Start(loaded.complete_len - 1))
                    .map_err(io)?;
                file.read_exact(&mut last).map_err(io)?;
                if last[0] != b'\n' {
                    file.write_all(b"\n").map_err(io)?;
                }
            }
            records = loaded.records;
        }
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            records,
        ))
    }

    /// Appends one record as a line and flushes it.
    pub fn append(&mut self, r: &Record) -> Result<()> {
        let mut line = serde_json::to_string(r).unwrap_or_default();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| Error::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzles() -> Vec<Puzzle> {
        let text =
            "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n";
        let one = crate::parse::parse_str(text, &Location::file("a.toml"), None).expect("parses");
        let mut two = one[0].clone();
        two.name = "b.toml".into();
        vec![one[0].clone(), two]
    }

    fn keys(groups: &[Group], p: &[String], s: &[&str]) -> Vec<RunKey> {
        groups
            .iter()
            .flat_map(|g| {
                g.pairs.iter().map(move |&(si, encoding)| RunKey {
                    puzzle: p[g.puzzle].clone(),
                    solver: s[si].to_string(),
                    encoding,
                    repeat: g.repeat,
                })
            })
            .collect()
    }

    #[test]
    fn repeats_are_interleaved_not_in_a_row() {
        let p: Vec<String> = puzzles().into_iter().map(|p| p.name).collect();
        let s = ["z3", "yices2"];
        let groups = run_list(&p, &s, &Encoding::ALL, 2, None, &HashSet::new());
        let order: Vec<(usize, u32)> = groups.iter().map(|g| (g.puzzle, g.repeat)).collect();
        assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1)]);
        assert!(groups.iter().all(|g| g.pairs.len() == 6));
    }

    #[test]
    fn shards_split_the_run_list_exactly() {
        let p: Vec<String> = puzzles().into_iter().map(|p| p.name).collect();
        let s = ["z3", "yices2", "cvc5"];
        let all = keys(
            &run_list(&p, &s, &Encoding::ALL, 3, None, &HashSet::new()),
            &p,
            &s,
        );
        let mut merged = Vec::new();
        for index in 0..4 {
            let shard = Some(Shard { index, count: 4 });
            let part = keys(
                &run_list(&p, &s, &Encoding::ALL, 3, shard, &HashSet::new()),
                &p,
                &s,
            );
            assert!(part.len() < all.len(), "shard {index} took everything");
            merged.extend(part);
        }
        merged.sort();
        let mut all_sorted = all.clone();
        all_sorted.sort();
        assert_eq!(merged, all_sorted);
    }

    #[test]
    fn done_runs_are_skipped() {
        let p: Vec<String> = puzzles().into_iter().map(|p| p.name).collect();
        let s = ["z3"];
        let all = keys(
            &run_list(&p, &s, &[Encoding::Lia], 1, None, &HashSet::new()),
            &p,
            &s,
        );
        let done: HashSet<RunKey> = all[..1].iter().cloned().collect();
        let rest = keys(&run_list(&p, &s, &[Encoding::Lia], 1, None, &done), &p, &s);
        assert_eq!(rest, all[1..]);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("1/4".parse(), Ok(Shard { index: 1, count: 4 }));
        for bad in ["4/4", "1", "a/2", "0/0", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
