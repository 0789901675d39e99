//! The summary of a set of bench records: per (solver, encoding) pair the
//! status counts, PAR-2, median and total time and the puzzles it alone
//! solved; the virtual best; disagreements; missing and duplicated runs.
//!
//! With `--repeat K`, each (puzzle, pair) is first reduced to its median:
//! the K runs ordered by their PAR-2 time (the time of a solved run, twice
//! the limit for any other), the middle one stands for the triple, status
//! and time. For an even K its times are the means of the two middle runs
//! (the true median, PAR-2 included), and it counts as solved only when
//! both are; when they differ its status is the slower one's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::export::{Table, csv_field};
use super::stats::{self, Spread};
use super::{Record, RunKey, RunList};
use crate::encode::Encoding;
use crate::error::escape_controls;
use crate::output::plural;
use crate::solve::Status;

/// How many missing or duplicated runs are named one by one.
const NAMED: usize = 20;

/// A solver × encoding pair, written `solver/encoding`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The solver's label.
    pub solver: String,
    /// The encoding.
    pub encoding: Encoding,
}

impl std::fmt::Display for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.solver, self.encoding)
    }
}

impl std::str::FromStr for Pair {
    type Err = String;
    fn from_str(s: &str) -> Result<Pair, String> {
        let (solver, enc) = s.rsplit_once('/').ok_or_else(|| {
            format!("`{s}` is no pair: write SOLVER/ENCODING, e.g. yices2/onehot")
        })?;
        let encoding = Encoding::from_name(enc)
            .ok_or_else(|| format!("`{s}`: unknown encoding `{enc}`; use lia, onehot or bv"))?;
        Ok(Pair {
            solver: solver.into(),
            encoding,
        })
    }
}

/// The median of the runs of one (puzzle, pair): its one run, or the
/// middle of its repeats (see the module's comment).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Its status.
    pub status: Status,
    /// A verified sat or an unsat.
    pub solved: bool,
    /// Its wall time in milliseconds.
    pub time_ms: f64,
    /// Its CPU time in milliseconds, if recorded.
    pub cpu_ms: Option<f64>,
    /// Its peak memory in KiB, if recorded.
    pub max_rss_kb: Option<u64>,
    /// Its limit.
    pub timeout_ms: u64,
    /// The wall times of all its repeats, with their spread, when there
    /// is more than one.
    pub spread: Option<Spread>,
    /// What PAR-2 charges it (see [`Cell::par2_ms`]).
    par2_ms: f64,
}

impl Cell {
    fn of(r: &Record) -> Cell {
        let solved = r.solved();
        Cell {
            status: r.status,
            solved,
            time_ms: r.time_ms,
            cpu_ms: r.measured.cpu_ms,
            max_rss_kb: r.measured.max_rss_kb,
            timeout_ms: r.settings.timeout_ms,
            spread: None,
            par2_ms: if solved {
                r.time_ms
            } else {
                r.settings.timeout_ms as f64 * 2.0
            },
        }
    }

    /// The median of `runs`, ordered by their PAR-2 time: the middle run,
    /// or the means of the two middle ones (`None` for no runs).
    fn median(runs: &[&Record]) -> Option<Cell> {
        let (lo, hi) = stats::middle(runs)?;
        let (a, b) = (Cell::of(lo), Cell::of(hi));
        let mean = |x: f64, y: f64| (x + y) / 2.0;
        let both = |x: Option<f64>, y: Option<f64>| Some(mean(x?, y?));
        Some(Cell {
            status: b.status,
            solved: a.solved && b.solved,
            time_ms: mean(a.time_ms, b.time_ms),
            cpu_ms: both(a.cpu_ms, b.cpu_ms),
            max_rss_kb: both(
                a.max_rss_kb.map(|k| k as f64),
                b.max_rss_kb.map(|k| k as f64),
            )
            .map(|k| k.round() as u64),
            timeout_ms: a.timeout_ms.max(b.timeout_ms),
            spread: None,
            par2_ms: mean(a.par2_ms, b.par2_ms),
        })
    }

    /// The time PAR-2 charges: the run's time when solved, else twice the
    /// limit; for repeats, the median of those (the mean of the two middle
    /// ones for an even count).
    pub fn par2_ms(&self) -> f64 {
        self.par2_ms
    }
}

/// One pair's line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairStats {
    /// The solver's label.
    pub solver: String,
    /// The encoding.
    pub encoding: Encoding,
    /// Puzzles with a verified solution.
    pub solved: usize,
    /// Puzzles it proved unsolvable.
    pub unsat: usize,
    /// Puzzles it gave no answer for within the limit.
    pub timeout: usize,
    /// Puzzles it gave up on.
    pub unknown: usize,
    /// Puzzles where it failed (crash, garbage, reported error, stopped).
    pub error: usize,
    /// Puzzles where its grid broke a rule.
    pub invalid_model: usize,
    /// Puzzles where it went over `--memory-limit`.
    pub memout: usize,
    /// Puzzles whose script it does not take.
    pub unsupported: usize,
    /// PAR-2 score in seconds.
    pub par2_s: f64,
    /// Median wall time per puzzle in seconds.
    pub median_s: f64,
    /// Total wall time in seconds.
    pub total_s: f64,
    /// Puzzles no other pair solved.
    pub only: usize,
    /// The puzzles it has runs for: it is compared with the virtual best
    /// over these only (a shard, or a report with missing runs, holds a
    /// pair's runs of only some puzzles).
    pub compared: usize,
    /// Of those, the puzzles the virtual best solved and this pair did not.
    pub behind_best: usize,
    /// Its PAR-2 minus the virtual best's over the same puzzles, in
    /// seconds.
    pub par2_over_best_s: f64,
}

/// The columns that every summary table shows of a pair, in order.
const PAIR_HEAD: [&str; 13] = [
    "solver/encoding",
    "solved",
    "unsat",
    "timeout",
    "unknown",
    "error",
    "invalid",
    "memout",
    "unsupp",
    "PAR-2 s",
    "median s",
    "total s",
    "only",
];

impl PairStats {
    /// The cells of [`PAIR_HEAD`] for this pair, under `label` (escaped
    /// as its table needs).
    fn cells(&self, label: String) -> Vec<String> {
        vec![
            label,
            self.solved.to_string(),
            self.unsat.to_string(),
            self.timeout.to_string(),
            self.unknown.to_string(),
            self.error.to_string(),
            self.invalid_model.to_string(),
            self.memout.to_string(),
            self.unsupported.to_string(),
            short(self.par2_s),
            short(self.median_s),
            short(self.total_s),
            self.only.to_string(),
        ]
    }
}

/// The virtual best: for each puzzle, the fastest pair that solved it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VirtualBest {
    /// Puzzles some pair solved.
    pub solved: usize,
    /// PAR-2 of the fastest solved run per puzzle, in seconds.
    pub par2_s: f64,
    /// For how many puzzles each pair was the fastest (most first).
    pub fastest: Vec<(String, usize)>,
}

/// Everything `bench` and `report` show about a set of records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// How many puzzles the records cover.
    pub puzzles: usize,
    /// Runs read (duplicates not counted).
    pub runs: usize,
    /// The largest repeat count seen.
    pub repeats: u32,
    /// One line per pair, sorted by solver then encoding.
    pub pairs: Vec<PairStats>,
    /// The virtual best.
    pub virtual_best: VirtualBest,
    /// Puzzles where one run found a verified solution and another said
    /// there is none.
    pub disagreements: Vec<String>,
    /// Runs whose grid broke a rule.
    pub invalid_models: Vec<String>,
    /// How many runs of the puzzles × pairs × repeats seen no record
    /// holds: counted, never listed whole.
    pub missing_runs: u64,
    /// The first of them (at most 20), named.
    pub missing: Vec<String>,
    /// How many runs are recorded more than once (the first record
    /// counts).
    pub duplicate_runs: u64,
    /// The first of them (at most 20), named.
    pub duplicates: Vec<String>,
    /// Runs repeated with a large spread: (puzzle, pair, spread), worst
    /// first (see [`Spread::is_large`]).
    pub noisy: Vec<(String, String, Spread)>,
    /// The median run of each (pair, puzzle), for the plots.
    #[serde(skip)]
    pub cells: BTreeMap<Pair, BTreeMap<String, Cell>>,
}

/// Summarises `records` (from one or many files, in any order). Times
/// add up saturating: a file may hold any number.
pub fn summarize(records: &[Record]) -> Summary {
    let mut seen: BTreeMap<RunKey, &Record> = BTreeMap::new();
    let mut duplicates = Vec::new();
    let mut duplicate_runs = 0u64;
    for r in records {
        match seen.entry(r.key()) {
            std::collections::btree_map::Entry::Occupied(e) => {
                duplicate_runs += 1;
                if duplicates.len() < NAMED {
                    duplicates.push(e.key().to_string());
                }
            }
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(r);
            }
        }
    }
    let puzzles: BTreeSet<&str> = seen.keys().map(|k| k.puzzle.as_str()).collect();
    let pairs: BTreeSet<Pair> = seen
        .keys()
        .map(|k| Pair {
            solver: k.solver.clone(),
            encoding: k.encoding,
        })
        .collect();
    let repeats = seen
        .keys()
        .map(|k| u64::from(k.repeat) + 1)
        .max()
        .unwrap_or(0);

    // Every run of puzzles × pairs × repeats that is not seen is missing:
    // counted by subtraction (each seen run is one of them), and only the
    // first few named, found by walking the runs in order, which passes
    // at most every seen run on the way.
    let all_runs = (puzzles.len() as u128) * (pairs.len() as u128) * u128::from(repeats);
    let missing_runs = u64::try_from(all_runs - seen.len() as u128).unwrap_or(u64::MAX);
    let mut missing = Vec::new();
    'walk: for &puzzle in &puzzles {
        for pair in &pairs {
            for repeat in 0..repeats {
                if missing.len() as u64 >= missing_runs.min(NAMED as u64) {
                    break 'walk;
                }
                let key = RunKey {
                    puzzle: puzzle.into(),
                    solver: pair.solver.clone(),
                    encoding: pair.encoding,
                    repeat: u32::try_from(repeat).unwrap_or(u32::MAX),
                };
                if !seen.contains_key(&key) {
                    missing.push(key.to_string());
                }
            }
        }
    }

    // Each (pair, puzzle)'s runs, reduced to the median one.
    let mut runs: BTreeMap<(Pair, &str), Vec<&Record>> = BTreeMap::new();
    for (k, r) in &seen {
        let pair = Pair {
            solver: k.solver.clone(),
            encoding: k.encoding,
        };
        runs.entry((pair, k.puzzle.as_str())).or_default().push(r);
    }
    let mut cells: BTreeMap<Pair, BTreeMap<String, Cell>> = BTreeMap::new();
    let mut noisy = Vec::new();
    for ((pair, puzzle), mut rs) in runs {
        rs.sort_by(|a, b| {
            Cell::of(a)
                .par2_ms()
                .total_cmp(&Cell::of(b).par2_ms())
                .then(a.repeat.cmp(&b.repeat))
        });
        let Some(mut cell) = Cell::median(&rs) else {
            continue;
        };
        if rs.len() > 1 {
            let times: Vec<f64> = rs.iter().map(|r| r.time_ms).collect();
            let spread = Spread::of(&times);
            if spread.is_large() {
                noisy.push((puzzle.to_string(), pair.to_string(), spread));
            }
            cell.spread = Some(spread);
        }
        cells.entry(pair).or_default().insert(puzzle.into(), cell);
    }
    noisy.sort_by(|a, b| b.2.relative().total_cmp(&a.2.relative()));

    // The virtual best, per puzzle: the fastest solved cell.
    let mut best: BTreeMap<&str, (&Pair, f64)> = BTreeMap::new();
    let mut solvers_of: BTreeMap<&str, Vec<&Pair>> = BTreeMap::new();
    let mut limit_of: BTreeMap<&str, u64> = BTreeMap::new();
    for (pair, by_puzzle) in &cells {
        for (puzzle, c) in by_puzzle {
            let l = limit_of.entry(puzzle).or_default();
            *l = (*l).max(c.timeout_ms);
            if !c.solved {
                continue;
            }
            solvers_of.entry(puzzle).or_default().push(pair);
            let b = best.entry(puzzle).or_insert((pair, c.time_ms));
            if c.time_ms < b.1 {
                *b = (pair, c.time_ms);
            }
        }
    }
    // The virtual best's PAR-2 time of one puzzle: its fastest solved run,
    // else twice the largest limit it was run with.
    let best_ms = |p: &str| {
        best.get(p)
            .map_or(limit_of.get(p).copied().unwrap_or(0) as f64 * 2.0, |b| b.1)
    };
    // A fold from 0.0: an empty f64 sum is -0.0, shown "-0.000" for a
    // shard without runs.
    let best_par2_ms = puzzles.iter().map(|p| best_ms(p)).fold(0.0, |a, b| a + b);
    let mut fastest: BTreeMap<String, usize> = BTreeMap::new();
    for (pair, _) in best.values() {
        *fastest.entry(pair.to_string()).or_default() += 1;
    }
    let mut fastest: Vec<(String, usize)> = fastest.into_iter().collect();
    fastest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let virtual_best = VirtualBest {
        solved: best.len(),
        par2_s: secs(best_par2_ms),
        fastest,
    };

    let stats = cells
        .iter()
        .map(|(pair, by_puzzle)| {
            let count = |s: Status| by_puzzle.values().filter(|c| c.status == s).count();
            let mut times: Vec<f64> = by_puzzle.values().map(|c| c.time_ms).collect();
            times.sort_by(f64::total_cmp);
            let par2_ms: f64 = by_puzzle.values().map(Cell::par2_ms).sum();
            // Compared with the virtual best over the puzzles it ran only.
            let best_here_ms: f64 = by_puzzle.keys().map(|p| best_ms(p)).sum();
            PairStats {
                solver: pair.solver.clone(),
                encoding: pair.encoding,
                solved: by_puzzle
                    .values()
                    .filter(|c| c.solved && c.status == Status::Sat)
                    .count(),
                unsat: count(Status::Unsat),
                timeout: count(Status::Timeout),
                unknown: count(Status::Unknown),
                error: count(Status::Error) + count(Status::Stopped),
                invalid_model: count(Status::InvalidModel),
                memout: count(Status::Memout),
                unsupported: count(Status::Unsupported),
                par2_s: secs(par2_ms),
                median_s: median_ms(&times) / 1000.0,
                total_s: secs(times.iter().sum()),
                only: solvers_of
                    .values()
                    .filter(|ps| ps.len() == 1 && ps[0] == pair)
                    .count(),
                compared: by_puzzle.len(),
                behind_best: by_puzzle
                    .iter()
                    .filter(|(p, c)| !c.solved && best.contains_key(p.as_str()))
                    .count(),
                par2_over_best_s: secs(par2_ms) - secs(best_here_ms),
            }
        })
        .collect();

    let mut disagreements = Vec::new();
    let mut invalid_models = Vec::new();
    let mut by_puzzle: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in seen.values() {
        by_puzzle.entry(r.puzzle.as_str()).or_default().push(r);
        if r.status == Status::InvalidModel {
            invalid_models.push(format!(
                "{}: {}: {}",
                r.key(),
                r.status.name(),
                r.error.as_deref().unwrap_or("")
            ));
        }
    }
    for (puzzle, rs) in by_puzzle {
        for r in rs.iter().filter(|r| r.refuted) {
            // The run's error says what refutes it: the file's solution
            // or propagation's whole grid.
            disagreements.push(format!(
                "{puzzle}: {}/{} (repeat {}) says there is no solution: {}",
                r.solver,
                r.encoding,
                r.repeat,
                r.error
                    .as_deref()
                    .unwrap_or("unsat, but a solution the checker accepts is known")
            ));
        }
        let sat = rs.iter().find(|r| r.status == Status::Sat && r.verified);
        let unsat = rs.iter().find(|r| r.status == Status::Unsat);
        if let (Some(s), Some(u)) = (sat, unsat) {
            disagreements.push(format!(
                "{puzzle}: {}/{} (repeat {}) found a verified solution but {}/{} (repeat {}) says \
                 there is none",
                s.solver, s.encoding, s.repeat, u.solver, u.encoding, u.repeat
            ));
        }
    }

    Summary {
        puzzles: puzzles.len(),
        runs: seen.len(),
        repeats: u32::try_from(repeats).unwrap_or(u32::MAX),
        pairs: stats,
        virtual_best,
        disagreements,
        invalid_models,
        missing_runs,
        missing,
        duplicate_runs,
        duplicates,
        noisy,
        cells,
    }
}

fn secs(ms: f64) -> f64 {
    ms / 1000.0
}

fn median_ms(sorted: &[f64]) -> f64 {
    super::stats::median(sorted)
}

/// A difference of times in seconds, short, with its sign: `+0.012`,
/// `-1.23`.
fn signed(s: f64) -> String {
    let t = short(s.abs());
    if s < 0.0 && t.chars().any(|c| c.is_ascii_digit() && c != '0') {
        format!("-{t}")
    } else {
        format!("+{t}")
    }
}

/// A time in seconds, short: `0.012`, `1.23`, `45.6`, `1234`.
fn short(s: f64) -> String {
    if s.abs() < 10.0 {
        format!("{s:.3}")
    } else if s.abs() < 100.0 {
        format!("{s:.2}")
    } else {
        format!("{s:.0}")
    }
}

impl Summary {
    /// Counts as missing the runs of `list` that are still to make, in
    /// place of those [`summarize`] infers: a bench that stopped knows what
    /// it meant to run, and the puzzles it never reached are in no record.
    /// `list.done` must hold every run recorded. The count is
    /// [`RunList::runs`]; the walk stops at the first `NAMED` names, so a
    /// huge `--repeat` costs no more than its progress bar did.
    pub fn missing_from(&mut self, list: RunList<'_>) {
        self.missing_runs = list.runs();
        self.missing = list
            .groups()
            .flat_map(|g| {
                g.pairs.into_iter().map(move |(solver, encoding)| RunKey {
                    puzzle: list.puzzles[g.puzzle].clone(),
                    solver: list.solvers[solver].to_string(),
                    encoding,
                    repeat: g.repeat,
                })
            })
            .take(NAMED)
            .map(|k| k.to_string())
            .collect();
    }

    /// Whether the records show something wrong: a disagreement or an
    /// invalid model.
    pub fn failed(&self) -> bool {
        !self.disagreements.is_empty() || !self.invalid_models.is_empty()
    }

    /// The text table, the virtual-best line and the findings.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let head: Vec<&str> = PAIR_HEAD.iter().copied().chain(["vs best"]).collect();
        let rows: Vec<Vec<String>> = self
            .pairs
            .iter()
            .map(|p| {
                let over = if p.compared < self.puzzles {
                    format!(" ({} of {} puzzles run)", p.compared, self.puzzles)
                } else {
                    String::new()
                };
                // Labels and names come from files: shown escaped.
                let label = format!("{}/{}", escape_controls(&p.solver), p.encoding);
                let mut row = p.cells(label);
                row.push(format!(
                    "{} s, {} behind{over}",
                    signed(p.par2_over_best_s),
                    p.behind_best
                ));
                row
            })
            .collect();
        let widths: Vec<usize> = (0..head.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([head[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut l = String::new();
            for (i, c) in cells.iter().enumerate() {
                if i == 0 || i == cells.len() - 1 {
                    let _ = write!(l, "{c:<w$}  ", w = widths[i]);
                } else {
                    let _ = write!(l, "{c:>w$}  ", w = widths[i]);
                }
            }
            l.trim_end().to_string() + "\n"
        };
        let head: Vec<String> = head.iter().map(|h| h.to_string()).collect();
        s.push_str(&line(&head));
        for r in &rows {
            s.push_str(&line(r));
        }
        let vb = &self.virtual_best;
        let fastest: Vec<String> = vb
            .fastest
            .iter()
            .map(|(p, n)| format!("{} {n}", escape_controls(p)))
            .collect();
        let _ = writeln!(
            s,
            "virtual best: {} of {} puzzles solved, PAR-2 {} s; fastest per puzzle: {}",
            vb.solved,
            self.puzzles,
            short(vb.par2_s),
            if fastest.is_empty() {
                "none".into()
            } else {
                fastest.join(", ")
            }
        );
        let _ = writeln!(
            s,
            "{} runs: {} puzzles × {} pairs × {} repeat{} (times are the median run)",
            self.runs,
            self.puzzles,
            self.pairs.len(),
            self.repeats,
            if self.repeats == 1 { "" } else { "s" }
        );
        s.push_str(&self.findings());
        s
    }

    /// The warning about (puzzle, pair)s whose repeats vary a lot, the
    /// worst named; empty when there are none. It goes to standard error
    /// in every format, so that no output mixes it with the data.
    pub fn spread_warning(&self) -> String {
        let mut s = String::new();
        if !self.noisy.is_empty() {
            let _ = writeln!(
                s,
                "warning: {} (puzzle, pair){} vary a lot between repeats (σ over {:.0} % of \
                 the mean); their medians are doubtful: rerun them on a quieter machine or with \
                 more --repeat",
                self.noisy.len(),
                if self.noisy.len() == 1 { "" } else { "s" },
                Spread::LARGE_CV * 100.0
            );
            for (puzzle, pair, spread) in self.noisy.iter().take(NAMED) {
                let _ = writeln!(
                    s,
                    "  {} {}: {}",
                    escape_controls(puzzle),
                    escape_controls(pair),
                    spread.describe()
                );
            }
            if self.noisy.len() > NAMED {
                let _ = writeln!(s, "  … and {} more", self.noisy.len() - NAMED);
            }
        }
        s
    }

    /// Disagreements, invalid models, missing and duplicated runs, one
    /// line each (a long list of missing or duplicated runs is cut).
    pub fn findings(&self) -> String {
        let mut s = String::new();
        for d in &self.disagreements {
            let _ = writeln!(s, "SOLVERS DISAGREE: {}", escape_controls(d));
        }
        for i in &self.invalid_models {
            let _ = writeln!(s, "INVALID MODEL: {}", escape_controls(i));
        }
        for (what, count, named) in [
            ("missing", self.missing_runs, &self.missing),
            ("duplicated", self.duplicate_runs, &self.duplicates),
        ] {
            // A shard's summary forgets its missing runs by emptying the
            // list: the other shards hold them.
            if named.is_empty() {
                continue;
            }
            let n = usize::try_from(count).unwrap_or(usize::MAX);
            let runs = plural(n, &format!("{what} run"), &format!("{what} runs"));
            let _ = writeln!(s, "{runs}:");
            for k in named {
                let _ = writeln!(s, "  {}", escape_controls(k));
            }
            if count > named.len() as u64 {
                let _ = writeln!(s, "  … and {} more", count - named.len() as u64);
            }
        }
        s
    }

    /// One CSV row per pair, then one for the virtual best.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "solver,encoding,solved,unsat,timeout,unknown,error,invalid_model,memout,unsupported,par2_s,median_s,total_s,only,behind_best,par2_over_best_s\n",
        );
        for p in &self.pairs {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{:.3},{:.3},{:.3},{},{},{:.3}",
                csv_field(&p.solver),
                p.encoding,
                p.solved,
                p.unsat,
                p.timeout,
                p.unknown,
                p.error,
                p.invalid_model,
                p.memout,
                p.unsupported,
                p.par2_s,
                p.median_s,
                p.total_s,
                p.only,
                p.behind_best,
                p.par2_over_best_s
            );
        }
        let vb = &self.virtual_best;
        let _ = writeln!(
            s,
            "virtual-best,,{},,,,,,,,{:.3},,,,0,0.000",
            vb.solved, vb.par2_s
        );
        s
    }

    /// The whole summary as one JSON object.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// How a summary is shown: one exporter per format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryFormat {
    /// The text table ([`Summary::table`]), findings included.
    Table,
    /// CSV rows ([`Summary::csv`]).
    Csv,
    /// One JSON document ([`Summary::json`]).
    Json,
    /// A GitHub-flavoured Markdown table ([`Table::markdown`]).
    Markdown,
    /// A LaTeX tabular with booktabs rules ([`Table::latex`]).
    Latex,
}

impl SummaryFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [SummaryFormat; 5] = [
        SummaryFormat::Table,
        SummaryFormat::Csv,
        SummaryFormat::Json,
        SummaryFormat::Markdown,
        SummaryFormat::Latex,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SummaryFormat::Table => "table",
            SummaryFormat::Csv => "csv",
            SummaryFormat::Json => "json",
            SummaryFormat::Markdown => "markdown",
            SummaryFormat::Latex => "latex",
        }
    }

    /// `summary` in this format.
    pub fn export(self, summary: &Summary) -> String {
        match self {
            SummaryFormat::Table => summary.table(),
            SummaryFormat::Csv => summary.csv(),
            SummaryFormat::Json => summary.json(),
            SummaryFormat::Markdown => summary.summary_table().markdown(),
            SummaryFormat::Latex => summary.summary_table().latex(),
        }
    }

    /// `table` (e.g. [`Summary::per_puzzle`]) in this format.
    pub fn export_table(self, table: &Table) -> String {
        match self {
            SummaryFormat::Table => table.text(),
            SummaryFormat::Csv => table.csv(),
            SummaryFormat::Json => serde_json::to_string_pretty(table).unwrap_or_default() + "\n",
            SummaryFormat::Markdown => table.markdown(),
            SummaryFormat::Latex => table.latex(),
        }
    }

    /// Whether the findings (disagreements, invalid models, missing runs)
    /// are part of the output; otherwise they go to standard error.
    pub fn holds_findings(self) -> bool {
        self == SummaryFormat::Table
    }
}

/// Orders puzzle names as a reader expects: runs of digits by their value,
/// so `top95.txt:2` comes before `top95.txt:10` (a plain string order put
/// line 10 first in the per-puzzle tables of a lines file).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering::Equal;
    let (ra, rb) = (runs(a), runs(b));
    for (x, y) in ra.iter().zip(&rb) {
        let order = match (
            x.as_bytes()[0].is_ascii_digit(),
            y.as_bytes()[0].is_ascii_digit(),
        ) {
            (true, true) => {
                // Any length: compare without leading zeros, shorter first.
                let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x.len().cmp(&y.len()).then_with(|| x.cmp(y))
            }
            _ => x.cmp(y),
        };
        if order != Equal {
            return order;
        }
    }
    ra.len().cmp(&rb.len()).then_with(|| a.cmp(b))
}

/// `s` cut into maximal runs of ASCII digits and of everything else.
fn runs(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut digits = None;
    for (i, c) in s.char_indices() {
        let d = c.is_ascii_digit();
        if digits.is_some_and(|was| was != d) {
            out.push(&s[start..i]);
            start = i;
        }
        digits = Some(d);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{Machine, Settings};
    use crate::puzzle::Kind;
    use crate::solve::RunMode;

    fn rec(puzzle: &str, solver: &str, status: Status, time_ms: u64, repeat: u32) -> Record {
        Record {
            puzzle: puzzle.into(),
            kind: Kind::Sudoku,
            size: "4x4".into(),
            solver: solver.into(),
            solver_version: None,
            encoding: Encoding::Onehot,
            mode: RunMode::Process,
            status,
            verified: status == Status::Sat,
            time_ms: time_ms as f64,
            measured: Default::default(),
            settings: Settings {
                timeout_ms: 1000,
                memory_limit_mb: None,
                plain: Some(false),
                asked_mode: Some(RunMode::Process),
                asked_stats: None,
            },
            memory_limit_by: None,
            repeat,
            machine: Machine::this(),
            date: None,
            error: None,
            refuted: false,
        }
    }

    /// Regression: the per-puzzle tables of the top95 bench listed
    /// `top95.txt:10` … `top95.txt:19` before `top95.txt:2`.
    #[test]
    fn per_puzzle_rows_come_in_natural_order() {
        let names = ["t.txt:10", "t.txt:2", "t.txt:100", "t.txt:9", "a.toml"];
        let rs: Vec<Record> = names
            .iter()
            .map(|p| rec(p, "a", Status::Sat, 10, 0))
            .collect();
        let rows: Vec<String> = summarize(&rs)
            .per_puzzle()
            .rows
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
        assert_eq!(
            rows,
            ["a.toml", "t.txt:2", "t.txt:9", "t.txt:10", "t.txt:100"]
        );
        use std::cmp::Ordering::{Equal, Greater, Less};
        assert_eq!(
            natural_cmp("p007", "p7"),
            Less,
            "equal values: the text decides"
        );
        assert_eq!(natural_cmp("p7", "p7"), Equal);
        assert_eq!(
            natural_cmp("x:99999999999999999999999", "x:100000000000000000000000"),
            Less
        );
        assert_eq!(natural_cmp("killer-9x9", "killer-12x12"), Less);
        assert_eq!(natural_cmp("b", "a1"), Greater);
        assert_eq!(natural_cmp("", "a"), Less);
    }

    #[test]
    fn no_runs_give_a_plain_zero() {
        let t = summarize(&[]).table();
        assert!(t.contains("PAR-2 0.000 s"), "{t}");
    }

    #[test]
    fn par2_only_and_virtual_best() {
        let rs = [
            rec("p1", "a", Status::Sat, 100, 0),
            rec("p1", "b", Status::Sat, 50, 0),
            rec("p2", "a", Status::Sat, 300, 0),
            rec("p2", "b", Status::Timeout, 1000, 0),
            rec("p3", "a", Status::Unknown, 10, 0),
            rec("p3", "b", Status::Error, 10, 0),
        ];
        let s = summarize(&rs);
        let a = &s.pairs[0];
        assert_eq!((a.solver.as_str(), a.solved, a.unknown), ("a", 2, 1));
        // 0.1 + 0.3 + 2 × 1 s.
        assert!((a.par2_s - 2.4).abs() < 1e-9, "{}", a.par2_s);
        assert_eq!(a.only, 1);
        let b = &s.pairs[1];
        assert_eq!((b.solved, b.timeout, b.error, b.only), (1, 1, 1, 0));
        assert!((b.par2_s - 4.05).abs() < 1e-9, "{}", b.par2_s);
        // Best: p1 by b (0.05), p2 by a (0.3), p3 unsolved (2 s).
        assert_eq!(s.virtual_best.solved, 2);
        assert!((s.virtual_best.par2_s - 2.35).abs() < 1e-9);
        assert_eq!(b.behind_best, 1);
        assert!(s.disagreements.is_empty() && s.missing.is_empty());
        assert!(s.table().contains("virtual best: 2 of 3 puzzles solved"));
    }

    #[test]
    fn repeats_reduce_to_the_median_run() {
        let rs = [
            rec("p", "a", Status::Sat, 90, 0),
            rec("p", "a", Status::Timeout, 1000, 1),
            rec("p", "a", Status::Sat, 30, 2),
        ];
        let s = summarize(&rs);
        let c = &s.cells.values().next().expect("a pair")["p"];
        assert_eq!((c.status, c.time_ms), (Status::Sat, 90.0));
        assert_eq!(s.repeats, 3);
    }

    #[test]
    fn an_even_number_of_repeats_takes_the_mean_of_the_two_middle_runs() {
        let rs = [
            rec("p", "a", Status::Sat, 50, 0),
            rec("p", "a", Status::Sat, 10, 1),
            rec("p", "a", Status::Timeout, 1000, 2),
            rec("p", "a", Status::Sat, 30, 3),
            // Solved once, timed out once: half its runs solve it.
            rec("q", "a", Status::Sat, 100, 0),
            rec("q", "a", Status::Timeout, 1000, 1),
        ];
        let s = summarize(&rs);
        let cells = s.cells.values().next().expect("a pair");
        let p = &cells["p"];
        assert_eq!((p.status, p.solved, p.time_ms), (Status::Sat, true, 40.0));
        assert_eq!(p.par2_ms(), 40.0);
        let q = &cells["q"];
        assert_eq!((q.status, q.solved), (Status::Timeout, false));
        // The median of the PAR-2 times 100 and 2 × 1000.
        assert_eq!(q.par2_ms(), 1050.0);
        let a = &s.pairs[0];
        assert!((a.par2_s - 1.09).abs() < 1e-9, "{}", a.par2_s);
        assert_eq!(s.per_puzzle().rows[0][1], "0.040 ± 0.485");
    }

    #[test]
    fn disagreements_missing_and_duplicates_are_named() {
        let rs = [
            rec("p", "a", Status::Sat, 1, 0),
            rec("p", "b", Status::Unsat, 1, 0),
            rec("p", "b", Status::Unsat, 2, 0),
            rec("q", "a", Status::Sat, 1, 0),
        ];
        let s = summarize(&rs);
        assert_eq!(s.disagreements.len(), 1, "{:?}", s.disagreements);
        assert!(s.failed());
        assert_eq!(s.duplicates, ["p b/onehot repeat 0"]);
        assert_eq!(s.missing, ["q b/onehot repeat 0"]);
        let t = s.findings();
        assert!(t.contains("SOLVERS DISAGREE: p: a/onehot"), "{t}");
        assert!(t.contains("1 missing run:\n  q b/onehot repeat 0"), "{t}");
    }

    #[test]
    fn a_stopped_bench_counts_the_puzzles_it_never_reached_as_missing() {
        // Two of 3 puzzles × 2 solvers × 1,000 repeats were never reached:
        // the records alone know only puzzle p.
        let rs = [
            rec("p", "a", Status::Sat, 1, 0),
            rec("p", "b", Status::Sat, 1, 0),
        ];
        let mut s = summarize(&rs);
        assert_eq!(s.missing_runs, 0);
        let made: std::collections::HashSet<RunKey> = rs.iter().map(Record::key).collect();
        let puzzles = ["p".to_string(), "q".to_string(), "r".to_string()];
        s.missing_from(RunList {
            puzzles: &puzzles,
            solvers: &["a", "b"],
            encodings: &[Encoding::Onehot],
            repeats: 1_000,
            shard: None,
            done: &made,
            left_out: &[],
        });
        assert_eq!(s.missing_runs, 3 * 2 * 1_000 - 2);
        assert_eq!(s.missing.len(), NAMED);
        assert_eq!(
            s.missing[..2],
            ["q a/onehot repeat 0", "q b/onehot repeat 0"]
        );
        assert!(
            s.findings().contains("5998 missing runs:\n  q a/onehot"),
            "{}",
            s.findings()
        );
    }

    #[test]
    fn huge_times_from_a_file_do_not_overflow() {
        let mut slow = rec("p", "a", Status::Sat, u64::MAX, 0);
        slow.settings.timeout_ms = u64::MAX;
        let mut out = rec("q", "a", Status::Timeout, u64::MAX, 0);
        out.settings.timeout_ms = u64::MAX;
        let s = summarize(&[slow, out]);
        assert!(s.pairs[0].par2_s > 1e15, "{}", s.pairs[0].par2_s);
        assert!(s.table().contains("a/onehot"));
    }

    #[test]
    fn missing_runs_are_counted_not_listed() {
        // One run of repeat 9999 of 2 puzzles × 2 pairs: 40,000 runs, of
        // which 3 are recorded; only the first 20 missing are named.
        let rs = [
            rec("p", "a", Status::Sat, 1, 9_999),
            rec("q", "b", Status::Sat, 1, 0),
            rec("q", "b", Status::Sat, 1, 0),
        ];
        let s = summarize(&rs);
        assert_eq!(s.repeats, 10_000);
        assert_eq!(s.missing_runs, 2 * 2 * 10_000 - 2);
        assert_eq!(s.missing.len(), 20);
        assert_eq!(s.missing[0], "p a/onehot repeat 0");
        assert_eq!((s.duplicate_runs, s.duplicates.len()), (1, 1));
        let t = s.findings();
        assert!(t.contains("39998 missing runs:"), "{t}");
        assert!(t.contains("  … and 39978 more"), "{t}");
    }

    #[test]
    fn each_pair_is_compared_with_the_best_over_the_puzzles_it_ran() {
        // As in a shard: `a` ran p only (fastest there), `b` ran p and q.
        let rs = [
            rec("p", "a", Status::Sat, 100, 0),
            rec("p", "b", Status::Sat, 300, 0),
            rec("q", "b", Status::Sat, 500, 0),
        ];
        let s = summarize(&rs);
        let a = &s.pairs[0];
        assert_eq!((a.compared, a.behind_best), (1, 0));
        assert!(a.par2_over_best_s.abs() < 1e-9, "{}", a.par2_over_best_s);
        let b = &s.pairs[1];
        assert_eq!((b.compared, b.behind_best), (2, 0));
        assert!((b.par2_over_best_s - 0.2).abs() < 1e-9);
        let t = s.table();
        assert!(t.contains("+0.000 s, 0 behind (1 of 2 puzzles run)"), "{t}");
        assert!(!t.contains("+-"), "{t}");
    }

    #[test]
    fn text_from_a_file_is_shown_escaped() {
        let rs = [
            rec("\u{1b}]0;owned\u{7}p", "\u{1b}[31ma", Status::Sat, 1, 0),
            rec("q\u{1b}[2J", "b", Status::Unsat, 1, 0),
            rec("q\u{1b}[2J", "\u{1b}[31ma", Status::Sat, 1, 0),
        ];
        let s = summarize(&rs);
        for out in [s.table(), s.findings(), s.csv()] {
            assert!(!out.contains('\u{1b}'), "{out}");
            assert!(!out.contains('\u{7}'), "{out}");
        }
        assert!(s.table().contains("\\u{1b}[31ma/onehot"), "{}", s.table());
        assert!(s.findings().contains("SOLVERS DISAGREE: q\\u{1b}[2J"));
    }

    #[test]
    fn pairs_parse() {
        let p: Pair = "z3@debian/bv".parse().expect("a pair");
        assert_eq!((p.solver.as_str(), p.encoding), ("z3@debian", Encoding::Bv));
        assert!("z3".parse::<Pair>().is_err());
        assert!("z3/sat".parse::<Pair>().is_err());
    }
}

impl Summary {
    /// The summary as a [`Table`], for the Markdown, LaTeX, CSV and HTML
    /// exports: one row per pair, then the virtual best; the best PAR-2
    /// marked.
    pub fn summary_table(&self) -> Table {
        let head = PAIR_HEAD;
        let mut rows: Vec<Vec<String>> = self
            .pairs
            .iter()
            .map(|p| p.cells(format!("{}/{}", p.solver, p.encoding)))
            .collect();
        let best = self
            .pairs
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.par2_s.total_cmp(&b.1.par2_s))
            .map(|(i, _)| (i, 9));
        let vb = &self.virtual_best;
        let mut last = vec![String::new(); head.len()];
        last[0] = "virtual best".into();
        last[1] = vb.solved.to_string();
        last[9] = short(vb.par2_s);
        rows.push(last);
        Table {
            head: head.map(String::from).to_vec(),
            rows,
            marked: best.into_iter().collect(),
            numeric: (0..head.len()).map(|c| c > 0).collect(),
        }
    }

    /// One row per puzzle (in [`natural_cmp`] order), one column per pair:
    /// the time in seconds of a solved run (with ± σ over repeats), else
    /// its status; the fastest of each row marked.
    pub fn per_puzzle(&self) -> Table {
        let pairs: Vec<&Pair> = self.cells.keys().collect();
        let mut puzzles: Vec<&str> = self
            .cells
            .values()
            .flat_map(|c| c.keys().map(String::as_str))
            .collect::<BTreeSet<&str>>()
            .into_iter()
            .collect();
        puzzles.sort_by(|a, b| natural_cmp(a, b));
        let mut rows = Vec::new();
        let mut marked = Vec::new();
        for (r, puzzle) in puzzles.iter().enumerate() {
            let mut row = vec![puzzle.to_string()];
            let mut fastest: Option<(usize, f64)> = None;
            for (c, pair) in pairs.iter().enumerate() {
                let cell = self.cells[*pair].get(*puzzle);
                row.push(match cell {
                    None => "–".into(),
                    Some(cell) if cell.solved => {
                        if fastest.is_none_or(|(_, t)| cell.time_ms < t) {
                            fastest = Some((c + 1, cell.time_ms));
                        }
                        match cell.spread {
                            Some(sp) => format!(
                                "{} ± {}",
                                short(cell.time_ms / 1000.0),
                                short(sp.sd_ms / 1000.0)
                            ),
                            None => short(cell.time_ms / 1000.0),
                        }
                    }
                    Some(cell) => cell.status.name().into(),
                });
            }
            if let Some((c, _)) = fastest {
                marked.push((r, c));
            }
            rows.push(row);
        }
        let mut head = vec!["puzzle".to_string()];
        head.extend(pairs.iter().map(|p| p.to_string()));
        let numeric = (0..head.len()).map(|c| c > 0).collect();
        Table {
            head,
            rows,
            marked,
            numeric,
        }
    }

    /// `a` against `b` over the puzzles both have runs for (see
    /// [`Comparison`]); the reason when there is nothing to compare.
    pub fn compare(&self, a: &Pair, b: &Pair) -> Result<Comparison, String> {
        let get = |p: &Pair| {
            self.cells.get(p).ok_or_else(|| {
                format!(
                    "--compare: {} has no runs in these files (pairs: {})",
                    crate::error::escape_controls(&p.to_string()),
                    self.cells
                        .keys()
                        .map(|k| crate::error::escape_controls(&k.to_string()).into_owned())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        };
        let (ca, cb) = (get(a)?, get(b)?);
        let mut ta = Vec::new();
        let mut tb = Vec::new();
        let mut neither = 0;
        for (puzzle, x) in ca {
            let Some(y) = cb.get(puzzle) else { continue };
            if !x.solved && !y.solved {
                neither += 1;
                continue;
            }
            // Both ran on at least one puzzle one of them solved; PAR-2
            // times, floored at a microsecond for the ratio.
            ta.push(x.par2_ms().max(0.001));
            tb.push(y.par2_ms().max(0.001));
        }
        if ta.is_empty() {
            return Err(format!(
                "--compare: {a} and {b} have no puzzle in common that either solved"
            ));
        }
        let (ratio, low, high) = stats::ratio(&ta, &tb).unwrap_or((1.0, 1.0, 1.0));
        let diffs: Vec<f64> = ta.iter().zip(&tb).map(|(x, y)| y - x).collect();
        Ok(Comparison {
            a: a.to_string(),
            b: b.to_string(),
            puzzles: ta.len(),
            neither_solved: neither,
            ratio,
            ci_low: ratio_or(low, ratio),
            ci_high: ratio_or(high, ratio),
            wilcoxon: stats::wilcoxon(&diffs),
        })
    }
}

fn ratio_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() { x } else { fallback }
}

/// Two pairs compared (`report --compare A,B`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The first pair.
    pub a: String,
    /// The second pair.
    pub b: String,
    /// Puzzles both ran and at least one solved.
    pub puzzles: usize,
    /// Puzzles both ran and neither solved (left out).
    pub neither_solved: usize,
    /// How many times faster `a` is than `b`: the geometric mean of the
    /// per-puzzle PAR-2 time ratios `b / a`.
    pub ratio: f64,
    /// The 95 % bootstrap interval of `ratio`, low end.
    pub ci_low: f64,
    /// Its high end.
    pub ci_high: f64,
    /// The Wilcoxon signed-rank test of the paired times; `None` when
    /// every pair of times is equal.
    pub wilcoxon: Option<stats::Wilcoxon>,
}

impl Comparison {
    /// The sentence a reader can quote.
    pub fn sentence(&self) -> String {
        let esc = |s: &str| crate::error::escape_controls(s).into_owned();
        let (fast, slow, r, lo, hi) = if self.ratio >= 1.0 {
            (&self.a, &self.b, self.ratio, self.ci_low, self.ci_high)
        } else {
            (
                &self.b,
                &self.a,
                1.0 / self.ratio,
                1.0 / self.ci_high,
                1.0 / self.ci_low,
            )
        };
        let test = match &self.wilcoxon {
            Some(w) => format!(
                "Wilcoxon signed-rank {}{}",
                stats::quote_p(w.p),
                if w.exact { ", exact" } else { "" }
            ),
            None => "every paired time equal".into(),
        };
        let left_out = if self.neither_solved > 0 {
            format!(
                "; {} puzzle{} neither solved left out",
                self.neither_solved,
                if self.neither_solved == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        format!(
            "{} is {:.1}× faster than {} (geometric mean of per-puzzle PAR-2 time ratios, 95 % CI \
             {:.1}–{:.1} by bootstrap; {test}; {} puzzles{left_out})\n",
            esc(fast),
            r,
            esc(slow),
            lo,
            hi,
            self.puzzles
        )
    }
}
