//! Elements whose every instance is one marked cell under one of a few
//! keys (odd and even, minimum and maximum, the indexers): one generic
//! [`Marked`] reads and writes them (TOML `[[key]] cells = "…"`, f-puzzles
//! lists of cells), and each element's module says only what its marks
//! mean ([`MarkKind`]): their keys, how they lower and how they draw.

use super::kit::{
    Located, fpuzzles_cell, fpuzzles_marks, fpuzzles_push, marks_once, read_marks,
    read_marks_if_any, write_marks,
};
use super::{ElementType, HookError, Layer, Lowering, TomlReader, TomlWriter};
use crate::error::InputError;
use crate::render::svg::{Layout, Svg};

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
    /// Whether two different marks of the element on one cell contradict
    /// each other, whatever the rest of the puzzle (odd and even: no
    /// value is both). Not a minimum and a maximum, whose neighbours may
    /// all be exempt from one of the two, nor two indexers, which may
    /// agree.
    const EXCLUSIVE: bool = false;

    /// The mark a TOML or an f-puzzles key names.
    fn of_key(key: &str) -> Self;
    /// Its TOML key.
    fn key(self) -> &'static str;
    /// Its f-puzzles key.
    fn fpuzzles_key(self) -> &'static str {
        self.key()
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

/// Of `marks` in the order a reader meets them, the first that puts a
/// second, different mark of an [`MarkKind::EXCLUSIVE`] element on a cell
/// (even on a cell marked odd): its index among them and why it cannot
/// be. Every reader's marks pass it ([`ElementType::check`]); a reader
/// that knows where each mark is written calls it too, to point at the
/// second.
pub fn first_clash<K: MarkKind>(
    marks: impl IntoIterator<Item = Marked<K>>,
) -> Option<(usize, String)> {
    if !K::EXCLUSIVE {
        return None;
    }
    let mut seen = std::collections::HashMap::new();
    marks.into_iter().enumerate().find_map(|(k, m)| {
        let first = *seen.entry(m.cell).or_insert(m.kind);
        (first != m.kind).then(|| {
            let (r, c) = m.cell;
            let why = format!(
                "{} is marked both {} and {}, which contradict each other: keep one of the two \
                 marks",
                crate::model::rc(r, c),
                first.key(),
                m.kind.key()
            );
            (k, why)
        })
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
        if K::EXCLUSIVE {
            refuse_clash(key, &marks, r)?;
        }
        Ok(marks.into_iter().map(|(_, m)| m).collect())
    }

    /// No cell carries one mark twice, as [`read_marks`] refuses, nor two
    /// that contradict each other ([`first_clash`]).
    fn check(all: &[&Self], _size: usize) -> Result<(), HookError> {
        for &key in K::KEYS {
            let kind = K::of_key(key);
            let cells: Vec<_> = all
                .iter()
                .filter(|m| m.kind == kind)
                .map(|m| m.cell)
                .collect();
            marks_once(key, &cells)?;
        }
        first_clash(all.iter().map(|m| **m)).map_or(Ok(()), |(_, why)| Err(why))
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

/// Refuses, where the file writes the second of the two, a cell that
/// `key`'s marks (`marks`) and the element's other keys mark in ways that
/// contradict each other. The other keys are read again for where their
/// marks are written, which the marks read before keep no trace of, so
/// the error is at the later mark in the file whichever key comes first.
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
    match first_clash(all.iter().map(|&(_, m)| m)) {
        Some((k, why)) => Err(InputError::new(r.loc(all[k].0), why)),
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
            why.starts_with("r2c3 is marked both even and odd, which contradict each other"),
            "{why}"
        );
        assert_eq!(
            first_clash([elsewhere, odd, odd, even]).map(|(k, _)| k),
            Some(3)
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
