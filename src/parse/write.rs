//! Writing a [`Puzzle`] as a native TOML file, so that a puzzle read from
//! any format can be edited by hand. Reading the text back gives the same
//! puzzle (but for its name, which comes from the file).

use std::fmt::Write;

use crate::elements::kakuro;
use crate::elements::kit::{label_rows, quoted};
use crate::elements::signs::sign_between;
use crate::elements::{REGISTRY, TomlWriter, by_key};
use crate::kinds;
use crate::puzzle::{Grid, Kind, Puzzle};

/// A grid of values as the native format writes it: one row per line,
/// without spaces up to 9 wide (values are single digits there), with
/// spaces beyond; `.` is a blank.
fn value_rows(g: &Grid) -> String {
    let wide = g.first().map_or(0, Vec::len) > 9;
    let mut s = String::new();
    for row in g {
        let cells: Vec<String> = row
            .iter()
            .map(|v| v.map_or_else(|| ".".to_string(), |v| v.to_string()))
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1);
        if wide {
            let padded: Vec<String> = cells.iter().map(|c| format!("{c:>width$}")).collect();
            s.push_str(&padded.join(" "));
        } else {
            s.push_str(&cells.concat());
        }
        s.push('\n');
    }
    s
}

/// The native TOML text of a puzzle: its kind's grid keys in the kind's
/// order (where an element reads one, such as `diagonals`, through that
/// element's own hook), then every other element's own keys and tables
/// ([`crate::elements::ElementType::write`]).
pub fn to_toml(p: &Puzzle) -> String {
    let mut out = TomlWriter::default();
    out.key(&format!("kind = {}\n", quoted(p.kind.name())));
    if let Some(t) = &p.title {
        out.key(&format!("title = {}\n", quoted(t)));
    }
    match p.kind {
        Kind::Kakuro => kakuro(p, &mut out),
        Kind::Futoshiki => futoshiki(p, &mut out),
        Kind::Sudoku | Kind::Killer | Kind::Calcudoku | Kind::Jigsaw | Kind::Skyscrapers => {
            latin(p, &mut out)
        }
    }
    for entry in REGISTRY {
        if !entry.keys.iter().any(|k| kinds::is_grid_key(k)) {
            (entry.write)(&p.elements, &mut out);
        }
    }
    out.finish()
}

/// Writes the element that reads the kind's grid key `key`, through its
/// own write hook, at the place the kind's key order gives it.
fn kind_key(p: &Puzzle, key: &str, out: &mut TomlWriter) {
    if let Some(entry) = by_key(key) {
        (entry.write)(&p.elements, out);
    }
}

fn latin(p: &Puzzle, out: &mut TomlWriter) {
    kind_key(p, "box", out);
    kind_key(p, "diagonals", out);
    kind_key(p, "top", out);
    kind_key(p, "regions", out);
    if p.kind == Kind::Killer && !p.distinct_cages() {
        out.key("distinct-cages = false\n");
    }
    let any_given = p.givens.iter().flatten().any(Option::is_some);
    if matches!(p.kind, Kind::Sudoku | Kind::Jigsaw) || any_given {
        out.block("givens", &value_rows(&p.givens));
    }
    if let Some(s) = &p.solution {
        out.block("solution", &value_rows(s));
    }
    if p.cages().is_empty() {
        return;
    }
    let mut labels = vec![vec![None; p.cols]; p.rows];
    for cage in p.cages() {
        for &(r, c) in &cage.cells {
            labels[r][c] = Some(cage.label.clone());
        }
    }
    out.block("cages", &label_rows(&labels));
    let mut clues = String::from("[clues]\n");
    for cage in p.cages() {
        let _ = writeln!(clues, "{} = {}", cage.label, quoted(&cage.clue_text));
    }
    out.table(&clues);
}

/// The futoshiki grid: values with `<`/`>` between neighbours of a row, and
/// a line of `^`/`v` under the cells of a row whose neighbour below has a
/// sign, each straight under its cell.
fn futoshiki(p: &Puzzle, out: &mut TomlWriter) {
    let n = p.rows;
    let text = |v: Option<u32>| v.map_or_else(|| ".".to_string(), |v| v.to_string());
    let cw = p
        .givens
        .iter()
        .flatten()
        .map(|v| text(*v).len())
        .max()
        .unwrap_or(1);
    let sign = |a, b| sign_between(p.inequalities(), a, b);
    let mut rows = String::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            let _ = write!(line, "{:<cw$}", text(p.givens[r][c]));
            if c + 1 < n {
                let s = match sign((r, c), (r, c + 1)) {
                    Some(true) => '<',
                    Some(false) => '>',
                    None => ' ',
                };
                let _ = write!(line, " {s} ");
            }
        }
        rows.push_str(line.trim_end());
        rows.push('\n');
        if r + 1 < n {
            let mut below = String::new();
            for c in 0..n {
                let s = match sign((r, c), (r + 1, c)) {
                    Some(true) => '^',
                    Some(false) => 'v',
                    None => ' ',
                };
                let _ = write!(below, "{s:<width$}", width = cw + 3);
            }
            let below = below.trim_end();
            if !below.is_empty() {
                rows.push_str(below);
                rows.push('\n');
            }
        }
    }
    out.block("grid", &rows);
    if let Some(s) = &p.solution {
        out.block("solution", &value_rows(s));
    }
}

fn kakuro(p: &Puzzle, out: &mut TomlWriter) {
    let Some(layout) = &p.kakuro() else { return };
    out.block("grid", &kakuro::toml_grid(layout));
    if let Some(s) = &p.solution {
        out.block("solution", &value_rows(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;
    use crate::parse::{load, parse_str};

    /// Every TOML puzzle of `puzzles/` reads back from its TOML as itself
    /// (the collections of line files are named `FILE:LINE`, which a TOML
    /// file cannot keep).
    #[test]
    fn puzzles_round_trip() {
        let mut seen = 0;
        for entry in std::fs::read_dir("puzzles").expect("puzzles/") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|x| x != "toml") {
                continue;
            }
            for p in load(&path, None).expect("a valid puzzle") {
                let text = to_toml(&p);
                let back = parse_str(&text, &Location::file(&path), None)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
                assert_eq!(back, vec![p], "{}:\n{text}", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 10, "only {seen} puzzles");
    }
}
