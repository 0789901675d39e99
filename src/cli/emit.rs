//! `smtgrid emit`: writes a puzzle as an SMT-LIB2 script.

use super::{InputArgs, emit_target, open, write_each};
use crate::encode::{Encoding, Options, encode_cancellable};
use crate::error::Result;
use crate::lower::lower;
use crate::solver;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct EmitArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The encoding.
    #[arg(long, short, default_value = "lia")]
    encoding: Encoding,
    /// Emit the unsimplified form (no propagation of givens).
    #[arg(long)]
    plain: bool,
    /// Write to FILE, or one `.smt2` per puzzle into DIR (needed for a
    /// file of many puzzles): an existing directory, or a path ending in
    /// `/`. Files are replaced whole or not at all.
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub(super) fn run(a: EmitArgs) -> Result<i32> {
    let opts = Options { plain: a.plain };
    let target = emit_target(a.output.as_deref(), &a.puzzle)?;
    let puzzles = open(&a.puzzle, &a.input)?;
    let cancel = solver::install_ctrlc_handler();
    write_each(puzzles, target, &a.puzzle, "smt2", |_, p| {
        Ok(encode_cancellable(&lower(p), a.encoding, &opts, &cancel)?.script)
    })?;
    Ok(0)
}
