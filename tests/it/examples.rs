//! Every command example in the README and in `--help` runs as written, so
//! that neither can drift from what smtgrid does.
//!
//! README examples are the `smtgrid …` lines of its ```` ```sh ```` blocks
//! (run in order, each must succeed) and the `$ smtgrid …` lines of its
//! ```` ```console ```` blocks, whose output must match what follows them:
//! `[..]` stands for any text within a line, a line `...` for any number of
//! lines, and a last line `[exit: N]` for a status other than 0. Help
//! examples are the `smtgrid …` lines under "Examples:" in each command's
//! `--help`, run in order per command. Every example runs through `sh` in a
//! scratch folder that links the repository's `puzzles/`, `docs/` and `tests/`, with
//! the test binary first on PATH, so files it writes go nowhere else.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::root;

/// One example: the command line and, for console blocks, the output it
/// must print and the exit status it must end with.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    expect: Option<(Vec<String>, i32)>,
}

/// The examples of a Markdown text.
fn markdown_examples(text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, line)) = lines.next() {
        let lang = match line.trim_start().strip_prefix("```") {
            Some(l) if !l.is_empty() => l.trim().to_string(),
            _ => continue,
        };
        let mut body: Vec<(usize, &str)> = Vec::new();
        for (n, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            body.push((n + 1, l));
        }
        match lang.as_str() {
            "sh" => out.extend(sh_examples(&body)),
            "console" => out.extend(console_examples(&body)),
            _ => {}
        }
    }
    out
}

/// The `smtgrid` commands of a shell block, continuation lines joined.
fn sh_examples(body: &[(usize, &str)]) -> Vec<Example> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (n, first) = body[i];
        let mut command = first.trim().to_string();
        while command.ends_with('\\') && i + 1 < body.len() {
            command.pop();
            i += 1;
            command.push(' ');
            command.push_str(body[i].1.trim());
        }
        i += 1;
        if command.starts_with("smtgrid ") {
            out.push(Example {
                line: n,
                command,
                expect: None,
            });
        }
    }
    out
}

/// The `$ smtgrid …` commands of a console block with their output.
fn console_examples(body: &[(usize, &str)]) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for &(n, l) in body {
        if let Some(command) = l.strip_prefix("$ ") {
            out.push(Example {
                line: n,
                command: command.trim().to_string(),
                expect: Some((Vec::new(), 0)),
            });
        } else if let Some(Example {
            expect: Some((lines, status)),
            ..
        }) = out.last_mut()
        {
            match l.strip_prefix("[exit: ").and_then(|s| s.strip_suffix(']')) {
                Some(code) => *status = code.parse().expect("[exit: N] has a number"),
                None => lines.push(l.to_string()),
            }
        }
    }
    out.retain(|e| e.command.starts_with("smtgrid "));
    out
}

/// Whether one output line matches one expected line (`[..]` is any text).
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern.trim_end() == line.trim_end();
    }
    let line = line.trim_end();
    let (first, last) = (parts[0], parts[parts.len() - 1].trim_end());
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(at) => rest = &rest[at + mid.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether `actual` matches the expected lines (`...` is any lines).
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, actual[0]) && output_matches(rest, &actual[1..])
        }
    }
}

/// A scratch folder with the repository's `puzzles/`, `docs/` and `tests/` linked.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for sub in ["puzzles", "docs", "tests"] {
        std::os::unix::fs::symlink(root().join(sub), dir.path().join(sub))
            .expect("a symlink in the temporary folder");
    }
    dir
}

/// PATH with the folder of the smtgrid binary under test first.
fn path_with_smtgrid() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_smtgrid"));
    let dir = bin.parent().expect("the binary's folder");
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs every example in order in `dir`; returns a description of each
/// failure.
fn run_all(origin: &str, examples: &[Example], dir: &Path) -> Vec<String> {
    let path = path_with_smtgrid();
    let mut failures = Vec::new();
    for e in examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{} 2>&1", e.command))
            .current_dir(dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .output()
            .expect("sh runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let status = out.status.code().unwrap_or(-1);
        let (want_lines, want_status) = match &e.expect {
            Some((lines, status)) => (Some(lines), *status),
            None => (None, 0),
        };
        let actual: Vec<&str> = text.lines().collect();
        let mut wrong = Vec::new();
        if status != want_status {
            wrong.push(format!("exit status {status}, expected {want_status}"));
        }
        if let Some(lines) = want_lines
            && !output_matches(lines, &actual)
        {
            wrong.push(format!("output differs; expected:\n{}", lines.join("\n")));
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{origin}:{}: `{}`: {}\n--- it printed:\n{text}",
                e.line,
                e.command,
                wrong.join("; ")
            ));
        }
    }
    failures
}

#[test]
fn readme_examples_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = markdown_examples(&readme);
    assert!(
        examples.len() >= 5,
        "the README should have examples; found {examples:?}"
    );
    let dir = scratch();
    let failures = run_all("README.md", &examples, dir.path());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The subcommands `smtgrid --help` lists.
fn subcommands() -> Vec<String> {
    let out = common::smtgrid(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The examples under "Examples:" in a `--help` text.
fn help_examples(help: &str) -> Vec<Example> {
    help.lines()
        .enumerate()
        .skip_while(|(_, l)| !l.starts_with("Examples:"))
        .skip(1)
        .take_while(|(_, l)| l.starts_with("  "))
        .map(|(n, l)| Example {
            line: n + 1,
            command: l.trim().to_string(),
            expect: None,
        })
        .filter(|e| e.command.starts_with("smtgrid "))
        .collect()
}

#[test]
fn help_examples_run_as_written() {
    let commands = subcommands();
    assert!(commands.len() >= 5, "subcommands: {commands:?}");
    let mut failures = Vec::new();
    let mut count = 0;
    for cmd in std::iter::once(None).chain(commands.iter().map(Some)) {
        let args: Vec<&str> = cmd
            .map(String::as_str)
            .into_iter()
            .chain(["--help"])
            .collect();
        let out = common::smtgrid(&args);
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        let examples = help_examples(&help);
        count += examples.len();
        let dir = scratch();
        let origin = format!("smtgrid {}", args.join(" "));
        failures.extend(run_all(&origin, &examples, dir.path()));
    }
    assert!(count >= 10, "only {count} help examples were found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_takes_wildcards_and_skipped_lines() {
    let expected: Vec<String> = ["a [..] c", "...", "end"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(output_matches(&expected, &["a b c", "x", "y", "end"]));
    assert!(output_matches(&expected, &["a  c", "end"]));
    assert!(!output_matches(&expected, &["a b d", "end"]));
    assert!(!output_matches(&expected, &["a b c"]));
    assert!(line_matches("[..]ms", "yices2 3 ms"));
    assert!(!line_matches("x[..]x", "x"));
}
