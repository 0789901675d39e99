//! Errors that reach the user. Input errors carry the file, line and column
//! they concern and say how to fix them; they make the program exit with 2.

use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;

/// `text` with every control character (and every character that reorders
/// the text around it) written as an escape: `\n`, `\r`, `\t`, `\0`,
/// else `\u{1b}`. Text from the input (titles, file names, a token)
/// goes through this before it reaches a terminal, so that it can't move
/// the cursor, change colours or hide part of a line. Applying it twice
/// changes nothing more.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`escape_controls`] on each line of `text`, keeping its line breaks:
/// for a solver's message or stderr, whose lines are meant to be read as
/// lines (cvc5 points at a column on the line below its message).
pub fn escape_controls_by_line(text: &str) -> String {
    text.split('\n')
        .map(escape_controls)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Prints `smtgrid: MESSAGE` on standard error, one line, with control
/// characters escaped (messages quote file names, titles and solver
/// output). A full or closed standard error is ignored: there is nowhere
/// left to report it, and `eprintln!` would panic. Here, beside the
/// escaping, so that any stage may tell what it did (an importer what it
/// left out) without reaching up to the command line's output.
pub fn note(message: impl fmt::Display) {
    use std::io::Write;
    let text = message.to_string();
    let _ = writeln!(
        std::io::stderr().lock(),
        "smtgrid: {}",
        escape_controls(&text)
    );
}

/// Where in an input file something is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// The file, or `-` for standard input.
    pub file: PathBuf,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// 1-based column, if known.
    pub column: Option<usize>,
}

impl Location {
    /// A location naming only the file.
    pub fn file(file: impl Into<PathBuf>) -> Self {
        Location {
            file: file.into(),
            line: None,
            column: None,
        }
    }
    /// The same file at `line` (1-based).
    pub fn at_line(&self, line: usize) -> Self {
        Location {
            file: self.file.clone(),
            line: Some(line),
            column: None,
        }
    }
    /// The same file at `line`, `column` (both 1-based).
    pub fn at(&self, line: usize, column: usize) -> Self {
        Location {
            file: self.file.clone(),
            line: Some(line),
            column: Some(column),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", escape_controls(&self.file.display().to_string()))?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        Ok(())
    }
}

/// A problem with what the user gave us: a puzzle file, a flag, a path.
/// Always exits with status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Where the problem is.
    pub location: Location,
    /// What is wrong, and how to fix it.
    pub message: String,
}

impl InputError {
    /// An input error at `location`.
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        InputError {
            location,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, escape_controls(&self.message))
    }
}

impl std::error::Error for InputError {}

/// Every error smtgrid reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: exit status 2.
    #[error("{0}")]
    Input(#[from] InputError),
    /// Bad usage of the command line (a flag, a solver name): exit status 2.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Standard output is a pipe whose reader has gone (`smtgrid … | head
    /// -1`): the reader wants no more, so the command stops quietly with
    /// exit status 0, as `head` itself would.
    #[error("standard output was closed")]
    OutputClosed,
    /// Writing to standard output failed for another reason (a full disk):
    /// exit status 2, never a silent 0.
    #[error("cannot write to standard output: {0}")]
    Output(std::io::Error),
    /// A plot or picture could not be drawn: exit status 2, like any
    /// output that cannot be written.
    #[error("cannot draw the image: {0}")]
    Image(String),
    /// Ctrl-C stopped the work (an encoding, a solver): exit status 130.
    #[error("interrupted; nothing more was written")]
    Interrupted,
}

impl From<crate::encode::Interrupted> for Error {
    fn from(_: crate::encode::Interrupted) -> Self {
        Error::Interrupted
    }
}

impl Error {
    /// Classifies a failed write to standard output: a closed pipe
    /// ([`Error::OutputClosed`], stop quietly) or a real failure
    /// ([`Error::Output`]). Rust ignores SIGPIPE, so a closed pipe shows up
    /// here as `BrokenPipe` instead of killing the process.
    pub fn from_stdout(e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Error::OutputClosed
        } else {
            Error::Output(e)
        }
    }

    /// Whether the error is to be reported on standard error; a closed
    /// standard output is not a failure to report.
    pub fn is_reported(&self) -> bool {
        !matches!(self, Error::OutputClosed)
    }
}

/// Result with smtgrid's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The candidate closest to `word`, if one is close enough to be a typo
/// of it (`yices` for `yices2`, `default_clue` for `default-clue`): at
/// most a third of its letters differ (one, for a short word).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// ` (did you mean `NAME`?)` for the closest candidate, or nothing: to
/// follow an unknown name in a message.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// Levenshtein distance: single-character insertions, deletions and
/// substitutions to turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `r3c4` style name of a 0-based position.
pub fn rc(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
/// For many offsets in one text, make its [`Lines`] once.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    Lines::new(text).line_col(offset)
}

/// Where each line of a text starts, made once per file: then each
/// offset's line is a binary search, not a count from the start of the
/// file, which made reading a file of many tables quadratic.
#[derive(Debug)]
pub struct Lines<'a> {
    text: &'a str,
    /// Byte offset of each line's start, the first 0.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// The line starts of `text`.
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// 1-based line and column (in characters) of byte `offset`; an
    /// offset past the end or inside a character counts as the
    /// character's start.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.text.len());
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        // The first line starts at 0, so at least one start is ≤ off.
        let line = self.starts.partition_point(|&s| s <= off);
        let start = self.starts[line - 1];
        (line, self.text[start..off].chars().count() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_locate_offsets_as_counting_from_the_start_does() {
        let text = "ab\nçd\n\nx";
        let lines = Lines::new(text);
        // Columns count characters; an offset inside `ç` is its start,
        // one past the end the end.
        let want = [
            (0, (1, 1)),
            (2, (1, 3)),
            (3, (2, 1)),
            (4, (2, 1)),
            (5, (2, 2)),
            (7, (3, 1)),
            (8, (4, 1)),
            (9, (4, 2)),
            (99, (4, 2)),
        ];
        for (offset, at) in want {
            assert_eq!(lines.line_col(offset), at, "offset {offset}");
            assert_eq!(line_col(text, offset), at, "offset {offset}");
        }
    }

    #[test]
    fn control_characters_are_escaped_once() {
        let raw = "a\nb\r\t\0\u{1b}[31m\u{202e}z";
        let shown = escape_controls(raw);
        assert_eq!(shown, "a\\nb\\r\\t\\0\\u{1b}[31m\\u{202e}z");
        assert_eq!(escape_controls(&shown), shown);
        assert!(matches!(escape_controls("plain é"), Cow::Borrowed(_)));
        let e = InputError::new(Location::file("x\u{1b}.toml").at(1, 2), "'\0' is bad");
        assert_eq!(e.to_string(), "x\\u{1b}.toml:1:2: '\\0' is bad");
    }

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        let solvers = ["z3", "cvc5", "yices2", "cvc4"];
        assert_eq!(closest("yices", solvers), Some("yices2"));
        assert_eq!(closest("cvc", solvers), Some("cvc5"));
        assert_eq!(closest("minisat", solvers), None);
        assert_eq!(
            closest("default_clue", ["default-clue", "cages"]),
            Some("default-clue")
        );
        assert_eq!(did_you_mean("z4", solvers), " (did you mean `z3`?)");
        assert_eq!(did_you_mean("", solvers), "");
    }
}
