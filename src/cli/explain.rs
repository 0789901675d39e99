//! `smtgrid explain`: says why a puzzle has no solution, where its
//! solutions differ, or which givens are redundant.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::Completion;
use super::config::{Format, Inputs, SolverArgs, duration};
use super::target::create_dir;
use crate::error::Result;
use crate::explain::{MAX_COUNT, Options, Picture, Report, explain, render_text};
use crate::lower::lower_with_statements;
use crate::output::{Stdout, note, write_file_atomically};
use crate::render::svg::svg_with;
use crate::reporter::Records;
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Count solutions up to N (each one checked), 2 to 10000.
    #[arg(long, default_value_t = 2, value_name = "N",
          value_parser = clap::value_parser!(u64).range(2..=MAX_COUNT as u64))]
    count: u64,
    /// Time for each puzzle's explanation: seconds, or a number and a unit
    /// (500ms, 5s, 2m, 1h), at most a week; what is not done by then is
    /// reported as not done.
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    timeout: Duration,
    /// Output format: text, `json` (one document: an array of one object
    /// per puzzle) or `jsonl` (one object per puzzle, a line each).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write a picture of each explanation into DIR (one `.svg` per
    /// puzzle; DIR is created if need be): a conflict's cells shaded, or
    /// candidates as pencil marks with the cells where two solutions
    /// differ outlined.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: ExplainArgs) -> Result<Completion> {
    a.inputs.check()?;
    if let Some(dir) = &a.svg {
        create_dir("--svg", dir)?;
    }
    let mut names = crate::output::OutputNames::new(&a.inputs.puzzles);
    let solver = &a.solvers.one_solver("explain")?;
    let limits = Options {
        count: a.count as usize,
        time_limit: a.timeout,
        recorded: None,
    };
    let cancel = solver::install_ctrlc_handler();
    let input_error = RefCell::new(None);
    let mut failed = false;
    let mut out = Stdout::new();
    let mut records = a.format.json().map(Records::new);
    for p in a.inputs.stream(&input_error) {
        let (model, statements) = lower_with_statements(&p);
        let opts = Options {
            recorded: crate::lower::recorded_solution(&p, &model),
            ..limits.clone()
        };
        let ex = explain(&model, &statements, solver, &opts, &cancel);
        failed |= ex.stopped.is_some();
        let report = Report::new(&model, &statements, &solver.display_name(), &ex);
        // The puzzle Ctrl-C stopped is reported too (`stopped`), as
        // `solve` reports its stopped runs.
        let written = match &mut records {
            Some(r) => r.record(&report),
            None => out.write_str(&render_text(&report)),
        };
        if cancel.is_cancelled() {
            // The exit says interrupted, whatever the write did.
            note("interrupted; the solver was stopped");
            return Ok(Completion::Interrupted);
        }
        written?;
        if let Some(dir) = &a.svg {
            let file = names.file(dir, &p.id, "svg")?;
            let overlay = Picture::of(&report);
            write_file_atomically(&file, &svg_with(&p, overlay.digits.as_ref(), &overlay))?;
        }
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
