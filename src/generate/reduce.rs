//! Removing clues while the puzzle stays unique, with every claim proven
//! by a solver session whose answers the checker verified.
//!
//! The design's solution is checked against the full puzzle's model first:
//! it is the "first solution" of every question. "Is the puzzle still
//! unique without these clues?" is then one `check-sat-assuming` over the
//! statements left on with that solution blocked: `unsat` is the proof,
//! and a `sat` comes with a second solution the checker accepted for
//! exactly the statements that were on (see `explain::ask`).

use std::collections::HashSet;
use std::time::Instant;

use super::adapter::{self, Item};
use super::draw::{self, At, Design};
use super::merge;
use super::rng::Rng;
use super::{Cages, Fixed, Request};
use crate::cancel::Cancel;
use crate::encode::{Options, propagated_values};
use crate::explain::ask::{Answer, Asker, Extra, Stop};
use crate::lower::lower_with_statements;
use crate::model::{Model, Statement, What, derive};
use crate::puzzle::{Kind, Puzzle};
use crate::solver::Solver;

/// What a reduction proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// Given digits kept.
    pub givens: usize,
    /// Removable clues kept: givens, signs and edge clues.
    pub clues: usize,
    /// What removing a kept clue or orbit was shown to do.
    pub minimal: Minimal,
    /// Whether the givens kept are symmetric under the request's symmetry.
    pub symmetric: bool,
    /// Questions asked of the solver.
    pub questions: usize,
    /// Whether a large grid's removal stopped at its share of the time
    /// limit with orbits not asked (so [`Minimal::No`] for want of time,
    /// which a longer limit may cure).
    pub cut_short: bool,
}

/// In what sense a reduced puzzle is minimal: each case is shown by a
/// second solution the checker accepted for every kept clue or orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minimal {
    /// Removing any one kept clue gives a second solution (`--symmetry
    /// none`).
    Clues,
    /// Removing any one kept orbit of the symmetry as a whole gives a
    /// second solution; a single given of an orbit may still go alone, so
    /// that the givens stay symmetric.
    Orbits,
    /// Neither: `--givens` stopped the removal at its minimum, or a large
    /// grid's removal (or one of its questions) reached its share of the
    /// time limit, with a clue or orbit kept that was never shown needed.
    No,
}

impl Minimal {
    /// Its value in a generated puzzle's `[source]`.
    pub fn name(self) -> &'static str {
        match self {
            Minimal::Clues => "clues",
            Minimal::Orbits => "orbits",
            Minimal::No => "no",
        }
    }
}

/// Why a reduction stopped without a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The time limit passed.
    TimeLimit,
    /// Ctrl-C.
    Interrupted,
    /// The solver failed or answered wrongly.
    Failed(String),
}

impl From<Stop> for Halt {
    fn from(s: Stop) -> Halt {
        match s {
            Stop::TimeLimit => Halt::TimeLimit,
            Stop::Interrupted => Halt::Interrupted,
            s @ Stop::Contradicted(_) => Halt::Failed(s.to_string()),
            Stop::Unknown(w) | Stop::Failed(w) => Halt::Failed(w),
        }
    }
}

/// The statements of `statements` that hold each removable clue of
/// `items`, in order; `None` if lowering stated them otherwise than the
/// adapter lists them.
fn statements_of(items: &[Item], statements: &[Statement]) -> Option<Vec<usize>> {
    let removable: Vec<usize> = statements
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.what, What::Given | What::Sign | What::EdgeClue))
        .map(|(k, _)| k)
        .collect();
    if removable.len() != items.len() {
        return None;
    }
    for (&k, item) in removable.iter().zip(items) {
        let ok = match (item, statements[k].what) {
            (Item::Given(at), What::Given) => statements[k].cells.first() == Some(at),
            (Item::Sign(_), What::Sign) | (Item::Edge(..), What::EdgeClue) => true,
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    Some(removable)
}

/// From this side on, the removal of givens ends at two thirds of the
/// time limit (a 25×25's session is asked hundreds of questions), and a
/// puzzle cut short is unique but not shown minimal.
pub(crate) const LARGE_FROM: usize = 16;

/// On a large grid, one removal question may take at most this share of
/// the removal's time (an eighth: 5 s of the default limit's 40 s).
const QUESTION_SHARE: u32 = 8;

/// The puzzle of `d` with the clues `keep` says to keep, lowered with its
/// statements (a killer's with its implied sums, always on), and its
/// drawn solution in the model's cell order, checked by the model's
/// checker: the first solution of every question.
pub(super) fn lowered(
    d: &Design,
    name: &str,
    keep: impl Fn(&Item) -> bool,
) -> Result<(Model, Vec<Statement>, Vec<i64>), Halt> {
    let full = adapter::puzzle(d, name, keep);
    let (mut model, statements) = lower_with_statements(&full);
    if d.kind == Kind::Killer {
        // A killer's innies, outies and unit sums follow from its cages
        // and units alone, which a reduction never turns off: stated
        // under no statement (always on), they spare the solver the
        // arithmetic it would otherwise search for. `explain` leaves them
        // out, as it turns cages off.
        let implied = derive::implied(&model);
        model.constraints.extend(implied);
    }
    let solution: Vec<i64> = model
        .cells
        .iter()
        .map(|c| i64::from(d.solution[c.row][c.col]))
        .collect();
    if let Err(v) = model.check(&solution) {
        return Err(Halt::Failed(format!(
            "internal: the drawn solution breaks the puzzle: {v}"
        )));
    }
    Ok((model, statements, solution))
}

/// A session holding `statements`: over Bools alone
/// ([`crate::encode::encode_guarded`]) for a solver that takes
/// `QF_UF` and no integers (Glucose), which is sound here as the
/// questions of `generate` never turn off a sum or an all-different.
pub(super) fn session<'a>(
    model: &'a Model,
    statements: &'a [Statement],
    solver: &Solver,
    deadline: Instant,
    cancel: &Cancel,
) -> Result<Asker<'a>, Stop> {
    let bools = !solver.accepts_logic("QF_LIA") && solver.accepts_logic("QF_UF");
    Asker::start_in(model, statements, solver, deadline, cancel, bools)
}

/// Whether propagation alone (naked and hidden singles, arithmetic
/// pruning: what the `onehot` encoder does before emitting) fixes every
/// cell of `model` under the statements `on` keeps. Propagation removes no
/// value a solution uses, so the puzzle then has one solution at most,
/// and the drawn one is it. This spares the solver a question during the
/// removal, and never stands as the proof: the clues finally kept are
/// proven unique by the solver all the same.
fn propagation_decides(
    model: &Model,
    statements: &[Statement],
    on: &[bool],
    cancel: &Cancel,
) -> bool {
    let mut off = vec![false; model.constraints.len()];
    for (s, _) in statements.iter().zip(on).filter(|(_, on)| !**on) {
        for &c in &s.constraints {
            if let Some(o) = off.get_mut(c) {
                *o = true;
            }
        }
    }
    let kept = Model {
        name: String::new(),
        title: None,
        rows: model.rows,
        cols: model.cols,
        cells: model.cells.clone(),
        constraints: (model.constraints.iter().zip(&off))
            .filter(|(_, off)| !**off)
            .map(|(c, _)| c.clone())
            .collect(),
    };
    propagated_values(&kept, &Options::default(), cancel)
        .is_ok_and(|values| values.iter().all(Option::is_some))
}

/// Kakuro repairs a drawn design may take before another is drawn.
const KAKURO_REPAIRS: usize = 40;

/// A kakuro's fill made unique: while a second solution (checked) exists,
/// a square where it differs is blacked out with its image under a half
/// turn ([`draw::kakuro_black_out`]); `None` when too few white squares
/// would be left or [`KAKURO_REPAIRS`] did not do. Random kakuro fills of
/// more than 4×4 white squares are almost never unique as drawn.
fn unique_kakuro(
    d: &Design,
    name: &str,
    rng: &mut Rng,
    solver: &Solver,
    deadline: Instant,
    cancel: &Cancel,
) -> Result<Option<Design>, Halt> {
    let mut d = d.clone();
    for _ in 0..KAKURO_REPAIRS {
        let (model, statements, solution) = lowered(&d, name, |_| true)?;
        let mut asker = session(&model, &statements, solver, deadline, cancel)?;
        let all: Vec<usize> = (0..statements.len()).collect();
        let second = match asker.ask(&all, &[Extra::Differs(solution.clone())])? {
            Answer::Unsat(_) => return Ok(Some(d)),
            Answer::Sat(second) => second,
        };
        let differ: Vec<At> = model
            .cells
            .iter()
            .zip(second.iter().zip(&solution))
            .filter(|(_, (a, b))| a != b)
            .map(|(c, _)| (c.row, c.col))
            .collect();
        if differ.is_empty() || !draw::kakuro_black_out(&mut d, differ[rng.below(differ.len())]) {
            return Ok(None);
        }
    }
    Ok(None)
}

/// What every question about one puzzle is asked with: the puzzle's
/// name, the solver, the time limit and the user's Ctrl-C.
#[derive(Clone, Copy)]
pub(super) struct Asking<'a> {
    /// The puzzle's name.
    pub name: &'a str,
    /// The prover.
    pub solver: &'a Solver,
    /// When the puzzle's time is up.
    pub deadline: Instant,
    /// Ctrl-C.
    pub cancel: &'a Cancel,
}

/// Reduces `d` to a unique, minimal puzzle named `name`: `Ok(None)` when
/// the design is not unique even with every clue (a kakuro's fill, a
/// template's cages), so that another must be drawn.
pub fn reduce(
    req: &Request,
    d: &Design,
    name: &str,
    rng: &mut Rng,
    solver: &Solver,
    deadline: Instant,
    cancel: &Cancel,
) -> Result<Option<(Puzzle, Proof)>, Halt> {
    let repaired;
    let d = if d.kind == Kind::Kakuro && !matches!(req.fixed, Fixed::Kakuro(_)) {
        match unique_kakuro(d, name, rng, solver, deadline, cancel)? {
            Some(r) => {
                repaired = r;
                &repaired
            }
            None => return Ok(None),
        }
    } else {
        d
    };
    let at = Asking {
        name,
        solver,
        deadline,
        cancel,
    };
    let Some((kept, proof)) = remove(req, &at, d, rng, None)? else {
        return Ok(None);
    };
    let merging = req.cages == Cages::Merge
        && d.kind == Kind::Killer
        && !matches!(req.fixed, Fixed::Cages(_));
    if merging {
        let (m, asked) = merge::merge(&at, d, &kept, rng)?;
        if m.cages.len() < d.cages.len() {
            // Merging cages can make a kept given redundant: the merged
            // design's removal starts from the givens kept and asks about
            // each again, so that the result is minimal in its own cages.
            let Some((kept, mut again)) = remove(req, &at, &m, rng, Some(&kept))? else {
                return Err(Halt::Failed(
                    "internal: the merged killer was proven unique and is not".into(),
                ));
            };
            again.questions += proof.questions + asked;
            let puzzle = adapter::puzzle(&m, name, |it| kept.contains(it));
            return Ok(Some((puzzle, again)));
        }
    }
    let puzzle = adapter::puzzle(d, name, |it| kept.contains(it));
    Ok(Some((puzzle, proof)))
}

/// Removes the clues of `d` while it stays unique, from every clue or from
/// those of `start`: the clues kept and what was proven, `None` when the
/// design is not unique with them.
fn remove(
    req: &Request,
    at: &Asking,
    d: &Design,
    rng: &mut Rng,
    start: Option<&HashSet<Item>>,
) -> Result<Option<(HashSet<Item>, Proof)>, Halt> {
    let Asking {
        name,
        solver,
        deadline,
        cancel,
    } = *at;
    let items = adapter::items(d);
    let (model, statements, solution) = lowered(d, name, |_| true)?;
    let Some(stmt) = statements_of(&items, &statements) else {
        return Err(Halt::Failed(format!(
            "internal: the {} puzzle's statements do not match its clues",
            d.kind.name()
        )));
    };
    // A large grid's removal ends at two thirds of the time left, so that
    // a unique puzzle cut short is still graded within the limit.
    let large = d.n >= LARGE_FROM;
    let removal = match large {
        true => {
            let now = Instant::now();
            now + deadline.saturating_duration_since(now) * 2 / 3
        }
        false => deadline,
    };
    let mut asker = session(&model, &statements, solver, removal, cancel)?;
    let cap = removal.saturating_duration_since(Instant::now()) / QUESTION_SHARE;
    let mut on = vec![true; statements.len()];
    if let Some(start) = start {
        for (i, item) in items.iter().enumerate() {
            on[stmt[i]] = start.contains(item);
        }
    }
    let blocked = [Extra::Differs(solution.clone())];
    // `None`: still unique; else the second solution, checked.
    let ask = |asker: &mut Asker, on: &[bool]| -> Result<Option<Vec<i64>>, Halt> {
        let list: Vec<usize> = (0..on.len()).filter(|&k| on[k]).collect();
        match asker.ask(&list, &blocked)? {
            Answer::Unsat(_) => Ok(None),
            Answer::Sat(second) => Ok(Some(second)),
        }
    };
    if ask(&mut asker, &on)?.is_some() {
        return Ok(None);
    }
    // Orbits of removable clues: givens under the symmetry, the others
    // one by one; in random order, givens first for skyscrapers so that
    // its puzzles are mostly edge clues.
    let index_of = |item: &Item| items.iter().position(|i| i == item);
    let mut seen = HashSet::new();
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if !seen.insert(i) {
            continue;
        }
        let orbit: Vec<usize> = match item {
            Item::Given(at) => req
                .symmetry
                .orbit(d.n, *at)
                .iter()
                .filter_map(|a| index_of(&Item::Given(*a)))
                .collect(),
            _ => vec![i],
        };
        seen.extend(orbit.iter().copied());
        orbits.push(orbit);
    }
    rng.shuffle(&mut orbits);
    if d.kind == Kind::Skyscrapers {
        orbits.sort_by_key(|o| !matches!(items[o[0]], Item::Given(_)));
    }
    let min_givens = req.givens.map_or(0, |(lo, _)| lo);
    let is_given = |i: usize| matches!(items[i], Item::Given(_));
    let mut givens = (0..items.len())
        .filter(|&i| is_given(i) && on[stmt[i]])
        .count();
    // Clues shown needed by a second solution: still needed once more
    // clues are gone, as a solution of more statements is one of fewer.
    // An orbit that could not go is needed for good: a second solution
    // of more statements is one of fewer.
    let mut needed = vec![false; orbits.len()];
    let mut cut_short = false;
    // Whether the solver proved the clues now on unique; not so after a
    // removal propagation alone decided.
    let mut proven = true;
    // Whether propagation may still decide a removal.
    let mut propagating = true;
    for (k, orbit) in orbits.iter().enumerate() {
        let drop_givens = orbit.iter().filter(|&&i| is_given(i)).count();
        if !on[stmt[orbit[0]]] || givens - drop_givens < min_givens {
            continue;
        }
        for &i in orbit {
            on[stmt[i]] = false;
        }
        if large {
            asker.set_deadline(removal.min(Instant::now() + cap));
        }
        if propagating && propagation_decides(&model, &statements, &on, cancel) {
            givens -= drop_givens;
            proven = false;
            continue;
        }
        match ask(&mut asker, &on) {
            Ok(None) => {
                givens -= drop_givens;
                proven = true;
                // Propagation did not decide the clues now on, so it
                // decides none of the fewer clues to come: with less to
                // start from it fixes no more.
                propagating = false;
            }
            Ok(Some(_)) => {
                for &i in orbit {
                    on[stmt[i]] = true;
                }
                needed[k] = true;
            }
            // The puzzle with this orbit is unique (the last `unsat`);
            // the orbits not asked about are kept unproven. One question
            // past its share also ends the removal: the proofs only grow
            // as givens go (a 16x16 killer's went 45 s, then more than
            // 300 s), and a puzzle that hard to prove may not be graded
            // in the time left.
            Err(Halt::TimeLimit) if large => {
                for &i in orbit {
                    on[stmt[i]] = true;
                }
                cut_short = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    if !proven {
        asker.set_deadline(deadline);
        if ask(&mut asker, &on)?.is_some() {
            return Err(Halt::Failed(format!(
                "internal: propagation fixed every cell of {name} and the solver found a second solution"
            )));
        }
    }
    // Every kept orbit has its second solution unless the floor of
    // `--givens` kept one untried. With a symmetry, single givens of an
    // orbit are not tried alone: removing one would break the symmetry.
    let all_needed = !cut_short && (0..orbits.len()).all(|k| needed[k] || !on[stmt[orbits[k][0]]]);
    let minimal = match (all_needed, req.symmetry) {
        (false, _) => Minimal::No,
        (true, super::Symmetry::None) => Minimal::Clues,
        (true, _) => Minimal::Orbits,
    };
    let kept: HashSet<Item> = (0..items.len())
        .filter(|&i| on[stmt[i]])
        .map(|i| items[i])
        .collect();
    let symmetric = kept.iter().all(|it| match it {
        Item::Given(at) => req
            .symmetry
            .orbit(d.n, *at)
            .iter()
            .all(|a| kept.contains(&Item::Given(*a))),
        _ => true,
    });
    let proof = Proof {
        givens,
        clues: kept.len(),
        minimal,
        symmetric,
        questions: asker.questions,
        cut_short,
    };
    Ok(Some((kept, proof)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 sudoku with every given, lowered, and the statement of each
    /// given by its cell.
    fn four_by_four() -> (Model, Vec<Statement>, Vec<(At, usize)>) {
        let d = draw::four_by_four(Kind::Sudoku);
        let items = adapter::items(&d);
        let (model, statements, _) = lowered(&d, "t", |_| true).unwrap();
        let stmt = statements_of(&items, &statements).unwrap();
        let givens = items
            .iter()
            .zip(stmt)
            .filter_map(|(item, k)| match item {
                Item::Given(at) => Some((*at, k)),
                _ => None,
            })
            .collect();
        (model, statements, givens)
    }

    /// The statements on with the givens of `cells` off.
    fn without(statements: &[Statement], givens: &[(At, usize)], cells: &[At]) -> Vec<bool> {
        let mut on = vec![true; statements.len()];
        for (at, k) in givens {
            if cells.contains(at) {
                on[*k] = false;
            }
        }
        on
    }

    #[test]
    fn propagation_decides_a_grid_it_fills_and_not_one_with_two_solutions() {
        let (model, statements, givens) = four_by_four();
        let cancel = Cancel::new();
        let decides = |cells: &[At]| {
            propagation_decides(
                &model,
                &statements,
                &without(&statements, &givens, cells),
                &cancel,
            )
        };
        assert!(decides(&[]));
        // A naked single each: r1c1 and r4c4 are each their row's last.
        assert!(decides(&[(0, 0), (3, 3)]));
        // 1 and 3 swap in r1c1, r1c3, r2c1, r2c3 and the grid still holds:
        // two solutions, which no propagation may decide.
        assert!(!decides(&[(0, 0), (0, 2), (1, 0), (1, 2)]));
    }
}
