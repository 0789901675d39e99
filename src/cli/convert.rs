//! `smtgrid convert`: writes puzzles of any readable format as native TOML.

use super::{InputArgs, emit_target, open, write_each};
use crate::error::Result;
use crate::parse;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// What `convert` writes.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum OutputFormat {
    /// The native format, one TOML file per puzzle.
    Toml,
}

#[derive(Debug, Args)]
pub(super) struct ConvertArgs {
    /// The puzzle file (`-` for standard input).
    puzzle: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value = "toml")]
    to: OutputFormat,
    /// Write to FILE, or one file per puzzle into DIR (needed for a file of
    /// many puzzles).
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

pub(super) fn run(a: ConvertArgs) -> Result<i32> {
    let target = emit_target(a.output.as_deref(), &a.puzzle)?;
    let puzzles = open(&a.puzzle, &a.input)?;
    match a.to {
        OutputFormat::Toml => write_each(puzzles, target, &a.puzzle, "toml", |_, p| {
            Ok(parse::to_toml(p))
        })?,
    }
    Ok(0)
}
