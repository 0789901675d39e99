//! Irregular regions (jigsaw): n regions of n cells, each holding every
//! value once. Read from the jigsaw kind's `regions` grid.

use super::{HookError, ElementType, Lowering, Says};
use crate::model::{Group, Rule, What};

/// Jigsaw regions, each the 0-based (row, column) of its cells in
/// row-major order; regions ordered by their first cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions(pub Vec<Vec<(usize, usize)>>);

impl ElementType for Regions {
    const NAME: &'static str = "regions";
    const KEYS: &'static [&'static str] = &[];
    const DOC: &'static str = "`regions = \"\"\"…\"\"\"` (jigsaw): a grid of region labels, n regions \
        of n cells, each value once per region";

    /// Written with the grid by `import::fpuzzles::from_puzzle`.
    fn to_fpuzzles(
        _all: &[&Self],
        _top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        Ok(())
    }

    fn lower(&self, _index: usize, l: &mut Lowering) {
        for (k, region) in self.0.iter().enumerate() {
            let k = k + 1;
            l.begin(
                What::Region,
                || format!("region {k}"),
                || Says {
                    index: Some(k),
                    ..Says::default()
                },
            );
            let cells = region.iter().map(|&(r, c)| l.cell(r, c)).collect();
            l.push(
                Group::Regions,
                format!("region {k}"),
                Rule::AllDifferent { cells },
            );
        }
    }
}
