//! Modular lines: any three cells in a row along the line hold one value
//! of each remainder mod 3 (on 9×9 one each of 147, 258, 369).
//!
//! ```toml
//! [[modular-line]]
//! cells = "r1c1 r1c2 r1c3 r1c4"
//! ```

use super::entropic_line::distinct_classes;
use super::line::{Line, LineKind, ids};
use crate::model::Rule;

/// A modular line ([`ModularLineKind`]).
pub type ModularLine = Line<ModularLineKind>;

/// What a modular line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModularLineKind;

impl LineKind for ModularLineKind {
    const NAME: &'static str = "modular-line";
    const KEYS: &'static [&'static str] = &["modular-line"];
    const FPUZZLES: &'static [&'static str] = &["modularline"];
    const ISS: &'static [&'static str] = &["Modular"];
    const DOC: &'static str = "`[[modular-line]] cells = \"r1c1 r1c2 …\"`: any three cells in a row on \
        the line hold values of three different remainders mod 3";
    const COLOUR: &'static str = "#40b8b8";
    const TABLES: bool = true;

    fn iss_param(name: &str, v: i64) -> Result<Option<i64>, super::HookError> {
        // ISS's Modular takes its modulus; smtgrid reads the usual 3.
        match v {
            3 => Ok(None),
            _ => Err(format!("{name}: modulus {v}: smtgrid reads modular lines mod 3")),
        }
    }

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        distinct_classes(&ids(cells, l), l, |v| v % 3)
    }
}
