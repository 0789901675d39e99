//! Rules over the whole grid that a puzzle either has or has not
//! (anti-knight, anti-king): one generic [`WholeGrid`] reads and writes
//! them (`key = true` in TOML, `"key": true` in f-puzzles, a bare ISS
//! flag) and makes them for `generate --with`; each rule's module says
//! only its names and how it lowers ([`GridRule`]).

use super::kit::{fpuzzles_flag, iss_flag, read_flag};
use super::{ElementType, HookError, Lowering, Making, TomlReader, TomlWriter};
use crate::error::InputError;

/// A rule over the whole grid, present in a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeGrid<R>(pub R);

/// What one rule over the whole grid says: its names and how it lowers.
pub trait GridRule: Sized + Copy + Default + std::fmt::Debug + PartialEq + Eq + 'static {
    /// [`ElementType::NAME`], which is also its TOML key.
    const NAME: &'static str;
    /// Its f-puzzles key.
    const FPUZZLES: &'static str;
    /// Its ISS flag.
    const ISS: &'static str;
    /// [`ElementType::DOC`].
    const DOC: &'static str;
    /// [`ElementType::lower`].
    fn lower(l: &mut Lowering);
}

impl<R: GridRule> ElementType for WholeGrid<R> {
    const NAME: &'static str = R::NAME;
    const KEYS: &'static [&'static str] = &[R::NAME];
    const FPUZZLES: &'static [&'static str] = &[R::FPUZZLES];
    const ISS: &'static [&'static str] = &[R::ISS];
    const DOC: &'static str = R::DOC;

    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        read_flag(key, r, WholeGrid(R::default()))
    }

    fn write(_all: &[&Self], w: &mut TomlWriter) {
        w.key(&format!("{} = true\n", R::NAME));
    }

    fn from_fpuzzles(
        key: &str,
        value: &serde_json::Value,
        _size: usize,
    ) -> Result<Vec<Self>, HookError> {
        fpuzzles_flag(key, value, WholeGrid(R::default()))
    }

    fn to_fpuzzles(
        _all: &[&Self],
        top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        top.insert(R::FPUZZLES.into(), serde_json::Value::Bool(true));
        Ok(())
    }

    fn from_iss(name: &str, args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        iss_flag(name, args)?;
        Ok(vec![WholeGrid(R::default())])
    }

    /// A rule over the grid: the solution is filled keeping it.
    fn making() -> Making<Self> {
        Making::Rule(WholeGrid(R::default()))
    }

    fn is_flag(&self) -> bool {
        true
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        R::lower(l);
    }
}
