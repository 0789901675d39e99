//! Benchmark families for the SMT-LIB library: one file per puzzle ×
//! encoding in the library's folder layout and header, each `:status`
//! decided from answers smtgrid trusts, and with `unique` the uniqueness
//! question as an incremental benchmark per puzzle × encoding.
//!
//! A status is never a bare claim (SMT-COMP's practice for crafted
//! families): `sat` only when smtgrid's checker verified a model that a
//! solver gave for exactly these assertions; `unsat` only when at least
//! two different solvers answered unsat and none answered sat; anything
//! else, a disagreement included, is `unknown`. The answers come from
//! [`crate::solve`]'s scheduler; this module decides statuses and writes
//! files, `STATUS.jsonl` (who answered what, how fast) and a `README.md`.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::encode::{Encoded, Encoding, Options, describe, encode};
use crate::error::{Error, Result};
use crate::lower::lower;
use crate::model::{Model, ValueGrid};
use crate::output::write_file_atomically;
use crate::puzzle::Puzzle;
use crate::smtlib::benchmark::{CC_BY_4, Header, Source, Status};
use crate::solve::{Mode, Outcome, Plan, PuzzleResult, Run, SessionUse, solve_all};
use crate::solver::{Cancel, Limits, Solver, read_versions};

/// Digits of the zero-padded number of a puzzle from a file of many, so
/// that names sort in input order (`top95-00002` before `top95-00010`) up
/// to 99,999 puzzles per file.
pub const NUMBER_WIDTH: usize = 5;

/// A file name stem for `puzzle`: its file's stem, and for a puzzle of a
/// file of many its number zero-padded (`puzzles/top95.txt:3` becomes
/// `top95-00003`); characters other than letters, digits, `.`, `_` and `-`
/// become `_`.
pub fn file_stem(puzzle: &Puzzle) -> String {
    let base = puzzle.name.rsplit('/').next().unwrap_or(&puzzle.name);
    let (file, number) = match base.rsplit_once(':') {
        Some((f, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (f, Some(n)),
        _ => (base, None),
    };
    let mut stem = file;
    for ext in [".gz", ".GZ", ".txt", ".toml", ".kakuro", ".sgt"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    let stem = match number {
        Some(n) => format!("{stem}-{n:0>NUMBER_WIDTH$}"),
        None => stem.to_string(),
    };
    safe_name(&stem)
}

/// `text` with every character but ASCII letters, digits, `.`, `_` and `-`
/// replaced by `_`, for a file or folder name.
fn safe_name(text: &str) -> String {
    let s: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    /// Year.
    pub year: i64,
    /// Month, 1 to 12.
    pub month: u32,
    /// Day, 1 to 31.
    pub day: u32,
}

impl Date {
    /// The UTC date `secs` seconds after 1970-01-01.
    pub fn from_unix(secs: i64) -> Date {
        // Howard Hinnant's days-to-civil algorithm.
        let z = secs.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date { year, month, day }
    }

    /// Today (UTC), or the day of `SOURCE_DATE_EPOCH` when that is set, so
    /// a family can be made again byte for byte.
    pub fn today() -> Date {
        let secs = std::env::var("SOURCE_DATE_EPOCH")
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() as i64)
            });
        Date::from_unix(secs)
    }

    /// `YYYYMMDD`, as set folders are named.
    pub fn compact(self) -> String {
        format!("{:04}{:02}{:02}", self.year, self.month, self.day)
    }

    /// `YYYY-MM-DD`, as `Generated on:` wants it.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// How a family is made.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The folder that gets `non-incremental/` and `incremental/`.
    pub root: PathBuf,
    /// The application part of the set folder's name, e.g. `gridpuzzles`.
    pub family: String,
    /// Who submits it: the set folder's last part, and `Generated by:`.
    pub submitter: Option<String>,
    /// The date of the set folder and `Generated on:`.
    pub date: Date,
    /// The license's URL or name.
    pub license: String,
    /// The encodings, one file each per puzzle.
    pub encodings: Vec<Encoding>,
    /// Encoder options, as the solvers were given the scripts.
    pub options: Options,
    /// Also write the uniqueness question as incremental benchmarks.
    pub unique: bool,
    /// The time limit each solver had, in seconds.
    pub time_limit: f64,
    /// The solvers that answered, with versions, for `Target solver:`.
    pub solvers: Vec<String>,
    /// The `emit` options that made the family (after the input file), to
    /// say in each file how to make it again.
    pub command: String,
}

impl Settings {
    /// Defaults: family `gridpuzzles`, no submitter, today, CC BY 4.0.
    pub fn new(root: impl Into<PathBuf>) -> Settings {
        Settings {
            root: root.into(),
            family: "gridpuzzles".into(),
            submitter: None,
            date: Date::today(),
            license: CC_BY_4.into(),
            encodings: Encoding::ALL.to_vec(),
            options: Options::default(),
            unique: false,
            time_limit: 60.0,
            solvers: Vec::new(),
            command: String::new(),
        }
    }

    /// `<YYYYMMDD>-<family>[-<submitter>]`.
    pub fn set_name(&self) -> String {
        let mut s = format!("{}-{}", self.date.compact(), safe_name(&self.family));
        if let Some(who) = &self.submitter {
            s.push('-');
            s.push_str(&safe_name(who));
        }
        s
    }
}

/// A status and, when solvers contradict each other, what they said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The status to write.
    pub status: Status,
    /// The contradiction that made it `unknown`.
    pub disagreement: Option<String>,
}

impl Verdict {
    fn plain(status: Status) -> Verdict {
        Verdict {
            status,
            disagreement: None,
        }
    }
    fn disagree(why: String) -> Verdict {
        Verdict {
            status: Status::Unknown,
            disagreement: Some(why),
        }
    }
}

/// Whether a run's first answer claims sat, verified or not.
fn claims_sat(o: &Outcome) -> bool {
    matches!(o, Outcome::Sat { .. } | Outcome::InvalidModel { .. })
}

/// The status of a script from the runs of every solver on exactly that
/// script: `sat` when a model was verified, `unsat` when two different
/// solvers said unsat and none said sat, else `unknown`; sat against unsat
/// is a disagreement.
pub fn first_status(runs: &[&Run]) -> Verdict {
    let unsat: Vec<&str> = distinct(runs.iter().filter(|r| r.outcome == Outcome::Unsat));
    let sat = runs.iter().find(|r| claims_sat(&r.outcome));
    match (sat, unsat.first()) {
        (Some(s), Some(u)) => Verdict::disagree(format!(
            "{} answered sat{} but {u} answered unsat",
            s.solver,
            if s.outcome.grid().is_some() {
                " with a verified model"
            } else {
                ""
            }
        )),
        _ if runs.iter().any(|r| r.outcome.grid().is_some()) => Verdict::plain(Status::Sat),
        (None, _) if unsat.len() >= 2 => Verdict::plain(Status::Unsat),
        _ => Verdict::plain(Status::Unknown),
    }
}

/// The solver labels of `runs`, each once, in order.
fn distinct<'a>(runs: impl Iterator<Item = &'a &'a Run>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for r in runs {
        if !seen.contains(&r.solver.as_str()) {
            seen.push(&r.solver);
        }
    }
    seen
}

/// The status of "another solution than `blocked`?" from the runs that
/// asked `--unique`'s second question: `sat` when any run verified a grid
/// other than `blocked` (first or second answer: either is a model of the
/// puzzle with `blocked` excluded); `unsat` when two different solvers
/// whose first grid was `blocked` found no other and none claimed one;
/// else `unknown`, with a contradiction reported.
pub fn second_status(runs: &[&Run], blocked: &ValueGrid) -> Verdict {
    let other = runs
        .iter()
        .find(|r| r.outcome.grids().any(|g| g != blocked));
    let unique: Vec<&str> = distinct(
        runs.iter()
            .filter(|r| r.outcome.grid() == Some(blocked) && r.outcome.unique() == Some(true)),
    );
    // A second answer that claimed sat but broke a rule.
    let liar = runs.iter().find(
        |r| matches!(&r.outcome, Outcome::InvalidModel { first: Some(g), .. } if g == blocked),
    );
    match (other, unique.first()) {
        (Some(o), Some(u)) => Verdict::disagree(format!(
            "{u} found no second solution but {} verified another one",
            o.solver
        )),
        (Some(_), None) => Verdict::plain(Status::Sat),
        (None, _) if unique.len() >= 2 && liar.is_none() => Verdict::plain(Status::Unsat),
        (None, Some(u)) if liar.is_some() => Verdict::disagree(format!(
            "{u} found no second solution but {} claimed one (its model broke a rule)",
            liar.map_or("", |r| r.solver.as_str())
        )),
        _ => Verdict::plain(Status::Unknown),
    }
}

/// One solver's answer to one file's question(s), for `STATUS.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The solver's label.
    pub solver: String,
    /// Its version, if known.
    pub version: Option<String>,
    /// How its run ended (`sat`, `unsat`, `timeout`, …).
    pub answer: &'static str,
    /// Whether smtgrid's checker verified its model.
    pub verified: bool,
    /// Under `unique`: the answer to the second question (`unsat`: no
    /// other solution; `sat`: another, verified), if settled.
    pub second: Option<&'static str>,
    /// Wall-clock time to the first answer, in milliseconds.
    pub time_ms: u64,
    /// What went wrong, if anything.
    pub error: Option<String>,
}

impl Answer {
    fn of(r: &Run) -> Answer {
        Answer {
            solver: r.solver.clone(),
            version: r.version.clone(),
            answer: r.outcome.status().name(),
            verified: r.outcome.grid().is_some(),
            second: match r.outcome.unique() {
                Some(true) => Some("unsat"),
                Some(false) => Some("sat"),
                None => None,
            },
            time_ms: r.time_ms,
            error: r.outcome.message(),
        }
    }
}

/// One written file, as `STATUS.jsonl` records it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// The path below the family's root.
    pub file: String,
    /// The puzzle's name.
    pub puzzle: String,
    /// Its kind.
    pub kind: &'static str,
    /// The encoding.
    pub encoding: Encoding,
    /// The logic.
    pub logic: &'static str,
    /// One status per `check-sat`, in order.
    pub statuses: Vec<Status>,
    /// Contradictions between solvers, if any (each made a status
    /// `unknown`).
    pub disagreements: Vec<String>,
    /// Every solver's answer.
    pub runs: Vec<Answer>,
    /// The file's size in bytes.
    pub bytes: usize,
}

/// A family being written: files as puzzles' results come in, then
/// `STATUS.jsonl` and `README.md` by [`Family::finish`].
pub struct Family {
    settings: Settings,
    records: Vec<Record>,
    /// Paths already written, so two puzzles with one name get two files.
    used: HashSet<PathBuf>,
    /// The assertions already written per encoding, by hash, to leave out
    /// a puzzle that is an exact duplicate of an earlier one.
    seen: HashMap<(Encoding, u64), String>,
    /// Puzzles left out as duplicates: (puzzle, the earlier one).
    duplicates: Vec<(String, String)>,
}

impl Family {
    /// A family written under `settings.root` (created if missing).
    pub fn new(settings: Settings) -> Result<Family> {
        std::fs::create_dir_all(&settings.root).map_err(|source| Error::Io {
            path: settings.root.clone(),
            source,
        })?;
        Ok(Family {
            settings,
            records: Vec::new(),
            used: HashSet::new(),
            seen: HashMap::new(),
            duplicates: Vec::new(),
        })
    }

    /// The records of the files written so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Puzzles left out because an earlier puzzle had the same assertions.
    pub fn duplicates(&self) -> &[(String, String)] {
        &self.duplicates
    }

    /// Writes `puzzle`'s files (read from input file `input`) from its
    /// solving result: one per encoding, and one incremental file per
    /// encoding under `unique`. Returns the new records.
    pub fn add(
        &mut self,
        input: &str,
        puzzle: &Puzzle,
        result: &PuzzleResult,
    ) -> Result<&[Record]> {
        let start = self.records.len();
        let model = lower(puzzle);
        for &e in &self.settings.encodings.clone() {
            let enc = encode(&model, e, &self.settings.options);
            let key = (e, hash(enc.assertions_text()));
            if let Some(first) = self.seen.get(&key) {
                self.duplicates.push((puzzle.name.clone(), first.clone()));
                continue;
            }
            self.seen.insert(key, puzzle.name.clone());
            let runs: Vec<&Run> = result
                .lines
                .iter()
                .map(|l| &l.run)
                .filter(|r| r.encoding == e)
                .collect();
            let first = first_status(&runs);
            let stem = file_stem(puzzle);
            let header = self.header(&model, puzzle, input, e, enc.logic, &runs, false);
            let text = enc.benchmark(&header.text(Some(first.status)));
            self.write(
                "non-incremental",
                &enc,
                puzzle,
                &stem,
                &text,
                vec![first.status],
                first.disagreement.clone(),
                &runs,
            )?;
            if self.settings.unique {
                self.add_unique(&model, puzzle, input, &enc, &stem, &first, &runs)?;
            }
        }
        Ok(&self.records[start..])
    }

    #[allow(clippy::too_many_arguments)]
    fn add_unique(
        &mut self,
        model: &Model,
        puzzle: &Puzzle,
        input: &str,
        enc: &Encoded,
        stem: &str,
        first: &Verdict,
        runs: &[&Run],
    ) -> Result<()> {
        // The solution to block: the first verified one, in solver order.
        let Some(found) = runs.iter().find_map(|r| r.outcome.grid()) else {
            // Without a verified solution there is nothing to block, so
            // the incremental question cannot be written.
            return Ok(());
        };
        let Some(values) = values_of(model, found) else {
            return Ok(());
        };
        let second = second_status(runs, found);
        let header = self.header(model, puzzle, input, enc.encoding, enc.logic, runs, true);
        let text = enc.incremental_benchmark(
            &header.text(None),
            first.status,
            &enc.decoder.block(&values),
            second.status,
        );
        let disagreement = match (&first.disagreement, second.disagreement) {
            (Some(a), _) => Some(a.clone()),
            (None, b) => b,
        };
        self.write(
            "incremental",
            enc,
            puzzle,
            stem,
            &text,
            vec![first.status, second.status],
            disagreement,
            runs,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        top: &str,
        enc: &Encoded,
        puzzle: &Puzzle,
        stem: &str,
        text: &str,
        statuses: Vec<Status>,
        disagreement: Option<String>,
        runs: &[&Run],
    ) -> Result<()> {
        let dir = self
            .settings
            .root
            .join(top)
            .join(enc.logic)
            .join(self.settings.set_name())
            .join(puzzle.kind.name());
        let mut name = format!("{stem}-{}.smt2", enc.encoding);
        let mut n = 1;
        while self.used.contains(&dir.join(&name)) {
            n += 1;
            name = format!("{stem}_{n}-{}.smt2", enc.encoding);
        }
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        let path = dir.join(&name);
        write_file_atomically(&path, text)?;
        self.used.insert(path.clone());
        let file = path
            .strip_prefix(&self.settings.root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        self.records.push(Record {
            file,
            puzzle: puzzle.name.clone(),
            kind: puzzle.kind.name(),
            encoding: enc.encoding,
            logic: enc.logic,
            statuses,
            disagreements: disagreement.into_iter().collect(),
            runs: runs.iter().map(|r| Answer::of(r)).collect(),
            bytes: text.len(),
        });
        Ok(())
    }

    /// The header of one file; its free text names the puzzle, kind and
    /// encoding, the command that makes it again, and how long each solver
    /// took.
    #[allow(clippy::too_many_arguments)]
    fn header(
        &self,
        model: &Model,
        puzzle: &Puzzle,
        input: &str,
        e: Encoding,
        logic: &str,
        runs: &[&Run],
        incremental: bool,
    ) -> Header {
        let s = &self.settings;
        let mut notes = vec![format!(
            "{} {}x{} {} puzzle {}, as smtgrid's {e} encoding writes it ({}).",
            describe(model, e),
            puzzle.rows,
            puzzle.cols,
            puzzle.kind.name(),
            puzzle.name,
            encoding_summary(e),
        )];
        if incremental {
            notes.push(
                "Incremental: the first check-sat asks for a solution; then the solution smtgrid \
                 found and verified is excluded and the second check-sat asks whether another \
                 one exists (sat: the puzzle has two or more solutions)."
                    .into(),
            );
        }
        notes.push(format!(
            "Made with: smtgrid emit {input} {}",
            s.command.trim()
        ));
        notes.push(times_note(runs, s.time_limit));
        Header {
            logic: logic.to_string(),
            source: Source {
                generated_by: s.submitter.clone().unwrap_or_else(|| "smtgrid".into()),
                generated_on: s.date.iso(),
                generator: format!("smtgrid {}", env!("CARGO_PKG_VERSION")),
                application:
                    "Grid puzzles (sudoku, killer, calcudoku, kakuro, ...) as constraint problems"
                        .into(),
                target_solvers: s.solvers.clone(),
                time_limit: Some(s.time_limit),
                notes,
            },
            license: s.license.clone(),
            category: "crafted".into(),
        }
    }

    /// Writes `STATUS.jsonl` (one record per file) and `README.md` (what
    /// the family holds) into the root.
    pub fn finish(&self, made_by: &str) -> Result<()> {
        let mut jsonl = String::new();
        for r in &self.records {
            let _ = writeln!(jsonl, "{}", serde_json::to_string(r).unwrap_or_default());
        }
        write_file_atomically(&self.settings.root.join("STATUS.jsonl"), &jsonl)?;
        write_file_atomically(&self.settings.root.join("README.md"), &self.readme(made_by))
    }

    /// The family's README: how many files, their statuses, the spread of
    /// solver times, and the command that made it.
    pub fn readme(&self, made_by: &str) -> String {
        let s = &self.settings;
        let mut out = format!(
            "# {} — SMT-LIB benchmarks made by smtgrid {}\n\n",
            s.set_name(),
            env!("CARGO_PKG_VERSION")
        );
        let _ = writeln!(
            out,
            "Grid puzzles written once and encoded by smtgrid: each puzzle in the \
             {} encoding(s), one non-incremental file each{}. Category `crafted`, \
             license {}.\n",
            s.encodings
                .iter()
                .map(|e| e.name())
                .collect::<Vec<_>>()
                .join(", "),
            if s.unique {
                ", and the uniqueness question (a solution, then that solution excluded) as an incremental file"
            } else {
                ""
            },
            s.license
        );
        let _ = writeln!(out, "Made with:\n\n    {made_by}\n");
        let _ = writeln!(
            out,
            "Statuses come from smtgrid's own scheduler (every solver below, {} s each): \
             `sat` only with a model smtgrid's checker verified, `unsat` only when two \
             different solvers said so and none said sat, otherwise `unknown`. \
             `STATUS.jsonl` lists every file with each solver's answer and time.\n",
            s.time_limit
        );
        let _ = writeln!(out, "Solvers: {}.\n", s.solvers.join(", "));
        let mut table: BTreeMap<(String, String), [usize; 4]> = BTreeMap::new();
        for r in &self.records {
            let top = r.file.split('/').next().unwrap_or("").to_string();
            let row = table.entry((top, r.logic.to_string())).or_default();
            row[0] += 1;
            for st in &r.statuses {
                row[1 + Status::ALL.iter().position(|x| x == st).unwrap_or(2)] += 1;
            }
        }
        let _ = writeln!(
            out,
            "| folder | logic | files | sat | unsat | unknown |\n|---|---|---:|---:|---:|---:|"
        );
        for ((top, logic), row) in &table {
            let _ = writeln!(
                out,
                "| {top} | {logic} | {} | {} | {} | {} |",
                row[0], row[1], row[2], row[3]
            );
        }
        let total: usize = self.records.len();
        let bytes: usize = self.records.iter().map(|r| r.bytes).sum();
        let largest = self.records.iter().map(|r| r.bytes).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "\n{total} files, {:.1} MB in all, the largest {:.1} KB (statuses counted per check-sat).\n",
            bytes as f64 / 1e6,
            largest as f64 / 1e3
        );
        let _ = writeln!(
            out,
            "## Solver times (first answer, non-incremental files)\n"
        );
        let _ = writeln!(
            out,
            "| solver | sat | unsat | no answer | median s | max s |\n|---|---:|---:|---:|---:|---:|"
        );
        let mut per: BTreeMap<&str, (usize, usize, usize, Vec<u64>)> = BTreeMap::new();
        for r in self.records.iter().filter(|r| r.statuses.len() == 1) {
            for a in &r.runs {
                let e = per.entry(&a.solver).or_default();
                match a.answer {
                    "sat" => e.0 += 1,
                    "unsat" => e.1 += 1,
                    _ => e.2 += 1,
                }
                if matches!(a.answer, "sat" | "unsat") {
                    e.3.push(a.time_ms);
                }
            }
        }
        for (solver, (sat, unsat, none, mut times)) in per {
            times.sort_unstable();
            let med = times.get(times.len() / 2).copied().unwrap_or(0);
            let max = times.last().copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "| {solver} | {sat} | {unsat} | {none} | {:.2} | {:.2} |",
                med as f64 / 1e3,
                max as f64 / 1e3
            );
        }
        let mut spreads: Vec<(f64, &Record)> = self
            .records
            .iter()
            .filter(|r| r.statuses.len() == 1)
            .filter_map(|r| spread(&r.runs).map(|x| (x, r)))
            .collect();
        spreads.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !spreads.is_empty() {
            let _ = writeln!(
                out,
                "\nLargest spreads between the slowest and the fastest decisive solver of one file:\n"
            );
            for (x, r) in spreads.iter().take(5) {
                let _ = writeln!(out, "- `{}`: {x:.0}×", r.file);
            }
        }
        if !self.duplicates.is_empty() {
            let _ = writeln!(
                out,
                "\n{} puzzle encodings were left out as exact duplicates of earlier ones.",
                self.duplicates.len()
            );
        }
        let disagreements: Vec<&Record> = self
            .records
            .iter()
            .filter(|r| !r.disagreements.is_empty())
            .collect();
        if !disagreements.is_empty() {
            let _ = writeln!(out, "\n## Disagreements (status set to unknown)\n");
            for r in disagreements {
                let _ = writeln!(out, "- `{}`: {}", r.file, r.disagreements.join("; "));
            }
        }
        out
    }
}

/// What solves a family's puzzles: smtgrid's own scheduler, with these
/// solvers and limits.
#[derive(Debug, Clone)]
pub struct Solving {
    /// The solvers to ask (every installed one, ideally: statuses need
    /// two agreeing solvers for unsat).
    pub solvers: Vec<Solver>,
    /// The limit per solver and script.
    pub limits: Limits,
    /// How many solver processes may run at once.
    pub jobs: usize,
}

/// Solves `items` (each puzzle with the input file it came from) through
/// [`crate::solve::solve_all`] — every solver on every encoding of
/// `settings`, as whole scripts in processes of their own, with the second
/// question under `settings.unique` — and writes each puzzle's files as its
/// result comes in; `report` hears of each puzzle with its new records.
/// Then writes `STATUS.jsonl` and `README.md` (`made_by` is the command
/// line the README shows). Stops early, keeping what was written, on
/// Ctrl-C or a write error.
pub fn make(
    items: impl Iterator<Item = (String, Puzzle)>,
    solving: &Solving,
    mut settings: Settings,
    made_by: &str,
    cancel: &Cancel,
    mut report: impl FnMut(&Puzzle, &PuzzleResult, &[Record]),
) -> Result<Family> {
    let mut solvers = solving.solvers.clone();
    read_versions(&mut solvers, cancel);
    settings.solvers = solvers
        .iter()
        .map(|s| match &s.version {
            Some(v) => format!("{} {v}", s.label),
            None => s.label.clone(),
        })
        .collect();
    settings.time_limit = solving.limits.timeout.as_secs_f64();
    let plan = Plan {
        solvers,
        mode: Mode::Fixed(settings.encodings.clone()),
        options: settings.options,
        limits: solving.limits,
        jobs: solving.jobs,
        unique: settings.unique,
        // The statuses are of the whole scripts, so each is asked whole.
        sessions: SessionUse::Never,
    };
    let mut family = Family::new(settings)?;
    // Results come in input order, so the inputs queue up beside them.
    let inputs = RefCell::new(VecDeque::new());
    let puzzles = items.map(|(input, p)| {
        inputs.borrow_mut().push_back(input);
        p
    });
    let mut failed = None;
    solve_all(puzzles, &plan, cancel, |p, r| {
        let input = inputs.borrow_mut().pop_front().unwrap_or_default();
        match family.add(&input, p, r) {
            Ok(records) => {
                report(p, r, records);
                ControlFlow::Continue(())
            }
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    family.finish(made_by)?;
    Ok(family)
}

/// The slowest decisive time over the fastest, when two solvers answered.
fn spread(runs: &[Answer]) -> Option<f64> {
    let times: Vec<u64> = runs
        .iter()
        .filter(|a| matches!(a.answer, "sat" | "unsat"))
        .map(|a| a.time_ms.max(1))
        .collect();
    let (lo, hi) = (times.iter().min()?, times.iter().max()?);
    (times.len() >= 2).then(|| *hi as f64 / *lo as f64)
}

/// One line on what encoding `e` is.
fn encoding_summary(e: Encoding) -> &'static str {
    match e {
        Encoding::Lia => "one Int per cell, distinct, linear sums",
        Encoding::Onehot => "one Bool per cell and value, propositional",
        Encoding::Bv => "one bit-vector per cell",
    }
}

/// The free text on solver times: each solver's answer and time, and the
/// spread between the fastest and the slowest decisive one.
fn times_note(runs: &[&Run], limit: f64) -> String {
    let mut parts: Vec<String> = runs
        .iter()
        .map(|r| {
            let who = match &r.version {
                Some(v) => format!("{} {v}", r.solver),
                None => r.solver.clone(),
            };
            match &r.outcome {
                o if o.is_definite() => format!(
                    "{who} {} in {:.2} s",
                    o.status().name(),
                    r.time_ms as f64 / 1e3
                ),
                o => format!("{who} {}", o.status().name()),
            }
        })
        .collect();
    if parts.is_empty() {
        parts.push("none".into());
    }
    let answers: Vec<Answer> = runs.iter().map(|r| Answer::of(r)).collect();
    let spread = match spread(&answers) {
        Some(x) => {
            format!(" The slowest decisive solver took {x:.0} times as long as the fastest.")
        }
        None => String::new(),
    };
    format!(
        "Solver times on this script (first check-sat, wall clock, {limit} s limit): {}.{spread}",
        parts.join("; ")
    )
}

/// The cell values of `grid` in `model`'s cell order.
fn values_of(model: &Model, grid: &ValueGrid) -> Option<Vec<i64>> {
    model
        .cells
        .iter()
        .map(|c| grid.get(c.row)?.get(c.col).copied().flatten())
        .collect()
}

fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Where a family's rules are checked: every `.smt2` below `root`, with
/// its path relative to `root`, in sorted order.
pub fn files(root: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, p));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Uniqueness;
    use crate::solve::outcome::fixtures::{grid as g, run, sat};
    fn first(runs: &[Run]) -> Verdict {
        first_status(&runs.iter().collect::<Vec<_>>())
    }
    fn second(runs: &[Run], blocked: i64) -> Verdict {
        second_status(&runs.iter().collect::<Vec<_>>(), &g(blocked))
    }

    #[test]
    fn sat_needs_a_verified_model_and_unsat_two_solvers() {
        let invalid = || Outcome::InvalidModel {
            rule: "r".into(),
            first: None,
        };
        let timeout = || Outcome::Timeout("t".into());
        assert_eq!(
            first(&[run("a", sat(1, None)), run("b", timeout())]).status,
            Status::Sat
        );
        assert_eq!(
            first(&[run("a", invalid()), run("b", timeout())]).status,
            Status::Unknown
        );
        assert_eq!(
            first(&[run("a", Outcome::Unsat), run("b", timeout())]).status,
            Status::Unknown
        );
        // One solver on two encodings is still one solver.
        assert_eq!(
            first(&[run("a", Outcome::Unsat), run("a", Outcome::Unsat)]).status,
            Status::Unknown
        );
        assert_eq!(
            first(&[run("a", Outcome::Unsat), run("b", Outcome::Unsat)]).status,
            Status::Unsat
        );
        let v = first(&[
            run("a", Outcome::Unsat),
            run("b", Outcome::Unsat),
            run("c", invalid()),
        ]);
        assert_eq!(v.status, Status::Unknown);
        assert!(
            v.disagreement
                .is_some_and(|d| d.contains("c answered sat but a answered unsat"))
        );
        let v = first(&[run("a", sat(1, None)), run("b", Outcome::Unsat)]);
        assert_eq!(v.status, Status::Unknown);
        assert!(v.disagreement.is_some_and(|d| d.contains("verified")));
    }

    #[test]
    fn the_second_question_needs_the_same_blocked_solution() {
        let unique = || Some(Uniqueness::Unique);
        let both = [run("a", sat(1, unique())), run("b", sat(1, unique()))];
        assert_eq!(second(&both, 1).status, Status::Unsat);
        // With 2 blocked, their verified 1 is another solution.
        let v = second(&both, 2);
        assert_eq!(v.status, Status::Sat);
        assert!(v.disagreement.is_none());
        let one = [
            run("a", sat(1, unique())),
            run("b", Outcome::Timeout("t".into())),
        ];
        assert_eq!(second(&one, 1).status, Status::Unknown);
        let two = [
            run("a", sat(1, Some(Uniqueness::NotUnique(g(2))))),
            run("b", Outcome::Unsat),
        ];
        assert_eq!(second(&two, 1).status, Status::Sat);
        // b's first solution is another one: sat, and a's claim is wrong.
        let v = second(&[run("a", sat(1, unique())), run("b", sat(2, unique()))], 1);
        assert_eq!(v.status, Status::Unknown);
        assert!(v.disagreement.is_some());
        let liar = Outcome::InvalidModel {
            rule: "r".into(),
            first: Some(g(1)),
        };
        let v = second(
            &[
                run("a", sat(1, unique())),
                run("b", sat(1, unique())),
                run("c", liar),
            ],
            1,
        );
        assert_eq!(v.status, Status::Unknown);
        assert!(v.disagreement.is_some());
    }

    #[test]
    fn names_sort_and_dates_are_civil() {
        let mut p = Puzzle::blank("puzzles/top95.txt:3", crate::puzzle::Kind::Sudoku, 4);
        assert_eq!(file_stem(&p), "top95-00003");
        p.name = "my puzzle.toml".into();
        assert_eq!(file_stem(&p), "my_puzzle");
        p.name = "x.txt.gz:12".into();
        assert_eq!(file_stem(&p), "x-00012");
        assert_eq!(Date::from_unix(0).iso(), "1970-01-01");
        assert_eq!(Date::from_unix(1_795_996_800).compact(), "20261130");
        assert_eq!(Date::from_unix(951_782_400).iso(), "2000-02-29");
    }
}
