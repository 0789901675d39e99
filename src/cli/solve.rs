//! `smtgrid solve`: solves puzzles and shows each verified answer.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use super::Completion;
use super::config::{
    ENCODING_NAMES, EncodingName, Format, Inputs, MemoryArgs, SolverArgs, StatsArgs, duration,
    encodings, jobs, plan, text_style,
};
use super::target::create_dir;
use crate::encode::{Encoding, Options};
use crate::error::{Error, Result};
use crate::explain::{AllReport, MAX_ALL, all_text, enumerate};
use crate::lower::lower_with_statements;
use crate::output::{Stdout, note};
use crate::provenance::Provenance;
use crate::render::TextOptions;
use crate::reporter::{Json, Records, Reporter, Reporters, SvgFolder, Text};
use crate::solve::{Expect, Mode, SessionUse, solve_to};
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Encodings, separated by commas: `auto` races encodings (each named
    /// solver gives its own answer; without --solver, every installed
    /// solver races for one answer); a list or `all` gives one answer per
    /// solver and encoding.
    #[arg(
        long,
        short,
        value_enum,
        default_value = "auto",
        value_delimiter = ',',
        value_name = "auto|E,…|all"
    )]
    encoding: Vec<SolveEncoding>,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit for one solver's answer to one puzzle: seconds, or
    /// a number and a unit (500ms, 5s, 2m, 1h), at most a week; under
    /// `auto` a solver's encodings share it.
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    timeout: Duration,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    stats: StatsArgs,
    /// Solver processes run at once, 1 to 1024 (default: the number of
    /// cores; twice that with `--mode incremental`).
    #[arg(long, short, value_name = "N", value_parser = jobs())]
    jobs: Option<usize>,
    /// Ask each solver for a second solution to tell whether the found one
    /// is unique.
    #[arg(long)]
    unique: bool,
    /// Assert each puzzle's verdict, like a test: `unique` (exactly one
    /// solution; implies --unique), `sat` (at least one) or `unsat` (none).
    /// Each puzzle whose verdict differs is named on stderr and the exit
    /// status is 1. Exit status: 0 all as expected and solved, 1 a verdict
    /// differs or a puzzle was not solved, 2 bad usage or input, 130
    /// interrupted.
    #[arg(long, value_enum, value_name = "unique|sat|unsat")]
    expect: Option<Expect>,
    /// Show every solution, each checked, up to 1000 (MiniZinc's `-a`):
    /// the first solver named (or found) is asked in one session for a
    /// solution unlike all those before, until it says there is none.
    #[arg(long, short = 'a', conflicts_with_all = ["unique", "expect", "svg", "n"])]
    all: bool,
    /// Show up to N distinct solutions, each checked, 1 to 1000 (like
    /// `--all`, stopping at N).
    #[arg(short = 'n', value_name = "N", conflicts_with_all = ["unique", "expect", "svg"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_ALL as u64))]
    n: Option<u64>,
    /// How solvers run: `process` gives each puzzle a solver process of its
    /// own; `incremental` keeps a solver per shape and asks each puzzle's
    /// givens under push/pop; `auto` does that from the second puzzle of a
    /// shape on; under `--unique` a session asks both questions.
    #[arg(long, value_enum, default_value = "auto")]
    mode: SolveMode,
    /// Output format: text, `json` (one document: an array of one object
    /// per run) or `jsonl` (one object per run, a line each).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write a picture of each solved puzzle, with its verified solution,
    /// into DIR (one `.svg` per puzzle; DIR is created if need be).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Write every solver conversation (what smtgrid sent, what came back,
    /// with times and the run it belongs to) into DIR, one JSON Lines file
    /// per solver process, each at most 64 MiB.
    #[arg(long, value_name = "DIR")]
    transcript: Option<PathBuf>,
    /// Draw grids in plain ASCII even on a terminal (where cages and
    /// jigsaw regions are otherwise drawn with box-drawing characters).
    #[arg(long)]
    ascii: bool,
    /// Colour in text grids (givens bold, solved digits blue): `auto` on a
    /// terminal, never with NO_COLOR or CLICOLOR=0 set, always with
    /// CLICOLOR_FORCE set.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// Also list each race's other runs: those stopped or not started
    /// because an answer came first.
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    inputs: Inputs,
}

/// When text grids are coloured.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ColorChoice {
    /// On a terminal (or with CLICOLOR_FORCE), unless NO_COLOR or
    /// CLICOLOR=0 is set.
    Auto,
    /// Always, even into a file or pipe.
    Always,
    /// Never.
    Never,
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

/// The encodings `solve` takes: `auto`, then those of the encoder table
/// and `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SolveEncoding {
    Auto,
    Chosen(EncodingName),
}

const SOLVE_ENCODINGS: [SolveEncoding; Encoding::COUNT + 2] = {
    let mut v = [SolveEncoding::Auto; Encoding::COUNT + 2];
    let mut i = 0;
    while i < Encoding::COUNT + 1 {
        v[i + 1] = SolveEncoding::Chosen(ENCODING_NAMES[i]);
        i += 1;
    }
    v
};

impl ValueEnum for SolveEncoding {
    fn value_variants<'a>() -> &'a [Self] {
        &SOLVE_ENCODINGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            SolveEncoding::Auto => Some(
                PossibleValue::new("auto")
                    .help("Race encodings in the measured order; keep the first definite answer"),
            ),
            SolveEncoding::Chosen(EncodingName::All) => {
                Some(PossibleValue::new("all").help("Every encoding, one answer each"))
            }
            SolveEncoding::Chosen(e) => e.to_possible_value(),
        }
    }
}

impl SolveEncoding {
    /// The encodings named, as a solving mode; `auto` stands alone.
    fn mode(names: &[SolveEncoding], solvers_named: bool) -> Result<Mode> {
        let mut chosen = Vec::new();
        for n in names {
            match n {
                SolveEncoding::Chosen(e) => chosen.push(*e),
                SolveEncoding::Auto if names.len() > 1 => {
                    return Err(Error::Usage(
                        "--encoding auto races the encodings and cannot be listed with others; \
                         give auto alone, or a list of encodings"
                            .into(),
                    ));
                }
                SolveEncoding::Auto if solvers_named => return Ok(Mode::EachSolver),
                SolveEncoding::Auto => return Ok(Mode::Portfolio),
            }
        }
        Ok(Mode::Fixed(encodings(&chosen)))
    }
}

pub(super) fn run(a: SolveArgs) -> Result<Completion> {
    a.inputs.check()?;
    if a.all || a.n.is_some() {
        return run_all(a);
    }
    let request = a.solvers.request()?;
    let mode = SolveEncoding::mode(&a.encoding, !request.names.is_empty())?;
    // Racing for one answer uses every installed solver unless told otherwise.
    let all = mode == Mode::Portfolio;
    let plan = plan(request, all, mode, a.timeout, a.jobs)?
        .options(Options { plain: a.plain })
        .memory(a.memory.limit())
        .unique(a.unique || a.expect == Some(Expect::Unique))
        .stats(a.stats.stats())
        .sessions(a.mode.sessions())
        .batches(true)
        .reuse_sessions()
        .transcript(
            a.transcript
                .as_deref()
                .map(super::transcripts)
                .transpose()?,
        )
        .build();
    let mut reporters: Vec<Box<dyn Reporter>> = Vec::new();
    if let Some(dir) = &a.svg {
        create_dir("--svg", dir)?;
        reporters.push(Box::new(SvgFolder::new(dir, &a.inputs.puzzles)));
    }
    reporters.push(match a.format.json() {
        Some(form) => Box::new(Json::new(form, Provenance::of(&plan))),
        None => Box::new(Text::new(TextOptions {
            style: text_style(a.ascii),
            color: match a.color {
                ColorChoice::Auto => crate::output::auto_color(),
                ColorChoice::Always => true,
                ColorChoice::Never => false,
            },
            verbose: a.verbose,
        })),
    });
    let input_error = RefCell::new(None);
    let cancel = solver::install_ctrlc_handler();
    let mut shown = Reporters::new(reporters).expect(a.expect);
    solve_to(a.inputs.stream(&input_error), &plan, &cancel, &mut shown);
    // What was decided before an interruption or a bad input is shown.
    let shown_all = shown.flush();
    if cancel.is_cancelled() {
        // The exit says interrupted, whatever the write did.
        note("interrupted; every solver was stopped");
        return Ok(Completion::Interrupted);
    }
    if let Some(e) = input_error.into_inner() {
        return Err(e);
    }
    // A closed pipe (`| head -1`) means the reader has all it wanted: a
    // quiet success; anything else is a failed write.
    shown_all?;
    shown.finish()?;
    Ok(Completion::failed_if(shown.failed()))
}

/// `--all` / `-n N`: each puzzle's distinct solutions from one solver.
fn run_all(a: SolveArgs) -> Result<Completion> {
    let n = a.n.map_or(MAX_ALL, |n| n as usize);
    let solver = &a.solvers.one_solver("--all")?;
    let opts = TextOptions {
        style: text_style(a.ascii),
        color: match a.color {
            ColorChoice::Auto => crate::output::auto_color(),
            ColorChoice::Always => true,
            ColorChoice::Never => false,
        },
        verbose: a.verbose,
    };
    let cancel = solver::install_ctrlc_handler();
    let input_error = RefCell::new(None);
    let mut failed = false;
    let mut out = Stdout::new();
    let mut records = a.format.json().map(Records::new);
    for p in a.inputs.stream(&input_error) {
        let (model, statements) = lower_with_statements(&p);
        let recorded = crate::lower::recorded_solution(&p, &model);
        let en = enumerate(
            &model,
            &statements,
            solver,
            n,
            a.timeout,
            &cancel,
            recorded.as_deref(),
        );
        // A search that ran to the end is a definite answer, none included
        // (an unsat, which exits 0 in a plain `solve` too).
        failed |= en.stopped.is_some();
        let report = AllReport::new(&p, &model, &solver.display_name(), &en);
        // Reported even when stopped (Ctrl-C, the time limit before the
        // first question): every puzzle read has its record.
        let written = match &mut records {
            Some(r) => r.record(&report),
            None => out.write_str(&all_text(&p, &report, n, &opts)),
        };
        if cancel.is_cancelled() {
            // The exit says interrupted, whatever the write did.
            note("interrupted; the solver was stopped");
            return Ok(Completion::Interrupted);
        }
        written?;
    }
    if let Some(r) = &mut records {
        r.finish()?;
    }
    out.flush()?;
    if let Some(e) = input_error.into_inner() {
        return Err(e);
    }
    Ok(Completion::failed_if(failed))
}
