//! `smtgrid inspect`: what puzzles lower and encode into, and with
//! `--solve` what solving them costs in each encoding.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Duration;

use clap::Args;

use super::Completion;
use super::config::{EncodingName, Format, Inputs, SolverArgs, duration, encodings, plan};
use crate::encode::{Encoding, Options};
use crate::error::{Error, Result};
use crate::inspect::{Inspection, StatementScripts};
use crate::output::Stdout;
use crate::puzzle::Puzzle;
use crate::reporter::Records;
use crate::solve::{Mode, SessionUse, StatsUse, solve_all};
use crate::solver::{self, Cancel};

#[derive(Debug, Args)]
pub(super) struct InspectArgs {
    /// Encodings, separated by commas, or `all` for every one side by side
    /// (default: lia; with --constraint, all).
    #[arg(long, short, value_delimiter = ',', value_name = "E,…|all")]
    encoding: Vec<EncodingName>,
    /// Show one statement of the puzzle as each encoding states it, with
    /// the declarations it uses: a name as `explain` gives them, e.g.
    /// `cage a`, `row 3`, `column 7`, `box 5`, `given r1c2`, `diagonal`
    /// (repeatable; every statement the name starts is shown).
    #[arg(long, value_name = "STATEMENT")]
    constraint: Vec<String>,
    /// Inspect the propagated form (cells the givens decide left out);
    /// without it, the whole puzzle as `emit` writes it.
    #[arg(long)]
    propagate: bool,
    /// The whole puzzle, unsimplified: the default (kept for old scripts).
    #[arg(long, hide = true, conflicts_with = "propagate")]
    plain: bool,
    /// Also solve each puzzle in each encoding (a process per run) and
    /// show the status, time and search effort (conflicts, decisions,
    /// propagations) of each solver; every solver that reports
    /// statistics is asked for them.
    #[arg(long)]
    solve: bool,
    #[command(flatten)]
    solvers: SolverArgs,
    /// With --solve: the wall-clock limit of one run (seconds, or 500ms,
    /// 5s, 2m, 1h).
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    timeout: Duration,
    /// Output format: text, `json` (one document: an array of one object
    /// per puzzle) or `jsonl` (one object per puzzle, a line each).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    inputs: Inputs,
}

pub(super) fn run(a: InspectArgs) -> Result<Completion> {
    a.inputs.check()?;
    let encs = match (a.encoding.is_empty(), a.constraint.is_empty()) {
        (false, _) => encodings(&a.encoding),
        (true, true) => vec![Encoding::Lia],
        (true, false) => Encoding::ALL.to_vec(),
    };
    let opts = Options {
        plain: !a.propagate,
    };
    let cancel = solver::install_ctrlc_handler();
    let mut out = Output::new(a.format);
    if !a.constraint.is_empty() {
        for p in a.inputs.each() {
            let p = &p?;
            let i = Inspection::new(p, &encs, &opts, &cancel)?;
            for q in &a.constraint {
                let shown = i.statement_scripts(q).map_err(Error::Usage)?;
                out.statements(p, &shown)?;
            }
        }
    } else if a.solve {
        solve_each(&a, &encs, &opts, &cancel, &mut out)?;
    } else {
        for p in a.inputs.each() {
            let p = &p?;
            out.write(&Inspection::new(p, &encs, &opts, &cancel)?)?;
        }
    }
    if cancel.is_cancelled() {
        return Ok(Completion::Interrupted);
    }
    out.finish()?;
    Ok(Completion::Clean)
}

/// Solves each puzzle with every chosen solver in every encoding and
/// writes its inspection with the runs.
fn solve_each(
    a: &InspectArgs,
    encs: &[Encoding],
    opts: &Options,
    cancel: &Cancel,
    out: &mut Output,
) -> Result<()> {
    let plan = plan(
        a.solvers.request()?,
        false,
        Mode::Fixed(encs.to_vec()),
        a.timeout,
        None,
    )?
    .options(*opts)
    .sessions(SessionUse::Never)
    .stats(StatsUse::Always)
    .build();
    let input_error = RefCell::new(None);
    let mut failed: Option<Error> = None;
    solve_all(
        a.inputs.stream(&input_error),
        &plan,
        cancel,
        |p: &Puzzle, r| {
            let written = Inspection::new(p, encs, opts, cancel)
                .map_err(Error::from)
                .and_then(|mut i| {
                    i.solved(r);
                    out.write(&i)
                });
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    );
    if let Some(e) = input_error.into_inner() {
        return Err(e);
    }
    failed.map_or(Ok(()), Err)
}

/// Where inspections go: text or JSON records.
enum Output {
    Text(Stdout),
    Json(Records),
}

impl Output {
    fn new(format: Format) -> Output {
        match format.json() {
            Some(form) => Output::Json(Records::new(form)),
            None => Output::Text(Stdout::new()),
        }
    }

    fn write(&mut self, i: &Inspection<'_>) -> Result<()> {
        match self {
            Output::Json(r) => r.record(&i.json()),
            Output::Text(out) => out.write_str(&i.text()),
        }
    }

    fn statements(&mut self, p: &Puzzle, shown: &[StatementScripts]) -> Result<()> {
        match self {
            Output::Json(r) => r.record(&serde_json::json!({
                "puzzle": p.name,
                "statements": shown,
            })),
            Output::Text(out) => shown.iter().try_for_each(|s| out.write_str(&s.text())),
        }
    }

    fn finish(self) -> Result<()> {
        match self {
            Output::Json(mut r) => r.finish(),
            Output::Text(mut out) => out.flush(),
        }
    }
}
