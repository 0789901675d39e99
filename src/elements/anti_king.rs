//! Anti-king: two cells that touch diagonally never hold the same value
//! (cells that share a side are in one row or column already).
//! `anti-king = true`.

use super::Lowering;
use super::kit::chess;
use super::whole_grid::{GridRule, WholeGrid};

/// The anti-king rule.
pub type AntiKing = WholeGrid<King>;

/// A king's move: one step diagonally.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct King;

impl GridRule for King {
    const NAME: &'static str = "anti-king";
    const FPUZZLES: &'static str = "antiking";
    const ISS: &'static str = "AntiKing";
    const DOC: &'static str = "`anti-king = true`: cells that touch diagonally hold different values";

    fn lower(l: &mut Lowering) {
        chess(l, Self::NAME, &[(1, 1)]);
    }
}
