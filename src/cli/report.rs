//! `smtgrid report`: summarises, tabulates and plots results files; and
//! the summary flags `bench` shares.

use std::path::PathBuf;

use clap::Args;

use super::Completion;
use crate::bench::plot;
use crate::bench::summary::{Pair, Summary, SummaryFormat, summarize};
use crate::error::{Error, Result};
use crate::output::{Stdout, note};

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    /// Results files written by `bench --output`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    summary: SummaryArgs,
}

/// How `bench` and `report` show a summary.
#[derive(Debug, Args)]
pub(super) struct SummaryArgs {
    /// Output format of the summary: a table, CSV rows, or `json` (one
    /// document).
    #[arg(long, value_enum, default_value = "table")]
    format: SummaryFormat,
    /// Draw a cactus plot (one line per solver/encoding) into FILE: SVG, or
    /// PNG when its name ends in `.png`.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,
    /// Draw a head-to-head scatter of two pairs, e.g. z3/onehot,yices2/onehot.
    #[arg(long, value_name = "A,B")]
    scatter: Option<String>,
    /// Where --scatter draws (SVG, or PNG for a `.png` name); default
    /// scatter.svg.
    #[arg(long, value_name = "FILE.svg|FILE.png", requires = "scatter")]
    scatter_out: Option<PathBuf>,
}

impl SummaryArgs {
    fn scatter_out(&self) -> PathBuf {
        self.scatter_out
            .clone()
            .unwrap_or_else(|| PathBuf::from("scatter.svg"))
    }

    /// Checks the plot file names and reads the --scatter pairs, before
    /// any work.
    pub(super) fn check(&self) -> Result<Option<(Pair, Pair)>> {
        if let Some(p) = &self.plot {
            plot::check_path(p)?;
        }
        let Some(spec) = &self.scatter else {
            return Ok(None);
        };
        plot::check_path(&self.scatter_out())?;
        let pairs: Vec<&str> = spec.split(',').collect();
        let [x, y] = pairs[..] else {
            return Err(Error::Usage(format!(
                "--scatter takes two pairs, A,B (e.g. z3/onehot,yices2/onehot), not `{spec}`"
            )));
        };
        let parse = |p: &str| p.trim().parse::<Pair>().map_err(Error::Usage);
        Ok(Some((parse(x)?, parse(y)?)))
    }
}

/// Prints the summary on stdout (findings on stderr too, outside the
/// table) and draws the plots.
pub(super) fn show_summary(
    s: &Summary,
    a: &SummaryArgs,
    scatter: Option<(Pair, Pair)>,
) -> Result<()> {
    if !a.format.holds_findings() {
        for line in s.findings().lines() {
            note(line);
        }
    }
    let mut out = Stdout::new();
    match out
        .write_str(&a.format.export(s))
        .and_then(|()| out.flush())
    {
        // The reader has all it wanted; the plots are still drawn.
        Err(Error::OutputClosed) | Ok(()) => {}
        Err(e) => return Err(e),
    }
    if let Some(path) = &a.plot {
        plot::write(path, &plot::cactus(s)?)?;
    }
    if let Some((x, y)) = scatter {
        plot::write(&a.scatter_out(), &plot::scatter(s, &x, &y)?)?;
    }
    Ok(())
}

pub(super) fn run(a: ReportArgs) -> Result<Completion> {
    let shown = a.summary.check()?;
    let mut records = Vec::new();
    for path in &a.files {
        let loaded = crate::bench::read_results(path)?;
        if let Some(at) = loaded.cut_off {
            note(format_args!(
                "{at}: ignoring a cut-off last line (an interrupted write)"
            ));
        }
        records.extend(loaded.records);
    }
    if records.is_empty() {
        return Err(Error::Usage(
            "the files hold no runs: give results files written by `smtgrid bench --output`".into(),
        ));
    }
    let summary = summarize(&records);
    show_summary(&summary, &a.summary, shown)?;
    let incomplete = !summary.missing.is_empty() || !summary.duplicates.is_empty();
    Ok(Completion::failed_if(summary.failed() || incomplete))
}
