//! User solver profiles: `$XDG_CONFIG_HOME/smtgrid/profiles.toml` and
//! `--profiles FILE`, against the real z3 (a missing z3 fails the tests).

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common;
use common::{bin, require, root};

/// `smtgrid ARGS…` with `XDG_CONFIG_HOME` set to `config`.
fn with_config(config: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .env("XDG_CONFIG_HOME", config)
        .current_dir(root())
        .output()
        .expect("the smtgrid binary runs")
}

/// A temporary config folder whose `smtgrid/profiles.toml` holds `text`.
fn config_with(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join("smtgrid")).expect("smtgrid/");
    std::fs::write(dir.path().join("smtgrid/profiles.toml"), text).expect("written");
    dir
}

/// The one JSON line of a `solve … --format jsonl` on one puzzle.
fn one_run(o: &Output) -> Value {
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(lines[0]).expect("JSON")
}

const MY_Z3: &str = r#"[[solver]]
name = "myz3"
binaries = ["z3"]
oneshot_args = ["-smt2"]
version_args = ["--version"]
"#;

#[test]
fn a_user_profile_adds_a_solver_that_solves() {
    require(&["z3"]);
    let config = config_with(MY_Z3);
    let o = with_config(
        config.path(),
        &[
            "solve",
            "puzzles/sudoku-4x4.toml",
            "--solver",
            "myz3",
            "--encoding",
            "lia",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let run = one_run(&o);
    assert_eq!(run["solver"], "myz3");
    assert_eq!(run["status"], "sat");
    assert_eq!(run["verified"], true);
    let listed = with_config(config.path(), &["solvers", "--format", "json"]);
    let all: Vec<Value> = serde_json::from_slice(&listed.stdout).expect("JSON");
    let file = config.path().join("smtgrid/profiles.toml");
    let mine = all
        .iter()
        .find(|s| s["name"] == "myz3")
        .expect("myz3 listed");
    assert_eq!(mine["profile_file"], file.display().to_string());
    assert_eq!(mine["found"], true);
    let z3 = all.iter().find(|s| s["name"] == "z3").expect("z3 listed");
    assert_eq!(z3["profile_file"], Value::Null);
}

#[test]
fn a_user_profile_overrides_the_built_in_one_and_the_flag_replaces_the_file() {
    require(&["z3"]);
    // The XDG file is broken: `--profiles` is read instead of it.
    let config = config_with("not toml at all [");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("mine.toml");
    std::fs::write(
        &file,
        "[[solver]]\nname = \"z3\"\nbinaries = [\"z3\"]\n\
         oneshot_args = [\"-smt2\", \"sat.random_seed=7\"]\nversion_args = [\"--version\"]\n",
    )
    .expect("written");
    let flag = file.display().to_string();
    let o = with_config(
        config.path(),
        &[
            "--profiles",
            &flag,
            "solve",
            "puzzles/sudoku-4x4.toml",
            "--solver",
            "z3",
            "--encoding",
            "lia",
            "--mode",
            "process",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let run = one_run(&o);
    assert_eq!(run["verified"], true);
    let command: Vec<&str> = run["command"]
        .as_array()
        .expect("a command")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(command.contains(&"sat.random_seed=7"), "{command:?}");
    // Without the flag the broken XDG file is an input error.
    let o = with_config(config.path(), &["solvers"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let xdg = config.path().join("smtgrid/profiles.toml");
    assert!(err.contains(&format!("{}:1:", xdg.display())), "{err}");
}

#[test]
fn bad_profiles_files_name_the_file_line_and_column() {
    let cases = [
        (
            format!("{MY_Z3}colour = \"red\"\n"),
            "6:1",
            "unknown field `colour`",
        ),
        (
            "[[solver]]\nname = \"a\"\nbinaries = \"z3\"\noneshot_args = []\n".to_string(),
            "3:12",
            "invalid type",
        ),
        (
            format!("{MY_Z3}{MY_Z3}"),
            "7:8",
            "already defined on line 2",
        ),
        (
            "[[solver]]\nname = \"a\"\noneshot_args = []\n".to_string(),
            "1:1",
            "missing field `binaries`",
        ),
        (
            "timeout = 3\n".to_string(),
            "1:1",
            "unknown field `timeout`",
        ),
    ];
    for (text, at, says) in cases {
        let config = config_with(&text);
        let o = with_config(config.path(), &["solvers"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        let file = config.path().join("smtgrid/profiles.toml");
        let want = format!("{}:{at}: ", file.display());
        assert!(err.contains(&want) && err.contains(says), "{text}: {err}");
        assert!(err.contains("[[solver]]"), "no fix given: {err}");
    }
}

#[test]
fn a_missing_profiles_file_given_by_flag_is_an_input_error() {
    let o = bin()
        .args([
            "solvers",
            "--profiles",
            "/nonexistent/smtgrid-profiles.toml",
        ])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/smtgrid-profiles.toml"));
}
