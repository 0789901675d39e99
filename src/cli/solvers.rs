//! `smtgrid solvers`: the solvers smtgrid knows and which are installed.

use super::{Format, SolverArgs};
use crate::error::Result;
use crate::output::Stdout;
use crate::solver;
use clap::Args;

#[derive(Debug, Args)]
pub(super) struct SolversArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub(super) fn run(a: SolversArgs) -> Result<i32> {
    let req = a.solvers.request()?;
    let cancel = solver::install_ctrlc_handler();
    let found = req.discover(&cancel);
    if cancel.is_cancelled() {
        return Ok(130);
    }
    let mut out = Stdout::new();
    match a.format {
        Format::Json => {
            for f in &found {
                writeln!(out, "{}", f.json())?;
            }
        }
        Format::Text => out.write_str(&solver::table(&found))?,
    }
    out.flush()?;
    Ok(0)
}
