//! Every starter `smtgrid new` prints has exactly one solution, proved by a
//! real solver (z3), and `smtgrid new` lists every one of them.

use crate::common;

use common::{require, smtgrid};
use smtgrid::templates::STARTERS;

#[test]
fn every_starter_is_unique() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut failed = Vec::new();
    for s in STARTERS {
        let o = smtgrid(&["new", s.name]);
        assert_eq!(o.status.code(), Some(0), "new {}", s.name);
        assert_eq!(o.stdout, s.text.as_bytes(), "new {}", s.name);
        let path = dir.path().join(format!("{}.toml", s.name));
        std::fs::write(&path, &o.stdout).expect("the starter is written");
        let o = smtgrid(&[
            "solve",
            path.to_str().expect("a UTF-8 path"),
            "--solver",
            "z3",
            "--expect",
            "unique",
        ]);
        if o.status.code() != Some(0) {
            failed.push(format!(
                "{}: {}{}",
                s.name,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn new_without_a_name_lists_every_starter() {
    let o = smtgrid(&["new"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    for s in STARTERS {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(s.name) && l.contains(s.about())),
            "{} missing from:\n{text}",
            s.name
        );
    }
    assert!(
        text.contains("thermo") && text.contains("A thermometer sudoku"),
        "{text}"
    );
}

#[test]
fn a_variant_starter_takes_no_size_and_a_typo_gets_a_suggestion() {
    let o = smtgrid(&["new", "thermo", "--size", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("leave --size out"));
    let o = smtgrid(&["new", "thremo"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("'thermo'"));
    let o = smtgrid(&["new", "sudoku-x"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\ndiagonals = true\n"));
}

/// A variant's starter is no plain sudoku in disguise: without its
/// constraint (every element but the grid's rows, columns, boxes and
/// regions) the same givens leave several solutions, as z3 shows.
#[test]
fn every_variant_starter_needs_its_constraint() {
    require(&["z3"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let loc = smtgrid::error::Location::file("starter.toml");
    let kinds = smtgrid::puzzle::Kind::ALL.map(smtgrid::puzzle::Kind::name);
    let mut failed = Vec::new();
    for s in STARTERS.iter().filter(|s| !kinds.contains(&s.name)) {
        let mut p = smtgrid::parse::parse_str(s.text, &loc, None).expect("the starter parses");
        assert_eq!(p.len(), 1, "{}", s.name);
        let mut p = p.remove(0);
        let before = p.elements.len();
        p.elements
            .retain(|e| matches!(e.name(), "latin" | "boxes" | "regions"));
        assert!(
            p.elements.len() < before,
            "{}: no constraint to leave out",
            s.name
        );
        let path = dir.path().join(format!("{}-plain.toml", s.name));
        std::fs::write(&path, smtgrid::parse::to_toml(&p)).expect("written");
        let o = smtgrid(&[
            "solve",
            path.to_str().expect("a UTF-8 path"),
            "--solver",
            "z3",
            "--unique",
            "--format",
            "json",
        ]);
        let records: serde_json::Value =
            serde_json::from_slice(&o.stdout).expect("solve's JSON records");
        let r = &records[0];
        if r["verified"] != serde_json::json!(true) || r["unique"] != serde_json::json!(false) {
            failed.push(format!("{}: without its constraint {r}", s.name));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
