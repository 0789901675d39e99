//! What a puzzle lowers and encodes into, for `smtgrid inspect`: counts of
//! cells, givens and constraints, and the size of each encoding's script.

use std::fmt::Write;

use crate::cancel::Cancel;
use crate::encode::{Encoded, Encoding, Interrupted, Options, encode_cancellable};
use crate::lower::lower;
use crate::model::{Group, Model, Rule};
use crate::puzzle::Puzzle;

/// One puzzle's lowered model and its encodings' scripts.
pub struct Inspection<'a> {
    puzzle: &'a Puzzle,
    model: Model,
    scripts: Vec<Encoded>,
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
        })
    }

    fn givens(&self) -> usize {
        self.model
            .constraints
            .iter()
            .filter(|c| c.group == Group::Givens)
            .count()
    }

    fn unknown_cells(&self) -> usize {
        let fixed = self
            .model
            .constraints
            .iter()
            .filter(|c| matches!(c.rule, Rule::Fixed { .. }))
            .count();
        self.model.cells.len() - fixed
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
            "encodings": self.scripts.iter().map(|s| serde_json::json!({
                "encoding": s.encoding,
                "logic": s.logic,
                "declarations": s.declarations,
                "assertions": s.assertions,
                "bytes": s.script.len(),
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
        s
    }
}
