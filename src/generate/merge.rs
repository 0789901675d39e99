//! Killers with fewer, larger cages, as Simon Tatham's generator makes
//! them (`--cages merge`): once the givens are reduced, two neighbouring
//! cages become one (the sum of both clues) whenever the puzzle with the
//! givens kept stays unique, until no pair can merge.

use std::collections::HashSet;

use super::adapter::Item;
use super::draw::{At, Design, DrawnCage};
use super::reduce::{Asking, Halt, lowered, session};
use super::rng::Rng;
use crate::elements::kit::adjacent;
use crate::explain::ask::{Answer, Extra};

/// The pairs of cages of `d` that could become one: they touch, their
/// digits in the solution all differ (a killer cage's digits do), and
/// together they hold at most `max` cells.
fn pairs(d: &Design, max: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let cages = &d.cages;
    for i in 0..cages.len() {
        for j in i + 1..cages.len() {
            let (a, b) = (&cages[i].cells, &cages[j].cells);
            if a.len() + b.len() > max || !a.iter().any(|&x| b.iter().any(|&y| adjacent(x, y))) {
                continue;
            }
            let mut digits: Vec<u32> = a.iter().chain(b).map(|&(r, c)| d.solution[r][c]).collect();
            digits.sort_unstable();
            digits.dedup();
            if digits.len() == a.len() + b.len() {
                out.push((i, j));
            }
        }
    }
    out
}

/// `d` with cages `i` and `j` made one, in place of `i`.
fn merged(d: &Design, i: usize, j: usize) -> Design {
    let mut m = d.clone();
    let b = m.cages.remove(j);
    let a = &mut m.cages[i];
    a.cells.extend(b.cells);
    a.cells.sort_unstable();
    a.value += b.value;
    m
}

/// The largest merged cage of an `n`×`n` killer: a cage of all `n`
/// digits would say nothing.
pub fn max_cage(n: usize) -> usize {
    n - 1
}

/// Merges neighbouring cages of `d` while the puzzle with the givens
/// `keep` is unique, pairs tried in random order; returns the design and
/// the questions asked. Each try is a fresh session (the merged cage is a
/// statement the last one did not hold) asked one question, whose `unsat`
/// proves the merged puzzle unique; a pair that gave a second solution is
/// not tried again, as merging more only adds solutions.
pub(super) fn merge(
    at: &Asking,
    d: &Design,
    keep: &HashSet<Item>,
    rng: &mut Rng,
) -> Result<(Design, usize), Halt> {
    let mut d = d.clone();
    let mut questions = 0;
    let mut refused: HashSet<(Vec<At>, Vec<At>)> = HashSet::new();
    let key = |a: &DrawnCage, b: &DrawnCage| (a.cells.clone(), b.cells.clone());
    loop {
        let open: Vec<(usize, usize)> = pairs(&d, max_cage(d.n))
            .into_iter()
            .filter(|&(i, j)| !refused.contains(&key(&d.cages[i], &d.cages[j])))
            .collect();
        if open.is_empty() {
            return Ok((d, questions));
        }
        let (i, j) = open[rng.below(open.len())];
        let m = merged(&d, i, j);
        let (model, statements, solution) = lowered(&m, at.name, |it| keep.contains(it))?;
        let mut asker = session(&model, &statements, at.solver, at.deadline, at.cancel)?;
        let all: Vec<usize> = (0..statements.len()).collect();
        questions += 1;
        match asker.ask(&all, &[Extra::Differs(solution)])? {
            Answer::Unsat(_) => d = m,
            Answer::Sat(_) => {
                refused.insert(key(&d.cages[i], &d.cages[j]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_touch_and_keep_their_digits_apart() {
        let cage = |cells: Vec<At>, value| DrawnCage {
            cells,
            op: None,
            value,
        };
        let d = Design {
            cages: vec![
                cage(vec![(0, 0), (0, 1)], 3),
                cage(vec![(0, 2), (0, 3)], 7),
                cage(vec![(1, 0), (1, 1)], 7),
                cage(vec![(2, 0), (3, 0)], 7),
            ],
            ..crate::generate::draw::four_by_four(crate::puzzle::Kind::Killer)
        };
        // 0+1 touch with digits 1 2 3 4; 0+2 touch with 1 2 3 4; 2+3
        // touch with 3 4 2 4 (a 4 twice); 1+3 do not touch.
        assert_eq!(pairs(&d, 4), [(0, 1), (0, 2)]);
        assert_eq!(pairs(&d, 3), []);
        let m = merged(&d, 0, 2);
        assert_eq!(m.cages.len(), 3);
        assert_eq!(m.cages[0].cells, [(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(m.cages[0].value, 10);
    }
}
