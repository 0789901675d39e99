//! `smtgrid emit`: writes puzzles as SMT-LIB2 scripts.

use std::path::PathBuf;

use clap::Args;

use super::Completion;
use super::config::Inputs;
use super::target::{Target, write_each};
use crate::encode::{Encoding, Options, encode_cancellable};
use crate::error::Result;
use crate::lower::lower;
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct EmitArgs {
    /// The encoding.
    #[arg(long, short, default_value = "lia")]
    encoding: Encoding,
    /// Emit the unsimplified form (no propagation of givens).
    #[arg(long)]
    plain: bool,
    /// Write to FILE, or one `.smt2` per puzzle into DIR (needed for many
    /// puzzles): an existing directory, or a path ending in `/` (created
    /// if need be). Files are replaced whole or not at all.
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: EmitArgs) -> Result<Completion> {
    a.inputs.check()?;
    let opts = Options { plain: a.plain };
    let target = Target::of(a.output.as_deref(), &a.inputs)?;
    let cancel = solver::install_ctrlc_handler();
    write_each(a.inputs.each(), &a.inputs, &target, "smt2", |_, p| {
        Ok(encode_cancellable(&lower(p), a.encoding, &opts, &cancel)?.script)
    })?;
    Ok(Completion::Clean)
}
