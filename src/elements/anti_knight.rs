//! Anti-knight: two cells a chess knight's move apart never hold the same
//! value. `anti-knight = true`.

use super::kit::{chess, fpuzzles_flag, read_flag};
use super::{ElementType, HookError, Lowering, Making, TomlReader, TomlWriter};
use crate::error::InputError;

/// The anti-knight rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKnight;

impl ElementType for AntiKnight {
    const NAME: &'static str = "anti-knight";
    const KEYS: &'static [&'static str] = &["anti-knight"];
    const FPUZZLES: &'static [&'static str] = &["antiknight"];
    const ISS: &'static [&'static str] = &["AntiKnight"];
    const DOC: &'static str = "`anti-knight = true`: cells a knight's move apart hold different values";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        read_flag(key, r, AntiKnight)
    }

    fn write(_all: &[&Self], w: &mut TomlWriter) {
        w.key("anti-knight = true\n");
    }

    fn from_fpuzzles(key: &str, value: &serde_json::Value, _size: usize) -> Result<Vec<Self>, HookError> {
        fpuzzles_flag(key, value, AntiKnight)
    }

    fn to_fpuzzles(
        _all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        top.insert("antiknight".into(), serde_json::Value::Bool(true));
        Ok(())
    }

    fn from_iss(_name: &str, _args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        Ok(vec![AntiKnight])
    }

    /// A rule over the grid: the solution is filled keeping it.
    fn making() -> Making<Self> {
        Making::Rule(AntiKnight)
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        chess(l, Self::NAME, &[(1, 2)]);
    }
}
