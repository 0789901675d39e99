//! `smtgrid explain`: says why a puzzle has no solution, where its
//! solutions differ, or which givens are redundant.

use super::{Format, InputArgs, SolverArgs, existing_dir, puzzles_of, timeout};
use crate::error::{Error, Result};
use crate::explain::{MAX_COUNT, Options, Picture, Report, explain, render_text};
use crate::lower::lower_with_statements;
use crate::output::{Stdout, note, write_file_atomically};
use crate::render::svg::svg_with;
use crate::solver;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    pub(super) puzzles: Vec<PathBuf>,
    #[command(flatten)]
    solvers: SolverArgs,
    /// Count solutions up to N (each one checked).
    #[arg(long, default_value_t = 2, value_name = "N",
          value_parser = clap::value_parser!(u64).range(2..=MAX_COUNT as u64))]
    count: u64,
    /// Time for each puzzle's explanation, in seconds; what is not done by
    /// then is reported as not done.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Output format: text, or JSON Lines (one object per puzzle).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write a picture of each explanation into DIR (one `.svg` per
    /// puzzle): a conflict's cells shaded, or candidates as pencil marks
    /// with the cells where two solutions differ outlined.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub(super) fn run(a: ExplainArgs) -> Result<i32> {
    let limits = timeout(a.timeout)?;
    if let Some(dir) = &a.svg {
        existing_dir(dir)?;
    }
    let request = a.solvers.request()?;
    let solvers = request.solvers().map_err(Error::Usage)?;
    let Some(solver) = solvers.first() else {
        return Err(Error::Usage(
            "no solver found; see `smtgrid solvers`".into(),
        ));
    };
    if solvers.len() > 1 {
        note(format_args!(
            "explain asks one solver; using {}",
            solver.display_name()
        ));
    }
    let opts = Options {
        count: a.count as usize,
        time_limit: limits.timeout,
    };
    let cancel = solver::install_ctrlc_handler();
    let error = std::cell::RefCell::new(None);
    let mut code = 0;
    let mut out = Stdout::new();
    for p in puzzles_of(&a.puzzles, &a.input, &error) {
        let (model, statements) = lower_with_statements(&p);
        let ex = match explain(&model, &statements, solver, &opts, &cancel) {
            Ok(ex) => ex,
            Err(stop) => {
                note(format_args!("{}: {stop}", p.name));
                code = 1;
                continue;
            }
        };
        if cancel.is_cancelled() {
            return Ok(130);
        }
        let report = Report::new(&model, &statements, &solver.display_name(), &ex);
        if ex.stopped.is_some() {
            code = 1;
        }
        let text = match a.format {
            Format::Text => render_text(&report),
            Format::Json => {
                let mut line = serde_json::to_string(&report).map_err(|e| {
                    Error::Usage(format!("{}: cannot write the report: {e}", p.name))
                })?;
                line.push('\n');
                line
            }
        };
        out.write_str(&text)?;
        if let Some(dir) = &a.svg {
            let file = dir.join(crate::output::file_name(&p.name, "svg"));
            let overlay = Picture::of(&report);
            let picture = svg_with(&p, overlay.digits.as_ref(), &overlay);
            write_file_atomically(&file, &picture)?;
        }
    }
    out.flush()?;
    if let Some(e) = error.into_inner() {
        return Err(e);
    }
    Ok(code)
}
