//! The command line: parses flags and wires the pipeline's stages
//! together. One module per command, each a short function over the
//! library; what they share (input, solver and summary flags, output
//! targets, limits) lives here.

mod bench;
mod convert;
mod emit;
mod inspect;
mod new;
mod render;
mod report;
mod solve;
mod solvers;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::summary::{Pair, Summary};
use crate::encode::Encoding;
use crate::error::{Error, Result};
use crate::output::{Stdout, note, same_file, write_file_atomically};
use crate::parse::{self, InputFormat};
use crate::puzzle::{Kind, Puzzle};
use crate::render::TextStyle;
use crate::solve::{MAX_TIMEOUT, RunMode, SessionUse};
use crate::solver::{Limits, SolverRequest};

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
    Convert(convert::ConvertArgs),
    /// Print a puzzle as an SMT-LIB2 script.
    #[command(
        after_help = "Examples:\n  smtgrid emit puzzles/classic.toml\n  smtgrid emit puzzles/squares.toml --encoding onehot -o squares.smt2\n  smtgrid emit puzzles/top95.txt -o scripts-dir/"
    )]
    Emit(emit::EmitArgs),
    /// Show what a puzzle lowers and encodes into.
    #[command(
        after_help = "Examples:\n  smtgrid inspect puzzles/classic.toml\n  smtgrid inspect puzzles/calcudoku-hard.toml --encoding all --format json"
    )]
    Inspect(inspect::InspectArgs),
    /// Print a starter puzzle file of a kind.
    #[command(
        after_help = "Examples:\n  smtgrid new sudoku > mine.toml\n  smtgrid new sudoku --size 16\n  smtgrid new kakuro"
    )]
    New(new::NewArgs),
    /// List the solvers smtgrid knows and which are installed.
    #[command(
        after_help = "Examples:\n  smtgrid solvers\n  smtgrid solvers --format json\n  smtgrid solvers --solver z3@debian=/usr/bin/z3"
    )]
    Solvers(solvers::SolversArgs),
    /// Solve puzzles with one or more solvers and verify every answer.
    #[command(
        after_help = "Examples:\n  smtgrid solve puzzles/classic.toml\n  smtgrid solve puzzles/*.toml --solver all --encoding lia\n  smtgrid solve puzzles/classic.toml --unique --format json\n  smtgrid solve p.toml --solver z3,z3@debian=/usr/bin/z3\n  smtgrid solve p.toml --solver-cmd 'mysolver=/opt/bin/solve --smt2' --solver mysolver"
    )]
    Solve(solve::SolveArgs),
    /// Run every puzzle × solver × encoding, record each run, summarise.
    #[command(
        after_help = "Examples:\n  smtgrid bench puzzles/*.toml --solver all --encoding all --timeout 20 --plot cactus.svg\n  smtgrid bench puzzles/top95.txt --solver yices2,z3 --encoding onehot --repeat 3 --out r.jsonl\n  smtgrid bench puzzles/top95.txt --solver all --out r-$K.jsonl --shard $K/4 --resume\n  smtgrid bench puzzles/*.toml --solver z3,yices2 --encoding onehot --scatter z3/onehot,yices2/onehot"
    )]
    Bench(bench::BenchArgs),
    /// Summarise, tabulate and plot the results files of `bench`.
    #[command(
        after_help = "Examples:\n  smtgrid report results-*.jsonl\n  smtgrid report a.jsonl b.jsonl --format csv --plot cactus.svg"
    )]
    Report(report::ReportArgs),
    /// Draw a puzzle as an SVG picture, as printed puzzles look.
    #[command(
        after_help = "Examples:\n  smtgrid render puzzles/killer-9x9.toml -o killer.svg\n  smtgrid render puzzles/calcudoku-hard.toml --solve -o solved.svg\n  smtgrid render puzzles/top95.txt -o pictures/"
    )]
    Render(render::RenderArgs),
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

/// Every encoding of the encoder table, then `all`.
const ENCODINGS: [Encodings; Encoding::COUNT + 1] = {
    let mut v = [Encodings::All; Encoding::COUNT + 1];
    let mut i = 0;
    while i < Encoding::COUNT {
        v[i] = Encodings::One(Encoding::ALL[i]);
        i += 1;
    }
    v
};

impl ValueEnum for Encodings {
    fn value_variants<'a>() -> &'a [Self] {
        &ENCODINGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Encodings::One(e) => PossibleValue::new(e.name()).help(e.summary()),
            Encodings::All => PossibleValue::new("all").help("Every encoding"),
        })
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
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
        Command::Convert(a) => convert::run(a),
        Command::Emit(a) => emit::run(a),
        Command::Inspect(a) => inspect::run(a),
        Command::New(a) => new::run(a),
        Command::Solvers(a) => solvers::run(a),
        Command::Solve(a) => {
            stdin_once(&a.puzzles)?;
            solve::run(a)
        }
        Command::Render(a) => render::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Report(a) => report::run(a),
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
            let file = dir.join(crate::output::file_name(&p.name, ext));
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

/// `--memory-limit MB`, shared by `solve` and `bench`.
#[derive(Debug, Args)]
struct MemoryArgs {
    /// Stop a solver whose processes use more than MB MiB of resident
    /// memory together (status `memout`), 1 to 1048576. Enforced by a
    /// watcher that sums the solver's process group every 10 ms; each
    /// record says so.
    #[arg(long, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(1..=crate::solver::MemoryLimit::MAX_MB))]
    memory_limit: Option<u64>,
}

/// `--timeout S` and `--memory-limit MB` as limits.
fn limits(secs: f64, memory: &MemoryArgs) -> Result<Limits> {
    Ok(Limits {
        memory: memory
            .memory_limit
            .map(|mb| crate::solver::MemoryLimit { mb }),
        ..timeout(secs)?
    })
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
