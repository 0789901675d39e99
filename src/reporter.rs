//! How solved puzzles are shown: one [`Reporter`] per output format (text
//! grids, JSON Lines, a folder of SVG pictures), each given every puzzle's
//! result as it is decided. Summaries of `bench` and `report` have theirs
//! in [`crate::bench::summary::SummaryFormat`].

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::output::plural;
use crate::output::{Stdout, note, write_file_atomically};
use crate::provenance::Provenance;
use crate::puzzle::Puzzle;
use crate::render::{TextOptions, grid_text_with, svg::svg};
use crate::solve::{Expect, Outcome, PuzzleResult, Sink, Uniqueness, matches_recorded};

/// Shows results as they come.
pub trait Reporter {
    /// Shows one puzzle's result. An error stops the run (standard output
    /// closed or full): nothing more is solved.
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> Result<()>;

    /// Pushes out what [`Reporter::puzzle`] held back: called whenever the
    /// run waits for solvers ([`crate::solve::Sink::idle`]), so each
    /// puzzle shows as soon as nothing else is ready, in one write with
    /// those decided together.
    fn flush(&mut self) -> Result<()> {
        Ok(())
    }

    /// Called once after the last puzzle: the first error kept back, if
    /// any.
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Every reporter of a run, as the [`Sink`] its results go to: each
/// puzzle's findings as notes on standard error, its result to every
/// reporter, and the first failed write, which stops the run.
pub struct Reporters {
    list: Vec<Box<dyn Reporter>>,
    failed: bool,
    error: Option<Error>,
    expect: Option<Expect>,
}

impl Reporters {
    /// Shows results with each of `list`.
    pub fn new(list: Vec<Box<dyn Reporter>>) -> Self {
        Reporters {
            list,
            failed: false,
            error: None,
            expect: None,
        }
    }

    /// Also asserts `expect` of every puzzle: each whose verdict differs
    /// is named on standard error and fails the run.
    pub fn expect(mut self, expect: Option<Expect>) -> Self {
        self.expect = expect;
        self
    }

    /// Whether some puzzle was not solved as asked.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Pushes out what every reporter holds, after the run; the first
    /// write error of the run if there was one.
    pub fn flush(&mut self) -> Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.list.iter_mut().try_for_each(|rep| rep.flush())
    }

    /// Ends every reporter's output, after a run that was not stopped.
    pub fn finish(&mut self) -> Result<()> {
        self.flush()?;
        self.list.iter_mut().try_for_each(|rep| rep.finish())
    }
}

/// Notes, on standard error, what `p`'s runs taken together show that
/// fails the run (disagreements, invalid models of races' losers): the
/// one wording of every command that solves.
pub fn note_findings(p: &Puzzle, r: &PuzzleResult) {
    for f in &r.findings {
        note(format_args!("{}: {}", p.name, f.message()));
    }
}

impl Sink for Reporters {
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> ControlFlow<()> {
        self.failed |= !r.succeeded();
        note_findings(p, r);
        if let Some(e) = self.expect {
            let verdict = r.verdict();
            if !e.met_by(verdict) {
                self.failed = true;
                note(format_args!(
                    "{}: expected {}, found {}",
                    p.name,
                    e.name(),
                    verdict.describe()
                ));
            }
        }
        match self.list.iter_mut().try_for_each(|rep| rep.puzzle(p, r)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    fn idle(&mut self) -> ControlFlow<()> {
        match self.list.iter_mut().try_for_each(|rep| rep.flush()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

/// The verified grids and a line per run, on standard output
/// ([`result_text`]); after the last puzzle, once, the solvers that took
/// no part and why (their runs are listed per puzzle only with
/// `verbose`), and a closing line: puzzles, answers verified, time.
pub struct Text {
    out: Stdout,
    opts: TextOptions,
    tally: Tally,
}

/// What [`Text`] counts for its closing lines.
struct Tally {
    started: std::time::Instant,
    puzzles: usize,
    failed: usize,
    verified: usize,
    unsat: usize,
    /// The solvers that took no part, in order of first appearance.
    absent: Vec<Absent>,
}

/// A solver that took no part in some runs: its label and version, how
/// many runs, and each distinct reason with how many runs it held for.
struct Absent {
    solver: String,
    runs: usize,
    reasons: Vec<(String, usize)>,
}

impl Tally {
    fn new() -> Self {
        Tally {
            started: std::time::Instant::now(),
            puzzles: 0,
            failed: 0,
            verified: 0,
            unsat: 0,
            absent: Vec::new(),
        }
    }

    /// Counts `r`'s runs; the runs that took no part are kept back.
    fn count(&mut self, r: &PuzzleResult) {
        self.puzzles += 1;
        self.failed += usize::from(!r.succeeded());
        for l in &r.lines {
            match &l.run.outcome {
                Outcome::Sat { .. } => self.verified += 1,
                Outcome::Unsat => self.unsat += 1,
                Outcome::Unsupported(why) => {
                    let who = format!(
                        "{} {}",
                        l.run.solver,
                        l.run.version.as_deref().unwrap_or("")
                    )
                    .trim_end()
                    .to_string();
                    let i = match self.absent.iter().position(|a| a.solver == who) {
                        Some(i) => i,
                        None => {
                            self.absent.push(Absent {
                                solver: who,
                                runs: 0,
                                reasons: Vec::new(),
                            });
                            self.absent.len() - 1
                        }
                    };
                    let a = &mut self.absent[i];
                    a.runs += 1;
                    match a.reasons.iter_mut().find(|(w, _)| w == why) {
                        Some((_, n)) => *n += 1,
                        None => a.reasons.push((why.clone(), 1)),
                    }
                }
                _ => {}
            }
        }
    }

    /// The closing lines.
    fn text(&self) -> String {
        let mut s = String::new();
        for a in &self.absent {
            s.push_str(&format!(
                "took no part: {}, in {}\n",
                a.solver,
                plural(a.runs, "run", "runs")
            ));
            for (why, n) in &a.reasons {
                // A run is one script (a puzzle in one encoding), so one
                // puzzle in three encodings counts three here.
                s.push_str(&format!("    {why} ({})\n", plural(*n, "run", "runs")));
            }
        }
        let mut line = plural(self.puzzles, "puzzle", "puzzles");
        if self.failed > 0 {
            line.push_str(&format!(" ({} not solved as asked)", self.failed));
        }
        line.push_str(&format!(
            ", {} verified",
            plural(self.verified, "answer", "answers")
        ));
        if self.unsat > 0 {
            line.push_str(&format!(", {} unsat", self.unsat));
        }
        line.push_str(&format!(
            ", {:.1} s\n",
            self.started.elapsed().as_secs_f64()
        ));
        s.push_str(&line);
        s
    }
}

impl Text {
    /// Writes with `opts` (characters, colour, verbosity).
    pub fn new(opts: TextOptions) -> Self {
        Text {
            out: Stdout::holding(),
            opts,
            tally: Tally::new(),
        }
    }
}

impl Reporter for Text {
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> Result<()> {
        self.tally.count(r);
        if self.opts.verbose {
            return self.out.write_str(&result_text(p, r, &self.opts));
        }
        // Said once at the end, not on every puzzle.
        let mut shown = r.clone();
        shown
            .lines
            .retain(|l| !matches!(l.run.outcome, Outcome::Unsupported(_)));
        if shown.lines.is_empty() {
            shown.lines = r.lines.clone();
        }
        self.out.write_str(&result_text(p, &shown, &self.opts))
    }

    fn flush(&mut self) -> Result<()> {
        self.out.flush()
    }

    fn finish(&mut self) -> Result<()> {
        let text = self.tally.text();
        self.out.write_str(&text)?;
        self.out.flush()
    }
}

/// How records (one per run, puzzle or solver) are written as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonForm {
    /// One JSON document: an array of the records.
    Document,
    /// JSON Lines: one record per line.
    Lines,
}

/// Records written to standard output as they come, in a [`JsonForm`]:
/// the array of a document is opened before the first record and closed
/// by [`Records::finish`], so even a long stream is never held.
///
/// A document is whole however the run ends: dropped unfinished (Ctrl-C,
/// a bad input, a file that cannot be written), `Records` closes the
/// array it opened, or prints `[]` when it wrote no record, so stdout
/// parses as the records written.
pub struct Records {
    out: Stdout,
    form: JsonForm,
    count: usize,
    /// Whether [`Records::finish`] ran: else dropping ends the document.
    finished: bool,
}

impl Records {
    /// Starts writing records in `form`.
    pub fn new(form: JsonForm) -> Self {
        Records {
            out: Stdout::new(),
            form,
            count: 0,
            finished: false,
        }
    }

    /// Starts writing records in `form`, held until [`Records::flush`].
    pub fn holding(form: JsonForm) -> Self {
        Records {
            out: Stdout::holding(),
            form,
            count: 0,
            finished: false,
        }
    }

    /// Writes one record.
    pub fn record(&mut self, value: &impl serde::Serialize) -> Result<()> {
        // A record that cannot be serialised is a failure to write it, not
        // an empty line in the middle of a JSON document.
        let text =
            serde_json::to_string(value).map_err(|e| Error::Output(std::io::Error::other(e)))?;
        match (self.form, self.count) {
            (JsonForm::Lines, _) => writeln!(self.out, "{text}")?,
            (JsonForm::Document, 0) => write!(self.out, "[\n{text}")?,
            (JsonForm::Document, _) => write!(self.out, ",\n{text}")?,
        }
        self.count += 1;
        Ok(())
    }

    /// Pushes out what was written, so each record shows when it is made.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush()
    }

    /// Ends the output (closes a document's array) and flushes it.
    pub fn finish(&mut self) -> Result<()> {
        self.finished = true;
        match (self.form, self.count) {
            (JsonForm::Lines, _) => {}
            (JsonForm::Document, 0) => writeln!(self.out, "[]")?,
            (JsonForm::Document, _) => writeln!(self.out, "\n]")?,
        }
        self.out.flush()
    }
}

impl Drop for Records {
    fn drop(&mut self) {
        if !self.finished {
            // Best effort: the run is ending on another error already,
            // which the exit status reports.
            let _ = self.finish();
        }
    }
}

/// One JSON object per run ([`crate::solve::RunReport`]) on standard
/// output, in a [`JsonForm`].
pub struct Json {
    records: Records,
    provenance: Provenance,
}

impl Json {
    /// Writes records in `form`, each with `provenance`.
    pub fn new(form: JsonForm, provenance: Provenance) -> Self {
        Json {
            records: Records::holding(form),
            provenance,
        }
    }
}

impl Reporter for Json {
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> Result<()> {
        for l in &r.lines {
            let mut report = l.run.report(p);
            report.provenance = Some(self.provenance.clone());
            self.records.record(&report)?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        self.records.flush()
    }

    fn finish(&mut self) -> Result<()> {
        self.records.finish()
    }
}

/// A picture of each solved puzzle with its verified solution, one
/// `.svg` per puzzle in a folder. A file that cannot be written does not
/// stop the run: the first such error is reported at the end.
pub struct SvgFolder {
    dir: PathBuf,
    names: crate::output::OutputNames,
    error: Option<crate::error::Error>,
}

impl SvgFolder {
    /// Writes into `dir`, which exists, the pictures of the puzzles read
    /// from `inputs`, each into its own file.
    pub fn new(dir: &Path, inputs: &[PathBuf]) -> Self {
        SvgFolder {
            dir: dir.to_path_buf(),
            names: crate::output::OutputNames::new(inputs),
            error: None,
        }
    }
}

impl Reporter for SvgFolder {
    fn puzzle(&mut self, p: &Puzzle, r: &PuzzleResult) -> Result<()> {
        // Only a grid the checker accepted is ever drawn.
        if let Some(grid) = r.lines.iter().find_map(|l| l.run.outcome.grid()) {
            let written = self
                .names
                .file(&self.dir, &p.id, "svg")
                .and_then(|path| write_file_atomically(&path, &svg(p, Some(grid))));
            if let Err(e) = written {
                self.error.get_or_insert(e);
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

/// The text report of one puzzle, as `smtgrid solve` prints it (here
/// rather than with the drawing, which knows no runs): its verified grid(s), then a status line
/// per result line; with `opts.verbose`, each followed by the other runs
/// of its race.
pub fn result_text(p: &Puzzle, r: &PuzzleResult, opts: &TextOptions) -> String {
    let mut s = format!("== {} ==\n", p.describe());
    let mut shown: Vec<&crate::model::ValueGrid> = Vec::new();
    for line in &r.lines {
        if let Some(g) = line.run.outcome.grid()
            && !shown.contains(&g)
        {
            if !shown.is_empty() {
                s.push_str(&format!("another solution, from {}:\n", line.run.solver));
            }
            s.push_str(&grid_text_with(p, g, opts));
            shown.push(g);
        }
    }
    for line in &r.lines {
        let run = &line.run;
        let version = run.version.as_deref().unwrap_or("");
        let mut text = format!(
            "{:<18} {:<7} {:<14} {:>8.1} ms",
            format!("{} {version}", run.solver).trim_end().to_string(),
            run.encoding.name(),
            match run.outcome {
                Outcome::Sat { .. } => "sat, verified",
                ref o => o.status().name(),
            },
            run.time_ms
        );
        let second = match &run.outcome {
            Outcome::Sat {
                unique: Some(Uniqueness::NotUnique(g)),
                ..
            } => Some(g),
            _ => None,
        };
        match (run.outcome.unique(), run.outcome.differs()) {
            (Some(true), _) => text.push_str("  unique"),
            (Some(false), Some(cells)) => {
                let cells: Vec<String> =
                    cells.iter().map(|&(r, c)| crate::model::rc(r, c)).collect();
                text.push_str(&format!(
                    "  NOT unique: a second solution differs in {}",
                    cells.join(" ")
                ));
            }
            (Some(false), None) => text.push_str("  NOT unique"),
            (None, _) => {}
        }
        match run.outcome.grid().and_then(|g| matches_recorded(p, g)) {
            Some(true) => text.push_str("  (= recorded solution)"),
            Some(false) if second.is_some() => text.push_str(
                "  (differs from the recorded solution: the puzzle has more than one solution)",
            ),
            Some(false) => text.push_str("  (differs from the recorded solution)"),
            None => {}
        }
        if let Some(e) = run.outcome.message() {
            text.push_str(&format!("\n    {e}"));
        }
        if run.outcome == Outcome::Unsat {
            text.push_str(&format!(
                "\n    {}",
                crate::explain::no_solution_line(p, run.core.as_deref())
            ));
        }
        s.push_str(&text);
        s.push('\n');
        if let Outcome::Sat {
            unique: Some(Uniqueness::NotUnique(g)),
            ..
        } = &run.outcome
        {
            s.push_str(&format!("a second solution, from {}:\n", run.solver));
            s.push_str(&grid_text_with(p, g, opts));
        }
        for o in line.also.iter().filter(|_| opts.verbose) {
            s.push_str(&format!("  also tried: {}\n", o.describe()));
        }
    }
    if r.lines.is_empty() {
        s.push_str("no solver ran\n");
    }
    s.push('\n');
    s
}
