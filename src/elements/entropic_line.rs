//! Entropic lines: the values split into low, middle and high thirds
//! (1–3, 4–6, 7–9 on 9×9); any three cells in a row along the line hold
//! one of each (so a grid side divisible by 3).
//!
//! ```toml
//! [[entropic-line]]
//! cells = "r1c1 r1c2 r1c3 r1c4"
//! ```

use super::line::{Line, LineKind, ids, table};
use crate::model::Rule;

/// An entropic line ([`EntropicLineKind`]).
pub type EntropicLine = Line<EntropicLineKind>;

/// What an entropic line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntropicLineKind;

impl LineKind for EntropicLineKind {
    const NAME: &'static str = "entropic-line";
    const KEYS: &'static [&'static str] = &["entropic-line"];
    const FPUZZLES: &'static [&'static str] = &["entropicline"];
    const ISS: &'static [&'static str] = &["Entropic"];
    const DOC: &'static str = "`[[entropic-line]] cells = \"r1c1 r1c2 …\"`: any three cells in a row \
        on the line hold one low, one middle and one high value (thirds of 1..n, n divisible by 3)";
    const COLOUR: &'static str = "#ffa040";
    const TABLES: bool = true;

    fn check_param(_: i64, _len: usize, n: i64) -> Result<(), String> {
        if n % 3 != 0 {
            return Err(format!("values 1..{n} do not split into thirds: an entropic line needs a grid side divisible by 3"));
        }
        Ok(())
    }

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let third = (l.n() / 3).max(1) as i64;
        distinct_classes(&ids(cells, l), l, 3, |v| (v - 1) / third)
    }
}

/// Every window of `width` cells along a line (all its cells on a shorter
/// line) in different classes: one table per window up to three cells
/// wide; wider, one per two cells less than `width` apart (the same
/// statement, and a window's table would grow as n^width).
pub fn distinct_classes(
    ids: &[crate::model::CellId],
    l: &super::Lowering,
    width: usize,
    class: impl Fn(i64) -> i64 + Copy,
) -> Vec<Rule> {
    let width = width.clamp(2, ids.len().max(2));
    let apart = |v: &[i64]| {
        v.iter().enumerate().all(|(i, &a)| v[..i].iter().all(|&b| class(a) != class(b)))
    };
    if width <= 3 {
        return ids
            .windows(width.min(ids.len()))
            .map(|w| table(w.to_vec(), l, apart))
            .collect();
    }
    let mut out = Vec::new();
    for (i, &a) in ids.iter().enumerate() {
        for &b in ids.iter().skip(i + 1).take(width - 1) {
            out.push(table(vec![a, b], l, apart));
        }
    }
    out
}
