//! `smtgrid new`: prints a starter puzzle file, or lists the starters.

use clap::Args;

use super::Completion;
use crate::error::{Error, Result};
use crate::output::Stdout;
use crate::templates::{STARTERS, names, template};

#[derive(Debug, Args)]
pub(super) struct NewArgs {
    /// The starter: a kind (sudoku, killer, …) or a variant (sudoku-x,
    /// thermo, kropki, …). Without it, the starters are listed.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(names()))]
    name: Option<String>,
    /// Grid size of a kind's starter, 1 to 64 (3 to 64 for kakuro; default: the template's).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
}

pub(super) fn run(a: NewArgs) -> Result<Completion> {
    let text = match a.name {
        Some(name) => template(&name, a.size).map_err(Error::Usage)?,
        None if a.size.is_some() => {
            return Err(Error::Usage(
                "--size needs a kind: `smtgrid new sudoku --size 6`".to_string(),
            ));
        }
        None => list(),
    };
    let mut out = Stdout::new();
    out.write_str(&text)?;
    out.flush()?;
    Ok(Completion::Clean)
}

/// The starters, one a line with what each is.
fn list() -> String {
    let w = names().map(str::len).max().unwrap_or(0);
    let mut text =
        String::from("Starters (`smtgrid new NAME > mine.toml`; kinds also take --size N):\n");
    for s in STARTERS {
        text.push_str(&format!("  {:w$}  {}\n", s.name, s.about()));
    }
    text
}
