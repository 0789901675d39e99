//! `smtgrid bench`: runs every puzzle × solver × encoding, records each
//! run and summarises them.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::Completion;
use super::config::{
    EncodingName, Inputs, MemoryArgs, SolverArgs, StatsArgs, duration, encodings, jobs, plan,
};
use super::report::{SummaryArgs, show_finished, show_summary};
use super::target::create_dir;
use crate::bench::summary::summarize;
use crate::bench::{Progress, Record, ResultsFile, RunKey, RunList, Shard};
use crate::encode::Options;
use crate::error::{Error, Result};
use crate::output::note;
use crate::puzzle::Puzzle;
use crate::solve::{Mode, RunMode, SessionUse};
use crate::solver;

#[derive(Debug, Args)]
pub(super) struct BenchArgs {
    #[command(flatten)]
    solvers: SolverArgs,
    /// Encodings, separated by commas, or `all`.
    #[arg(
        long,
        short,
        default_value = "all",
        value_delimiter = ',',
        value_name = "E,…|all"
    )]
    encoding: Vec<EncodingName>,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit of one run: seconds, or a number and a unit
    /// (500ms, 5s, 2m, 1h), at most a week.
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    timeout: Duration,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    stats: StatsArgs,
    /// Solver processes run at once, 1 to 1024 (default: the number of
    /// cores; twice that with `--mode incremental`).
    #[arg(long, short, value_name = "N", value_parser = jobs())]
    jobs: Option<usize>,
    /// Run each triple K times, interleaved; the median run counts. 1 to
    /// 10000.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::bench::MAX_REPEAT)))]
    repeat: u32,
    /// How solvers run: a process per run, or incremental sessions that
    /// keep one solver per shape and ask each puzzle's givens under
    /// push/pop (solvers without an interactive mode still get processes;
    /// each record says how it ran).
    #[arg(long, default_value = "process")]
    mode: RunMode,
    /// Write each run to FILE (JSON Lines), flushed as each puzzle's runs
    /// finish.
    #[arg(long, short, visible_alias = "out", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write every solver conversation (what smtgrid sent, what came back,
    /// with times and the run it belongs to) into DIR, one JSON Lines file
    /// per solver process, each at most 64 MiB.
    #[arg(long, value_name = "DIR")]
    transcript: Option<PathBuf>,
    /// Skip the runs already in --output and add the rest to it.
    #[arg(long, requires = "output")]
    resume: bool,
    /// Run only the K-th (from 0) of N slices of the run list.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    summary: SummaryArgs,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: BenchArgs) -> Result<Completion> {
    a.inputs.check()?;
    if let Some(path) = &a.output {
        crate::output::claim("-o", path)?;
    }
    let encodings = encodings(&a.encoding);
    let shown = a.summary.check()?;
    // Files are read once for the run list and again for each repeat, so
    // only the puzzles in flight are held; standard input can be read only
    // once, so its puzzles are kept.
    let from_stdin = a.inputs.reads_stdin();
    let mut kept = Vec::new();
    let mut ids = Vec::new();
    for p in a.inputs.each() {
        let p = p.inspect_err(|_| show_finished(&summarize(&[]), &a.summary))?;
        ids.push(p.id.clone());
        if from_stdin {
            kept.push(p);
        }
    }
    crate::bench::check_distinct(&ids)?;
    let pass = || -> Box<dyn Iterator<Item = Result<Puzzle>> + '_> {
        if from_stdin {
            Box::new(kept.iter().cloned().map(Ok))
        } else {
            Box::new(a.inputs.each())
        }
    };
    let sessions = match a.mode {
        RunMode::Process => SessionUse::Never,
        RunMode::Incremental => SessionUse::Always,
    };
    let request = a.solvers.request()?;
    let named = !request.names.is_empty();
    // Like `solve`: every installed solver when none is named; here those
    // that take at least one of the chosen encodings.
    let mut plan = plan(
        request,
        true,
        Mode::Fixed(encodings.clone()),
        a.timeout,
        a.jobs,
    )?
    .options(Options { plain: a.plain })
    .memory(a.memory.limit())
    .stats(a.stats.stats())
    .sessions(sessions)
    .transcript(
        a.transcript
            .as_deref()
            .map(super::transcripts)
            .transpose()?,
    )
    .build();
    // Named solvers run on every chosen encoding (a script one refuses is
    // recorded `unsupported`); by default only what each one takes runs.
    let mut left_out = Vec::new();
    if !named {
        let options = plan.options;
        plan.solvers
            .retain(|s| crate::solve::takes_any(s, &encodings, &options));
        if plan.solvers.is_empty() {
            return Err(Error::Usage(
                "no installed solver takes these encodings' scripts; name one with --solver".into(),
            ));
        }
        for s in &plan.solvers {
            for &e in &encodings {
                if let Some(why) = crate::solve::refusal(s, e, &options) {
                    note(format_args!(
                        "left out {}/{e}: {why}; name the solver with --solver to record it as unsupported",
                        s.label
                    ));
                    left_out.push((s.label.as_str(), e));
                }
            }
        }
    }
    for p in shown.iter().flat_map(|(x, y)| [x, y]) {
        if !plan.solvers.iter().any(|s| s.label == p.solver)
            || !encodings.contains(&p.encoding)
            || left_out.contains(&(p.solver.as_str(), p.encoding))
        {
            return Err(Error::Usage(format!(
                "--scatter {p}: that pair is not benchmarked; pick two of --solver × --encoding"
            )));
        }
    }
    let (mut file, mut records) = match &a.output {
        Some(path) => {
            if let Some(folder) = path.parent()
                && !folder.as_os_str().is_empty()
            {
                create_dir("-o", folder)?;
            }
            // Runs made under other limits or options are not resumed
            // into this file: the file says which setting differs.
            let settings = crate::bench::Settings::of(&plan);
            let (f, loaded) = ResultsFile::open_within(
                path,
                a.resume,
                crate::parse::InputLimits::default(),
                Some(&settings),
            )?;
            (Some(f), loaded.records)
        }
        None => (None, Vec::new()),
    };
    let done: std::collections::HashSet<RunKey> = records.iter().map(Record::key).collect();
    let labels: Vec<&str> = plan.solvers.iter().map(|s| s.label.as_str()).collect();
    // Walked as the runs are made, never collected: `--repeat` times many
    // puzzles may be far more runs than fit in memory.
    let list = RunList {
        puzzles: &ids,
        solvers: &labels,
        encodings: &encodings,
        repeats: a.repeat,
        shard: a.shard,
        done: &done,
        left_out: &left_out,
    };
    let mut progress = Progress::new(list.runs());
    let cancel = solver::install_ctrlc_handler();
    let mut write_error = None;
    let ran = crate::bench::run(pass, list.groups(), &plan, &cancel, |_, new| {
        progress.add(&new);
        for r in &new {
            if let Some(f) = &mut file
                && let Err(e) = f.append(r)
            {
                write_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        records.extend(new);
        ControlFlow::Continue(())
    });
    progress.finish();
    let summary = |records: &[Record]| {
        let mut summary = summarize(records);
        if a.shard.is_some() {
            // The other shards hold the rest: nothing is missing here.
            summary.missing.clear();
        }
        summary
    };
    // Whatever stopped the run, stdout shows the runs that finished, as
    // `solve` shows what it decided: a JSON summary is still whole.
    let stopped = write_error.or(ran.err());
    if stopped.is_some() || cancel.is_cancelled() {
        let mut summary = summarize(&records);
        let made: std::collections::HashSet<RunKey> = records.iter().map(Record::key).collect();
        summary.missing_from(RunList {
            done: &made,
            ..list
        });
        show_finished(&summary, &a.summary);
    }
    if let Some(e) = stopped {
        return Err(e);
    }
    if cancel.is_cancelled() {
        let kept = match &a.output {
            Some(p) => format!(
                "; the finished runs are in {}: add --resume to make the rest",
                p.display()
            ),
            None => String::new(),
        };
        note(format_args!("interrupted; every solver was stopped{kept}"));
        return Ok(Completion::Interrupted);
    }
    let summary = summary(&records);
    show_summary(&summary, &records, &a.summary, shown)?;
    Ok(Completion::failed_if(summary.failed()))
}
