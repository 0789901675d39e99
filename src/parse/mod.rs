//! Reading puzzle files into [`Puzzle`]s: the native TOML format, sudoku
//! line files and bare kakuro grids. Every check that a puzzle is well
//! formed happens here, so that [`crate::lower`] never sees a malformed
//! one; every error names the file, the line (and column where it helps)
//! and what to change.

mod cages;
mod futoshiki;
mod grid;
mod kakuro;
mod lines;
mod native;
mod regions;
mod sgt;
mod write;

use std::io::Read;
use std::path::Path;

use crate::error::{InputError, Location};
use crate::puzzle::{Kind, Puzzle};

pub use cages::parse_clue;
pub use grid::{square_box, suggested_box};
pub use write::to_toml;

/// The input formats smtgrid reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// The native format: one puzzle per TOML file.
    Toml,
    /// Sudoku line files: one puzzle per line.
    Lines,
    /// A bare kakuro grid in the source document's comma-separated format.
    Kakuro,
    /// Simon Tatham's puzzle game IDs, one per line.
    Sgt,
}

impl InputFormat {
    /// Every format, in the order of the docs.
    pub const ALL: [InputFormat; 4] = [
        InputFormat::Toml,
        InputFormat::Lines,
        InputFormat::Kakuro,
        InputFormat::Sgt,
    ];

    /// The format called `name` (`toml`, `lines`, `kakuro`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name used with `--input-format`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Toml => "toml",
            InputFormat::Lines => "lines",
            InputFormat::Kakuro => "kakuro",
            InputFormat::Sgt => "sgt",
        }
    }

    /// The format a file extension stands for, if any.
    pub fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "toml" => Some(InputFormat::Toml),
            "txt" | "sdk" | "lines" => Some(InputFormat::Lines),
            "kakuro" => Some(InputFormat::Kakuro),
            "sgt" => Some(InputFormat::Sgt),
            _ => None,
        }
    }

    /// Guesses the format from the text: the first line that is neither
    /// blank nor a `#` comment decides (`GAME:…` or `…/GAME.html#…` is a
    /// game ID, `key = ...` or `[table]` is TOML, a comma means a kakuro
    /// grid, anything else a sudoku line).
    pub fn sniff(text: &str) -> Self {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        if sgt::looks_like(first) {
            InputFormat::Sgt
        } else if first.contains('=') || first.starts_with('[') {
            InputFormat::Toml
        } else if first.contains(',') {
            InputFormat::Kakuro
        } else {
            InputFormat::Lines
        }
    }
}

/// Reads the puzzles of `path` (`-` for standard input). The format is
/// `format` if given, else the one the extension names, else the one the
/// content looks like.
pub fn load(path: &Path, format: Option<InputFormat>) -> Result<Vec<Puzzle>, InputError> {
    let file = Location::file(path);
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| InputError::new(file.clone(), format!("cannot read the file: {e}")))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let bytes = e.as_bytes();
            let off = e.utf8_error().valid_up_to();
            let before = &bytes[..off];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = off
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1)
                + 1;
            let byte = bytes.get(off).copied().unwrap_or(0);
            return Err(InputError::new(
                file.at(line, col),
                format!(
                    "the file is not UTF-8 text: byte 0x{byte:02x} at offset {off} is not valid UTF-8 \
                     (save the file as UTF-8)"
                ),
            ));
        }
    };
    let format = format.or_else(|| InputFormat::from_extension(path));
    parse_str(&text, &file, format)
}

/// Parses puzzle text that came from `file` (used in messages and names).
/// Without a `format`, the content decides.
pub fn parse_str(
    text: &str,
    file: &Location,
    format: Option<InputFormat>,
) -> Result<Vec<Puzzle>, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = format.unwrap_or_else(|| InputFormat::sniff(text));
    let shown = file.file.to_string_lossy().into_owned();
    let is_stdin = shown == "-";
    let stem = if is_stdin {
        "stdin".to_string()
    } else {
        file.file
            .file_stem()
            .map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned())
    };
    match format {
        InputFormat::Toml => Ok(vec![native::parse(text, file, &stem)?]),
        InputFormat::Lines => lines::parse(text, file, if is_stdin { "stdin" } else { &shown }),
        InputFormat::Sgt => sgt::parse(text, file, if is_stdin { "stdin" } else { &shown }),
        InputFormat::Kakuro => {
            if text
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
            {
                return Err(InputError::new(
                    file.clone(),
                    "the file is empty: a kakuro file holds one row of comma-separated squares per line",
                ));
            }
            let layout = kakuro::bare(text, file)?;
            let mut p = Puzzle {
                name: stem,
                title: None,
                kind: Kind::Kakuro,
                rows: 0,
                cols: 0,
                box_shape: None,
                givens: Vec::new(),
                cages: Vec::new(),
                distinct_cages: false,
                kakuro: None,
                solution: None,
                regions: Vec::new(),
                diagonals: false,
                inequalities: Vec::new(),
                edges: None,
            };
            native::set_kakuro(&mut p, layout.cells);
            Ok(vec![p])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_extension_and_content() {
        for f in InputFormat::ALL {
            assert_eq!(InputFormat::from_name(f.name()), Some(f));
        }
        assert_eq!(InputFormat::from_name("xml"), None);
        assert_eq!(
            InputFormat::from_extension(Path::new("a/b.TOML")),
            Some(InputFormat::Toml)
        );
        assert_eq!(
            InputFormat::from_extension(Path::new("top95.txt")),
            Some(InputFormat::Lines)
        );
        assert_eq!(
            InputFormat::from_extension(Path::new("k.kakuro")),
            Some(InputFormat::Kakuro)
        );
        assert_eq!(InputFormat::from_extension(Path::new("-")), None);
        assert_eq!(
            InputFormat::sniff("# c\nkind = \"sudoku\"\n"),
            InputFormat::Toml
        );
        assert_eq!(InputFormat::sniff("x,3|,4|\n|7,_,_\n"), InputFormat::Kakuro);
        assert_eq!(InputFormat::sniff("# top\n1...\n"), InputFormat::Lines);
        assert_eq!(InputFormat::sniff("keen:4:a_,a3\n"), InputFormat::Sgt);
        assert_eq!(
            InputFormat::sniff("https://x.org/js/solo.html#3:a\n"),
            InputFormat::Sgt
        );
    }
}
