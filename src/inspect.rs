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
