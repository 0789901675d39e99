//! Anti-knight: two cells a chess knight's move apart never hold the same
//! value. `anti-knight = true`.

use super::Lowering;
use super::kit::chess;
use super::whole_grid::{GridRule, WholeGrid};

/// The anti-knight rule.
pub type AntiKnight = WholeGrid<Knight>;

/// A knight's move: one step one way, two the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Knight;

impl GridRule for Knight {
    const NAME: &'static str = "anti-knight";
    const FPUZZLES: &'static str = "antiknight";
    const ISS: &'static str = "AntiKnight";
    const DOC: &'static str = "`anti-knight = true`: cells a knight's move apart hold different values";

    fn lower(l: &mut Lowering) {
        chess(l, Self::NAME, &[(1, 2)]);
    }
}
