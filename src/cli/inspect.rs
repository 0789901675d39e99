//! `smtgrid inspect`: what puzzles lower and encode into.

use clap::Args;

use super::Completion;
use super::config::{EncodingName, Format, Inputs, encodings};
use crate::encode::Options;
use crate::error::Result;
use crate::inspect::Inspection;
use crate::output::Stdout;
use crate::reporter::Records;
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct InspectArgs {
    /// Encodings, separated by commas, or `all` for every one side by side.
    #[arg(
        long,
        short,
        default_value = "lia",
        value_delimiter = ',',
        value_name = "E,…|all"
    )]
    encoding: Vec<EncodingName>,
    /// Inspect the unsimplified form.
    #[arg(long)]
    plain: bool,
    /// Output format: text, `json` (one document: an array of one object
    /// per puzzle) or `jsonl` (one object per puzzle, a line each).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: InspectArgs) -> Result<Completion> {
    a.inputs.check()?;
    let encs = encodings(&a.encoding);
    let opts = Options { plain: a.plain };
    let cancel = solver::install_ctrlc_handler();
    match a.format.json() {
        Some(form) => {
            let mut records = Records::new(form);
            for p in a.inputs.each() {
                let p = &p?;
                records.record(&Inspection::new(p, &encs, &opts, &cancel)?.json())?;
            }
            records.finish()?;
        }
        None => {
            let mut out = Stdout::new();
            for p in a.inputs.each() {
                let p = &p?;
                out.write_str(&Inspection::new(p, &encs, &opts, &cancel)?.text())?;
            }
            out.flush()?;
        }
    }
    Ok(Completion::Clean)
}
