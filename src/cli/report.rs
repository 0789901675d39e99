//! `smtgrid report`: summarises, tabulates and plots results files.

use super::{SummaryArgs, check_summary_args, show_summary};
use crate::bench::summary::summarize;
use crate::error::{Error, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    /// Results files written by `bench --out`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    summary: SummaryArgs,
}

pub(super) fn run(a: ReportArgs) -> Result<i32> {
    let shown = check_summary_args(&a.summary)?;
    let mut records = Vec::new();
    for path in &a.files {
        let loaded = crate::bench::read_results(path)?;
        if let Some(at) = loaded.cut_off {
            eprintln!("smtgrid: {at}: ignoring a cut-off last line (an interrupted write)");
        }
        records.extend(loaded.records);
    }
    if records.is_empty() {
        return Err(Error::Usage(
            "the files hold no runs: give results files written by `smtgrid bench --out`".into(),
        ));
    }
    let summary = summarize(&records);
    show_summary(&summary, &a.summary, shown)?;
    let incomplete = !summary.missing.is_empty() || !summary.duplicates.is_empty();
    Ok(if summary.failed() || incomplete { 1 } else { 0 })
}
