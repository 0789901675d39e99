//! What a puzzle lowers and encodes into, for `smtgrid inspect`: counts of
//! cells, givens and constraints, and the size of each encoding's script.

use std::fmt::Write;

use crate::cancel::Cancel;
use crate::encode::{
    Encoded, Encoding, Interrupted, Options, encode_cancellable, propagated_values,
};
use crate::lower::lower;
use crate::model::{Group, Model, Rule, Target, rc};
use crate::puzzle::Puzzle;
use crate::solve::{PuzzleResult, Run};

/// One puzzle's lowered model and its encodings' scripts.
pub struct Inspection<'a> {
    puzzle: &'a Puzzle,
    model: Model,
    scripts: Vec<Encoded>,
    /// Each cell's value as propagation decides it (the onehot and bv
    /// scripts' constants), `None` where open.
    propagated: Vec<Option<i64>>,
    /// With `--solve`: the reported run of each solver × encoding.
    runs: Vec<Run>,
}

/// How a puzzle's cells split: given, decided by propagation, and still
/// unknown, which add up to all its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CellCounts {
    /// Every cell.
    pub cells: usize,
    /// Cells with a given value.
    pub given: usize,
    /// Other cells whose value propagation decides (implied constraints
    /// included).
    pub propagated: usize,
    /// The rest: what the solver has to find.
    pub unknown: usize,
}

impl<'a> Inspection<'a> {
    /// Lowers `puzzle` and encodes it in each of `encodings`; stops early
    /// when `cancel` is cancelled.
    pub fn new(
        puzzle: &'a Puzzle,
        encodings: &[Encoding],
        options: &Options,
        cancel: &Cancel,
    ) -> Result<Self, Interrupted> {
        let model = lower(puzzle);
        let scripts = encodings
            .iter()
            .map(|&e| encode_cancellable(&model, e, options, cancel))
            .collect::<Result<Vec<_>, _>>()?;
        let propagated = propagated_values(&model, options, cancel)?;
        Ok(Inspection {
            puzzle,
            model,
            scripts,
            propagated,
            runs: Vec::new(),
        })
    }

    /// Adds what solving the puzzle gave (`inspect --solve`): each line's
    /// status, time and search effort.
    pub fn solved(&mut self, result: &PuzzleResult) {
        self.runs = result.lines.iter().map(|l| l.run.clone()).collect();
    }

    /// Given, propagated and unknown cells; each cell is counted once.
    pub fn counts(&self) -> CellCounts {
        // Derived values are not the puzzle's; a cell fixed twice counts once.
        let given: std::collections::BTreeSet<_> = self
            .model
            .constraints
            .iter()
            .filter(|c| c.group != Group::Derived)
            .filter_map(|c| match c.rule {
                Rule::Fixed { cell, .. } => Some(cell),
                _ => None,
            })
            .collect();
        let propagated = (0..self.model.cells.len())
            .filter(|c| !given.contains(c) && self.propagated.get(*c).is_some_and(Option::is_some))
            .count();
        let cells = self.model.cells.len();
        CellCounts {
            cells,
            given: given.len(),
            propagated,
            unknown: cells - given.len() - propagated,
        }
    }

    /// The implied constraints (see [`crate::model::derive`]): each one's
    /// origin and what it says, e.g. `r5c5 = 4` or `r1c2 + r7c2 = 9`.
    fn derived(&self) -> Vec<(&str, String)> {
        let m = &self.model;
        let name = |id: usize| rc(m.cells[id].row, m.cells[id].col);
        m.constraints
            .iter()
            .filter(|c| c.group == Group::Derived)
            .filter_map(|c| {
                let says = match &c.rule {
                    Rule::Fixed { cell, value } => format!("{} = {value}", name(*cell)),
                    Rule::Sum {
                        cells,
                        target: Target::Eq(v),
                    } => {
                        let terms: Vec<String> = cells.iter().map(|&id| name(id)).collect();
                        format!("{} = {v}", terms.join(" + "))
                    }
                    _ => return None,
                };
                Some((c.origin.as_str(), says))
            })
            .collect()
    }

    /// One JSON object.
    pub fn json(&self) -> serde_json::Value {
        let (p, m) = (self.puzzle, &self.model);
        serde_json::json!({
            "puzzle": p.name,
            "title": p.title,
            "kind": p.kind,
            "rows": p.rows,
            "cols": p.cols,
            "cells": m.cells.len(),
            "given_cells": self.counts().given,
            "propagated_cells": self.counts().propagated,
            "unknown_cells": self.counts().unknown,
            "constraints": m.constraints.len(),
            "constraints_by_kind": m.counts_by_kind().into_iter().collect::<std::collections::BTreeMap<_, _>>(),
            "derived": self.derived().into_iter().map(|(origin, says)| serde_json::json!({
                "origin": origin,
                "constraint": says,
            })).collect::<Vec<_>>(),
            "encodings": self.scripts.iter().map(|s| serde_json::json!({
                "encoding": s.encoding,
                "logic": s.logic,
                "declarations": s.declarations,
                "assertions": s.assertions,
                "bytes": s.script.len(),
            })).collect::<Vec<_>>(),
            "solved": self.runs.iter().map(|r| serde_json::json!({
                "solver": r.solver,
                "encoding": r.encoding,
                "status": r.outcome.status(),
                "time_ms": r.time_ms,
                "stats": r.measured.stats,
            })).collect::<Vec<_>>(),
        })
    }

    /// Lines of text: the puzzle, its counts and a table of the scripts.
    pub fn text(&self) -> String {
        let m = &self.model;
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = writeln!(s, "{}", self.puzzle.describe());
        let n = self.counts();
        let _ = writeln!(
            s,
            "  cells:         {} ({} given, {} decided by propagation, {} unknown)",
            n.cells, n.given, n.propagated, n.unknown
        );
        let kinds: Vec<String> = m
            .counts_by_kind()
            .into_iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(
            s,
            "  constraints:   {} ({})",
            m.constraints.len(),
            kinds.join(", ")
        );
        let derived = self.derived();
        if !derived.is_empty() {
            let _ = writeln!(s, "  implied:       {} (derived, see below)", derived.len());
        }
        let _ = writeln!(
            s,
            "  {:<9} {:<8} {:>12} {:>11} {:>10}",
            "encoding", "logic", "declarations", "assertions", "bytes"
        );
        for e in &self.scripts {
            let _ = writeln!(
                s,
                "  {:<9} {:<8} {:>12} {:>11} {:>10}",
                e.encoding.name(),
                e.logic,
                e.declarations,
                e.assertions,
                e.script.len()
            );
        }
        for (origin, says) in derived {
            let _ = writeln!(s, "  {origin}: {says}");
        }
        if !self.runs.is_empty() {
            let _ = writeln!(
                s,
                "  {:<9} {:<8} {:<8} {:>10} {:>10} {:>10} {:>12}",
                "encoding", "solver", "status", "time", "conflicts", "decisions", "propagations"
            );
            for r in &self.runs {
                let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
                let stats = r.measured.stats.as_ref();
                let _ = writeln!(
                    s,
                    "  {:<9} {:<8} {:<8} {:>10} {:>10} {:>10} {:>12}",
                    r.encoding.name(),
                    r.solver,
                    r.outcome.status().name(),
                    format!("{:.1} ms", r.time_ms),
                    count(stats.and_then(|s| s.conflicts)),
                    count(stats.and_then(|s| s.decisions)),
                    count(stats.and_then(|s| s.propagations)),
                );
            }
        }
        s
    }
}

/// The most bytes of one statement's commands shown per encoding; a
/// cage of many cells can take megabytes in `onehot`.
const SHOWN_BYTES: usize = 16 << 10;
/// The most declarations listed per encoding.
const SHOWN_DECLARATIONS: usize = 200;

/// One statement of a puzzle as each encoding states it
/// (`inspect --constraint`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatementScripts {
    /// The statement's name, e.g. `cage a: 12, 3 cells`.
    pub statement: String,
    /// The cells it is about, `r1c2` style.
    pub cells: Vec<String>,
    /// One entry per encoding inspected.
    pub encodings: Vec<StatementScript>,
}

/// A statement's commands in one encoding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatementScript {
    /// The encoding.
    pub encoding: Encoding,
    /// Its logic.
    pub logic: &'static str,
    /// The declarations of the constants the commands use (cells, and the
    /// helpers they define), in script order.
    pub declarations: Vec<String>,
    /// The commands, as in the script (at most 16 KiB, then a note).
    pub commands: String,
    /// Why there are no commands, when there are none.
    pub note: Option<String>,
}

/// Whether `name` (e.g. `cage a: 12, 3 cells`, `given r1c2 = 5`) is
/// what `query` names: equal, or starting with it where a word ends
/// (`cage a` names the first, not `cage ab`; `row 3` not `row 30`).
pub fn names(name: &str, query: &str) -> bool {
    let query = query.split_whitespace().collect::<Vec<_>>().join(" ");
    !query.is_empty()
        && name.strip_prefix(query.as_str()).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_')
        })
}

impl Inspection<'_> {
    /// The statements `query` names, each as every inspected encoding
    /// states it; an error listing some statement names when none
    /// matches.
    pub fn statement_scripts(&self, query: &str) -> Result<Vec<StatementScripts>, String> {
        let (_, statements) = crate::lower::lower_with_statements(self.puzzle);
        let found: Vec<_> = statements
            .iter()
            .filter(|s| names(&s.name, query))
            .collect();
        if found.is_empty() {
            let some: Vec<&str> = statements
                .iter()
                .take(12)
                .map(|s| s.name.as_str())
                .collect();
            return Err(format!(
                "no statement `{query}` in {}; its statements include: {}{} (name one as \
                 `cage a`, `row 3`, `column 7`, `box 5`, `given r1c2`)",
                self.puzzle.name,
                some.join(", "),
                if statements.len() > some.len() {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        Ok(found
            .into_iter()
            .map(|st| StatementScripts {
                statement: st.name.clone(),
                cells: st.cells.iter().map(|&(r, c)| rc(r, c)).collect(),
                encodings: self
                    .scripts
                    .iter()
                    .map(|e| statement_script(e, &st.constraints))
                    .collect(),
            })
            .collect())
    }
}

/// The commands of `constraints` in `e`, with the declarations they use.
fn statement_script(e: &Encoded, constraints: &[usize]) -> StatementScript {
    let mut out = StatementScript {
        encoding: e.encoding,
        logic: e.logic,
        declarations: Vec::new(),
        commands: String::new(),
        note: None,
    };
    if e.spans.is_empty() {
        out.note = Some(
            "no solution: propagation proved it, so the script is `(assert false)`".to_string(),
        );
        return out;
    }
    let mut text = String::new();
    for &(a, b) in constraints.iter().filter_map(|&i| e.spans.get(i)?.as_ref()) {
        text.push_str(e.script.get(a..b).unwrap_or(""));
    }
    if text.is_empty() {
        out.note = Some(
            "no commands: propagation decided every cell it is about, and they satisfy it"
                .to_string(),
        );
        return out;
    }
    // What the commands use, and what the helpers they use are defined
    // from, each declared once.
    let declared = declarations_of(&e.script);
    let mut used: std::collections::BTreeSet<&str> = words(&text).collect();
    let mut queue: Vec<&str> = used.iter().copied().collect();
    while let Some(w) = queue.pop() {
        if let Some((_, line)) = declared.get(w) {
            for d in words(line) {
                if declared.contains_key(d) && used.insert(d) {
                    queue.push(d);
                }
            }
        }
    }
    let mut decls: Vec<(usize, &str)> = used
        .iter()
        .filter_map(|w| declared.get(w).copied())
        // Helpers declared inside the commands are shown there.
        .filter(|&(at, _)| {
            !constraints.iter().any(|&i| {
                e.spans
                    .get(i)
                    .copied()
                    .flatten()
                    .is_some_and(|(a, b)| (a..b).contains(&at))
            })
        })
        .collect();
    decls.sort_unstable();
    let total = decls.len();
    out.declarations = decls
        .into_iter()
        .take(SHOWN_DECLARATIONS)
        .map(|(_, l)| l.to_string())
        .collect();
    if total > SHOWN_DECLARATIONS {
        out.declarations.push(format!(
            "; … {} more declarations (see `smtgrid emit`)",
            total - SHOWN_DECLARATIONS
        ));
    }
    if text.len() > SHOWN_BYTES {
        let cut = text.floor_char_boundary(SHOWN_BYTES);
        let cut = text[..cut].rfind('\n').map_or(cut, |n| n + 1);
        let more = text.len() - cut;
        text.truncate(cut);
        text.push_str(&format!("; … {more} more bytes (see `smtgrid emit`)\n"));
    }
    out.commands = text;
    out
}

/// Each `declare-const` and `define-fun` of `script`: name to (offset,
/// line).
fn declarations_of(script: &str) -> std::collections::HashMap<&str, (usize, &str)> {
    let mut at = 0;
    let mut map = std::collections::HashMap::new();
    for line in script.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let line = line.trim_end();
        let rest = line
            .strip_prefix("(declare-const ")
            .or_else(|| line.strip_prefix("(define-fun "));
        if let Some(name) = rest.and_then(|r| r.split_whitespace().next()) {
            map.insert(name, (start, line));
        }
    }
    map
}

/// The symbols and numbers of SMT-LIB text.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
}

impl StatementScripts {
    /// Text: the statement, then each encoding's declarations and
    /// commands under its name, one after another.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} ({})", self.statement, self.cells.join(" "));
        for e in &self.encodings {
            let _ = writeln!(s, "  {} ({})", e.encoding.name(), e.logic);
            if let Some(note) = &e.note {
                let _ = writeln!(s, "    ; {note}");
            }
            for d in &e.declarations {
                let _ = writeln!(s, "    {d}");
            }
            for line in e.commands.lines() {
                let _ = writeln!(s, "    {line}");
            }
        }
        s
    }
}

#[cfg(test)]
mod statement_tests {
    use super::names;

    #[test]
    fn a_query_names_a_statement_up_to_a_word_end() {
        assert!(names("cage a: 12, 3 cells", "cage a"));
        assert!(names("cage a: 12, 3 cells", "  cage   a "));
        assert!(!names("cage ab: 12, 3 cells", "cage a"));
        assert!(names("row 3", "row 3"));
        assert!(!names("row 30", "row 3"));
        assert!(names("given r1c2 = 5", "given r1c2"));
        assert!(!names("given r1c23 = 5", "given r1c2"));
        assert!(!names("row 3", ""));
    }
}
