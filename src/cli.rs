//! The command line: parses flags and wires the pipeline's stages
//! together. Each subcommand is a short function over the library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::summary::{Pair, Summary, summarize};
use crate::bench::{Progress, Record, ResultsFile, RunKey, Shard};
use crate::encode::{Encoding, Options, encode_cancellable};
use crate::error::{Error, Result, escape_controls};
use crate::lower::lower;
use crate::model::{Group, Rule};
use crate::output::{Stdout, note, same_file, write_file_atomically};
use crate::parse::{self, InputFormat};
use crate::puzzle::{Kind, Puzzle};
use crate::render::{TextStyle, grid_text, svg::svg};
use crate::solve::{
    MAX_TIMEOUT, Mode, Outcome, Plan, PuzzleResult, RunMode, SessionUse, Uniqueness, solve_all,
};
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
    /// Draw a puzzle as an SVG picture, as printed puzzles look.
    #[command(
        after_help = "Examples:\n  smtgrid render puzzles/killer-9x9.toml -o killer.svg\n  smtgrid render puzzles/calcudoku-hard.toml --solve -o solved.svg\n  smtgrid render puzzles/top95.txt -o pictures/"
    )]
    Render(RenderArgs),
}

#[derive(Debug, Args)]
struct RenderArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// Write to FILE, or one `.svg` per puzzle into DIR (needed for a file
    /// of many puzzles); standard output otherwise.
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    /// Solve the puzzle (every installed solver races, as `solve` does)
    /// and draw the verified solution in blue.
    #[arg(long)]
    solve: bool,
    /// Wall-clock limit for solving, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    #[command(flatten)]
    solvers: SolverArgs,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Debug, Args)]
struct InputArgs {
    /// Input format; by default taken from the extension, else the content.
    #[arg(long)]
    input_format: Option<InputFormat>,
    /// Read at most this many MB (2^20 bytes) of one input, counted after
    /// decompressing a .gz.
    #[arg(long, value_name = "MB", default_value_t = parse::DEFAULT_MAX_INPUT_MB,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_input_mb: u64,
}

// The CLI's choices are the library's own enums, so a message that lists
// the allowed values (clap writes it) lists every one.
macro_rules! value_enum_from_all {
    ($($ty:ty),+) => {$(
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &<$ty>::ALL
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.name()))
            }
        }
    )+};
}

value_enum_from_all!(InputFormat, Encoding, Kind, RunMode);

/// One encoding, or `all` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encodings {
    One(Encoding),
    All,
}

impl Encodings {
    fn list(self) -> Vec<Encoding> {
        match self {
            Encodings::One(e) => vec![e],
            Encodings::All => Encoding::ALL.to_vec(),
        }
    }
}

impl ValueEnum for Encodings {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Encodings::One(Encoding::Lia),
            Encodings::One(Encoding::Onehot),
            Encodings::One(Encoding::Bv),
            Encodings::All,
        ]
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(match self {
            Encodings::One(e) => e.name(),
            Encodings::All => "all",
        }))
    }
}

#[derive(Debug, Args)]
struct EmitArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The encoding.
    #[arg(long, short, default_value = "lia")]
    encoding: Encoding,
    /// Emit the unsimplified form (no propagation of givens).
    #[arg(long)]
    plain: bool,
    /// Write to FILE, or one `.smt2` per puzzle into DIR (needed for a
    /// file of many puzzles): an existing directory, or a path ending in
    /// `/`. Files are replaced whole or not at all.
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
    #[arg(long, short, default_value = "lia")]
    encoding: Encodings,
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
    /// The kind of puzzle.
    kind: Kind,
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
        let mut names = Vec::new();
        for value in &self.solver {
            for name in value.split(',') {
                if name.trim().is_empty() {
                    return Err(Error::Usage(format!(
                        "`--solver '{value}'` has an empty solver name; give NAME, NAME,NAME…, \
                         all, NAME=PATH or PROFILE@TAG=PATH"
                    )));
                }
                names.push(name.to_string());
            }
        }
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
    /// Solver processes run at once (default: the number of cores; twice
    /// that with `--mode incremental`).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Ask each solver for a second solution to tell whether the found one
    /// is unique.
    #[arg(long)]
    unique: bool,
    /// How solvers run: `process` gives each puzzle a solver process of its
    /// own; `incremental` keeps a solver per shape and asks each puzzle's
    /// givens under push/pop; `auto` does that from the second puzzle of a
    /// shape on. `--unique` always uses processes.
    #[arg(long, value_enum, default_value = "auto")]
    mode: SolveMode,
    /// Output format: text, or JSON Lines (one object per run).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write a picture of each solved puzzle, with its verified solution,
    /// into DIR (one `.svg` per puzzle).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Draw grids in plain ASCII even on a terminal (where cages and
    /// jigsaw regions are otherwise drawn with box-drawing characters).
    #[arg(long)]
    ascii: bool,
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
    /// Draw a cactus plot (one line per solver/encoding) into FILE: SVG, or
    /// PNG when its name ends in `.png`.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,
    /// Draw a head-to-head scatter of two pairs, e.g. z3/onehot,yices2/onehot.
    #[arg(long, value_name = "A,B")]
    scatter: Option<String>,
    /// Where --scatter draws (SVG, or PNG for a `.png` name).
    #[arg(long, value_name = "FILE.svg|FILE.png", default_value = "scatter.svg")]
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
    /// Solver processes run at once (default: the number of cores; twice
    /// that with `--mode incremental`).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Run each triple K times, interleaved; the median run counts.
    #[arg(long, default_value_t = 1, value_name = "K")]
    repeat: u32,
    /// How solvers run: a process per run, or incremental sessions that
    /// keep one solver per shape and ask each puzzle's givens under
    /// push/pop (solvers without an interactive mode still get processes;
    /// each record says how it ran).
    #[arg(long, default_value = "process")]
    mode: RunMode,
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

/// How `solve` runs solvers.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SolveMode {
    /// Sessions from the second puzzle of a shape on.
    Auto,
    /// A process per puzzle.
    Process,
    /// Sessions for every puzzle.
    Incremental,
}

impl SolveMode {
    fn sessions(self) -> SessionUse {
        match self {
            SolveMode::Auto => SessionUse::Repeated,
            SolveMode::Process => SessionUse::Never,
            SolveMode::Incremental => SessionUse::Always,
        }
    }
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
            return match e.print() {
                // `--help` and `--version` go to standard output, which
                // may be closed or full like any other.
                Err(w) if !e.use_stderr() => failed(Error::from_stdout(w)),
                _ if e.use_stderr() => 2,
                _ => 0,
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => failed(e),
    }
}

/// Reports `e` (unless there is nothing to report) and returns its exit
/// status.
fn failed(e: Error) -> i32 {
    if e.is_reported() {
        note(&e);
    }
    e.exit_code()
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Convert(a) => convert(a),
        Command::Emit(a) => emit(a),
        Command::Inspect(a) => inspect(a),
        Command::New(a) => new(a),
        Command::Solvers(a) => solvers(a),
        Command::Solve(a) => {
            stdin_once(&a.puzzles)?;
            solve(a)
        }
        Command::Render(a) => render(a),
        Command::Bench(a) => bench(a),
        Command::Report(a) => report(a),
    }
}

/// Refuses a second `-`: standard input can be read only once.
fn stdin_once(paths: &[PathBuf]) -> Result<()> {
    if paths.iter().filter(|p| *p == Path::new("-")).count() > 1 {
        return Err(Error::Usage(
            "`-` (standard input) is given more than once, but standard input can be read \
             only once; give `-` once"
                .into(),
        ));
    }
    Ok(())
}

/// The puzzles of `path`, parsed as they are read: a file of many puzzles
/// is never held whole.
fn open(path: &Path, a: &InputArgs) -> Result<parse::PuzzleStream> {
    let limits = parse::InputLimits::with_max_mb(a.max_input_mb);
    Ok(parse::open(path, a.input_format, limits)?)
}

/// The puzzles of every file in `paths`, in order, opened one after
/// another as the previous one runs out. The first input error ends the
/// stream and is kept in `error`, so that what came before it is still
/// solved and reported.
fn puzzles_of<'a>(
    paths: &'a [PathBuf],
    a: &'a InputArgs,
    error: &'a std::cell::RefCell<Option<Error>>,
) -> impl Iterator<Item = Puzzle> + 'a {
    paths
        .iter()
        .map_while(move |path| match open(path, a) {
            Ok(stream) => Some(stream),
            Err(e) => {
                error.borrow_mut().get_or_insert(e);
                None
            }
        })
        .flatten()
        .map_while(move |p| match p {
            Ok(p) => Some(p),
            Err(e) => {
                error.borrow_mut().get_or_insert(e.into());
                None
            }
        })
}

/// A file name for one puzzle's output with extension `ext`: `top95.txt:3`
/// becomes `top95-3.smt2`.
fn output_file_name(puzzle: &Puzzle, ext: &str) -> String {
    let base = puzzle.name.rsplit('/').next().unwrap_or(&puzzle.name);
    let base = base
        .replace(".txt.gz:", "-")
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

/// Where `emit` writes.
enum Target<'a> {
    Stdout,
    File(&'a Path),
    Dir(&'a Path),
}

/// Reads `-o`: an existing directory or a path ending in `/` is a
/// directory (which must exist), anything else a file in an existing
/// folder, never the input itself.
fn emit_target<'a>(output: Option<&'a Path>, input: &Path) -> Result<Target<'a>> {
    use std::os::unix::ffi::OsStrExt;
    let Some(path) = output else {
        return Ok(Target::Stdout);
    };
    if path.is_dir() {
        return Ok(Target::Dir(path));
    }
    if path.as_os_str().as_bytes().ends_with(b"/") {
        return Err(Error::Usage(format!(
            "-o {0}: there is no directory {0}; create it first (mkdir -p {0})",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(Error::Usage(format!(
            "-o {}: there is no directory {}; create it first",
            path.display(),
            folder.display()
        )));
    }
    not_the_input(path, input)?;
    Ok(Target::File(path))
}

fn not_the_input(output: &Path, input: &Path) -> Result<()> {
    if same_file(output, input) {
        return Err(Error::Usage(format!(
            "-o {}: that is the input file {}; write the script to another file",
            output.display(),
            input.display()
        )));
    }
    Ok(())
}

fn emit(a: EmitArgs) -> Result<i32> {
    let opts = Options { plain: a.plain };
    let target = emit_target(a.output.as_deref(), &a.puzzle)?;
    let puzzles = open(&a.puzzle, &a.input)?;
    let cancel = solver::install_ctrlc_handler();
    write_each(puzzles, target, &a.puzzle, "smt2", |_, p| {
        Ok(encode_cancellable(&lower(p), a.encoding, &opts, &cancel)?.script)
    })?;
    Ok(0)
}

fn convert(a: ConvertArgs) -> Result<i32> {
    let target = emit_target(a.output.as_deref(), &a.puzzle)?;
    let puzzles = open(&a.puzzle, &a.input)?;
    match a.to {
        OutputFormat::Toml => write_each(puzzles, target, &a.puzzle, "toml", |_, p| {
            Ok(parse::to_toml(p))
        })?,
    }
    Ok(0)
}

/// Writes `make(index, p)` for every puzzle to `target`: one `NAME.EXT` per
/// puzzle into a directory, or a file or standard output when there is
/// one puzzle. Never over the input file.
fn write_each<E: Into<Error>>(
    mut puzzles: impl Iterator<Item = std::result::Result<Puzzle, E>>,
    target: Target,
    input: &Path,
    ext: &str,
    make: impl Fn(usize, &Puzzle) -> Result<String>,
) -> Result<()> {
    if let Target::Dir(dir) = target {
        // One at a time: a file of many puzzles is never held whole.
        let mut n = 0;
        for p in puzzles {
            let p = p.map_err(Into::into)?;
            let file = dir.join(output_file_name(&p, ext));
            not_the_input(&file, input)?;
            write_file_atomically(&file, &make(n, &p)?)?;
            n += 1;
        }
        note(format_args!("wrote {n} .{ext} files to {}", dir.display()));
        return Ok(());
    }
    // The stream never starts empty; `None` stays no output, not a panic.
    let Some(p) = puzzles.next().transpose().map_err(Into::into)? else {
        return Ok(());
    };
    if puzzles.next().is_some() {
        return Err(Error::Usage(format!(
            "{} holds more than one puzzle: give a directory with -o DIR/ to write one .{ext} per puzzle",
            input.display()
        )));
    }
    let text = make(0, &p)?;
    match target {
        Target::File(file) => write_file_atomically(file, &text),
        _ => {
            let mut out = Stdout::new();
            out.write_str(&text)?;
            out.flush()
        }
    }
}

fn inspect(a: InspectArgs) -> Result<i32> {
    let encs = a.encoding.list();
    let opts = Options { plain: a.plain };
    let puzzles = open(&a.puzzle, &a.input)?;
    let cancel = solver::install_ctrlc_handler();
    let mut out = Stdout::new();
    for p in puzzles {
        let p = &p?;
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
        let scripts = encs
            .iter()
            .map(|&e| encode_cancellable(&m, e, &opts, &cancel))
            .collect::<std::result::Result<Vec<_>, _>>()?;
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
            writeln!(out, "{j}")?;
            continue;
        }
        writeln!(out, "{}", describe(p))?;
        writeln!(
            out,
            "  cells:         {} ({} unknown, {} given)",
            m.cells.len(),
            m.cells.len() - fixed,
            givens
        )?;
        let kinds: Vec<String> = m
            .counts_by_kind()
            .into_iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        writeln!(
            out,
            "  constraints:   {} ({})",
            m.constraints.len(),
            kinds.join(", ")
        )?;
        writeln!(
            out,
            "  {:<9} {:<8} {:>12} {:>11} {:>10}",
            "encoding", "logic", "declarations", "assertions", "bytes"
        )?;
        for s in &scripts {
            writeln!(
                out,
                "  {:<9} {:<8} {:>12} {:>11} {:>10}",
                s.encoding.name(),
                s.logic,
                s.declarations,
                s.assertions,
                s.script.len()
            )?;
        }
    }
    out.flush()?;
    Ok(0)
}

fn describe(p: &Puzzle) -> String {
    let title = p
        .title
        .as_ref()
        .map(|t| format!(" \"{}\"", escape_controls(t)))
        .unwrap_or_default();
    format!(
        "{}{title}: {} {}x{}",
        escape_controls(&p.name),
        p.kind.name(),
        p.rows,
        p.cols
    )
}

fn new(a: NewArgs) -> Result<i32> {
    let text = crate::templates::template(a.kind, a.size).map_err(Error::Usage)?;
    let mut out = Stdout::new();
    out.write_str(&text)?;
    out.flush()?;
    Ok(0)
}

fn solvers(a: SolversArgs) -> Result<i32> {
    let req = a.solvers.request()?;
    let cancel = solver::install_ctrlc_handler();
    let found = req.discover(&cancel);
    if cancel.is_cancelled() {
        return Ok(130);
    }
    let mut out = Stdout::new();
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
            writeln!(out, "{j}")?;
        }
        out.flush()?;
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
        writeln!(out, "{:<12} {state}", f.label)?;
        writeln!(
            out,
            "{:<12} logics: {logics}{}",
            "",
            if notes.is_empty() {
                String::new()
            } else {
                format!("  ({})", notes.join("; "))
            }
        )?;
        for q in &f.profile.quirks {
            writeln!(out, "{:<12} note: {q}", "")?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// `--timeout S` as a limit.
/// A limit below a millisecond could not even start a solver, and one
/// above a week overflows the clock arithmetic: both are refused before
/// anything starts.
fn timeout(secs: f64) -> Result<Limits> {
    let max = MAX_TIMEOUT.as_secs_f64();
    if !(0.001..=max).contains(&secs) {
        return Err(Error::Usage(format!(
            "--timeout must be a number of seconds from 0.001 to {max} (a week), not {secs}"
        )));
    }
    Ok(Limits::timeout(Duration::from_secs_f64(secs)))
}

/// `--jobs`, by default the number of cores; twice that for incremental
/// sessions, whose workers wait on their solver about half the time
/// (measured: 10,000 17-clue sudokus, yices2/onehot, 2 cores: best of
/// three 4.9 s with 2 jobs, 3.8 s with 4).
fn jobs(n: Option<usize>, sessions: SessionUse) -> Result<usize> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs = n.unwrap_or(match sessions {
        SessionUse::Always => 2 * cores,
        SessionUse::Never | SessionUse::Repeated => cores,
    });
    if jobs == 0 {
        return Err(Error::Usage("--jobs must be at least 1".into()));
    }
    Ok(jobs)
}

fn solve(a: SolveArgs) -> Result<i32> {
    let limits = timeout(a.timeout)?;
    let input_error = std::cell::RefCell::new(None);
    let puzzles = puzzles_of(&a.puzzles, &a.input, &input_error);
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
        jobs: jobs(a.jobs, a.mode.sessions())?,
        unique: a.unique,
        sessions: a.mode.sessions(),
    };
    let style = text_style(a.ascii);
    if let Some(dir) = &a.svg {
        existing_dir(dir)?;
    }
    let mut svg_error = None;
    let cancel = solver::install_ctrlc_handler();
    let mut failed = false;
    let mut write_error: Option<std::io::Error> = None;
    let mut out = std::io::stdout().lock();
    solve_all(puzzles, &plan, &cancel, |p, r| {
        if let (Some(dir), Some(grid)) = (&a.svg, r.lines.iter().find_map(|l| l.run.outcome.grid()))
        {
            let path = dir.join(output_file_name(p, "svg"));
            if let Err(e) = write_file_atomically(&path, &svg(p, Some(grid))) {
                svg_error.get_or_insert(e);
            }
        }
        failed |= !r.succeeded();
        for f in &r.findings {
            note(format_args!("{}: {}", p.name, f.message()));
        }
        let written = match a.format {
            Format::Json => r.lines.iter().try_for_each(|l| {
                let line = serde_json::to_string(&l.run.report(p)).unwrap_or_default();
                writeln!(out, "{line}")
            }),
            Format::Text => write!(out, "{}", text_result(p, r, style)),
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
        note("interrupted; every solver was stopped");
        return Ok(130);
    }
    if let Some(e) = input_error.into_inner() {
        return Err(e);
    }
    match write_error {
        // A closed pipe (`| head -1`) means the reader has all it wanted:
        // a quiet success; anything else is a failed write.
        Some(e) => Err(Error::from_stdout(e)),
        None => match svg_error {
            Some(e) => Err(e),
            None => Ok(if failed { 1 } else { 0 }),
        },
    }
}

/// Box-drawing cage and region borders on a terminal, plain ASCII
/// elsewhere or when asked.
fn text_style(ascii: bool) -> TextStyle {
    use std::io::IsTerminal;
    if ascii || !std::io::stdout().is_terminal() {
        TextStyle::Ascii
    } else {
        TextStyle::Boxes
    }
}

/// Fails unless `dir` is an existing directory.
fn existing_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "{} is not an existing directory: create it first",
            dir.display()
        )))
    }
}

fn render(a: RenderArgs) -> Result<i32> {
    let target = emit_target(a.output.as_deref(), &a.puzzle)?;
    let puzzles = open(&a.puzzle, &a.input)?.collect::<std::result::Result<Vec<_>, _>>()?;
    let mut solutions: Vec<Option<crate::render::ValueGrid>> = vec![None; puzzles.len()];
    let mut code = 0;
    if a.solve {
        let limits = timeout(a.timeout)?;
        let mut request = a.solvers.request()?;
        if request.names.is_empty() {
            request.names.push("all".into());
        }
        let plan = Plan {
            solvers: request.solvers().map_err(Error::Usage)?,
            mode: Mode::Portfolio,
            options: Options::default(),
            limits,
            jobs: jobs(None, SessionUse::Repeated)?,
            unique: false,
            sessions: SessionUse::Repeated,
        };
        let cancel = solver::install_ctrlc_handler();
        solve_all(puzzles.iter().cloned(), &plan, &cancel, |p, r| {
            // Only a grid the checker accepted is ever drawn.
            match r.lines.iter().find_map(|l| l.run.outcome.grid()) {
                Some(g) => solutions[r.index] = Some(g.clone()),
                None => {
                    note(format_args!(
                        "{}: no verified solution; drawing the puzzle alone",
                        p.name
                    ));
                    code = 1;
                }
            }
            std::ops::ControlFlow::Continue(())
        });
        if cancel.is_cancelled() {
            return Ok(130);
        }
    }
    write_each(
        puzzles.iter().cloned().map(Ok::<_, Error>),
        target,
        &a.puzzle,
        "svg",
        |i, p| Ok(svg(p, solutions.get(i).and_then(Option::as_ref))),
    )?;
    Ok(code)
}

/// The text report of one puzzle: its verified grid(s), then a status line
/// per result line, each followed by the other runs of its race.
fn text_result(p: &Puzzle, r: &PuzzleResult, style: TextStyle) -> String {
    let mut s = format!("== {} ==\n", describe(p));
    let mut shown: Vec<&crate::model::ValueGrid> = Vec::new();
    for line in &r.lines {
        if let Some(g) = line.run.outcome.grid()
            && !shown.contains(&g)
        {
            if !shown.is_empty() {
                s.push_str(&format!("another solution, from {}:\n", line.run.solver));
            }
            s.push_str(&grid_text(p, g, style));
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
            s.push_str(&grid_text(p, g, style));
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
            .map(|name| {
                Encoding::from_name(name).ok_or_else(|| {
                    Error::Usage(format!(
                        "unknown encoding `{name}`: use lia, onehot, bv, a list of them, or all"
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?
    };
    let shown = check_summary_args(&a.summary)?;
    // Files are read once for the run list and again for each repeat, so
    // only the puzzles in flight are held; standard input can be read only
    // once, so its puzzles are kept.
    let from_stdin = a.puzzles.iter().any(|p| p.as_os_str() == "-");
    let mut kept = Vec::new();
    let mut names = Vec::new();
    for path in &a.puzzles {
        for p in open(path, &a.input)? {
            let p = p?;
            names.push(p.name.clone());
            if from_stdin {
                kept.push(p);
            }
        }
    }
    let pass = || -> Box<dyn Iterator<Item = Result<Puzzle>> + '_> {
        if from_stdin {
            return Box::new(kept.iter().cloned().map(Ok));
        }
        Box::new(a.puzzles.iter().flat_map(|path| {
            let stream: Box<dyn Iterator<Item = Result<Puzzle>>> = match open(path, &a.input) {
                Ok(s) => Box::new(s.map(|p| p.map_err(Error::from))),
                Err(e) => Box::new(std::iter::once(Err(e))),
            };
            stream
        }))
    };
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
    let groups = crate::bench::run_list(&names, &labels, &encodings, a.repeat, a.shard, &done);
    drop(names);
    let sessions = match a.mode {
        RunMode::Process => SessionUse::Never,
        RunMode::Incremental => SessionUse::Always,
    };
    let plan = Plan {
        solvers,
        mode: Mode::Fixed(encodings),
        options: Options { plain: a.plain },
        limits,
        jobs: jobs(a.jobs, sessions)?,
        unique: false,
        sessions,
    };
    let total = groups.iter().map(|g| g.pairs.len() as u64).sum();
    let mut progress = Progress::new(total);
    let cancel = solver::install_ctrlc_handler();
    let mut write_error = None;
    let ran = crate::bench::run(pass, &groups, &plan, &cancel, |g, new| {
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
    ran?;
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
    let mut out = Stdout::new();
    match out.write_str(&text).and_then(|()| out.flush()) {
        // The reader has all it wanted; the plots are still drawn.
        Err(Error::OutputClosed) | Ok(()) => {}
        Err(e) => return Err(e),
    }
    if let Some(path) = &a.plot {
        crate::bench::plot::write(path, &crate::bench::plot::cactus(s)?)?;
    }
    if let Some((x, y)) = scatter {
        crate::bench::plot::write(&a.scatter_out, &crate::bench::plot::scatter(s, &x, &y)?)?;
    }
    Ok(())
}
