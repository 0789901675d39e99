//! Sudoku line files: one puzzle per line, n² characters (81 for 9×9,
//! 16 for 4×4), `.` or `0` for a blank; blank lines and lines starting with
//! `#` are skipped. Each puzzle is named `FILE:LINE`. Files of links (or
//! ISS strings) are read the same way, each line through [`crate::import`].

use crate::error::{InputError, Location};
use crate::import;
use crate::puzzle::{Kind, Puzzle};

use super::read::{Input, utf8};
use crate::elements::boxes::{square_box, suggested_box};
use crate::elements::givens::{Values, check_repeats};

/// The puzzles of a line file, read one line at a time: the file is never
/// held whole. After an error the stream ends.
pub(crate) struct Lines {
    input: Input,
    file: Location,
    name_file: String,
    /// Number of the last line read.
    ln: usize,
    /// Bytes of the input before the next line, for messages.
    offset: usize,
    found: bool,
    done: bool,
    buf: Vec<u8>,
    /// For a file of links: how they are read.
    links: Option<import::Options>,
}

impl Lines {
    /// Streams the puzzles of `input`, which came from `file`; each is named
    /// `NAME_FILE:LINE`.
    pub(crate) fn new(input: Input, file: &Location, name_file: &str) -> Self {
        Lines {
            input,
            file: file.clone(),
            name_file: name_file.to_string(),
            ln: 0,
            offset: 0,
            found: false,
            done: false,
            buf: Vec::new(),
            links: None,
        }
    }

    /// Streams the puzzles of a file of links, ISS strings and sudoku
    /// lines, read with `opts`.
    pub(crate) fn links(
        input: Input,
        file: &Location,
        name_file: &str,
        opts: import::Options,
    ) -> Self {
        Lines {
            links: Some(opts),
            ..Lines::new(input, file, name_file)
        }
    }

    /// The next puzzle, `None` at the end of the file.
    fn step(&mut self) -> Result<Option<Puzzle>, InputError> {
        loop {
            self.ln += 1;
            let ln = self.ln;
            let mut buf = std::mem::take(&mut self.buf);
            if !self.input.line(&mut buf, ln)? {
                if self.found {
                    return Ok(None);
                }
                let holds = if self.links.is_some() {
                    "a links file holds one f-puzzles or SudokuPad link or ISS string per line"
                } else {
                    "a line file holds one sudoku per line, 81 characters for a 9×9 (. or 0 for a \
                     blank)"
                };
                return Err(InputError::new(
                    self.file.clone(),
                    format!("the file has no puzzles: {holds}"),
                ));
            }
            let len = buf.len();
            let text = utf8(buf, &self.file, ln, self.offset)?;
            self.offset += len + 1;
            let line = if ln == 1 {
                text.strip_prefix('\u{feff}').unwrap_or(&text)
            } else {
                &text
            };
            let lead = line.chars().take_while(|c| c.is_whitespace()).count();
            let body = line.trim();
            if body.is_empty() || body.starts_with('#') {
                self.buf = text.into_bytes();
                continue;
            }
            self.found = true;
            let at = self.file.at(ln, lead + 1);
            // ISS's jigsaws (givens then layout) and pencil marks are dots
            // and digits too, but never n² of them up to 9×9.
            let sudoku_line = body.chars().all(|c| c == '.' || c.is_ascii_digit())
                && !import::links::is_iss_text(body);
            let p = match &self.links {
                Some(opts) if !sudoku_line => {
                    let name = format!("{}:{ln}", self.name_file);
                    import::read_link(body, &name, &at, opts)?
                }
                _ => one(body, &at, ln, lead, &self.file, &self.name_file)?,
            };
            self.buf = text.into_bytes();
            return Ok(Some(p));
        }
    }
}

impl Iterator for Lines {
    type Item = Result<Puzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.step().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
}

/// Parses one line, `body`, which starts at character `lead` of line `ln`.
fn one(
    body: &str,
    at: &Location,
    ln: usize,
    lead: usize,
    file: &Location,
    name_file: &str,
) -> Result<Puzzle, InputError> {
    let len = body.chars().count();
    if body.contains(',') {
        return Err(InputError::new(
            at.clone(),
            "this line looks like a kakuro grid, not a sudoku line: name the file *.kakuro \
             or pass --input-format kakuro",
        ));
    }
    let n = (1..=9).find(|n| n * n == len);
    let Some(n) = n else {
        // A line file read as such (by its name or --input-format) meets
        // ISS's text forms only here.
        let iss = if import::links::is_iss_text(body) {
            "; it reads as one of ISS's text forms (a jigsaw's givens then its layout, givens \
             above 9×9, or pencil marks): name the file *.links or pass --input-format links"
        } else {
            ""
        };
        return Err(InputError::new(
            at.clone(),
            format!(
                "a sudoku line must have n² characters (81 for a 9×9, 16 for a 4×4), \
                 but this one has {len}{iss}"
            ),
        ));
    };
    let Some(boxes) = square_box(n) else {
        let (r, c) = suggested_box(n);
        return Err(InputError::new(
            at.clone(),
            format!(
                "this line is a {n}×{n} sudoku, whose boxes are not square, and a line file can't \
                 give a box shape: write it as a TOML file with box = \"{r}x{c}\""
            ),
        ));
    };
    let mut grid = vec![vec![None; n]; n];
    // Where a cell is written: column `lead + k + 1` for the k-th character.
    let loc = |k: usize| file.at(ln, lead + k + 1);
    for (k, ch) in body.chars().enumerate() {
        let v = match ch {
            '.' | '0' => None,
            _ => match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= n => Some(d),
                _ => {
                    return Err(InputError::new(
                        loc(k),
                        format!(
                            "'{ch}' is not a value of a {n}×{n} sudoku: write 1 to {n}, or . or 0 for a blank"
                        ),
                    ));
                }
            },
        };
        grid[k / n][k % n] = v;
    }
    // The cells' locations serve only the message of a repeat, so they
    // are made only then, and the check is run again to name them (one
    // location per cell is a path copied 81 times per puzzle).
    let mut values = Values {
        grid,
        locs: Vec::new(),
    };
    if check_repeats(&values, Some(boxes)).is_err() {
        values.locs = (0..n)
            .map(|r| (0..n).map(|c| loc(r * n + c)).collect())
            .collect();
        check_repeats(&values, Some(boxes))?;
    }
    let mut p = Puzzle {
        givens: values.grid,
        ..Puzzle::blank(&format!("{name_file}:{ln}"), Kind::Sudoku, n)
    };
    p.set(crate::elements::boxes::Boxes {
        rows: boxes.0,
        cols: boxes.1,
    });
    Ok(p)
}
