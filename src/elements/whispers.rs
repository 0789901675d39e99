//! Whispers (German whispers): neighbours on the line differ by at least
//! `difference`, by default ⌈n/2⌉ (5 on 9×9, as SudokuSolver; Dutch
//! whispers are `difference = 4`). A line may come back to a cell it
//! passed (a loop): its rule is on each step's two cells.
//!
//! ```toml
//! [[whispers]]
//! cells = "r1c1 r2c2 r3c2"
//! difference = 4
//! ```

use super::line::{IssNumber, Line, LineKind, ids, table};
use crate::model::Rule;

/// A whispers line ([`WhispersKind`]).
pub type Whispers = Line<WhispersKind>;

/// What a whispers line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhispersKind;

impl LineKind for WhispersKind {
    const NAME: &'static str = "whispers";
    const KEYS: &'static [&'static str] = &["whispers"];
    const FPUZZLES: &'static [&'static str] = &["whispers"];
    const ISS: &'static [&'static str] = &["Whisper"];
    const DOC: &'static str = "`[[whispers]] cells = \"r1c1 r1c2 …\"` (`difference = D`): neighbours \
        on the line differ by at least D (default ⌈n/2⌉: 5 on 9×9; Dutch whispers: 4)";
    const PARAM: Option<&'static str> = Some("difference");
    const COLOUR: &'static str = "#67f067";
    const TABLES: bool = true;
    const PAIRWISE: bool = true;

    fn iss_number(_name: &str) -> IssNumber {
        // ISS reads a whisper without its difference as a German whisper,
        // with its own default of 5 whatever the grid's size.
        IssNumber::Optional(5)
    }

    fn default_param(n: i64) -> i64 {
        (n + 1) / 2
    }

    fn check_param(d: i64, _len: usize, n: i64) -> Result<(), String> {
        if d < 1 || d >= n {
            return Err(format!("difference = {d}: write a difference from 1 to {}", n - 1));
        }
        Ok(())
    }

    fn rules(cells: &[(usize, usize)], d: i64, l: &super::Lowering) -> Vec<Rule> {
        ids(cells, l)
            .windows(2)
            .map(|w| table(w.to_vec(), l, |v| (v[0] - v[1]).abs() >= d))
            .collect()
    }
}
