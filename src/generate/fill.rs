//! Random solution grids: every cell a value in `1..=max`, no value twice
//! in a group (a row, column, box, region, diagonal or kakuro run). A
//! backtracking search that always fills the cell with the fewest
//! candidates and tries values in a random order; a budget of steps ends
//! an unlucky search, and the caller starts another. A search that ends
//! within its budget without a grid has tried every grid ([`search`]):
//! that proves no grid keeps the groups.

use super::rng::Rng;

/// How a [`search`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Searched {
    /// A grid that keeps the groups and that `accept` took.
    Found(Vec<u32>),
    /// Every grid that keeps the groups was reached, and `accept` took
    /// none: no such grid exists.
    None,
    /// The budget ended the search first: nothing is known.
    OutOfBudget,
}

impl Searched {
    /// The grid found, if any.
    pub fn found(self) -> Option<Vec<u32>> {
        match self {
            Searched::Found(values) => Some(values),
            Searched::None | Searched::OutOfBudget => None,
        }
    }
}

/// Cells `0..cells` with values `1..=max` (at most 64), none twice in any
/// of `groups` (lists of cell indices), and a full grid `accept` takes;
/// with `extremes`, values near 1 and `max` are tried first (a kakuro run
/// of such digits has a sum few digit sets make, so its fills are far
/// more often unique). Goes on past every full grid `accept` refuses, and
/// tells a search that tried every grid ([`Searched::None`]) from one its
/// budget cut short.
pub fn search(
    cells: usize,
    max: u32,
    groups: &[Vec<usize>],
    rng: &mut Rng,
    budget: usize,
    extremes: bool,
    accept: &dyn Fn(&[u32]) -> bool,
) -> Searched {
    let mut of_cell = vec![Vec::new(); cells];
    for (g, members) in groups.iter().enumerate() {
        for &c in members {
            if let Some(list) = of_cell.get_mut(c) {
                list.push(g);
            }
        }
    }
    let all: u64 = if max >= 64 {
        u64::MAX
    } else {
        (1u64 << max) - 1
    };
    let mut s = Search {
        of_cell,
        used: vec![0; groups.len()],
        values: vec![0; cells],
        all,
        max,
        extremes,
        steps: 0,
        budget,
        accept,
    };
    if s.go(rng) {
        Searched::Found(s.values)
    } else if s.steps > s.budget {
        Searched::OutOfBudget
    } else {
        // No branch was cut by the budget (it cuts only once `steps`,
        // which never falls, is past it), and every other cut is a cell
        // left without a value: the search was complete.
        Searched::None
    }
}

struct Search<'a> {
    of_cell: Vec<Vec<usize>>,
    /// Per group, the values (bit v-1) already placed in it.
    used: Vec<u64>,
    /// 0 while a cell is empty.
    values: Vec<u32>,
    all: u64,
    max: u32,
    extremes: bool,
    steps: usize,
    budget: usize,
    accept: &'a dyn Fn(&[u32]) -> bool,
}

impl Search<'_> {
    fn free(&self, c: usize) -> u64 {
        self.of_cell[c]
            .iter()
            .fold(self.all, |m, &g| m & !self.used[g])
    }

    fn go(&mut self, rng: &mut Rng) -> bool {
        self.steps += 1;
        if self.steps > self.budget {
            return false;
        }
        // The empty cell with the fewest candidates; ties at random, so
        // grids differ in shape and not only in values.
        let mut best: Option<(usize, u64)> = None;
        let mut ties = 0;
        for c in 0..self.values.len() {
            if self.values[c] != 0 {
                continue;
            }
            let free = self.free(c);
            let n = free.count_ones();
            if n == 0 {
                return false;
            }
            match best {
                Some((_, b)) if b.count_ones() < n => {}
                Some((_, b)) if b.count_ones() == n => {
                    ties += 1;
                    if rng.below(ties + 1) == 0 {
                        best = Some((c, free));
                    }
                }
                _ => {
                    best = Some((c, free));
                    ties = 0;
                }
            }
        }
        let Some((c, free)) = best else {
            return (self.accept)(&self.values);
        };
        let mut options: Vec<u32> = (0..64).filter(|b| free >> b & 1 == 1).collect();
        rng.shuffle(&mut options);
        if self.extremes {
            let max = self.max;
            let mut keyed: Vec<(u32, u32)> = options
                .into_iter()
                .map(|b| ((b).min(max - 1 - b) * 2 + rng.below(3) as u32, b))
                .collect();
            keyed.sort_by_key(|k| k.0);
            options = keyed.into_iter().map(|k| k.1).collect();
        }
        for b in options {
            self.values[c] = b + 1;
            for &g in &self.of_cell[c] {
                self.used[g] |= 1 << b;
            }
            if self.go(rng) {
                return true;
            }
            for &g in &self.of_cell[c] {
                self.used[g] &= !(1 << b);
            }
            self.values[c] = 0;
            if self.steps > self.budget {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any grid that keeps `groups`, within `budget`.
    fn fill(cells: usize, max: u32, groups: &[Vec<usize>], seed: u64, budget: usize) -> Searched {
        search(
            cells,
            max,
            groups,
            &mut Rng::new(seed),
            budget,
            false,
            &|_| true,
        )
    }

    fn latin_groups(n: usize) -> Vec<Vec<usize>> {
        let rows = (0..n).map(|r| (0..n).map(|c| r * n + c).collect());
        let cols = (0..n).map(|c| (0..n).map(|r| r * n + c).collect());
        rows.chain(cols).collect()
    }

    #[test]
    fn a_fill_keeps_every_group_distinct_and_the_seed_repeats_it() {
        let groups = latin_groups(7);
        let a = fill(49, 7, &groups, 3, 100_000)
            .found()
            .expect("a 7x7 Latin square");
        for g in &groups {
            let mut vals: Vec<u32> = g.iter().map(|&c| a[c]).collect();
            vals.sort_unstable();
            assert_eq!(vals, (1..=7).collect::<Vec<_>>());
        }
        assert_eq!(Searched::Found(a), fill(49, 7, &groups, 3, 100_000));
    }

    #[test]
    fn an_impossible_fill_ends_within_its_budget() {
        // Three cells that all see each other, two values.
        let groups = vec![vec![0, 1, 2]];
        assert_eq!(fill(3, 2, &groups, 1, 1000), Searched::None);
        assert_eq!(fill(3, 2, &groups, 1, 2), Searched::OutOfBudget);
    }

    #[test]
    fn a_search_goes_past_the_grids_it_is_told_to_refuse() {
        // Two cells apart, values 1 and 2: two grids; refuse the one
        // starting with 1, then both.
        let groups = vec![vec![0, 1]];
        let not_one = |v: &[u32]| v[0] != 1;
        for seed in 0..4 {
            let found = search(2, 2, &groups, &mut Rng::new(seed), 100, false, &not_one);
            assert_eq!(found, Searched::Found(vec![2, 1]));
        }
        let none = |_: &[u32]| false;
        let found = search(2, 2, &groups, &mut Rng::new(0), 100, false, &none);
        assert_eq!(found, Searched::None);
    }
}
