//! `smtgrid solve`: solves puzzles and prints each verified answer.

use super::{
    Encodings, Format, InputArgs, MemoryArgs, SolverArgs, existing_dir, jobs, limits, puzzles_of,
    text_style,
};
use crate::encode::{Encoding, Options};
use crate::error::{Error, Result};
use crate::output::{note, write_file_atomically};
use crate::provenance::Provenance;
use crate::render::{result_text, svg::svg};
use crate::solve::{Mode, Plan, SessionUse, solve_all};
use crate::solver;
use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    pub(super) puzzles: Vec<PathBuf>,
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
    #[command(flatten)]
    memory: MemoryArgs,
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

/// The encodings `solve` takes: `auto`, then those of the encoder table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SolveEncoding {
    Auto,
    Chosen(Encodings),
}

const SOLVE_ENCODINGS: [SolveEncoding; Encoding::COUNT + 2] = {
    let mut v = [SolveEncoding::Auto; Encoding::COUNT + 2];
    let mut i = 0;
    while i < Encoding::COUNT + 1 {
        v[i + 1] = SolveEncoding::Chosen(super::ENCODINGS[i]);
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
            SolveEncoding::Chosen(Encodings::All) => {
                Some(PossibleValue::new("all").help("Every encoding, one answer each"))
            }
            SolveEncoding::Chosen(e) => e.to_possible_value(),
        }
    }
}

pub(super) fn run(a: SolveArgs) -> Result<i32> {
    let limits = limits(a.timeout, &a.memory)?;
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
        SolveEncoding::Chosen(e) => Mode::Fixed(e.list()),
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
            let path = dir.join(crate::output::file_name(&p.name, "svg"));
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
                let mut report = l.run.report(p);
                report.provenance = Some(Provenance::of(&plan));
                let line = serde_json::to_string(&report).unwrap_or_default();
                writeln!(out, "{line}")
            }),
            Format::Text => write!(out, "{}", result_text(p, r, style)),
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
