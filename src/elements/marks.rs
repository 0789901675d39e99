//! Elements whose every instance is one marked cell under one of a few
//! keys (odd and even, minimum and maximum, the indexers): one generic
//! [`Marked`] reads and writes them (TOML `[[key]] cells = "…"`, f-puzzles
//! lists of cells), and each element's module says only what its marks
//! mean ([`MarkKind`]): their keys, how they lower and how they draw.

use super::kit::{
    Located, fpuzzles_cell, fpuzzles_marks, fpuzzles_push, marks_once, read_marks,
    read_marks_if_any, write_marks,
};
use super::{Element, ElementType, HookError, Layer, Lowering, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::puzzle::Grid;
use crate::render::svg::{Layout, Svg};
use std::collections::HashMap;

/// One marked cell: where it is and which of its element's marks it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marked<K> {
    /// 0-based (row, column).
    pub cell: (usize, usize),
    /// Which mark (odd or even, minimum or maximum, which indexer).
    pub kind: K,
}

/// What one element of marked cells says: its names and keys (as
/// [`ElementType`]'s), and how a mark lowers and draws.
pub trait MarkKind: Sized + Copy + std::fmt::Debug + PartialEq + Eq + 'static {
    /// [`ElementType::NAME`].
    const NAME: &'static str;
    /// [`ElementType::KEYS`]: one TOML key per mark.
    const KEYS: &'static [&'static str];
    /// [`ElementType::FPUZZLES`]: one f-puzzles key per mark.
    const FPUZZLES: &'static [&'static str];
    /// [`ElementType::ISS`].
    const ISS: &'static [&'static str] = &[];
    /// [`ElementType::DOC`].
    const DOC: &'static str;
    /// How an f-puzzles item names its cell: `{"cell": "R1C1"}` (odd,
    /// minimum) or `{"cells": ["R1C1"]}` (indexers).
    const LISTED: bool = false;

    /// The mark a TOML or an f-puzzles key names.
    fn of_key(key: &str) -> Self;
    /// Its TOML key.
    fn key(self) -> &'static str;
    /// Its f-puzzles key.
    fn fpuzzles_key(self) -> &'static str {
        self.key()
    }
    /// The values of 1..=`n` that a mark alone lets its cell hold (odd:
    /// the odd ones), so that marks, givens and candidates leaving a cell
    /// none are refused ([`first_clash`]). `None` for a mark that says
    /// nothing of its cell alone: a minimum's and a maximum's neighbours
    /// may all be exempt, and two indexers may agree.
    fn values(self, _n: usize) -> Option<Vec<i64>> {
        None
    }
    /// Refuses marks under `key` that the puzzle read so far cannot hold.
    fn check(_key: &str, _r: &TomlReader) -> Result<(), InputError> {
        Ok(())
    }
    /// [`ElementType::from_iss`].
    fn from_iss(name: &str, _args: &[&str], _size: usize) -> Result<Vec<Marked<Self>>, HookError> {
        Err(format!("{} does not read ISS's `{name}`", Self::NAME))
    }
    /// [`ElementType::lower`] of one mark.
    fn lower(m: &Marked<Self>, l: &mut Lowering);
    /// [`ElementType::draw`] of one mark.
    fn draw(m: &Marked<Self>, layer: Layer, layout: &Layout, s: &mut Svg);
}

/// What one statement says a cell may hold, as [`ElementType::holds`]
/// gives it: a given's value, an odd or even mark's values, a candidates
/// table's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holds {
    /// 0-based (row, column).
    pub cell: (usize, usize),
    /// The values it allows.
    pub values: Vec<i64>,
    /// How a message names the statement (`the given 3`, `an odd mark`).
    pub what: String,
}

/// What the givens say of their cells, row by row.
pub fn held_by_givens(givens: &Grid) -> impl Iterator<Item = Holds> + '_ {
    givens.iter().enumerate().flat_map(|(r, row)| {
        row.iter().enumerate().filter_map(move |(c, v)| {
            v.map(|v| Holds {
                cell: (r, c),
                values: vec![i64::from(v)],
                what: format!("the given {v}"),
            })
        })
    })
}

/// What the givens, then `elements` that hold their cells to some
/// values, say on an `n`-value grid.
pub fn held<'e>(
    givens: &'e Grid,
    elements: impl IntoIterator<Item = &'e Element> + 'e,
    n: usize,
) -> impl Iterator<Item = Holds> + 'e {
    held_by_givens(givens).chain(elements.into_iter().filter_map(move |e| e.holds(n)))
}

/// Of what statements say of cells (`holds`), in the order a reader meets
/// them, the first after which a cell can hold no value (even on a cell
/// marked odd, candidates 2 or 4 on a given 3): its index among them and
/// why, naming every statement on that cell. Every reader's puzzle passes
/// it (odd and even in [`ElementType::check`], the rest in
/// `import::build::to_puzzle`); a reader that knows where each statement
/// is written calls it too, to point at the one that empties the cell.
pub fn first_clash(holds: impl IntoIterator<Item = Holds>) -> Option<(usize, String)> {
    let mut seen: HashMap<(usize, usize), (Vec<i64>, Vec<String>)> = HashMap::new();
    holds.into_iter().enumerate().find_map(|(k, h)| {
        let (left, said) = seen
            .entry(h.cell)
            .or_insert_with(|| (h.values.clone(), Vec::new()));
        left.retain(|v| h.values.contains(v));
        said.push(h.what);
        if !left.is_empty() {
            return None;
        }
        let (r, c) = h.cell;
        let (last, before) = said.split_last()?;
        let (why, fix) = match before.len() {
            1 => ("contradict each other", "the two"),
            _ => ("leave it no value", "them"),
        };
        Some((
            k,
            format!(
                "{} has {} and {last}, which {why}: correct or remove one of {fix}",
                crate::model::rc(r, c),
                before.join(", ")
            ),
        ))
    })
}

impl<K: MarkKind> ElementType for Marked<K> {
    const NAME: &'static str = K::NAME;
    const KEYS: &'static [&'static str] = K::KEYS;
    const FPUZZLES: &'static [&'static str] = K::FPUZZLES;
    const ISS: &'static [&'static str] = K::ISS;
    const DOC: &'static str = K::DOC;

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        K::check(key, r)?;
        let marks = located(key, read_marks(key, r)?);
        if K::of_key(key).values(r.rows).is_some() {
            refuse_clash(key, &marks, r)?;
        }
        Ok(marks.into_iter().map(|(_, m)| m).collect())
    }

    fn holds(&self, n: usize) -> Option<Holds> {
        let key = self.kind.key();
        Some(Holds {
            cell: self.cell,
            values: self.kind.values(n)?,
            what: format!("{} mark", super::kit::a(key)),
        })
    }

    /// No cell carries one mark twice, as [`read_marks`] refuses, nor two
    /// that contradict each other ([`first_clash`]).
    fn check(all: &[&Self], size: usize) -> Result<(), HookError> {
        for &key in K::KEYS {
            let kind = K::of_key(key);
            let cells: Vec<_> = all
                .iter()
                .filter(|m| m.kind == kind)
                .map(|m| m.cell)
                .collect();
            marks_once(key, &cells)?;
        }
        first_clash(all.iter().filter_map(|m| m.holds(size))).map_or(Ok(()), |(_, why)| Err(why))
    }

    fn write(all: &[&Self], w: &mut TomlWriter) {
        let marks: Vec<_> = all.iter().map(|m| (m.kind.key(), m.cell)).collect();
        write_marks(&marks, w);
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        size: usize,
    ) -> Result<Vec<Self>, HookError> {
        // [{"cell": "R1C1"}, …] or [{"cells": ["R1C1", …]}, …]
        let kind = K::of_key(key);
        Ok(fpuzzles_marks(key, value, size)?
            .into_iter()
            .map(|cell| Marked { cell, kind })
            .collect())
    }

    /// One item per cell.
    fn to_fpuzzles(
        all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        for m in all {
            let cell = fpuzzles_cell(m.cell);
            let item = if K::LISTED {
                serde_json::json!({ "cells": [cell] })
            } else {
                serde_json::json!({ "cell": cell })
            };
            fpuzzles_push(top, m.kind.fpuzzles_key(), item);
        }
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], size: usize) -> Result<Vec<Self>, HookError> {
        K::from_iss(name, args, size)
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        K::lower(self, l);
    }

    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        K::draw(self, layer, layout, s);
    }
}

/// The marks of `key` as [`read_marks`] reads them, each with where its
/// cell is written.
fn located<K: MarkKind>(key: &str, cells: Vec<Located>) -> Vec<(usize, Marked<K>)> {
    let kind = K::of_key(key);
    cells
        .into_iter()
        .map(|(cell, at)| (at, Marked { cell, kind }))
        .collect()
}

/// Refuses, where the file writes it, the first of `key`'s marks
/// (`marks`) or the element's other keys' that leaves a cell no value
/// beside the givens and the elements read before ([`first_clash`]). The
/// other keys are read again for where their marks are written, which
/// the marks read before keep no trace of, so the error is at the later
/// mark in the file whichever key comes first.
fn refuse_clash<K: MarkKind>(
    key: &str,
    marks: &[(usize, Marked<K>)],
    r: &TomlReader,
) -> Result<(), InputError> {
    let mut all = marks.to_vec();
    for &other in K::KEYS.iter().filter(|&&k| k != key) {
        all.extend(located(other, read_marks_if_any(other, r)?));
    }
    all.sort_by_key(|&(at, _)| at);
    let n = r.rows;
    let own = all
        .iter()
        .filter_map(|&(at, m)| Some((at, m.holds(n)?)))
        .collect();
    refuse_held(K::NAME, own, r)
}

/// Refuses the first of element `name`'s statements (`own`: each with
/// the byte offset where it is written, in file order) that leaves a cell
/// no value beside the givens and the other elements read before
/// ([`first_clash`]), at its place: one check for every element whose
/// statements hold cells to values.
pub fn refuse_held(name: &str, own: Vec<(usize, Holds)>, r: &TomlReader) -> Result<(), InputError> {
    let others = r.elements.iter().filter(|e| e.name() != name);
    let before: Vec<Holds> = held(r.givens, others, r.rows).collect();
    let skip = before.len();
    let (places, holds): (Vec<usize>, Vec<Holds>) = own.into_iter().unzip();
    match first_clash(before.into_iter().chain(holds)) {
        Some((k, why)) => {
            let at = k.checked_sub(skip).and_then(|k| places.get(k));
            Err(InputError::new(
                at.map_or_else(|| r.file.clone(), |&at| r.loc(at)),
                why,
            ))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elements::indexer::{Along, Indexer};
    use crate::elements::min_max::{Extreme, MinMax};
    use crate::elements::odd_even::{OddEven, Parity};
    use serde_json::json;

    fn mark<K>(cell: (usize, usize), kind: K) -> Marked<K> {
        Marked { cell, kind }
    }

    /// f-puzzles items under `key` read as marks of that key, and written
    /// back as they came.
    fn round_trip<K: MarkKind>(key: &str, v: serde_json::Value, want: &[Marked<K>]) {
        let read = Marked::<K>::from_fpuzzles(key, &v, 4).expect("reads");
        assert_eq!(read, want);
        let mut top = serde_json::Map::new();
        Marked::to_fpuzzles(&read.iter().collect::<Vec<_>>(), &mut top).expect("writes");
        assert_eq!(top[key], v);
    }

    /// Every reader's marks pass [`ElementType::check`]: a cell odd and
    /// even is refused there, naming the cell and the marks in the order
    /// met; a minimum that is also a maximum, or two indexers, is not (it
    /// need not contradict), nor a cell marked odd twice, which is a
    /// repeat.
    #[test]
    fn contradicting_marks_on_one_cell_are_refused() {
        let odd = mark((1, 2), Parity::Odd);
        let even = mark((1, 2), Parity::Even);
        let elsewhere = mark((0, 0), Parity::Even);
        assert_eq!(OddEven::check(&[&odd, &elsewhere], 4), Ok(()));
        let why = OddEven::check(&[&even, &elsewhere, &odd], 4).unwrap_err();
        assert!(
            why.starts_with("r2c3 has an even mark and an odd mark, which contradict each other"),
            "{why}"
        );
        let holds = |ms: &[OddEven]| ms.iter().filter_map(|m| m.holds(4)).collect::<Vec<_>>();
        assert_eq!(
            first_clash(holds(&[elsewhere, odd, odd, even])).map(|(k, _)| k),
            Some(3)
        );
        // A given and candidates on the cell too: the first statement that
        // leaves it no value, naming every one.
        let givens = vec![vec![None, None, Some(3)], vec![None; 3]];
        let given = held_by_givens(&givens);
        let two_four = Holds {
            cell: (0, 2),
            values: vec![2, 4],
            what: "the candidates 2 or 4".into(),
        };
        let (k, why) = first_clash(given.chain([two_four])).expect("3 is not 2 or 4");
        assert_eq!(k, 1);
        assert!(
            why.starts_with("r1c3 has the given 3 and the candidates 2 or 4, which"),
            "{why}"
        );
        let one_three = Holds {
            cell: (1, 2),
            values: vec![1, 3],
            what: "the candidates 1 or 3".into(),
        };
        let (k, why) = first_clash(
            holds(&[odd])
                .into_iter()
                .chain([one_three])
                .chain(holds(&[even])),
        )
        .expect("1 and 3 are odd");
        assert_eq!(k, 2);
        assert!(
            why.starts_with(
                "r2c3 has an odd mark, the candidates 1 or 3 and an even mark, which leave it no \
                 value"
            ),
            "{why}"
        );
        let min = mark((1, 1), Extreme::Minimum);
        let max = mark((1, 1), Extreme::Maximum);
        assert_eq!(MinMax::check(&[&min, &max], 4), Ok(()));
        let row = mark((0, 0), Along::Row);
        let column = mark((0, 0), Along::Column);
        assert_eq!(Indexer::check(&[&row, &column], 4), Ok(()));
    }

    #[test]
    fn hooks_read_cells_and_write_them_back() {
        round_trip(
            "even",
            json!([{"cell": "R1C1"}, {"cell": "R4C2"}]),
            &[mark((0, 0), Parity::Even), mark((3, 1), Parity::Even)],
        );
        round_trip(
            "maximum",
            json!([{"cell": "R2C2"}, {"cell": "R4C4"}]),
            &[
                mark((1, 1), Extreme::Maximum),
                mark((3, 3), Extreme::Maximum),
            ],
        );
        // Indexers list their cells, each written as an item of its own.
        round_trip(
            "rowindexer",
            json!([{"cells": ["R1C1"]}, {"cells": ["R2C1"]}]),
            &[mark((0, 0), Along::Row), mark((1, 0), Along::Row)],
        );
        assert_eq!(
            Indexer::from_fpuzzles("rowindexer", &json!([{"cells": ["R1C1", "R2C1"]}]), 4),
            Ok(vec![mark((0, 0), Along::Row), mark((1, 0), Along::Row)])
        );
        let odd = |v| OddEven::from_fpuzzles("odd", &v, 4).unwrap_err();
        assert!(odd(json!([{"cell": "R5C1"}])).contains("outside"));
        assert!(odd(json!({"cell": "R1C1"})).contains("a list"));
        assert!(
            MinMax::from_fpuzzles("minimum", &json!([{"cell": "C1"}]), 4)
                .unwrap_err()
                .contains("not a cell")
        );
    }
}
