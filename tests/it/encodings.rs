//! Every encoding on every installed solver: random solved grids of every
//! kind and size are carved into puzzles, encoded, solved by z3, yices-smt2
//! and cvc5 (and Bitwuzla, in the encodings whose logic it takes), read
//! back, decoded and verified by the model's own checker; puzzles made
//! unsolvable must stay unsat in every encoding.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use smtgrid::elements::{Element, boxes::Boxes, cages::Cages, regions::Regions, signs::Signs};
use smtgrid::encode::{Encoded, Encoding, Options, encode, size_bound};
use smtgrid::lower::lower;
use smtgrid::model::Model;
use smtgrid::puzzle::{Cage, Clue, EdgeClues, Grid, Inequality, KakuroCell, Kind, Puzzle};
use smtgrid::smtlib::reply::read_answer;
use smtgrid::smtlib::{CheckSat, Value};
use smtgrid::solver::{Cancel, Limits, Solver, run};
use std::time::Duration;

use crate::common;
use common::{per_solver, puzzle_files, solver};

/// What one solver said about one script.
#[derive(Debug)]
enum Verdict {
    Sat(BTreeMap<String, Value>),
    Unsat,
}

fn run_solver(solver: &Solver, enc: &Encoded) -> Result<Verdict, String> {
    let out = run(
        solver,
        &enc.script,
        Some(enc.logic),
        &Limits::timeout(Duration::from_secs(60)),
        &Cancel::new(),
    );
    let text = &out.stdout;
    let fail = |why: String| {
        format!(
            "{}: {why} ({})\nstdout: {text}\nstderr: {}",
            solver.label, out.end, out.stderr
        )
    };
    let answer = read_answer(text).map_err(|e| fail(e.to_string()))?;
    // After `unsat`, `(get-model)` is an error in every solver.
    if answer.results.first() != Some(&CheckSat::Unsat) && !answer.errors.is_empty() {
        return Err(fail(format!("errors: {:?}", answer.errors)));
    }
    match answer.results.first() {
        Some(CheckSat::Sat) => Ok(Verdict::Sat(answer.model)),
        Some(CheckSat::Unsat) => Ok(Verdict::Unsat),
        other => Err(fail(format!("answered {other:?}"))),
    }
}

/// Every encoding (and the plain form of onehot and bv).
fn variants() -> Vec<(Encoding, Options)> {
    let mut v = Vec::new();
    for e in Encoding::ALL {
        v.push((e, Options { plain: false }));
        if e != Encoding::Lia {
            v.push((e, Options { plain: true }));
        }
    }
    v
}

/// Runs every variant of `model` whose logic `solver` takes (Bitwuzla
/// takes no arithmetic, so no `lia`) and lets `judge` accept or refuse
/// each verdict (it is given the script it came from); a failure names the
/// variant, the solver and the puzzle.
fn on_every_variant(
    model: &Model,
    solver: &Solver,
    judge: impl Fn(&Encoded, Verdict) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    let mut ran = 0;
    for (e, opts) in variants() {
        let enc = encode(model, e, &opts);
        if !solver.accepts_logic(enc.logic) {
            continue;
        }
        ran += 1;
        let what = format!(
            "{e} (plain: {}) on {} for {}",
            opts.plain, solver.label, model.name
        );
        run_solver(solver, &enc)
            .and_then(|verdict| judge(&enc, verdict))
            .map_err(|why| TestCaseError::fail(format!("{what}: {why}")))?;
    }
    prop_assert!(
        ran >= 2,
        "{} takes no encoding of {}",
        solver.label,
        model.name
    );
    Ok(())
}

/// Every encoding on `solver` finds a solution the checker accepts.
fn assert_solved(model: &Model, solver: &Solver) -> Result<(), TestCaseError> {
    on_every_variant(model, solver, |enc, verdict| match verdict {
        Verdict::Sat(m) => {
            let values = enc
                .decoder
                .decode(&m)
                .map_err(|err| format!("{err}\n{}", enc.script))?;
            model
                .check(&values)
                .map_err(|v| format!("wrong solution: {v}\n{}", enc.script))
        }
        Verdict::Unsat => Err(format!("unsat\n{}", enc.script)),
    })
}

/// Every encoding on `solver` says unsat.
fn assert_unsat(model: &Model, solver: &Solver) -> Result<(), TestCaseError> {
    on_every_variant(model, solver, |enc, verdict| match verdict {
        Verdict::Unsat => Ok(()),
        Verdict::Sat(_) => Err(format!("sat\n{}", enc.script)),
    })
}

// ---------------------------------------------------------------------------
// Random puzzles.

/// A small deterministic generator (xorshift), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
    fn perm(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

/// A random solved sudoku with `br`×`bc` boxes: a pattern grid with digits,
/// rows within bands, bands, columns within stacks and stacks shuffled.
fn solved_sudoku(rng: &mut Rng, br: usize, bc: usize) -> Vec<Vec<u32>> {
    let n = br * bc;
    let digits = rng.perm(n);
    let pick = |rng: &mut Rng, groups: usize, size: usize| -> Vec<usize> {
        let order = rng.perm(groups);
        order
            .into_iter()
            .flat_map(|g| rng.perm(size).into_iter().map(move |i| g * size + i))
            .collect()
    };
    let rows = pick(rng, n / br, br); // bands of br rows
    let cols = pick(rng, n / bc, bc); // stacks of bc columns
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let (r, c) = (rows[r], cols[c]);
                    let v = (bc * (r % br) + r / br + c) % n;
                    digits[v] as u32 + 1
                })
                .collect()
        })
        .collect()
}

/// A random Latin square of side n.
fn solved_latin(rng: &mut Rng, n: usize) -> Vec<Vec<u32>> {
    let (rows, cols, digits) = (rng.perm(n), rng.perm(n), rng.perm(n));
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| digits[(rows[r] + cols[c]) % n] as u32 + 1)
                .collect()
        })
        .collect()
}

fn carve(rng: &mut Rng, sol: &[Vec<u32>], percent: usize) -> Grid {
    sol.iter()
        .map(|row| {
            row.iter()
                .map(|&v| rng.chance(percent).then_some(v))
                .collect()
        })
        .collect()
}

/// A random partition into connected cages of at most `max` cells; with
/// `distinct`, no cage repeats a digit of `sol`.
fn random_cages(
    rng: &mut Rng,
    sol: &[Vec<u32>],
    max: usize,
    distinct: bool,
) -> Vec<Vec<(usize, usize)>> {
    let n = sol.len();
    let mut taken = vec![vec![false; n]; n];
    let mut cages = Vec::new();
    let order = rng.perm(n * n);
    for start in order {
        let (r, c) = (start / n, start % n);
        if taken[r][c] {
            continue;
        }
        let size = 1 + rng.below(max);
        let mut cage = vec![(r, c)];
        taken[r][c] = true;
        while cage.len() < size {
            let mut next: Vec<(usize, usize)> = Vec::new();
            for &(r, c) in &cage {
                let around = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (rr, cc) in around {
                    if rr < n && cc < n && !taken[rr][cc] {
                        let v = sol[rr][cc];
                        if !distinct || cage.iter().all(|&(a, b)| sol[a][b] != v) {
                            next.push((rr, cc));
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            let (rr, cc) = next[rng.below(next.len())];
            taken[rr][cc] = true;
            cage.push((rr, cc));
        }
        cage.sort_unstable();
        cages.push(cage);
    }
    cages
}

fn cage(i: usize, clue: Clue, cells: Vec<(usize, usize)>) -> Cage {
    let clue_text = format!("{clue:?}");
    Cage {
        label: format!("c{i}"),
        clue_text,
        clue,
        cells,
    }
}

fn puzzle(
    name: &str,
    kind: Kind,
    n: usize,
    box_shape: Option<(usize, usize)>,
    givens: Grid,
) -> Puzzle {
    let mut p = Puzzle {
        givens,
        ..Puzzle::blank(name, kind, n)
    };
    if let Some((rows, cols)) = box_shape {
        p.set(Boxes { rows, cols });
    }
    p
}

const BOXES: [(usize, usize); 3] = [(2, 2), (2, 3), (3, 3)];

fn sudoku(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    sudoku_of(seed, &BOXES)
}

/// A puzzle of `kind` named `NAME-SEED` on a random solved sudoku with one
/// of `boxes`, `percent` % of its cells given; also its solution and the
/// generator, to draw the rest of the puzzle from.
fn boxed_puzzle(
    seed: u64,
    boxes: &[(usize, usize)],
    kind: Kind,
    name: &str,
    percent: usize,
) -> (Puzzle, Vec<Vec<u32>>, Rng) {
    let mut rng = Rng::new(seed);
    let (br, bc) = boxes[rng.below(boxes.len())];
    let sol = solved_sudoku(&mut rng, br, bc);
    let givens = carve(&mut rng, &sol, percent);
    let p = puzzle(
        &format!("{name}-{seed}"),
        kind,
        br * bc,
        Some((br, bc)),
        givens,
    );
    (p, sol, rng)
}

fn sudoku_of(seed: u64, boxes: &[(usize, usize)]) -> (Puzzle, Vec<Vec<u32>>) {
    let (p, sol, _) = boxed_puzzle(seed, boxes, Kind::Sudoku, "sudoku", 35);
    (p, sol)
}

fn killer(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    killer_of(seed, &BOXES)
}

fn killer_of(seed: u64, boxes: &[(usize, usize)]) -> (Puzzle, Vec<Vec<u32>>) {
    let (mut p, sol, mut rng) = boxed_puzzle(seed, boxes, Kind::Killer, "killer", 5);
    for (i, cells) in random_cages(&mut rng, &sol, 5, true)
        .into_iter()
        .enumerate()
    {
        let sum: u64 = cells.iter().map(|&(r, c)| u64::from(sol[r][c])).sum();
        let clue = match rng.below(4) {
            0 => Clue::SumIn(vec![sum, sum + 1 + rng.below(5) as u64]),
            1 if (1..)
                .map(|s: u64| s * s)
                .take_while(|&q| q <= sum)
                .any(|q| q == sum) =>
            {
                Clue::Square
            }
            _ => Clue::Sum(sum),
        };
        p.entry(|| Cages {
            cages: Vec::new(),
            distinct: true,
        })
        .cages
        .push(cage(i, clue, cells));
    }
    (p, sol)
}

fn calcudoku(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    let mut rng = Rng::new(seed);
    let n = 4 + rng.below(3);
    let sol = solved_latin(&mut rng, n);
    let givens = carve(&mut rng, &sol, 5);
    let mut p = puzzle(
        &format!("calcudoku-{seed}"),
        Kind::Calcudoku,
        n,
        None,
        givens,
    );
    for (i, cells) in random_cages(&mut rng, &sol, 4, false)
        .into_iter()
        .enumerate()
    {
        let mut vals: Vec<u64> = cells.iter().map(|&(r, c)| u64::from(sol[r][c])).collect();
        vals.sort_unstable();
        let max = *vals.last().unwrap_or(&1);
        let others = &vals[..vals.len().saturating_sub(1)];
        let (osum, oprod) = (others.iter().sum::<u64>(), others.iter().product::<u64>());
        let clue = match rng.below(4) {
            _ if cells.len() == 1 => Clue::Sum(max),
            1 => Clue::Product(vals.iter().product()),
            2 if max >= osum => Clue::Difference(max - osum),
            3 if max.is_multiple_of(oprod) => Clue::Ratio(max / oprod),
            _ => Clue::Sum(vals.iter().sum()),
        };
        p.entry(|| Cages {
            cages: Vec::new(),
            distinct: false,
        })
        .cages
        .push(cage(i, clue, cells));
    }
    (p, sol)
}

/// A random kakuro: a border of clue squares, white squares at random,
/// filled with digits distinct in every run by a randomised search.
fn kakuro(seed: u64) -> Puzzle {
    let mut rng = Rng::new(seed);
    loop {
        let (h, w) = (3 + rng.below(4), 3 + rng.below(4));
        let white: Vec<Vec<bool>> = (0..=h)
            .map(|r| (0..=w).map(|c| r > 0 && c > 0 && rng.chance(75)).collect())
            .collect();
        let cells: Vec<(usize, usize)> = (0..=h)
            .flat_map(|r| (0..=w).map(move |c| (r, c)))
            .filter(|&(r, c)| white[r][c])
            .collect();
        if cells.len() < 4 {
            continue;
        }
        let mut fill = vec![vec![0u32; w + 1]; h + 1];
        if !fill_kakuro(&mut rng, &white, &cells, 0, &mut fill) {
            continue;
        }
        let mut layout = vec![vec![KakuroCell::Block; w + 1]; h + 1];
        for r in 0..=h {
            for c in 0..=w {
                if white[r][c] {
                    layout[r][c] = KakuroCell::White;
                    continue;
                }
                let run = |dr: usize, dc: usize| {
                    let (mut rr, mut cc, mut s) = (r + dr, c + dc, 0);
                    while rr <= h && cc <= w && white[rr][cc] {
                        s += fill[rr][cc];
                        rr += dr;
                        cc += dc;
                    }
                    (s > 0).then_some(s)
                };
                let (down, across) = (run(1, 0), run(0, 1));
                if down.is_some() || across.is_some() {
                    layout[r][c] = KakuroCell::Clue { down, across };
                }
            }
        }
        let mut p = puzzle(
            &format!("kakuro-{seed}"),
            Kind::Kakuro,
            h + 1,
            None,
            vec![vec![None; w + 1]; h + 1],
        );
        p.cols = w + 1;
        p.set(smtgrid::elements::kakuro::Kakuro(layout));
        return p;
    }
}

/// A blank puzzle of `kind` named `NAME-SEED` on a random Latin square of
/// side 4 to 4 + `sizes` - 1, `percent` % of its cells given; also its
/// side, its solution and the generator, to draw the rest from.
fn latin_puzzle(
    seed: u64,
    sizes: usize,
    kind: Kind,
    name: &str,
    percent: usize,
) -> (Puzzle, usize, Vec<Vec<u32>>, Rng) {
    let mut rng = Rng::new(seed);
    let n = 4 + rng.below(sizes);
    let sol = solved_latin(&mut rng, n);
    let mut p = Puzzle::blank(&format!("{name}-{seed}"), kind, n);
    p.givens = carve(&mut rng, &sol, percent);
    (p, n, sol, rng)
}

/// A random futoshiki: a Latin square of side 4 to 6, a few givens and a
/// sign between about a third of the neighbouring pairs.
fn futoshiki(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    let (mut p, n, sol, mut rng) = latin_puzzle(seed, 3, Kind::Futoshiki, "futoshiki", 10);
    for r in 0..n {
        for c in 0..n {
            for (rr, cc) in [(r, c + 1), (r + 1, c)] {
                if rr < n && cc < n && rng.chance(35) {
                    let (a, b) = ((r, c), (rr, cc));
                    let (less, greater) = if sol[r][c] < sol[rr][cc] {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    p.entry(|| Signs(Vec::new()))
                        .0
                        .push(Inequality { less, greater });
                }
            }
        }
    }
    (p, sol)
}

/// How many of `line`'s towers are seen from its start.
fn seen(line: impl Iterator<Item = u32>) -> u32 {
    smtgrid::model::visible(&line.map(i64::from).collect::<Vec<_>>()) as u32
}

/// A random skyscrapers: a Latin square of side 4 or 5, each edge clue
/// shown with even odds, a few givens.
fn skyscrapers(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    let (mut p, n, sol, mut rng) = latin_puzzle(seed, 2, Kind::Skyscrapers, "skyscrapers", 5);
    let mut side = |f: &dyn Fn(usize) -> u32| -> Vec<Option<u32>> {
        (0..n).map(|i| rng.chance(50).then(|| f(i))).collect()
    };
    let top = side(&|c| seen((0..n).map(|r| sol[r][c])));
    let bottom = side(&|c| seen((0..n).rev().map(|r| sol[r][c])));
    let left = side(&|r| seen(sol[r].iter().copied()));
    let right = side(&|r| seen(sol[r].iter().rev().copied()));
    p.set(EdgeClues {
        top,
        bottom,
        left,
        right,
    });
    (p, sol)
}

/// The clue of `kind` ("sandwich", "x-sum", "skyscraper") for the line
/// `vals` of values 1..=`n`, read from its start.
fn side_clue(kind: &str, vals: &[u32], n: u32) -> i64 {
    let v: Vec<i64> = vals.iter().map(|&x| i64::from(x)).collect();
    match kind {
        "sandwich" => {
            let (i, j) = (
                v.iter().position(|&x| x == 1).unwrap_or(0),
                v.iter().position(|&x| x == i64::from(n)).unwrap_or(0),
            );
            v[i.min(j) + 1..i.max(j).max(i.min(j) + 1)].iter().sum()
        }
        "x-sum" => v[..v[0] as usize].iter().sum(),
        _ => smtgrid::model::visible(&v),
    }
}

/// One clue outside the grid as an element: `kind` at square `at` (row,
/// column from 0 to n+1), with `value`; a little killer goes `dir`. An
/// error for a value outside the clue's range.
fn outside_clue(
    kind: &str,
    at: (usize, usize),
    dir: (i64, i64),
    value: i64,
    n: usize,
) -> Result<Element, String> {
    use smtgrid::elements::outside::Square;
    use smtgrid::elements::{little_killer, sandwich, skyscraper, x_sum};
    let at = Square {
        row: at.0,
        col: at.1,
    };
    match kind {
        "sandwich" => sandwich::Sandwich::new(at, value, n).map(Element::from),
        "x-sum" => x_sum::XSum::new(at, value, n).map(Element::from),
        "skyscraper" => skyscraper::Skyscraper::new(at, value, n).map(Element::from),
        _ => little_killer::LittleKiller::new(at, dir, value, n).map(Element::from),
    }
}

/// A random 4×4 or 6×6 sudoku with clues outside the grid read off its
/// solution: each sandwich, X-sum and skyscraper clue around it with a
/// chance in four, a little killer from each square above the grid with
/// one in three, a few givens.
fn outside_clues(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    let (mut p, sol, mut rng) = boxed_puzzle(seed, &BOXES[..2], Kind::Sudoku, "outside", 10);
    let n = p.rows;
    let line = |side: usize, k: usize| -> ((usize, usize), Vec<u32>) {
        match side {
            0 => ((0, k + 1), (0..n).map(|r| sol[r][k]).collect()),
            1 => ((n + 1, k + 1), (0..n).rev().map(|r| sol[r][k]).collect()),
            2 => ((k + 1, 0), sol[k].clone()),
            _ => ((k + 1, n + 1), sol[k].iter().rev().copied().collect()),
        }
    };
    for kind in ["sandwich", "x-sum", "skyscraper"] {
        for side in 0..4 {
            for k in 0..n {
                if rng.chance(25) {
                    let (at, vals) = line(side, k);
                    let v = side_clue(kind, &vals, n as u32);
                    p.add(outside_clue(kind, at, (0, 0), v, n).expect("a clue in range"));
                }
            }
        }
    }
    for c in 1..=n {
        let dir = if rng.chance(50) { (1, 1) } else { (1, -1) };
        if !rng.chance(33) || (dir == (1, -1) && c == 1) || (dir == (1, 1) && c == n) {
            continue;
        }
        let (mut r, mut col, mut sum) = (0i64, c as i64 - 1 + dir.1, 0i64);
        while r < n as i64 && (0..n as i64).contains(&col) {
            sum += i64::from(sol[r as usize][col as usize]);
            r += 1;
            col += dir.1;
        }
        p.add(outside_clue("little-killer", (0, c), dir, sum, n).expect("a clue in range"));
    }
    (p, sol)
}

/// A random jigsaw whose regions are the boxes of a random sudoku, listed
/// as regions rather than boxes.
fn jigsaw(seed: u64) -> (Puzzle, Vec<Vec<u32>>) {
    let (sudoku, sol) = sudoku_of(seed, &BOXES[..2]);
    let n = sudoku.rows;
    let (br, bc) = sudoku.box_shape().unwrap_or((1, n));
    let mut p = Puzzle::blank(&format!("jigsaw-{seed}"), Kind::Jigsaw, n);
    p.givens = sudoku.givens;
    for r0 in (0..n).step_by(br) {
        for c0 in (0..n).step_by(bc) {
            p.entry(|| Regions(Vec::new())).0.push(
                (r0..r0 + br)
                    .flat_map(|r| (c0..c0 + bc).map(move |c| (r, c)))
                    .collect(),
            );
        }
    }
    (p, sol)
}

fn fill_kakuro(
    rng: &mut Rng,
    white: &[Vec<bool>],
    cells: &[(usize, usize)],
    i: usize,
    fill: &mut [Vec<u32>],
) -> bool {
    let Some(&(r, c)) = cells.get(i) else {
        return true;
    };
    let mut used = Vec::new();
    let mut cc = c - 1;
    while white[r][cc] {
        used.push(fill[r][cc]);
        cc -= 1;
    }
    let mut rr = r - 1;
    while white[rr][c] {
        used.push(fill[rr][c]);
        rr -= 1;
    }
    for d in rng.perm(9) {
        let d = d as u32 + 1;
        if !used.contains(&d) {
            fill[r][c] = d;
            if fill_kakuro(rng, white, cells, i + 1, fill) {
                return true;
            }
        }
    }
    fill[r][c] = 0;
    false
}

// ---------------------------------------------------------------------------
// Unsolvable variants.

/// Value v cannot go anywhere in the top-left box: the box's rows but the
/// last are blocked by givens in the other boxes of its band, its columns
/// but the last by givens in the other boxes of its stack, and its last
/// cell holds another given. No unit repeats a given.
fn unsat_sudoku(p: &mut Puzzle) {
    let Some((br, bc)) = p.box_shape() else {
        return;
    };
    let n = p.rows;
    p.givens = vec![vec![None; n]; n];
    let v = 1;
    for i in 0..br - 1 {
        // Row i, in box i+1 of the band, column i of that box.
        p.givens[i][(i + 1) * bc + i] = Some(v);
    }
    for j in 0..bc - 1 {
        // Column j, in box j+1 of the stack, row j of that box.
        p.givens[(j + 1) * br + j][j] = Some(v);
    }
    p.givens[br - 1][bc - 1] = Some(2);
    p.elements
        .retain(|e| !matches!(e, smtgrid::elements::Element::Cages(_)));
}

/// Value 1 is blocked from every column of row 0 but the first by givens
/// in distinct rows and columns, and the first cell holds 2.
fn unsat_latin(p: &mut Puzzle) {
    let n = p.rows;
    p.givens = vec![vec![None; n]; n];
    for k in 1..n {
        p.givens[k][k] = Some(1);
    }
    p.givens[0][0] = Some(2);
}

/// A run of two or more cells asked to sum below the least distinct sum.
fn unsat_kakuro(p: &mut Puzzle) -> bool {
    let Some(smtgrid::elements::kakuro::Kakuro(layout)) = p.get_mut() else {
        return false;
    };
    for line in layout.iter_mut() {
        for c in 0..line.len() {
            if let KakuroCell::Clue {
                across: Some(a),
                down,
            } = line[c]
            {
                let len = (c + 1..line.len())
                    .take_while(|&cc| line[cc] == KakuroCell::White)
                    .count();
                if len >= 2 {
                    let least = (len * (len + 1) / 2) as u32;
                    assert!(a >= least);
                    line[c] = KakuroCell::Clue {
                        across: Some(least - 1),
                        down,
                    };
                    return true;
                }
            }
        }
    }
    false
}

fn check_known_solution(p: &Puzzle, sol: &[Vec<u32>]) {
    let m = lower(p);
    let grid: Vec<Vec<Option<i64>>> = sol
        .iter()
        .map(|r| r.iter().map(|&v| Some(i64::from(v))).collect())
        .collect();
    m.check_grid(&grid)
        .unwrap_or_else(|v| panic!("generator made a wrong puzzle {}: {v}", p.name));
}

/// Five random cases per property and solver; a failing seed is printed,
/// not stored.
/// Five cases per property, from a fixed seed: the suite must pass or fail
/// the same way on every run (a random seed once drew a 9×9 killer whose
/// propagated `bv` script cvc5 did not solve within 60 s, failing the run
/// by chance). `PROPTEST_RNG_SEED=N` explores other cases by hand.
fn config() -> ProptestConfig {
    let base = ProptestConfig::default();
    ProptestConfig {
        cases: 5,
        failure_persistence: None,
        rng_seed: match base.rng_seed {
            RngSeed::Random => RngSeed::Fixed(0x5EED_2026),
            chosen => chosen,
        },
        ..base
    }
}

// Each property runs once per solver (`per_solver!`), so that one solver's
// failure hides no other's.

/// A puzzle generator: the puzzle made from a seed and its solution.
type Generator = fn(u64) -> (Puzzle, Vec<Vec<u32>>);

/// The property the `*_solve_in_every_encoding` tests share: every puzzle
/// `make` generates has its solution accepted by the checker, and every
/// encoding of it is solved on `label`'s solver to a grid the checker
/// accepts.
fn generated_puzzles_solve(label: &str, make: &[Generator]) {
    let solver = solver(label);
    proptest!(config(), |(seed in any::<u64>())| {
        for (p, sol) in make.iter().map(|g| g(seed)) {
            check_known_solution(&p, &sol);
            assert_solved(&lower(&p), &solver)?;
        }
    });
}

per_solver!(sudokus_solve_in_every_encoding: z3, cvc5, yices2, bitwuzla, glucose);

fn sudokus_solve_in_every_encoding(label: &str) {
    generated_puzzles_solve(label, &[sudoku]);
}

per_solver!(killers_solve_in_every_encoding: z3, cvc5, yices2, glucose);

fn killers_solve_in_every_encoding(label: &str) {
    generated_puzzles_solve(label, &[killer]);
}

per_solver!(calcudokus_solve_in_every_encoding);

fn calcudokus_solve_in_every_encoding(label: &str) {
    generated_puzzles_solve(label, &[calcudoku]);
}

per_solver!(kakuros_solve_in_every_encoding);

fn kakuros_solve_in_every_encoding(label: &str) {
    let solver = solver(label);
    proptest!(config(), |(seed in any::<u64>())| {
        assert_solved(&lower(&kakuro(seed)), &solver)?;
    });
}

per_solver!(later_kinds_solve_in_every_encoding);

fn later_kinds_solve_in_every_encoding(label: &str) {
    generated_puzzles_solve(label, &[futoshiki, skyscrapers, jigsaw]);
}

per_solver!(outside_clues_solve_in_every_encoding: z3, cvc5, yices2, glucose);

fn outside_clues_solve_in_every_encoding(label: &str) {
    generated_puzzles_solve(label, &[outside_clues]);
}

per_solver!(outside_clues_agree_with_the_checker: z3, yices2);

/// A solved grid given whole and one clue outside it with any value in
/// its range: every encoding (also unpropagated) finds the grid exactly
/// when the checker accepts it with that clue, so each encoding's form of
/// the positional sums and the diagonal sums means what `Rule::holds`
/// means, on the true value and on others.
fn outside_clues_agree_with_the_checker(label: &str) {
    let solver = solver(label);
    proptest!(config(), |(seed in any::<u64>())| {
        let (base, sol, mut rng) = boxed_puzzle(seed, &BOXES[..2], Kind::Sudoku, "agree", 100);
        let n = base.rows;
        for kind in ["sandwich", "x-sum", "skyscraper"] {
            let k = rng.below(n);
            let (at, vals) = if rng.chance(50) {
                ((0, k + 1), (0..n).map(|r| sol[r][k]).collect::<Vec<u32>>())
            } else {
                ((k + 1, n + 1), sol[k].iter().rev().copied().collect())
            };
            let truth = side_clue(kind, &vals, n as u32);
            for value in [truth, truth + 1, truth.saturating_sub(1).max(1)] {
                let mut p = base.clone();
                // A value outside the clue's range is refused on reading.
                let Ok(e) = outside_clue(kind, at, (0, 0), value, n) else {
                    continue;
                };
                p.add(e);
                let m = lower(&p);
                if value == truth {
                    prop_assert!(m.check_grid(&known(&sol)).is_ok());
                    assert_solved(&m, &solver)?;
                } else {
                    prop_assert!(m.check_grid(&known(&sol)).is_err());
                    assert_unsat(&m, &solver)?;
                }
            }
        }
    });
}

/// A solution as a grid of known values.
fn known(sol: &[Vec<u32>]) -> Vec<Vec<Option<i64>>> {
    sol.iter()
        .map(|r| r.iter().map(|&v| Some(i64::from(v))).collect())
        .collect()
}

per_solver!(unsolvable_puzzles_stay_unsat: z3, cvc5, yices2, bitwuzla, glucose);

fn unsolvable_puzzles_stay_unsat(label: &str) {
    let solver = solver(label);
    proptest!(config(), |(seed in any::<u64>())| {
        // 4×4 and 6×6 only: refuting the 9×9 takes `lia` 10–40 s (the
        // pigeonhole argument is hard for Int cells with `distinct`).
        let small = &BOXES[..2];
        let (mut p, _) = sudoku_of(seed, small);
        unsat_sudoku(&mut p);
        assert_unsat(&lower(&p), &solver)?;
        let (mut p, _) = killer_of(seed, small);
        unsat_sudoku(&mut p);
        assert_unsat(&lower(&p), &solver)?;
        let (mut p, _) = calcudoku(seed);
        unsat_latin(&mut p);
        assert_unsat(&lower(&p), &solver)?;
        let mut p = kakuro(seed);
        if unsat_kakuro(&mut p) {
            assert_unsat(&lower(&p), &solver)?;
        }
    });
}

/// Every variant's script stays within its encoding's stated size bound.
fn assert_within_bound(model: &Model) -> Result<(), TestCaseError> {
    for (e, opts) in variants() {
        let bytes = encode(model, e, &opts).script.len() as u64;
        let bound = size_bound(model, e);
        prop_assert!(
            bytes <= bound,
            "{e} (plain: {}) of {}: {bytes} bytes, bound {bound}",
            opts.plain,
            model.name
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn script_sizes_stay_within_their_bounds(seed in any::<u64>()) {
        assert_within_bound(&lower(&sudoku(seed).0))?;
        assert_within_bound(&lower(&killer(seed).0))?;
        assert_within_bound(&lower(&calcudoku(seed).0))?;
        assert_within_bound(&lower(&kakuro(seed)))?;
        assert_within_bound(&lower(&outside_clues(seed).0))?;
    }
}

// ---------------------------------------------------------------------------
// Fixed cases.

/// A product of nine 9s needs 29 bits; in narrower vectors a wrong tuple
/// could wrap around to the clue. Nine cells with no all-different rule
/// reach exactly 9^9, and 9^9 + 2^28 (equal modulo 2^28) is unsat.
#[test]
fn bv_products_do_not_wrap() {
    let cells: Vec<smtgrid::model::Cell> = (0..9)
        .map(|i| smtgrid::model::Cell {
            row: 0,
            col: i,
            lo: 1,
            hi: 9,
        })
        .collect();
    let make = |value: i64| Model {
        name: format!("product {value}"),
        title: None,
        rows: 1,
        cols: 9,
        cells: cells.clone(),
        constraints: vec![smtgrid::model::Constraint {
            rule: smtgrid::model::Rule::Product {
                cells: (0..9).collect(),
                value,
            },
            origin: "cage a".into(),
            group: smtgrid::model::Group::Cages,
        }],
    };
    let nines = 9i64.pow(9);
    let enc = encode(&make(nines), Encoding::Bv, &Options { plain: true });
    assert!(
        enc.script.contains("(_ BitVec 4)") && enc.script.contains("zero_extend 25"),
        "{}",
        enc.script
    );
    let z3 = solver("z3");
    match run_solver(&z3, &enc) {
        Ok(Verdict::Sat(m)) => {
            let values = enc.decoder.decode(&m).expect("all cells");
            assert_eq!(values, vec![9; 9]);
        }
        other => panic!("9^9 should be sat: {other:?}"),
    }
    let enc = encode(
        &make(nines + (1 << 28)),
        Encoding::Bv,
        &Options { plain: true },
    );
    assert!(matches!(run_solver(&z3, &enc), Ok(Verdict::Unsat)));
}

/// Givens are propagated: a sudoku with one blank per unit needs no
/// variables at all, and the decoder reads the grid from the givens.
#[test]
fn propagation_decides_easy_cells() {
    let mut rng = Rng::new(7);
    let sol = solved_sudoku(&mut rng, 3, 3);
    let mut givens: Grid = sol
        .iter()
        .map(|r| r.iter().map(|&v| Some(v)).collect())
        .collect();
    for i in 0..9 {
        givens[i][(i * 4) % 9] = None;
    }
    let m = lower(&puzzle("easy", Kind::Sudoku, 9, Some((3, 3)), givens));
    for e in [Encoding::Onehot, Encoding::Bv] {
        let enc = encode(&m, e, &Options::default());
        assert_eq!(enc.declarations, 0, "{}", enc.script);
        let values = enc.decoder.decode(&BTreeMap::new()).expect("all known");
        m.check(&values).expect("the solution");
        let plain = encode(&m, e, &Options { plain: true });
        assert!(plain.declarations >= 81, "{e} plain declares every cell");
        assert!(plain.script.len() > enc.script.len());
    }
}

/// A 25×25 sudoku's one-hot script stays linear in the cells: exactly-one
/// is not pairwise.
#[test]
fn onehot_stays_small_for_big_grids() {
    let m = lower(&puzzle(
        "big",
        Kind::Sudoku,
        25,
        Some((5, 5)),
        vec![vec![None; 25]; 25],
    ));
    let enc = encode(&m, Encoding::Onehot, &Options::default());
    // 625 cells × 25 values; pairwise would be 4 × 625 × 300 clauses.
    assert!(
        enc.assertions < 4 * 625 * 25 * 4,
        "{} assertions",
        enc.assertions
    );
    assert!(enc.script.len() < 12_000_000, "{} bytes", enc.script.len());
}

per_solver!(every_shipped_puzzle_is_accepted_everywhere: z3, cvc5, yices2);
per_solver!(every_form_of_the_shipped_puzzles_is_accepted: bitwuzla, glucose);

/// Every encoding's script (in a logic the solver takes) for every puzzle
/// in `puzzles/` is accepted by the solver (the body is sent without `check-sat`, so big puzzles cost
/// only their parse time), and its one-hot script is solved by it to a
/// grid the checker accepts.
fn every_shipped_puzzle_is_accepted_everywhere(label: &str) {
    accepted_and_solved(label, &shipped_puzzles());
}

/// Every puzzle of `puzzles/*.toml`, with its file.
fn shipped_puzzles() -> Vec<(PathBuf, Puzzle)> {
    let files = puzzle_files();
    assert!(!files.is_empty(), "no puzzles in puzzles/");
    let mut puzzles = Vec::new();
    for file in files {
        let loaded = smtgrid::parse::load(&file, None)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", file.display()));
        puzzles.extend(loaded.into_iter().map(|p| (file.clone(), p)));
    }
    puzzles
}

/// The same on the solvers behind a Python front end (Bitwuzla's launcher,
/// Glucose's `glucose-smt2`), whose every start and parse is slow: the
/// smallest shipped puzzles that between them have every form found in
/// `puzzles/` ([`forms`]: each kind, width of values and form of rule), so
/// each form of script the encodings write for a shipped puzzle still
/// reaches these solvers. The puzzles left out differ from those kept only
/// in size; each of them still runs on z3, cvc5 and yices2 above.
fn every_form_of_the_shipped_puzzles_is_accepted(label: &str) {
    let mut all = shipped_puzzles();
    // Smallest first: a form is carried by the first puzzle that has it.
    all.sort_by_cached_key(|(file, p)| {
        let m = lower(p);
        (m.cells.len(), m.constraints.len(), file.clone())
    });
    let mut seen = BTreeSet::new();
    let mut chosen = Vec::new();
    for (file, p) in all {
        let new: Vec<String> = forms(&p, &lower(&p))
            .into_iter()
            .filter(|f| !seen.contains(f))
            .collect();
        if !new.is_empty() {
            seen.extend(new);
            chosen.push((file, p));
        }
    }
    // Every kind reaches these solvers through a shipped puzzle.
    for kind in Kind::ALL {
        assert!(
            chosen.iter().any(|(_, p)| p.kind == kind),
            "no shipped {} puzzle among {seen:?}",
            kind.name()
        );
    }
    accepted_and_solved(label, &chosen);
}

/// What a puzzle's scripts are made of, as far as a solver's reader sees:
/// its kind, the bit width of its values, and each rule's form (the rule,
/// the forms of its target, comparison or stretch, and whether it has one,
/// two or more cells).
fn forms(p: &Puzzle, model: &Model) -> BTreeSet<String> {
    let top = model.cells.iter().map(|c| c.hi).max().unwrap_or(0);
    let mut out = BTreeSet::from([
        format!("kind={}", p.kind.name()),
        format!("width={}", 64 - top.leading_zeros()),
    ]);
    for c in &model.constraints {
        let value = serde_json::to_value(&c.rule).expect("a rule serialises");
        let Some((rule, fields)) = value.as_object().and_then(|o| o.iter().next()) else {
            continue;
        };
        let mut form = format!("rule={rule}");
        for (name, field) in fields.as_object().into_iter().flatten() {
            match field {
                serde_json::Value::String(s) => form += &format!(" {name}={s}"),
                serde_json::Value::Object(o) => {
                    form += &format!(" {name}={}", o.keys().next().map_or("", |k| k))
                }
                _ => {}
            }
        }
        form += match c.rule.cells().len() {
            0 | 1 => " cells=1",
            2 => " cells=2",
            _ => " cells=many",
        };
        out.insert(form);
    }
    out
}

/// Every encoding's body of each of `puzzles` accepted by `label`'s
/// solver, and its propagated one-hot script solved to a checked grid.
fn accepted_and_solved(label: &str, puzzles: &[(PathBuf, Puzzle)]) {
    let solver = solver(label);
    for (file, p) in puzzles {
        let model = lower(p);
        for (e, opts) in variants() {
            let enc = encode(&model, e, &opts);
            if !solver.accepts_logic(enc.logic) {
                continue;
            }
            let body = format!("{}(exit)\n", enc.body());
            let out = Command::new("timeout")
                .arg("60")
                .arg(&solver.path)
                .arg(write_temp(&body).path())
                .output()
                .unwrap_or_else(|err| panic!("cannot start {label}: {err}"));
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && !text.contains("error"),
                "{label} rejects the {e} (plain: {}) script of {}: {text}{}",
                opts.plain,
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let enc = encode(&model, Encoding::Onehot, &Options::default());
        match run_solver(&solver, &enc) {
            Ok(Verdict::Sat(m)) => {
                let values = enc.decoder.decode(&m).expect("every cell");
                model
                    .check(&values)
                    .unwrap_or_else(|v| panic!("{}: {v}", p.name));
            }
            other => panic!("{}: {label} on onehot: {other:?}", p.name),
        }
    }
}

fn write_temp(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".smt2")
        .tempfile()
        .expect("a temp file");
    std::io::Write::write_all(&mut file, text.as_bytes()).expect("write the temp file");
    file
}
