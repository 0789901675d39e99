//! The command line: parses flags and wires the pipeline's stages
//! together. Each subcommand is a short function over the library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::encode::{Encoding, Options, encode};
use crate::error::{Error, Result};
use crate::lower::lower;
use crate::model::{Group, Rule};
use crate::parse::{self, InputFormat};
use crate::puzzle::{Kind, Puzzle};
use crate::render::grid_text;
use crate::solve::{EncodingChoice, Plan, PuzzleResult, Status, solve_all};
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
    /// Write a puzzle of any readable format as native TOML, to edit it.
    #[command(
        after_help = "Examples:\n  smtgrid convert games.sgt --to toml -o dir/\n  smtgrid convert top95.txt -o dir/\n  smtgrid convert keen.sgt > keen.toml"
    )]
    Convert(ConvertArgs),
    /// Print a puzzle as an SMT-LIB2 script.
    #[command(
        after_help = "Examples:\n  smtgrid emit puzzles/classic.toml\n  smtgrid emit puzzles/squares.toml --encoding onehot -o squares.smt2\n  smtgrid emit ../shared/datasets/top95.txt -o scripts-dir/"
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
}

#[derive(Debug, Args)]
struct InputArgs {
    /// Input format; by default taken from the extension, else the content.
    #[arg(long, value_name = "toml|lines|kakuro|sgt")]
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

/// What `convert` writes.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum OutputFormat {
    /// The native format, one TOML file per puzzle.
    Toml,
}

#[derive(Debug, Args)]
struct ConvertArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value = "toml")]
    to: OutputFormat,
    /// Write to FILE, or one file per puzzle into DIR (needed for a file of
    /// many puzzles).
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
    /// sudoku, killer, calcudoku, kakuro, jigsaw, futoshiki or skyscrapers.
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
    /// The encoding; `auto` races solver × encoding pairs and keeps the
    /// first verified answer; `all` runs every encoding.
    #[arg(
        long,
        short,
        default_value = "auto",
        value_name = "auto|lia|onehot|bv|all"
    )]
    encoding: String,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit per solver run, in seconds.
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
        Command::Convert(a) => convert(a),
        Command::Emit(a) => emit(a),
        Command::Inspect(a) => inspect(a),
        Command::New(a) => new(a),
        Command::Solvers(a) => solvers(a),
        Command::Solve(a) => solve(a),
    }
}

fn input_format(a: &InputArgs) -> Result<Option<InputFormat>> {
    match &a.input_format {
        None => Ok(None),
        Some(name) => InputFormat::from_name(name).map(Some).ok_or_else(|| {
            let names: Vec<&str> = InputFormat::ALL.iter().map(|f| f.name()).collect();
            Error::Usage(format!(
                "unknown --input-format `{name}`: use {}",
                names.join(", ")
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

/// A file name for one puzzle of an input: `top95.txt:3` becomes
/// `top95-3.EXT`.
fn puzzle_file_name(puzzle: &Puzzle, ext: &str) -> String {
    let base = puzzle.name.rsplit('/').next().unwrap_or(&puzzle.name);
    let base = base
        .replace(".txt:", "-")
        .replace(".sgt:", "-")
        .replace(':', "-");
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
        "{}.{ext}",
        clean.trim_end_matches(".toml").trim_end_matches(".kakuro")
    )
}

fn convert(a: ConvertArgs) -> Result<i32> {
    let puzzles = load(&a.puzzle, input_format(&a.input)?)?;
    match a.to {
        OutputFormat::Toml => write_each(
            &a.puzzle,
            &puzzles,
            a.output.as_deref(),
            "toml",
            parse::to_toml,
        )?,
    }
    Ok(0)
}

fn emit(a: EmitArgs) -> Result<i32> {
    let enc = one_encoding(&a.encoding)?;
    let opts = Options { plain: a.plain };
    let puzzles = load(&a.puzzle, input_format(&a.input)?)?;
    let script = |p: &Puzzle| encode(&lower(p), enc, &opts).script;
    write_each(&a.puzzle, &puzzles, a.output.as_deref(), "smt2", script)?;
    Ok(0)
}

/// Writes `text` of each puzzle: to standard output or `output` for one
/// puzzle, or to one `NAME.EXT` per puzzle when `output` is a directory.
fn write_each(
    source: &Path,
    puzzles: &[Puzzle],
    output: Option<&Path>,
    ext: &str,
    text: impl Fn(&Puzzle) -> String,
) -> Result<()> {
    match output {
        Some(dir) if dir.is_dir() => {
            for p in puzzles {
                write_file(&dir.join(puzzle_file_name(p, ext)), &text(p))?;
            }
            eprintln!(
                "smtgrid: wrote {} .{ext} files to {}",
                puzzles.len(),
                dir.display()
            );
        }
        _ if puzzles.len() > 1 => {
            return Err(Error::Usage(format!(
                "{} holds {} puzzles: give an existing directory with -o DIR to write one .{ext} per puzzle",
                source.display(),
                puzzles.len()
            )));
        }
        // The parser never returns an empty list; `first` keeps that
        // promise from becoming a panic here.
        Some(file) => {
            if let Some(p) = puzzles.first() {
                write_file(file, &text(p))?;
            }
        }
        None => {
            if let Some(p) = puzzles.first() {
                print!("{}", text(p));
            }
        }
    }
    Ok(())
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
    let kind = Kind::from_name(&a.kind)
        .ok_or_else(|| Error::Usage(format!("unknown kind `{}`: use {}", a.kind, Kind::names())))?;
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

fn solve(a: SolveArgs) -> Result<i32> {
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        return Err(Error::Usage(format!(
            "--timeout must be a positive number of seconds, not {}",
            a.timeout
        )));
    }
    let encodings = match a.encoding.as_str() {
        "auto" => EncodingChoice::Auto,
        name => EncodingChoice::These(encodings(name)?),
    };
    let format = input_format(&a.input)?;
    let mut puzzles = Vec::new();
    for path in &a.puzzles {
        puzzles.extend(load(path, format)?);
    }
    let mut request = a.solvers.request()?;
    if encodings == EncodingChoice::Auto && request.names.is_empty() {
        // auto races every installed solver unless told otherwise.
        request.names.push("all".into());
    }
    let mut solvers = request.solvers().map_err(Error::Usage)?;
    if encodings != EncodingChoice::Auto {
        // auto reads only the winner's version, after the race: a version
        // probe costs a process start (30 ms for z3).
        solver::read_versions(&mut solvers);
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    if jobs == 0 {
        return Err(Error::Usage("--jobs must be at least 1".into()));
    }
    let plan = Plan {
        solvers,
        encodings,
        options: Options { plain: a.plain },
        limits: Limits {
            timeout: Duration::from_secs_f64(a.timeout),
        },
        jobs,
        unique: a.unique,
    };
    let cancel = solver::install_ctrlc_handler();
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    solve_all(&puzzles, &plan, &cancel, |p, r| {
        failed |= r.disagreement.is_some()
            || r.runs.is_empty()
            || r.runs
                .iter()
                .any(|x| !matches!(x.status, Status::Sat | Status::Unsat | Status::Unsupported));
        if let Some(d) = &r.disagreement {
            eprintln!("smtgrid: SOLVERS DISAGREE on {}: {d}", p.name);
        }
        let _ = match a.format {
            Format::Json => r.runs.iter().try_for_each(|x| {
                writeln!(out, "{}", serde_json::to_string(x).unwrap_or_default())
            }),
            Format::Text => write!(out, "{}", text_result(p, r)),
        };
        let _ = out.flush();
    });
    if cancel.is_cancelled() {
        eprintln!("smtgrid: interrupted; every solver was stopped");
        return Ok(130);
    }
    Ok(if failed { 1 } else { 0 })
}

/// The text report of one puzzle: its verified grid(s), then a status line
/// per run.
fn text_result(p: &Puzzle, r: &PuzzleResult) -> String {
    let mut s = format!("== {} ==\n", describe(p));
    let mut shown: Vec<&crate::render::ValueGrid> = Vec::new();
    for run in &r.runs {
        if let Some(g) = &run.grid
            && !shown.contains(&g)
        {
            if !shown.is_empty() {
                s.push_str(&format!("another solution, from {}:\n", run.solver));
            }
            s.push_str(&grid_text(p, g));
            shown.push(g);
        }
    }
    for run in &r.runs {
        let version = run.solver_version.as_deref().unwrap_or("");
        let mut line = format!(
            "{:<18} {:<7} {:<14} {:>8} ms",
            format!("{} {version}", run.solver).trim_end().to_string(),
            run.encoding.name(),
            match run.status {
                Status::Sat if run.verified => "sat, verified".to_string(),
                st => st.name().to_string(),
            },
            run.time_ms
        );
        match run.unique {
            Some(true) => line.push_str("  unique"),
            Some(false) => line.push_str("  NOT unique"),
            None => {}
        }
        match run
            .grid
            .as_ref()
            .and_then(|g| crate::solve::matches_recorded(p, g))
        {
            Some(true) => line.push_str("  (= recorded solution)"),
            Some(false) => line.push_str("  (differs from the recorded solution)"),
            None => {}
        }
        if let Some(e) = &run.error {
            line.push_str(&format!("\n    {e}"));
        }
        s.push_str(&line);
        s.push('\n');
        if let Some(g) = &run.second_grid {
            s.push_str(&format!("a second solution, from {}:\n", run.solver));
            s.push_str(&grid_text(p, g));
        }
    }
    for o in &r.others {
        s.push_str(&format!("  also tried: {o}\n"));
    }
    if r.runs.is_empty() {
        s.push_str("no solver ran\n");
    }
    s.push('\n');
    s
}
