//! What several commands share: the puzzle inputs, the solver request,
//! the encodings and time limit, read once per command into the library's
//! types (a [`Plan`] for the commands that solve).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use crate::encode::Encoding;
use crate::error::{Error, Result};
use crate::parse::{self, InputFormat};
use crate::puzzle::Puzzle;
use crate::render::TextStyle;
use crate::reporter::JsonForm;
use crate::solve::{MAX_JOBS, MAX_TIMEOUT, Mode, Plan, PlanBuilder, StatsUse};
use crate::solver::{MemoryLimit, SolverRequest};

/// The puzzle files a command reads, and how.
#[derive(Debug, Args)]
pub(super) struct Inputs {
    /// Puzzle files (`-` for standard input, once).
    #[arg(required = true, value_name = "PUZZLE")]
    pub(super) puzzles: Vec<PathBuf>,
    /// Input format; by default taken from the extension, else the content.
    #[arg(long)]
    input_format: Option<InputFormat>,
    #[command(flatten)]
    size: InputSize,
    #[command(flatten)]
    import: ImportArgs,
}

/// How links, ISS strings and f-puzzles JSON are read (docs/import.md).
#[derive(Debug, Args)]
pub(super) struct ImportArgs {
    /// Read an imported puzzle without the keys and constraint types
    /// smtgrid does not know (each is listed as ignored) instead of
    /// refusing it.
    #[arg(long)]
    ignore_unknown: bool,
    /// What SudokuPad lines and f-puzzles `line` drawings of a colour mean
    /// (the rules text says): `COLOR=MEANING`, e.g. `67f067=whispers`, or
    /// `COLOR=ignore` for a decoration. Repeat for several colours.
    #[arg(long, value_name = "COLOR=MEANING")]
    line: Vec<String>,
    /// What SudokuPad arrows of a colour mean, as --line.
    #[arg(long, value_name = "COLOR=MEANING")]
    arrow: Vec<String>,
    /// What SudokuPad overlays and underlays (dots, circles, shading) and
    /// f-puzzles `circle` and `rectangle` drawings of a colour mean, as
    /// --line.
    #[arg(long, value_name = "COLOR=MEANING")]
    overlay: Vec<String>,
    /// Rules over the whole grid that the rules text states and the
    /// imported puzzle does not, by element name or f-puzzles key:
    /// `anti-knight,anti-king`, `disjointgroups`, `nonconsecutive`,
    /// `diagonal+`. Only for puzzles read from links and f-puzzles JSON (a
    /// puzzle file states its own: `anti-knight = true`).
    #[arg(long, value_name = "RULE,…")]
    with: Vec<String>,
}

impl ImportArgs {
    /// The options the importers read with.
    fn options(&self) -> Result<crate::import::Options> {
        use crate::import::DrawnKind;
        let mut o = crate::import::Options {
            ignore_unknown: self.ignore_unknown,
            meanings: Vec::new(),
            with: Vec::new(),
        };
        for list in &self.with {
            o.add_with(list).map_err(Error::Usage)?;
        }
        for (what, specs) in [
            (DrawnKind::Line, &self.line),
            (DrawnKind::Arrow, &self.arrow),
            (DrawnKind::Overlay, &self.overlay),
        ] {
            for spec in specs {
                o.add_meaning(what, spec).map_err(Error::Usage)?;
            }
        }
        Ok(o)
    }
}

/// `--max-input-mb MB`, shared by every command that reads files.
#[derive(Debug, Args)]
pub(super) struct InputSize {
    /// Read at most this many MB (2^20 bytes) of one input, counted after
    /// decompressing a .gz: 1 to 1048576.
    #[arg(long, value_name = "MB", default_value_t = parse::DEFAULT_MAX_INPUT_MB,
          value_parser = clap::value_parser!(u64).range(1..=parse::MAX_INPUT_MB))]
    max_input_mb: u64,
}

impl InputSize {
    /// The limits the reader applies to one input.
    pub(super) fn limits(&self) -> parse::InputLimits {
        parse::InputLimits::with_max_mb(self.max_input_mb)
    }
}

impl Inputs {
    /// Refuses a second `-` (standard input can be read only once), and
    /// marks every input as one that no output flag may write over.
    pub(super) fn check(&self) -> Result<()> {
        for p in &self.puzzles {
            crate::output::protect(p);
        }
        if self.puzzles.iter().filter(|p| *p == Path::new("-")).count() > 1 {
            return Err(Error::Usage(
                "`-` (standard input) is given more than once, but standard input can be read \
                 only once; give `-` once"
                    .into(),
            ));
        }
        self.import.options()?;
        Ok(())
    }

    /// Whether standard input is one of the inputs.
    pub(super) fn reads_stdin(&self) -> bool {
        self.puzzles.iter().any(|p| p.as_os_str() == "-")
    }

    /// The puzzles of `path`, parsed as they are read: a file of many
    /// puzzles is never held whole.
    pub(super) fn open(&self, path: &Path) -> Result<parse::PuzzleStream> {
        let limits = self.size.limits();
        let import = self.import.options()?;
        Ok(parse::open_with(path, self.input_format, limits, &import)?)
    }

    /// The puzzles of every input, in order, each file opened when the
    /// one before it runs out; the first error is the last item.
    pub(super) fn each(&self) -> impl Iterator<Item = Result<Puzzle>> + '_ {
        let mut paths = self.puzzles.iter();
        let mut current: Option<parse::PuzzleStream> = None;
        let mut done = false;
        // No file after an error is opened (it could be standard input).
        std::iter::from_fn(move || {
            while !done {
                if let Some(stream) = &mut current {
                    match stream.next() {
                        Some(Ok(p)) => return Some(Ok(p)),
                        Some(Err(e)) => {
                            done = true;
                            return Some(Err(e.into()));
                        }
                        None => current = None,
                    }
                }
                match self.open(paths.next()?) {
                    Ok(s) => current = Some(s),
                    Err(e) => {
                        done = true;
                        return Some(Err(e));
                    }
                }
            }
            None
        })
    }

    /// Like [`Inputs::each`], but the first error ends the stream and is
    /// kept in `error`, so that what came before it is still solved and
    /// reported.
    pub(super) fn stream<'a>(
        &'a self,
        error: &'a RefCell<Option<Error>>,
    ) -> impl Iterator<Item = Puzzle> + 'a {
        self.each().map_while(move |p| match p {
            Ok(p) => Some(p),
            Err(e) => {
                error.borrow_mut().get_or_insert(e);
                None
            }
        })
    }
}

/// Encodings on the command line: names, or `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EncodingName {
    One(Encoding),
    All,
}

/// Every encoding of the encoder table, then `all`.
pub(super) const ENCODING_NAMES: [EncodingName; Encoding::COUNT + 1] = {
    let mut v = [EncodingName::All; Encoding::COUNT + 1];
    let mut i = 0;
    while i < Encoding::COUNT {
        v[i] = EncodingName::One(Encoding::ALL[i]);
        i += 1;
    }
    v
};

impl ValueEnum for EncodingName {
    fn value_variants<'a>() -> &'a [Self] {
        &ENCODING_NAMES
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            EncodingName::One(e) => PossibleValue::new(e.name()).help(e.summary()),
            EncodingName::All => PossibleValue::new("all").help("Every encoding"),
        })
    }
}

/// The encodings named, in order, each once; `all` stands for every one.
pub(super) fn encodings(names: &[EncodingName]) -> Vec<Encoding> {
    let mut list = Vec::new();
    for n in names {
        let add: &[Encoding] = match n {
            EncodingName::One(e) => std::slice::from_ref(e),
            EncodingName::All => &Encoding::ALL,
        };
        for e in add {
            if !list.contains(e) {
                list.push(*e);
            }
        }
    }
    list
}

/// Output formats of the commands that print records: one JSON document,
/// or a stream of JSON Lines.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(super) enum Format {
    /// Text for people.
    Text,
    /// One JSON document: an array of the records, written as they come.
    Json,
    /// JSON Lines: one record per line, each a JSON object.
    Jsonl,
}

impl Format {
    /// How records are written, for the JSON formats.
    pub(super) fn json(self) -> Option<JsonForm> {
        match self {
            Format::Text => None,
            Format::Json => Some(JsonForm::Document),
            Format::Jsonl => Some(JsonForm::Lines),
        }
    }
}

/// `--solver` and `--solver-cmd`.
#[derive(Debug, Args)]
pub(super) struct SolverArgs {
    /// Solvers to use: names separated by commas, `all`, or `NAME=PATH` to
    /// point a solver at a binary (`z3@TAG=PATH` adds a second z3).
    #[arg(long, value_name = "NAME,…|all|NAME=PATH")]
    solver: Vec<String>,
    /// Add a solver not in the table: `NAME=/path/bin ARGS…`; it gets the
    /// script's path as its last argument. Select it with `--solver NAME`.
    #[arg(long, value_name = "NAME=CMD")]
    solver_cmd: Vec<String>,
}

impl SolverArgs {
    /// The flags as given (each with a leading space, empty when none
    /// was), for a command line that makes the same run again.
    pub(super) fn flags(&self) -> String {
        let mut s = String::new();
        if !self.solver.is_empty() {
            s.push_str(&format!(" --solver {}", self.solver.join(",")));
        }
        for cmd in &self.solver_cmd {
            s.push_str(&format!(" --solver-cmd '{cmd}'"));
        }
        s
    }

    /// The one solver a command that asks one (`explain`, `solve --all`)
    /// uses: the first named or found; a note says which when several
    /// were named (`who` names the command in it).
    pub(super) fn one_solver(&self, who: &str) -> Result<crate::solver::Solver> {
        let request = self.request()?;
        let mut solvers = request.solvers().map_err(Error::Usage)?.into_iter();
        let Some(solver) = solvers.next() else {
            return Err(Error::Usage(
                "no solver found; see `smtgrid solvers`".into(),
            ));
        };
        if solvers.next().is_some() {
            crate::output::note(format_args!(
                "{who} asks one solver; using {}",
                solver.display_name()
            ));
        }
        Ok(solver)
    }

    /// The solvers asked for.
    pub(super) fn request(&self) -> Result<SolverRequest> {
        // `--solver a,b=PATH` selects several; each may point at a binary.
        let mut names = Vec::new();
        for value in &self.solver {
            for name in value.split(',') {
                if name.trim().is_empty() {
                    return Err(Error::Usage(format!(
                        "`--solver '{value}'` has an empty solver name; give NAME, NAME,NAME…, \
                         all, NAME=PATH or PROFILE@TAG=PATH"
                    )));
                }
                names.push(name.to_string());
            }
        }
        SolverRequest::parse(&names, &self.solver_cmd).map_err(Error::Usage)
    }
}

/// `--stats WHEN`, shared by `solve`, `bench` and `inspect --solve`.
#[derive(Debug, Args)]
pub(super) struct StatsArgs {
    /// Ask each solver for its search statistics after each answer
    /// (conflicts, decisions, propagations: `stats` in JSON records):
    /// `auto` asks the solvers whose profile calls it cheap (z3, yices2)
    /// in one-shot runs, not in sessions,
    /// `always` also cvc5 and cvc4 (milliseconds a question), `never`
    /// none. See docs/stats.md.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        value_name = "auto|always|never"
    )]
    stats: StatsWhen,
}

/// When statistics are asked for.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum StatsWhen {
    /// Of the solvers whose profile calls the question cheap.
    Auto,
    /// Of every solver whose profile says how it answers.
    Always,
    /// Never.
    Never,
}

impl StatsArgs {
    /// The setting.
    pub(super) fn stats(&self) -> StatsUse {
        match self.stats {
            StatsWhen::Auto => StatsUse::Auto,
            StatsWhen::Always => StatsUse::Always,
            StatsWhen::Never => StatsUse::Never,
        }
    }
}

/// `--memory-limit MB`, shared by `solve` and `bench`.
#[derive(Debug, Args)]
pub(super) struct MemoryArgs {
    /// Stop a solver whose processes use more than MB MiB of resident
    /// memory together (status `memout`), 1 to 1048576. Enforced by a
    /// watcher that sums the solver's process group every 10 ms; each
    /// record says so.
    #[arg(long, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(1..=crate::solver::MemoryLimit::MAX_MB))]
    memory_limit: Option<u64>,
}

impl MemoryArgs {
    /// The limit, if one was given.
    pub(super) fn limit(&self) -> Option<MemoryLimit> {
        self.memory_limit.map(|mb| MemoryLimit { mb })
    }
}

/// Starts the one [`Plan`] of `solve`, `bench` and `render`: the solvers
/// of `request` (every installed one when none is named and `all_by_default`),
/// in `mode`, with the time limit and `--jobs` given.
pub(super) fn plan(
    mut request: SolverRequest,
    all_by_default: bool,
    mode: Mode,
    timeout: Duration,
    jobs: Option<usize>,
) -> Result<PlanBuilder> {
    if all_by_default && request.names.is_empty() {
        request.names.push("all".into());
    }
    let solvers = request.solvers().map_err(Error::Usage)?;
    Ok(Plan::builder(solvers, mode).timeout(timeout).jobs(jobs))
}

/// `--jobs N`: 1 to [`MAX_JOBS`], refused by clap (exit 2) before any
/// thread or process starts.
pub(super) fn jobs() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS as u64)
}

/// Reads a time limit: seconds (`90`, `0.5`), or a number with a unit,
/// `ms`, `s`, `m` or `h` (`500ms`, `5s`, `2m`, `1h`). A limit below a
/// millisecond could not even start a solver, and one above a week
/// overflows the clock arithmetic: both are refused before anything
/// starts.
pub(super) fn duration(text: &str) -> std::result::Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)]
        .iter()
        .find_map(|&(suffix, unit)| t.strip_suffix(suffix).map(|n| (n, unit)))
        .unwrap_or((t, 1.0));
    let secs = number.trim().parse::<f64>().map_err(|_| {
        format!(
            "`{text}` is not a time: give seconds (90), or a number and a unit: 500ms, 5s, 2m, 1h"
        )
    })? * unit;
    let max = MAX_TIMEOUT.as_secs_f64();
    if !(0.001..=max).contains(&secs) {
        return Err(format!(
            "a time limit must be from 0.001 s to {max} s (a week), not {text}"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Box-drawing cage and region borders on a terminal, plain ASCII
/// elsewhere or when asked.
pub(super) fn text_style(ascii: bool) -> TextStyle {
    use std::io::IsTerminal;
    if ascii || !std::io::stdout().is_terminal() {
        TextStyle::Ascii
    } else {
        TextStyle::Boxes
    }
}
