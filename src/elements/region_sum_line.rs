//! Region-sum lines: where the line crosses from one box (or jigsaw
//! region) into another it splits into segments; every segment has the
//! same sum. On a grid without boxes or regions the line is one segment.
//!
//! ```toml
//! [[region-sum-line]]
//! cells = "r1c2 r1c3 r2c3"
//! ```

use super::boxes::Boxes;
use super::line::{Line, LineKind, equal_sums, ids};
use super::regions::Regions;
use crate::model::Rule;

/// A region-sum line ([`RegionSumLineKind`]).
pub type RegionSumLine = Line<RegionSumLineKind>;

/// What a region-sum line means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionSumLineKind;

impl LineKind for RegionSumLineKind {
    const NAME: &'static str = "region-sum-line";
    const KEYS: &'static [&'static str] = &["region-sum-line"];
    const FPUZZLES: &'static [&'static str] = &["regionsumline"];
    const ISS: &'static [&'static str] = &["RegionSumLine"];
    const DOC: &'static str = "`[[region-sum-line]] cells = \"r1c1 r1c2 …\"`: the segments the boxes \
        (or jigsaw regions) cut the line into all have the same sum";
    const COLOUR: &'static str = "#5aa0ff";

    fn rules(cells: &[(usize, usize)], _: i64, l: &super::Lowering) -> Vec<Rule> {
        let region = |&(r, c): &(usize, usize)| -> Option<usize> {
            if let Some(b) = l.all::<Boxes>().next().filter(|b| b.rows > 0 && b.cols > 0) {
                return Some((r / b.rows) * l.n().div_ceil(b.cols) + c / b.cols);
            }
            l.all::<Regions>()
                .next()
                .and_then(|g| g.0.iter().position(|reg| reg.contains(&(r, c))))
        };
        let ids = ids(cells, l);
        // Maximal runs of cells in one region, in order along the line.
        let mut runs: Vec<Vec<usize>> = Vec::new();
        for (i, cell) in cells.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if region(&cells[*run.last().unwrap_or(&0)]) == region(cell) => run.push(i),
                _ => runs.push(vec![i]),
            }
        }
        let sums: Vec<Vec<usize>> =
            runs.iter().map(|run| run.iter().map(|&i| ids[i]).collect()).collect();
        sums.windows(2).map(|w| equal_sums(&w[0], &w[1])).collect()
    }
}
