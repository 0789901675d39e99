//! Anti-king: two cells that touch diagonally never hold the same value
//! (cells that share a side are in one row or column already).
//! `anti-king = true`.

use super::kit::{chess, fpuzzles_flag, read_flag};
use super::{ElementType, HookError, Lowering, Making, TomlReader, TomlWriter};
use crate::error::InputError;

/// The anti-king rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKing;

impl ElementType for AntiKing {
    const NAME: &'static str = "anti-king";
    const KEYS: &'static [&'static str] = &["anti-king"];
    const FPUZZLES: &'static [&'static str] = &["antiking"];
    const ISS: &'static [&'static str] = &["AntiKing"];
    const DOC: &'static str = "`anti-king = true`: cells that touch diagonally hold different values";

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        read_flag(key, r, AntiKing)
    }

    fn write(_all: &[&Self], w: &mut TomlWriter) {
        w.key("anti-king = true\n");
    }

    fn from_fpuzzles(key: &str, value: &serde_json::Value, _size: usize) -> Result<Vec<Self>, HookError> {
        fpuzzles_flag(key, value, AntiKing)
    }

    fn to_fpuzzles(
        _all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        top.insert("antiking".into(), serde_json::Value::Bool(true));
        Ok(())
    }

    fn from_iss(_name: &str, _args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        Ok(vec![AntiKing])
    }

    /// A rule over the grid: the solution is filled keeping it.
    fn making() -> Making<Self> {
        Making::Rule(AntiKing)
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        chess(l, Self::NAME, &[(1, 1)]);
    }
}
