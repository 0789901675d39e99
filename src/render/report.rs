//! The text report of a solved puzzle, as `smtgrid solve` prints it.

use super::{TextOptions, grid_text_with};
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, PuzzleResult, Uniqueness, matches_recorded};

/// The text report of one puzzle: its verified grid(s), then a status line
/// per result line; with `opts.verbose`, each followed by the other runs
/// of its race.
pub fn result_text(p: &Puzzle, r: &PuzzleResult, opts: &TextOptions) -> String {
    let mut s = format!("== {} ==\n", p.describe());
    let mut shown: Vec<&crate::model::ValueGrid> = Vec::new();
    for line in &r.lines {
        if let Some(g) = line.run.outcome.grid()
            && !shown.contains(&g)
        {
            if !shown.is_empty() {
                s.push_str(&format!("another solution, from {}:\n", line.run.solver));
            }
            s.push_str(&grid_text_with(p, g, opts));
            shown.push(g);
        }
    }
    for line in &r.lines {
        let run = &line.run;
        let version = run.version.as_deref().unwrap_or("");
        let mut text = format!(
            "{:<18} {:<7} {:<14} {:>8.1} ms",
            format!("{} {version}", run.solver).trim_end().to_string(),
            run.encoding.name(),
            match run.outcome {
                Outcome::Sat { .. } => "sat, verified",
                ref o => o.status().name(),
            },
            run.time_ms
        );
        let second = match &run.outcome {
            Outcome::Sat {
                unique: Some(Uniqueness::NotUnique(g)),
                ..
            } => Some(g),
            _ => None,
        };
        match (run.outcome.unique(), run.outcome.differs()) {
            (Some(true), _) => text.push_str("  unique"),
            (Some(false), Some(cells)) => {
                let cells: Vec<String> =
                    cells.iter().map(|&(r, c)| crate::model::rc(r, c)).collect();
                text.push_str(&format!(
                    "  NOT unique: a second solution differs in {}",
                    cells.join(" ")
                ));
            }
            (Some(false), None) => text.push_str("  NOT unique"),
            (None, _) => {}
        }
        match run.outcome.grid().and_then(|g| matches_recorded(p, g)) {
            Some(true) => text.push_str("  (= recorded solution)"),
            Some(false) if second.is_some() => text.push_str(
                "  (differs from the recorded solution: the puzzle has more than one solution)",
            ),
            Some(false) => text.push_str("  (differs from the recorded solution)"),
            None => {}
        }
        if let Some(e) = run.outcome.message() {
            text.push_str(&format!("\n    {e}"));
        }
        if run.outcome == Outcome::Unsat {
            text.push_str(&format!("\n    {}", crate::explain::no_solution_line(p)));
        }
        s.push_str(&text);
        s.push('\n');
        if let Outcome::Sat {
            unique: Some(Uniqueness::NotUnique(g)),
            ..
        } = &run.outcome
        {
            s.push_str(&format!("a second solution, from {}:\n", run.solver));
            s.push_str(&grid_text_with(p, g, opts));
        }
        for o in line.also.iter().filter(|_| opts.verbose) {
            s.push_str(&format!("  also tried: {}\n", o.describe()));
        }
    }
    if r.lines.is_empty() {
        s.push_str("no solver ran\n");
    }
    s.push('\n');
    s
}
