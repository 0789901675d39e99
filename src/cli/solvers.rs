//! `smtgrid solvers`: the solvers smtgrid knows and which are installed.

use clap::Args;

use super::Completion;
use super::config::{Format, SolverArgs};
use crate::error::Result;
use crate::output::{Stdout, note};
use crate::reporter::Records;
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct SolversArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Output format: text, `json` (one document: an array of one object
    /// per solver) or `jsonl` (one object per solver, a line each).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn run(a: SolversArgs) -> Result<Completion> {
    let req = a.solvers.request()?;
    let cancel = solver::install_ctrlc_handler();
    let found = req.discover(&cancel);
    if cancel.is_cancelled() {
        note("interrupted");
        return Ok(Completion::Interrupted);
    }
    match a.format.json() {
        Some(form) => {
            let mut records = Records::new(form);
            for f in &found {
                records.record(&f.json())?;
            }
            records.finish()?;
        }
        None => {
            let mut out = Stdout::new();
            out.write_str(&solver::table(&found))?;
            out.flush()?;
        }
    }
    Ok(Completion::Clean)
}
