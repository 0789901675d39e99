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
    // `--solver` takes free text (NAME=PATH too), so clap offers files
    // for it; the names smtgrid knows are offered instead.
    let names: Vec<&'static str> = crate::solver::profiles()
        .iter()
        .map(|p| p.name.as_str())
        .chain(["all"])
        .collect();
    let mut cmd = Cli::command();
    for sub in cmd.get_subcommands_mut() {
        if sub.get_arguments().any(|a| a.get_id() == "solver") {
            let values: Vec<clap::builder::PossibleValue> = names
                .iter()
                .map(|&n| clap::builder::PossibleValue::new(n))
                .collect();
            *sub = sub.clone().mut_arg("solver", |a| {
                a.value_parser(clap::builder::PossibleValuesParser::new(values))
            });
        }
    }
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "smtgrid", &mut script);
    print(&script)
}

pub(super) fn man(a: ManArgs) -> Result<Completion> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = a.output else {
        return print(&page(&cmd).map_err(Error::Output)?);
    };
    create_dir("-o", &dir)?;
    // One page per command, named as clap_mangen names them.
    let mut todo = vec![cmd];
    while let Some(cmd) = todo.pop() {
        todo.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
        let man = clap_mangen::Man::new(cmd.clone());
        let file = dir.join(man.get_filename());
        let text = page(&cmd).map_err(Error::Output)?;
        crate::output::write_file_atomically(&file, &text)?;
    }
    note(format_args!("wrote the manual pages to {}", dir.display()));
    Ok(Completion::Clean)
}

/// The manual page of `cmd`: clap_mangen's sections, then EXAMPLES
/// (from the after-help, set without filling or hyphenation so each
/// line can be copied), EXIT STATUS and ENVIRONMENT, then the version.
fn page(cmd: &clap::Command) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut w = Vec::new();
    man.render_title(&mut w)?;
    man.render_name_section(&mut w)?;
    man.render_synopsis_section(&mut w)?;
    man.render_description_section(&mut w)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut w)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut w)?;
    }
    let examples = cmd.get_after_help().map(ToString::to_string);
    if let Some(text) = examples {
        w.extend_from_slice(b".SH EXAMPLES\n.nf\n.nh\n");
        for line in text.lines().filter(|l| l.trim() != "Examples:") {
            w.extend_from_slice(roff_literal(line.trim()).as_bytes());
            w.push(b'\n');
        }
        w.extend_from_slice(b".hy\n.fi\n");
    }
    w.extend_from_slice(SECTIONS.as_bytes());
    man.render_version_section(&mut w)?;
    Ok(w)
}

/// `line` as roff text taken literally: backslashes and minus signs
/// escaped, and a leading `.` or `'` kept from being read as a request.
fn roff_literal(line: &str) -> String {
    let s = line.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with(['.', '\'']) {
        format!("\\&{s}")
    } else {
        s
    }
}

/// EXIT STATUS and ENVIRONMENT, as the README documents them.
const SECTIONS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Everything asked was done (also when the reader of standard output closed it).
.TP
\fB1\fR
Done, but not everything succeeded: a puzzle without a verified answer, solvers that disagree, an incomplete results file.
.TP
\fB2\fR
Not done: bad flags or input, or output that could not be written; the message says which.
.TP
\fB130\fR
Stopped by Ctrl\-C or a termination signal; every solver was stopped.
.SH ENVIRONMENT
.TP
\fBSMTGRID_\fR\fINAME\fR
The binary of solver \fINAME\fR (upper case, e.g. \fBSMTGRID_Z3=/opt/z3/bin/z3\fR), as \fB\-\-solver\fR \fINAME\fR\fB=\fR\fIPATH\fR would give it.
.TP
\fBXDG_CONFIG_HOME\fR
Where \fIsmtgrid/profiles.toml\fR is read from: your own solver profiles (\fB[[solver]]\fR tables, checked strictly; one named like a built\-in profile replaces it). Unset or empty: \fI~/.config\fR. \fB\-\-profiles\fR \fIFILE\fR is read instead.
.TP
\fBNO_COLOR\fR
When set and not empty, no colour, whatever else is set.
.TP
\fBCLICOLOR\fR
\fB0\fR: no colour, even on a terminal.
.TP
\fBCLICOLOR_FORCE\fR
When set and not empty, colour even into a file or pipe (unless \fBNO_COLOR\fR is set).
"#;
