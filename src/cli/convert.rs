//! `smtgrid convert`: writes puzzles of any readable format as native TOML,
//! or as f-puzzles links. Both keep a puzzle's title, author and rules in
//! words; what a link cannot hold is said on standard error, not dropped
//! unsaid.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::Completion;
use super::config::Inputs;
use super::target::{Target, write_each};
use crate::error::{Error, Result};
use crate::output::note;
use crate::{import, parse};

/// What `convert` writes.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum OutputFormat {
    /// The native format, one TOML file per puzzle.
    Toml,
    /// An f-puzzles link (sudoku, killer and jigsaw, 4×4 to 16×16), one
    /// `.links` file per puzzle.
    Fpuzzles,
}

#[derive(Debug, Args)]
pub(super) struct ConvertArgs {
    /// The format to write.
    #[arg(long, value_enum, default_value = "toml")]
    to: OutputFormat,
    /// Write to FILE, or one file per puzzle into DIR (needed for many
    /// puzzles; created if need be).
    #[arg(long, short, value_name = "FILE|DIR")]
    output: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: ConvertArgs) -> Result<Completion> {
    a.inputs.check()?;
    let target = Target::of(a.output.as_deref())?;
    match a.to {
        OutputFormat::Toml => write_each(a.inputs.each(), &a.inputs, &target, "toml", |_, p| {
            Ok(parse::to_toml(p))
        })?,
        OutputFormat::Fpuzzles => {
            write_each(a.inputs.each(), &a.inputs, &target, "links", |_, p| {
                let link = import::fpuzzles_link(p)
                    .map_err(|m| Error::Usage(format!("{}: {m}", p.name)))?;
                if let Some(lost) = import::fpuzzles_leaves_out(p) {
                    note(lost);
                }
                Ok(format!("{link}\n"))
            })?
        }
    }
    Ok(Completion::Clean)
}
