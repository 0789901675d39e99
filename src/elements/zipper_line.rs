//! Zipper lines: cells the same distance from the line's centre sum to
//! the same total; on a line of odd length the centre cell is that total.
//!
//! ```toml
//! [[zipper-line]]
//! cells = "r1c1 r1c2 r1c3"
//! ```

use super::line::{Line, LineKind, equal_sums, ids};
use crate::model::Rule;

/// A zipper line ([`ZipperLineKind`]).
pub type ZipperLine = Line<ZipperLineKind>;

/// What a zipper line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipperLineKind;

impl LineKind for ZipperLineKind {
    const NAME: &'static str = "zipper-line";
    const KEYS: &'static [&'static str] = &["zipper-line"];
    const FPUZZLES: &'static [&'static str] = &["zipperline"];
    const ISS: &'static [&'static str] = &["Zipper"];
    const DOC: &'static str = "`[[zipper-line]] cells = \"r1c1 r1c2 …\"`: cells the same distance from \
        the centre sum to one total, which an odd line's centre cell holds";
    const COLOUR: &'static str = "#c8a0e8";

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let ids = ids(cells, l);
        let k = ids.len();
        let pairs: Vec<[usize; 2]> = (0..k / 2).map(|i| [ids[i], ids[k - 1 - i]]).collect();
        if k % 2 == 1 {
            let centre = ids[k / 2];
            pairs.iter().map(|p| equal_sums(p, &[centre])).collect()
        } else {
            pairs.windows(2).map(|w| equal_sums(&w[0], &w[1])).collect()
        }
    }
}
