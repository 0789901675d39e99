//! How `smtgrid generate --with ELEMENT,…` makes an element's instances
//! ([`super::ElementType::making`]): a rule over the whole grid is set
//! before the solution is filled (the fill keeps its all-different pairs),
//! and instances such as thermometers, dots and lines are drawn from the
//! filled solution so that each holds in it. Uniqueness is then proven by
//! the generator as for every kind; an element only has to say something
//! true of the solution.

use super::{Element, ElementType, Lowering, Member};
use crate::model::{Cell, Model};
use crate::rng::Rng;

/// How `generate --with` makes an element.
pub enum Making<T> {
    /// It cannot be generated yet: `--with` refuses it.
    No,
    /// A rule over the whole grid (anti-knight), put on the grid before the
    /// solution is filled: the fill keeps the all-different rules it
    /// lowers into, and a fill breaking any other of its rules is drawn
    /// again.
    Rule(T),
    /// Instances drawn from a filled solution ([`Drawing`]), each holding
    /// in it.
    Drawn(fn(&mut Drawing) -> Vec<T>),
}

/// A cell, 0-based (row, column).
type At = (usize, usize);

/// What an element's [`Making::Drawn`] hook draws from: the solution, a
/// random stream, the cells other instances already cover, and a check
/// that an instance holds in the solution.
pub struct Drawing<'a> {
    /// The grid's side; values are `1..=n`.
    pub n: usize,
    /// The solution, `n`×`n`, values from 1.
    pub solution: &'a [Vec<u32>],
    /// The seeded stream of this puzzle.
    pub rng: &'a mut Rng,
    /// The TOML key the element was asked for by (`kropki-negative`,
    /// `slow-thermometer`, or the element's first key).
    pub key: &'static str,
    /// Cells an instance already covers, so that lines and thermometers
    /// do not cross.
    pub taken: Vec<Vec<bool>>,
    /// The puzzle's layout elements (boxes, regions, cages), which some
    /// instances read when they lower (a region-sum line).
    pub layout: &'a [Element],
}

impl Drawing<'_> {
    /// The solution's value at `at`.
    pub fn value(&self, (r, c): At) -> i64 {
        i64::from(self.solution[r][c])
    }

    /// Whether `x` holds in the solution: it is lowered alone (the layout
    /// beside it, for what it reads) and its rules checked by the model's checker,
    /// the one meaning of every rule.
    pub fn holds<T: ElementType>(&self, x: &T) -> bool {
        let n = self.n;
        let cells = (0..n * n)
            .map(|i| Cell {
                row: i / n,
                col: i % n,
                lo: 1,
                hi: n as i64,
            })
            .collect();
        let model = Model {
            name: String::new(),
            title: None,
            rows: n,
            cols: n,
            cells,
            constraints: Vec::new(),
        };
        let mut l = Lowering::new(model, self.layout, false);
        x.lower(1, &mut l);
        let values: Vec<i64> = (0..n * n).map(|i| self.value((i / n, i % n))).collect();
        l.m.check(&values).is_ok()
    }

    /// Whether `at` is free of other instances.
    pub fn free(&self, (r, c): At) -> bool {
        !self.taken[r][c]
    }

    /// Marks `cells` as covered.
    pub fn take(&mut self, cells: &[At]) {
        for &(r, c) in cells {
            self.taken[r][c] = true;
        }
    }

    /// The free cells touching `at` by a side, or also by a corner with
    /// `diagonals`, not in `path`.
    pub fn next_to(&self, at: At, diagonals: bool, path: &[At]) -> Vec<At> {
        let n = self.n as isize;
        let mut out = Vec::new();
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                if (dr, dc) == (0, 0) || (!diagonals && dr != 0 && dc != 0) {
                    continue;
                }
                let (r, c) = (at.0 as isize + dr, at.1 as isize + dc);
                if r < 0 || c < 0 || r >= n || c >= n {
                    continue;
                }
                let q = (r as usize, c as usize);
                if self.free(q) && !path.contains(&q) {
                    out.push(q);
                }
            }
        }
        out
    }

    /// A random free cell, if any.
    pub fn free_cell(&mut self) -> Option<At> {
        let free: Vec<At> = (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .filter(|&a| self.free(a))
            .collect();
        (!free.is_empty()).then(|| free[self.rng.below(free.len())])
    }

    /// A random walk of up to `len` free cells, each touching the one
    /// before (diagonals count), passing each cell once.
    pub fn walk(&mut self, len: usize) -> Vec<At> {
        let Some(start) = self.free_cell() else {
            return Vec::new();
        };
        let mut path = vec![start];
        while path.len() < len {
            let last = *path.last().unwrap_or(&start);
            let options = self.next_to(last, true, &path);
            if options.is_empty() {
                break;
            }
            path.push(options[self.rng.below(options.len())]);
        }
        path
    }

    /// Every pair of orthogonal neighbours, in a random order.
    pub fn pairs(&mut self) -> Vec<[At; 2]> {
        let n = self.n;
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if c + 1 < n {
                    out.push([(r, c), (r, c + 1)]);
                }
                if r + 1 < n {
                    out.push([(r, c), (r + 1, c)]);
                }
            }
        }
        self.rng.shuffle(&mut out);
        out
    }

    /// Marks between orthogonal neighbours drawn from the solution (kropki
    /// dots, XV letters): each pair whose values `fit` (`x`, `y`) is marked
    /// by `mark` (which may draw from the stream to choose), about half of
    /// them, or every one when the element was asked for by
    /// `negative_key`, its negative rule `negative` then last.
    pub fn edge_marks<T>(
        &mut self,
        negative_key: &str,
        negative: T,
        fits: impl Fn(i64, i64) -> bool,
        mut mark: impl FnMut(&mut Rng, [At; 2], i64, i64) -> T,
    ) -> Vec<T> {
        let every = self.key == negative_key;
        let mut out = Vec::new();
        for [a, b] in self.pairs() {
            let (x, y) = (self.value(a), self.value(b));
            if !fits(x, y) || (!every && self.rng.chance(0.5)) {
                continue;
            }
            out.push(([a, b], mark(&mut *self.rng, [a, b], x, y)));
        }
        out.sort_by_key(|m| m.0);
        let mut out: Vec<T> = out.into_iter().map(|m| m.1).collect();
        if every {
            out.push(negative);
        }
        out
    }

    /// How many instances of a line-like element to draw: between a third
    /// and two thirds of the side (3 to 6 on 9×9), at least one.
    pub fn how_many(&mut self) -> usize {
        let n = self.n;
        self.rng.range((n / 3).max(1), (2 * n / 3).max(1))
    }
}

/// [`Making`] as the registry holds it: instances as [`Element`]s.
pub(crate) fn making<T: Member>() -> Making<Element> {
    match T::making() {
        Making::No => Making::No,
        Making::Rule(x) => Making::Rule(x.into_element()),
        Making::Drawn(_) => Making::Drawn(drawn::<T>),
    }
}

fn drawn<T: Member>(d: &mut Drawing) -> Vec<Element> {
    match T::making() {
        Making::Drawn(f) => f(d).into_iter().map(Member::into_element).collect(),
        _ => Vec::new(),
    }
}
