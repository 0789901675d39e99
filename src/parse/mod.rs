//! Reading puzzle files into [`Puzzle`]s: the native TOML format, sudoku
//! line files and bare kakuro grids. Every check that a puzzle is well
//! formed happens here, so that [`crate::lower`] never sees a malformed
//! one; every error names the file, the line (and column where it helps)
//! and what to change.

mod lines;
pub(crate) mod native;
mod read;
mod sgt;
pub(crate) mod write;

use std::path::Path;

use crate::error::{InputError, Location};
use crate::import;
use crate::puzzle::{Kind, Puzzle};

pub(crate) use crate::elements::cages::label;
pub use crate::elements::cages::syntax::parse_clue;
pub(crate) use read::open as open_input;
pub use read::{DEFAULT_MAX_INPUT_MB, InputLimits, MAX_INPUT_MB, MAX_LINE_BYTES};
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
    /// f-puzzles and SudokuPad links and Interactive Sudoku Solver strings,
    /// one per line (sudoku lines may be mixed in).
    Links,
    /// One f-puzzles puzzle as JSON (a decoded f-puzzles link).
    Fpuzzles,
}

impl InputFormat {
    /// Every format, in the order of the docs.
    pub const ALL: [InputFormat; 6] = [
        InputFormat::Toml,
        InputFormat::Lines,
        InputFormat::Kakuro,
        InputFormat::Sgt,
        InputFormat::Links,
        InputFormat::Fpuzzles,
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
            InputFormat::Links => "links",
            InputFormat::Fpuzzles => "fpuzzles",
        }
    }

    /// The format a file extension stands for, if any; a compressed
    /// `NAME.EXT.gz` has the format of `NAME.EXT`.
    pub fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gz" => Self::from_extension(Path::new(path.file_stem()?)),
            "toml" => Some(InputFormat::Toml),
            "txt" | "sdk" | "lines" => Some(InputFormat::Lines),
            "kakuro" => Some(InputFormat::Kakuro),
            "sgt" => Some(InputFormat::Sgt),
            "links" => Some(InputFormat::Links),
            "json" => Some(InputFormat::Fpuzzles),
            _ => None,
        }
    }

    /// Guesses the format from the text: the first line that is neither
    /// blank nor a `#` comment decides (an f-puzzles or SudokuPad link or
    /// an ISS string `.Type~…` is a links file, `{` f-puzzles JSON,
    /// `GAME:…` or `…/GAME.html#…` is a game ID, `key = ...` or `[table]`
    /// is TOML, a comma means a kakuro grid, anything else a sudoku line).
    pub fn sniff(text: &str) -> Self {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        if import::links::looks_like(first) {
            InputFormat::Links
        } else if first.starts_with('{') {
            InputFormat::Fpuzzles
        } else if sgt::looks_like(first) {
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

/// Lists `items` for a message: `a, b, c or d`. Lists of allowed values are
/// built from the full set (`Kind::ALL`, `InputFormat::ALL`) so that none
/// is left out.
pub(crate) fn one_of<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| s.as_ref().to_string()).collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Reads the puzzles of `path` (`-` for standard input) with the default
/// [`InputLimits`]. The format is `format` if given, else the one the
/// extension names, else the one the content looks like.
pub fn load(path: &Path, format: Option<InputFormat>) -> Result<Vec<Puzzle>, InputError> {
    open(path, format, InputLimits::default())?.collect()
}

/// How many bytes of the start of an input decide its format.
const SNIFF_BYTES: usize = 64 * 1024;

/// The puzzles of one input, parsed as they are read: a line file is read
/// one line at a time, a TOML or kakuro file (one puzzle) whole. After an
/// error the stream ends.
pub struct PuzzleStream {
    inner: Stream,
}

enum Stream {
    Lines(Box<lines::Lines>),
    Whole(std::vec::IntoIter<Puzzle>),
}

impl Iterator for PuzzleStream {
    type Item = Result<Puzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Stream::Lines(l) => l.next(),
            Stream::Whole(ps) => ps.next().map(Ok),
        }
    }
}

/// Opens `path` (`-` for standard input) and streams its puzzles. Reading
/// stops with an error past `limits`; gzip input (by a `.gz` extension or
/// its magic bytes) is decompressed, and the limit counts decompressed
/// bytes. The format is `format` if given, else the one the extension
/// names, else the one the content looks like. Errors in a TOML or kakuro
/// file, and in reading the start of any file, come from `open` itself.
pub fn open(
    path: &Path,
    format: Option<InputFormat>,
    limits: InputLimits,
) -> Result<PuzzleStream, InputError> {
    open_with(path, format, limits, &import::Options::default())
}

/// Like [`open`], with `import` deciding how links and f-puzzles JSON are
/// read. A `path` that names no file but is a link or ISS string is read as
/// that one puzzle, named [`import::link_name`].
pub fn open_with(
    path: &Path,
    format: Option<InputFormat>,
    limits: InputLimits,
    import: &import::Options,
) -> Result<PuzzleStream, InputError> {
    let file = Location::file(path);
    if let Some(link) = path.to_str().filter(|t| import::links::looks_like(t))
        && !path.exists()
    {
        let name = import::link_name(link);
        let at = Location::file(import::links::shorten(link));
        let p = import::read_link(link, &name, &at, import)?;
        return Ok(PuzzleStream {
            inner: Stream::Whole(vec![p].into_iter()),
        });
    }
    let mut input = read::open(path, limits)?;
    let format = match format.or_else(|| InputFormat::from_extension(path)) {
        Some(f) => f,
        None => {
            let head = input.peek(SNIFF_BYTES)?;
            let f = InputFormat::sniff(&String::from_utf8_lossy(&head));
            input = input.unread(head);
            f
        }
    };
    let imported = matches!(format, InputFormat::Links | InputFormat::Fpuzzles);
    if let Some(rule) = import.with.first().filter(|_| !imported) {
        return Err(InputError::new(
            file,
            format!(
                "--with {rule} adds a rule to puzzles read from links and f-puzzles JSON; a \
                 puzzle file states its own rules: write it in the file (in TOML, \
                 `anti-knight = true`)"
            ),
        ));
    }
    let names = Names::of(&file);
    let inner = match format {
        InputFormat::Lines => {
            Stream::Lines(Box::new(lines::Lines::new(input, &file, &names.lines)))
        }
        InputFormat::Links => Stream::Lines(Box::new(lines::Lines::links(
            input,
            &file,
            &names.lines,
            import.clone(),
        ))),
        InputFormat::Toml | InputFormat::Kakuro | InputFormat::Sgt | InputFormat::Fpuzzles => {
            let text = input.text()?;
            Stream::Whole(parse_whole(&text, &file, format, &names, import)?.into_iter())
        }
    };
    Ok(PuzzleStream { inner })
}

/// The names puzzles of a file get.
struct Names {
    /// The one puzzle of a TOML or kakuro file: the file's stem.
    whole: String,
    /// Its identity: the path as given.
    whole_id: String,
    /// The puzzles of a line file: `THIS:LINE`.
    lines: String,
}

impl Names {
    fn of(file: &Location) -> Names {
        if file.file == Path::new("-") {
            return Names {
                whole: "stdin".into(),
                whole_id: "stdin".into(),
                lines: "stdin".into(),
            };
        }
        let shown = file.file.to_string_lossy().into_owned();
        let name = file
            .file
            .file_name()
            .map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned());
        // `x.toml.gz` is named `x`, like `x.toml`.
        let name = name
            .strip_suffix(".gz")
            .or_else(|| name.strip_suffix(".GZ"))
            .unwrap_or(&name);
        let whole = Path::new(name)
            .file_stem()
            .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned());
        Names {
            whole,
            whole_id: shown.clone(),
            lines: shown,
        }
    }
}

/// Parses puzzle text that came from `file` (used in messages and names).
/// Without a `format`, the content decides.
pub fn parse_str(
    text: &str,
    file: &Location,
    format: Option<InputFormat>,
) -> Result<Vec<Puzzle>, InputError> {
    let text = read::newlines(text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let format = format.unwrap_or_else(|| InputFormat::sniff(text));
    let names = Names::of(file);
    let import = import::Options::default();
    match format {
        InputFormat::Lines => {
            let input = read::Input::from_text(text, file);
            lines::Lines::new(input, file, &names.lines).collect()
        }
        InputFormat::Links => {
            let input = read::Input::from_text(text, file);
            lines::Lines::links(input, file, &names.lines, import).collect()
        }
        _ => parse_whole(text, file, format, &names, &import),
    }
}

/// Parses a file that is read whole: the one puzzle of a TOML, kakuro or
/// f-puzzles JSON file, or the game IDs of an `.sgt` file.
fn parse_whole(
    text: &str,
    file: &Location,
    format: InputFormat,
    names: &Names,
    import: &import::Options,
) -> Result<Vec<Puzzle>, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let stem = names.whole.clone();
    let whole = |mut p: Puzzle| {
        p.id.clone_from(&names.whole_id);
        vec![p]
    };
    match format {
        InputFormat::Toml | InputFormat::Lines | InputFormat::Links => {
            Ok(whole(native::parse(text, file, &stem)?))
        }
        InputFormat::Fpuzzles => Ok(whole(import::read_json_file(text, &stem, file, import)?)),
        InputFormat::Sgt => sgt::parse(text, file, &names.lines),
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
            let layout = crate::elements::kakuro::syntax::bare(text, file)?;
            let mut p = Puzzle::blank(&stem, Kind::Kakuro, 0);
            native::set_kakuro(&mut p, layout.cells);
            Ok(whole(p))
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
        assert_eq!(
            InputFormat::sniff("# mine\nhttps://f-puzzles.com/?load=N4Ig\n"),
            InputFormat::Links
        );
        assert_eq!(
            InputFormat::sniff("https://sudokupad.app/sclN4Ig\n"),
            InputFormat::Links
        );
        assert_eq!(
            InputFormat::sniff(".Cage~3~R1C1~R1C2\n"),
            InputFormat::Links
        );
        assert_eq!(InputFormat::sniff("{\"size\": 9}"), InputFormat::Fpuzzles);
        assert_eq!(
            InputFormat::from_extension(Path::new("p.json")),
            Some(InputFormat::Fpuzzles)
        );
    }
}
