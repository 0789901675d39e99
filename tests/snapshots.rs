//! Snapshots of `emit` for every puzzle in `puzzles/` and every encoding,
//! kept in the top-level `snapshots/` folder. A change to a generated
//! script shows up here as a diff to review (`cargo insta review`).

use std::path::PathBuf;

use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::lower::lower;
use smtgrid::parse;

#[test]
fn emitted_scripts_match_their_snapshots() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("puzzles"))
        .expect("puzzles/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root.join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for f in &files {
            let rel = f.strip_prefix(&root).expect("inside the repository");
            let puzzles = parse::load(rel, None).unwrap_or_else(|e| panic!("{e}"));
            let model = lower(&puzzles[0]);
            let stem = f
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("a UTF-8 name");
            for enc in Encoding::ALL {
                let script = encode(&model, enc, &Options::default()).script;
                insta::assert_snapshot!(format!("{stem}.{}", enc.name()), script);
            }
        }
    });
}
