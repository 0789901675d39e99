//! `smtgrid new`: prints a starter puzzle file.

use clap::Args;

use super::Completion;
use crate::error::{Error, Result};
use crate::output::Stdout;
use crate::puzzle::Kind;

#[derive(Debug, Args)]
pub(super) struct NewArgs {
    /// The kind of puzzle.
    kind: Kind,
    /// Grid size, 1 to 64 (3 to 64 for kakuro; default: the template's).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
}

pub(super) fn run(a: NewArgs) -> Result<Completion> {
    let text = crate::templates::template(a.kind, a.size).map_err(Error::Usage)?;
    let mut out = Stdout::new();
    out.write_str(&text)?;
    out.flush()?;
    Ok(Completion::Clean)
}
