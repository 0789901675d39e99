//! The command line: parses flags and wires the pipeline's stages
//! together. One module per command, each a short function over the
//! library; what they share (input, solver and summary flags, output
//! targets, limits) lives here.

mod bench;
mod completions;
mod convert;
mod emit;
mod explain;
mod generate;
mod inspect;
mod new;
mod render;
mod report;
mod solve;
mod solvers;

mod config;
mod target;

use clap::builder::PossibleValue;
use clap::{Arg, Parser, Subcommand, ValueEnum};

use crate::bench::summary::SummaryFormat;
use crate::encode::Encoding;
use crate::error::{Error, Result};
use crate::output::note;
use crate::parse::InputFormat;
use crate::puzzle::Kind;
use crate::solve::{Expect, RunMode};

/// Write a grid puzzle once; emit it as SMT-LIB2, run it on every installed
/// SMT solver, and get back a grid smtgrid's own checker has verified.
#[derive(Debug, Parser)]
#[command(name = "smtgrid", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  smtgrid solve puzzles/classic.toml\n  smtgrid solve puzzles/sudoku-4x4.toml puzzles/killer-4x4.toml --solver all\n  smtgrid emit puzzles/calcudoku-hard.toml --encoding onehot -o hard.smt2\n  smtgrid new killer > my.toml"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Solver profiles of your own ([[solver]] tables, the schema of
    /// src/solver/profiles.toml), read instead of
    /// $XDG_CONFIG_HOME/smtgrid/profiles.toml; a profile named like a
    /// built-in one replaces it.
    #[arg(long, global = true, value_name = "FILE")]
    profiles: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write a puzzle of any readable format as native TOML, to edit it.
    #[command(
        after_help = "Examples:\n  smtgrid convert tests/fixtures/sgt/keen.sgt --to toml -o keen/\n  smtgrid convert puzzles/hardest.txt -o hardest/\n  smtgrid convert puzzles/kakuro-small.toml > kakuro.toml"
    )]
    Convert(convert::ConvertArgs),
    /// Print a puzzle as an SMT-LIB2 script.
    #[command(
        after_help = "Examples:\n  smtgrid emit puzzles/classic.toml\n  smtgrid emit puzzles/squares.toml --encoding onehot -o squares.smt2\n  smtgrid emit puzzles/top95.txt -o scripts-dir/"
    )]
    #[command(mut_arg("solver", solver_default("with --benchmark, every installed solver")))]
    Emit(emit::EmitArgs),
    /// Say why: a minimal conflict when a puzzle has no solution; the
    /// solutions' differences, candidates and a given that makes it unique
    /// when it has several; redundant givens when it has one.
    #[command(
        after_help = "Examples:\n  smtgrid explain docs/examples/killer-broken.toml\n  smtgrid explain puzzles/kakuro-small.toml --count 10 --format json\n  smtgrid explain docs/examples/calcudoku-two.toml --svg pictures/"
    )]
    #[command(mut_arg(
        "solver",
        solver_default(
            "the first found of z3, cvc5, yices2; explain asks one solver, the first named"
        )
    ))]
    Explain(explain::ExplainArgs),
    /// Make new puzzles of a kind, each proven unique and minimal, graded by
    /// the search a fixed solver needs; one TOML file per puzzle.
    // -o is checked after the kind (a typo is said first), so clap does not
    // show it as required: the usage line does.
    #[command(
        override_usage = "smtgrid generate [OPTIONS] -o <DIR> <WHAT>",
        after_help = "Examples:\n  smtgrid generate sudoku --count 20 --seed 1 -o new/\n  smtgrid generate killer --size 6 --count 10 -o killers/\n  smtgrid generate sudoku --grade hard --count 3 --seed 1 -o hard/\n  smtgrid generate calcudoku --size 5 --ops +- -o kenken/\n  smtgrid generate puzzles/jigsaw-9x9.toml --count 5 -o jigsaws/"
    )]
    #[command(mut_arg(
        "solver",
        solver_default("the first found of yices2, z3, cvc5 proves; z3 always grades")
    ))]
    Generate(generate::GenerateArgs),
    /// Show what a puzzle lowers and encodes into.
    #[command(
        after_help = "Examples:\n  smtgrid inspect puzzles/classic.toml\n  smtgrid inspect puzzles/calcudoku-hard.toml --encoding all --format json"
    )]
    #[command(mut_arg(
        "solver",
        solver_default("with --solve, the first found of z3, cvc5, yices2")
    ))]
    Inspect(inspect::InspectArgs),
    /// Print a starter puzzle file of a kind or a variant (thermo, kropki, …);
    /// without a name, list them.
    #[command(
        after_help = "Examples:\n  smtgrid new\n  smtgrid new sudoku > mine.toml\n  smtgrid new sudoku --size 16\n  smtgrid new thermo > thermo.toml"
    )]
    New(new::NewArgs),
    /// List the solvers smtgrid knows and which are installed.
    #[command(
        after_help = "Examples:\n  smtgrid solvers\n  smtgrid solvers --format json\n  smtgrid solvers --solver z3@debian=/usr/bin/z3"
    )]
    #[command(mut_arg(
        "solver",
        solver_default("every solver smtgrid knows, installed or not")
    ))]
    Solvers(solvers::SolversArgs),
    /// Solve puzzles with one or more solvers and verify every answer.
    #[command(
        after_help = "Examples:\n  smtgrid solve puzzles/classic.toml\n  smtgrid solve puzzles/sudoku-*.toml --solver all --encoding onehot,bv\n  smtgrid solve puzzles/sudoku-4x4.toml --unique --format json\n  smtgrid solve puzzles/killer-9x9.toml --solver z3,z3@debian=/usr/bin/z3\n  smtgrid solve puzzles/sudoku-4x4.toml --solver-cmd 'mysolver=z3 -smt2' --solver mysolver --encoding onehot"
    )]
    #[command(mut_arg(
        "solver",
        solver_default(
            "with `--encoding auto`, every installed solver races for one answer; with \
             encodings named, the first found of z3, cvc5, yices2"
        )
    ))]
    Solve(solve::SolveArgs),
    /// Run every puzzle × solver × encoding, record each run, summarise.
    #[command(
        after_help = "Examples:\n  smtgrid bench puzzles/killer-*.toml --solver yices2,z3 --encoding onehot,bv --timeout 20 --plot cactus.svg\n  smtgrid bench puzzles/hardest.txt --solver yices2,z3 --encoding onehot --repeat 3 -o r.jsonl\n  smtgrid bench puzzles/hardest.txt --solver yices2 --encoding onehot -o r-0.jsonl --shard 0/4 --resume\n  smtgrid bench puzzles/killer-*.toml --solver z3,yices2 --encoding onehot --scatter z3/onehot,yices2/onehot"
    )]
    #[command(mut_arg("solver", solver_default("the first found of z3, cvc5, yices2")))]
    Bench(bench::BenchArgs),
    /// Summarise, tabulate and plot the results files of `bench`.
    #[command(
        after_help = "Examples:\n  smtgrid report docs/bench-top95.jsonl\n  smtgrid report docs/bench-top95.jsonl --format csv --plot cactus.svg\n  smtgrid report docs/bench-top95.jsonl --per-puzzle --format markdown"
    )]
    Report(report::ReportArgs),
    /// Draw a puzzle as an SVG picture, as printed puzzles look.
    #[command(
        after_help = "Examples:\n  smtgrid render puzzles/killer-9x9.toml -o killer.svg\n  smtgrid render puzzles/calcudoku-hard.toml --solve -o solved.svg\n  smtgrid render puzzles/top95.txt -o pictures/"
    )]
    #[command(mut_arg("solver", solver_default("with --solve, every installed solver races")))]
    Render(render::RenderArgs),
    /// Print a shell's completion script for smtgrid.
    #[command(
        after_help = "Examples:\n  smtgrid completions bash > smtgrid.bash\n  smtgrid completions zsh > _smtgrid\n  smtgrid completions fish > smtgrid.fish"
    )]
    Completions(completions::CompletionsArgs),
    /// Print smtgrid's manual page, or write one per command into a folder.
    #[command(after_help = "Examples:\n  smtgrid man > smtgrid.1\n  smtgrid man -o man/")]
    Man(completions::ManArgs),
}

/// `--solver`'s help with the default of one command, which differs
/// between commands.
fn solver_default(default: &'static str) -> impl FnOnce(Arg) -> Arg {
    move |a| {
        let help = a.get_help().map(ToString::to_string).unwrap_or_default();
        a.help(format!("{help}. Default: {default}."))
    }
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

value_enum_from_all!(
    InputFormat,
    Encoding,
    Expect,
    Kind,
    RunMode,
    SummaryFormat,
    crate::generate::Symmetry,
    crate::generate::Cages
);

/// How a command ended. Only [`main`](crate::cli::run)'s caller turns it
/// into an exit status, so every command ends the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// Everything asked was done (also when the reader of standard output
    /// closed it, having read all it wanted): exit status 0.
    Clean,
    /// Done, but not everything succeeded: a puzzle without a verified
    /// answer, solvers that disagree, an incomplete results file: 1.
    Failed,
    /// Stopped by Ctrl-C or a termination signal; every solver was
    /// stopped: 130.
    Interrupted,
    /// Not done: bad flags or input, or output that could not be written;
    /// the message says which: 2.
    Usage,
}

impl Completion {
    /// [`Completion::Failed`] when `failed`, else [`Completion::Clean`].
    fn failed_if(failed: bool) -> Completion {
        if failed {
            Completion::Failed
        } else {
            Completion::Clean
        }
    }

    /// How a command that stopped on `e` ended.
    fn of_error(e: &Error) -> Completion {
        match e {
            Error::OutputClosed => Completion::Clean,
            Error::Interrupted => Completion::Interrupted,
            Error::Input(_)
            | Error::Usage(_)
            | Error::Io { .. }
            | Error::Output(_)
            | Error::Image(_) => Completion::Usage,
        }
    }
}

/// Runs the command line: parses the arguments, runs the command and
/// reports its error, if any, on standard error.
pub fn run() -> Completion {
    // Before anything else, so that no command can be ended by a signal
    // with a solver or a temporary file left behind.
    let cancel = crate::signals::install();
    let completion = parse_and_run();
    if cancel.is_cancelled() {
        Completion::Interrupted
    } else {
        completion
    }
}

fn parse_and_run() -> Completion {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            return match e.print() {
                // `--help` and `--version` go to standard output, which
                // may be closed or full like any other.
                Err(w) if !e.use_stderr() => failed(Error::from_stdout(w)),
                _ if e.use_stderr() => Completion::Usage,
                _ => Completion::Clean,
            };
        }
    };
    if let Err(e) = user_profiles(cli.profiles) {
        return failed(e);
    }
    match command(cli.command) {
        Ok(c) => c,
        Err(e) => failed(e),
    }
}

/// Reads the user's solver profiles, before any command looks one up:
/// `--profiles FILE` if given (it must exist), else
/// `$XDG_CONFIG_HOME/smtgrid/profiles.toml` (`~/.config/…` when unset)
/// if it exists.
fn user_profiles(flag: Option<std::path::PathBuf>) -> Result<()> {
    let file = match flag {
        Some(f) => f,
        None => match crate::solver::user_profiles_file() {
            Some(f) if f.exists() => f,
            _ => return Ok(()),
        },
    };
    let text = crate::parse::open_input(&file, crate::parse::InputLimits::default())?.text()?;
    let profiles = crate::solver::parse_user_profiles(&file, &text)?;
    crate::solver::set_user_profiles(file, profiles);
    Ok(())
}

/// Where `--transcript DIR` writes, created if missing.
fn transcripts(dir: &std::path::Path) -> Result<crate::solver::Transcripts> {
    target::create_dir("--transcript", dir)?;
    crate::solver::Transcripts::new(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// Reports `e` (unless there is nothing to report) and says how the
/// command ended.
fn failed(e: Error) -> Completion {
    if e.is_reported() {
        note(&e);
    }
    Completion::of_error(&e)
}

fn command(c: Command) -> Result<Completion> {
    match c {
        Command::Convert(a) => convert::run(a),
        Command::Emit(a) => emit::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Inspect(a) => inspect::run(a),
        Command::New(a) => new::run(a),
        Command::Solvers(a) => solvers::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Render(a) => render::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Report(a) => report::run(a),
        Command::Completions(a) => completions::completions(a),
        Command::Man(a) => completions::man(a),
    }
}
