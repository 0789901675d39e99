//! Elements whose every instance is one marked cell under one of a few
//! keys (odd and even, minimum and maximum, the indexers): one generic
//! [`Marked`] reads and writes them (TOML `[[key]] cells = "…"`, f-puzzles
//! lists of cells), and each element's module says only what its marks
//! mean ([`MarkKind`]): their keys, how they lower and how they draw.

use super::kit::{
    fpuzzles_cell, fpuzzles_marks, fpuzzles_push, marks_once, read_marks, write_marks,
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

impl<K: MarkKind> ElementType for Marked<K> {
    const NAME: &'static str = K::NAME;
    const KEYS: &'static [&'static str] = K::KEYS;
    const FPUZZLES: &'static [&'static str] = K::FPUZZLES;
    const ISS: &'static [&'static str] = K::ISS;
    const DOC: &'static str = K::DOC;

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        K::check(key, r)?;
        let kind = K::of_key(key);
        Ok(read_marks(key, r)?
            .into_iter()
            .map(|cell| Marked { cell, kind })
            .collect())
    }

    /// No cell carries one mark twice, as [`read_marks`] refuses.
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
        Ok(())
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
