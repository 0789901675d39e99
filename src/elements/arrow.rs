//! Arrows: the digits on the shaft sum to the circle. A circle of several
//! cells (a pill) reads as the number its digits write in order, as in
//! SudokuSolver; shaft digits may repeat unless they share a house.
//!
//! ```toml
//! [[arrow]]
//! cells = "r1c1 r1c2 r1c3 r2c4"   # the circle first, then the shaft
//! circle = 2                      # a pill of the first two cells (default 1)
//! ```

use super::line::{IssNumber, Line, LineKind, centre, check_touching, ids, linear, touches};
use crate::model::{Cmp, Rule, rc};
use crate::render::svg::{CELL, Layout, Svg};

/// An arrow ([`ArrowKind`]).
pub type Arrow = Line<ArrowKind>;

/// What an arrow means and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrowKind;

impl LineKind for ArrowKind {
    const NAME: &'static str = "arrow";
    const KEYS: &'static [&'static str] = &["arrow"];
    const FPUZZLES: &'static [&'static str] = &["arrow"];
    const ISS: &'static [&'static str] = &["Arrow", "PillArrow"];
    const DOC: &'static str = "`[[arrow]] cells = \"r1c1 r1c2 …\"` (`circle = K`): the shaft's digits \
        sum to the circle (its first K cells, default 1, read as a number: 10·a + b for a pill of two)";
    const PARAM: Option<&'static str> = Some("circle");
    const COLOUR: &'static str = "#a0a0a0";

    fn default_param(_n: i64) -> i64 {
        1
    }

    fn iss_number(name: &str) -> IssNumber {
        // ISS's arrow has a one-cell circle; its pill arrow starts with
        // the pill's size.
        if name == "PillArrow" {
            IssNumber::Required
        } else {
            IssNumber::Refused
        }
    }

    fn iss_param(name: &str, pill: i64) -> Result<Option<i64>, super::HookError> {
        // ISS offers pills of 2 and 3 digits (its builder refuses any
        // other); a one-cell circle is its `.Arrow`.
        if name == "PillArrow" && !(2..=3).contains(&pill) {
            return Err(format!(
                "PillArrow: a pill of {pill} cells, but ISS's pills hold 2 or 3: write \
                 .PillArrow~2~R1C1~R1C2~R1C3 (or ~3~), or .Arrow~R1C1~R1C2 for a one-cell circle"
            ));
        }
        Ok(Some(pill))
    }

    fn check_param(circle: i64, len: usize, _n: i64) -> Result<(), String> {
        if !(1..=3).contains(&circle) || circle as usize >= len {
            return Err(format!(
                "circle = {circle}: a circle holds 1 to 3 cells and the shaft at least one more"
            ));
        }
        Ok(())
    }

    fn check_shape(cells: &[(usize, usize)], circle: i64) -> Result<(), String> {
        let (pill, shaft) = cells.split_at(circle as usize);
        check_touching(pill)?;
        check_touching(shaft)?;
        if !pill.iter().any(|&c| touches(c, shaft[0])) {
            return Err(format!(
                "the shaft's first cell {} does not touch the circle",
                rc(shaft[0].0, shaft[0].1)
            ));
        }
        Ok(())
    }

    fn rules(cells: &[(usize, usize)], circle: i64, l: &super::Lowering) -> Vec<Rule> {
        // 10^(k−1)·c₁ + … + c_k − Σ shaft = 0
        let k = circle as usize;
        let coeffs = (0..cells.len())
            .map(|i| if i < k { 10i64.pow((k - 1 - i) as u32) } else { -1 })
            .collect();
        vec![linear(ids(cells, l), coeffs, Cmp::Eq, 0)]
    }

    /// A white circle (a pill for several cells), a grey shaft from its
    /// edge and a head at the shaft's end.
    fn draw(line: &Arrow, layout: &Layout, s: &mut Svg) {
        let k = line.param_for(0) as usize;
        let (pill, shaft) = line.cells.split_at(k.min(line.cells.len()));
        let pts: Vec<(f64, f64)> = pill.iter().map(|&c| centre(layout, c)).collect();
        let attrs = |w: f64| {
            format!(
                r#"class="arrow" fill="none" stroke="{}" stroke-width="{w}" stroke-linecap="round" stroke-linejoin="round""#,
                ArrowKind::COLOUR
            )
        };
        // The shaft from the circle cell it leaves.
        if let Some(&first) = shaft.first() {
            let from = pill.iter().rev().find(|&&c| touches(c, first)).copied().unwrap_or(pill[0]);
            let mut path = vec![centre(layout, from)];
            path.extend(shaft.iter().map(|&c| centre(layout, c)));
            let (fx, fy) = path[0];
            let (nx, ny) = path[1];
            let d = ((nx - fx).powi(2) + (ny - fy).powi(2)).sqrt().max(1.0);
            path[0] = (fx + (nx - fx) / d * CELL * 0.4, fy + (ny - fy) / d * CELL * 0.4);
            s.polyline(&path, &attrs(2.5));
            // The head: two strokes back from the end.
            let (ex, ey) = path[path.len() - 1];
            let (px, py) = path[path.len() - 2];
            let d = ((ex - px).powi(2) + (ey - py).powi(2)).sqrt().max(1.0);
            let (ux, uy) = ((ex - px) / d, (ey - py) / d);
            let h = CELL * 0.25;
            let left = (ex - ux * h - uy * h * 0.6, ey - uy * h + ux * h * 0.6);
            let right = (ex - ux * h + uy * h * 0.6, ey - uy * h - ux * h * 0.6);
            s.polyline(&[left, (ex, ey), right], &attrs(2.5));
        }
        // The circle (a lone point of a path draws nothing), or for a pill
        // a round-ended thick outline through its cells.
        if let [p] = pts[..] {
            s.circle(
                p,
                CELL * 0.38,
                &format!(
                    r#"class="arrow-circle" fill="white" stroke="{}" stroke-width="2.5""#,
                    ArrowKind::COLOUR
                ),
            );
            return;
        }
        s.polyline(&pts, &attrs(CELL * 0.8));
        s.polyline(
            &pts,
            &format!(
                r#"class="arrow-circle" fill="none" stroke="white" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round""#,
                CELL * 0.8 - 5.0
            ),
        );
    }
}
