//! The puzzle-independent constraint model: cells with integer domains and
//! constraints over them, each with the origin it was lowered from. Every
//! puzzle kind lowers into it, every encoding reads from it, and its checker
//! verifies a filled grid without any solver.

use serde::Serialize;

pub mod derive;

/// Index of a cell in [`Model::cells`].
pub type CellId = usize;

/// A cell to fill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// 0-based row in the whole grid (kakuro: clue squares count).
    pub row: usize,
    /// 0-based column in the whole grid.
    pub col: usize,
    /// Smallest allowed value.
    pub lo: i64,
    /// Largest allowed value.
    pub hi: i64,
}

/// What a sum must equal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// Exactly this value.
    Eq(i64),
    /// One of these values (sorted, no repeats).
    OneOf(Vec<i64>),
}

impl Target {
    /// Whether `v` meets the target.
    pub fn accepts(&self, v: i64) -> bool {
        match self {
            Target::Eq(t) => v == *t,
            Target::OneOf(ts) => ts.binary_search(&v).is_ok(),
        }
    }
}

/// How a [`Rule::Linear`] compares its weighted sum with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cmp {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// At most.
    Le,
    /// Greater than.
    Gt,
    /// At least.
    Ge,
}

impl Cmp {
    /// Whether `a` compares to `b` so.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// The SMT-LIB operator (`distinct` for not equal).
    pub fn smt(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "distinct",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// A rule over cells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The cell holds this value.
    Fixed {
        /// The cell.
        cell: CellId,
        /// Its value.
        value: i64,
    },
    /// No two cells hold the same value.
    AllDifferent {
        /// The cells.
        cells: Vec<CellId>,
    },
    /// The cells sum to the target.
    Sum {
        /// The cells.
        cells: Vec<CellId>,
        /// What the sum must be.
        target: Target,
    },
    /// The cells multiply to `value`.
    Product {
        /// The cells.
        cells: Vec<CellId>,
        /// The product.
        value: i64,
    },
    /// The largest cell minus the sum of the others is `value`
    /// (for two cells, |a − b|).
    Difference {
        /// The cells.
        cells: Vec<CellId>,
        /// The difference.
        value: i64,
    },
    /// The largest cell divided by the product of the others is exactly
    /// `value` (for two cells, max/min).
    Ratio {
        /// The cells.
        cells: Vec<CellId>,
        /// The ratio.
        value: i64,
    },
    /// The first cell holds a smaller value than the second.
    Less {
        /// The smaller cell, then the larger one.
        cells: [CellId; 2],
    },
    /// Looking along the cells in order, exactly `count` of them are
    /// seen: a cell is seen when it is greater than every cell before it
    /// (skyscrapers: taller towers hide lower ones behind them).
    Visible {
        /// The line of cells, nearest to the viewer first.
        cells: Vec<CellId>,
        /// How many are seen.
        count: i64,
    },
    /// The cells weighted by their coefficients sum to a total that
    /// compares with `value` by `cmp`: slow thermometers (b − a ≥ 0),
    /// negative constraints (a − b ≠ 1), arrows, pill arrows (10·a + b).
    Linear {
        /// The cells.
        cells: Vec<CellId>,
        /// One coefficient per cell.
        coeffs: Vec<i64>,
        /// The comparison.
        cmp: Cmp,
        /// The value the weighted sum is compared with.
        value: i64,
    },
    /// The cells' values, in order, are one of the listed tuples: a
    /// relation no arithmetic rule says (a between line's end and middle
    /// cells, three cells of an entropic line). Lowering keeps tables small
    /// (at most [`TABLE_MAX`] tuples of a few cells).
    Table {
        /// The cells.
        cells: Vec<CellId>,
        /// The allowed tuples, one value per cell, sorted, no repeats.
        tuples: Vec<Vec<i64>>,
    },
    /// The cells of a stretch of the line, found by the values the line
    /// holds, sum to `value`: the cells between the first holding one
    /// value and the first holding another (a sandwich), or the first k
    /// cells where k is the first cell's value (an X-sum).
    PositionalSum {
        /// The line of cells, in order.
        cells: Vec<CellId>,
        /// Which cells of the line are summed.
        stretch: Stretch,
        /// Their sum.
        value: i64,
    },
    /// Some cell holds one of the values: a value cells must hold (a
    /// renban of 7 cells on 1–9 holds each of 3 to 7; a sandwich's row its
    /// two end values; a cage of a fixed digit set each digit), or one of
    /// a set (a renban of 3 cells holds one of 1, 4 and 7). What it says
    /// is a fact a solver propagates on at once: one clause in `onehot`.
    Contains {
        /// The cells.
        cells: Vec<CellId>,
        /// The values, sorted, no repeats; none makes the rule unsatisfiable.
        values: Vec<i64>,
    },
}

/// Which cells of a line a [`Rule::PositionalSum`] sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stretch {
    /// The cells strictly between the first cell holding `a` and the
    /// first holding `b` (in either order); the rule is broken when
    /// either value is missing.
    Between {
        /// One end's value.
        a: i64,
        /// The other end's value.
        b: i64,
    },
    /// The first k cells, k being the first cell's value; the rule is
    /// broken when k is not from 1 to the line's length.
    Leading,
}

impl Stretch {
    /// The positions (from, to) of the cells of `vals` the stretch sums,
    /// `from..to`; `None` when the line has no such stretch.
    pub fn span(self, vals: &[i64]) -> Option<(usize, usize)> {
        match self {
            Stretch::Between { a, b } => {
                let i = vals.iter().position(|&v| v == a)?;
                let j = vals.iter().position(|&v| v == b)?;
                let (lo, hi) = (i.min(j), i.max(j));
                // a = b: one cell is both ends, nothing lies between.
                Some((lo + 1, hi.max(lo + 1)))
            }
            Stretch::Leading => {
                let k = usize::try_from(*vals.first()?).ok()?;
                (1..=vals.len()).contains(&k).then_some((0, k))
            }
        }
    }
}

/// Most tuples a [`Rule::Table`] lists: a relation over three cells of a
/// 16×16 grid.
pub const TABLE_MAX: usize = 4096;

impl Rule {
    /// A short name of the rule's kind, for statistics.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Rule::Fixed { .. } => "fixed",
            Rule::AllDifferent { .. } => "all-different",
            Rule::Sum { .. } => "sum",
            Rule::Product { .. } => "product",
            Rule::Difference { .. } => "difference",
            Rule::Ratio { .. } => "ratio",
            Rule::Less { .. } => "less",
            Rule::Visible { .. } => "visible",
            Rule::Linear { .. } => "linear",
            Rule::Table { .. } => "table",
            Rule::PositionalSum { .. } => "positional-sum",
            Rule::Contains { .. } => "contains",
        }
    }

    /// The cells the rule mentions.
    pub fn cells(&self) -> &[CellId] {
        match self {
            Rule::Fixed { cell, .. } => std::slice::from_ref(cell),
            Rule::AllDifferent { cells }
            | Rule::Sum { cells, .. }
            | Rule::Product { cells, .. }
            | Rule::Difference { cells, .. }
            | Rule::Ratio { cells, .. }
            | Rule::Visible { cells, .. }
            | Rule::Linear { cells, .. }
            | Rule::Table { cells, .. }
            | Rule::PositionalSum { cells, .. }
            | Rule::Contains { cells, .. } => cells,
            Rule::Less { cells } => cells,
        }
    }

    /// Whether these values (one per cell of [`Rule::cells`], in order)
    /// satisfy the rule. The one definition of each rule's meaning: the
    /// checker and the encodings' tuple tables both use it.
    pub fn holds(&self, vals: &[i64]) -> bool {
        match self {
            Rule::Fixed { value, .. } => vals[0] == *value,
            Rule::AllDifferent { .. } => all_different(vals),
            Rule::Sum { target, .. } => target.accepts(vals.iter().sum()),
            Rule::Product { value, .. } => {
                vals.iter().try_fold(1i64, |a, &b| a.checked_mul(b)) == Some(*value)
            }
            Rule::Difference { value, .. } => {
                let max = vals.iter().copied().max().unwrap_or(0);
                let sum: i64 = vals.iter().sum();
                2 * max - sum == *value
            }
            Rule::Ratio { value, .. } => {
                // max / prod(others) == value exactly  <=>  max == value * prod(others)
                let Some(imax) = (0..vals.len()).max_by_key(|&i| vals[i]) else {
                    return false;
                };
                let others = vals
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != imax)
                    .try_fold(1i64, |a, (_, &b)| a.checked_mul(b));
                others.and_then(|p| p.checked_mul(*value)) == Some(vals[imax])
            }
            Rule::Less { .. } => vals[0] < vals[1],
            Rule::Visible { count, .. } => visible(vals) == *count,
            Rule::Linear {
                coeffs, cmp, value, ..
            } => linear(coeffs, vals).is_some_and(|s| cmp.holds(s, *value)),
            Rule::Table { tuples, .. } => {
                tuples.binary_search_by(|t| t.as_slice().cmp(vals)).is_ok()
            }
            Rule::PositionalSum { stretch, value, .. } => {
                stretch.span(vals).and_then(|(from, to)| {
                    vals[from..to]
                        .iter()
                        .try_fold(0i64, |s, &v| s.checked_add(v))
                }) == Some(*value)
            }
            Rule::Contains { values, .. } => vals.iter().any(|v| values.binary_search(v).is_ok()),
        }
    }
}

/// The weighted sum of `vals` by `coeffs`, `None` on overflow (which
/// breaks the rule, as for products).
pub fn linear(coeffs: &[i64], vals: &[i64]) -> Option<i64> {
    coeffs
        .iter()
        .zip(vals)
        .try_fold(0i64, |s, (&k, &v)| s.checked_add(k.checked_mul(v)?))
}

/// How many of `vals` are greater than every value before them.
pub fn visible(vals: &[i64]) -> i64 {
    let mut seen = 0;
    let mut top: Option<i64> = None;
    for &v in vals {
        if top.is_none_or(|t| v > t) {
            seen += 1;
            top = Some(v);
        }
    }
    seen
}

/// The section of the script a constraint belongs to; encodings put a
/// comment line before each group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    /// Given digits.
    Givens,
    /// Row all-different.
    Rows,
    /// Column all-different.
    Columns,
    /// Box all-different.
    Boxes,
    /// Jigsaw region all-different.
    Regions,
    /// Main diagonals all-different.
    Diagonals,
    /// Cage clues and cage all-different.
    Cages,
    /// Kakuro across runs.
    AcrossRuns,
    /// Kakuro down runs.
    DownRuns,
    /// Futoshiki inequality signs.
    Inequalities,
    /// Skyscrapers edge clues.
    EdgeClues,
    /// The constraints of an element without a section of its own
    /// (thermometers, kropki dots, anti-knight, …), headed by its name.
    Element(&'static str),
    /// Constraints implied by the others ([`mod@derive`]): not the puzzle's
    /// rules, so the checker skips them.
    Derived,
}

impl Group {
    /// Heading used in script comments.
    pub fn title(self) -> &'static str {
        match self {
            Group::Givens => "givens",
            Group::Rows => "rows: all different",
            Group::Columns => "columns: all different",
            Group::Boxes => "boxes: all different",
            Group::Regions => "regions: all different",
            Group::Diagonals => "diagonals: all different",
            Group::Cages => "cages",
            Group::AcrossRuns => "across runs: all different, sum",
            Group::DownRuns => "down runs: all different, sum",
            Group::Inequalities => "inequalities: smaller < larger",
            Group::EdgeClues => "edge clues: towers seen",
            Group::Element(name) => name,
            Group::Derived => "derived: implied by the rules above",
        }
    }
}

/// A rule with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Constraint {
    /// The rule.
    pub rule: Rule,
    /// Where it came from, e.g. "row 3", "box 2", "cage b 60*",
    /// "across run at r2c4".
    pub origin: String,
    /// Its section.
    pub group: Group,
}

impl Constraint {
    /// The cell and digit, if this is a given digit.
    fn given(&self) -> Option<(CellId, i64)> {
        match (&self.rule, self.group) {
            (Rule::Fixed { cell, value }, Group::Givens) => Some((*cell, *value)),
            _ => None,
        }
    }
}

/// Whether no two of `vals` are equal. Every answer's every unit is
/// checked, so a grid's values (small, non-negative) are marked in a bit
/// set; others are sorted.
fn all_different(vals: &[i64]) -> bool {
    let mut seen = 0u128;
    for &v in vals {
        let Some(bit) = u32::try_from(v).ok().and_then(|v| 1u128.checked_shl(v)) else {
            let mut v = vals.to_vec();
            v.sort_unstable();
            return v.windows(2).all(|w| w[0] != w[1]);
        };
        if seen & bit != 0 {
            return false;
        }
        seen |= bit;
    }
    true
}

/// What kind of thing a [`Statement`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum What {
    /// A given digit.
    Given,
    /// A row's all-different rule.
    Row,
    /// A column's all-different rule.
    Column,
    /// A box's all-different rule.
    Box,
    /// A jigsaw region's all-different rule.
    Region,
    /// A main diagonal's all-different rule.
    Diagonal,
    /// A cage with its clue.
    Cage,
    /// A kakuro across run with its sum.
    AcrossRun,
    /// A kakuro down run with its sum.
    DownRun,
    /// A futoshiki inequality sign.
    Sign,
    /// A skyscrapers edge clue.
    EdgeClue,
    /// An instance of an element without a kind of its own here (a
    /// thermometer, a kropki dot): the element's name.
    Element(&'static str),
}

impl Serialize for What {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl What {
    /// The name reports use (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            What::Given => "given",
            What::Row => "row",
            What::Column => "column",
            What::Box => "box",
            What::Region => "region",
            What::Diagonal => "diagonal",
            What::Cage => "cage",
            What::AcrossRun => "across run",
            What::DownRun => "down run",
            What::Sign => "sign",
            What::EdgeClue => "edge clue",
            What::Element(name) => name,
        }
    }
}

/// One thing the puzzle says, as its maker would name it: a given, a
/// cage with its clue, a kakuro run, a futoshiki sign, a skyscrapers
/// clue, or one of the kind's rules as a unit (`row 4`, `box 5`). Each
/// constraint of a model belongs to exactly one statement, so statements
/// can be left out of a puzzle one at a time (see `explain`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statement {
    /// What it is.
    pub what: What,
    /// Its label, where it has one (a cage's letter, a diagonal's name, the
    /// side an edge clue is on).
    pub label: Option<String>,
    /// Its number, counted from 1, where it has one (row, column, box,
    /// region, the line of an edge clue).
    pub index: Option<usize>,
    /// Its clue as written, where it has one (cage, run, edge clue).
    pub clue: Option<String>,
    /// A given's value.
    pub value: Option<i64>,
    /// The cells it is about, 0-based (row, column), in the order its
    /// rules list them.
    pub cells: Vec<(usize, usize)>,
    /// Its constraints: indices into [`Model::constraints`].
    pub constraints: Vec<usize>,
    /// A one-line name such as `given r2c3 = 9` or `cage a: 12, 3 cells`.
    pub name: String,
}

/// A grid of cell values, row by row; `None` where no cell is (kakuro
/// blocks) or the value is unknown.
pub type ValueGrid = Vec<Vec<Option<i64>>>;

/// The value `grid` gives cell `c`, if any.
fn value_at(grid: &[Vec<Option<i64>>], c: &Cell) -> Option<i64> {
    grid.get(c.row)?.get(c.col).copied().flatten()
}

/// A constraint model: what every puzzle kind lowers into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Model {
    /// The puzzle's name (for reports and script headers).
    pub name: String,
    /// The puzzle's title, if it has one.
    pub title: Option<String>,
    /// Grid height, including squares that hold no cell.
    pub rows: usize,
    /// Grid width.
    pub cols: usize,
    /// The cells, in row-major order.
    pub cells: Vec<Cell>,
    /// The constraints, grouped by [`Group`] in order.
    pub constraints: Vec<Constraint>,
}

/// The first constraint a grid breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Index into [`Model::constraints`], or `None` for a domain violation
    /// or a given checked beside them ([`Model::check_with`]).
    pub constraint: Option<usize>,
    /// What is broken, naming the origin.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The origin of the given digit at a 0-based position: `given r3c4`.
pub fn given_origin(row: usize, col: usize) -> String {
    format!("given {}", rc(row, col))
}

pub use crate::error::rc;

impl Model {
    /// The cell at (row, col), if that square holds one.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<CellId> {
        self.cells
            .binary_search_by(|c| (c.row, c.col).cmp(&(row, col)))
            .ok()
    }

    /// Checks a complete assignment (one value per cell). Returns the first
    /// broken constraint, or `Ok(())` when every rule holds.
    pub fn check(&self, values: &[i64]) -> Result<(), Violation> {
        if values.len() != self.cells.len() {
            return Err(Violation {
                constraint: None,
                message: format!(
                    "the grid has {} values for {} cells",
                    values.len(),
                    self.cells.len()
                ),
            });
        }
        for (c, &v) in self.cells.iter().zip(values) {
            if v < c.lo || v > c.hi {
                return Err(Violation {
                    constraint: None,
                    message: format!(
                        "cell {} holds {v}, outside its domain {}..{}",
                        rc(c.row, c.col),
                        c.lo,
                        c.hi
                    ),
                });
            }
        }
        // One buffer for every constraint's values: the checker runs on
        // every answer.
        let mut vals = Vec::new();
        for (i, c) in self.constraints.iter().enumerate() {
            if c.group == Group::Derived {
                // Answers are judged by the puzzle's own rules alone.
                continue;
            }
            vals.clear();
            vals.extend(c.rule.cells().iter().map(|&id| values[id]));
            if !c.rule.holds(&vals) {
                return Err(self.broken(Some(i), &c.origin, &c.rule, &vals));
            }
        }
        Ok(())
    }

    /// Checks `values` like [`Model::check`], and also the `givens` (cell,
    /// value) it does not hold as rules: a shape's model (see
    /// [`Model::split_givens`]) with a puzzle's givens checks what the
    /// puzzle's own model would, with the same messages.
    pub fn check_with(&self, values: &[i64], givens: &[(CellId, i64)]) -> Result<(), Violation> {
        self.check(values)?;
        for &(cell, value) in givens {
            let rule = Rule::Fixed { cell, value };
            let (Some(c), Some(&got)) = (self.cells.get(cell), values.get(cell)) else {
                return Err(Violation {
                    constraint: None,
                    message: format!("a given names cell {cell}, which the grid does not have"),
                });
            };
            if !rule.holds(&[got]) {
                return Err(self.broken(None, &given_origin(c.row, c.col), &rule, &[got]));
            }
        }
        Ok(())
    }

    /// How `rule` (constraint `i` if it is one, from `origin`) is broken by
    /// its cells' values `vals`.
    fn broken(&self, i: Option<usize>, origin: &str, rule: &Rule, vals: &[i64]) -> Violation {
        let cells: Vec<String> = rule
            .cells()
            .iter()
            .zip(vals)
            .map(|(&id, v)| format!("{}={v}", rc(self.cells[id].row, self.cells[id].col)))
            .collect();
        Violation {
            constraint: i,
            message: format!("{origin} is broken ({})", cells.join(" ")),
        }
    }

    /// Checks a grid (`rows` × `cols`, `None` for squares without a cell or
    /// left blank).
    pub fn check_grid(&self, grid: &[Vec<Option<i64>>]) -> Result<(), Violation> {
        if let Some(blank) = self.cells.iter().find(|c| value_at(grid, c).is_none()) {
            return Err(Violation {
                constraint: None,
                message: format!("cell {} is blank", rc(blank.row, blank.col)),
            });
        }
        self.check(&self.values_of(grid).unwrap_or_default())
    }

    /// The values of `grid` (`rows` × `cols`) in cell order; `None` when a
    /// cell is blank.
    pub fn values_of(&self, grid: &[Vec<Option<i64>>]) -> Option<Vec<i64>> {
        self.cells.iter().map(|c| value_at(grid, c)).collect()
    }

    /// Splits the model into its shape (everything but the given digits,
    /// nameless) and its givens. Puzzles of one shape differ only in their
    /// givens, so the rules of the shape can be stated once for all of them.
    pub fn split_givens(&self) -> (Model, Vec<(CellId, i64)>) {
        let shape = Model {
            name: String::new(),
            title: None,
            rows: self.rows,
            cols: self.cols,
            cells: self.cells.clone(),
            constraints: self.rules_of_shape().cloned().collect(),
        };
        (shape, self.givens())
    }

    /// The given digits, as [`Model::split_givens`] splits them off.
    pub fn givens(&self) -> Vec<(CellId, i64)> {
        self.constraints
            .iter()
            .filter_map(Constraint::given)
            .collect()
    }

    /// Whether `shape` is the shape [`Model::split_givens`] makes of this
    /// model; decided without making it, since a session compares every
    /// puzzle with the shapes met before.
    pub fn has_shape(&self, shape: &Model) -> bool {
        shape.name.is_empty()
            && shape.title.is_none()
            && self.rows == shape.rows
            && self.cols == shape.cols
            && self.cells == shape.cells
            && self.rules_of_shape().eq(shape.constraints.iter())
    }

    /// The constraints other than the givens.
    fn rules_of_shape(&self) -> impl Iterator<Item = &Constraint> {
        self.constraints.iter().filter(|c| c.given().is_none())
    }

    /// Lays values (one per cell) out as a grid, `None` where no cell is.
    pub fn to_grid(&self, values: &[i64]) -> ValueGrid {
        let mut g = vec![vec![None; self.cols]; self.rows];
        for (c, &v) in self.cells.iter().zip(values) {
            g[c.row][c.col] = Some(v);
        }
        g
    }

    /// Number of constraints of each kind, sorted by kind name.
    pub fn counts_by_kind(&self) -> Vec<(&'static str, usize)> {
        let mut m = std::collections::BTreeMap::new();
        for c in &self.constraints {
            *m.entry(c.rule.kind_name()).or_insert(0) += 1;
        }
        m.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn less_and_visible_mean_what_they_say() {
        let less = Rule::Less { cells: [0, 1] };
        assert!(less.holds(&[1, 2]));
        assert!(!less.holds(&[2, 2]));
        assert!(!less.holds(&[3, 2]));
        assert_eq!(visible(&[]), 0);
        assert_eq!(visible(&[3, 1, 2, 5, 4]), 2);
        assert_eq!(visible(&[1, 2, 3, 4, 5]), 5);
        assert_eq!(visible(&[5, 4, 3, 2, 1]), 1);
        assert_eq!(visible(&[2, 2, 3]), 2);
        let seen = Rule::Visible {
            cells: vec![0, 1, 2, 3],
            count: 3,
        };
        assert!(seen.holds(&[1, 3, 2, 4]));
        assert!(!seen.holds(&[4, 3, 2, 1]));
    }

    #[test]
    fn positional_sums_mean_what_they_say() {
        let sandwich = |value| Rule::PositionalSum {
            cells: (0..6).collect(),
            stretch: Stretch::Between { a: 1, b: 6 },
            value,
        };
        // 1 and 6 in either order; the cells strictly between count.
        assert!(sandwich(7).holds(&[2, 1, 3, 4, 6, 5]));
        assert!(sandwich(7).holds(&[2, 6, 3, 4, 1, 5]));
        assert!(!sandwich(8).holds(&[2, 6, 3, 4, 1, 5]));
        // Neighbours: nothing between.
        assert!(sandwich(0).holds(&[1, 6, 2, 3, 4, 5]));
        // The first 1 and the first 6; a missing end breaks it.
        assert!(sandwich(2).holds(&[1, 2, 6, 1, 6, 3]));
        assert!(!sandwich(0).holds(&[1, 2, 3, 4, 5, 5]));
        let same = Rule::PositionalSum {
            cells: vec![0, 1],
            stretch: Stretch::Between { a: 2, b: 2 },
            value: 0,
        };
        assert!(same.holds(&[1, 2]));
        assert!(!same.holds(&[1, 1]));
        let xsum = |value| Rule::PositionalSum {
            cells: (0..4).collect(),
            stretch: Stretch::Leading,
            value,
        };
        assert!(xsum(3).holds(&[3, 0, 0, 9]));
        assert!(xsum(6).holds(&[3, 2, 1, 4]));
        assert!(xsum(1).holds(&[1, 2, 3, 4]));
        assert!(xsum(10).holds(&[4, 1, 2, 3]));
        // A first value that is no length of the line.
        assert!(!xsum(0).holds(&[0, 1, 2, 3]));
        assert!(!xsum(5).holds(&[5, 1, 2, 3]));
        assert!(!xsum(0).holds(&[]));
        // Overflow breaks it.
        assert!(!xsum(0).holds(&[2, i64::MAX, 0, 0]) && !xsum(1).holds(&[2, i64::MAX, 0, 0]));
    }

    #[test]
    fn contains_means_some_cell_holds_one_of_the_values() {
        let rule = |values: Vec<i64>| Rule::Contains {
            cells: vec![0, 1, 2],
            values,
        };
        assert!(rule(vec![4]).holds(&[3, 4, 5]));
        assert!(!rule(vec![4]).holds(&[3, 5, 6]));
        assert!(rule(vec![1, 4, 7]).holds(&[5, 6, 7]));
        assert!(rule(vec![1, 4, 7]).holds(&[4, 4, 4]));
        assert!(!rule(vec![1, 4, 7]).holds(&[2, 3, 5]));
        // No values, or no cells: nothing can hold one.
        assert!(!rule(vec![]).holds(&[1, 2, 3]));
        let none = Rule::Contains {
            cells: vec![],
            values: vec![1],
        };
        assert!(!none.holds(&[]));
    }

    #[test]
    fn all_different_holds_for_any_values() {
        assert!(all_different(&[]));
        assert!(all_different(&[1, 2, 3, 127, 0]));
        assert!(!all_different(&[3, 1, 3]));
        // Outside what a bit set holds: sorted instead.
        assert!(all_different(&[128, -1, 1 << 40, 5]));
        assert!(!all_different(&[1, 200, -7, 200]));
        assert!(!all_different(&[-7, 2, -7]));
    }

    #[test]
    fn a_model_has_the_shape_split_from_it_and_no_other() {
        let sudoku = |givens: &str| {
            let text = format!("kind = \"sudoku\"\ngivens = \"\"\"\n{givens}\"\"\"\n");
            let loc = crate::Location::file("t.toml");
            let p = crate::parse::parse_str(&text, &loc, None).expect("parses");
            crate::lower::lower(&p[0])
        };
        let a = sudoku("1 . . .\n. . 3 .\n. . . .\n. . . .\n");
        let (shape, givens) = a.split_givens();
        assert_eq!(givens, a.givens());
        assert_eq!(givens, vec![(0, 1), (6, 3)]);
        assert!(a.has_shape(&shape));
        // Other givens, the same shape.
        let b = sudoku(". . 2 .\n. . . .\n. . . .\n. . . .\n");
        assert!(b.has_shape(&shape));
        assert_eq!(b.givens(), vec![(2, 2)]);
        // A model with givens is not a shape; a 9×9 has another shape.
        assert!(!a.has_shape(&a));
        let nine = crate::puzzle::Puzzle::blank("nine", crate::puzzle::Kind::Sudoku, 9);
        assert!(!a.has_shape(&crate::lower::lower(&nine).split_givens().0));
    }
}
