//! Modular lines: any `m` cells in a row along the line (all of them on a
//! shorter line) hold values of `m` different remainders mod `m`, so cells
//! `m` apart share their remainder. The modulus is 3 unless given (on 9×9
//! one each of 147, 258, 369); ISS's `.Modular~M~…` gives it, and a line
//! of any modulus from 2 up is read.
//!
//! ```toml
//! [[modular-line]]
//! cells = "r1c1 r1c2 r1c3 r1c4"
//! modulus = 3
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
    const DOC: &'static str = "`[[modular-line]] cells = \"r1c1 r1c2 …\"` (`modulus = M`, default \
        3): any M cells in a row on the line hold values of M different remainders mod M";
    const PARAM: Option<&'static str> = Some("modulus");
    const COLOUR: &'static str = "#40b8b8";
    const TABLES: bool = true;

    fn default_param(_n: i64) -> i64 {
        3
    }

    fn check_param(m: i64, _len: usize, n: i64) -> Result<(), String> {
        // m different remainders need m values; mod 1 says nothing.
        if m < 2 || m > n {
            return Err(format!(
                "modulus = {m}: a modular line's modulus is from 2 to the number of values ({n})"
            ));
        }
        Ok(())
    }

    fn iss_param(_name: &str, v: i64) -> Result<Option<i64>, super::HookError> {
        // ISS's Modular takes its modulus; 3 is the default and is left out.
        Ok((v != 3).then_some(v))
    }

    fn rules(cells: &[(usize, usize)], m: i64, l: &super::Lowering) -> Vec<Rule> {
        distinct_classes(&ids(cells, l), l, usize::try_from(m).unwrap_or(3), move |v| v % m)
    }
}
