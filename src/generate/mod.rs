//! `smtgrid generate`: new puzzles of every kind, each proven unique and
//! minimal by a solver whose every answer the checker verified, and graded
//! by the search a fixed solver needs.
//!
//! One puzzle, from its own seeded random stream ([`rng::Rng::derived`]):
//!
//! 1. [`draw`]: a layout (boxes, random jigsaw regions, random cages, a
//!    kakuro pattern) or the one a template fixes, a random solution grid
//!    filled by backtracking ([`fill`]), and every clue drawn from it: all
//!    givens, every futoshiki sign, every skyscrapers edge clue, each
//!    cage's clue.
//! 2. [`reduce`]: one solver session holds the puzzle's statements, each
//!    under a Bool of its own (the questions `explain` asks,
//!    `explain::ask`); the known solution, checked first by the
//!    model's checker, is blocked, and the clues are removed orbit by
//!    orbit of the chosen symmetry while `check-sat-assuming` over the
//!    remaining statements says `unsat`. An orbit kept has a second
//!    solution as its witness, which the checker accepted for exactly the
//!    statements that were on, so the result is minimal by clues with
//!    `--symmetry none` and by orbits (and symmetric) with any other
//!    ([`reduce::Minimal`]).
//!    With `--cages merge`, a killer's neighbouring cages are then merged
//!    while it stays unique ([`merge`]), and its givens reduced again.
//! 3. [`grade`]: the finished puzzle runs through the solve layer once on
//!    a fixed solver and encoding with statistics, and propagation alone is
//!    measured; `--grade` keeps only puzzles in its band. Each worker's
//!    puzzles are graded in one session of the grading solver, reset
//!    between them ([`crate::solve::ResetSessions`]), which the run kills
//!    at its end.
//!
//! Only [`adapter`] builds puzzles: the puzzle model is being redesigned
//! into elements.

pub mod adapter;
pub mod draw;
pub mod fill;
pub mod grade;
pub mod merge;
pub mod reduce;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cancel::Cancel;
use crate::elements::{self, Element, Making};
use crate::puzzle::{Kind, Puzzle};
use crate::rng::{self, Rng};
use crate::solve::ResetSessions;
use crate::solve::schedule::{self, JobCtx, JobEnd, Jobs, Slot, StopRule};
use crate::solver::Solver;
use draw::{At, Op};
use grade::Grade;

/// The largest size `generate` takes per kind (docs/generate.md): up to
/// 12 a puzzle is made and reduced well within a minute here (sudoku 16x16
/// in 7 s, jigsaw 12x12 in 15 s); a 25x25 sudoku and a 16x16 killer are
/// made within their time limit by cutting the removal short
/// (`reduce::LARGE_FROM`), a 9x9 kakuro by repairing its fill (74 s).
pub fn max_size(kind: Kind) -> usize {
    match kind {
        Kind::Sudoku => 25,
        Kind::Killer => 16,
        Kind::Jigsaw => 12,
        Kind::Calcudoku | Kind::Futoshiki | Kind::Skyscrapers | Kind::Kakuro => 9,
    }
}

/// The smallest size of every kind: a 3x3 has too few cells to leave any
/// given out in most kinds.
pub const MIN_SIZE: usize = 4;

/// The size `generate KIND` makes without `--size`.
pub fn default_size(kind: Kind) -> usize {
    match kind {
        Kind::Sudoku | Kind::Jigsaw => 9,
        Kind::Killer | Kind::Calcudoku | Kind::Skyscrapers => 6,
        Kind::Futoshiki => 5,
        Kind::Kakuro => 5,
    }
}

/// The solvers that may prove a `kind` puzzle of `size` squares a side
/// unique, the first installed used: yices2, z3, cvc5 (z3 first for
/// calcudoku: yices2 gives no unsat cores for the products of its guarded
/// script); for killers from 16×16 on (`reduce::LARGE_FROM`) Glucose first, on
/// the puzzle over Bools, which proves their long removals faster than
/// yices2 (docs/generate.md).
pub fn provers(kind: Kind, size: usize) -> &'static [&'static str] {
    match kind {
        Kind::Calcudoku => &["z3", "cvc5", "yices2"],
        Kind::Killer if size >= reduce::LARGE_FROM => &["glucose", "yices2", "z3", "cvc5"],
        _ => &["yices2", "z3", "cvc5"],
    }
}

/// Which cells are removed together, so that the givens left are
/// symmetric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// Each cell alone.
    None,
    /// A cell and its image under a half turn.
    Rotational,
    /// A cell and its images under quarter turns.
    Rotational4,
    /// A cell and its mirror image across the main diagonal.
    Diagonal,
    /// A cell and its mirror image left to right.
    Mirror,
    /// A cell and all eight images under turns and mirrors.
    Dihedral,
}

impl Symmetry {
    /// Every symmetry, for the command line.
    pub const ALL: [Symmetry; 6] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Rotational4,
        Symmetry::Diagonal,
        Symmetry::Mirror,
        Symmetry::Dihedral,
    ];

    /// Its name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Rotational4 => "rotational4",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The images of `(r, c)` in an `n`×`n` grid, itself included, sorted.
    pub fn orbit(self, n: usize, (r, c): At) -> Vec<At> {
        let m = n - 1;
        let mut out = vec![(r, c)];
        match self {
            Symmetry::None => {}
            Symmetry::Rotational => out.push((m - r, m - c)),
            Symmetry::Rotational4 => out.extend([(c, m - r), (m - r, m - c), (m - c, r)]),
            Symmetry::Diagonal => out.push((c, r)),
            Symmetry::Mirror => out.push((r, m - c)),
            Symmetry::Dihedral => out.extend([
                (c, m - r),
                (m - r, m - c),
                (m - c, r),
                (c, r),
                (r, m - c),
                (m - r, c),
                (m - c, m - r),
            ]),
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// How a killer's cages are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cages {
    /// As drawn: random cages of 2 to 5 cells (4 up to 6×6).
    Random,
    /// As drawn, then neighbouring cages merged while the puzzle with the
    /// givens kept stays unique ([`merge`]).
    Merge,
}

impl Cages {
    /// Every layout, for the command line.
    pub const ALL: [Cages; 2] = [Cages::Random, Cages::Merge];

    /// Its name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Cages::Random => "random",
            Cages::Merge => "merge",
        }
    }
}

/// What a template fixes of the puzzles made from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fixed {
    /// Nothing: everything is drawn.
    Nothing,
    /// The jigsaw regions.
    Regions(Vec<Vec<At>>),
    /// The cages' cells (their clues are drawn from each solution).
    Cages(Vec<Vec<At>>),
    /// The kakuro squares: which are white.
    Kakuro(Vec<Vec<bool>>),
}

/// An element asked for with `--with`: its line in the registry and the
/// TOML key it was named by (`kropki-negative` asks for every dot and the
/// negative constraint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct With {
    /// Its index in [`elements::REGISTRY`].
    pub entry: usize,
    /// The key, one of the entry's keys.
    pub key: &'static str,
}

impl With {
    /// How the element is made.
    pub fn making(self) -> Making<Element> {
        (elements::REGISTRY[self.entry].making)()
    }
}

/// Reads `--with`'s comma-separated list: each name is an element's name
/// or one of its TOML keys (`thermometer`, `slow-thermometer`,
/// `kropki-negative`, `anti-knight`), or the start of exactly one of them
/// (`thermo`); each must be one `generate` can make.
pub fn with_list(list: &str) -> Result<Vec<With>, String> {
    let mut names: Vec<(&'static str, usize, &'static str)> = Vec::new();
    for (k, e) in elements::REGISTRY.iter().enumerate() {
        let first = e.keys.first().copied().unwrap_or(e.name);
        names.push((e.name, k, first));
        names.extend(e.keys.iter().map(|&key| (key, k, key)));
    }
    names.sort_unstable();
    names.dedup();
    let can: Vec<&str> = elements::REGISTRY
        .iter()
        .filter(|e| !matches!((e.making)(), Making::No))
        .flat_map(|e| e.keys.iter().copied())
        .collect();
    let mut out: Vec<With> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let lower = name.to_ascii_lowercase();
        let exact: Vec<_> = names.iter().filter(|n| n.0 == lower).collect();
        let found: Vec<_> = if exact.is_empty() {
            names.iter().filter(|n| n.0.starts_with(&lower)).collect()
        } else {
            exact
        };
        let mut entries: Vec<(usize, &'static str)> = found.iter().map(|n| (n.1, n.2)).collect();
        entries.sort_unstable();
        entries.dedup();
        let (entry, key) = match entries[..] {
            [one] => one,
            [] => {
                return Err(format!(
                    "--with {name}: no element is called so; these can be generated: {}",
                    can.join(", ")
                ));
            }
            _ => {
                let all: Vec<&str> = found.iter().map(|n| n.0).collect();
                return Err(format!(
                    "--with {name}: names more than one element ({}); write one in full",
                    all.join(", ")
                ));
            }
        };
        let e = &elements::REGISTRY[entry];
        if matches!((e.making)(), Making::No) {
            return Err(format!(
                "--with {name}: {} cannot be generated yet; these can: {}",
                e.name,
                can.join(", ")
            ));
        }
        if let Some(twice) = out.iter().find(|w| w.entry == entry) {
            return Err(format!(
                "--with {name}: {} is asked for twice (as {} too); name it once",
                e.name, twice.key
            ));
        }
        out.push(With { entry, key });
    }
    if out.is_empty() {
        return Err("--with: name at least one element, such as thermo or kropki".into());
    }
    Ok(out)
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct Request {
    /// The kind.
    pub kind: Kind,
    /// Squares per side (kakuro: with its clue row and column).
    pub size: usize,
    /// Sudoku-X: both main diagonals all different too.
    pub diagonals: bool,
    /// Elements on top of the kind's (`--with`), drawn from each solution.
    pub with: Vec<With>,
    /// The operations calcudoku cages may use.
    pub ops: Vec<Op>,
    /// What a template fixes.
    pub fixed: Fixed,
    /// Which givens are removed together.
    pub symmetry: Symmetry,
    /// How a killer's cages are laid out.
    pub cages: Cages,
    /// The fewest and most givens a puzzle may keep.
    pub givens: Option<(usize, usize)>,
    /// Keep only puzzles whose grading effort (conflicts) is in this
    /// range, and name the grade if it is one of [`grade::BANDS`].
    pub effort: Option<(u64, u64)>,
    /// The first seed; puzzle `i` uses the stream derived from it and `i`.
    pub seed: u64,
    /// How many puzzles.
    pub count: usize,
    /// The most time one puzzle may take, every attempt and question
    /// included.
    pub time_limit: Duration,
    /// The options as given, for each puzzle's `source`.
    pub options: String,
    /// Put in each puzzle's name after its kind (the grade asked for), so
    /// that the families of one seed keep apart.
    pub tag: Option<String>,
}

/// A generated puzzle with its proof and grade.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Its position in the run, from 0.
    pub index: usize,
    /// The puzzle, its solution recorded.
    pub puzzle: Puzzle,
    /// How it was reduced and what was proven.
    pub proof: reduce::Proof,
    /// How hard it is.
    pub grade: Grade,
    /// Designs drawn before this one was kept.
    pub attempts: usize,
    /// Time it took.
    pub elapsed: Duration,
}

/// Why a puzzle could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Failure {
    /// Its time limit passed first.
    #[error("not made within its time limit of {0} s ({1} designs tried){2}")]
    TimeLimit(f64, usize, String),
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
    /// The solver failed or gave an answer the checker rejected.
    #[error("{0}")]
    Solver(String),
}

/// The solvers a run uses: one proves uniqueness, one grades.
#[derive(Debug, Clone)]
pub struct Solvers {
    /// Asked whether a clue can go (needs `check-sat-assuming`).
    pub prover: Solver,
    /// Grades each puzzle (a fixed solver, for comparable figures).
    pub grader: Solver,
}

/// The name of the `index`th puzzle of `req` (and of its file, with
/// `.toml`): the kind (`sudoku-x` with both diagonals), the tag, the seed
/// and the index, so that runs of different kinds or bands with one seed
/// name their puzzles apart.
pub fn puzzle_name(req: &Request, index: usize) -> String {
    let kind = match (req.kind, req.diagonals) {
        (Kind::Sudoku, true) => "sudoku-x",
        (kind, _) => kind.name(),
    };
    let tag = req
        .tag
        .as_ref()
        .map(|t| format!("{t}-"))
        .unwrap_or_default();
    format!("{kind}-{tag}{}-{index:04}", req.seed)
}

/// Why no puzzle of `req` can be made, when smtgrid's own search, tried
/// to its end, proved it: no grid of the request's size keeps the groups
/// every one of its designs keeps (rows, columns, the boxes, a template's
/// regions, the diagonals) and its rules over the grid (`--with
/// anti-king`) together. Random regions are left out, so that what holds
/// for no grid holds for every jigsaw. `None` when a grid was found or the
/// budget ended the search first: then nothing is proven, and the run's
/// time limit bounds it. The budget is a design's fill's:
/// the search costs a run at most one more design, and tries every 4×4
/// grid of any rules in milliseconds.
pub fn no_grid(req: &Request) -> Option<String> {
    // A kakuro's runs of at most 9 squares always take digits 1 to 9 (a
    // bipartite graph's edges coloured with its largest degree of
    // colours), and it takes no `--with`.
    if req.kind == Kind::Kakuro {
        return None;
    }
    let boxes = crate::kinds::has_boxes(req.kind);
    let box_shape = match boxes {
        true => Some(draw::box_shape(req.size)?),
        false => None,
    };
    let regions = match &req.fixed {
        Fixed::Regions(r) => r.as_slice(),
        _ => &[],
    };
    let grid = draw::GridRules::of(req, box_shape, regions);
    if grid.search(&mut Rng::new(req.seed), draw::FILL_BUDGET) != fill::Searched::None {
        return None;
    }
    let mut parts = vec!["rows", "columns"];
    let mut drop = Vec::new();
    if boxes {
        parts.push("boxes");
    }
    if !regions.is_empty() {
        parts.push("the template's regions");
        drop.push("use another template".to_string());
    }
    if req.diagonals {
        parts.push("both diagonals");
        drop.push("drop the diagonals".to_string());
    }
    let rules: Vec<&str> = req
        .with
        .iter()
        .filter(|w| matches!(w.making(), Making::Rule(_)))
        .map(|w| w.key)
        .collect();
    drop.extend(rules.iter().map(|r| format!("drop {r} from --with")));
    if req.fixed == Fixed::Nothing {
        drop.push("give another --size".into());
    }
    let last = parts.pop().unwrap_or_default();
    let mut kept = format!("{} and {last} all different", parts.join(", "));
    if !rules.is_empty() {
        kept.push_str(&format!(" with {}", rules.join(" and ")));
    }
    Some(format!(
        "no {n}×{n} {kind} grid keeps its {kept}: smtgrid's own search tried every such grid \
         and found none, so no puzzle can be made; {}",
        drop.join(", or "),
        n = req.size,
        kind = req.kind.name(),
    ))
}

/// Makes puzzle `index` of `req`: draws designs from its stream until one
/// reduces to a puzzle that fits the request, within the time limit. Its
/// grading asks a session of `grading` if given (see [`grade::grade_in`]).
pub fn make(
    req: &Request,
    index: usize,
    solvers: &Solvers,
    grading: Option<&Arc<ResetSessions>>,
    cancel: &Cancel,
) -> Result<Generated, Failure> {
    let start = Instant::now();
    let deadline = start + req.time_limit;
    let mut rng = Rng::derived(req.seed, index as u64);
    let name = puzzle_name(req, index);
    let mut attempts = 0;
    // Why designs were dropped at grading, told if the time runs out.
    let mut last_grading_error = None;
    loop {
        if cancel.is_cancelled() {
            return Err(Failure::Interrupted);
        }
        if Instant::now() >= deadline {
            return Err(Failure::TimeLimit(
                req.time_limit.as_secs_f64(),
                attempts,
                last_grading_error.map_or_else(String::new, |e| {
                    format!("; the last grading run failed: {e}")
                }),
            ));
        }
        attempts += 1;
        let Some(design) = draw::design(req, &mut rng) else {
            continue;
        };
        let reduced = match reduce::reduce(
            req,
            &design,
            &name,
            &mut rng,
            &solvers.prover,
            deadline,
            cancel,
        ) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(reduce::Halt::TimeLimit) => continue,
            Err(reduce::Halt::Interrupted) => return Err(Failure::Interrupted),
            Err(reduce::Halt::Failed(why)) => return Err(Failure::Solver(why)),
        };
        let (puzzle, proof) = reduced;
        if let Some((lo, hi)) = req.givens
            && !(lo..=hi).contains(&proof.givens)
        {
            continue;
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        let grade = match grade::grade_in(&puzzle, &solvers.grader, grading, remaining, cancel) {
            Ok(g) => g,
            Err(_) if cancel.is_cancelled() => return Err(Failure::Interrupted),
            Err(why) => {
                last_grading_error = Some(why);
                continue;
            }
        };
        // The prover's `unsat` made the puzzle unique; the grader's grid,
        // verified, is a second witness. Another grid than the solution
        // proves a second solution: the prover was wrong, and no puzzle of
        // this run can rest on it.
        if crate::solve::matches_recorded(&puzzle, &grade.grid) == Some(false) {
            return Err(Failure::Solver(format!(
                "solvers disagree: {} proved {name} unique, but {}'s answer, which the checker \
                 accepted, is another solution; no puzzle was written",
                solvers.prover.label, solvers.grader.label
            )));
        }
        if let Some((lo, hi)) = req.effort
            && !(lo..=hi).contains(&grade.conflicts)
        {
            continue;
        }
        return Ok(Generated {
            index,
            puzzle,
            proof,
            grade,
            attempts,
            elapsed: start.elapsed(),
        });
    }
}

/// Makes every puzzle of `req`, `jobs` at a time through the one
/// scheduler, and hands each to `emit` in order as soon as it and every
/// one before it are done. `emit` returning [`ControlFlow::Break`] stops
/// the run.
pub fn generate(
    req: &Request,
    solvers: &Solvers,
    jobs: usize,
    cancel: &Cancel,
    mut emit: impl FnMut(usize, Result<Generated, Failure>) -> ControlFlow<()>,
) {
    // One idle grading session per worker; dropped with `work` when the
    // run ends, or is interrupted, which kills them.
    let work = Work {
        req,
        solvers,
        grading: Arc::new(ResetSessions::new(jobs)),
    };
    let limits = schedule::Limits {
        jobs: jobs.max(1),
        window: 2 * jobs.max(1) + 2,
        stagger: Duration::ZERO,
        batch: 1,
    };
    schedule::schedule(&work, 0..req.count, limits, cancel, |&i, ends| {
        let result = ends
            .into_iter()
            .next()
            .and_then(|s| s.jobs.into_iter().next())
            .map_or(Err(Failure::Interrupted), |(_, end)| match end {
                JobEnd::Ran(r) => r,
                JobEnd::NotStarted(_) => Err(Failure::Interrupted),
            });
        emit(i, result)
    });
}

struct Work<'a> {
    req: &'a Request,
    solvers: &'a Solvers,
    /// The grading sessions the workers take in turn.
    grading: Arc<ResetSessions>,
}

impl Jobs for Work<'_> {
    type Group = usize;
    type Job = ();
    type Output = Result<Generated, Failure>;

    fn slots(&self, _: &usize) -> Vec<Slot<()>> {
        vec![Slot {
            jobs: vec![()],
            stop: StopRule::None,
        }]
    }

    fn run(&self, &index: &usize, _: &(), ctx: &JobCtx) -> Self::Output {
        make(
            self.req,
            index,
            self.solvers,
            Some(&self.grading),
            ctx.cancel(),
        )
    }

    fn decisive(&self, _: &Self::Output) -> bool {
        true
    }
}

/// The native TOML of a generated puzzle: the puzzle with its solution,
/// then `[source]` (how to make it again and what was proven) and
/// `[grade]`.
pub fn to_toml(g: &Generated, req: &Request, solvers: &Solvers) -> String {
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let solver = |s: &Solver| s.display_name();
    let p = &g.proof;
    let source = format!(
        "[source]\ngenerator = {}\nseed = {}\nindex = {}\noptions = {}\nsymmetry = {}\n\
         symmetric = {}\nunique = true\nminimal = {}\ngivens = {}\nclues = {}\n\
         proven-by = {}\nquestions = {}\n",
        q(&format!("smtgrid {} generate", env!("CARGO_PKG_VERSION"))),
        req.seed,
        g.index,
        q(&req.options),
        q(req.symmetry.name()),
        p.symmetric,
        q(p.minimal.name()),
        p.givens,
        p.clues,
        q(&solver(&solvers.prover)),
        p.questions,
    );
    let gr = &g.grade;
    let grade = format!(
        "[grade]\nname = {}\nconflicts = {}\ndecisions = {}\npropagated = {:.3}\nby = {}\n",
        q(gr.name),
        gr.conflicts,
        gr.decisions,
        gr.propagated,
        q(&format!("{}/{}", solver(&solvers.grader), grade::ENCODING)),
    );
    let mut puzzle = g.puzzle.clone();
    puzzle.about.tables = vec![("source".into(), source), ("grade".into(), grade)];
    crate::parse::to_toml(&puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_hold_a_cell_s_images_once_each() {
        assert_eq!(Symmetry::None.orbit(9, (1, 2)), [(1, 2)]);
        assert_eq!(Symmetry::Rotational.orbit(9, (1, 2)), [(1, 2), (7, 6)]);
        assert_eq!(Symmetry::Rotational.orbit(9, (4, 4)), [(4, 4)]);
        assert_eq!(Symmetry::Diagonal.orbit(9, (1, 2)), [(1, 2), (2, 1)]);
        assert_eq!(Symmetry::Mirror.orbit(4, (0, 0)), [(0, 0), (0, 3)]);
        assert_eq!(
            Symmetry::Rotational4.orbit(4, (0, 1)),
            [(0, 1), (1, 3), (2, 0), (3, 2)]
        );
        assert_eq!(Symmetry::Dihedral.orbit(9, (0, 1)).len(), 8);
        // Every image's orbit is the same orbit.
        for s in Symmetry::ALL {
            for at in s.orbit(6, (1, 4)) {
                assert_eq!(s.orbit(6, at), s.orbit(6, (1, 4)), "{}", s.name());
            }
        }
    }
}
