//! What a generated puzzle is made of before any clue is removed: its
//! layout (boxes, regions, cages, kakuro squares), a random solution, and
//! every clue drawn consistent with that solution (all givens, every sign
//! between neighbours, every edge clue, each cage's clue). Plain data: only
//! the adapter turns it into a puzzle.

use super::fill::{Searched, search};
use super::rng::Rng;
use super::{Fixed, Request, adapter};
use crate::elements::{Drawing, Element, Making};
use crate::model::Model;
use crate::puzzle::Kind;

/// A cell, 0-based (row, column).
pub type At = (usize, usize);

/// A calcudoku cage operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The cells sum to the clue.
    Add,
    /// Largest minus the others.
    Subtract,
    /// The cells multiply to the clue.
    Multiply,
    /// Largest divided by the others.
    Divide,
}

impl Op {
    /// The clue's suffix in the native format.
    pub fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Subtract => '-',
            Op::Multiply => '*',
            Op::Divide => '/',
        }
    }

    /// The operation written `c`, if any.
    pub fn from_symbol(c: char) -> Option<Op> {
        match c {
            '+' => Some(Op::Add),
            '-' => Some(Op::Subtract),
            '*' | 'x' => Some(Op::Multiply),
            '/' => Some(Op::Divide),
            _ => None,
        }
    }
}

/// A cage and its clue: the operation (`None`: a killer's sum, or a
/// one-cell calcudoku cage that just states its digit) and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnCage {
    /// Its cells, row-major.
    pub cells: Vec<At>,
    /// Its operation, for calcudoku.
    pub op: Option<Op>,
    /// The clue's number.
    pub value: u64,
}

/// A futoshiki sign: the value at `less` is smaller than at `greater`.
pub type Sign = (At, At);

/// Everything a generated puzzle starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    /// Its kind.
    pub kind: Kind,
    /// Squares per side (kakuro: including the clue row and column).
    pub n: usize,
    /// Box shape (rows, columns), for sudoku and killer.
    pub box_shape: Option<(usize, usize)>,
    /// Jigsaw regions.
    pub regions: Vec<Vec<At>>,
    /// Whether both main diagonals hold different digits too (sudoku-X).
    pub diagonals: bool,
    /// Kakuro: which squares are white (to fill).
    pub white: Vec<Vec<bool>>,
    /// Cages of killer and calcudoku.
    pub cages: Vec<DrawnCage>,
    /// The solution, `n`×`n`; 0 on kakuro's black squares.
    pub solution: Vec<Vec<u32>>,
    /// Every sign between orthogonal neighbours (futoshiki).
    pub signs: Vec<Sign>,
    /// Towers seen from each edge: top, bottom, left, right (skyscrapers).
    pub edges: Option<[Vec<u32>; 4]>,
    /// The elements of `--with`: rules over the grid and instances drawn
    /// from the solution. They are the puzzle's structure, as cages are:
    /// the reduction keeps them.
    pub elements: Vec<Element>,
}

/// Steps one fill may take before it is abandoned for a fresh start.
pub(crate) const FILL_BUDGET: usize = 200_000;

/// A box shape for an n×n sudoku: as square as can be, rows ≤ columns.
pub fn box_shape(n: usize) -> Option<(usize, usize)> {
    (1..=n)
        .filter(|&r| n.is_multiple_of(r) && r * r <= n)
        .max()
        .map(|r| (r, n / r))
        .filter(|&(r, _)| r > 1 || n == 1)
}

/// Draws a design for `req`, `None` when this attempt's random choices led
/// nowhere within its budget (the caller tries again with the same stream).
pub fn design(req: &Request, rng: &mut Rng) -> Option<Design> {
    let n = req.size;
    let mut d = Design {
        kind: req.kind,
        n,
        box_shape: None,
        regions: Vec::new(),
        diagonals: req.diagonals,
        white: Vec::new(),
        cages: Vec::new(),
        solution: Vec::new(),
        signs: Vec::new(),
        edges: None,
        elements: Vec::new(),
    };
    if req.kind == Kind::Kakuro {
        d.white = match &req.fixed {
            Fixed::Kakuro(white) => white.clone(),
            _ => kakuro_layout(n, rng)?,
        };
        d.solution = kakuro_fill(&d.white, rng)?;
        return Some(d);
    }
    match req.kind {
        k if crate::kinds::has_boxes(k) => d.box_shape = Some(box_shape(n)?),
        Kind::Jigsaw => {
            d.regions = match &req.fixed {
                Fixed::Regions(r) => r.clone(),
                _ => regions(n, rng),
            };
        }
        _ => {}
    }
    let grid = GridRules::of(req, d.box_shape, &d.regions);
    let flat = grid.search(rng, FILL_BUDGET).found()?;
    d.solution = flat.chunks(n).map(<[u32]>::to_vec).collect();
    match req.kind {
        Kind::Killer => {
            d.cages = match &req.fixed {
                Fixed::Cages(cages) => cages
                    .iter()
                    .map(|cells| killer_clue(cells.clone(), &d.solution))
                    .collect(),
                _ => killer_cages(
                    &d.solution,
                    rng,
                    if n <= 6 { 4 } else { 5 },
                    n >= TIGHT_FROM,
                ),
            }
        }
        Kind::Calcudoku => {
            let layout = match &req.fixed {
                Fixed::Cages(cages) => cages.clone(),
                // `-` and `/` take two cells: with only those, cages of
                // two (a lone cell joins a cage below `max` + 1 cells).
                _ if req
                    .ops
                    .iter()
                    .all(|op| matches!(op, Op::Subtract | Op::Divide)) =>
                {
                    cage_cells(&d.solution, rng, 1, false, false)
                }
                _ => cage_cells(&d.solution, rng, 4, false, false),
            };
            d.cages = layout
                .into_iter()
                .map(|cells| calcudoku_clue(cells, &d.solution, &req.ops, rng))
                .collect::<Option<_>>()?;
        }
        Kind::Futoshiki => {
            for r in 0..n {
                for c in 0..n {
                    for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                        if r2 < n && c2 < n {
                            let (a, b) = ((r, c), (r2, c2));
                            let less = d.solution[r][c] < d.solution[r2][c2];
                            d.signs.push(if less { (a, b) } else { (b, a) });
                        }
                    }
                }
            }
        }
        Kind::Skyscrapers => d.edges = Some(edges(&d.solution)),
        _ => {}
    }
    d.elements = grid.rules;
    if req
        .with
        .iter()
        .any(|w| matches!(w.making(), Making::Drawn(_)))
    {
        let layout = adapter::puzzle(&d, "", |_| false).elements;
        let mut drawing = Drawing {
            n,
            solution: &d.solution,
            rng,
            key: "",
            taken: vec![vec![false; n]; n],
            layout: &layout,
        };
        let mut drawn = Vec::new();
        for w in &req.with {
            if let Making::Drawn(make) = w.making() {
                drawing.key = w.key;
                let made = make(&mut drawing);
                // An element asked for is on every puzzle.
                if made.is_empty() {
                    return None;
                }
                drawn.extend(made);
            }
        }
        d.elements.extend(drawn);
    }
    Some(d)
}

/// What every solution of a design keeps: no value twice in a row, a
/// column, a box, a region or a diagonal, and the rules over the grid of
/// `--with` (anti-knight).
pub(crate) struct GridRules {
    /// Squares per side.
    n: usize,
    /// The groups no value repeats in, as row-major cell indices: the
    /// kind's and the all-different parts of the rules.
    groups: Vec<Vec<usize>>,
    /// The rules over the grid.
    pub(crate) rules: Vec<Element>,
    /// The rules' model, whose checker judges a filled grid by their
    /// other parts; `None` without rules.
    model: Option<Model>,
}

impl GridRules {
    /// The groups of `req` with `box_shape` and `regions` (a jigsaw's;
    /// none leaves them out), and its rules over the grid.
    pub(crate) fn of(
        req: &Request,
        box_shape: Option<(usize, usize)>,
        regions: &[Vec<At>],
    ) -> Self {
        let n = req.size;
        let mut groups: Vec<Vec<At>> = Vec::new();
        groups.extend((0..n).map(|r| (0..n).map(|c| (r, c)).collect()));
        groups.extend((0..n).map(|c| (0..n).map(|r| (r, c)).collect()));
        if let Some((br, bc)) = box_shape {
            groups.extend(boxes(n, br, bc));
        }
        groups.extend(regions.iter().cloned());
        if req.diagonals {
            groups.push((0..n).map(|i| (i, i)).collect());
            groups.push((0..n).map(|i| (i, n - 1 - i)).collect());
        }
        let rules: Vec<Element> = req
            .with
            .iter()
            .filter_map(|w| match w.making() {
                Making::Rule(e) => Some(e),
                _ => None,
            })
            .collect();
        let model = (!rules.is_empty()).then(|| adapter::rule_model(n, &rules));
        if let Some(m) = &model {
            groups.extend(adapter::all_different(m));
        }
        let groups = groups
            .iter()
            .map(|g| g.iter().map(|&(r, c)| r * n + c).collect())
            .collect();
        GridRules {
            n,
            groups,
            rules,
            model,
        }
    }

    /// A random grid that keeps every group and rule, searched within
    /// `budget` steps: the rules are set before the solution is drawn,
    /// and the search goes on past a grid that breaks any other part of
    /// theirs.
    pub(crate) fn search(&self, rng: &mut Rng, budget: usize) -> Searched {
        let accept = |values: &[u32]| {
            self.model.as_ref().is_none_or(|m| {
                let values: Vec<i64> = values.iter().map(|&v| i64::from(v)).collect();
                m.check(&values).is_ok()
            })
        };
        let n = self.n;
        search(n * n, n as u32, &self.groups, rng, budget, false, &accept)
    }
}

fn boxes(n: usize, br: usize, bc: usize) -> Vec<Vec<At>> {
    let mut out = Vec::new();
    for top in (0..n).step_by(br) {
        for left in (0..n).step_by(bc) {
            out.push(
                (top..top + br)
                    .flat_map(|r| (left..left + bc).map(move |c| (r, c)))
                    .collect(),
            );
        }
    }
    out
}

fn neighbours(n: usize, (r, c): At) -> impl Iterator<Item = At> {
    let up = r.checked_sub(1).map(|r| (r, c));
    let left = c.checked_sub(1).map(|c| (r, c));
    let down = (r + 1 < n).then_some((r + 1, c));
    let right = (c + 1 < n).then_some((r, c + 1));
    [up, left, down, right].into_iter().flatten()
}

/// Whether `cells` are orthogonally connected.
fn connected(n: usize, cells: &[At]) -> bool {
    let Some(&first) = cells.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut i = 0;
    while i < seen.len() {
        for nb in neighbours(n, seen[i]) {
            if cells.contains(&nb) && !seen.contains(&nb) {
                seen.push(nb);
            }
        }
        i += 1;
    }
    seen.len() == cells.len()
}

/// `n` connected regions of `n` cells: the boxes (or the rows, for a size
/// without boxes), reshaped by swapping neighbouring cells of different
/// regions wherever both stay connected.
fn regions(n: usize, rng: &mut Rng) -> Vec<Vec<At>> {
    let mut owner: Vec<Vec<usize>> = vec![vec![0; n]; n];
    let start = match box_shape(n) {
        Some((br, bc)) => boxes(n, br, bc),
        None => (0..n).map(|r| (0..n).map(|c| (r, c)).collect()).collect(),
    };
    for (k, cells) in start.iter().enumerate() {
        for &(r, c) in cells {
            owner[r][c] = k;
        }
    }
    let members = |owner: &Vec<Vec<usize>>, k: usize| -> Vec<At> {
        (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| owner[r][c] == k)
            .collect()
    };
    for _ in 0..n * n * 8 {
        let a = (rng.below(n), rng.below(n));
        let nbs: Vec<At> = neighbours(n, a)
            .filter(|&(r, c)| owner[r][c] != owner[a.0][a.1])
            .collect();
        if nbs.is_empty() {
            continue;
        }
        // b must border a's region too, away from a, for a swap to keep
        // both regions whole; the check below decides.
        let (ka, kb) = (owner[a.0][a.1], owner[nbs[0].0][nbs[0].1]);
        let cands: Vec<At> = members(&owner, kb)
            .into_iter()
            .filter(|&b| neighbours(n, b).any(|(r, c)| owner[r][c] == ka && (r, c) != a))
            .collect();
        if cands.is_empty() {
            continue;
        }
        let b = cands[rng.below(cands.len())];
        owner[a.0][a.1] = kb;
        owner[b.0][b.1] = ka;
        if !connected(n, &members(&owner, ka)) || !connected(n, &members(&owner, kb)) {
            owner[a.0][a.1] = ka;
            owner[b.0][b.1] = kb;
        }
    }
    let mut out: Vec<Vec<At>> = (0..n).map(|k| members(&owner, k)).collect();
    out.sort();
    out
}

/// From this side on, a killer's cages are grown tight: each cell added
/// is one of those that leave the cage's sum the fewest sets of digits.
/// On a 16×16 of cages grown at random the proofs of uniqueness grew
/// about threefold per orbit of givens removed (docs/generate.md).
pub(crate) const TIGHT_FROM: usize = 16;

/// How many sets of `k` distinct digits of 1 to `n` sum to `sum`.
fn digit_sets(n: u64, k: usize, sum: u64) -> u64 {
    // ways[j][t]: sets of j digits, of those seen so far, summing to t.
    let mut ways = vec![vec![0u64; sum as usize + 1]; k + 1];
    ways[0][0] = 1;
    for d in 1..=n {
        for j in (1..=k).rev() {
            for t in (d as usize..=sum as usize).rev() {
                ways[j][t] += ways[j - 1][t - d as usize];
            }
        }
    }
    ways[k][sum as usize]
}

/// Connected cages of 1 to `max` cells covering the grid, and of `max` + 1
/// where a lone cell joined a full neighbour (a cage of one cell only
/// states its digit); with `distinct`,
/// no digit twice in a cage; with `tight`, each cell added one of those
/// that leave the fewest sets of digits for the cage's sum.
fn cage_cells(
    sol: &[Vec<u32>],
    rng: &mut Rng,
    max: usize,
    distinct: bool,
    tight: bool,
) -> Vec<Vec<At>> {
    let n = sol.len();
    let mut taken = vec![vec![false; n]; n];
    let mut order: Vec<At> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    rng.shuffle(&mut order);
    let mut cages: Vec<Vec<At>> = Vec::new();
    for start in order {
        if taken[start.0][start.1] {
            continue;
        }
        let want = rng.range(2, max.max(2));
        let mut cage = vec![start];
        taken[start.0][start.1] = true;
        while cage.len() < want {
            let options: Vec<At> = cage
                .iter()
                .flat_map(|&a| neighbours(n, a))
                .filter(|&(r, c)| !taken[r][c])
                .filter(|&(r, c)| {
                    !distinct || cage.iter().all(|&(r2, c2)| sol[r2][c2] != sol[r][c])
                })
                .collect();
            if options.is_empty() {
                break;
            }
            let options = match tight {
                false => options,
                true => {
                    let sum: u64 = cage.iter().map(|&(r, c)| u64::from(sol[r][c])).sum();
                    let sets = |&(r, c): &At| {
                        digit_sets(n as u64, cage.len() + 1, sum + u64::from(sol[r][c]))
                    };
                    let fewest = options.iter().map(sets).min().unwrap_or(0);
                    options.into_iter().filter(|a| sets(a) == fewest).collect()
                }
            };
            let (r, c) = options[rng.below(options.len())];
            taken[r][c] = true;
            cage.push((r, c));
        }
        cages.push(cage);
    }
    // A lone cell joins a neighbouring cage where it may, so that few
    // cages merely state a digit.
    let mut i = 0;
    while i < cages.len() {
        if cages[i].len() == 1 {
            let a = cages[i][0];
            let host = (0..cages.len()).find(|&j| {
                j != i
                    && cages[j].len() < max + 1
                    && cages[j].iter().any(|&b| neighbours(n, a).any(|x| x == b))
                    && (!distinct || cages[j].iter().all(|&(r, c)| sol[r][c] != sol[a.0][a.1]))
            });
            if let Some(j) = host {
                cages[j].push(a);
                cages.remove(i);
                continue;
            }
        }
        i += 1;
    }
    for c in &mut cages {
        c.sort_unstable();
    }
    cages.sort();
    cages
}

fn killer_clue(cells: Vec<At>, sol: &[Vec<u32>]) -> DrawnCage {
    let value = cells.iter().map(|&(r, c)| u64::from(sol[r][c])).sum();
    DrawnCage {
        cells,
        op: None,
        value,
    }
}

fn killer_cages(sol: &[Vec<u32>], rng: &mut Rng, max: usize, tight: bool) -> Vec<DrawnCage> {
    cage_cells(sol, rng, max, true, tight)
        .into_iter()
        .map(|cells| killer_clue(cells, sol))
        .collect()
}

/// A calcudoku clue for `cells` with one of `ops` that fits them; `None`
/// when none does (a cage of three cells with only `-` and `/` allowed).
fn calcudoku_clue(
    cells: Vec<At>,
    sol: &[Vec<u32>],
    ops: &[Op],
    rng: &mut Rng,
) -> Option<DrawnCage> {
    let vals: Vec<u64> = cells.iter().map(|&(r, c)| u64::from(sol[r][c])).collect();
    if vals.len() == 1 {
        return Some(DrawnCage {
            cells,
            op: None,
            value: vals[0],
        });
    }
    let max = *vals.iter().max()?;
    let sum: u64 = vals.iter().sum();
    let product: u64 = vals.iter().product();
    let rest_product = product / max;
    let fits: Vec<(Op, u64)> = ops
        .iter()
        .filter_map(|&op| match op {
            Op::Add => Some((op, sum)),
            Op::Multiply => Some((op, product)),
            Op::Subtract if vals.len() == 2 => Some((op, 2 * max - sum)),
            Op::Divide if vals.len() == 2 && max.is_multiple_of(rest_product) => {
                Some((op, max / rest_product))
            }
            _ => None,
        })
        .collect();
    if fits.is_empty() {
        return None;
    }
    let (op, value) = fits[rng.below(fits.len())];
    Some(DrawnCage {
        cells,
        op: Some(op),
        value,
    })
}

/// Towers seen from each edge: top, bottom, left, right.
fn edges(sol: &[Vec<u32>]) -> [Vec<u32>; 4] {
    let n = sol.len();
    let seen = |line: Vec<u32>| {
        let mut top = 0;
        let mut count = 0;
        for v in line {
            if v > top {
                top = v;
                count += 1;
            }
        }
        count
    };
    let col = |c: usize| (0..n).map(|r| sol[r][c]).collect::<Vec<_>>();
    [
        (0..n).map(|c| seen(col(c))).collect(),
        (0..n)
            .map(|c| seen(col(c).into_iter().rev().collect()))
            .collect(),
        (0..n).map(|r| seen(sol[r].clone())).collect(),
        (0..n)
            .map(|r| seen(sol[r].iter().rev().copied().collect()))
            .collect(),
    ]
}

/// A random kakuro layout of `n`×`n` squares (the first row and column
/// hold clues only), symmetric under a half turn, every white square in
/// an across and a down run of 2 to 9.
fn kakuro_layout(n: usize, rng: &mut Rng) -> Option<Vec<Vec<bool>>> {
    let mut w = vec![vec![false; n]; n];
    for r in 1..n {
        for c in 1..n {
            let (r2, c2) = (n - r, n - c);
            if (r2, c2) < (r, c) {
                w[r][c] = w[r2][c2];
            } else {
                w[r][c] = rng.chance(0.72);
            }
        }
    }
    kakuro_trim(&mut w);
    let whites = w.iter().flatten().filter(|&&x| x).count();
    (whites * 2 >= (n - 1) * (n - 1)).then_some(w)
}

/// Blacks out every white square (and its image under a half turn) that
/// is not in an across and a down run of 2 to 9, until none is left.
fn kakuro_trim(w: &mut [Vec<bool>]) {
    let n = w.len();
    let run = |w: &[Vec<bool>], r: usize, c: usize, dr: usize, dc: usize| {
        let (mut a, mut b) = ((r, c), (r, c));
        while w[a.0 - dr][a.1 - dc] {
            a = (a.0 - dr, a.1 - dc);
        }
        while b.0 + dr < n && b.1 + dc < n && w[b.0 + dr][b.1 + dc] {
            b = (b.0 + dr, b.1 + dc);
        }
        (b.0 - a.0) + (b.1 - a.1) + 1
    };
    loop {
        let mut changed = false;
        for r in 1..n {
            for c in 1..n {
                if !w[r][c] {
                    continue;
                }
                let (across, down) = (run(w, r, c, 0, 1), run(w, r, c, 1, 0));
                if across < 2 || down < 2 || across > 9 || down > 9 {
                    w[r][c] = false;
                    w[n - r][n - c] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Repairs a kakuro whose fill is not unique: blacks out `at` (a square
/// where a second solution differs) and its image under a half turn,
/// trims the runs left too short, and keeps the fill of the squares that
/// stay white (a part of a run keeps its digits apart). `false` when
/// fewer than 40 % of the squares would stay white.
pub fn kakuro_black_out(d: &mut Design, (r, c): At) -> bool {
    let n = d.n;
    d.white[r][c] = false;
    d.white[n - r][n - c] = false;
    kakuro_trim(&mut d.white);
    for (row, white) in d.solution.iter_mut().zip(&d.white) {
        for (v, &w) in row.iter_mut().zip(white) {
            if !w {
                *v = 0;
            }
        }
    }
    let whites = d.white.iter().flatten().filter(|&&x| x).count();
    whites * 5 >= (n - 1) * (n - 1) * 2
}

/// Digits 1–9 for the white squares, none twice in a run.
fn kakuro_fill(white: &[Vec<bool>], rng: &mut Rng) -> Option<Vec<Vec<u32>>> {
    let n = white.len();
    let mut id = vec![vec![usize::MAX; n]; n];
    let mut cells = 0;
    for r in 0..n {
        for c in 0..n {
            if white[r][c] {
                id[r][c] = cells;
                cells += 1;
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for horizontal in [true, false] {
        for a in 0..n {
            let mut cur = Vec::new();
            for b in 0..=n {
                let (r, c) = if horizontal { (a, b) } else { (b, a) };
                if b < n && white[r][c] {
                    cur.push(id[r][c]);
                } else if !cur.is_empty() {
                    groups.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    let flat = search(cells, 9, &groups, rng, FILL_BUDGET, true, &|_| true).found()?;
    let mut sol = vec![vec![0; n]; n];
    for r in 0..n {
        for c in 0..n {
            if white[r][c] {
                sol[r][c] = flat[id[r][c]];
            }
        }
    }
    Some(sol)
}

/// A 4×4 design of `kind` (2×2 boxes) with one fixed solution and
/// nothing else drawn: what the unit tests of the reduction start from.
#[cfg(test)]
pub(crate) fn four_by_four(kind: Kind) -> Design {
    Design {
        kind,
        n: 4,
        box_shape: Some((2, 2)),
        regions: Vec::new(),
        diagonals: false,
        white: Vec::new(),
        cages: Vec::new(),
        solution: vec![
            vec![1, 2, 3, 4],
            vec![3, 4, 1, 2],
            vec![2, 1, 4, 3],
            vec![4, 3, 2, 1],
        ],
        signs: Vec::new(),
        edges: None,
        elements: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_n_connected_regions_of_n_cells() {
        for seed in 0..5 {
            let rs = regions(7, &mut Rng::new(seed));
            assert_eq!(rs.len(), 7);
            for r in &rs {
                assert_eq!(r.len(), 7);
                assert!(connected(7, r), "{r:?}");
            }
        }
    }

    #[test]
    fn killer_cages_cover_the_grid_with_distinct_digits() {
        let sol: Vec<Vec<u32>> = (0..6)
            .map(|r| (0..6).map(|c| ((r + c) % 6 + 1) as u32).collect())
            .collect();
        let cages = killer_cages(&sol, &mut Rng::new(2), 4, false);
        let mut all: Vec<At> = cages.iter().flat_map(|c| c.cells.clone()).collect();
        all.sort_unstable();
        assert_eq!(all.len(), 36);
        all.dedup();
        assert_eq!(all.len(), 36);
        for cage in &cages {
            assert!(connected(6, &cage.cells));
            let mut v: Vec<u32> = cage.cells.iter().map(|&(r, c)| sol[r][c]).collect();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), cage.cells.len());
        }
    }

    #[test]
    fn digit_sets_are_counted() {
        assert_eq!(digit_sets(9, 2, 3), 1);
        assert_eq!(digit_sets(9, 2, 10), 4);
        assert_eq!(digit_sets(9, 9, 45), 1);
        assert_eq!(digit_sets(9, 3, 5), 0);
        assert_eq!(digit_sets(16, 2, 17), 8);
    }

    #[test]
    fn box_shapes_are_as_square_as_the_size_allows() {
        assert_eq!(box_shape(9), Some((3, 3)));
        assert_eq!(box_shape(6), Some((2, 3)));
        assert_eq!(box_shape(12), Some((3, 4)));
        assert_eq!(box_shape(7), None);
    }
}
