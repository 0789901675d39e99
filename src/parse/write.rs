//! Writing a [`Puzzle`] as a native TOML file, so that a puzzle read from
//! any format can be edited by hand. Reading the text back gives the same
//! puzzle (but for its name, which comes from the file).

use crate::elements::kit::quoted;
use crate::elements::signs::Signs;
use crate::elements::{Element, REGISTRY, TomlWriter};
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
    let mut out = TomlWriter::new(p.kind, p.rows, p.cols, &p.givens);
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

/// Writes what the puzzle's elements hold under the kind's grid key
/// `key`, each through its own hook, at the place the kind's key order
/// gives it.
fn kind_key(p: &Puzzle, key: &str, out: &mut TomlWriter) {
    kind_key_of(&p.elements, key, out);
}

/// [`kind_key`] for `elements`.
fn kind_key_of(elements: &[Element], key: &str, out: &mut TomlWriter) {
    for entry in REGISTRY {
        (entry.write_key)(key, elements, out);
    }
}

fn latin(p: &Puzzle, out: &mut TomlWriter) {
    kind_key(p, "box", out);
    kind_key(p, "diagonals", out);
    kind_key(p, "top", out);
    kind_key(p, "regions", out);
    kind_key(p, "distinct-cages", out);
    let any_given = p.givens.iter().flatten().any(Option::is_some);
    if matches!(p.kind, Kind::Sudoku | Kind::Jigsaw) || any_given {
        out.block("givens", &value_rows(&p.givens));
    }
    if let Some(s) = &p.solution {
        out.block("solution", &value_rows(s));
    }
    kind_key(p, "cages", out);
}

/// The futoshiki grid, through its signs' element, a futoshiki without
/// signs (one `generate` made) with none.
fn futoshiki(p: &Puzzle, out: &mut TomlWriter) {
    if p.get::<Signs>().is_some() {
        kind_key(p, "grid", out);
    } else {
        kind_key_of(&[Element::Signs(Signs(Vec::new()))], "grid", out);
    }
    if let Some(s) = &p.solution {
        out.block("solution", &value_rows(s));
    }
}

fn kakuro(p: &Puzzle, out: &mut TomlWriter) {
    if p.kakuro().is_none() {
        return;
    }
    kind_key(p, "grid", out);
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
