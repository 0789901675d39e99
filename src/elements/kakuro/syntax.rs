//! The kakuro text format of the source document: one row per line,
//! comma-separated squares; `_` a white cell, `x` a block, `D|A` a clue
//! square with a down sum D and/or an across sum A (`38|`, `|14`, `5|13`;
//! a bare `|` is a block). Spaces around squares are allowed; blank lines
//! and lines starting with `#` are skipped.

use crate::error::rc;
use crate::error::{InputError, Location};
use crate::puzzle::{Grid, KakuroCell};

use crate::elements::grid_text::{Row, TextOrigin, check_max};

/// The squares of a kakuro grid with the location of each.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// The squares.
    pub cells: Vec<Vec<KakuroCell>>,
    /// Where each square was written.
    pub locs: Vec<Vec<Location>>,
}

const SQUARES: &str = "write _ for a white cell, x for a block, or D|A for a clue square \
     (down sum D, across sum A; either may be left out, as in 38| or |14)";

/// Reads one clue sum of a clue square.
fn sum(t: &str, tok: &str, dir: &str, loc: &Location) -> Result<Option<u32>, InputError> {
    let t = t.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(InputError::new(
            loc.clone(),
            format!(
                "unknown kakuro square '{tok}': its {dir} sum '{t}' is not a number; {SQUARES}"
            ),
        ));
    }
    match t.parse::<u32>() {
        Ok(v) if (1..=45).contains(&v) => Ok(Some(v)),
        _ => Err(InputError::new(
            loc.clone(),
            format!(
                "the {dir} sum {t} in '{tok}' is out of range: a run of digits 1–9 sums to 1..45"
            ),
        )),
    }
}

/// Reads one square.
fn square(tok: &str, loc: &Location) -> Result<KakuroCell, InputError> {
    match tok {
        "_" => Ok(KakuroCell::White),
        "x" | "X" => Ok(KakuroCell::Block),
        "" => Err(InputError::new(
            loc.clone(),
            format!("empty kakuro square: {SQUARES}"),
        )),
        _ => {
            let Some((d, a)) = tok.split_once('|') else {
                return Err(InputError::new(
                    loc.clone(),
                    format!("unknown kakuro square '{tok}': {SQUARES}"),
                ));
            };
            if a.contains('|') {
                return Err(InputError::new(
                    loc.clone(),
                    format!("unknown kakuro square '{tok}': {SQUARES}"),
                ));
            }
            let down = sum(d, tok, "down", loc)?;
            let across = sum(a, tok, "across", loc)?;
            if down.is_none() && across.is_none() {
                Ok(KakuroCell::Block)
            } else {
                Ok(KakuroCell::Clue { down, across })
            }
        }
    }
}

/// Parses and checks a kakuro grid.
pub(crate) fn parse_layout(
    text: &str,
    origin: &TextOrigin,
    what: &str,
) -> Result<Layout, InputError> {
    let mut cells = Vec::new();
    let mut locs = Vec::new();
    let mut row_locs = Vec::new();
    for (li, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut row = Vec::new();
        let mut row_loc = Vec::new();
        let mut ch = 0;
        for part in line.split(',') {
            let lead = part.chars().take_while(|c| c.is_whitespace()).count();
            let tok = part.trim();
            let loc = origin.at(li, ch + lead);
            row.push(square(tok, &loc)?);
            row_loc.push(loc);
            ch += part.chars().count() + 1;
        }
        row_locs.push(origin.at(li, line.chars().take_while(|c| c.is_whitespace()).count()));
        cells.push(row);
        locs.push(row_loc);
    }
    let Some(width) = cells.first().map(Vec::len) else {
        return Err(InputError::new(
            origin.start.clone(),
            format!("{what} is empty: write one row of comma-separated squares per line"),
        ));
    };
    for (i, row) in cells.iter().enumerate() {
        if row.len() != width {
            return Err(InputError::new(
                row_locs[i].clone(),
                format!(
                    "row {} of {what} has {} squares, but the grid is {width} wide (row 1 has {width})",
                    i + 1,
                    row.len()
                ),
            ));
        }
    }
    check_max(cells.len(), width, &origin.start)?;
    let layout = Layout { cells, locs };
    check_runs(&layout)?;
    Ok(layout)
}

/// Checks every run: each white cell is in an across run and a down run
/// that have a clue, every clue has a run, runs hold at most 9 cells and
/// clue sums are reachable by that many different digits.
fn check_runs(l: &Layout) -> Result<(), InputError> {
    let g = &l.cells;
    let white = |r: usize, c: usize| g.get(r).and_then(|x| x.get(c)) == Some(&KakuroCell::White);
    let loc = |r: usize, c: usize| {
        l.locs
            .get(r)
            .and_then(|x| x.get(c))
            .cloned()
            .unwrap_or_default()
    };
    let mut any_white = false;
    for (r, line) in g.iter().enumerate() {
        for (c, sq) in line.iter().enumerate() {
            match *sq {
                KakuroCell::White => {
                    any_white = true;
                    // The square before the run, in each direction.
                    let c0 = (0..c).rev().find(|&cc| !white(r, cc));
                    let r0 = (0..r).rev().find(|&rr| !white(rr, c));
                    let across = c0.and_then(|cc| match g[r][cc] {
                        KakuroCell::Clue { across, .. } => across,
                        _ => None,
                    });
                    if across.is_none() {
                        let before = c0.map_or("the edge of the grid".to_string(), |cc| rc(r, cc));
                        return Err(InputError::new(
                            loc(r, c),
                            format!(
                                "white cell {} is in an across run with no clue: the square before \
                                 the run ({before}) must give an across sum, as in |14",
                                rc(r, c)
                            ),
                        ));
                    }
                    let down = r0.and_then(|rr| match g[rr][c] {
                        KakuroCell::Clue { down, .. } => down,
                        _ => None,
                    });
                    if down.is_none() {
                        let before = r0.map_or("the edge of the grid".to_string(), |rr| rc(rr, c));
                        return Err(InputError::new(
                            loc(r, c),
                            format!(
                                "white cell {} is in a down run with no clue: the square above \
                                 the run ({before}) must give a down sum, as in 38|",
                                rc(r, c)
                            ),
                        ));
                    }
                }
                KakuroCell::Clue { down, across } => {
                    let runs = [
                        (
                            "across",
                            across,
                            (c + 1..).take_while(|&cc| white(r, cc)).count(),
                        ),
                        (
                            "down",
                            down,
                            (r + 1..).take_while(|&rr| white(rr, c)).count(),
                        ),
                    ];
                    for (dir, s, len) in runs {
                        let Some(s) = s else { continue };
                        let k = len as u32;
                        if len == 0 {
                            let (a, where_) = if dir == "across" {
                                ("an", "to its right")
                            } else {
                                ("a", "below it")
                            };
                            return Err(InputError::new(
                                loc(r, c),
                                format!(
                                    "clue square {} gives {a} {dir} sum of {s}, but no white cell is \
                                     {where_}",
                                    rc(r, c)
                                ),
                            ));
                        }
                        if len > 9 {
                            return Err(InputError::new(
                                loc(r, c),
                                format!(
                                    "the {dir} run at {} has {len} cells; a run holds at most 9 \
                                     (its digits 1–9 are all different)",
                                    rc(r, c)
                                ),
                            ));
                        }
                        let (lo, hi) = (k * (k + 1) / 2, k * (19 - k) / 2);
                        if s < lo || s > hi {
                            return Err(InputError::new(
                                loc(r, c),
                                format!(
                                    "the {dir} run at {} has {len} cells, so its sum must be \
                                     between {lo} and {hi}, not {s}",
                                    rc(r, c)
                                ),
                            ));
                        }
                    }
                }
                KakuroCell::Block => {}
            }
        }
    }
    if !any_white {
        return Err(InputError::new(
            loc(0, 0),
            "the kakuro grid has no white cells (_): there is nothing to fill",
        ));
    }
    Ok(())
}

/// Reads a kakuro solution: grid text with one token per square, a digit
/// 1–9 in every white cell and `.` (or `x`, `_`, `0`) in every other
/// square.
pub(crate) fn solution(
    rows: &[Row],
    layout: &[Vec<KakuroCell>],
    origin: &TextOrigin,
) -> Result<Grid, InputError> {
    let (h, w) = (layout.len(), layout.first().map_or(0, Vec::len));
    if rows.len() != h {
        return Err(InputError::new(
            origin.start.clone(),
            format!(
                "the solution has {} rows, but the kakuro grid has {h}",
                rows.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(h);
    for (r, row) in rows.iter().enumerate() {
        if row.cells.len() != w {
            return Err(InputError::new(
                row.loc.clone(),
                format!(
                    "row {} of the solution has {} squares, but the kakuro grid is {w} wide",
                    r + 1,
                    row.cells.len()
                ),
            ));
        }
        let mut line = Vec::with_capacity(w);
        for (c, tok) in row.cells.iter().enumerate() {
            let t = tok.text.as_str();
            let is_white = layout[r][c] == KakuroCell::White;
            let blank = matches!(t, "." | "_" | "0" | "x" | "X");
            if is_white {
                match t.parse::<u32>() {
                    Ok(v) if (1..=9).contains(&v) && t.len() == 1 => line.push(Some(v)),
                    _ => {
                        return Err(InputError::new(
                            tok.loc.clone(),
                            format!(
                                "the solution has '{t}' in white cell {}: write a digit from 1 to 9",
                                rc(r, c)
                            ),
                        ));
                    }
                }
            } else if blank {
                line.push(None);
            } else {
                return Err(InputError::new(
                    tok.loc.clone(),
                    format!(
                        "the solution has '{t}' at {}, which is not a white cell: write . there",
                        rc(r, c)
                    ),
                ));
            }
        }
        out.push(line);
    }
    Ok(out)
}

/// Parses a bare kakuro file (or the `grid` of a TOML kakuro).
pub(crate) fn bare(text: &str, file: &Location) -> Result<Layout, InputError> {
    parse_layout(text, &TextOrigin::whole_file(file), "the kakuro grid")
}
