//! `smtgrid inspect`: what a puzzle lowers and encodes into.

use super::{Encodings, Format, InputArgs, open};
use crate::encode::Options;
use crate::error::Result;
use crate::inspect::Inspection;
use crate::output::Stdout;
use crate::solver;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct InspectArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The encoding, or `all` for every one side by side.
    #[arg(long, short, default_value = "lia")]
    encoding: Encodings,
    /// Inspect the unsimplified form.
    #[arg(long)]
    plain: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    input: InputArgs,
}

pub(super) fn run(a: InspectArgs) -> Result<i32> {
    let encs = a.encoding.list();
    let opts = Options { plain: a.plain };
    let puzzles = open(&a.puzzle, &a.input)?;
    let cancel = solver::install_ctrlc_handler();
    let mut out = Stdout::new();
    for p in puzzles {
        let p = &p?;
        let inspection = Inspection::new(p, &encs, &opts, &cancel)?;
        match a.format {
            Format::Json => writeln!(out, "{}", inspection.json())?,
            Format::Text => out.write_str(&inspection.text())?,
        }
    }
    out.flush()?;
    Ok(0)
}
