//! Starter files for `smtgrid new NAME [--size N]`: the commented templates
//! of `templates/` (one per kind, and one per common variant constraint:
//! `thermo`, `kropki`, …), or a generated starter of a kind of another size.
//! Every template has exactly one solution (tests/it/starters.rs proves it
//! with a solver); the generated killer, calcudoku and kakuro starters are
//! built around a known filling, so they have at least one.

use crate::elements::boxes::{square_box, suggested_box};
use crate::puzzle::{Kind, MAX_SIZE};

/// A commented starter file that `smtgrid new NAME` prints.
#[derive(Debug, Clone, Copy)]
pub struct Starter {
    /// The name `smtgrid new` takes, also the template's file name.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

impl Starter {
    /// What the starter is, for `smtgrid new`'s list: its first comment
    /// line up to the colon ("A thermometer sudoku").
    pub fn about(&self) -> &'static str {
        let first = self.text.lines().next().unwrap_or_default();
        let first = first.trim_start_matches('#').trim();
        let first = first.split(':').next().unwrap_or(first);
        first.trim_end_matches(" for smtgrid")
    }
}

/// Declares [`STARTERS`]: each name is read from `templates/NAME.toml`.
macro_rules! starter_table {
    ($($name:literal),+ $(,)?) => {
        /// Every starter, in the order `smtgrid new` lists them: the kinds
        /// first, then the variants. Adding one is a template file and one
        /// line in this table.
        pub const STARTERS: &[Starter] = &[
            $(Starter { name: $name, text: include_str!(concat!("../templates/", $name, ".toml")) },)+
        ];
    };
}

starter_table![
    "sudoku",
    "killer",
    "calcudoku",
    "kakuro",
    "jigsaw",
    "futoshiki",
    "skyscrapers",
    "sudoku-x",
    "thermo",
    "slow-thermo",
    "arrow",
    "double-arrow",
    "kropki",
    "xv",
    "whispers",
    "renban",
    "palindrome",
    "between-line",
    "region-sum-line",
    "zipper-line",
    "entropic-line",
    "modular-line",
    "nabner",
    "lockout-line",
    "anti-knight",
    "anti-king",
    "odd-even",
    "min-max",
    "clone",
    "quadruple",
    "indexer",
    "killer-cage",
    "diagonal",
    "disjoint-groups",
    "extra-region",
    "greater-than",
    "little-killer",
    "sandwich",
    "x-sum",
    "skyscraper",
];

/// Every starter's name, for the command line's possible values.
pub fn names() -> impl Iterator<Item = &'static str> {
    STARTERS.iter().map(|s| s.name)
}

/// The starter file `name` names: its commented template when `size` is
/// `None`, else a generated starter of that size (kinds only). Fails,
/// saying why, for an unknown name, a size out of range, or a size asked
/// of a variant's starter.
pub fn template(name: &str, size: Option<usize>) -> Result<String, String> {
    let Some(n) = size else {
        return STARTERS
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.text.to_string())
            .ok_or_else(|| format!("no starter is called `{name}`: `smtgrid new` lists them"));
    };
    let Some(kind) = Kind::ALL.into_iter().find(|k| k.name() == name) else {
        return Err(format!(
            "--size makes a starter of a kind ({}), not of `{name}`: leave --size out for the {name} starter",
            Kind::ALL.map(Kind::name).join(", ")
        ));
    };
    let min = if kind == Kind::Kakuro { 3 } else { 1 };
    if !(min..=MAX_SIZE).contains(&n) {
        return Err(format!(
            "--size must be between {min} and {MAX_SIZE} for a {}, not {n}",
            kind.name()
        ));
    }
    Ok(match kind {
        Kind::Sudoku => sudoku(n),
        Kind::Killer => killer(n),
        Kind::Calcudoku => calcudoku(n),
        Kind::Kakuro => kakuro(n),
        Kind::Jigsaw => jigsaw(n),
        Kind::Futoshiki => futoshiki(n),
        Kind::Skyscrapers => skyscrapers(n),
    })
}

/// The box shape a generated n×n starter uses.
fn boxes(n: usize) -> (usize, usize) {
    square_box(n).unwrap_or_else(|| suggested_box(n))
}

/// Lays out tokens as grid text, right-aligned, with `|` between boxes
/// and a `---+---` line between bands of boxes.
fn grid_text(tokens: &[Vec<String>], bx: Option<(usize, usize)>) -> String {
    let w = tokens.iter().flatten().map(String::len).max().unwrap_or(1);
    let (br, bc) = bx.unwrap_or((usize::MAX, usize::MAX));
    let mut out = String::new();
    for (r, row) in tokens.iter().enumerate() {
        let mut line = String::new();
        for (c, t) in row.iter().enumerate() {
            if c > 0 {
                line.push(' ');
                if c % bc == 0 {
                    line.push_str("| ");
                }
            }
            line.push_str(&format!("{t:>w$}"));
        }
        if r > 0 && r % br == 0 {
            let sep: String = line
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(&sep);
            out.push('\n');
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A solved sudoku grid with R×C boxes (values 1..=n), by the usual
/// shifting pattern.
fn pattern(n: usize, (br, bc): (usize, usize)) -> Vec<Vec<usize>> {
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| (bc * (r % br) + r / br + c) % n + 1)
                .collect()
        })
        .collect()
}

/// The `i`th cage label: a–z, A–Z, then two letters.
fn label(i: usize) -> String {
    const L: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let k = L.len();
    if i < k {
        (L[i] as char).to_string()
    } else {
        let j = i - k;
        format!("{}{}", L[(j / k) % k] as char, L[j % k] as char)
    }
}

/// Splits an n×n grid into dominoes (the last column of an odd grid in
/// vertical pairs, the last corner alone).
fn dominoes(n: usize) -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for r in 0..n {
        for c in (0..n - n % 2).step_by(2) {
            out.push(vec![(r, c), (r, c + 1)]);
        }
    }
    if n % 2 == 1 {
        for r in (0..n).step_by(2) {
            if r + 1 < n {
                out.push(vec![(r, n - 1), (r + 1, n - 1)]);
            } else {
                out.push(vec![(r, n - 1)]);
            }
        }
    }
    out
}

/// The `cages` grid and `[clues]` table of the given cages and clues.
fn cages_text(n: usize, cages: &[Vec<(usize, usize)>], clues: &[String]) -> String {
    let mut grid = vec![vec![".".to_string(); n]; n];
    for (i, cage) in cages.iter().enumerate() {
        for &(r, c) in cage {
            grid[r][c] = label(i);
        }
    }
    let mut out = format!(
        "cages = \"\"\"\n{}\"\"\"\n\n[clues]\n",
        grid_text(&grid, None)
    );
    for (i, clue) in clues.iter().enumerate() {
        out.push_str(&format!("{} = \"{clue}\"\n", label(i)));
    }
    out
}

fn sudoku(n: usize) -> String {
    let bx = boxes(n);
    let blank = vec![vec![".".to_string(); n]; n];
    format!(
        "# A {n}x{n} sudoku: every row, column and {r}x{c} box holds 1..{n} once.\n\
         # Replace . with the given values (separate values with spaces).\n\
         kind = \"sudoku\"\n\
         title = \"My {n}x{n} sudoku\"\n\
         box = \"{r}x{c}\"\n\
         # diagonals = true   # both main diagonals hold 1..{n} once too (sudoku-X)\n\
         givens = \"\"\"\n{}\"\"\"\n",
        grid_text(&blank, Some(bx)),
        r = bx.0,
        c = bx.1,
    )
}

fn killer(n: usize) -> String {
    let bx = boxes(n);
    let sol = pattern(n, bx);
    let cages = dominoes(n);
    let clues: Vec<String> = cages
        .iter()
        .map(|cage| {
            cage.iter()
                .map(|&(r, c)| sol[r][c])
                .sum::<usize>()
                .to_string()
        })
        .collect();
    format!(
        "# A {n}x{n} killer sudoku: a sudoku ({r}x{c} boxes) whose cages sum to their clues.\n\
         # Each cell of `cages` holds its cage's label (letters, digits, _), . for no cage;\n\
         # each label needs a clue under [clues]: N (sum), A|B|C (sum is one of these), square.\n\
         kind = \"killer\"\n\
         title = \"My {n}x{n} killer\"\n\
         box = \"{r}x{c}\"\n\
         # distinct-cages = false   # allow a digit twice in a cage\n\
         # default-clue = \"square\" # the clue of every cage without its own\n\
         {}",
        cages_text(n, &cages, &clues),
        r = bx.0,
        c = bx.1,
    )
}

/// The Latin square a generated calcudoku starter is built around.
fn cyclic(n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|r| (0..n).map(|c| (r + c) % n + 1).collect())
        .collect()
}

fn calcudoku(n: usize) -> String {
    let sol = cyclic(n);
    let cages = dominoes(n);
    let clues: Vec<String> = cages
        .iter()
        .enumerate()
        .map(|(i, cage)| {
            let v: Vec<usize> = cage.iter().map(|&(r, c)| sol[r][c]).collect();
            let (lo, hi) = (
                v.iter().copied().min().unwrap_or(1),
                v.iter().copied().max().unwrap_or(1),
            );
            match (i % 4, v.len()) {
                (_, 1) => format!("{hi}"),
                (1, _) => format!("{}*", v.iter().product::<usize>()),
                (2, _) => format!("{}-", hi - lo),
                (3, _) if hi % lo == 0 => format!("{}/", hi / lo),
                _ => format!("{}+", v.iter().sum::<usize>()),
            }
        })
        .collect();
    format!(
        "# A {n}x{n} calcudoku: every row and column holds 1..{n} once, and each cage\n\
         # meets its clue: N+ (sum), N* (product), N- (difference), N/ (ratio).\n\
         # Each cell of `cages` holds its cage's label (letters, digits, _).\n\
         kind = \"calcudoku\"\n\
         title = \"My {n}x{n} calcudoku\"\n\
         {}",
        cages_text(n, &cages, &clues),
    )
}

fn jigsaw(n: usize) -> String {
    // The regions are the boxes of a sudoku, so the box pattern fills it.
    let (br, bc) = boxes(n);
    let regions: Vec<Vec<String>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| label((r / br) * (n / bc) + c / bc))
                .collect()
        })
        .collect();
    let blank = vec![vec![".".to_string(); n]; n];
    format!(
        "# A {n}x{n} jigsaw sudoku: every row, column and region holds 1..{n} once.\n\
         # Each cell of `regions` holds its region's label (letters, digits, _); a region\n\
         # is one piece of {n} cells. Reshape the regions, then replace . with givens.\n\
         kind = \"jigsaw\"\n\
         title = \"My {n}x{n} jigsaw\"\n\
         # diagonals = true   # both main diagonals hold 1..{n} once too\n\
         regions = \"\"\"\n{}\"\"\"\n\
         givens = \"\"\"\n{}\"\"\"\n",
        grid_text(&regions, None),
        grid_text(&blank, None),
    )
}

/// Whether the generated futoshiki starter has a sign right of (r, c), or
/// (`false`) below it.
fn futoshiki_sign(r: usize, c: usize, right: bool) -> bool {
    (r + c) % 3 == if right { 0 } else { 1 }
}

fn futoshiki(n: usize) -> String {
    let sol = cyclic(n);
    let w = n.to_string().len();
    let mut grid = String::new();
    for r in 0..n {
        let mut line = String::new();
        let mut signs = String::new();
        for c in 0..n {
            line.push_str(&format!("{:>w$}", "."));
            signs.push_str(&" ".repeat(w - 1));
            if r + 1 < n && futoshiki_sign(r, c, false) {
                signs.push(if sol[r][c] < sol[r + 1][c] { '^' } else { 'v' });
            } else {
                signs.push(' ');
            }
            if c + 1 < n {
                let sign = match futoshiki_sign(r, c, true) {
                    true if sol[r][c] < sol[r][c + 1] => '<',
                    true => '>',
                    false => ' ',
                };
                line.push_str(&format!(" {sign} "));
                signs.push_str("   ");
            }
        }
        grid.push_str(line.trim_end());
        grid.push('\n');
        if !signs.trim().is_empty() {
            grid.push_str(signs.trim_end());
            grid.push('\n');
        }
    }
    format!(
        "# A {n}x{n} futoshiki: every row and column holds 1..{n} once, and every sign\n\
         # holds: its narrow end points at the smaller cell (1 < 2, 2 > 1; ^ under a\n\
         # cell: the cell above is smaller, v: the cell above is larger). Signs between\n\
         # rows go on their own line, straight under their cell. . is a blank.\n\
         kind = \"futoshiki\"\n\
         title = \"My {n}x{n} futoshiki\"\n\
         grid = \"\"\"\n{grid}\"\"\"\n"
    )
}

/// How many of `line`'s towers are seen from its start.
fn seen(line: impl Iterator<Item = usize>) -> i64 {
    crate::model::visible(&line.map(|v| v as i64).collect::<Vec<_>>())
}

fn skyscrapers(n: usize) -> String {
    let sol = cyclic(n);
    let list = |f: &dyn Fn(usize) -> i64| -> String {
        (0..n)
            .map(|i| f(i).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let top = list(&|c| seen((0..n).map(|r| sol[r][c])));
    let bottom = list(&|c| seen((0..n).rev().map(|r| sol[r][c])));
    let left = list(&|r| seen(sol[r].iter().copied()));
    let right = list(&|r| seen(sol[r].iter().rev().copied()));
    let blank = vec![vec![".".to_string(); n]; n];
    format!(
        "# A {n}x{n} skyscrapers: every row and column holds towers of height 1..{n} once;\n\
         # a clue on an edge says how many towers are seen from there (a taller tower\n\
         # hides every lower one behind it). top and bottom give one clue per column,\n\
         # left to right; left and right one per row, top to bottom; . for no clue.\n\
         kind = \"skyscrapers\"\n\
         title = \"My {n}x{n} skyscrapers\"\n\
         top = \"{top}\"\n\
         bottom = \"{bottom}\"\n\
         left = \"{left}\"\n\
         right = \"{right}\"\n\
         givens = \"\"\"\n{}\"\"\"\n",
        grid_text(&blank, None),
    )
}

/// The filling an n×n kakuro starter is built around: every tenth row and
/// column (from 0) holds clue squares, so runs stay within 9 cells, and the
/// digits shift along each run so that none repeats. A last row and column
/// that would make runs of one cell are left black.
fn kakuro_fill(n: usize, r: usize, c: usize) -> Option<usize> {
    let lim = if n % 10 == 2 { n - 1 } else { n };
    (!r.is_multiple_of(10) && !c.is_multiple_of(10) && r < lim && c < lim)
        .then(|| ((r % 10 - 1) + (c % 10 - 1)) % 9 + 1)
}

fn kakuro(n: usize) -> String {
    let is_white = |r: usize, c: usize| kakuro_fill(n, r, c).is_some();
    let val = |r: usize, c: usize| kakuro_fill(n, r, c).unwrap_or(0);
    let mut rows = Vec::with_capacity(n);
    for r in 0..n {
        let mut row = Vec::with_capacity(n);
        for c in 0..n {
            if is_white(r, c) {
                row.push("_".to_string());
                continue;
            }
            let across: usize = (c + 1..n)
                .take_while(|&cc| is_white(r, cc))
                .map(|cc| val(r, cc))
                .sum();
            let down: usize = (r + 1..n)
                .take_while(|&rr| is_white(rr, c))
                .map(|rr| val(rr, c))
                .sum();
            let show = |s: usize| if s == 0 { String::new() } else { s.to_string() };
            row.push(if across == 0 && down == 0 {
                "x".to_string()
            } else {
                format!("{}|{}", show(down), show(across))
            });
        }
        rows.push(row);
    }
    let w = rows.iter().flatten().map(String::len).max().unwrap_or(1);
    let grid: String = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|t| format!("{t:>w$}"))
                .collect::<Vec<_>>()
                .join(", ")
                + "\n"
        })
        .collect();
    format!(
        "# A {n}x{n} kakuro: white cells (_) hold 1..9; each run of white cells is all\n\
         # different and sums to its clue. D|A is a clue square: D the sum of the run\n\
         # below it, A the sum of the run to its right (38| or |14 give only one); x is a block.\n\
         kind = \"kakuro\"\n\
         title = \"My {n}x{n} kakuro\"\n\
         grid = \"\"\"\n{grid}\"\"\"\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_distinct() {
        let ls: std::collections::BTreeSet<String> = (0..2756).map(label).collect();
        assert_eq!(ls.len(), 2756);
        assert!(dominoes(MAX_SIZE).len() <= 2756);
    }

    fn parse(text: &str, what: &str) -> crate::puzzle::Puzzle {
        let file = crate::error::Location::file(format!("{what}.toml"));
        let mut ps =
            crate::parse::parse_str(text, &file, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(ps.len(), 1);
        ps.remove(0)
    }

    #[test]
    fn every_template_parses() {
        for s in STARTERS {
            let p = parse(s.text, s.name);
            assert!(!crate::lower::lower(&p).cells.is_empty(), "{}", s.name);
            assert!(!s.about().is_empty() && s.about().len() < 40, "{}", s.name);
        }
        for kind in Kind::ALL {
            let text = template(kind.name(), None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parse(&text, kind.name()).kind, kind);
        }
        assert_eq!(
            STARTERS
                .iter()
                .find(|s| s.name == "thermo")
                .map(Starter::about),
            Some("A thermometer sudoku")
        );
    }

    #[test]
    fn generated_starters_parse_and_have_their_filling_as_a_solution() {
        for n in [1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 16, 22, 25, MAX_SIZE] {
            for kind in Kind::ALL {
                if kind == Kind::Kakuro && n < 3 {
                    continue;
                }
                let text = template(kind.name(), Some(n)).unwrap_or_else(|e| panic!("{e}"));
                let p = parse(&text, kind.name());
                assert_eq!((p.kind, p.rows, p.cols), (kind, n, n), "{text}");
                let fill: Option<Vec<Vec<Option<i64>>>> = match kind {
                    Kind::Sudoku => None,
                    Kind::Killer => Some(pattern(n, boxes(n))),
                    Kind::Calcudoku | Kind::Futoshiki | Kind::Skyscrapers => Some(cyclic(n)),
                    Kind::Jigsaw => Some(pattern(n, boxes(n))),
                    Kind::Kakuro => {
                        let g = (0..n).map(|r| {
                            (0..n)
                                .map(|c| kakuro_fill(n, r, c).map(|v| v as i64))
                                .collect()
                        });
                        assert_eq!(p.box_shape(), None);
                        let g: Vec<Vec<Option<i64>>> = g.collect();
                        assert_eq!(crate::lower::lower(&p).check_grid(&g), Ok(()), "{text}");
                        None
                    }
                }
                .map(|g: Vec<Vec<usize>>| {
                    g.iter()
                        .map(|r| r.iter().map(|&v| Some(v as i64)).collect())
                        .collect()
                });
                if let Some(g) = fill {
                    assert_eq!(crate::lower::lower(&p).check_grid(&g), Ok(()), "{text}");
                }
            }
        }
        assert!(
            template("sudoku", Some(6))
                .unwrap_or_default()
                .contains("box = \"2x3\"")
        );
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        assert!(template("sudoku", Some(0)).is_err());
        assert!(template("sudoku", Some(MAX_SIZE + 1)).is_err());
        assert!(template("kakuro", Some(2)).is_err());
        assert!(template("thermo", Some(9)).is_err_and(|e| e.contains("leave --size out")));
        assert!(template("hexagon", None).is_err());
    }
}
