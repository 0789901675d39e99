//! `smtgrid completions` and `smtgrid man`: shell completions and manual
//! pages, generated from the same clap definitions that parse the command
//! line, so they never fall behind it.

use std::path::PathBuf;

use clap::{Args, CommandFactory};

use super::target::create_dir;
use super::{Cli, Completion};
use crate::error::{Error, Result};
use crate::output::{Stdout, note};

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell to complete for.
    shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// Write one page per command (smtgrid.1, smtgrid-solve.1, …) into DIR,
    /// created if need be; otherwise the main page goes to standard output.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Prints `bytes` on standard output.
fn print(bytes: &[u8]) -> Result<Completion> {
    let mut out = Stdout::new();
    out.write_str(&String::from_utf8_lossy(bytes))?;
    out.flush()?;
    Ok(Completion::Clean)
}

pub(super) fn completions(a: CompletionsArgs) -> Result<Completion> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "smtgrid", &mut script);
    print(&script)
}

pub(super) fn man(a: ManArgs) -> Result<Completion> {
    let Some(dir) = a.output else {
        let mut page = Vec::new();
        clap_mangen::Man::new(Cli::command())
            .render(&mut page)
            .map_err(Error::Output)?;
        return print(&page);
    };
    create_dir(&dir)?;
    clap_mangen::generate_to(Cli::command(), &dir).map_err(|source| Error::Io {
        path: dir.clone(),
        source,
    })?;
    note(format_args!("wrote the manual pages to {}", dir.display()));
    Ok(Completion::Clean)
}
