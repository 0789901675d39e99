//! Every starter `smtgrid new` prints has exactly one solution, proved by a
//! real solver (z3), and `smtgrid new` lists every one of them.

mod common;

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
