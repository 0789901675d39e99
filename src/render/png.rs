//! SVG documents drawn as PNG images, by resvg with the built-in font
//! ([`super::font::FONT`]) standing in for `sans-serif` and for the family
//! the pictures name, so the result needs no system font library and is
//! the same on every machine. Shared by puzzle pictures and bench plots.

use std::path::Path;

use resvg::{tiny_skia, usvg};

use super::font::{FAMILY, FONT};

/// What an image file is written as, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// The SVG document itself.
    Svg,
    /// The SVG rasterised.
    Png,
}

impl ImageFormat {
    /// The format a file name asks for: `.svg` or `.png` (any case).
    pub fn of(path: &Path) -> Option<ImageFormat> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Some(ImageFormat::Svg),
            Some("png") => Some(ImageFormat::Png),
            _ => None,
        }
    }

    /// The bytes of `svg` in this format; a PNG is drawn at `scale`
    /// pixels per SVG unit. The error says what went wrong, for the
    /// caller's message.
    pub fn encode(self, svg: &str, scale: f32) -> Result<Vec<u8>, String> {
        match self {
            ImageFormat::Svg => Ok(svg.as_bytes().to_vec()),
            ImageFormat::Png => png(svg, scale),
        }
    }
}

/// The options every SVG is read with: the built-in font as the only
/// font, standing in for every generic family.
pub fn options() -> usvg::Options<'static> {
    let mut opt = usvg::Options::default();
    let fonts = opt.fontdb_mut();
    fonts.load_font_data(FONT.to_vec());
    fonts.set_sans_serif_family(FAMILY);
    fonts.set_serif_family(FAMILY);
    fonts.set_monospace_family(FAMILY);
    opt.font_family = FAMILY.to_string();
    opt
}

/// `svg` drawn as a PNG, `scale` pixels per unit, on white.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, &options()).map_err(|e| e.to_string())?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(no_area)?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(no_area)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

fn no_area() -> String {
    "the image has no area to draw".to_string()
}
