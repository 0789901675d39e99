//! The command line: parses flags and wires the pipeline's stages
//! together. Each subcommand is a short function over the library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::summary::{Pair, Summary, summarize};
use crate::bench::{Progress, Record, ResultsFile, RunKey, Shard};
use crate::encode::{Encoding, Options, encode};
use crate::error::{Error, Result};
use crate::lower::lower;
use crate::model::{Group, Rule};
use crate::parse::{self, InputFormat};
use crate::puzzle::{Kind, Puzzle};
use crate::render::grid_text;
use crate::solve::{MAX_TIMEOUT, Mode, Outcome, Plan, PuzzleResult, Uniqueness, solve_all};
use crate::solver::{self, Limits, SolverRequest};

/// Write a grid puzzle once; emit it as SMT-LIB2, run it on every installed
/// SMT solver, and get back a grid smtgrid's own checker has verified.
#[derive(Debug, Parser)]
#[command(name = "smtgrid", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  smtgrid solve puzzles/classic.toml\n  smtgrid solve puzzles/*.toml --solver all\n  smtgrid emit puzzles/calcudoku-hard.toml --encoding onehot -o hard.smt2\n  smtgrid new killer > my.toml"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a puzzle as an SMT-LIB2 script.
    #[command(
        after_help = "Examples:\n  smtgrid emit puzzles/classic.toml\n  smtgrid emit puzzles/squares.toml --encoding onehot -o squares.smt2\n  smtgrid emit puzzles/top95.txt -o scripts-dir/"
    )]
    Emit(EmitArgs),
    /// Show what a puzzle lowers and encodes into.
    #[command(
        after_help = "Examples:\n  smtgrid inspect puzzles/classic.toml\n  smtgrid inspect puzzles/calcudoku-hard.toml --encoding all --format json"
    )]
    Inspect(InspectArgs),
    /// Print a starter puzzle file of a kind.
    #[command(
        after_help = "Examples:\n  smtgrid new sudoku > mine.toml\n  smtgrid new sudoku --size 16\n  smtgrid new kakuro"
    )]
    New(NewArgs),
    /// List the solvers smtgrid knows and which are installed.
    #[command(
        after_help = "Examples:\n  smtgrid solvers\n  smtgrid solvers --format json\n  smtgrid solvers --solver z3@debian=/usr/bin/z3"
    )]
    Solvers(SolversArgs),
    /// Solve puzzles with one or more solvers and verify every answer.
    #[command(
        after_help = "Examples:\n  smtgrid solve puzzles/classic.toml\n  smtgrid solve puzzles/*.toml --solver all --encoding lia\n  smtgrid solve puzzles/classic.toml --unique --format json\n  smtgrid solve p.toml --solver z3,z3@debian=/usr/bin/z3\n  smtgrid solve p.toml --solver-cmd 'mysolver=/opt/bin/solve --smt2' --solver mysolver"
    )]
    Solve(SolveArgs),
    /// Run every puzzle × solver × encoding, record each run, summarise.
    #[command(
        after_help = "Examples:\n  smtgrid bench puzzles/*.toml --solver all --encoding all --timeout 20 --plot cactus.svg\n  smtgrid bench puzzles/top95.txt --solver yices2,z3 --encoding onehot --repeat 3 --out r.jsonl\n  smtgrid bench puzzles/top95.txt --solver all --out r-$K.jsonl --shard $K/4 --resume\n  smtgrid bench puzzles/*.toml --solver z3,yices2 --encoding onehot --scatter z3/onehot,yices2/onehot"
    )]
    Bench(BenchArgs),
    /// Summarise, tabulate and plot the results files of `bench`.
    #[command(
        after_help = "Examples:\n  smtgrid report results-*.jsonl\n  smtgrid report a.jsonl b.jsonl --format csv --plot cactus.svg"
    )]
    Report(ReportArgs),
}

#[derive(Debug, Args)]
struct InputArgs {
    /// Input format; by default taken from the extension, else the content.
    #[arg(long, value_name = "toml|lines|kakuro")]
    input_format: Option<String>,
}

#[derive(Debug, Args)]
struct EmitArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The encoding.
    #[arg(long, short, default_value = "lia", value_name = "lia|onehot|bv")]
    encoding: String,
    /// Emit the unsimplified form (no propagation of givens).
    #[arg(long)]
    plain: bool,
    /// Write to FILE, or one `.smt2` per puzzle into DIR (needed for a
    /// file of many puzzles).
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Debug, Args)]
struct InspectArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The encoding, or `all` for every one side by side.
    #[arg(long, short, default_value = "lia", value_name = "lia|onehot|bv|all")]
    encoding: String,
    /// Inspect the unsimplified form.
    #[arg(long)]
    plain: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Debug, Args)]
struct NewArgs {
    /// sudoku, killer, calcudoku or kakuro.
    kind: String,
    /// Grid size (default: the template's).
    #[arg(long)]
    size: Option<usize>,
}

#[derive(Debug, Args)]
struct SolverArgs {
    /// Solvers to use: names separated by commas, `all`, or `NAME=PATH` to
    /// point a solver at a binary (`z3@TAG=PATH` adds a second z3).
    /// Default: the first found of z3, cvc5, yices2.
    #[arg(long, value_name = "NAME,…|all|NAME=PATH")]
    solver: Vec<String>,
    /// Add a solver not in the table: `NAME=/path/bin ARGS…`; it gets the
    /// script's path as its last argument. Select it with `--solver NAME`.
    #[arg(long, value_name = "NAME=CMD")]
    solver_cmd: Vec<String>,
}

impl SolverArgs {
    fn request(&self) -> Result<SolverRequest> {
        // `--solver a,b=PATH` selects several; each may point at a binary.
        let names: Vec<String> = self
            .solver
            .iter()
            .flat_map(|s| s.split(',').filter(|x| !x.is_empty()).map(str::to_string))
            .collect();
        SolverRequest::parse(&names, &self.solver_cmd).map_err(Error::Usage)
    }
}

#[derive(Debug, Args)]
struct SolversArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    puzzles: Vec<PathBuf>,
    #[command(flatten)]
    solvers: SolverArgs,
    /// The encoding; `auto` races encodings (each named solver gives its
    /// own answer; without --solver, every installed solver races for one
    /// answer); `all` runs every encoding.
    #[arg(long, short, value_enum, default_value = "auto")]
    encoding: SolveEncoding,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit for one solver's answer to one puzzle, in seconds
    /// (at most 604800, a week); under `auto` a solver's encodings share it.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Solver processes run at once (default: the number of cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Ask each solver for a second solution to tell whether the found one
    /// is unique.
    #[arg(long)]
    unique: bool,
    /// Output format: text, or JSON Lines (one object per run).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SummaryFormat {
    Table,
    Csv,
    Json,
}

/// How `bench` and `report` show a summary.
#[derive(Debug, Args)]
struct SummaryArgs {
    /// Output format of the summary.
    #[arg(long, value_enum, default_value = "table")]
    format: SummaryFormat,
    /// Draw a cactus plot (one line per solver/encoding) into FILE.svg.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Draw a head-to-head scatter of two pairs, e.g. z3/onehot,yices2/onehot.
    #[arg(long, value_name = "A,B")]
    scatter: Option<String>,
    /// Where --scatter draws.
    #[arg(long, value_name = "FILE.svg", default_value = "scatter.svg")]
    scatter_out: PathBuf,
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    puzzles: Vec<PathBuf>,
    #[command(flatten)]
    solvers: SolverArgs,
    /// Encodings, separated by commas, or `all`.
    #[arg(long, short, default_value = "all", value_name = "E,…|all")]
    encoding: String,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit of one run, in seconds (at most 604800, a week).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Solver processes run at once (default: the number of cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Run each triple K times, interleaved; the median run counts.
    #[arg(long, default_value_t = 1, value_name = "K")]
    repeat: u32,
    /// Write each run to FILE (JSON Lines), flushed as each puzzle's runs
    /// finish.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Skip the runs already in --out and add the rest to it.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Run only the K-th (from 0) of N slices of the run list.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    summary: SummaryArgs,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Debug, Args)]
struct ReportArgs {
    /// Results files written by `bench --out`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    summary: SummaryArgs,
}

/// The encodings `solve` takes.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SolveEncoding {
    /// Race encodings in the measured order; keep the first definite answer.
    Auto,
    /// Integers (QF_LIA, or QF_NIA with products).
    Lia,
    /// One Bool per cell and value (QF_UF).
    Onehot,
    /// Bit-vectors (QF_BV).
    Bv,
    /// Every encoding, one answer each.
    All,
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("smtgrid: {e}");
            e.exit_code()
        }
    }
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Emit(a) => emit(a),
        Command::Inspect(a) => inspect(a),
        Command::New(a) => new(a),
        Command::Solvers(a) => solvers(a),
        Command::Solve(a) => solve(a),
        Command::Bench(a) => bench(a),
        Command::Report(a) => report(a),
    }
}

fn input_format(a: &InputArgs) -> Result<Option<InputFormat>> {
    match &a.input_format {
        None => Ok(None),
        Some(name) => InputFormat::from_name(name).map(Some).ok_or_else(|| {
            Error::Usage(format!(
                "unknown --input-format `{name}`: use toml, lines or kakuro"
            ))
        }),
    }
}

fn load(path: &Path, format: Option<InputFormat>) -> Result<Vec<Puzzle>> {
    Ok(parse::load(path, format)?)
}

fn one_encoding(name: &str) -> Result<Encoding> {
    Encoding::from_name(name)
        .ok_or_else(|| Error::Usage(format!("unknown encoding `{name}`: use lia, onehot or bv")))
}

fn encodings(name: &str) -> Result<Vec<Encoding>> {
    if name == "all" {
        Ok(Encoding::ALL.to_vec())
    } else {
        Ok(vec![one_encoding(name)?])
    }
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A file name for a puzzle's script: `top95.txt:3` becomes `top95-3.smt2`.
fn script_file_name(puzzle: &Puzzle) -> String {
    let base = puzzle.name.rsplit('/').next().unwrap_or(&puzzle.name);
    let base = base.replace(".txt:", "-").replace(':', "-");
    let clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "{}.smt2",
        clean.trim_end_matches(".toml").trim_end_matches(".kakuro")
    )
}

fn emit(a: EmitArgs) -> Result<i32> {
    let enc = one_encoding(&a.encoding)?;
    let opts = Options { plain: a.plain };
    let puzzles = load(&a.puzzle, input_format(&a.input)?)?;
    let script = |p: &Puzzle| encode(&lower(p), enc, &opts).script;
    match &a.output {
        Some(dir) if dir.is_dir() => {
            for p in &puzzles {
                write_file(&dir.join(script_file_name(p)), &script(p))?;
            }
            eprintln!(
                "smtgrid: wrote {} scripts to {}",
                puzzles.len(),
                dir.display()
            );
        }
        _ if puzzles.len() > 1 => {
            return Err(Error::Usage(format!(
                "{} holds {} puzzles: give an existing directory with -o DIR to write one .smt2 per puzzle",
                a.puzzle.display(),
                puzzles.len()
            )));
        }
        // The parser never returns an empty list; `first` keeps that
        // promise from becoming a panic here.
        Some(file) => {
            if let Some(p) = puzzles.first() {
                write_file(file, &script(p))?;
            }
        }
        None => {
            if let Some(p) = puzzles.first() {
                print!("{}", script(p));
            }
        }
    }
    Ok(0)
}

fn inspect(a: InspectArgs) -> Result<i32> {
    let encs = encodings(&a.encoding)?;
    let opts = Options { plain: a.plain };
    let puzzles = load(&a.puzzle, input_format(&a.input)?)?;
    let mut out = std::io::stdout().lock();
    for p in &puzzles {
        let m = lower(p);
        let givens = m
            .constraints
            .iter()
            .filter(|c| c.group == Group::Givens)
            .count();
        let fixed = m
            .constraints
            .iter()
            .filter(|c| matches!(c.rule, Rule::Fixed { .. }))
            .count();
        let scripts: Vec<_> = encs.iter().map(|&e| encode(&m, e, &opts)).collect();
        if a.format == Format::Json {
            let j = serde_json::json!({
                "puzzle": p.name,
                "title": p.title,
                "kind": p.kind,
                "rows": p.rows,
                "cols": p.cols,
                "cells": m.cells.len(),
                "unknown_cells": m.cells.len() - fixed,
                "givens": givens,
                "constraints": m.constraints.len(),
                "constraints_by_kind": m.counts_by_kind().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
                "encodings": scripts.iter().map(|s| serde_json::json!({
                    "encoding": s.encoding,
                    "logic": s.logic,
                    "declarations": s.declarations,
                    "assertions": s.assertions,
                    "bytes": s.script.len(),
                })).collect::<Vec<_>>(),
            });
            let _ = writeln!(out, "{j}");
            continue;
        }
        let _ = writeln!(out, "{}", describe(p));
        let _ = writeln!(
            out,
            "  cells:         {} ({} unknown, {} given)",
            m.cells.len(),
            m.cells.len() - fixed,
            givens
        );
        let kinds: Vec<String> = m
            .counts_by_kind()
            .into_iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "  constraints:   {} ({})",
            m.constraints.len(),
            kinds.join(", ")
        );
        let _ = writeln!(
            out,
            "  {:<9} {:<8} {:>12} {:>11} {:>10}",
            "encoding", "logic", "declarations", "assertions", "bytes"
        );
        for s in &scripts {
            let _ = writeln!(
                out,
                "  {:<9} {:<8} {:>12} {:>11} {:>10}",
                s.encoding.name(),
                s.logic,
                s.declarations,
                s.assertions,
                s.script.len()
            );
        }
    }
    Ok(0)
}

fn describe(p: &Puzzle) -> String {
    let title = p
        .title
        .as_ref()
        .map(|t| format!(" \"{t}\""))
        .unwrap_or_default();
    format!("{}{title}: {} {}x{}", p.name, p.kind.name(), p.rows, p.cols)
}

fn new(a: NewArgs) -> Result<i32> {
    let kind = Kind::from_name(&a.kind).ok_or_else(|| {
        Error::Usage(format!(
            "unknown kind `{}`: use sudoku, killer, calcudoku or kakuro",
            a.kind
        ))
    })?;
    let text = crate::templates::template(kind, a.size).map_err(Error::Usage)?;
    print!("{text}");
    Ok(0)
}

fn solvers(a: SolversArgs) -> Result<i32> {
    let req = a.solvers.request()?;
    let found = req.discover();
    let mut out = std::io::stdout().lock();
    if a.format == Format::Json {
        for f in &found {
            let j = serde_json::json!({
                "name": f.label,
                "found": f.path.is_some(),
                "version": f.version,
                "path": f.path,
                "logics": f.profile.logics,
                "tested": f.profile.tested,
                "custom": f.custom,
                "quirks": f.profile.quirks,
                "error": f.error,
            });
            let _ = writeln!(out, "{j}");
        }
        return Ok(0);
    }
    for f in &found {
        let state = match (&f.path, &f.version) {
            (Some(p), Some(v)) => format!("{v:<10} {}", p.display()),
            (Some(p), None) => format!("{:<10} {}", "?", p.display()),
            (None, _) => "not found".to_string(),
        };
        let mut notes = Vec::new();
        if f.custom {
            notes.push("custom".to_string());
        } else if !f.profile.tested {
            notes.push("untested".to_string());
        }
        if let Some(e) = &f.error {
            notes.push(e.clone());
        }
        let logics = if f.profile.logics.is_empty() {
            "any".into()
        } else {
            f.profile.logics.join(",")
        };
        let _ = writeln!(out, "{:<12} {state}", f.label);
        let _ = writeln!(
            out,
            "{:<12} logics: {logics}{}",
            "",
            if notes.is_empty() {
                String::new()
            } else {
                format!("  ({})", notes.join("; "))
            }
        );
        for q in &f.profile.quirks {
            let _ = writeln!(out, "{:<12} note: {q}", "");
        }
    }
    Ok(0)
}

/// `--timeout S` as a limit.
fn timeout(secs: f64) -> Result<Limits> {
    let max = MAX_TIMEOUT.as_secs_f64();
    if !(secs > 0.0 && secs <= max) {
        return Err(Error::Usage(format!(
            "--timeout must be a number of seconds above 0 and at most {max} (a week), not {secs}"
        )));
    }
    Ok(Limits {
        timeout: Duration::from_secs_f64(secs),
    })
}

/// `--jobs N`, by default the number of cores.
fn jobs(n: Option<usize>) -> Result<usize> {
    let jobs = n.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if jobs == 0 {
        return Err(Error::Usage("--jobs must be at least 1".into()));
    }
    Ok(jobs)
}

fn solve(a: SolveArgs) -> Result<i32> {
    let limits = timeout(a.timeout)?;
    let format = input_format(&a.input)?;
    let mut puzzles = Vec::new();
    for path in &a.puzzles {
        puzzles.extend(load(path, format)?);
    }
    let mut request = a.solvers.request()?;
    let named = !request.names.is_empty();
    let mode = match a.encoding {
        SolveEncoding::Auto if named => Mode::EachSolver,
        SolveEncoding::Auto => {
            // auto races every installed solver unless told otherwise.
            request.names.push("all".into());
            Mode::Portfolio
        }
        SolveEncoding::Lia => Mode::Fixed(vec![Encoding::Lia]),
        SolveEncoding::Onehot => Mode::Fixed(vec![Encoding::Onehot]),
        SolveEncoding::Bv => Mode::Fixed(vec![Encoding::Bv]),
        SolveEncoding::All => Mode::Fixed(Encoding::ALL.to_vec()),
    };
    let solvers = request.solvers().map_err(Error::Usage)?;
    let plan = Plan {
        solvers,
        mode,
        options: Options { plain: a.plain },
        limits,
        jobs: jobs(a.jobs)?,
        unique: a.unique,
    };
    let cancel = solver::install_ctrlc_handler();
    let mut failed = false;
    let mut write_error: Option<std::io::Error> = None;
    let mut out = std::io::stdout().lock();
    solve_all(puzzles.into_iter(), &plan, &cancel, |p, r| {
        failed |= !r.succeeded();
        for f in &r.findings {
            let _ = writeln!(std::io::stderr(), "smtgrid: {}: {}", p.name, f.message());
        }
        let written = match a.format {
            Format::Json => r.lines.iter().try_for_each(|l| {
                let line = serde_json::to_string(&l.run.report(p)).unwrap_or_default();
                writeln!(out, "{line}")
            }),
            Format::Text => write!(out, "{}", text_result(p, r)),
        }
        .and_then(|()| out.flush());
        match written {
            Ok(()) => std::ops::ControlFlow::Continue(()),
            Err(e) => {
                write_error = Some(e);
                std::ops::ControlFlow::Break(())
            }
        }
    });
    if cancel.is_cancelled() {
        let _ = writeln!(
            std::io::stderr(),
            "smtgrid: interrupted; every solver was stopped"
        );
        return Ok(130);
    }
    match write_error {
        // The reader has gone (`| head -1`): everything it wanted was
        // written, and nothing more is worth solving.
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Some(e) => Err(Error::Runtime(format!(
            "cannot write the results to standard output: {e}"
        ))),
        None => Ok(if failed { 1 } else { 0 }),
    }
}

/// The text report of one puzzle: its verified grid(s), then a status line
/// per result line, each followed by the other runs of its race.
fn text_result(p: &Puzzle, r: &PuzzleResult) -> String {
    let mut s = format!("== {} ==\n", describe(p));
    let mut shown: Vec<&crate::model::ValueGrid> = Vec::new();
    for line in &r.lines {
        if let Some(g) = line.run.outcome.grid()
            && !shown.contains(&g)
        {
            if !shown.is_empty() {
                s.push_str(&format!("another solution, from {}:\n", line.run.solver));
            }
            s.push_str(&grid_text(p, g));
            shown.push(g);
        }
    }
    for line in &r.lines {
        let run = &line.run;
        let version = run.version.as_deref().unwrap_or("");
        let mut text = format!(
            "{:<18} {:<7} {:<14} {:>8} ms",
            format!("{} {version}", run.solver).trim_end().to_string(),
            run.encoding.name(),
            match run.outcome {
                Outcome::Sat { .. } => "sat, verified",
                ref o => o.status().name(),
            },
            run.time_ms
        );
        match run.outcome.unique() {
            Some(true) => text.push_str("  unique"),
            Some(false) => text.push_str("  NOT unique"),
            None => {}
        }
        match run
            .outcome
            .grid()
            .and_then(|g| crate::solve::matches_recorded(p, g))
        {
            Some(true) => text.push_str("  (= recorded solution)"),
            Some(false) => text.push_str("  (differs from the recorded solution)"),
            None => {}
        }
        if let Some(e) = run.outcome.message() {
            text.push_str(&format!("\n    {e}"));
        }
        s.push_str(&text);
        s.push('\n');
        if let Outcome::Sat {
            unique: Some(Uniqueness::NotUnique(g)),
            ..
        } = &run.outcome
        {
            s.push_str(&format!("a second solution, from {}:\n", run.solver));
            s.push_str(&grid_text(p, g));
        }
        for o in &line.also {
            s.push_str(&format!("  also tried: {}\n", o.describe()));
        }
    }
    if r.lines.is_empty() {
        s.push_str("no solver ran\n");
    }
    s.push('\n');
    s
}

fn bench(a: BenchArgs) -> Result<i32> {
    let limits = timeout(a.timeout)?;
    if a.repeat == 0 {
        return Err(Error::Usage("--repeat must be at least 1".into()));
    }
    let encodings = if a.encoding == "all" {
        Encoding::ALL.to_vec()
    } else {
        a.encoding
            .split(',')
            .map(one_encoding)
            .collect::<Result<Vec<_>>>()?
    };
    let shown = check_summary_args(&a.summary)?;
    let format = input_format(&a.input)?;
    let mut puzzles = Vec::new();
    for path in &a.puzzles {
        puzzles.extend(load(path, format)?);
    }
    let solvers = a.solvers.request()?.solvers().map_err(Error::Usage)?;
    for p in shown.iter().flat_map(|(x, y)| [x, y]) {
        if !solvers.iter().any(|s| s.label == p.solver) || !encodings.contains(&p.encoding) {
            return Err(Error::Usage(format!(
                "--scatter {p}: that pair is not benchmarked; pick two of --solver × --encoding"
            )));
        }
    }
    let (mut file, mut records) = match &a.out {
        Some(path) => {
            let (f, r) = ResultsFile::open(path, a.resume)?;
            (Some(f), r)
        }
        None => (None, Vec::new()),
    };
    let done: std::collections::HashSet<RunKey> = records.iter().map(Record::key).collect();
    let labels: Vec<&str> = solvers.iter().map(|s| s.label.as_str()).collect();
    let groups = crate::bench::run_list(&puzzles, &labels, &encodings, a.repeat, a.shard, &done);
    let plan = Plan {
        solvers,
        mode: Mode::Fixed(encodings),
        options: Options { plain: a.plain },
        limits,
        jobs: jobs(a.jobs)?,
        unique: false,
    };
    let total = groups.iter().map(|g| g.pairs.len() as u64).sum();
    let mut progress = Progress::new(total);
    let cancel = solver::install_ctrlc_handler();
    let mut write_error = None;
    crate::bench::run(&puzzles, &groups, &plan, &cancel, |g, new| {
        progress.add(g.pairs.len(), &new);
        for r in &new {
            if let Some(f) = &mut file
                && let Err(e) = f.append(r)
            {
                write_error = Some(e);
                return std::ops::ControlFlow::Break(());
            }
        }
        records.extend(new);
        std::ops::ControlFlow::Continue(())
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    if cancel.is_cancelled() {
        let kept = match &a.out {
            Some(p) => format!(
                "; the finished runs are in {}: add --resume to make the rest",
                p.display()
            ),
            None => String::new(),
        };
        eprintln!("smtgrid: interrupted; every solver was stopped{kept}");
        return Ok(130);
    }
    let mut summary = summarize(&records);
    if a.shard.is_some() {
        // The other shards hold the rest: nothing is missing here.
        summary.missing.clear();
    }
    show_summary(&summary, &a.summary, shown)?;
    Ok(if summary.failed() { 1 } else { 0 })
}

fn report(a: ReportArgs) -> Result<i32> {
    let shown = check_summary_args(&a.summary)?;
    let mut records = Vec::new();
    for path in &a.files {
        let loaded = crate::bench::read_results(path)?;
        if let Some(at) = loaded.cut_off {
            eprintln!("smtgrid: {at}: ignoring a cut-off last line (an interrupted write)");
        }
        records.extend(loaded.records);
    }
    if records.is_empty() {
        return Err(Error::Usage(
            "the files hold no runs: give results files written by `smtgrid bench --out`".into(),
        ));
    }
    let summary = summarize(&records);
    show_summary(&summary, &a.summary, shown)?;
    let incomplete = !summary.missing.is_empty() || !summary.duplicates.is_empty();
    Ok(if summary.failed() || incomplete { 1 } else { 0 })
}

/// Checks the plot file names and the --scatter pairs before any work.
fn check_summary_args(a: &SummaryArgs) -> Result<Option<(Pair, Pair)>> {
    if let Some(p) = &a.plot {
        crate::bench::plot::check_path(p)?;
    }
    let Some(spec) = &a.scatter else {
        return Ok(None);
    };
    crate::bench::plot::check_path(&a.scatter_out)?;
    let pairs: Vec<&str> = spec.split(',').collect();
    let [x, y] = pairs[..] else {
        return Err(Error::Usage(format!(
            "--scatter takes two pairs, A,B (e.g. z3/onehot,yices2/onehot), not `{spec}`"
        )));
    };
    let parse = |p: &str| p.trim().parse::<Pair>().map_err(Error::Usage);
    Ok(Some((parse(x)?, parse(y)?)))
}

/// Prints the summary on stdout (findings on stderr too, outside the
/// table) and draws the plots.
fn show_summary(s: &Summary, a: &SummaryArgs, scatter: Option<(Pair, Pair)>) -> Result<()> {
    let text = match a.format {
        SummaryFormat::Table => s.table(),
        SummaryFormat::Csv => s.csv(),
        SummaryFormat::Json => s.json(),
    };
    if a.format != SummaryFormat::Table {
        eprint!("{}", s.findings());
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(Error::Runtime(format!(
            "cannot write the summary to standard output: {e}"
        )));
    }
    if let Some(path) = &a.plot {
        crate::bench::plot::write(path, &crate::bench::plot::cactus(s)?)?;
    }
    if let Some((x, y)) = scatter {
        crate::bench::plot::write(&a.scatter_out, &crate::bench::plot::scatter(s, &x, &y)?)?;
    }
    Ok(())
}
