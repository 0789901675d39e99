//! `smtgrid report`: summarises, tabulates and plots results files; and
//! the summary flags `bench` shares.

use std::path::PathBuf;

use clap::Args;

use super::Completion;
use super::config::InputSize;
use crate::bench::plot;
use crate::bench::summary::{Pair, Summary, SummaryFormat, summarize};
use crate::error::{Error, Result};
use crate::output::{Stdout, note};

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    /// Results files written by `bench --output`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Report only the runs whose setting FIELD has VALUE, e.g.
    /// timeout_ms=20000, plain=true, asked_mode=process, memory_limit_mb=null
    /// (null: none, or not recorded). Runs made under different settings
    /// are refused without it; repeat it to fix several settings.
    #[arg(long, value_name = "FIELD=VALUE")]
    keep: Vec<crate::bench::settings::Keep>,
    #[command(flatten)]
    size: InputSize,
    #[command(flatten)]
    summary: SummaryArgs,
}

/// How `bench` and `report` show a summary.
#[derive(Debug, Args)]
pub(super) struct SummaryArgs {
    /// Output format of the summary: a text table, CSV rows, `json` (one
    /// document), a Markdown table or a LaTeX tabular.
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
    /// The size of the plots in pixels, each side 300 to 4000 (default
    /// 960x600 for the cactus plot, 700x700 for the scatter).
    #[arg(long, value_name = "WxH")]
    plot_size: Option<plot::PlotSize>,
    /// Show one row per puzzle and one column per pair instead of the
    /// summary: the time of a solved run (± σ over repeats), else its
    /// status; the fastest marked.
    #[arg(long)]
    per_puzzle: bool,
    /// Compare two pairs, e.g. yices2/onehot,z3/onehot: their speed ratio
    /// with a bootstrap confidence interval and a Wilcoxon signed-rank
    /// test, in a sentence to quote, printed alone (see --details).
    #[arg(long, value_name = "A,B")]
    compare: Option<String>,
    /// With --compare: print the summary (or the --per-puzzle table)
    /// after the comparison.
    #[arg(long, requires = "compare")]
    details: bool,
    /// Write one self-contained HTML page (sortable tables, plots,
    /// findings, provenance) into FILE.
    #[arg(long, value_name = "FILE.html")]
    html: Option<PathBuf>,
}

impl SummaryArgs {
    fn scatter_out(&self) -> PathBuf {
        self.scatter_out
            .clone()
            .unwrap_or_else(|| PathBuf::from("scatter.svg"))
    }

    /// Checks the plot file names and reads the --scatter pairs, before
    /// any work.
    /// Every file they name is claimed: none is an input, none is
    /// another flag's.
    pub(super) fn check(&self) -> Result<Option<(Pair, Pair)>> {
        if let Some(p) = &self.plot {
            plot::check_path(p)?;
            crate::output::claim("--plot", p)?;
        }
        if let Some(p) = &self.html {
            crate::output::claim("--html", p)?;
        }
        if let Some(spec) = &self.compare {
            two_pairs("--compare", spec)?;
        }
        let Some(spec) = &self.scatter else {
            return Ok(None);
        };
        plot::check_path(&self.scatter_out())?;
        crate::output::claim("--scatter-out", &self.scatter_out())?;
        two_pairs("--scatter", spec).map(Some)
    }
}

/// `A,B` as two pairs.
fn two_pairs(flag: &str, spec: &str) -> Result<(Pair, Pair)> {
    let pairs: Vec<&str> = spec.split(',').collect();
    let [x, y] = pairs[..] else {
        return Err(Error::Usage(format!(
            "{flag} takes two pairs, A,B (e.g. z3/onehot,yices2/onehot), not `{}`",
            crate::error::escape_controls(spec)
        )));
    };
    let parse = |p: &str| p.trim().parse::<Pair>().map_err(Error::Usage);
    Ok((parse(x)?, parse(y)?))
}

/// Prints the summary on stdout (findings on stderr too, outside the
/// table) and draws the plots.
pub(super) fn show_summary(
    s: &Summary,
    records: &[crate::bench::Record],
    a: &SummaryArgs,
    scatter: Option<(Pair, Pair)>,
) -> Result<()> {
    note_findings(s, a);
    print(&summary_text(s, a)?)?;
    if let Some(path) = &a.plot {
        let svg = match a.plot_size {
            Some(size) => plot::cactus_sized(s, size)?,
            None => plot::cactus(s)?,
        };
        plot::write(path, &svg)?;
    }
    if let Some(path) = &a.html {
        let size = a.plot_size.unwrap_or(plot::PlotSize {
            width: 860,
            height: 540,
        });
        crate::output::write_file_atomically(
            path,
            crate::bench::html::page(s, records, size)?.as_bytes(),
        )?;
    }
    if let Some((x, y)) = scatter {
        let svg = match a.plot_size {
            Some(size) => plot::scatter_sized(s, &x, &y, size)?,
            None => plot::scatter(s, &x, &y)?,
        };
        plot::write(&a.scatter_out(), &svg)?;
    }
    Ok(())
}

/// Prints the summary of a bench that stopped early (Ctrl-C, a bad
/// input, a failed write) on stdout as [`show_summary`] would, so that
/// stdout still holds one whole document, of the runs that finished. The
/// plots and the page are not drawn: a stopped run's would replace those
/// of a whole one, and the results file keeps its runs for `report`.
/// Best effort: the run is ending on another error already.
pub(super) fn show_finished(s: &Summary, a: &SummaryArgs) {
    note_findings(s, a);
    // A pair that finished no run cannot be compared; the table still
    // says what finished.
    let text = summary_text(s, a).unwrap_or_else(|e| {
        note(e);
        table(s, a)
    });
    let _ = print(&text);
}

/// The spread warning, and the findings that the format does not hold,
/// on stderr.
fn note_findings(s: &Summary, a: &SummaryArgs) {
    for line in s.spread_warning().lines() {
        note(line);
    }
    if !a.format.holds_findings() {
        for line in s.findings().lines() {
            note(line);
        }
    }
}

/// The summary table (or the per-puzzle one) in the format asked.
fn table(s: &Summary, a: &SummaryArgs) -> String {
    if a.per_puzzle {
        a.format.export_table(&s.per_puzzle())
    } else {
        a.format.export(s)
    }
}

/// What the summary prints: the comparison asked for first and alone, the
/// table only when asked for too; else the table.
fn summary_text(s: &Summary, a: &SummaryArgs) -> Result<String> {
    let Some(spec) = &a.compare else {
        return Ok(table(s, a));
    };
    let (x, y) = two_pairs("--compare", spec)?;
    let c = s.compare(&x, &y).map_err(Error::Usage)?;
    Ok(match (a.format, a.details) {
        (SummaryFormat::Json, false) => serde_json::to_string_pretty(&c).unwrap_or_default() + "\n",
        // Still one JSON document.
        (SummaryFormat::Json, true) => {
            let details: serde_json::Value = serde_json::from_str(&table(s, a)).unwrap_or_default();
            let both = serde_json::json!({ "comparison": c, "details": details });
            serde_json::to_string_pretty(&both).unwrap_or_default() + "\n"
        }
        (_, false) => c.sentence(),
        (_, true) => format!("{}\n{}", c.sentence(), table(s, a)),
    })
}

/// Writes `text` on stdout; a reader gone away is no failure: it has all
/// it wanted, and the plots are still drawn.
fn print(text: &str) -> Result<()> {
    let mut out = Stdout::new();
    match out.write_str(text).and_then(|()| out.flush()) {
        Err(Error::OutputClosed) | Ok(()) => Ok(()),
        Err(e) => Err(e),
    }
}

pub(super) fn run(a: ReportArgs) -> Result<Completion> {
    for path in &a.files {
        crate::output::protect(path);
    }
    let shown = a.summary.check()?;
    let mut files = Vec::new();
    for path in a.files {
        let loaded = crate::bench::read_results_within(&path, a.size.limits())?;
        if let Some(at) = &loaded.cut_off {
            note(format_args!(
                "{at}: ignoring a cut-off last line (an interrupted write)"
            ));
        }
        files.push((path, loaded));
    }
    let selection = crate::bench::settings::select(files, &a.keep)?;
    if selection.left_out > 0 {
        let keep: Vec<String> = a.keep.iter().map(ToString::to_string).collect();
        note(format_args!(
            "{}: left out {} of {} runs (made under other settings)",
            keep.join(" "),
            selection.left_out,
            selection.left_out + selection.records.len()
        ));
    }
    let records = selection.records;
    if records.is_empty() {
        return Err(Error::Usage(
            "the files hold no runs: give results files written by `smtgrid bench --output`".into(),
        ));
    }
    let summary = summarize(&records);
    show_summary(&summary, &records, &a.summary, shown)?;
    let incomplete = !summary.missing.is_empty() || !summary.duplicates.is_empty();
    Ok(Completion::failed_if(summary.failed() || incomplete))
}
