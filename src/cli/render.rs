//! `smtgrid render`: draws puzzles as SVG pictures, solved if asked.

use super::{InputArgs, SolverArgs, Target, emit_target, jobs, open, timeout, write_each};
use crate::encode::Options;
use crate::error::{Error, Result};
use crate::output::{note, write_file_atomically};
use crate::puzzle::Puzzle;
use crate::render::png::ImageFormat;
use crate::render::svg::svg;
use crate::solve::{Mode, Plan, SessionUse, solve_all};
use crate::solver;
use clap::Args;
use std::path::PathBuf;

/// Pixels per SVG unit in a PNG: sharp on high-density screens (a 9×9
/// picture is 760 pixels wide).
const PNG_SCALE: f32 = 2.0;

#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// Write to FILE (a PNG image when its name ends in `.png`, SVG
    /// otherwise), or one `.svg` per puzzle into DIR (needed for a file
    /// of many puzzles); SVG on standard output otherwise.
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

pub(super) fn run(a: RenderArgs) -> Result<i32> {
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
    let drawn = |i: usize, p: &Puzzle| svg(p, solutions.get(i).and_then(Option::as_ref));
    if let Target::File(file) = target
        && ImageFormat::of(file) == Some(ImageFormat::Png)
    {
        let [p] = &puzzles[..] else {
            return Err(Error::Usage(format!(
                "{} holds {} puzzles: -o FILE.png draws one; give a directory with -o DIR/",
                a.puzzle.display(),
                puzzles.len()
            )));
        };
        let png = ImageFormat::Png
            .encode(&drawn(0, p), PNG_SCALE)
            .map_err(Error::Image)?;
        write_file_atomically(file, &png)?;
        return Ok(code);
    }
    write_each(
        puzzles.iter().cloned().map(Ok::<_, Error>),
        target,
        &a.puzzle,
        "svg",
        |i, p| Ok(drawn(i, p)),
    )?;
    Ok(code)
}
