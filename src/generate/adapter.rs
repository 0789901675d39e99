//! The one place the generator builds or reads a [`Puzzle`]: a design with
//! the clues it keeps becomes a puzzle, and a template puzzle gives the
//! parts it fixes, as elements ([`crate::elements`]).

use super::Fixed;
use super::draw::{At, Design};
use crate::elements::Element;
use crate::elements::boxes::Boxes;
use crate::elements::cages::Cages;
use crate::elements::diagonals::Diagonals;
use crate::elements::kakuro::Kakuro;
use crate::elements::regions::Regions;
use crate::elements::signs::Signs;
use crate::lower::lower;
use crate::model::{Model, Rule};
use crate::puzzle::{Cage, Clue, EdgeClues, Inequality, KakuroCell, Kind, Puzzle};

/// A clue the generator may remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// The given digit of this cell.
    Given(At),
    /// The sign `Design::signs[i]`.
    Sign(usize),
    /// Edge clue `index` of side `side` (top, bottom, left, right).
    Edge(usize, usize),
}

/// Every removable clue of `d`, in the order lowering states them (givens
/// row by row, then signs, then edge clues side by side), which is how
/// they are matched with the lowered puzzle's statements.
pub fn items(d: &Design) -> Vec<Item> {
    let mut out = Vec::new();
    if d.kind != Kind::Kakuro {
        for r in 0..d.n {
            for c in 0..d.n {
                out.push(Item::Given((r, c)));
            }
        }
    }
    out.extend((0..d.signs.len()).map(Item::Sign));
    if let Some(e) = &d.edges {
        for (side, line) in e.iter().enumerate() {
            out.extend((0..line.len()).map(|i| Item::Edge(side, i)));
        }
    }
    out
}

/// The puzzle of `d` with the removable clues `keep` says to keep, named
/// `name`, its solution recorded.
pub fn puzzle(d: &Design, name: &str, keep: impl Fn(&Item) -> bool) -> Puzzle {
    let n = d.n;
    let mut p = Puzzle::blank(name, d.kind, n);
    let sol = |r: usize, c: usize| Some(d.solution[r][c]).filter(|&v| v > 0);
    p.solution = Some(
        (0..n)
            .map(|r| (0..n).map(|c| sol(r, c)).collect())
            .collect(),
    );
    if d.kind == Kind::Kakuro {
        p.set(Kakuro(kakuro(d)));
        return p;
    }
    for r in 0..n {
        for c in 0..n {
            if keep(&Item::Given((r, c))) {
                p.givens[r][c] = sol(r, c);
            }
        }
    }
    if let Some((rows, cols)) = d.box_shape {
        p.set(Boxes { rows, cols });
    }
    if !d.regions.is_empty() {
        p.set(Regions(d.regions.clone()));
    }
    if d.diagonals {
        p.set(Diagonals);
    }
    let cages: Vec<Cage> = d
        .cages
        .iter()
        .enumerate()
        .map(|(k, cage)| {
            let (clue, text) = match cage.op {
                None if d.kind == Kind::Killer => (Clue::Sum(cage.value), cage.value.to_string()),
                None => (Clue::Sum(cage.value), cage.value.to_string()),
                Some(op) => {
                    let clue = match op {
                        super::draw::Op::Add => Clue::Sum(cage.value),
                        super::draw::Op::Subtract => Clue::Difference(cage.value),
                        super::draw::Op::Multiply => Clue::Product(cage.value),
                        super::draw::Op::Divide => Clue::Ratio(cage.value),
                    };
                    (clue, format!("{}{}", cage.value, op.symbol()))
                }
            };
            Cage {
                label: crate::parse::label(k),
                clue_text: text,
                clue,
                cells: cage.cells.clone(),
            }
        })
        .collect();
    if !cages.is_empty() {
        p.set(Cages {
            cages,
            distinct: d.kind == Kind::Killer,
        });
    }
    let signs: Vec<Inequality> = d
        .signs
        .iter()
        .enumerate()
        .filter(|(i, _)| keep(&Item::Sign(*i)))
        .map(|(_, &(less, greater))| Inequality { less, greater })
        .collect();
    if !signs.is_empty() {
        p.set(Signs(signs));
    }
    for e in &d.elements {
        p.add(e.clone());
    }
    if let Some(e) = &d.edges {
        let side = |s: usize| -> Vec<Option<u32>> {
            e[s].iter()
                .enumerate()
                .map(|(i, &v)| keep(&Item::Edge(s, i)).then_some(v))
                .collect()
        };
        p.set(EdgeClues {
            top: side(0),
            bottom: side(1),
            left: side(2),
            right: side(3),
        });
    }
    p
}

/// The model of rules over an `n`×`n` grid (`--with anti-knight`) alone,
/// for the fill to keep and to check its solution against.
pub fn rule_model(n: usize, rules: &[Element]) -> Model {
    let mut p = Puzzle::blank("rules", Kind::Sudoku, n);
    p.elements.clear();
    for e in rules {
        p.add(e.clone());
    }
    lower(&p)
}

/// The cells of each all-different rule of `m`, as the fill's groups.
pub fn all_different(m: &Model) -> Vec<Vec<At>> {
    m.constraints
        .iter()
        .filter_map(|c| match &c.rule {
            Rule::AllDifferent { cells } => Some(
                cells
                    .iter()
                    .map(|&id| (m.cells[id].row, m.cells[id].col))
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

/// A kakuro grid: clue squares hold the sums of the runs they start.
fn kakuro(d: &Design) -> Vec<Vec<KakuroCell>> {
    let n = d.n;
    let w = &d.white;
    let run = |r: usize, c: usize, dr: usize, dc: usize| -> Option<u32> {
        let (mut r, mut c) = (r + dr, c + dc);
        let mut sum = 0;
        while r < n && c < n && w[r][c] {
            sum += d.solution[r][c];
            (r, c) = (r + dr, c + dc);
        }
        (sum > 0).then_some(sum)
    };
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    if w[r][c] {
                        return KakuroCell::White;
                    }
                    match (run(r, c, 1, 0), run(r, c, 0, 1)) {
                        (None, None) => KakuroCell::Block,
                        (down, across) => KakuroCell::Clue { down, across },
                    }
                })
                .collect()
        })
        .collect()
}

/// What a template fixes, and its size and diagonals; a template's own
/// givens, clues and solution are not used (they are generated). A
/// template with parts a puzzle made from it would not have (thermometers,
/// killer cages on a sudoku, boxes of another shape than those drawn) is
/// refused, naming them: the puzzles would silently lose them.
pub fn template(p: &Puzzle) -> Result<(Kind, usize, bool, Fixed), String> {
    let kept = crate::kinds::preset(p.kind);
    let mut lost: Vec<String> = p
        .elements
        .iter()
        .map(|e| e.name())
        .filter(|name| !kept.contains(name) && *name != "diagonals")
        .map(str::to_string)
        .collect();
    lost.dedup();
    if let (Some(shape), drawn) = (p.box_shape(), super::draw::box_shape(p.rows))
        && Some(shape) != drawn
    {
        let (r, c) = drawn.unwrap_or(shape);
        lost.push(format!(
            "its {}x{} boxes (generate draws {r}x{c} boxes on a {}x{})",
            shape.0, shape.1, p.rows, p.cols
        ));
    }
    if !lost.is_empty() {
        return Err(format!(
            "a template keeps a puzzle's kind, size and diagonals, a jigsaw's regions, a \
             killer's or calcudoku's cages and a kakuro's squares, and not {}; remove them \
             from the template, or draw elements on new puzzles with --with",
            lost.join(", ")
        ));
    }
    let fixed = match p.kind {
        Kind::Jigsaw if !p.regions().is_empty() => Fixed::Regions(p.regions().to_vec()),
        Kind::Killer | Kind::Calcudoku if !p.cages().is_empty() => {
            Fixed::Cages(p.cages().iter().map(|c| c.cells.clone()).collect())
        }
        Kind::Kakuro => match p.kakuro() {
            Some(grid) => Fixed::Kakuro(
                grid.iter()
                    .map(|row| row.iter().map(|s| *s == KakuroCell::White).collect())
                    .collect(),
            ),
            None => Fixed::Nothing,
        },
        _ => Fixed::Nothing,
    };
    Ok((p.kind, p.rows, p.diagonals(), fixed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Puzzle {
        crate::parse::parse_str(text, &crate::error::Location::file("t.toml"), None)
            .expect("a puzzle")
            .remove(0)
    }

    #[test]
    fn a_template_with_parts_generate_would_drop_is_refused_naming_them() {
        // `keys` before the givens (a 6x6 names its boxes), `tables` after.
        let sudoku = |keys: &str, tables: &str| {
            let blank = "......\n".repeat(6);
            read(&format!(
                "kind = \"sudoku\"\n{keys}givens = \"\"\"\n{blank}\"\"\"\n{tables}"
            ))
        };
        let boxes = "box = \"2x3\"\n";
        assert!(template(&sudoku(boxes, "")).is_ok());
        assert!(template(&sudoku(&format!("{boxes}diagonals = true\n"), "")).is_ok());
        let thermo = sudoku(boxes, "[[thermometer]]\ncells = \"r1c1 r1c2 r1c3\"\n");
        let why = template(&thermo).expect_err("a thermometer is not kept");
        assert!(
            why.contains("thermometer") && why.contains("--with"),
            "{why}"
        );
        let why = template(&sudoku("box = \"3x2\"\n", "")).expect_err("3x2 boxes are not drawn");
        assert!(why.contains("3x2 boxes") && why.contains("2x3"), "{why}");
    }
}
