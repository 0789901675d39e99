//! Snapshots of `emit` for every puzzle in `puzzles/` and every encoding,
//! kept in the top-level `snapshots/` folder. A change to a generated
//! script shows up here as a diff to review (`cargo insta review`).
//!
//! To stay reviewable, a script of up to [`WHOLE_UP_TO`] bytes is kept
//! whole; a larger one by its structure: its commands other than
//! declarations and assertions, in order, with the number of declarations
//! and assertions under each `;` comment, plus its size and a hash (so any
//! change at all still shows). smtgrid's version is redacted, so a version
//! bump changes no snapshot.

use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::lower::lower;
use smtgrid::parse;

use crate::common;
use common::{puzzle_files, root};

/// A blank 4×4 sudoku, for the elements of a forms test to follow.
const BLANK_4X4: &str = "kind = \"sudoku\"\ngivens = \"\"\"\n....\n....\n....\n....\n\"\"\"\n";

/// Scripts up to this size are snapshotted whole.
const WHOLE_UP_TO: usize = 20_000;

#[test]
fn emitted_scripts_match_their_snapshots() {
    let root = root();
    let files = puzzle_files();
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
                let script = redact(&encode(&model, enc, &Options::default()).script);
                let script = if script.len() <= WHOLE_UP_TO {
                    script
                } else {
                    structure(&script)
                };
                insta::assert_snapshot!(format!("{stem}.{}", enc.name()), script);
            }
        }
    });
}

/// The forms of the positional sums (a sandwich, an X-sum) and of a little
/// killer's diagonal sum in every encoding, unpropagated (propagation
/// solves this small puzzle outright and would leave no rule to see).
#[test]
fn outside_clue_forms_match_their_snapshots() {
    let text = format!(
        r#"{BLANK_4X4}
[[sandwich]]
at = "r0c2"
value = 2

[[x-sum]]
at = "r2c5"
value = 5

[[little-killer]]
at = "r0c0"
value = 13
"#
    );
    unpropagated_forms(&text, "outside-clues");
}

/// The forms of [`smtgrid::model::Rule::Contains`] in every encoding: a
/// renban of three cells on a 4×4 holds 2 and 3, and one of 1 and 4
/// (derived; unpropagated, so every rule is written out).
#[test]
fn contains_forms_match_their_snapshots() {
    let text = format!("{BLANK_4X4}\n[[renban]]\ncells = \"r1c1 r1c2 r2c2\"\n");
    for script in unpropagated_forms(&text, "contains") {
        assert!(script.contains("; derived: renban 1"), "{script}");
    }
}

/// Snapshots `text`'s script in every encoding as `STEM.ENCODING`,
/// unpropagated (so every rule is written out), whole up to
/// [`WHOLE_UP_TO`] bytes; returns the scripts.
fn unpropagated_forms(text: &str, stem: &str) -> Vec<String> {
    let loc = smtgrid::error::Location::file(format!("{stem}.toml"));
    let puzzles = parse::parse_str(text, &loc, None).unwrap_or_else(|e| panic!("{e}"));
    let model = lower(&puzzles[0]);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        Encoding::ALL
            .into_iter()
            .map(|enc| {
                let script = redact(&encode(&model, enc, &Options { plain: true }).script);
                let script = if script.len() <= WHOLE_UP_TO {
                    script
                } else {
                    structure(&script)
                };
                insta::assert_snapshot!(format!("{stem}.{}", enc.name()), script);
                script
            })
            .collect()
    })
}

/// The script with smtgrid's version replaced by `<version>`.
fn redact(script: &str) -> String {
    script.replace(
        concat!("smtgrid ", env!("CARGO_PKG_VERSION")),
        "smtgrid <version>",
    )
}

/// A large script's structure: a header with its totals, size and hash,
/// then the script with each run of declarations and assertions replaced
/// by their counts.
fn structure(script: &str) -> String {
    let mut body = String::new();
    let (mut decls, mut asserts) = (0usize, 0usize);
    let (mut run_decls, mut run_asserts) = (0usize, 0usize);
    let flush = |body: &mut String, d: &mut usize, a: &mut usize| {
        if *d + *a > 0 {
            body.push_str(&format!("  [{d} declarations, {a} assertions]\n"));
        }
        (*d, *a) = (0, 0);
    };
    for line in script.lines() {
        if line.starts_with("(declare-") || line.starts_with("(define-") {
            decls += 1;
            run_decls += 1;
        } else if line.starts_with("(assert") {
            asserts += 1;
            run_asserts += 1;
        } else {
            flush(&mut body, &mut run_decls, &mut run_asserts);
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(&mut body, &mut run_decls, &mut run_asserts);
    format!(
        "; structure of a {} byte script (FNV-1a 64: {:016x}): {decls} declarations, \
         {asserts} assertions\n{body}",
        script.len(),
        fnv1a(script.as_bytes())
    )
}

/// FNV-1a, 64 bits: a hash that stays the same across Rust releases
/// (std's hasher may change), so the snapshot changes only with the script.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
