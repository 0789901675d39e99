//! What a cage's clue says, shared by pictures and text grids: the short
//! label printed in the cage's corner, the words for a caption or legend,
//! and which cages get a label, a key (a clue too long for its corner,
//! explained in a legend) or nothing (a rule every cage shares, said once
//! in a caption).

use crate::puzzle::{Clue, Kind, Puzzle};

/// The clues of a puzzle's cages as drawn: a label per cage (its first
/// cell, the text) and the lines said under the grid.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct CageLabels {
    /// (first cell, label) per cage that carries one.
    pub(crate) labels: Vec<((usize, usize), String)>,
    /// The caption or legend lines, unwrapped.
    pub(crate) notes: Vec<String>,
}

/// Plans the cage labels of `p`: a clue every cage shares that is a rule
/// rather than a number (a set of sums, "a square") becomes one caption;
/// a label `fits` refuses becomes a key (A, B, …) that a legend line
/// explains, one key per distinct label.
pub(crate) fn cage_labels(p: &Puzzle, fits: impl Fn(&str) -> bool) -> CageLabels {
    let mut out = CageLabels::default();
    let Some(first) = p.cages().first() else {
        return out;
    };
    let rule = matches!(first.clue, Clue::SumIn(_) | Clue::Square);
    if rule && p.cages().len() > 1 && p.cages().iter().all(|c| c.clue == first.clue) {
        out.notes
            .push(format!("Every cage {}.", clue_words(&first.clue)));
        return out;
    }
    let mut keys: Vec<String> = Vec::new();
    for cage in p.cages() {
        let Some(&cell) = cage.cells.iter().min() else {
            continue;
        };
        let text = clue_label(p.kind, &cage.clue, cage.cells.len());
        if fits(&text) {
            out.labels.push((cell, text));
            continue;
        }
        let n = match keys.iter().position(|k| *k == text) {
            Some(n) => n,
            None => {
                keys.push(text);
                out.notes.push(format!(
                    "{}: {}",
                    key(keys.len() - 1),
                    clue_words(&cage.clue)
                ));
                keys.len() - 1
            }
        };
        out.labels.push((cell, key(n)));
    }
    out
}

/// The `n`-th legend key: A … Z, then AA, AB, ….
fn key(n: usize) -> String {
    let letter = |i: usize| char::from(b'A' + (i % 26) as u8);
    if n < 26 {
        letter(n).to_string()
    } else {
        format!("{}{}", letter(n / 26 - 1), letter(n))
    }
}

/// How a clue is printed in a cage's corner.
pub(crate) fn clue_label(kind: Kind, clue: &Clue, cells: usize) -> String {
    match clue {
        Clue::Sum(n) if kind == Kind::Calcudoku && cells > 1 => format!("{n}+"),
        Clue::Sum(n) => n.to_string(),
        Clue::Product(n) => format!("{n}×"),
        Clue::Difference(n) => format!("{n}−"),
        Clue::Ratio(n) => format!("{n}÷"),
        Clue::SumIn(ns) => ns.iter().map(u64::to_string).collect::<Vec<_>>().join("|"),
        Clue::Square => "□".to_string(),
    }
}

/// A clue in words, for the caption and the legend: "sums to a perfect
/// square: 4, 9, 16 or 25".
pub(crate) fn clue_words(clue: &Clue) -> String {
    match clue {
        Clue::Sum(n) => format!("sums to {n}"),
        Clue::Product(n) => format!("multiplies to {n}"),
        Clue::Difference(n) => format!("has a difference of {n}"),
        Clue::Ratio(n) => format!("has a ratio of {n}"),
        Clue::Square => "sums to a perfect square".into(),
        Clue::SumIn(ns) => {
            let list: Vec<String> = ns.iter().map(u64::to_string).collect();
            let list = match list.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => list.join(""),
            };
            let square = |n: &u64| n.isqrt() * n.isqrt() == *n;
            if ns.iter().all(square) {
                format!("sums to a perfect square: {list}")
            } else {
                format!("sums to {list}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clue_labels_follow_the_printed_conventions() {
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Sum(10), 3), "10+");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Sum(3), 1), "3");
        assert_eq!(clue_label(Kind::Killer, &Clue::Sum(15), 3), "15");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Product(12), 3), "12×");
        assert_eq!(clue_label(Kind::Calcudoku, &Clue::Ratio(2), 2), "2÷");
        assert_eq!(clue_label(Kind::Killer, &Clue::SumIn(vec![4, 9]), 2), "4|9");
    }

    #[test]
    fn rules_and_keys_read_as_words() {
        assert_eq!(
            clue_words(&Clue::SumIn(vec![4, 9, 16, 25])),
            "sums to a perfect square: 4, 9, 16 or 25"
        );
        assert_eq!(clue_words(&Clue::SumIn(vec![5, 9])), "sums to 5 or 9");
        assert_eq!(clue_words(&Clue::Product(40320)), "multiplies to 40320");
        assert_eq!(
            [0, 25, 26, 27].map(key),
            ["A", "Z", "AA", "AB"].map(String::from)
        );
    }
}
