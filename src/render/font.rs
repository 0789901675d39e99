//! The one font of every picture and plot: DejaVu Sans (Bitstream Vera
//! licence, `fonts/LICENSE-DejaVu`), built in so that a PNG looks the same
//! on every machine, and measured here so that a picture's layout knows
//! how much room each text takes before it is drawn.

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

/// The font file, DejaVu Sans.
pub const FONT: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// The family name SVG text names to get [`FONT`].
pub const FAMILY: &str = "DejaVu Sans";

/// How much room a line of text takes, relative to its origin (the left
/// end of its baseline), in the units of its font size: the advance
/// width, and the ink (the glyphs' outlines) from `left` to `right` and
/// from `top` above the baseline to `bottom` below it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Extent {
    /// Sum of the glyphs' advances.
    pub advance: f64,
    /// Leftmost ink (usually a small positive bearing).
    pub left: f64,
    /// Rightmost ink.
    pub right: f64,
    /// Highest ink above the baseline (positive up).
    pub top: f64,
    /// Lowest ink below the baseline (positive down).
    pub bottom: f64,
}

impl Extent {
    /// Height of the ink.
    pub fn height(&self) -> f64 {
        self.top + self.bottom
    }
    /// Width of the ink.
    pub fn width(&self) -> f64 {
        (self.right - self.left).max(0.0)
    }
}

/// Measures `text` set in [`FONT`] at `size`. Kerning is left out: it
/// only ever narrows the digits and words drawn here, so the measure errs
/// on the roomy side. A character the font lacks counts as a wide glyph
/// of full height, so nothing unknown is ever under-measured.
pub fn measure(text: &str, size: f64) -> Extent {
    let Ok(font) = FontRef::new(FONT) else {
        // The font is built in; this cannot happen, but a rough measure
        // is better than none.
        return rough(text, size);
    };
    let charmap = font.charmap();
    let metrics = font.glyph_metrics(Size::new(size as f32), LocationRef::default());
    let mut e = Extent::default();
    let (mut left, mut right, mut top, mut bottom) = (f64::MAX, f64::MIN, 0.0f64, 0.0f64);
    for ch in text.chars() {
        let glyph = charmap.map(ch);
        let advance = glyph
            .and_then(|g| metrics.advance_width(g))
            .map_or(size, f64::from);
        let bounds = glyph.and_then(|g| metrics.bounds(g));
        let (x0, x1, y0, y1) = match bounds {
            Some(b) => (
                f64::from(b.x_min),
                f64::from(b.x_max),
                f64::from(b.y_min),
                f64::from(b.y_max),
            ),
            None => (0.0, advance, -0.25 * size, size),
        };
        // Blank glyphs (spaces) have an empty box and no ink.
        if x1 > x0 || y1 > y0 {
            left = left.min(e.advance + x0);
            right = right.max(e.advance + x1);
            top = top.max(y1);
            bottom = bottom.max(-y0);
        }
        e.advance += advance;
    }
    if left <= right {
        e.left = left;
        e.right = right;
    }
    e.top = top;
    e.bottom = bottom;
    e
}

fn rough(text: &str, size: f64) -> Extent {
    let advance = text.chars().count() as f64 * size;
    Extent {
        advance,
        left: 0.0,
        right: advance,
        top: size,
        bottom: 0.25 * size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_measure_as_dejavu_draws_them() {
        // DejaVu Sans digits: 1303/2048 em wide, 1493/2048 em tall.
        let e = measure("12", 20.48);
        assert!((e.advance - 26.06).abs() < 0.05, "{e:?}");
        assert!((e.top - 14.93).abs() < 0.5, "{e:?}");
        assert!(e.bottom < 0.5, "{e:?}");
        assert!(e.left > 0.0 && e.right < e.advance, "{e:?}");
        // A space has width and no ink; a missing glyph gets room.
        assert_eq!(measure(" ", 10.0).height(), 0.0);
        assert!(measure("\u{10FFFF}", 10.0).advance >= 10.0);
    }
}
