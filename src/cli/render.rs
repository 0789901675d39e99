//! `smtgrid render`: draws puzzles as SVG pictures, solved if asked.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::Completion;
use super::config::{Inputs, SolverArgs, duration, plan};
use super::target::{Target, write_each};
use crate::error::{Error, Result};
use crate::model::rc;
use crate::output::{note, write_file_atomically};
use crate::puzzle::Puzzle;
use crate::render::png::ImageFormat;
use crate::render::svg::svg;
use crate::solve::{Mode, Verdict, solve_all};
use crate::solver;

/// Pixels per SVG unit in a PNG: sharp on high-density screens (a 9×9
/// picture is 760 pixels wide).
const PNG_SCALE: f32 = 2.0;

#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    /// Write to FILE (a PNG image when its name ends in `.png`, SVG
    /// otherwise), or one `.svg` per puzzle into DIR (needed for many
    /// puzzles; created if need be); SVG on standard output otherwise.
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    /// Solve the puzzle (every installed solver races, as `solve` does)
    /// and draw the verified solution in blue. Uniqueness is asked too: a
    /// puzzle with several solutions is named on stderr, with which one is
    /// drawn.
    #[arg(long)]
    solve: bool,
    /// Wall-clock limit for solving: seconds, or a number and a unit
    /// (500ms, 5s, 2m, 1h), at most a week.
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    timeout: Duration,
    #[command(flatten)]
    solvers: SolverArgs,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: RenderArgs) -> Result<Completion> {
    a.inputs.check()?;
    let target = Target::of(a.output.as_deref())?;
    let puzzles = a.inputs.each().collect::<Result<Vec<_>>>()?;
    let mut solutions: Vec<Option<crate::render::ValueGrid>> = vec![None; puzzles.len()];
    let mut completion = Completion::Clean;
    if a.solve {
        let plan = plan(a.solvers.request()?, true, Mode::Portfolio, a.timeout, None)?
            .unique(true)
            .build();
        let cancel = solver::install_ctrlc_handler();
        solve_all(puzzles.iter().cloned(), &plan, &cancel, |p, r| {
            // The exit status as `solve`'s for the same runs.
            if !r.succeeded() {
                completion = Completion::Failed;
            }
            crate::reporter::note_findings(p, r);
            // Only a grid the checker accepted is ever drawn.
            match r.lines.iter().find_map(|l| l.run.outcome.grid()) {
                Some(g) => {
                    solutions[r.index] = Some(g.clone());
                    let differs = r.lines.iter().find_map(|l| l.run.outcome.differs());
                    match (r.verdict(), differs) {
                        (Verdict::NotUnique, Some(cells)) => {
                            let cells: Vec<String> =
                                cells.iter().map(|&(row, col)| rc(row, col)).collect();
                            note(format_args!(
                                "{}: more than one solution; drawing the first one found (a \
                                 second differs in {})",
                                p.name,
                                cells.join(" ")
                            ));
                        }
                        (Verdict::Unique, _) => {}
                        _ => note(format_args!(
                            "{}: uniqueness not settled; drawing the solution found",
                            p.name
                        )),
                    }
                }
                None => note(format_args!(
                    "{}: {}; drawing the puzzle alone",
                    p.name,
                    match r.verdict() {
                        Verdict::Unsat => "no solution",
                        _ => "no verified solution",
                    }
                )),
            }
            ControlFlow::Continue(())
        });
        if cancel.is_cancelled() {
            note("interrupted; every solver was stopped");
            return Ok(Completion::Interrupted);
        }
    }
    let drawn = |i: usize, p: &Puzzle| svg(p, solutions.get(i).and_then(Option::as_ref));
    if let Target::File(file) = &target
        && ImageFormat::of(file) == Some(ImageFormat::Png)
    {
        let [p] = &puzzles[..] else {
            return Err(Error::Usage(format!(
                "the inputs hold {} puzzles: -o FILE.png draws one; give a directory with -o DIR/",
                puzzles.len()
            )));
        };
        let png = ImageFormat::Png
            .encode(&drawn(0, p), PNG_SCALE)
            .map_err(Error::Image)?;
        write_file_atomically(file, &png)?;
        return Ok(completion);
    }
    write_each(
        puzzles.iter().cloned().map(Ok),
        &a.inputs,
        &target,
        "svg",
        |i, p| Ok(drawn(i, p)),
    )?;
    Ok(completion)
}
