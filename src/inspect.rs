//! What a puzzle lowers and encodes into, for `smtgrid inspect`: counts of
//! cells, givens and constraints, and the size of each encoding's script.

use std::fmt::Write;

use crate::cancel::Cancel;
use crate::encode::{Encoded, Encoding, Interrupted, Options, encode_cancellable};
use crate::lower::lower;
use crate::model::{Group, Model, Rule, Target, rc};
use crate::puzzle::Puzzle;
use crate::solve::{PuzzleResult, Run};

/// One puzzle's lowered model and its encodings' scripts.
pub struct Inspection<'a> {
    puzzle: &'a Puzzle,
    model: Model,
    scripts: Vec<Encoded>,
    /// With `--solve`: the reported run of each solver × encoding.
    runs: Vec<Run>,
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
        Ok(Inspection {
            puzzle,
            model,
            scripts,
            runs: Vec::new(),
        })
    }

    /// Adds what solving the puzzle gave (`inspect --solve`): each line's
    /// status, time and search effort.
    pub fn solved(&mut self, result: &PuzzleResult) {
        self.runs = result.lines.iter().map(|l| l.run.clone()).collect();
    }

    fn givens(&self) -> usize {
        self.model
            .constraints
            .iter()
            .filter(|c| c.group == Group::Givens)
            .count()
    }

    fn unknown_cells(&self) -> usize {
        // Derived values are not the puzzle's; a cell fixed twice counts once.
        let fixed: std::collections::BTreeSet<_> = self
            .model
            .constraints
            .iter()
            .filter(|c| c.group != Group::Derived)
            .filter_map(|c| match c.rule {
                Rule::Fixed { cell, .. } => Some(cell),
                _ => None,
            })
            .collect();
        self.model.cells.len().saturating_sub(fixed.len())
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
            "unknown_cells": self.unknown_cells(),
            "givens": self.givens(),
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
        let _ = writeln!(
            s,
            "  cells:         {} ({} unknown, {} given)",
            m.cells.len(),
            self.unknown_cells(),
            self.givens()
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
