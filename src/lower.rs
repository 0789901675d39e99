//! Lowering: every puzzle kind becomes one [`Model`]. Only this module knows
//! what the rules of each kind mean; encodings and the checker see cells
//! and constraints alone.

use crate::model::{
    Cell, CellId, Constraint, Group, Model, Rule, Statement, Target, What, derive, given_origin, rc,
};
use crate::puzzle::{Clue, KakuroCell, Kind, Puzzle};

/// Lowers a parsed puzzle into the constraint model. The parser has already
/// rejected malformed puzzles, so this cannot fail.
pub fn lower(p: &Puzzle) -> Model {
    // Statements are for `explain`; solving lowers every puzzle of a
    // file (49,151 in the 17-clue set), so it does without them.
    let mut m = lowering(p, false).m;
    if p.kind == Kind::Killer {
        // What a killer solver knows (innies, outies, unit sums), for
        // every encoding.
        let implied = derive::implied(&m);
        m.constraints.extend(implied);
    }
    m
}

/// The puzzle's given digits as (row, column, value), in the order
/// [`lower`] states them: each becomes a [`Rule::Fixed`] of the cell at
/// that square, and nothing else in the model depends on them.
pub fn given_digits(p: &Puzzle) -> impl Iterator<Item = (usize, usize, i64)> + '_ {
    p.givens.iter().enumerate().flat_map(|(r, line)| {
        line.iter()
            .enumerate()
            .filter_map(move |(c, g)| g.map(|v| (r, c, i64::from(v))))
    })
}

/// Lowers a puzzle like [`lower`], and also says which of the puzzle's
/// statements (givens, cages, runs, signs, clues, and the kind's rules as
/// units) each constraint comes from. The model has the puzzle's own rules
/// only: a killer's implied constraints follow from several statements
/// together, so they belong to none and are left out.
pub fn lower_with_statements(p: &Puzzle) -> (Model, Vec<Statement>) {
    let l = lowering(p, true);
    (l.m, l.statements.unwrap_or_default())
}

/// Lowers `p`, keeping its statements if `statements`.
fn lowering(p: &Puzzle, statements: bool) -> Lowering {
    let mut m = Lowering {
        m: Model {
            name: p.name.clone(),
            title: p.title.clone(),
            rows: p.rows,
            cols: p.cols,
            cells: Vec::with_capacity(p.rows * p.cols),
            constraints: Vec::new(),
        },
        statements: statements.then(Vec::new),
    };
    match p.kind {
        Kind::Kakuro => lower_kakuro(p, &mut m),
        Kind::Sudoku
        | Kind::Killer
        | Kind::Calcudoku
        | Kind::Jigsaw
        | Kind::Futoshiki
        | Kind::Skyscrapers => lower_latin(p, &mut m),
    }
    m
}

/// A model being built, with the statement its next constraints belong
/// to if statements are kept.
struct Lowering {
    m: Model,
    statements: Option<Vec<Statement>>,
}

/// What a statement is, before its constraints are known.
#[derive(Default)]
struct Says {
    label: Option<String>,
    index: Option<usize>,
    clue: Option<String>,
    value: Option<i64>,
}

impl Lowering {
    /// Starts a statement: the constraints pushed from now on belong to it.
    /// Its name and what it says are made only if statements are kept.
    fn begin(&mut self, what: What, name: impl FnOnce() -> String, says: impl FnOnce() -> Says) {
        let Some(statements) = &mut self.statements else {
            return;
        };
        let says = says();
        statements.push(Statement {
            what,
            label: says.label,
            index: says.index,
            clue: says.clue,
            value: says.value,
            cells: Vec::new(),
            constraints: Vec::new(),
            name: name(),
        });
    }

    fn cell_at(&self, row: usize, col: usize) -> Option<CellId> {
        self.m.cell_at(row, col)
    }
}

fn push(l: &mut Lowering, group: Group, origin: String, rule: Rule) {
    if let Some(st) = l.statements.as_mut().and_then(|s| s.last_mut()) {
        st.constraints.push(l.m.constraints.len());
        for &id in rule.cells() {
            let c = &l.m.cells[id];
            if !st.cells.contains(&(c.row, c.col)) {
                st.cells.push((c.row, c.col));
            }
        }
    }
    l.m.constraints.push(Constraint {
        rule,
        origin,
        group,
    });
}

fn lower_latin(p: &Puzzle, m: &mut Lowering) {
    let n = p.rows;
    for row in 0..n {
        for col in 0..n {
            m.m.cells.push(Cell {
                row,
                col,
                lo: 1,
                hi: n as i64,
            });
        }
    }
    let id = |r: usize, c: usize| r * n + c;
    for (r, c, value) in given_digits(p) {
        let says = || Says {
            value: Some(value),
            ..Says::default()
        };
        m.begin(
            What::Given,
            || format!("given {} = {value}", rc(r, c)),
            says,
        );
        let rule = Rule::Fixed {
            cell: id(r, c),
            value,
        };
        push(m, Group::Givens, given_origin(r, c), rule);
    }
    let unit = |m: &mut Lowering, what: What, k: usize| {
        let says = || Says {
            index: Some(k),
            ..Says::default()
        };
        m.begin(what, || format!("{} {k}", what.name()), says);
    };
    for r in 0..n {
        unit(m, What::Row, r + 1);
        let cells = (0..n).map(|c| id(r, c)).collect();
        push(
            m,
            Group::Rows,
            format!("row {}", r + 1),
            Rule::AllDifferent { cells },
        );
    }
    for c in 0..n {
        unit(m, What::Column, c + 1);
        let cells = (0..n).map(|r| id(r, c)).collect();
        push(
            m,
            Group::Columns,
            format!("column {}", c + 1),
            Rule::AllDifferent { cells },
        );
    }
    if let (Kind::Sudoku | Kind::Killer, Some((br, bc))) = (p.kind, p.box_shape) {
        let mut k = 0;
        for r0 in (0..n).step_by(br) {
            for c0 in (0..n).step_by(bc) {
                k += 1;
                unit(m, What::Box, k);
                let cells = (r0..r0 + br)
                    .flat_map(|r| (c0..c0 + bc).map(move |c| id(r, c)))
                    .collect();
                push(
                    m,
                    Group::Boxes,
                    format!("box {k}"),
                    Rule::AllDifferent { cells },
                );
            }
        }
    }
    for (k, region) in p.regions.iter().enumerate() {
        unit(m, What::Region, k + 1);
        let cells = region.iter().map(|&(r, c)| id(r, c)).collect();
        push(
            m,
            Group::Regions,
            format!("region {}", k + 1),
            Rule::AllDifferent { cells },
        );
    }
    if p.diagonals {
        let main = (0..n).map(|i| id(i, i)).collect();
        let anti = (0..n).map(|i| id(i, n - 1 - i)).collect();
        for (label, origin, cells) in [
            ("main", "main diagonal", main),
            ("anti", "anti-diagonal", anti),
        ] {
            let says = || Says {
                label: Some(label.to_string()),
                ..Says::default()
            };
            m.begin(What::Diagonal, || origin.to_string(), says);
            push(
                m,
                Group::Diagonals,
                origin.to_string(),
                Rule::AllDifferent { cells },
            );
        }
    }
    for cage in &p.cages {
        let cells: Vec<CellId> = cage.cells.iter().map(|&(r, c)| id(r, c)).collect();
        let origin = format!("cage {} {}", cage.label, cage.clue_text);
        let says = || Says {
            label: Some(cage.label.clone()),
            clue: Some(cage.clue_text.clone()),
            ..Says::default()
        };
        let name = || {
            format!(
                "cage {}: {}, {} cell{}",
                cage.label,
                cage.clue_text,
                cells.len(),
                if cells.len() == 1 { "" } else { "s" }
            )
        };
        m.begin(What::Cage, name, says);
        let k = cells.len() as i64;
        let rule = match &cage.clue {
            Clue::Sum(v) | Clue::Product(v) if cells.len() == 1 => Rule::Fixed {
                cell: cells[0],
                value: *v as i64,
            },
            Clue::Sum(v) => Rule::Sum {
                cells: cells.clone(),
                target: Target::Eq(*v as i64),
            },
            Clue::Product(v) => Rule::Product {
                cells: cells.clone(),
                value: *v as i64,
            },
            Clue::Difference(v) => Rule::Difference {
                cells: cells.clone(),
                value: *v as i64,
            },
            Clue::Ratio(v) => Rule::Ratio {
                cells: cells.clone(),
                value: *v as i64,
            },
            Clue::SumIn(vs) => {
                let mut t: Vec<i64> = vs.iter().map(|&v| v as i64).collect();
                t.sort_unstable();
                t.dedup();
                Rule::Sum {
                    cells: cells.clone(),
                    target: Target::OneOf(t),
                }
            }
            Clue::Square => {
                // Only the squares a cage of this size can reach.
                let (lo, hi) = (k, k * n as i64);
                let t = (1..)
                    .map(|s: i64| s * s)
                    .skip_while(|&q| q < lo)
                    .take_while(|&q| q <= hi);
                Rule::Sum {
                    cells: cells.clone(),
                    target: Target::OneOf(t.collect()),
                }
            }
        };
        push(m, Group::Cages, origin.clone(), rule);
        if p.kind == Kind::Killer && p.distinct_cages && cells.len() > 1 {
            push(
                m,
                Group::Cages,
                format!("{origin} (no repeats)"),
                Rule::AllDifferent { cells },
            );
        }
    }
    lower_lines(p, m);
}

/// Futoshiki signs and skyscrapers clues, after the cages.
fn lower_lines(p: &Puzzle, m: &mut Lowering) {
    let n = p.rows;
    let id = |(r, c): (usize, usize)| r * n + c;
    for q in &p.inequalities {
        let origin = format!(
            "{} < {}",
            rc(q.less.0, q.less.1),
            rc(q.greater.0, q.greater.1)
        );
        let rule = Rule::Less {
            cells: [id(q.less), id(q.greater)],
        };
        m.begin(What::Sign, || origin.clone(), Says::default);
        push(m, Group::Inequalities, origin, rule);
    }
    let Some(e) = &p.edges else { return };
    // Per side: its name, the line it looks along, and the k-th cell
    // (nearest first) of line i in an n×n grid.
    type At = fn(usize, usize, usize) -> (usize, usize);
    let sides: [(&str, &str, &[Option<u32>], At); 4] = [
        ("top", "column", &e.top, |_, i, k| (k, i)),
        ("bottom", "column", &e.bottom, |n, i, k| (n - 1 - k, i)),
        ("left", "row", &e.left, |_, i, k| (i, k)),
        ("right", "row", &e.right, |n, i, k| (i, n - 1 - k)),
    ];
    for (side, line, clues, at) in sides {
        for (i, clue) in clues.iter().enumerate() {
            let Some(count) = clue else { continue };
            let cells = (0..n).map(|k| id(at(n, i, k))).collect();
            let rule = Rule::Visible {
                cells,
                count: i64::from(*count),
            };
            let origin = format!("{side} clue {count} of {line} {}", i + 1);
            let says = || Says {
                label: Some(side.to_string()),
                index: Some(i + 1),
                clue: Some(count.to_string()),
                value: None,
            };
            m.begin(What::EdgeClue, || origin.clone(), says);
            push(m, Group::EdgeClues, origin, rule);
        }
    }
}

fn lower_kakuro(p: &Puzzle, m: &mut Lowering) {
    let Some(layout) = &p.kakuro else { return };
    for (row, line) in layout.iter().enumerate() {
        for (col, sq) in line.iter().enumerate() {
            if *sq == KakuroCell::White {
                m.m.cells.push(Cell {
                    row,
                    col,
                    lo: 1,
                    hi: 9,
                });
            }
        }
    }
    let mut across = Vec::new();
    let mut down = Vec::new();
    for (r, line) in layout.iter().enumerate() {
        for (c, sq) in line.iter().enumerate() {
            let KakuroCell::Clue { down: d, across: a } = *sq else {
                continue;
            };
            let white = |rr: usize, cc: usize| {
                layout.get(rr).and_then(|l| l.get(cc)) == Some(&KakuroCell::White)
            };
            if let Some(a) = a {
                let cells: Vec<CellId> = (c + 1..p.cols)
                    .take_while(|&cc| white(r, cc))
                    .filter_map(|cc| m.cell_at(r, cc))
                    .collect();
                across.push((rc(r, c), cells, a));
            }
            if let Some(d) = d {
                let cells: Vec<CellId> = (r + 1..p.rows)
                    .take_while(|&rr| white(rr, c))
                    .filter_map(|rr| m.cell_at(rr, c))
                    .collect();
                down.push((rc(r, c), cells, d));
            }
        }
    }
    for (group, what, runs) in [
        (Group::AcrossRuns, What::AcrossRun, across),
        (Group::DownRuns, What::DownRun, down),
    ] {
        for (at, cells, sum) in runs {
            let origin = format!("{} at {at}", what.name());
            let name = || format!("{origin}: {sum}, {} cells", cells.len());
            let says = || Says {
                label: Some(at),
                clue: Some(sum.to_string()),
                ..Says::default()
            };
            m.begin(what, name, says);
            let rule = Rule::AllDifferent {
                cells: cells.clone(),
            };
            push(m, group, format!("{origin}: all different"), rule);
            let rule = Rule::Sum {
                cells,
                target: Target::Eq(i64::from(sum)),
            };
            push(m, group, format!("{origin}: sum {sum}"), rule);
        }
    }
}

/// The solution `p`'s file records (checked when the file was read), in
/// `model`'s cell order: `model` is `p` lowered, or its shape.
pub fn recorded_solution(p: &Puzzle, model: &Model) -> Option<Vec<i64>> {
    let grid: Vec<Vec<Option<i64>>> = p
        .solution
        .as_ref()?
        .iter()
        .map(|row| row.iter().map(|v| v.map(i64::from)).collect())
        .collect();
    model.values_of(&grid)
}
