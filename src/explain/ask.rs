//! Questions to one solver session over the puzzle's statements: which
//! statements are on (`check-sat-assuming` over their Bools), what else
//! must hold (asserted between `push` and `pop`), and the answer, read
//! back and checked. A solution is returned only after the checker
//! accepted it for exactly the statements that were on and the extra
//! conditions; an `unsat` comes with the statements the solver blamed.

use std::collections::HashMap;
use std::time::Instant;

use crate::cancel::Cancel;
use crate::encode::{Guarded, Interrupted, encode_guarded, guarded_size_bound};
use crate::model::{CellId, Model, Statement};
use crate::smtlib::reply::read_answer;
use crate::smtlib::sexp::parse_all;
use crate::smtlib::{CheckSat, Script, Term};
use crate::solver::{Session, SessionError, Solver, excerpt};

/// How much of a solver's unexpected reply a message quotes.
const QUOTE_BYTES: usize = 300;

/// The largest script explain builds, by its stated bound
/// ([`guarded_size_bound`]): a 64×64 sudoku's is within it (about 0.9 GB
/// by the bound, a fifth of that written).
pub(crate) const MAX_SCRIPT_BYTES: u64 = 1 << 30;

/// A condition on the cells besides the statements, stated to the solver
/// and checked on its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Extra {
    /// The cell holds the value.
    Is(CellId, i64),
    /// The grid differs from this one (one value per cell) somewhere.
    Differs(Vec<i64>),
    /// Some cell holds a value outside its list (one list per cell).
    SomeOutside(Vec<Vec<i64>>),
}

impl Extra {
    /// The condition in words, for a solver fault's message.
    fn describe(&self, model: &Model) -> String {
        match self {
            Extra::Is(c, v) => match model.cells.get(*c) {
                Some(cell) => format!("{} holds {v}", crate::error::rc(cell.row, cell.col)),
                None => format!("a cell holds {v}"),
            },
            Extra::Differs(_) => "the grid differs from a solution found before".into(),
            Extra::SomeOutside(_) => {
                "some cell holds a value outside the candidates found so far".into()
            }
        }
    }

    fn holds(&self, values: &[i64]) -> bool {
        match self {
            Extra::Is(c, v) => values.get(*c) == Some(v),
            Extra::Differs(other) => other.as_slice() != values,
            Extra::SomeOutside(lists) => {
                lists.iter().zip(values).any(|(list, v)| !list.contains(v))
            }
        }
    }

    fn term(&self, g: &Guarded) -> Term {
        let d = &g.decoder;
        match self {
            Extra::Is(c, v) => d.holds(*c, *v),
            Extra::Differs(other) => d.block(other),
            Extra::SomeOutside(lists) => Term::or(
                lists
                    .iter()
                    .enumerate()
                    .filter(|(c, _)| d.cells.get(*c).is_some())
                    .map(|(c, list)| {
                        Term::and(list.iter().map(|&v| Term::not(d.holds(c, v))).collect())
                    })
                    .collect(),
            ),
        }
    }
}

/// What the solver answered, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A solution the checker accepted.
    Sat(Vec<i64>),
    /// No solution; the statements the solver's core names (a subset of
    /// those that were on), or all of them when it gives no core.
    Unsat(Vec<usize>),
}

/// Why questions stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Stop {
    /// The time limit passed (the solver was stopped).
    #[error("the time limit passed")]
    TimeLimit,
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
    /// The solver said `unknown`.
    #[error("{0} answered unknown")]
    Unknown(String),
    /// The solver failed, answered something unreadable, or gave a
    /// solution the checker rejected.
    #[error("{0}")]
    Failed(String),
    /// The solver answered `unsat`, then gave a solution the checker
    /// accepted that meets every statement and condition of that question:
    /// the `unsat` was false, and so is whatever rests on it.
    #[error(
        "{0} answered unsat, then gave a solution (accepted by the checker) that meets every \
         statement and condition of that question: a solver fault, not a verdict"
    )]
    Contradicted(String),
}

impl From<Interrupted> for Stop {
    fn from(_: Interrupted) -> Stop {
        Stop::Interrupted
    }
}

impl From<SessionError> for Stop {
    fn from(e: SessionError) -> Stop {
        match e {
            SessionError::TimedOut { .. } => Stop::TimeLimit,
            SessionError::Cancelled { .. } => Stop::Interrupted,
            other => Stop::Failed(other.to_string()),
        }
    }
}

/// A session holding one puzzle's statements.
pub(crate) struct Asker<'a> {
    model: &'a Model,
    statements: &'a [Statement],
    guarded: Guarded,
    by_guard: HashMap<String, usize>,
    session: Session,
    deadline: Instant,
    /// Questions asked so far.
    pub questions: usize,
    /// Whether the solver gave unsat cores (else a core is everything
    /// that was on).
    cores: bool,
    /// The puzzle as the last `unsat` was asked (only the statements that
    /// were on) and that question's conditions: a later solution that
    /// meets them all shows that answer false (see
    /// [`Asker::contradicts_last_unsat`]). Kept reduced, not as the
    /// statements' indices, since every checked solution after it is held
    /// against it.
    last_unsat: Option<(Model, Vec<Extra>)>,
}

impl<'a> Asker<'a> {
    /// Starts `solver` and states the puzzle's statements.
    pub fn start(
        model: &'a Model,
        statements: &'a [Statement],
        solver: &Solver,
        deadline: Instant,
        cancel: &Cancel,
    ) -> Result<Asker<'a>, Stop> {
        Asker::start_in(model, statements, solver, deadline, cancel, false)
    }

    /// [`Asker::start`], with the statements over Bools alone with `bools`
    /// ([`encode_guarded`]: only for questions that keep every
    /// all-different and sum on, as `generate`'s do).
    pub fn start_in(
        model: &'a Model,
        statements: &'a [Statement],
        solver: &Solver,
        deadline: Instant,
        cancel: &Cancel,
        bools: bool,
    ) -> Result<Asker<'a>, Stop> {
        let mut statement_of = vec![usize::MAX; model.constraints.len()];
        for (k, st) in statements.iter().enumerate() {
            for &i in &st.constraints {
                if let Some(slot) = statement_of.get_mut(i) {
                    *slot = k;
                }
            }
        }
        // The refusal is by the integer form's bound for both forms: the
        // Bools form is bounded by onehot's caps per rule (sets, diagrams,
        // tables: `guarded_size_bound` with `bools`, which tests/it/bounds.rs
        // checks), but that bound is far looser (about 1 GB for a 6×6
        // killer) and would refuse every killer.
        let bound = guarded_size_bound(model, statements.len(), false);
        if bound > MAX_SCRIPT_BYTES {
            return Err(Stop::Failed(format!(
                "the puzzle is too large to explain: its script could take up to {} MB (the \
                 bound of explain's encoding for its cells, candidates and rules), more than \
                 explain's limit of {} MB; `smtgrid solve` takes it",
                bound.div_ceil(1 << 20),
                MAX_SCRIPT_BYTES >> 20
            )));
        }
        // Building the script counts against the time limit.
        let stopped = |_| {
            if cancel.is_cancelled() {
                Stop::Interrupted
            } else {
                Stop::TimeLimit
            }
        };
        let until = cancel.until(deadline);
        let guarded = encode_guarded(model, &statement_of, statements.len(), bools, &until)
            .map_err(stopped)?;
        if !solver.accepts_logic(guarded.logic) {
            return Err(Stop::Failed(format!(
                "{} does not take {} scripts; try --solver z3",
                solver.display_name(),
                guarded.logic
            )));
        }
        if let Some(c) = solver
            .profile
            .unsupported_commands
            .iter()
            .find(|c| ["check-sat-assuming", "push", "get-value"].contains(&c.as_str()))
        {
            return Err(Stop::Failed(format!(
                "{} does not take {c}, which explain needs; try --solver z3",
                solver.display_name()
            )));
        }
        let mut session = Session::start(solver, Some(guarded.logic), cancel)?;
        let reply = session.command(&guarded.setup, deadline)?;
        if !reply.trim().is_empty() {
            return Err(Stop::Failed(format!(
                "{} rejected the puzzle's statements: {}",
                solver.display_name(),
                excerpt(reply.trim().as_bytes(), QUOTE_BYTES)
            )));
        }
        let by_guard = guarded
            .guards
            .iter()
            .enumerate()
            .map(|(k, g)| (g.clone(), k))
            .collect();
        Ok(Asker {
            model,
            statements,
            guarded,
            by_guard,
            session,
            deadline,
            questions: 0,
            cores: true,
            last_unsat: None,
        })
    }

    /// Sets the time limit of the questions to come.
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// Whether the solver's unsat cores were read (else a core is all the
    /// statements that were on).
    pub fn gave_core(&self) -> bool {
        self.cores
    }

    /// Asks whether the statements `on` and the `extra` conditions can all
    /// hold.
    pub fn ask(&mut self, on: &[usize], extra: &[Extra]) -> Result<Answer, Stop> {
        self.questions += 1;
        let mut s = Script::new();
        s.push();
        for e in extra {
            s.assert(&e.term(&self.guarded));
        }
        let lits: Vec<Term> = on
            .iter()
            .filter_map(|&k| self.guarded.guards.get(k))
            .map(Term::sym)
            .collect();
        s.check_sat_assuming(&lits);
        let reply = self.session.command(s.as_str(), self.deadline)?;
        let answer = self.read(&reply)?;
        let result = match answer {
            CheckSat::Sat => self
                .solution(on, extra)
                .and_then(|values| self.contradicts_last_unsat(values))
                .map(Answer::Sat),
            CheckSat::Unsat => {
                self.last_unsat = Some((self.reduced(on), extra.to_vec()));
                Ok(Answer::Unsat(self.core(on)?))
            }
            CheckSat::Unknown => Err(Stop::Unknown(self.session.name().to_string())),
        };
        if result.is_ok() {
            self.session.command("(pop 1)", self.deadline)?;
        }
        result
    }

    fn read(&self, reply: &str) -> Result<CheckSat, Stop> {
        let quote = || excerpt(reply.trim().as_bytes(), QUOTE_BYTES);
        let a = read_answer(reply).map_err(|e| {
            Stop::Failed(format!(
                "{} answered something unreadable ({e}): {}",
                self.session.name(),
                quote()
            ))
        })?;
        match (a.results.as_slice(), a.errors.first()) {
            ([r], None) => Ok(*r),
            (_, Some(e)) => Err(Stop::Failed(format!("{}: {e}", self.session.name()))),
            _ => Err(Stop::Failed(format!(
                "{} did not answer sat or unsat: {}",
                self.session.name(),
                quote()
            ))),
        }
    }

    /// Reads the cells back and checks them against the statements that
    /// were on and the extra conditions.
    fn solution(&mut self, on: &[usize], extra: &[Extra]) -> Result<Vec<i64>, Stop> {
        let names = self.guarded.decoder.names();
        let values = if names.is_empty() {
            self.guarded
                .decoder
                .decode(&Default::default())
                .map_err(Stop::Failed)?
        } else {
            let mut s = Script::new();
            s.get_value(&names);
            let reply = self.session.command(s.as_str(), self.deadline)?;
            let a = read_answer(&reply).map_err(|e| {
                Stop::Failed(format!(
                    "{}'s values are unreadable: {e}",
                    self.session.name()
                ))
            })?;
            if let Some(e) = a.errors.first() {
                return Err(Stop::Failed(format!("{}: {e}", self.session.name())));
            }
            self.guarded
                .decoder
                .decode(&a.model)
                .map_err(Stop::Failed)?
        };
        self.reduced(on).check(&values).map_err(|v| {
            Stop::Failed(format!(
                "{} gave a solution that breaks the puzzle: {v}",
                self.session.name()
            ))
        })?;
        if let Some(e) = extra.iter().find(|e| !e.holds(&values)) {
            return Err(Stop::Failed(format!(
                "{} gave a solution that breaks a question's condition ({})",
                self.session.name(),
                e.describe(self.model)
            )));
        }
        Ok(values)
    }

    /// `values`, unless they meet every statement and condition of the
    /// last `unsat`: then that answer was false, and a verdict resting on
    /// it (a conflict, "unique", a clue removed) would be a lie. The
    /// questions that follow an `unsat` mostly ask with less (a conflict
    /// shrunk, a clue more removed, the statements of a count that ended),
    /// so their checked solutions are free witnesses against it.
    fn contradicts_last_unsat(&self, values: Vec<i64>) -> Result<Vec<i64>, Stop> {
        let Some((asked, extra)) = &self.last_unsat else {
            return Ok(values);
        };
        if extra.iter().all(|e| e.holds(&values)) && asked.check(&values).is_ok() {
            return Err(Stop::Contradicted(self.session.name().to_string()));
        }
        Ok(values)
    }

    /// The puzzle with only the statements `on`: what a solution found
    /// with those statements is checked against.
    pub fn reduced(&self, on: &[usize]) -> Model {
        let mut keep: Vec<usize> = on
            .iter()
            .filter_map(|&k| self.statements.get(k))
            .flat_map(|st| st.constraints.iter().copied())
            .collect();
        keep.sort_unstable();
        keep.dedup();
        Model {
            constraints: keep
                .into_iter()
                .filter_map(|i| self.model.constraints.get(i).cloned())
                .collect(),
            ..self.model.clone()
        }
    }

    /// The statements the solver blames for its last `unsat`, in the order
    /// of `on`; all of `on` when it gives no core.
    fn core(&mut self, on: &[usize]) -> Result<Vec<usize>, Stop> {
        if !self.cores {
            return Ok(on.to_vec());
        }
        let mut s = Script::new();
        s.get_unsat_assumptions();
        let reply = self.session.command(s.as_str(), self.deadline)?;
        let named: Option<Vec<usize>> = parse_all(&reply).ok().and_then(|exprs| {
            let [list] = exprs.as_slice() else {
                return None;
            };
            list.as_list()?
                .iter()
                .map(|e| e.as_atom().and_then(|a| self.by_guard.get(a).copied()))
                .collect()
        });
        match named {
            Some(blamed) => Ok(on.iter().copied().filter(|k| blamed.contains(k)).collect()),
            None => {
                // No core this solver can give (an error, or `unsupported`):
                // everything that was on is the core from now on.
                self.cores = false;
                Ok(on.to_vec())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_told_in_words() {
        let p = crate::parse::parse_str(
            "kind = \"sudoku\"\ngivens = \"\"\"\n. . . .\n. . . .\n. . . .\n. . . .\n\"\"\"\n",
            &crate::error::Location::file("t.toml"),
            None,
        )
        .expect("a 4x4");
        let m = crate::lower::lower(&p[0]);
        assert_eq!(Extra::Is(5, 3).describe(&m), "r2c2 holds 3");
        let d = Extra::Differs(vec![1; 16]).describe(&m);
        assert!(d.contains("differs from a solution found before"), "{d}");
        assert!(!d.contains('['), "{d}");
    }
}
