//! `smtgrid generate`: new puzzles, each proven unique and minimal and
//! graded, one native TOML file per puzzle.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::Completion;
use super::config::{SolverArgs, duration, jobs};
use super::target::create_dir;
use crate::error::{Error, Result, did_you_mean};
use crate::generate::draw::Op;
use crate::generate::{self, Cages, Fixed, Request, Solvers, Symmetry, adapter, grade};
use crate::output::{Stdout, note, write_file_atomically};
use crate::puzzle::Kind;
use crate::solver::{self, SolverRequest, read_versions};

/// The most puzzles one run makes.
const MAX_COUNT: u64 = 100_000;

/// What `generate` writes on standard output, a line per puzzle (the
/// TOML files in DIR are written either way).
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    /// The file, what was proven and the grade.
    Summary,
    /// The puzzle's f-puzzles link (sudoku, killer and jigsaw, 4×4 to
    /// 16×16, and elements with an f-puzzles form), as `convert --to
    /// fpuzzles` writes it.
    Links,
}

#[derive(Debug, Args)]
pub(super) struct GenerateArgs {
    /// A kind (sudoku, sudoku-x, killer, calcudoku, kakuro, jigsaw,
    /// futoshiki, skyscrapers), or a puzzle file to use as a template: its
    /// regions, cage layout or kakuro squares are kept, the rest is drawn.
    what: String,
    /// Squares per side (kakuro: with its clue row and column).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// How many puzzles, 1 to 100000.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT))]
    count: u64,
    /// The seed: the same seed and options make the same puzzles (default:
    /// from the clock, printed).
    #[arg(long, value_name = "S",
          value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Which givens are removed together.
    #[arg(long, value_enum, default_value = "rotational")]
    symmetry: Symmetry,
    /// Killer: `merge` joins neighbouring cages while the puzzle stays
    /// unique (fewer, larger cages, as Tatham's killers), `random` keeps
    /// the drawn cages of 2 to 5 cells.
    #[arg(long, value_enum, default_value = "random")]
    cages: Cages,
    /// Keep MIN to MAX givens (`20-30`); removal stops at MIN.
    #[arg(long, value_name = "MIN-MAX", value_parser = range)]
    givens: Option<(u64, u64)>,
    /// Keep only puzzles of this grade (conflicts bands calibrated on
    /// published puzzles, docs/generate.md).
    #[arg(long, value_parser = ["easy", "medium", "hard", "fiendish"], conflicts_with = "effort")]
    grade: Option<String>,
    /// Keep only puzzles whose grading solver needs this many conflicts
    /// (`30-200`).
    #[arg(long, value_name = "CONFLICTS-RANGE", value_parser = range)]
    effort: Option<(u64, u64)>,
    /// Calcudoku: the cage operations allowed, from `+-*/` (default: all
    /// four).
    #[arg(long, value_name = "OPS")]
    ops: Option<String>,
    /// Both main diagonals hold different digits too (sudoku, killer,
    /// jigsaw).
    #[arg(long)]
    diagonals: bool,
    /// Time for each puzzle, every attempt and question included: a puzzle
    /// not made by then is reported and the run goes on.
    #[arg(long, default_value = "60", value_parser = duration, value_name = "TIME")]
    time_limit: Duration,
    /// Puzzles made at once, 1 to 1024 (default: the number of cores).
    #[arg(long, short, value_name = "N", value_parser = jobs())]
    jobs: Option<usize>,
    /// Elements drawn from each solution on top of the kind's, by name or
    /// TOML key or its start (`thermo,kropki`; `kropki-negative`: every
    /// dot and the negative constraint; `anti-knight`); they stay, and
    /// givens are removed.
    #[arg(long, value_name = "ELEMENT,…")]
    with: Option<String>,
    /// Write the puzzles into DIR (created if need be), one TOML each
    /// (required).
    // Not required by clap: a mistyped kind is the first thing to say.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
    /// What to print for each puzzle.
    #[arg(long, value_enum, default_value = "summary")]
    format: Format,
    #[command(flatten)]
    solvers: SolverArgs,
}

fn range(text: &str) -> std::result::Result<(u64, u64), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let parse = |s: &str| {
        let s = s.trim();
        s.parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("`{text}`: {s} is too large; the most is {}", u64::MAX)
            }
            _ => format!("`{text}` is not a range: write MIN-MAX, such as 20-30"),
        })
    };
    let (lo, hi) = (parse(a)?, parse(b)?);
    if lo > hi {
        return Err(format!("`{text}`: MIN must not be above MAX"));
    }
    Ok((lo, hi))
}

/// The kind, size, diagonals and fixed parts of `what`: a kind's name or a
/// template file.
fn what(a: &GenerateArgs) -> Result<(Kind, Option<usize>, bool, Fixed)> {
    if a.what == "sudoku-x" {
        return Ok((Kind::Sudoku, None, true, Fixed::Nothing));
    }
    if let Some(kind) = Kind::from_name(&a.what) {
        return Ok((kind, None, a.diagonals, Fixed::Nothing));
    }
    let path = Path::new(&a.what);
    if !path.exists() {
        let kinds: Vec<&str> = Kind::ALL
            .iter()
            .map(|k| k.name())
            .chain(["sudoku-x"])
            .collect();
        return Err(Error::Usage(format!(
            "`{}` is neither a kind nor a puzzle file{}: the kinds are {}",
            a.what,
            did_you_mean(&a.what, kinds.iter().copied()),
            kinds.join(", ")
        )));
    }
    // The template is an input: no puzzle is written over it.
    crate::output::protect(path);
    let mut puzzles = crate::parse::load(path, None).map_err(Error::Input)?;
    if puzzles.len() != 1 {
        return Err(Error::Usage(format!(
            "{}: a template is one puzzle; this file holds {}",
            a.what,
            puzzles.len()
        )));
    }
    let (kind, size, diagonals, fixed) = adapter::template(&puzzles.remove(0))
        .map_err(|why| Error::Usage(format!("{}: {why}", a.what)))?;
    Ok((kind, Some(size), diagonals || a.diagonals, fixed))
}

/// Refuses the run before anything is made when a file it would write
/// exists already: a generated puzzle costs seconds to minutes, and a file
/// of that name may be another run's puzzle or the user's own.
fn refuse_existing(dir: &Path, req: &Request) -> Result<()> {
    let taken = (0..req.count)
        .map(|i| dir.join(format!("{}.toml", generate::puzzle_name(req, i))))
        .find(|f| f.symlink_metadata().is_ok());
    match taken {
        Some(file) => Err(Error::Usage(format!(
            "{} exists already: generate writes no file over another; remove it, or give \
             another folder with -o or another --seed",
            file.display()
        ))),
        None => Ok(()),
    }
}

/// Refuses a folder no file can be written into, before anything is
/// made: a puzzle may take minutes, and would be lost at its write.
fn refuse_unwritable(dir: &Path) -> Result<()> {
    let probe = tempfile::Builder::new()
        .prefix(".smtgrid-")
        .suffix(".tmp")
        .tempfile_in(dir);
    probe.map(drop).map_err(|e| {
        Error::Usage(format!(
            "{}: no file can be written into this folder ({e}); give one you can write to with -o",
            dir.display()
        ))
    })
}

pub(super) fn run(a: GenerateArgs) -> Result<Completion> {
    let with = match &a.with {
        Some(list) => generate::with_list(list).map_err(Error::Usage)?,
        None => Vec::new(),
    };
    let (kind, template_size, diagonals, fixed) = what(&a)?;
    let Some(output) = &a.output else {
        return Err(Error::Usage(
            "generate needs -o DIR: the folder to write the puzzles into".into(),
        ));
    };
    if kind == Kind::Kakuro && !with.is_empty() {
        return Err(Error::Usage(
            "--with: a kakuro's squares are not a grid of values 1 to n; generate elements on \
             another kind"
                .into(),
        ));
    }
    let size = match (template_size, a.size) {
        (Some(t), Some(s)) if s != t => {
            return Err(Error::Usage(format!(
                "--size {s}: the template is {t} squares wide; drop --size or use another template"
            )));
        }
        (Some(t), _) => t,
        (None, s) => s.unwrap_or(generate::default_size(kind)),
    };
    let (lo, hi) = (generate::MIN_SIZE, generate::max_size(kind));
    if !(lo..=hi).contains(&size) {
        let given = match template_size {
            Some(_) => format!("the template is {size} squares a side"),
            None => format!("--size {size}"),
        };
        return Err(Error::Usage(format!(
            "{given}: generate makes {} puzzles of {lo} to {hi} squares a side",
            kind.name()
        )));
    }
    if let Some((lo, hi)) = a.givens
        && lo > (size * size) as u64
    {
        return Err(Error::Usage(format!(
            "--givens {lo}-{hi}: a {size}×{size} grid has {} squares; give at most that many",
            size * size
        )));
    }
    if a.format == Format::Links {
        crate::import::fpuzzles::holds(kind, size, size).map_err(|why| {
            Error::Usage(format!(
                "--format links: {why}; drop --format links for the TOML files"
            ))
        })?;
    }
    if crate::kinds::has_boxes(kind) && generate::draw::box_shape(size).is_none() {
        return Err(Error::Usage(format!(
            "--size {size}: a {} needs boxes, and {size} has no factors for them; try 4, 6, 8, 9, \
             12 or 16 (or jigsaw for any size)",
            kind.name()
        )));
    }
    if diagonals && !matches!(kind, Kind::Sudoku | Kind::Killer | Kind::Jigsaw) {
        return Err(Error::Usage(format!(
            "--diagonals applies to sudoku, killer and jigsaw, not {}",
            kind.name()
        )));
    }
    if a.cages == Cages::Merge && (kind != Kind::Killer || matches!(fixed, Fixed::Cages(_))) {
        return Err(Error::Usage(match kind {
            Kind::Killer => "--cages merge: the template fixes the cages; drop one of them".into(),
            k => format!("--cages applies to killer, not {}", k.name()),
        }));
    }
    if let Some(ops) = &a.ops
        && kind != Kind::Calcudoku
    {
        let of = match fixed {
            Fixed::Nothing => String::new(),
            _ => format!(" (the template is a {})", kind.name()),
        };
        return Err(Error::Usage(format!(
            "--ops {ops}: applies to calcudoku only, not {}{of}; drop --ops",
            kind.name()
        )));
    }
    let ops_text = a.ops.as_deref().unwrap_or("+-*/");
    let ops: Vec<Op> = ops_text
        .chars()
        .map(Op::from_symbol)
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Error::Usage(format!(
                "--ops {ops_text}: give operations from +-*/, such as +*"
            ))
        })?;
    if ops.is_empty() {
        return Err(Error::Usage("--ops: give at least one of +-*/".into()));
    }
    let effort = match (&a.grade, a.effort) {
        (Some(g), _) => grade::band(g),
        (None, e) => e,
    };
    let seed = a.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        now & (i64::MAX as u64)
    });
    let givens = a.givens.map(|(l, h)| (l as usize, h as usize));
    let mut options = format!(
        "{} --size {size} --symmetry {}",
        kind.name(),
        a.symmetry.name()
    );
    if diagonals {
        options.push_str(" --diagonals");
    }
    if kind == Kind::Killer && a.cages != Cages::Random {
        options.push_str(&format!(" --cages {}", a.cages.name()));
    }
    if kind == Kind::Calcudoku {
        options.push_str(&format!(" --ops {ops_text}"));
    }
    if !with.is_empty() {
        let keys: Vec<&str> = with.iter().map(|w| w.key).collect();
        options.push_str(&format!(" --with {}", keys.join(",")));
    }
    if let Some((l, h)) = givens {
        options.push_str(&format!(" --givens {l}-{h}"));
    }
    if let Some((l, h)) = effort {
        options.push_str(&format!(" --effort {l}-{h}"));
    }
    if fixed != Fixed::Nothing {
        options.push_str(&format!(" (template {})", a.what));
    }
    let req = Request {
        kind,
        size,
        diagonals,
        with,
        ops,
        fixed,
        symmetry: a.symmetry,
        cages: a.cages,
        givens,
        effort,
        seed,
        count: a.count as usize,
        time_limit: a.time_limit,
        options,
        tag: match (&a.grade, effort) {
            (Some(g), _) => Some(g.clone()),
            (None, Some((l, h))) => Some(format!("e{l}-{h}")),
            (None, None) => None,
        },
    };
    if let Some(why) = generate::no_grid(&req) {
        return Err(Error::Usage(why));
    }
    let cancel = solver::install_ctrlc_handler();
    let solvers = pick_solvers(&a.solvers.request()?, kind, size, a.time_limit, &cancel)?;
    create_dir("-o", output)?;
    refuse_existing(output, &req)?;
    refuse_unwritable(output)?;
    if a.seed.is_none() {
        note(format_args!(
            "seed {seed} (give --seed {seed} to make these puzzles again)"
        ));
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| crate::solve::default_jobs(crate::solve::SessionUse::Never));
    let mut out = Stdout::new();
    let mut failed = false;
    let mut error = None;
    generate::generate(&req, &solvers, jobs, &cancel, |i, result| {
        let step = match result {
            Ok(g) => {
                let file = output.join(format!("{}.toml", g.puzzle.name));
                let link = match a.format {
                    Format::Summary => Ok(None),
                    Format::Links => crate::import::fpuzzles_link(&g.puzzle).map(Some).map_err(|m| {
                        Error::Usage(format!(
                            "--format links: {} has no f-puzzles link: {m}; drop --format links \
                             for the TOML files",
                            g.puzzle.name
                        ))
                    }),
                };
                let written = link.and_then(|link| {
                    write_file_atomically(&file, &generate::to_toml(&g, &req, &solvers))?;
                    Ok(link)
                });
                written.and_then(|link| match link {
                    Some(link) => out.write_str(&format!("{link}\n")),
                    None => out.write_str(&format!(
                        "{}: {} givens, {} clues, unique{}, {} ({} conflicts, {:.0} % by \
                         propagation), {:.2} s\n",
                        file.display(),
                        g.proof.givens,
                        g.proof.clues,
                        match (g.proof.minimal, g.proof.cut_short) {
                            (crate::generate::reduce::Minimal::Clues, _) => ", minimal",
                            (crate::generate::reduce::Minimal::Orbits, _) => ", orbit-minimal",
                            (crate::generate::reduce::Minimal::No, true) => {
                                ", not shown minimal (the removal reached its share of \
                                 --time-limit; a longer one may let it finish)"
                            }
                            (crate::generate::reduce::Minimal::No, false) => "",
                        },
                        g.grade.name,
                        g.grade.conflicts,
                        100.0 * g.grade.propagated,
                        g.elapsed.as_secs_f64()
                    )),
                })
            }
            Err(why) => {
                failed = true;
                note(format_args!("puzzle {i} (seed {seed}): {why}"));
                Ok(())
            }
        };
        match step {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                error = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    out.flush()?;
    if cancel.is_cancelled() {
        return Ok(Completion::Interrupted);
    }
    Ok(Completion::failed_if(failed))
}

/// The solver that proves (the first of `--solver`, else the first found of
/// [`generate::provers`]) and the one that grades (z3, fixed so that
/// grades compare), each with its version, probed within `limit` (the
/// time for a puzzle).
fn pick_solvers(
    request: &SolverRequest,
    kind: Kind,
    size: usize,
    limit: Duration,
    cancel: &crate::cancel::Cancel,
) -> Result<Solvers> {
    let mut request = request.clone();
    let named = !request.names.is_empty();
    if !named {
        request.names = vec!["all".into()];
    }
    let found = request.solvers().map_err(Error::Usage)?;
    let prover = if named {
        found.first().cloned()
    } else {
        generate::provers(kind, size)
            .iter()
            .find_map(|n| found.iter().find(|s| s.profile.name == *n).cloned())
    };
    let grader = found
        .iter()
        .find(|s| s.profile.name == "z3")
        .cloned()
        .or_else(|| {
            let mut z3 = request.clone();
            z3.names = vec!["z3".into()];
            z3.solvers().ok()?.into_iter().next()
        });
    let (Some(prover), Some(grader)) = (prover, grader) else {
        return Err(Error::Usage(
            "generate needs yices2, z3 or cvc5 to prove uniqueness and z3 to grade; see \
             `smtgrid solvers`"
                .into(),
        ));
    };
    let mut both = [prover, grader];
    read_versions(&mut both, limit, cancel);
    let [prover, grader] = both;
    Ok(Solvers { prover, grader })
}
