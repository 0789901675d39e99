//! Game IDs of Simon Tatham's Portable Puzzle Collection, one per line:
//! `keen:5:…` (`GAME:PARAMS:DESCRIPTION`) or the address of the web
//! version with the ID after `#` (`https://…/keen.html#5:…`). Blank lines
//! and lines starting with `#` are skipped; each puzzle is named
//! `FILE:LINE`.
//!
//! The descriptions are decoded from the formats Tatham documents in his
//! sources: a block structure is the run-length code of the internal
//! edges, clue lists follow the blocks in the reading order of their first
//! cells, and grids are runs of letters (blanks) and numbers (values).
//! Every error names the part of the ID that is wrong (params, block
//! structure, clue N, …) and points at its column.

use std::collections::BTreeMap;

use crate::elements::{
    boxes::Boxes, cages::Cages, diagonals::Diagonals, regions::Regions, signs::Signs,
};
use crate::error::rc;
use crate::error::{InputError, Location};
use crate::puzzle::{Cage, EdgeClues, Inequality, Kind, MAX_SIZE, Puzzle};

use crate::elements::cages::label;
use crate::elements::cages::syntax::{self as cages, ClueText, Labels};
use crate::elements::givens::{Values, check_repeats, check_units, diagonal_units, numbered};

/// The games smtgrid reads.
const GAMES: [&str; 4] = ["keen", "solo", "unequal", "towers"];

/// How messages list the games.
const GAMES_TEXT: &str = "keen (calcudoku), solo (sudoku, killer, jigsaw), unequal (futoshiki) \
     or towers (skyscrapers)";

/// Whether `line` looks like a game ID line (for guessing the format).
pub(crate) fn looks_like(line: &str) -> bool {
    let l = line.trim();
    l.contains(".html#")
        || GAMES
            .iter()
            .any(|g| l.strip_prefix(g).is_some_and(|r| r.starts_with(':')))
}

/// Parses every game ID of a file.
pub(crate) fn parse(
    text: &str,
    file: &Location,
    name_file: &str,
) -> Result<Vec<Puzzle>, InputError> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let body = line.trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let mut p = one(line, file, i + 1)?;
        p.name = format!("{name_file}:{}", i + 1);
        p.id.clone_from(&p.name);
        out.push(p);
    }
    if out.is_empty() {
        return Err(InputError::new(
            file.clone(),
            "the file has no game IDs: write one per line, as GAME:PARAMS:DESCRIPTION \
             (e.g. keen:4:…) or as the web version's address (…/keen.html#4:…)",
        ));
    }
    Ok(out)
}

/// One line of the file, for locating errors in it.
struct Line<'a> {
    /// The whole line.
    text: &'a str,
    file: &'a Location,
    ln: usize,
    /// The game, for messages.
    game: &'a str,
}

impl Line<'_> {
    /// The file location of byte `at` of the line.
    fn loc(&self, at: usize) -> Location {
        let at = (0..=at.min(self.text.len()))
            .rev()
            .find(|&i| self.text.is_char_boundary(i))
            .unwrap_or(0);
        self.file.at(self.ln, self.text[..at].chars().count() + 1)
    }

    /// An error about `part` of the ID, at byte `at` of the line.
    fn err(&self, at: usize, part: &str, msg: impl AsRef<str>) -> InputError {
        InputError::new(
            self.loc(at),
            format!("{} ID, {part}: {}", self.game, msg.as_ref()),
        )
    }

    /// The byte at `i`, or 0 past the end.
    fn byte(&self, i: usize) -> u8 {
        self.text.as_bytes().get(i).copied().unwrap_or(0)
    }

    /// The digits starting at `i`: their value (None if too large) and
    /// where they end.
    fn number(&self, i: usize) -> (Option<u64>, usize) {
        let end = i + self.text[i..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        (self.text[i..end].parse().ok(), end)
    }

    /// Expects the `,` that starts `part` at `at`, and returns the offset
    /// after it.
    fn comma(&self, at: usize, part: &str) -> Result<usize, InputError> {
        if self.byte(at) == b',' {
            Ok(at + 1)
        } else if at >= self.text.trim_end().len() {
            Err(self.err(at, part, "missing: the description ends before it"))
        } else {
            Err(self.err(
                at,
                part,
                format!("expected ',' before it, found '{}'", self.char_at(at)),
            ))
        }
    }

    fn char_at(&self, at: usize) -> char {
        self.text
            .get(at..)
            .and_then(|s| s.chars().next())
            .unwrap_or(' ')
    }

    /// Checks that nothing but white space follows `at`.
    fn end(&self, at: usize) -> Result<(), InputError> {
        if self.text[at..].trim().is_empty() {
            Ok(())
        } else {
            Err(self.err(at, "description", "unexpected data after its last part"))
        }
    }
}

/// Parses one line.
fn one(text: &str, file: &Location, ln: usize) -> Result<Puzzle, InputError> {
    let lead = text.len() - text.trim_start().len();
    let end = text.trim_end().len();
    let mut l = Line {
        text,
        file,
        ln,
        game: "game",
    };
    // The game, and where its PARAMS:DESCRIPTION starts.
    let (game, id_at) = match text[lead..end].find('#') {
        Some(h) if text[lead..end].contains(".html#") => {
            let path = &text[lead..lead + h];
            let page = path.rsplit('/').next().unwrap_or(path);
            let game = page.strip_suffix(".html").unwrap_or(page);
            (game, lead + h + 1)
        }
        _ => match text[lead..end].find(':') {
            Some(c) => (&text[lead..lead + c], lead + c + 1),
            None => {
                return Err(l.err(
                    lead,
                    "line",
                    "not a game ID: write GAME:PARAMS:DESCRIPTION (e.g. keen:4:…) or the web \
                     version's address (…/keen.html#4:…)",
                ));
            }
        },
    };
    if !GAMES.contains(&game) {
        return Err(l.err(
            lead,
            "game",
            format!("'{game}' is not a game smtgrid reads: it reads {GAMES_TEXT}"),
        ));
    }
    l.game = game;
    let id = &text[id_at..end];
    let Some(colon) = id.find(':') else {
        let msg = if id.contains('#') {
            "this is a random seed (PARAMS#SEED), which only Tatham's generator can expand: \
             use the game ID instead (Game > Specific in the game's menu)"
        } else {
            "there is no ':' between the params and the description"
        };
        return Err(l.err(id_at, "params", msg));
    };
    let desc_at = id_at + colon + 1;
    match game {
        "keen" => keen(&l, id_at, desc_at),
        "unequal" => unequal(&l, id_at, desc_at),
        "towers" => towers(&l, id_at, desc_at),
        _ => solo(&l, id_at, desc_at),
    }
}

/// A grid side from the params: 1 to [`MAX_SIZE`].
fn side(l: &Line, at: usize, what: &str) -> Result<(usize, usize), InputError> {
    let (n, after) = l.number(at);
    match n {
        _ if after == at => Err(l.err(at, "params", format!("expected {what}, a number"))),
        Some(n) if (1..=MAX_SIZE as u64).contains(&n) => Ok((n as usize, after)),
        _ => Err(l.err(at, "params", format!("{what} must be from 1 to {MAX_SIZE}"))),
    }
}

/// Skips a difficulty (`d` and one letter) at `at`, if there is one.
fn difficulty(l: &Line, at: usize) -> usize {
    if l.byte(at) == b'd' && l.byte(at + 1).is_ascii_alphabetic() {
        at + 2
    } else {
        at
    }
}

/// The cells of a w×w grid on either side of internal edge `e`: first the
/// w·(w−1) vertical edges in reading order, then the horizontal ones in
/// transposed reading order.
fn edge_cells(e: usize, w: usize) -> (usize, usize) {
    if e < w * (w - 1) {
        let (y, x) = (e / (w - 1), e % (w - 1));
        (y * w + x, y * w + x + 1)
    } else {
        let (x, y) = (e / (w - 1) - w, e % (w - 1));
        (y * w + x, (y + 1) * w + x)
    }
}

/// The root of `i` in a union-find forest.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Decodes a block structure starting at `*at` (up to the next `,`) for a
/// w×w grid, and moves `*at` past it. Each letter is a run of cells joined
/// across internal edges (`a` = 1 … `y` = 25) followed by a dividing edge
/// (`_` is a dividing edge alone); `z` is 25 joins with no edge after them
/// (as Tatham's encoder writes it). With `repeats` (keen), a letter may be
/// followed by a count of how many times it repeats. Returns each cell's
/// block, numbered in the reading order of the blocks' first cells.
fn blocks(
    l: &Line,
    at: &mut usize,
    w: usize,
    part: &str,
    repeats: bool,
) -> Result<Vec<usize>, InputError> {
    let edges = 2 * w * (w - 1);
    let mut parent: Vec<usize> = (0..w * w).collect();
    let mut e = 0;
    let mut i = *at;
    let too_much = |i| {
        l.err(
            i,
            part,
            format!("too much data: a {w}×{w} grid has {edges} internal edges"),
        )
    };
    while i < l.text.len() && l.byte(i) != b',' {
        let ch = l.byte(i);
        let (joined, edge) = match ch {
            b'_' => (0, true),
            b'z' => (25, false),
            b'a'..=b'y' => (usize::from(ch - b'a' + 1), true),
            _ => {
                return Err(l.err(
                    i,
                    part,
                    format!(
                        "'{}' is not a run of edges: write _ or a to z",
                        l.char_at(i)
                    ),
                ));
            }
        };
        let letter_at = i;
        i += 1;
        let mut times = 1;
        if repeats && l.byte(i).is_ascii_digit() {
            let (n, after) = l.number(i);
            match n {
                Some(n) if n >= 1 && n <= (edges + 1) as u64 => times = n as usize,
                Some(0) => return Err(l.err(i, part, "a repeat count must be at least 1")),
                _ => return Err(too_much(i)),
            }
            i = after;
        }
        for _ in 0..times {
            for _ in 0..joined {
                if e >= edges {
                    return Err(too_much(letter_at));
                }
                let (p0, p1) = edge_cells(e, w);
                let (r0, r1) = (root(&mut parent, p0), root(&mut parent, p1));
                parent[r0.max(r1)] = r0.min(r1);
                e += 1;
            }
            if edge {
                e += 1;
                if e > edges + 1 {
                    return Err(too_much(letter_at));
                }
            }
        }
    }
    if e != edges + 1 {
        return Err(l.err(
            i,
            part,
            format!(
                "not enough data: it ends after {e} of its {} edges (the {edges} internal edges \
                 of a {w}×{w} grid, then a final one)",
                edges + 1
            ),
        ));
    }
    *at = i;
    let mut number = BTreeMap::new();
    let mut out = Vec::with_capacity(w * w);
    for cell in 0..w * w {
        let r = root(&mut parent, cell);
        let next = number.len();
        out.push(*number.entry(r).or_insert(next));
    }
    Ok(out)
}

/// Decodes a grid of `area` cells starting at `*at` (up to the next `,`)
/// and moves `*at` past it: a letter is a run of blanks (`a` = 1 …
/// `z` = 26), a number a value from 1 to `max`, `_` separates two
/// numbers. Returns the values and the byte offset each cell was read at.
fn values_grid(
    l: &Line,
    at: &mut usize,
    area: usize,
    max: u64,
    part: &str,
) -> Result<(Vec<Option<u64>>, Vec<usize>), InputError> {
    let mut vals = Vec::with_capacity(area);
    let mut offs = Vec::with_capacity(area);
    let mut i = *at;
    let too_much = |i| l.err(i, part, format!("too much data: the grid has {area} cells"));
    while i < l.text.len() && l.byte(i) != b',' {
        let ch = l.byte(i);
        match ch {
            b'a'..=b'z' => {
                let run = usize::from(ch - b'a' + 1);
                if vals.len() + run > area {
                    return Err(too_much(i));
                }
                vals.extend(std::iter::repeat_n(None, run));
                offs.extend(std::iter::repeat_n(i, run));
                i += 1;
            }
            b'_' => i += 1,
            b'1'..=b'9' => {
                let (n, after) = l.number(i);
                match n {
                    Some(v) if v <= max => {
                        if vals.len() >= area {
                            return Err(too_much(i));
                        }
                        vals.push(Some(v));
                        offs.push(i);
                    }
                    _ => {
                        return Err(l.err(
                            i,
                            part,
                            format!(
                                "{} is out of range: values go from 1 to {max}",
                                &l.text[i..after]
                            ),
                        ));
                    }
                }
                i = after;
            }
            _ => {
                return Err(l.err(
                    i,
                    part,
                    format!(
                        "'{}' does not belong in a grid: write a to z for runs of blanks and numbers for values",
                        l.char_at(i)
                    ),
                ));
            }
        }
    }
    if vals.len() < area {
        return Err(l.err(
            i,
            part,
            format!(
                "not enough data: it fills {} of the grid's {area} cells",
                vals.len()
            ),
        ));
    }
    *at = i;
    Ok((vals, offs))
}

/// The label grid of a block structure: block k is `label(k)`; every
/// cell is located at the structure's start, `blocks_at`.
fn block_labels(l: &Line, w: usize, block_of: &[usize], blocks_at: usize) -> Labels {
    Labels {
        grid: (0..w)
            .map(|r| (0..w).map(|c| Some(label(block_of[r * w + c]))).collect())
            .collect(),
        locs: vec![vec![l.loc(blocks_at); w]; w],
    }
}

/// Builds cages from each cell's block and each block's clue (text and
/// byte offset), with the checks every cage gets.
fn make_cages(
    l: &Line,
    w: usize,
    block_of: &[usize],
    blocks_at: usize,
    clues: &[(String, usize)],
) -> Result<Vec<Cage>, InputError> {
    let at = |off| l.loc(off);
    let labels = block_labels(l, w, block_of, blocks_at);
    let clues: BTreeMap<String, ClueText> = clues
        .iter()
        .enumerate()
        .map(|(k, (text, off))| {
            (
                label(k),
                ClueText {
                    text: text.clone(),
                    loc: at(*off),
                },
            )
        })
        .collect();
    cages::build(&labels, &clues, None, w, &at(blocks_at))
}

/// keen → calcudoku. Params `W[dX][m]` (size, difficulty, multiplication
/// only); description: block structure, `,`, then one clue per block
/// (`aN` sum, `mN` product, `sN` difference, `dN` ratio).
fn keen(l: &Line, id_at: usize, desc_at: usize) -> Result<Puzzle, InputError> {
    let (w, mut i) = side(l, id_at, "the grid size")?;
    i = difficulty(l, i);
    if l.byte(i) == b'm' {
        i += 1;
    }
    if i != desc_at - 1 {
        return Err(l.err(
            i,
            "params",
            format!(
                "unexpected '{}': keen params are SIZE, then dLETTER (difficulty), then m \
                 (multiplication only), as in 6dhm",
                l.char_at(i)
            ),
        ));
    }
    let mut at = desc_at;
    let block_of = blocks(l, &mut at, w, "block structure", true)?;
    let n_blocks = block_of.iter().max().map_or(0, |m| m + 1);
    let mut size = vec![0usize; n_blocks];
    for &b in &block_of {
        size[b] += 1;
    }
    at = l.comma(at, "the clues")?;
    let mut clues = Vec::with_capacity(n_blocks);
    for (k, &cells) in size.iter().enumerate() {
        let part = format!("clue {}", k + 1);
        let first = block_of.iter().position(|&b| b == k).unwrap_or(0);
        let op = l.byte(at);
        let sign = match op {
            b'a' => '+',
            b'm' => '*',
            b's' => '-',
            b'd' => '/',
            _ if at >= l.text.trim_end().len() => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "missing: the block structure has {n_blocks} blocks, but there are only {k} clues"
                    ),
                ));
            }
            _ => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "'{}' is not a clue: write a (sum), m (product), s (difference) or d (ratio) and a number",
                        l.char_at(at)
                    ),
                ));
            }
        };
        if matches!(op, b's' | b'd') && cells != 2 {
            return Err(l.err(
                at,
                &part,
                format!(
                    "a difference or ratio clue needs a block of 2 cells, but the block at {} has {cells}",
                    rc(first / w, first % w)
                ),
            ));
        }
        let (n, after) = l.number(at + 1);
        match n {
            Some(v) if v >= 1 && v <= i64::MAX as u64 => clues.push((format!("{v}{sign}"), at)),
            _ => {
                return Err(l.err(
                    at + 1,
                    &part,
                    "expected a number from 1 up after the operation letter",
                ));
            }
        }
        at = after;
    }
    if at < l.text.trim_end().len() {
        return Err(l.err(
            at,
            "clues",
            format!("too many: the block structure has {n_blocks} blocks, one clue each"),
        ));
    }
    let mut p = Puzzle::blank("", Kind::Calcudoku, w);
    p.title = Some(format!("keen {}", &l.text[id_at..desc_at - 1]));
    p.set(Cages {
        cages: make_cages(l, w, &block_of, desc_at, &clues)?,
        distinct: false,
    });
    Ok(p)
}

/// The params of a solo ID.
struct SoloParams {
    /// Box height (Tatham's c) and width (r); r = 1 is a jigsaw of side c.
    c: usize,
    r: usize,
    killer: bool,
    diagonals: bool,
}

/// Reads solo params: `C[xR]` then flags in any order: `j` jigsaw, `x`
/// diagonals, `k` killer, a symmetry (`r2`, `m4`, `md2`, `a`, …) and a
/// difficulty (`dX`).
fn solo_params(l: &Line, id_at: usize, desc_at: usize) -> Result<SoloParams, InputError> {
    let (mut c, mut i) = side(l, id_at, "the box size")?;
    let mut r = c;
    let mut seen_r = false;
    if l.byte(i) == b'x' {
        (r, i) = side(l, i + 1, "the box's second side after 'x'")?;
        seen_r = true;
    }
    let mut killer = false;
    let mut diagonals = false;
    while i < desc_at - 1 {
        let at = i;
        match l.byte(i) {
            b'k' => {
                killer = true;
                i += 1;
            }
            b'j' => {
                if seen_r {
                    c *= r;
                }
                r = 1;
                i += 1;
            }
            b'x' => {
                diagonals = true;
                i += 1;
            }
            b'r' | b'm' | b'a' => {
                i += 1;
                if l.byte(i) == b'd' {
                    i += 1;
                }
                i = l.number(i).1;
            }
            b'd' if l.byte(i + 1).is_ascii_alphabetic() => i += 2,
            _ => {
                return Err(l.err(
                    at,
                    "params",
                    format!(
                        "unexpected '{}': solo params are CxR (box size) or Nj (jigsaw), then \
                         x, k, a symmetry and dLETTER (difficulty), as in 3x3kdu",
                        l.char_at(at)
                    ),
                ));
            }
        }
    }
    if r == 1 && killer {
        return Err(l.err(
            id_at,
            "params",
            "killer jigsaw (j with k) is not supported: smtgrid's jigsaw has no cages",
        ));
    }
    if c * r > MAX_SIZE {
        return Err(l.err(
            id_at,
            "params",
            format!(
                "the grid would be {0}×{0}, larger than the supported maximum of {MAX_SIZE}×{MAX_SIZE}",
                c * r
            ),
        ));
    }
    Ok(SoloParams {
        c,
        r,
        killer,
        diagonals,
    })
}

/// solo → sudoku or killer. Description: the givens grid, then for a
/// killer `,` cage block structure `,` grid of cage sums (each cage's sum
/// in one of its cells).
fn solo(l: &Line, id_at: usize, desc_at: usize) -> Result<Puzzle, InputError> {
    let SoloParams {
        c,
        r,
        killer,
        diagonals,
    } = solo_params(l, id_at, desc_at)?;
    let n = c * r;
    let area = n * n;
    let mut at = desc_at;
    let (vals, offs) = values_grid(l, &mut at, area, n as u64, "givens")?;
    let vals: Vec<Option<u32>> = vals.iter().map(|v| v.map(|v| v as u32)).collect();
    let givens = to_values(l, &vals, &offs, n);
    // Tatham's solo has a jigsaw exactly when a box is one row high.
    let jigsaw = r == 1;
    let mut units = Vec::new();
    let mut regions = Vec::new();
    if jigsaw {
        at = l.comma(at, "jigsaw regions")?;
        let regions_at = at;
        let block_of = blocks(l, &mut at, n, "jigsaw regions", false)?;
        regions =
            crate::elements::regions::syntax::build(&block_labels(l, n, &block_of, regions_at), n)
                .map_err(|e| part_err(e, "solo", "jigsaw regions"))?;
        units.extend(numbered("region", &regions));
    }
    let boxes = (!jigsaw).then_some((c, r));
    if diagonals {
        units.extend(diagonal_units(n));
    }
    check_repeats(&givens, boxes)
        .and_then(|()| check_units(&givens, units))
        .map_err(|e| part_err(e, "solo", "givens"))?;
    let mut cages = Vec::new();
    if killer {
        at = l.comma(at, "killer cages")?;
        let cages_at = at;
        let block_of = blocks(l, &mut at, n, "killer cages", false)?;
        at = l.comma(at, "killer sums")?;
        let (sums, sum_offs) = values_grid(l, &mut at, area, (n * area) as u64, "killer sums")?;
        let n_blocks = block_of.iter().max().map_or(0, |m| m + 1);
        let mut clues: Vec<Option<(String, usize)>> = vec![None; n_blocks];
        let mut size = vec![0usize; n_blocks];
        for (cell, &b) in block_of.iter().enumerate() {
            size[b] += 1;
            if size[b] > n {
                return Err(l.err(
                    cages_at,
                    "killer cages",
                    format!(
                        "the cage at {} has more than {n} cells, but its digits must all differ",
                        rc(cell / n, cell % n)
                    ),
                ));
            }
            if let Some(s) = sums[cell] {
                if clues[b].is_some() {
                    return Err(l.err(
                        sum_offs[cell],
                        "killer sums",
                        format!(
                            "a second sum for the cage of {}: each cage has its sum in one cell",
                            rc(cell / n, cell % n)
                        ),
                    ));
                }
                clues[b] = Some((s.to_string(), sum_offs[cell]));
            }
        }
        let clues = clues
            .into_iter()
            .enumerate()
            .map(|(k, clue)| {
                clue.ok_or_else(|| {
                    let first = block_of.iter().position(|&b| b == k).unwrap_or(0);
                    l.err(
                        at,
                        "killer sums",
                        format!(
                            "the cage at {} has no sum: write it in one of its cells",
                            rc(first / n, first % n)
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        cages = make_cages(l, n, &block_of, cages_at, &clues)?;
    }
    l.end(at)?;
    let kind = match (jigsaw, killer) {
        (true, _) => Kind::Jigsaw,
        (false, true) => Kind::Killer,
        (false, false) => Kind::Sudoku,
    };
    let mut p = Puzzle::blank("", kind, n);
    p.title = Some(format!("solo {}", &l.text[id_at..desc_at - 1]));
    if let Some((rows, cols)) = boxes.filter(|_| crate::kinds::has_boxes(kind)) {
        p.set(Boxes { rows, cols });
    }
    p.givens = givens.grid;
    if !cages.is_empty() {
        p.set(Cages {
            cages,
            distinct: kind == Kind::Killer,
        });
    }
    if !regions.is_empty() {
        p.set(Regions(regions));
    }
    if diagonals {
        p.set(Diagonals);
    }
    Ok(p)
}

/// Checks that params are only a size and a difficulty (`5dh`) and
/// returns the size.
fn size_params(l: &Line, id_at: usize, desc_at: usize) -> Result<usize, InputError> {
    let (w, i) = side(l, id_at, "the grid size")?;
    let i = difficulty(l, i);
    if i != desc_at - 1 {
        return Err(l.err(
            i,
            "params",
            format!(
                "unexpected '{}': {} params are SIZE then dLETTER (difficulty), as in 5dh",
                l.char_at(i),
                l.game
            ),
        ));
    }
    Ok(w)
}

/// unequal → futoshiki. Params `N[a][dX]` (`a`, the adjacent mode, is not
/// supported). Description: one cell per `,` in reading order, each a
/// number (0 for a blank) and flags `U`, `R`, `D`, `L` saying the cell is
/// greater than its neighbour above, right, below or left; a letter before
/// a cell skips that many blank cells (`a` = 1).
fn unequal(l: &Line, id_at: usize, desc_at: usize) -> Result<Puzzle, InputError> {
    let (n, i) = side(l, id_at, "the grid size")?;
    if l.byte(i) == b'a' {
        return Err(l.err(
            i,
            "params",
            "unequal's adjacent mode (a) is not supported: smtgrid's futoshiki has only < and >",
        ));
    }
    let i = difficulty(l, i);
    if i != desc_at - 1 {
        return Err(l.err(
            i,
            "params",
            format!(
                "unexpected '{}': unequal params are SIZE then dLETTER (difficulty), as in 5dk",
                l.char_at(i)
            ),
        ));
    }
    let area = n * n;
    let mut vals: Vec<Option<u32>> = vec![None; area];
    let mut offs = vec![desc_at; area];
    // (greater cell, less cell, offset of the flag)
    type Flag = ((usize, usize), (usize, usize), usize);
    let mut flags: Vec<Flag> = Vec::new();
    let mut cell = 0;
    let mut at = desc_at;
    let end = l.text.trim_end().len();
    while at < end {
        while l.byte(at).is_ascii_lowercase() {
            cell += usize::from(l.byte(at) - b'a' + 1);
            at += 1;
        }
        let part = format!("cell {}", cell + 1);
        if cell >= area {
            return Err(l.err(
                at,
                "description",
                format!("too much data: the grid has {area} cells"),
            ));
        }
        let (v, after) = l.number(at);
        match v {
            _ if after == at => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "expected a number (0 for a blank), found '{}'",
                        l.char_at(at)
                    ),
                ));
            }
            Some(v) if v <= n as u64 => {
                vals[cell] = (v > 0).then_some(v as u32);
                offs[cell] = at;
            }
            _ => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "{} is out of range: values go from 1 to {n}, 0 is a blank",
                        &l.text[at..after]
                    ),
                ));
            }
        }
        at = after;
        let (r, c) = (cell / n, cell % n);
        while let f @ (b'U' | b'R' | b'D' | b'L') = l.byte(at) {
            let other = match f {
                b'U' => r.checked_sub(1).map(|r| (r, c)),
                b'D' => (r + 1 < n).then_some((r + 1, c)),
                b'L' => c.checked_sub(1).map(|c| (r, c)),
                _ => (c + 1 < n).then_some((r, c + 1)),
            };
            let Some(other) = other else {
                return Err(l.err(
                    at,
                    &part,
                    format!("flag {} points off the grid", char::from(f)),
                ));
            };
            flags.push(((r, c), other, at));
            at += 1;
        }
        cell += 1;
        match l.byte(at) {
            b',' => at += 1,
            _ if at >= end => {}
            _ => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "expected U, R, D, L or ',' after the number, found '{}'",
                        l.char_at(at)
                    ),
                ));
            }
        }
    }
    if cell < area {
        return Err(l.err(
            at,
            "description",
            format!("not enough data: it fills {cell} of the grid's {area} cells"),
        ));
    }
    for &(g, s, off) in &flags {
        if flags.iter().any(|&(g2, s2, _)| g2 == s && s2 == g) {
            return Err(l.err(
                off,
                "description",
                format!(
                    "{} and {} are each said to be greater than the other",
                    rc(g.0, g.1),
                    rc(s.0, s.1)
                ),
            ));
        }
        if let (Some(a), Some(b)) = (vals[g.0 * n + g.1], vals[s.0 * n + s.1])
            && a <= b
        {
            return Err(l.err(
                off,
                "description",
                format!(
                    "this flag says {} > {}, but the givens there are {a} and {b}",
                    rc(g.0, g.1),
                    rc(s.0, s.1)
                ),
            ));
        }
    }
    let givens = to_values(l, &vals, &offs, n);
    check_repeats(&givens, None).map_err(|e| part_err(e, "unequal", "givens"))?;
    // The order the native grid lists signs in: each row's signs between
    // its cells, then those between it and the row below.
    let mut ineq: Vec<Inequality> = flags
        .iter()
        .map(|&(greater, less, _)| Inequality { less, greater })
        .collect();
    let key = |q: &Inequality| {
        let (a, b) = (q.less.min(q.greater), q.less.max(q.greater));
        (a.0, a.0 != b.0, a.1)
    };
    ineq.sort_by_key(key);
    ineq.dedup();
    let mut p = Puzzle::blank("", Kind::Futoshiki, n);
    p.title = Some(format!("unequal {}", &l.text[id_at..desc_at - 1]));
    p.givens = givens.grid;
    p.set(Signs(ineq));
    Ok(p)
}

/// towers → skyscrapers. Params `W[dX]`. Description: 4·W clues split by
/// `/` (empty for none): the top edge left to right, the bottom edge left
/// to right, the left edge top to bottom, the right edge top to bottom;
/// then optionally `,` and a grid of given heights.
fn towers(l: &Line, id_at: usize, desc_at: usize) -> Result<Puzzle, InputError> {
    let w = size_params(l, id_at, desc_at)?;
    let mut at = desc_at;
    let mut clues: Vec<Option<u32>> = Vec::with_capacity(4 * w);
    for k in 0..4 * w {
        let part = format!("clue {}", k + 1);
        if k > 0 {
            if l.byte(at) != b'/' {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "missing: a {w}×{w} grid has {} edge clues, split by /",
                        4 * w
                    ),
                ));
            }
            at += 1;
        }
        let (v, after) = l.number(at);
        match v {
            _ if after == at => clues.push(None),
            Some(v) if (1..=w as u64).contains(&v) => clues.push(Some(v as u32)),
            _ => {
                return Err(l.err(
                    at,
                    &part,
                    format!(
                        "{} is out of range: a clue is from 1 to {w}",
                        &l.text[at..after]
                    ),
                ));
            }
        }
        at = after;
    }
    if l.byte(at) == b'/' {
        return Err(l.err(
            at,
            "clues",
            format!("too many: a {w}×{w} grid has {} edge clues", 4 * w),
        ));
    }
    let mut p = Puzzle::blank("", Kind::Skyscrapers, w);
    p.title = Some(format!("towers {}", &l.text[id_at..desc_at - 1]));
    if l.byte(at) == b',' {
        at += 1;
        let (vals, offs) = values_grid(l, &mut at, w * w, w as u64, "givens")?;
        let vals: Vec<Option<u32>> = vals.iter().map(|v| v.map(|v| v as u32)).collect();
        let givens = to_values(l, &vals, &offs, w);
        check_repeats(&givens, None).map_err(|e| part_err(e, "towers", "givens"))?;
        p.givens = givens.grid;
    }
    l.end(at)?;
    let side = |k: usize| clues[k * w..(k + 1) * w].to_vec();
    p.set(EdgeClues {
        top: side(0),
        bottom: side(1),
        left: side(2),
        right: side(3),
    });
    Ok(p)
}

/// An n×n grid of values with each cell located at its byte offset.
fn to_values(l: &Line, vals: &[Option<u32>], offs: &[usize], n: usize) -> Values {
    Values {
        grid: vals.chunks(n).map(<[_]>::to_vec).collect(),
        locs: offs
            .chunks(n)
            .map(|row| row.iter().map(|&o| l.loc(o)).collect())
            .collect(),
    }
}

/// An error of a shared check, marked with the game and part of the ID.
fn part_err(e: InputError, game: &str, part: &str) -> InputError {
    InputError::new(e.location, format!("{game} ID, {part}: {}", e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_line(line: &str) -> Result<Puzzle, InputError> {
        one(line, &Location::file("t.sgt"), 1)
    }

    #[test]
    fn edges_follow_tatham_order() {
        // 3×3: 6 vertical edges in reading order, then 6 horizontal ones
        // column by column.
        assert_eq!(edge_cells(0, 3), (0, 1));
        assert_eq!(edge_cells(5, 3), (7, 8));
        assert_eq!(edge_cells(6, 3), (0, 3));
        assert_eq!(edge_cells(7, 3), (3, 6));
        assert_eq!(edge_cells(8, 3), (1, 4));
    }

    #[test]
    fn keen_decodes_blocks_and_clues() {
        let p = one_line("keen:4:ab__a3_a__a__a_,m2m24m12m2m8m12m3").expect("valid");
        assert_eq!(p.kind, Kind::Calcudoku);
        assert_eq!(p.rows, 4);
        assert_eq!(p.cages().len(), 7);
        let total: usize = p.cages().iter().map(|c| c.cells.len()).sum();
        assert_eq!(total, 16);
        assert_eq!(p.cages()[0].clue_text, "2*");
        assert_eq!(p.cages()[0].cells[0], (0, 0));
    }

    #[test]
    fn url_form_and_solo() {
        let a = one_line("https://example.org/puzzles/js/solo.html#2x3:6a4c1b4c1b3b5b6c2b1c3a2")
            .expect("valid");
        let b = one_line("solo:2x3:6a4c1b4c1b3b5b6c2b1c3a2").expect("valid");
        assert_eq!(a, b);
        assert_eq!(a.box_shape(), Some((2, 3)));
        assert_eq!(a.givens[0][0], Some(6));
    }

    #[test]
    fn errors_name_the_part_and_column() {
        let e = one_line("keen:4:ab__a3_a__a__a_,m2m24m12m2m8m12").expect_err("short");
        assert!(e.to_string().contains("clue 7: missing"), "{e}");
        let e = one_line("keen:4x:ab").expect_err("params");
        assert!(
            e.to_string().starts_with("t.sgt:1:7: keen ID, params"),
            "{e}"
        );
        let e = one_line("keen:4:ab__a3_a__a__a,m2").expect_err("blocks");
        assert!(e.to_string().contains("block structure: not enough"), "{e}");
        let e = one_line("solo:2x3:6a4c1b4c1b3b5b6c2b1c3a9").expect_err("range");
        assert!(
            e.to_string()
                .starts_with("t.sgt:1:32: solo ID, givens: 9 is out of range"),
            "{e}"
        );
        let e = one_line("solo:3#1234").expect_err("seed");
        assert!(e.to_string().contains("random seed"), "{e}");
        let e = one_line("mines:3:x").expect_err("game");
        assert!(e.to_string().contains("'mines' is not a game"), "{e}");
    }

    proptest::proptest! {
        /// Any line, however mangled, is read or refused: never a panic.
        #[test]
        fn never_panics(
            game in proptest::sample::select(vec!["keen:", "solo:", "unequal:", "towers:", "x.html#"]),
            params in "[0-9]{0,2}[xjkdamrUu]{0,3}[0-9]{0,2}",
            desc in "[a-z_0-9,/URDLé]{0,60}",
        ) {
            let _ = one_line(&format!("{game}{params}:{desc}"));
        }
    }
}
