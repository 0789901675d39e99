//! Irregular regions (jigsaw): n regions of n cells, each holding every
//! value once. Read from the jigsaw kind's `regions` grid, which fixes the
//! grid's size, by [`Regions::read_grid`](ElementType::read_grid) (with the
//! givens, checked against the regions by
//! [`Regions::finish_grid`](ElementType::finish_grid)); written by
//! [`Regions::write`](ElementType::write) in the kind's key order.

pub mod syntax;

use super::cages::label;
use super::kit::label_rows;
use super::grid_text::{self, split_rows};
use super::{
    ElementType, GridRead, Layer, Lowering, Member, Says, TomlReader, TomlWriter, givens,
};
use crate::error::InputError;
use crate::model::{Group, Rule, What};
use crate::render::group_map;
use crate::render::svg::{Layout, Svg, thick_edges};

/// Jigsaw regions, each the 0-based (row, column) of its cells in
/// row-major order; regions ordered by their first cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions(pub Vec<Vec<(usize, usize)>>);

impl ElementType for Regions {
    const NAME: &'static str = "regions";
    const KEYS: &'static [&'static str] = &["regions"];
    const WRITTEN_WITH_GRID: bool = true;
    const SHOWN_BY_TEXT_GRID: bool = true;
    const DOC: &'static str = "`regions = \"\"\"…\"\"\"` (jigsaw): a grid of region labels, n regions \
        of n cells, each value once per region";

    /// The jigsaw kind's `regions`: a square grid of labels, n regions of
    /// n cells; then the givens, which must be as large.
    fn read_grid(r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        let rg = r.grid_string(
            "regions",
                "a jigsaw puzzle needs its regions: add regions = \"\"\"...\"\"\" \
                 (a grid of region labels, n regions of n cells)",
        )?;
        let origin = r.origin(&rg);
        let rows = split_rows(rg.get_ref(), &origin);
        let (h, w) = grid_text::check_shape(&rows, "the regions grid", &origin)?;
        grid_text::check_square(h, w, "the regions grid", "jigsaw", &origin.start)?;
        let labels = super::cages::syntax::labels(&rows)?;
        let regions = Regions(syntax::build(&labels, h)?);
        let givens = givens::read(r)?;
        if let Some(g) = &givens {
            let gn = g.values.grid.len();
            if gn != h {
                return Err(InputError::new(
                    g.at.clone(),
                    format!("the givens are {gn}×{gn}, but the regions grid is for {h}×{h}"),
                ));
            }
        }
        Ok(Some(GridRead {
            shape: (h, h),
            givens: givens.map(|g| g.values),
            at: origin.start,
            element: Some(regions),
        }))
    }

    /// No given repeats within a region.
    fn finish_grid(
        r: &TomlReader,
        givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        let (Some(g), Some(Regions(regions))) = (givens, r.elements.iter().find_map(Self::of))
        else {
            return Ok(None);
        };
        givens::check_units(g, givens::numbered("region", regions))?;
        Ok(None)
    }

    /// The grid of region labels (a–z, A–Z, `c52`, …): n regions of n
    /// cells make an n×n grid.
    fn write(all: &[&Self], w: &mut TomlWriter) {
        for Regions(regions) in all {
            let n = regions.len();
            let mut labels = vec![vec![None; n]; n];
            for (k, cells) in regions.iter().enumerate() {
                for &(r, c) in cells {
                    if let Some(at) = labels.get_mut(r).and_then(|l: &mut Vec<_>| l.get_mut(c)) {
                        *at = Some(label(k));
                    }
                }
            }
            w.block("regions", &label_rows(&labels));
        }
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

    /// Thick lines between the regions.
    fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
        if layer != Layer::Borders || self.0.is_empty() {
            return;
        }
        let (rows, cols) = layout.shape();
        let regions = group_map(rows, cols, self.0.iter().map(|r| &r[..]));
        thick_edges(s, layout, |a, b| regions[a.0][a.1] != regions[b.0][b.1]);
    }
}
