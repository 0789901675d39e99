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
/// order ([`kinds::written_keys`]), each through the element that holds
/// it, or the puzzle's own givens and solution; then every other
/// element's own keys and tables ([`crate::elements::ElementType::write`]);
/// last the tables a generated puzzle ends with ([`crate::puzzle::About`]).
pub fn to_toml(p: &Puzzle) -> String {
    let mut out = TomlWriter::new(p.kind, p.rows, p.cols, &p.givens);
    out.key(&format!("kind = {}\n", quoted(p.kind.name())));
    for (key, text) in [
        ("title", &p.title),
        ("author", &p.about.author),
        ("rules", &p.about.rules),
    ] {
        if let Some(t) = text {
            out.key(&format!("{key} = {}\n", quoted(t)));
        }
    }
    for &key in kinds::written_keys(p.kind) {
        match key {
            "givens" => {
                let any_given = p.givens.iter().flatten().any(Option::is_some);
                if kinds::writes_blank_givens(p.kind) || any_given {
                    out.block("givens", &value_rows(&p.givens));
                }
            }
            "solution" => {
                if let Some(s) = &p.solution {
                    out.block("solution", &value_rows(s));
                }
            }
            _ => kind_key(p, key, &mut out),
        }
    }
    for entry in REGISTRY {
        if !entry.keys.iter().any(|k| kinds::is_grid_key(k)) {
            (entry.write)(&p.elements, &mut out);
        }
    }
    for (_, table) in &p.about.tables {
        out.table(table);
    }
    out.finish()
}

/// Writes what the puzzle's elements hold under the kind's grid key
/// `key`, each through its own hook; a futoshiki without signs (one
/// `generate` made) writes its grid as its signs' element with none
/// would.
fn kind_key(p: &Puzzle, key: &str, out: &mut TomlWriter) {
    let none = [Element::Signs(Signs(Vec::new()))];
    let elements = if p.kind == Kind::Futoshiki && p.get::<Signs>().is_none() {
        &none[..]
    } else {
        &p.elements[..]
    };
    for entry in REGISTRY {
        (entry.write_key)(key, elements, out);
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
