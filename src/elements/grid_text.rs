//! Grid text: the rows of givens, solutions and cage labels, and the checks
//! every square grid shares (size, box shape).

use crate::elements::boxes::{square_box, suggested_box};
use crate::elements::givens::Values;
use crate::error::{InputError, Location, rc};
use crate::puzzle::MAX_SIZE;

/// Where the text of a grid sits in its file, so that every token can be
/// reported at its real line and column even when the grid is a string
/// inside a TOML file.
#[derive(Debug, Clone)]
pub(crate) struct TextOrigin {
    /// The file, with the line and column of the value (for whole-grid
    /// messages).
    pub start: Location,
    /// File line of the text's first line.
    first_line: usize,
    /// 1-based file column of the first character of the text's first line.
    first_col: usize,
    /// The text came from a one-line string, whose escapes make line and
    /// column mapping unreliable past its first line.
    single_line: bool,
}

impl TextOrigin {
    /// Text that is the whole file.
    pub fn whole_file(file: &Location) -> Self {
        TextOrigin {
            start: file.at_line(1),
            first_line: 1,
            first_col: 1,
            single_line: false,
        }
    }

    /// Text of a TOML string value whose raw form (quotes included) starts
    /// at byte `offset` of `source`.
    pub fn toml_string(file: &Location, source: &str, offset: usize) -> Self {
        let (line, col) = line_col(source, offset);
        let raw = source.get(offset..).unwrap_or("");
        let start = file.at(line, col);
        if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            // A newline right after the opening quotes is not part of the
            // string.
            let after = &raw[3..];
            if after.starts_with('\n') || after.starts_with("\r\n") {
                TextOrigin {
                    start,
                    first_line: line + 1,
                    first_col: 1,
                    single_line: false,
                }
            } else {
                TextOrigin {
                    start,
                    first_line: line,
                    first_col: col + 3,
                    single_line: false,
                }
            }
        } else {
            TextOrigin {
                start,
                first_line: line,
                first_col: col + 1,
                single_line: true,
            }
        }
    }

    /// The file location of character `ch` (0-based) of text line `line`
    /// (0-based).
    pub fn at(&self, line: usize, ch: usize) -> Location {
        if self.single_line {
            if line == 0 {
                return self.start.at(self.first_line, self.first_col + ch);
            }
            return self.start.at_line(self.first_line);
        }
        let col = if line == 0 {
            self.first_col + ch
        } else {
            ch + 1
        };
        self.start.at(self.first_line + line, col)
    }
}

pub(crate) use crate::error::line_col;

/// One cell's token and where it was written.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// The text of the token.
    pub text: String,
    /// Where it is in the file.
    pub loc: Location,
}

/// A row of a grid: its cells' tokens, and where the row starts.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// Where the row's first token is.
    pub loc: Location,
    /// The cells.
    pub cells: Vec<Token>,
    /// Whether the row was written without spaces.
    pub compact: bool,
}

/// Whether a token is only a drawing separator (`|`, `-`, `+`).
fn is_separator(tok: &str) -> bool {
    !tok.is_empty() && tok.chars().all(|c| matches!(c, '|' | '-' | '+'))
}

/// Splits grid text into rows of cell tokens. Tokens are separated by white
/// space; tokens made only of `|`, `-` and `+` are drawing separators and
/// lines made only of them are skipped. A line holding one token of
/// several characters is a row written without spaces: each character
/// (other than `|`) is a cell.
pub(crate) fn split_rows(text: &str, origin: &TextOrigin) -> Vec<Row> {
    let mut rows = Vec::new();
    for (li, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut toks: Vec<(usize, &str)> = Vec::new();
        let mut start: Option<(usize, usize)> = None; // (char index, byte index)
        for (ci, (bi, ch)) in line.char_indices().enumerate() {
            if ch.is_whitespace() {
                if let Some((sc, sb)) = start.take() {
                    toks.push((sc, &line[sb..bi]));
                }
            } else if start.is_none() {
                start = Some((ci, bi));
            }
        }
        if let Some((sc, sb)) = start {
            toks.push((sc, &line[sb..]));
        }
        toks.retain(|(_, t)| !is_separator(t));
        let Some(&(first_ch, first_tok)) = toks.first() else {
            continue;
        };
        let loc = origin.at(li, first_ch);
        if toks.len() == 1 && first_tok.chars().count() > 1 {
            let cells = first_tok
                .chars()
                .enumerate()
                .filter(|&(_, c)| c != '|')
                .map(|(i, c)| Token {
                    text: c.to_string(),
                    loc: origin.at(li, first_ch + i),
                })
                .collect();
            rows.push(Row {
                loc,
                cells,
                compact: true,
            });
        } else {
            let cells = toks
                .iter()
                .map(|&(ci, t)| Token {
                    text: t.to_string(),
                    loc: origin.at(li, ci),
                })
                .collect();
            rows.push(Row {
                loc,
                cells,
                compact: false,
            });
        }
    }
    rows
}

/// Checks that the rows form a rectangle of at most [`MAX_SIZE`] squares
/// each way and returns (rows, columns). `what` names the grid ("givens").
pub(crate) fn check_shape(
    rows: &[Row],
    what: &str,
    origin: &TextOrigin,
) -> Result<(usize, usize), InputError> {
    let Some(first) = rows.first() else {
        return Err(InputError::new(
            origin.start.clone(),
            format!("{what} is empty: write one row of the grid per line"),
        ));
    };
    let width = first.cells.len();
    for (i, row) in rows.iter().enumerate() {
        if row.cells.len() != width {
            return Err(InputError::new(
                row.loc.clone(),
                format!(
                    "row {} of {what} has {} cells, but the grid is {width} wide (row 1 has {width})",
                    i + 1,
                    row.cells.len()
                ),
            ));
        }
    }
    check_max(rows.len(), width, &origin.start)?;
    Ok((rows.len(), width))
}

/// Checks a grid's size against [`MAX_SIZE`].
pub(crate) fn check_max(rows: usize, cols: usize, loc: &Location) -> Result<(), InputError> {
    if rows > MAX_SIZE || cols > MAX_SIZE {
        return Err(InputError::new(
            loc.clone(),
            format!(
                "the grid is {rows}×{cols}, larger than the supported maximum of {MAX_SIZE}×{MAX_SIZE}"
            ),
        ));
    }
    Ok(())
}

/// Checks that the grid is square, as a sudoku, killer or calcudoku grid
/// must be.
pub(crate) fn check_square(
    rows: usize,
    cols: usize,
    what: &str,
    kind: &str,
    loc: &Location,
) -> Result<(), InputError> {
    if rows != cols {
        return Err(InputError::new(
            loc.clone(),
            format!(
                "{what} has {rows} row{} but is {cols} wide: a {kind} grid must be square",
                if rows == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// Reads a value token: `Ok(None)` for a blank (`.`, `0`, `_`), the value
/// for a number in `1..=max`.
pub(crate) fn value_of(tok: &Token, max: u32) -> Result<Option<u32>, InputError> {
    let t = tok.text.as_str();
    if matches!(t, "." | "0" | "_") {
        return Ok(None);
    }
    if !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(InputError::new(
            tok.loc.clone(),
            format!("'{t}' is not a value: write a number from 1 to {max}, or . for a blank"),
        ));
    }
    match t.parse::<u32>() {
        Ok(v) if (1..=max).contains(&v) => Ok(Some(v)),
        _ => Err(InputError::new(
            tok.loc.clone(),
            format!("{t} is out of range: values go from 1 to {max}"),
        )),
    }
}

/// Checks that no row of values written without spaces is wider than 9,
/// where values stop being single digits.
pub(crate) fn check_compact(rows: &[Row], what: &str) -> Result<(), InputError> {
    match rows.iter().find(|r| r.compact && r.cells.len() > 9) {
        Some(row) => Err(InputError::new(
            row.loc.clone(),
            format!(
                "a row of {what} written without spaces works only up to 9 wide; \
                 separate the values with spaces"
            ),
        )),
        None => Ok(()),
    }
}

/// Reads value rows (already shape-checked) into a grid of values
/// `1..=max`. A row written without spaces is only allowed up to 9 wide,
/// where every value is one digit.
pub(crate) fn values(rows: &[Row], max: u32, what: &str) -> Result<Values, InputError> {
    let mut grid = Vec::with_capacity(rows.len());
    let mut locs = Vec::with_capacity(rows.len());
    check_compact(rows, what)?;
    for row in rows {
        let mut line = Vec::with_capacity(row.cells.len());
        for tok in &row.cells {
            line.push(value_of(tok, max)?);
        }
        grid.push(line);
        locs.push(row.cells.iter().map(|t| t.loc.clone()).collect());
    }
    Ok(Values { grid, locs })
}

/// Checks that a solution fills every cell.
pub(crate) fn check_filled(v: &Values) -> Result<(), InputError> {
    for (r, line) in v.grid.iter().enumerate() {
        for (c, cell) in line.iter().enumerate() {
            if cell.is_none() {
                let loc = v.loc(r, c);
                return Err(InputError::new(
                    loc,
                    format!(
                        "the solution leaves {} blank: a solution must fill every cell",
                        rc(r, c)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Parses a box shape such as `3x3` (rows × columns of a box).
pub(crate) fn parse_box(text: &str) -> Option<(usize, usize)> {
    let t = text.trim();
    let (r, c) = t.split_once(['x', 'X', '×'])?;
    let r: usize = r.trim().parse().ok()?;
    let c: usize = c.trim().parse().ok()?;
    (r > 0 && c > 0).then_some((r, c))
}

/// Decides the box shape of an n×n sudoku or killer from its optional
/// `box` value (with the value's location).
pub(crate) fn box_shape(
    n: usize,
    given: Option<(&str, Location)>,
    loc: &Location,
) -> Result<(usize, usize), InputError> {
    match given {
        Some((text, bloc)) => {
            let (sr, sc) = suggested_box(n);
            let Some((r, c)) = parse_box(text) else {
                return Err(InputError::new(
                    bloc,
                    format!(
                        "box = \"{text}\" is not a box shape: write ROWSxCOLUMNS, e.g. box = \"{sr}x{sc}\""
                    ),
                ));
            };
            if r.checked_mul(c) != Some(n) {
                return Err(InputError::new(
                    bloc,
                    format!(
                        "box {r}x{c} does not fit a {n}×{n} grid: rows × columns of a box must be {n}, \
                         e.g. box = \"{sr}x{sc}\""
                    ),
                ));
            }
            Ok((r, c))
        }
        None => square_box(n).ok_or_else(|| {
            let (r, c) = suggested_box(n);
            InputError::new(
                loc.clone(),
                format!(
                    "a {n}×{n} grid has no square boxes, so it needs a box shape: add box = \"{r}x{c}\" \
                     (rows x columns of one box)"
                ),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes_read() {
        assert_eq!(parse_box(" 2x3 "), Some((2, 3)));
        assert_eq!(parse_box("2×3"), Some((2, 3)));
        assert_eq!(parse_box("0x3"), None);
    }

    #[test]
    fn multi_line_string_skips_the_first_newline() {
        let src = "a = 1\ngivens = \"\"\"\n1 2\n3 4\n\"\"\"\n";
        let off = src.find("\"\"\"").unwrap_or(0);
        let o = TextOrigin::toml_string(&Location::file("f.toml"), src, off);
        assert_eq!(o.at(0, 2).to_string(), "f.toml:3:3");
        assert_eq!(o.at(1, 0).to_string(), "f.toml:4:1");
    }

    #[test]
    fn rows_skip_separators_and_expand_compact_rows() {
        let o = TextOrigin::whole_file(&Location::file("f"));
        let rows = split_rows("1 2 | 3 4\n----+----\n..3|4\n", &o);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].cells.len(), 4);
        assert!(rows[1].compact);
        let texts: Vec<&str> = rows[1].cells.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, [".", ".", "3", "4"]);
        assert_eq!(rows[1].cells[3].loc.to_string(), "f:3:5");
    }
}
