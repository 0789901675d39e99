//! Cages: the grid of cage labels, the clue grammar, and the checks that
//! tie labels and clues together (killer and calcudoku).

use std::collections::BTreeMap;

use crate::elements::kit::first_unreached;
use crate::error::rc;
use crate::error::{InputError, Location};
use crate::puzzle::{Cage, Clue};

use crate::elements::grid_text::Row;

/// How the clue grammar is explained in messages.
const CLUE_GRAMMAR: &str = "write N or N+ (sum), N* or Nx (product), N- (difference), \
     N/ (ratio), A|B|C (the sum is one of these) or square";

/// Reads one positive clue number.
fn number(t: &str, clue: &str) -> Result<u64, String> {
    let t = t.trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("'{clue}' is not a clue: {CLUE_GRAMMAR}"));
    }
    match t.parse::<u64>() {
        Ok(0) => Err(format!("clue '{clue}': its number must be at least 1")),
        Ok(v) if v <= i64::MAX as u64 => Ok(v),
        _ => Err(format!("clue '{clue}': the number {t} is too large")),
    }
}

/// Parses a clue: `N`, `N+`, `N*`, `Nx`, `N-`, `N/`, `A|B|C` or `square`.
pub fn parse_clue(text: &str) -> Result<Clue, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("square") {
        return Ok(Clue::Square);
    }
    if t.contains('|') {
        let vs = t
            .split('|')
            .map(|p| number(p, t))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Clue::SumIn(vs));
    }
    let Some(last) = t.chars().last() else {
        return Err(format!("the clue is empty: {CLUE_GRAMMAR}"));
    };
    let head = &t[..t.len() - last.len_utf8()];
    match last {
        '+' => Ok(Clue::Sum(number(head, t)?)),
        '*' | 'x' | 'X' | '×' => Ok(Clue::Product(number(head, t)?)),
        '-' | '−' => Ok(Clue::Difference(number(head, t)?)),
        '/' | '÷' => Ok(Clue::Ratio(number(head, t)?)),
        _ => Ok(Clue::Sum(number(t, t)?)),
    }
}

/// The label grid: `None` for a cell in no cage.
#[derive(Debug, Clone)]
pub(crate) struct Labels {
    /// One label per cell.
    pub grid: Vec<Vec<Option<String>>>,
    /// Where each cell was written.
    pub locs: Vec<Vec<Location>>,
}

/// Reads cage label rows (already shape-checked).
pub(crate) fn labels(rows: &[Row]) -> Result<Labels, InputError> {
    let mut grid = Vec::with_capacity(rows.len());
    let mut locs = Vec::with_capacity(rows.len());
    for row in rows {
        let mut line = Vec::with_capacity(row.cells.len());
        for tok in &row.cells {
            let t = tok.text.as_str();
            if t == "." {
                line.push(None);
            } else if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                line.push(Some(t.to_string()));
            } else {
                return Err(InputError::new(
                    tok.loc.clone(),
                    format!(
                        "'{t}' is not a cage label: labels are made of letters, digits and _; \
                         use . for a cell in no cage"
                    ),
                ));
            }
        }
        grid.push(line);
        locs.push(row.cells.iter().map(|t| t.loc.clone()).collect());
    }
    Ok(Labels { grid, locs })
}

/// A clue as written in the file, with its location.
#[derive(Debug, Clone)]
pub(crate) struct ClueText {
    /// The text (a number written as a TOML integer is turned into text).
    pub text: String,
    /// Where it is.
    pub loc: Location,
}

/// Builds the cages from the label grid and the clues, checking that every
/// cage is one connected piece, has a clue that applies to it, and that
/// every clue names a label on the grid. `n` is the grid side (values are
/// `1..=n`).
pub(crate) fn build(
    labels: &Labels,
    clues: &BTreeMap<String, ClueText>,
    default: Option<&ClueText>,
    n: usize,
    cages_loc: &Location,
) -> Result<Vec<Cage>, InputError> {
    // Labels in order of first appearance, each with its cells.
    let mut order: Vec<String> = Vec::new();
    let mut cells: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (r, line) in labels.grid.iter().enumerate() {
        for (c, l) in line.iter().enumerate() {
            if let Some(l) = l {
                let e = cells.entry(l.clone()).or_default();
                if e.is_empty() {
                    order.push(l.clone());
                }
                e.push((r, c));
            }
        }
    }
    let loc_of = |(r, c): (usize, usize)| {
        labels
            .locs
            .get(r)
            .and_then(|l| l.get(c))
            .cloned()
            .unwrap_or_else(|| cages_loc.clone())
    };
    for (label, clue) in clues {
        if !cells.contains_key(label) {
            return Err(InputError::new(
                clue.loc.clone(),
                format!(
                    "there is a clue for '{label}', but no cell of the cages grid is labelled '{label}'"
                ),
            ));
        }
    }
    let mut cages = Vec::with_capacity(order.len());
    for label in order {
        let cs = cells.remove(&label).unwrap_or_default();
        let first = cs.first().copied().unwrap_or((0, 0));
        if let Some(apart) = first_unreached(&cs) {
            return Err(InputError::new(
                loc_of(apart),
                format!(
                    "cage '{label}' is in separate pieces ({} is not connected to {}): \
                     give each piece its own label",
                    rc(apart.0, apart.1),
                    rc(first.0, first.1)
                ),
            ));
        }
        let Some(ct) = clues.get(&label).or(default) else {
            return Err(InputError::new(
                loc_of(first),
                format!(
                    "cage label '{label}' has no clue: add {label} = \"12+\" under [clues], \
                     or set default-clue"
                ),
            ));
        };
        let clue = parse_clue(&ct.text).map_err(|m| InputError::new(ct.loc.clone(), m))?;
        let where_ = if clues.contains_key(&label) {
            String::new()
        } else {
            " (the default clue)".into()
        };
        match (&clue, cs.len()) {
            (Clue::Difference(_) | Clue::Ratio(_), 1) => {
                return Err(InputError::new(
                    ct.loc.clone(),
                    format!(
                        "clue '{}'{where_} can't apply to cage '{label}': a difference or ratio \
                         needs at least two cells, but the cage is the single cell {}",
                        ct.text.trim(),
                        rc(first.0, first.1)
                    ),
                ));
            }
            (Clue::Sum(v) | Clue::Product(v), 1) if *v > n as u64 => {
                return Err(InputError::new(
                    ct.loc.clone(),
                    format!(
                        "clue '{}'{where_} can't apply to cage '{label}': it is the single cell {}, \
                         which holds a value from 1 to {n}",
                        ct.text.trim(),
                        rc(first.0, first.1)
                    ),
                ));
            }
            _ => {}
        }
        cages.push(Cage {
            label,
            clue_text: ct.text.trim().to_string(),
            clue,
            cells: cs,
        });
    }
    Ok(cages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clue_grammar() {
        assert_eq!(parse_clue("21"), Ok(Clue::Sum(21)));
        assert_eq!(parse_clue("21+"), Ok(Clue::Sum(21)));
        assert_eq!(parse_clue("60*"), Ok(Clue::Product(60)));
        assert_eq!(parse_clue("60x"), Ok(Clue::Product(60)));
        assert_eq!(parse_clue(" 6- "), Ok(Clue::Difference(6)));
        assert_eq!(parse_clue("2/"), Ok(Clue::Ratio(2)));
        assert_eq!(parse_clue("4|9|16|25"), Ok(Clue::SumIn(vec![4, 9, 16, 25])));
        assert_eq!(parse_clue("Square"), Ok(Clue::Square));
        assert!(parse_clue("0+").is_err());
        assert!(parse_clue("12%").is_err());
        assert!(parse_clue("4||9").is_err());
        assert!(parse_clue("").is_err());
        assert!(parse_clue("99999999999999999999+").is_err());
    }
}
