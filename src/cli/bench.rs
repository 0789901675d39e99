//! `smtgrid bench`: runs every puzzle × solver × encoding, records each
//! run and summarises them.

use super::{
    InputArgs, MemoryArgs, SolverArgs, SummaryArgs, check_summary_args, jobs, limits, open,
    show_summary,
};
use crate::bench::summary::summarize;
use crate::bench::{Progress, Record, ResultsFile, RunKey, Shard};
use crate::encode::{Encoding, Options};
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;
use crate::solve::{Mode, Plan, RunMode, SessionUse};
use crate::solver;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct BenchArgs {
    /// Puzzle files (`-` for standard input).
    #[arg(required = true)]
    puzzles: Vec<PathBuf>,
    #[command(flatten)]
    solvers: SolverArgs,
    /// Encodings, separated by commas, or `all`.
    #[arg(long, short, default_value = "all", value_name = "E,…|all")]
    encoding: String,
    /// Use the unsimplified encodings.
    #[arg(long)]
    plain: bool,
    /// Wall-clock limit of one run, in seconds (at most 604800, a week).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    #[command(flatten)]
    memory: MemoryArgs,
    /// Solver processes run at once (default: the number of cores; twice
    /// that with `--mode incremental`).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Run each triple K times, interleaved; the median run counts.
    #[arg(long, default_value_t = 1, value_name = "K")]
    repeat: u32,
    /// How solvers run: a process per run, or incremental sessions that
    /// keep one solver per shape and ask each puzzle's givens under
    /// push/pop (solvers without an interactive mode still get processes;
    /// each record says how it ran).
    #[arg(long, default_value = "process")]
    mode: RunMode,
    /// Write each run to FILE (JSON Lines), flushed as each puzzle's runs
    /// finish.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Skip the runs already in --out and add the rest to it.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Run only the K-th (from 0) of N slices of the run list.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    summary: SummaryArgs,
    #[command(flatten)]
    input: InputArgs,
}

pub(super) fn run(a: BenchArgs) -> Result<i32> {
    let limits = limits(a.timeout, &a.memory)?;
    if a.repeat == 0 {
        return Err(Error::Usage("--repeat must be at least 1".into()));
    }
    let encodings = if a.encoding == "all" {
        Encoding::ALL.to_vec()
    } else {
        a.encoding
            .split(',')
            .map(|name| {
                Encoding::from_name(name).ok_or_else(|| {
                    Error::Usage(format!(
                        "unknown encoding `{name}`: use lia, onehot, bv, a list of them, or all"
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?
    };
    let shown = check_summary_args(&a.summary)?;
    // Files are read once for the run list and again for each repeat, so
    // only the puzzles in flight are held; standard input can be read only
    // once, so its puzzles are kept.
    let from_stdin = a.puzzles.iter().any(|p| p.as_os_str() == "-");
    let mut kept = Vec::new();
    let mut names = Vec::new();
    for path in &a.puzzles {
        for p in open(path, &a.input)? {
            let p = p?;
            names.push(p.name.clone());
            if from_stdin {
                kept.push(p);
            }
        }
    }
    let pass = || -> Box<dyn Iterator<Item = Result<Puzzle>> + '_> {
        if from_stdin {
            return Box::new(kept.iter().cloned().map(Ok));
        }
        Box::new(a.puzzles.iter().flat_map(|path| {
            let stream: Box<dyn Iterator<Item = Result<Puzzle>>> = match open(path, &a.input) {
                Ok(s) => Box::new(s.map(|p| p.map_err(Error::from))),
                Err(e) => Box::new(std::iter::once(Err(e))),
            };
            stream
        }))
    };
    let solvers = a.solvers.request()?.solvers().map_err(Error::Usage)?;
    for p in shown.iter().flat_map(|(x, y)| [x, y]) {
        if !solvers.iter().any(|s| s.label == p.solver) || !encodings.contains(&p.encoding) {
            return Err(Error::Usage(format!(
                "--scatter {p}: that pair is not benchmarked; pick two of --solver × --encoding"
            )));
        }
    }
    let (mut file, mut records) = match &a.out {
        Some(path) => {
            let (f, r) = ResultsFile::open(path, a.resume)?;
            (Some(f), r)
        }
        None => (None, Vec::new()),
    };
    let done: std::collections::HashSet<RunKey> = records.iter().map(Record::key).collect();
    let labels: Vec<&str> = solvers.iter().map(|s| s.label.as_str()).collect();
    let groups = crate::bench::run_list(&names, &labels, &encodings, a.repeat, a.shard, &done);
    drop(names);
    let sessions = match a.mode {
        RunMode::Process => SessionUse::Never,
        RunMode::Incremental => SessionUse::Always,
    };
    let plan = Plan {
        solvers,
        mode: Mode::Fixed(encodings),
        options: Options { plain: a.plain },
        limits,
        jobs: jobs(a.jobs, sessions)?,
        unique: false,
        sessions,
    };
    let total = groups.iter().map(|g| g.pairs.len() as u64).sum();
    let mut progress = Progress::new(total);
    let cancel = solver::install_ctrlc_handler();
    let mut write_error = None;
    let ran = crate::bench::run(pass, &groups, &plan, &cancel, |g, new| {
        progress.add(g.pairs.len(), &new);
        for r in &new {
            if let Some(f) = &mut file
                && let Err(e) = f.append(r)
            {
                write_error = Some(e);
                return std::ops::ControlFlow::Break(());
            }
        }
        records.extend(new);
        std::ops::ControlFlow::Continue(())
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    ran?;
    if cancel.is_cancelled() {
        let kept = match &a.out {
            Some(p) => format!(
                "; the finished runs are in {}: add --resume to make the rest",
                p.display()
            ),
            None => String::new(),
        };
        eprintln!("smtgrid: interrupted; every solver was stopped{kept}");
        return Ok(130);
    }
    let mut summary = summarize(&records);
    if a.shard.is_some() {
        // The other shards hold the rest: nothing is missing here.
        summary.missing.clear();
    }
    show_summary(&summary, &a.summary, shown)?;
    Ok(if summary.failed() { 1 } else { 0 })
}
