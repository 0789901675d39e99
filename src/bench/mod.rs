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

pub mod export;
pub mod html;
pub mod plot;
pub mod progress;
pub mod settings;
pub mod stats;
pub mod summary;

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::encode::Encoding;
use crate::error::{Error, InputError, Location, Result, escape_controls};
use crate::parse::InputLimits;
use crate::puzzle::{Kind, Puzzle};
use crate::solve::{Measured, Outcome, Plan, RunMode, Status, solve_pairs};
use crate::solver::{Cancel, MemoryLimitBy};
pub use progress::Progress;
pub use settings::Settings;

pub use crate::provenance::Machine;

/// One run of one (puzzle, solver, encoding) triple: one line of a results
/// file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The puzzle's identity ([`Puzzle::id`]: `puzzles/top95.txt:3`,
    /// `easy/1.toml`).
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
    /// The options that change what the run measures (its time and
    /// memory limits among them): top-level fields of the line.
    #[serde(flatten)]
    pub settings: Settings,
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
    /// The solver answered `unsat` although the puzzle file records a
    /// solution the checker accepts, or propagation alone completes a grid
    /// it accepts (status `error`; `error` says which): a disagreement.
    /// Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refuted: bool,
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

    /// Refuses what no run of `bench` can have recorded: an unverified
    /// sat, a repeat index
    /// out of range, a limit over [`MAX_TIMEOUT`](crate::solve::MAX_TIMEOUT),
    /// or a time that is negative, not finite, or longer than the run could
    /// last (it is stopped at its limit; [`KILL_GRACE_MS`] covers the
    /// stopping). Such a time would rank first or print `inf` in every
    /// summary.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.status == Status::Sat && !self.verified {
            return Err(
                "status sat with verified false: a run is recorded as sat only with a \
                        grid the checker accepted (a rejected one is invalid-model)"
                    .into(),
            );
        }
        if self.repeat >= MAX_REPEAT {
            return Err(format!(
                "repeat {} is out of range: a run is repeated at most {MAX_REPEAT} times, \
                 numbered from 0",
                self.repeat
            ));
        }
        let max_limit = crate::solve::MAX_TIMEOUT.as_millis();
        if u128::from(self.settings.timeout_ms) > max_limit {
            return Err(format!(
                "timeout_ms {} is over the longest limit, {max_limit} ms (a week)",
                self.settings.timeout_ms
            ));
        }
        let limit = self.settings.timeout_ms as f64;
        let longest = limit + limit.max(KILL_GRACE_MS);
        let times = [
            ("time_ms", Some(self.time_ms)),
            ("first_answer_ms", self.measured.first_answer_ms),
            ("cpu_ms", self.measured.cpu_ms),
        ];
        for (field, t) in times {
            let Some(t) = t else { continue };
            // 1.7e308, not three hundred digits.
            let shown = if t.abs() < 1e15 {
                t.to_string()
            } else {
                format!("{t:e}")
            };
            if !t.is_finite() || t < 0.0 {
                return Err(format!(
                    "{field} {shown} is impossible: a time is a finite number of milliseconds, 0 \
                     or more"
                ));
            }
            // CPU time may exceed the wall time of a solver with threads.
            if field != "cpu_ms" && t > longest {
                return Err(format!(
                    "{field} {shown} is impossible: a run is stopped at its limit, timeout_ms {}, so \
                     it cannot last longer than {longest} ms",
                    self.settings.timeout_ms
                ));
            }
        }
        Ok(())
    }
}

/// How long past its limit a run may be recorded as lasting, at least,
/// in milliseconds: stopping a solver's processes and reaping them takes
/// milliseconds, but a loaded machine may stall; a limit's own length is
/// allowed when it is longer.
pub const KILL_GRACE_MS: f64 = 60_000.0;

/// What identifies a run: (puzzle, solver, encoding, repeat).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    /// The puzzle's identity ([`Puzzle::id`]).
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
/// label, as in the plan) × encodings but the pairs `left_out`; only the
/// runs `shard` takes and `done` does not hold. It is walked, never held: `--repeat` may ask for
/// many runs of many puzzles, and only the groups in flight are kept.
#[derive(Debug, Clone, Copy)]
pub struct RunList<'a> {
    /// The puzzles' identities ([`Puzzle::id`]), in input order.
    pub puzzles: &'a [String],
    /// The solvers' labels, in the plan's order.
    pub solvers: &'a [&'a str],
    /// The encodings.
    pub encodings: &'a [Encoding],
    /// Runs of each triple.
    pub repeats: u32,
    /// The slice of the list this bench makes, if any.
    pub shard: Option<Shard>,
    /// The runs already made.
    pub done: &'a HashSet<RunKey>,
    /// (solver label, encoding) pairs not run at all: a default bench
    /// leaves out the encodings a solver does not take (Bitwuzla's `lia`),
    /// which would only add `unsupported` records charged by PAR-2.
    pub left_out: &'a [(&'a str, Encoding)],
}

impl<'a> RunList<'a> {
    fn runs_pair(self, solver: &str, encoding: Encoding) -> bool {
        !self.left_out.contains(&(solver, encoding))
    }

    /// The groups, in run order, made as they are taken.
    pub fn groups(self) -> impl Iterator<Item = Group> + 'a {
        (0..self.repeats).flat_map(move |repeat| {
            self.puzzles
                .iter()
                .enumerate()
                .filter_map(move |(i, name)| self.group(i, name, repeat))
        })
    }

    /// How many runs the list holds (the groups' pairs). Without a shard
    /// it is counted arithmetically (the product, less the runs of `done`
    /// that are in the list), so a progress bar over `--repeat` times many
    /// puzzles costs nothing before work starts; a shard's slice is a hash
    /// of each run, so it is walked (without holding it).
    pub fn runs(self) -> u64 {
        if self.shard.is_some() {
            return self.groups().map(|g| g.pairs.len() as u64).sum();
        }
        let pairs = self
            .solvers
            .iter()
            .flat_map(|&s| self.encodings.iter().map(move |&e| (s, e)))
            .filter(|&(s, e)| self.runs_pair(s, e))
            .count();
        let all = u64::from(self.repeats) * self.puzzles.len() as u64 * pairs as u64;
        if self.done.is_empty() {
            return all;
        }
        let puzzles: HashSet<&str> = self.puzzles.iter().map(String::as_str).collect();
        let made = self
            .done
            .iter()
            .filter(|k| {
                k.repeat < self.repeats
                    && puzzles.contains(k.puzzle.as_str())
                    && self.solvers.contains(&k.solver.as_str())
                    && self.encodings.contains(&k.encoding)
                    && self.runs_pair(&k.solver, k.encoding)
            })
            .count() as u64;
        all - made
    }

    fn group(self, puzzle: usize, name: &str, repeat: u32) -> Option<Group> {
        let pairs: Vec<(usize, Encoding)> = (0..self.solvers.len())
            .flat_map(|s| self.encodings.iter().map(move |&e| (s, e)))
            .filter(|&(s, encoding)| {
                let key = RunKey {
                    puzzle: name.to_string(),
                    solver: self.solvers[s].to_string(),
                    encoding,
                    repeat,
                };
                self.runs_pair(self.solvers[s], encoding)
                    && self.shard.is_none_or(|sh| sh.takes(&key))
                    && !self.done.contains(&key)
            })
            .collect();
        (!pairs.is_empty()).then_some(Group {
            puzzle,
            repeat,
            pairs,
        })
    }
}

/// The run list of [`RunList`], collected.
pub fn run_list(
    puzzles: &[String],
    solvers: &[&str],
    encodings: &[Encoding],
    repeats: u32,
    shard: Option<Shard>,
    done: &HashSet<RunKey>,
) -> Vec<Group> {
    RunList {
        puzzles,
        solvers,
        encodings,
        repeats,
        shard,
        done,
        left_out: &[],
    }
    .groups()
    .collect()
}

/// Refuses a run whose puzzles do not all have their own identity (the
/// same file given twice): their runs would count as one puzzle's.
pub fn check_distinct(ids: &[String]) -> Result<()> {
    let mut seen = HashSet::with_capacity(ids.len());
    for id in ids {
        if !seen.insert(id.as_str()) {
            return Err(Error::Usage(format!(
                "the puzzle {} is given twice: give each puzzle file once",
                escape_controls(id)
            )));
        }
    }
    Ok(())
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
pub fn run<I: Iterator<Item = Result<Puzzle>>, G: std::borrow::Borrow<Group>>(
    pass: impl Fn() -> I,
    groups: impl IntoIterator<Item = G>,
    plan: &Plan,
    cancel: &Cancel,
    mut finished: impl FnMut(&Group, Vec<Record>) -> ControlFlow<()>,
) -> Result<()> {
    let machine = Machine::this();
    let settings = Settings::of(plan);
    let error = std::cell::RefCell::new(None);
    let mut source: Option<(u32, usize, I)> = None;
    // The groups pulled and not yet finished, oldest first: the scheduler
    // hands results back in the order it pulled them.
    let in_flight = std::cell::RefCell::new(std::collections::VecDeque::new());
    let items = groups.into_iter().map_while(|g| {
        let g: &Group = g.borrow();
        let (_, next, puzzles) = match &mut source {
            Some(s) if s.0 == g.repeat => s,
            _ => source.insert((g.repeat, 0, pass())),
        };
        loop {
            let index = *next;
            *next += 1;
            match puzzles.next() {
                Some(Ok(p)) if index == g.puzzle => {
                    in_flight.borrow_mut().push_back(g.clone());
                    return Some((p, g.pairs.clone()));
                }
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
        let Some(g) = in_flight.borrow_mut().pop_front() else {
            return ControlFlow::Break(());
        };
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
                    settings: settings.clone(),
                    memory_limit_by: plan.limits.memory.map(|m| m.by()),
                    repeat: g.repeat,
                    machine: machine.clone(),
                    date: Some(date.clone()),
                    error: rep.error,
                    refuted: matches!(
                        l.run.outcome,
                        Outcome::Error(crate::solve::ErrorKind::Refuted, _)
                    ),
                }
            })
            .collect();
        finished(&g, records)
    });
    error.into_inner().map_or(Ok(()), Err)
}

/// The records of a results file, and what was wrong with it.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Every record, in file order.
    pub records: Vec<Record>,
    /// The line of each record, in the same order.
    pub lines: Vec<usize>,
    /// Bytes up to the end of the last record.
    pub complete_len: u64,
    /// A last line cut off mid-way (the run was killed while writing it),
    /// if any; it is ignored.
    pub cut_off: Option<Location>,
    /// The bytes of that cut-off line.
    cut_bytes: Vec<u8>,
}

/// The longest line of a results file: a record is a few hundred bytes.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The most repeats of a triple: `--repeat` takes 1 to this, and a record
/// numbers its repeat from 0 to one less.
pub const MAX_REPEAT: u32 = 10_000;

/// Whether `text` is the start of a JSON object that ends too early: a
/// record cut off mid-way. A line that is anything else (text, a complete
/// object that is not a record) means the file is not a results file.
fn cut_json_object(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && serde_json::from_str::<serde_json::Value>(text).is_err_and(|e| e.is_eof())
}

/// Reads a results file with the default [`InputLimits`].
pub fn read_results(path: &Path) -> Result<Loaded> {
    read_results_within(path, InputLimits::default())
}

/// Reads a results file, at most `limits.max_bytes` of it and
/// [`MAX_RECORD_BYTES`] per line. A line that is not a record is an input
/// error naming the file and line, except a last line without its newline
/// that is a JSON object cut off mid-way, which a killed run may leave (even in the
/// middle of a character): that one is reported in [`Loaded::cut_off`] and
/// ignored.
pub fn read_results_within(path: &Path, limits: InputLimits) -> Result<Loaded> {
    let mut input = crate::parse::open_input(path, limits)?;
    let mut loaded = Loaded::default();
    let at = Location::file(path);
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let mut bounded = (&mut input.reader).take(MAX_RECORD_BYTES as u64 + 1);
        let n = bounded
            .read_until(b'\n', &mut line)
            .map_err(|e| input.error(e, at.at_line(number + 1)))?;
        if n == 0 {
            break;
        }
        number += 1;
        let complete = line.last() == Some(&b'\n');
        if !complete && line.len() > MAX_RECORD_BYTES {
            return Err(InputError::new(
                at.at_line(number),
                format!(
                    "line {number} is longer than {} MB: a results file holds one record of a few \
                     hundred bytes per line; give files written by `smtgrid bench --out`",
                    MAX_RECORD_BYTES >> 20
                ),
            )
            .into());
        }
        let text = match std::str::from_utf8(&line) {
            Ok(t) => t,
            // Cut inside a character: the same as cut just before it.
            Err(e) if !complete && e.error_len().is_none() => {
                std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or_default()
            }
            Err(e) => {
                let valid = &line[..e.valid_up_to()];
                let column = String::from_utf8_lossy(valid).chars().count() + 1;
                return Err(InputError::new(
                    at.at(number, column),
                    "not UTF-8 text, so not a results file; give files written by \
                     `smtgrid bench --out`",
                )
                .into());
            }
        };
        if text.trim().is_empty() {
            loaded.complete_len += n as u64;
            continue;
        }
        match serde_json::from_str::<Record>(text.trim_end()) {
            Ok(r) => {
                if let Err(why) = r.check() {
                    return Err(InputError::new(
                        at.at_line(number),
                        format!("{why}; is this record damaged?"),
                    )
                    .into());
                }
                loaded.records.push(r);
                loaded.lines.push(number);
                loaded.complete_len += n as u64;
            }
            Err(_) if !complete && cut_json_object(text) => {
                loaded.cut_off = Some(at.at_line(number));
                loaded.cut_bytes = line.clone();
            }
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

/// Refuses records of `loaded` (read from `path`) made under settings
/// other than `ours`, naming the first such record's line and each
/// difference.
pub fn check_settings(path: &Path, loaded: &Loaded, ours: &Settings) -> Result<()> {
    for (r, &line) in loaded.records.iter().zip(&loaded.lines) {
        let differences = ours.differences(&r.settings);
        if !differences.is_empty() {
            return Err(InputError::new(
                Location::file(path).at_line(line),
                format!(
                    "this run was made with other settings than this bench: {}; resume with \
                     the same options, or give another --out file",
                    settings::describe(&differences)
                ),
            )
            .into());
        }
    }
    Ok(())
}

/// Whether `path` starts like a gzip stream.
fn is_gzip(path: &Path) -> std::io::Result<bool> {
    let mut head = Vec::new();
    File::open(path)?.take(2).read_to_end(&mut head)?;
    Ok(head == [0x1f, 0x8b])
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
    /// by accident. Only a results file is resumed: a directory, a device,
    /// a compressed file or a file with a line that is not a record is
    /// refused and left as it is.
    pub fn open(path: &Path, resume: bool) -> Result<(ResultsFile, Vec<Record>)> {
        let (file, loaded) = ResultsFile::open_within(path, resume, InputLimits::default(), None)?;
        Ok((file, loaded.records))
    }

    /// [`ResultsFile::open`] for runs made under `settings`, reading at
    /// most `limits` of the file, and giving the records read with their
    /// lines. A record made under other settings is refused (before the
    /// file is touched), naming its line and each difference: runs under
    /// different limits or options are not one benchmark.
    pub fn open_within(
        path: &Path,
        resume: bool,
        limits: InputLimits,
        settings: Option<&Settings>,
    ) -> Result<(ResultsFile, Loaded)> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let shown = escape_controls(&path.display().to_string()).into_owned();
        let meta = match std::fs::metadata(path) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(e)),
        };
        if let Some(m) = &meta {
            if m.is_dir() {
                return Err(Error::Usage(format!(
                    "--out {shown} is a directory, but the results go to one file: give a file \
                     name, e.g. --out {}",
                    escape_controls(&path.join("results.jsonl").display().to_string())
                )));
            }
            if !m.is_file() {
                return Err(Error::Usage(format!(
                    "--out {shown} is not a regular file (a device or a pipe cannot be resumed \
                     or kept): give a file name"
                )));
            }
        }
        let exists = meta.is_some_and(|m| m.len() > 0);
        if !exists {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(io)?;
            return Ok((
                ResultsFile {
                    path: path.to_path_buf(),
                    file,
                },
                Loaded::default(),
            ));
        }
        if is_gzip(path).map_err(io)? {
            return Err(Error::Usage(format!(
                "--out {shown} is compressed, and results can only be added to a plain file: \
                 decompress it first, or give another file"
            )));
        }
        // Read before anything is opened for writing: a file that is not
        // a results file is refused untouched.
        let loaded = read_results_within(path, limits).map_err(|e| match e {
            Error::Input(e) if !resume => Error::Usage(format!(
                "--out {shown} already exists and is not a results file ({e}): give another file"
            )),
            e => e,
        })?;
        if !resume {
            return Err(Error::Usage(format!(
                "{shown} already holds results: add --resume to skip the runs in it and add the \
                 rest, or remove it"
            )));
        }
        if let Some(ours) = settings {
            check_settings(path, &loaded, ours)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if let Some(at) = &loaded.cut_off {
            // The line is dropped only if the file still ends with exactly
            // the bytes read (no line ends were changed in reading).
            let len = file.metadata().map_err(io)?.len();
            let mut tail = Vec::new();
            file.seek(SeekFrom::Start(loaded.complete_len))
                .map_err(io)?;
            (&mut file)
                .take(loaded.cut_bytes.len() as u64 + 1)
                .read_to_end(&mut tail)
                .map_err(io)?;
            if len != loaded.complete_len + tail.len() as u64 || tail != loaded.cut_bytes {
                return Err(Error::Usage(format!(
                    "{at}: the last line is cut off, but the file changed while it was read (or \
                     has \\r line ends): remove the cut-off line by hand, then resume"
                )));
            }
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
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            loaded,
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
        two.name = "b".into();
        two.id = "b.toml".into();
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
        let p: Vec<String> = puzzles().into_iter().map(|p| p.id).collect();
        let s = ["z3", "yices2"];
        let groups = run_list(&p, &s, &Encoding::ALL, 2, None, &HashSet::new());
        let order: Vec<(usize, u32)> = groups.iter().map(|g| (g.puzzle, g.repeat)).collect();
        assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1)]);
        assert!(groups.iter().all(|g| g.pairs.len() == 6));
    }

    #[test]
    fn shards_split_the_run_list_exactly() {
        let p: Vec<String> = puzzles().into_iter().map(|p| p.id).collect();
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
        let p: Vec<String> = puzzles().into_iter().map(|p| p.id).collect();
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

    fn record_line(puzzle: &str, timeout_ms: u64) -> String {
        let r = Record {
            puzzle: puzzle.into(),
            kind: Kind::Sudoku,
            size: "4x4".into(),
            solver: "z3".into(),
            solver_version: None,
            encoding: Encoding::Lia,
            mode: RunMode::Process,
            status: Status::Sat,
            verified: true,
            time_ms: 3.0,
            measured: Measured::default(),
            settings: Settings {
                timeout_ms,
                memory_limit_mb: None,
                plain: Some(false),
                asked_mode: Some(RunMode::Process),
                asked_stats: None,
            },
            memory_limit_by: None,
            repeat: 0,
            machine: Machine::this(),
            date: None,
            error: None,
            refuted: false,
        };
        serde_json::to_string(&r).expect("a record serialises") + "\n"
    }

    #[test]
    fn a_record_cut_at_any_byte_is_dropped_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        let first = record_line("a", 1000);
        let second = record_line("café", 1000);
        // Every cut of the second line, inside the two-byte é too.
        for cut in 1..second.len() - 1 {
            let mut bytes = first.clone().into_bytes();
            bytes.extend_from_slice(&second.as_bytes()[..cut]);
            std::fs::write(&path, &bytes).expect("write");
            let loaded = read_results(&path).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            assert_eq!(loaded.records.len(), 1, "cut at {cut}");
            assert_eq!(loaded.cut_off, Some(Location::file(&path).at_line(2)));
            assert_eq!(loaded.complete_len, first.len() as u64);
            let (_, kept) = ResultsFile::open(&path, true).expect("resumes");
            assert_eq!(kept.len(), 1);
            assert_eq!(std::fs::read(&path).expect("read"), first.as_bytes());
        }
    }

    #[test]
    fn a_file_that_is_not_results_is_refused_untouched() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        let record = record_line("a", 1000);
        for body in [
            "my notes, no newline at the end".to_string(),
            "keen:4:_a__a_a5_3aa,m3d2m24s2d2a4s1".into(),
            "{\"name\": \"a complete object\"}".into(),
            format!("{record}[1, 2"),
            format!("{record}{{\"puzzle\": \"x\"}}\n{record}"),
            format!("{record}\u{fffd}\n"),
        ] {
            std::fs::write(&path, &body).expect("write");
            for resume in [true, false] {
                let e = ResultsFile::open(&path, resume)
                    .map(|_| ())
                    .expect_err(&body);
                assert!(matches!(e, Error::Input(_) | Error::Usage(_)), "{e}");
                assert_eq!(std::fs::read_to_string(&path).expect("read"), body);
            }
        }
        let e = ResultsFile::open(dir.path(), true)
            .map(|_| ())
            .expect_err("a dir");
        assert!(e.to_string().contains("is a directory"), "{e}");
        let bad = b"{\"puzzle\": \"\xff\"}\n";
        std::fs::write(&path, bad).expect("write");
        let e = read_results(&path).map(|_| ()).expect_err("not UTF-8");
        assert!(e.to_string().contains(":1:"), "{e}");
    }

    /// The error of reading a results file of the record line `ok` and
    /// then `bad`, which must be refused (`why` names the case).
    fn refused_after_a_good_line(ok: &str, bad: &str, why: &str) -> String {
        assert_ne!(bad, ok, "{why}: the line is unchanged");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, format!("{ok}{bad}")).expect("write");
        let e = read_results(&path).map(|_| ()).expect_err(why);
        e.to_string()
    }

    #[test]
    fn implausible_repeats_are_input_errors_with_their_line() {
        let ok = record_line("a", 1000);
        let bad = ok.replace("\"repeat\":0", "\"repeat\":4294967294");
        let shown = refused_after_a_good_line(&ok, &bad, "out of range");
        assert!(
            shown.contains("r.jsonl:2:") && shown.contains("4294967294"),
            "{shown}"
        );
    }

    #[test]
    fn an_unverified_sat_is_an_input_error_with_its_line() {
        let ok = record_line("a", 1000);
        let bad = ok.replace("\"verified\":true", "\"verified\":false");
        let shown = refused_after_a_good_line(&ok, &bad, "unverified sat");
        assert!(
            shown.contains("r.jsonl:2:") && shown.contains("verified false"),
            "{shown}"
        );
    }

    #[test]
    fn impossible_times_are_input_errors_with_their_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        let ok = record_line("a", 10_000);
        assert!(ok.contains("\"time_ms\":3.0"), "{ok}");
        for (time, why) in [
            ("-5.0", "0 or more"),
            ("1.7e308", "cannot last longer than 70000 ms"),
            ("80001.0", "cannot last longer than 70000 ms"),
        ] {
            let bad = ok.replace("\"time_ms\":3.0", &format!("\"time_ms\":{time}"));
            let shown = refused_after_a_good_line(&ok, &bad, time);
            assert!(
                shown.contains("r.jsonl:2:") && shown.contains("time_ms") && shown.contains(why),
                "{shown}"
            );
        }
        let cpu = ok.replace("\"cpu_ms\":null", "\"cpu_ms\":-1.0");
        assert_ne!(cpu, ok);
        std::fs::write(&path, &cpu).expect("write");
        let e = read_results(&path)
            .map(|_| ())
            .expect_err("negative CPU time");
        assert!(e.to_string().contains("cpu_ms -1"), "{e}");
        // Slow to stop, but possible: kept.
        let late = ok.replace("\"time_ms\":3.0", "\"time_ms\":10500.0");
        std::fs::write(&path, &late).expect("write");
        assert_eq!(read_results(&path).expect("kept").records.len(), 1);
    }

    #[test]
    fn resuming_under_other_settings_is_refused_naming_each() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        let body = record_line("a", 1) + &record_line("b", 60_000);
        std::fs::write(&path, &body).expect("write");
        let ours = Settings {
            timeout_ms: 60_000,
            memory_limit_mb: None,
            plain: Some(false),
            asked_mode: Some(RunMode::Process),
            asked_stats: None,
        };
        let e = ResultsFile::open_within(&path, true, InputLimits::default(), Some(&ours))
            .map(|_| ())
            .expect_err("another limit");
        let shown = e.to_string();
        assert!(shown.contains("r.jsonl:1:"), "{shown}");
        assert!(
            shown.contains("timeout_ms (--timeout) is 1 there but 60000 here"),
            "{shown}"
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), body);
        let same = Settings {
            timeout_ms: 1,
            ..ours.clone()
        };
        std::fs::write(&path, record_line("a", 1)).expect("write");
        ResultsFile::open_within(&path, true, InputLimits::default(), Some(&same))
            .expect("the same settings resume");
    }

    #[test]
    fn report_merges_only_runs_of_one_setting_unless_told_which_to_keep() {
        use settings::{Keep, select};
        let dir = tempfile::tempdir().expect("tempdir");
        let read = |name: &str, body: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, body).expect("write");
            (path.clone(), read_results(&path).expect("reads"))
        };
        let mixed = || {
            vec![
                read("a.jsonl", &(record_line("a", 10) + &record_line("b", 10))),
                read("b.jsonl", &(record_line("a", 20) + &record_line("c", 10))),
            ]
        };
        let shown = select(mixed(), &[]).expect_err("a mix").to_string();
        assert!(
            shown.starts_with("b.jsonl:1:") || shown.contains("b.jsonl:1: "),
            "{shown}"
        );
        assert!(shown.contains("a.jsonl:1"), "{shown}");
        assert!(
            shown.contains("timeout_ms (--timeout) is 10 there but 20 here"),
            "{shown}"
        );
        assert!(
            shown.contains("--keep timeout_ms=10 or --keep timeout_ms=20"),
            "{shown}"
        );
        let keep: Keep = "timeout_ms=10".parse().expect("a setting");
        let s = select(mixed(), &[keep]).expect("one setting kept");
        let kept: Vec<&str> = s.records.iter().map(|r| r.puzzle.as_str()).collect();
        assert_eq!((kept, s.left_out), (vec!["a", "b", "c"], 1));
        let none: Keep = "timeout_ms=5".parse().expect("a setting");
        let shown = select(mixed(), &[none])
            .expect_err("keeps none")
            .to_string();
        assert!(shown.contains("timeout_ms is 10 or 20"), "{shown}");
        assert!("timeout=5".parse::<Keep>().is_err());
        assert!("timeout_ms".parse::<Keep>().is_err());
        // Older records, without the newer settings, match each other only.
        let old = |line: String| line.replace(r#""plain":false,"#, "");
        let olds = old(record_line("a", 10)) + &old(record_line("b", 10));
        assert!(olds.lines().all(|l| !l.contains("plain")), "{olds}");
        let s = select(vec![read("old.jsonl", &olds)], &[]).expect("all not recorded");
        assert_eq!((s.records.len(), s.left_out), (2, 0));
        let both = vec![
            read("old.jsonl", &olds),
            read("new.jsonl", &record_line("c", 10)),
        ];
        let shown = select(both, &[]).expect_err("a mix").to_string();
        assert!(
            shown.contains("plain (--plain) is not recorded there but false here")
                && shown.contains("--keep plain=null or --keep plain=false"),
            "{shown}"
        );
    }

    #[test]
    fn the_run_list_is_walked_not_held() {
        // A billion runs are planned without holding them.
        let p: Vec<String> = (0..100_000).map(|i| format!("p{i}")).collect();
        let list = RunList {
            puzzles: &p,
            solvers: &["z3"],
            encodings: &[Encoding::Lia],
            repeats: MAX_REPEAT,
            shard: None,
            done: &HashSet::new(),
            left_out: &[],
        };
        let first: Vec<(usize, u32)> = list
            .groups()
            .take(3)
            .map(|g| (g.puzzle, g.repeat))
            .collect();
        assert_eq!(first, [(0, 0), (1, 0), (2, 0)]);
        assert_eq!(list.runs(), 1_000_000_000, "counted, not walked");
        assert!(check_distinct(&p).is_ok());
        let twice = vec!["a.toml".to_string(), "b.toml".into(), "a.toml".into()];
        let e = check_distinct(&twice).expect_err("given twice");
        assert!(e.to_string().contains("a.toml is given twice"), "{e}");
    }

    #[test]
    fn the_counted_run_list_matches_the_walked_one() {
        let p: Vec<String> = (0..5).map(|i| format!("p{i}")).collect();
        let s = ["z3", "cvc5"];
        let key = |puzzle: &str, solver: &str, encoding, repeat| RunKey {
            puzzle: puzzle.into(),
            solver: solver.into(),
            encoding,
            repeat,
        };
        // Made runs in the list, and others (another solver, repeat,
        // puzzle or encoding) that must not be subtracted.
        let done: HashSet<RunKey> = [
            key("p0", "z3", Encoding::Lia, 0),
            key("p4", "cvc5", Encoding::Lia, 2),
            key("p1", "yices2", Encoding::Lia, 0),
            key("p1", "z3", Encoding::Lia, 3),
            key("p9", "z3", Encoding::Lia, 0),
            key("p2", "z3", Encoding::Bv, 0),
        ]
        .into();
        for shard in [None, Some(Shard { index: 1, count: 3 })] {
            let list = RunList {
                puzzles: &p,
                solvers: &s,
                encodings: &[Encoding::Lia],
                repeats: 3,
                shard,
                done: &done,
                left_out: &[],
            };
            let walked: u64 = list.groups().map(|g| g.pairs.len() as u64).sum();
            assert_eq!(list.runs(), walked, "{shard:?}");
        }
        let list = RunList {
            puzzles: &p,
            solvers: &s,
            encodings: &[Encoding::Lia],
            repeats: 3,
            shard: None,
            done: &done,
            left_out: &[],
        };
        assert_eq!(list.runs(), 3 * 5 * 2 - 2);
        // A pair left out is neither run nor counted, and its made runs
        // are not subtracted twice.
        let lia = [Encoding::Lia, Encoding::Bv];
        for shard in [None, Some(Shard { index: 2, count: 3 })] {
            let list = RunList {
                encodings: &lia,
                shard,
                left_out: &[("cvc5", Encoding::Lia)],
                ..list
            };
            let walked: Vec<(usize, Encoding)> = list.groups().flat_map(|g| g.pairs).collect();
            assert!(!walked.contains(&(1, Encoding::Lia)), "{walked:?}");
            assert_eq!(list.runs(), walked.len() as u64, "{shard:?}");
        }
        let list = RunList {
            encodings: &lia,
            left_out: &[("cvc5", Encoding::Lia)],
            ..list
        };
        // 5 puzzles × 3 repeats × 3 pairs, less the made runs of z3/lia on
        // p0 and z3/bv on p2 (cvc5/lia's on p4 is left out already).
        assert_eq!(list.runs(), 3 * 5 * 3 - 2);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("1/4".parse(), Ok(Shard { index: 1, count: 4 }));
        for bad in ["4/4", "1", "a/2", "0/0", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
