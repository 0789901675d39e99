//! Importing puzzles from f-puzzles, SudokuPad and ISS: links and strings
//! this file writes itself (f-puzzles JSON compressed with lz-string,
//! SudokuPad's abbreviated text, ISS strings) solved with `--unique` by real
//! solvers to their recorded solutions, files of links named `FILE:LINE`,
//! the round trip through `convert --to fpuzzles`, and bad input refused
//! with exit status 2 and a message naming the line.

use crate::common;

use std::path::Path;

use common::{bin, smtgrid};
use serde_json::{Value, json};

/// `https://www.f-puzzles.com/?load=…` for `puzzle`.
fn fpuzzles_link(puzzle: &Value) -> String {
    format!(
        "https://www.f-puzzles.com/?load={}",
        lz_str::compress_to_base64(puzzle.to_string().as_str())
    )
}

/// An f-puzzles grid of `n`×`n` from rows of digits (`.` blank), every
/// digit a given.
fn fp_grid(rows: &[&str]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                Value::Array(
                    r.chars()
                        .map(|ch| match ch.to_digit(10) {
                            Some(d) => json!({"value": d, "given": true}),
                            None => json!({}),
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

/// A solution as f-puzzles writes it: row-major digits.
fn fp_solution(rows: &[&str]) -> Value {
    rows.iter()
        .flat_map(|r| r.chars().map(|c| c.to_digit(10).expect("a digit")))
        .collect()
}

const SUDOKU4: [&str; 4] = ["4.1.", ".2..", "..3.", ".4.1"];
const SUDOKU4_SOLUTION: [&str; 4] = ["4312", "1243", "2134", "3421"];

/// The 4×4 sudoku as an f-puzzles puzzle with its recorded solution.
fn sudoku4() -> Value {
    json!({
        "size": 4,
        "title": "Imported 4x4",
        "author": "smtgrid tests",
        "ruleset": "Normal sudoku rules apply.",
        "grid": fp_grid(&SUDOKU4),
        "solution": fp_solution(&SUDOKU4_SOLUTION),
        "line": [{"lines": [["R1C1", "R1C2"]], "outlineC": "#60C060", "width": 0.3}],
        "text": [{"cells": ["R2C2"], "value": "hi", "fontC": "#000000", "size": 0.5}],
        "diagonal+": false,
        "negative": [],
    })
}

const KILLER6_SOLUTION: [&str; 6] = ["653214", "421536", "216345", "534162", "165423", "342651"];

/// A 6×6 killer (2×3 boxes) with one given, as f-puzzles killer cages.
fn killer6() -> Value {
    let cages: [(&[&str], u32); 14] = [
        (&["R1C1", "R1C2"], 11),
        (&["R1C3", "R1C4", "R2C3"], 6),
        (&["R1C5", "R1C6"], 5),
        (&["R2C1", "R3C1"], 6),
        (&["R2C2", "R3C2"], 3),
        (&["R2C4", "R3C4"], 8),
        (&["R2C5", "R2C6", "R3C5"], 13),
        (&["R3C3", "R4C2", "R4C3"], 13),
        (&["R3C6", "R4C6", "R5C6"], 10),
        (&["R4C1", "R5C1", "R6C1"], 9),
        (&["R4C4", "R5C3", "R5C4"], 10),
        (&["R4C5", "R5C5"], 8),
        (&["R5C2", "R6C2", "R6C3"], 12),
        (&["R6C4", "R6C5", "R6C6"], 12),
    ];
    json!({
        "size": 6,
        "grid": fp_grid(&["......"; 6]),
        "killercage": cages.iter().map(|(cells, sum)| json!({"cells": cells, "value": sum.to_string()})).collect::<Vec<_>>(),
        "solution": fp_solution(&KILLER6_SOLUTION),
    })
}

const JIGSAW9_REGIONS: [&str; 9] = [
    "aaabbcccc",
    "aaabbbccc",
    "aadbbbbcc",
    "addeeefff",
    "dddeeffff",
    "dddeeeeff",
    "gggghhiii",
    "ggghhhiii",
    "gghhhhiii",
];
const JIGSAW9_GIVENS: [&str; 9] = [
    "....5.321",
    "6.4......",
    ".2.......",
    "........3",
    "....2....",
    ".4...3.76",
    ".39......",
    ".....1.9.",
    "2..8.....",
];
const JIGSAW9_SOLUTION: [&str; 9] = [
    "987654321",
    "654312987",
    "321987465",
    "198765243",
    "763428159",
    "542193876",
    "839546712",
    "476231598",
    "215879634",
];

/// The 9×9 jigsaw in SudokuPad's abbreviated ("zipped") form, as an `scl`
/// link would carry it: unquoted short keys, `'` strings, empty cells left
/// out of the lists.
fn jigsaw9_scl() -> String {
    let cells: Vec<String> = JIGSAW9_GIVENS
        .iter()
        .map(|r| {
            let cs: Vec<String> = r
                .chars()
                .map(|c| {
                    c.to_digit(10)
                        .map_or(String::new(), |d| format!("{{v:{d}}}"))
                })
                .collect();
            format!("[{}]", cs.join(","))
        })
        .collect();
    let mut regions: Vec<Vec<String>> = vec![Vec::new(); 9];
    for (r, row) in JIGSAW9_REGIONS.iter().enumerate() {
        for (c, l) in row.bytes().enumerate() {
            regions[usize::from(l - b'a')].push(format!("[{r},{c}]"));
        }
    }
    let regions: Vec<String> = regions
        .iter()
        .map(|g| format!("[{}]", g.join(",")))
        .collect();
    format!(
        "{{id:'jig',metadata:{{author:'smtgrid',t:'Jigsaw \\'9\\'',solution:'{}'}},cs:50,ce:[{}],re:[{}]}}",
        JIGSAW9_SOLUTION.concat(),
        cells.join(","),
        regions.join(",")
    )
}

fn scl_link(text: &str) -> String {
    format!(
        "https://sudokupad.app/scl{}",
        lz_str::compress_to_base64(text)
    )
}

/// Fails with the command's standard error unless it exited 0.
fn succeeded(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `smtgrid solve ARGS --unique --format json`: the one record's grid,
/// which must be verified and unique.
fn solve_unique(args: &[&str]) -> Vec<Vec<u32>> {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--unique", "--format", "json", "--solver", "yices2"]);
    common::require(&["yices2"]);
    let out = smtgrid(&all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{all:?}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records: Vec<Value> = serde_json::from_str(&stdout).expect("a JSON array");
    assert_eq!(records.len(), 1, "{stdout}");
    let r = &records[0];
    assert_eq!(r["verified"], json!(true), "{r}");
    assert_eq!(r["unique"], json!(true), "{r}");
    serde_json::from_value(r["grid"].clone()).expect("a grid")
}

/// `smtgrid solve INPUT` with yices2 finds no solution.
fn assert_unsat(input: &str) {
    common::require(&["yices2"]);
    let out = smtgrid(&["solve", input, "--format", "json", "--solver", "yices2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"status\":\"unsat\""), "{input}: {text}");
}

/// `smtgrid convert ARGS`, which must succeed: its TOML and its notes.
fn converted(args: &[&str]) -> (String, String) {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    let out = smtgrid(&all);
    succeeded(&out);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn digits(rows: &[&str]) -> Vec<Vec<u32>> {
    rows.iter()
        .map(|r| r.chars().map(|c| c.to_digit(10).expect("digit")).collect())
        .collect()
}

#[test]
fn an_fpuzzles_link_solves_uniquely_to_its_recorded_solution() {
    let link = fpuzzles_link(&sudoku4());
    assert_eq!(solve_unique(&[&link]), digits(&SUDOKU4_SOLUTION));
}

#[test]
fn a_sudokupad_fpuzzles_killer_solves_uniquely() {
    let z = lz_str::compress_to_base64(killer6().to_string().as_str());
    let link = format!("https://sudokupad.app/fpuzzles{z}");
    assert_eq!(solve_unique(&[&link]), digits(&KILLER6_SOLUTION));
}

#[test]
fn a_sudokupad_scl_jigsaw_solves_uniquely() {
    let link = scl_link(&jigsaw9_scl());
    assert_eq!(solve_unique(&[&link]), digits(&JIGSAW9_SOLUTION));
    let out = smtgrid(&["convert", &link]);
    let toml = String::from_utf8_lossy(&out.stdout);
    succeeded(&out);
    assert!(
        toml.contains("kind = \"jigsaw\"") && toml.contains("title = \"Jigsaw '9'\""),
        "{toml}"
    );
}

#[test]
fn an_iss_killer_string_solves_uniquely() {
    let iss = ".Shape~4x4.Cage~7~R1C1~R1C2.Cage~3~R1C3~R1C4.Cage~5~R2C1~R3C1\
               .Cage~7~R2C2~R2C3~R3C2.Cage~7~R2C4~R3C4.Cage~6~R3C3~R4C3~R4C4.Cage~5~R4C1~R4C2";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["4321", "2143", "3214", "1432"])
    );
}

#[test]
fn a_file_of_links_names_each_puzzle_file_and_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mine.links");
    let text = format!(
        "# my puzzles\n{}\n\n  {}\n{}\n",
        fpuzzles_link(&sudoku4()),
        scl_link(&jigsaw9_scl()),
        SUDOKU4.concat().replace('.', "0")
    );
    std::fs::write(&file, text).expect("write");
    // Detected from the content under another extension, too.
    let other = dir.path().join("mine.dat");
    std::fs::copy(&file, &other).expect("copy");
    for f in [&file, &other] {
        let out = bin()
            .args(["convert", "-o"])
            .arg(dir.path().join(format!(
                "out-{}/",
                f.extension().and_then(|e| e.to_str()).unwrap_or("")
            )))
            .arg(f)
            .output()
            .expect("runs");
        succeeded(&out);
    }
    let names = common::names_in(&dir.path().join("out-links"));
    assert_eq!(
        names,
        ["mine-00002.toml", "mine-00004.toml", "mine-00005.toml"]
    );
    let jig = std::fs::read_to_string(dir.path().join("out-links/mine-00004.toml")).expect("read");
    assert!(jig.contains("kind = \"jigsaw\""), "{jig}");
    // A bad line stops the file with its line number; forced format too.
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        format!(
            "{}\n# comment\nhttps://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA\n",
            fpuzzles_link(&sudoku4())
        ),
    )
    .expect("write");
    let out = bin()
        .args(["convert", "--input-format", "links", "-o"])
        .arg(dir.path().join("out-bad/"))
        .arg(&bad)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{}:3:1: the f-puzzles link", bad.display())),
        "{err}"
    );
}

#[test]
fn convert_to_fpuzzles_and_back_gives_the_same_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    for file in [
        "puzzles/sudoku-4x4.toml",
        "puzzles/killer-6x6.toml",
        "puzzles/jigsaw-9x9.toml",
        "puzzles/sudoku-x.toml",
        "puzzles/sudoku-16x16.toml",
        "puzzles/killer-9x9.toml",
    ] {
        let toml = smtgrid(&["convert", file]);
        assert!(toml.status.success(), "{file}");
        let link = smtgrid(&["convert", "--to", "fpuzzles", file]);
        let link_text = String::from_utf8_lossy(&link.stdout).trim().to_string();
        assert!(
            link.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&link.stderr)
        );
        assert!(
            link_text.starts_with("https://www.f-puzzles.com/?load="),
            "{link_text}"
        );
        let back = smtgrid(&["convert", &link_text]);
        assert!(
            back.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&back.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&back.stdout),
            String::from_utf8_lossy(&toml.stdout),
            "{file}"
        );
        let _ = dir;
    }
    let out = smtgrid(&["convert", "--to", "fpuzzles", "puzzles/kakuro-small.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no f-puzzles form"));
}

/// `smtgrid convert` of `input` (a file holding it, one line) must exit 2
/// with a message holding `want` and naming `FILE:1`.
fn refused(input: &str, extra: &[&str], want: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("in.links");
    std::fs::write(&file, format!("{input}\n")).expect("write");
    let out = bin()
        .arg("convert")
        .args(extra)
        .arg(&file)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{input}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(&format!("{}:1", file.display())), "{err}");
    assert!(err.contains(want), "want {want:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}

#[test]
fn bad_links_exit_2_naming_the_line_and_the_fault() {
    let good = sudoku4();
    let link = fpuzzles_link(&good);
    refused(&link[..link.len() - 20], &[], "cut short");
    let not_json = format!(
        "https://f-puzzles.com/?load={}",
        lz_str::compress_to_base64("{\"size\": 4, \"grid\": [")
    );
    // A link's JSON is never seen: a fault names its path in it (below
    // the top level, whose keys the messages name), or for a syntax error
    // its line and column.
    refused(
        &not_json,
        &[],
        "line 1, column 21 of the JSON: the f-puzzles data is not valid JSON",
    );
    let mut outside = good.clone();
    outside["thermometer"] = json!([{"lines": [["R1C1", "R5C1"]]}]);
    refused(
        &fpuzzles_link(&outside),
        &[],
        ": thermometer[0].lines[0][1]: an f-puzzles `thermometer` names the cell \"R5C1\"",
    );
    // A value out of range, and (what the parts say together) a given
    // repeated in a house, are the given's fault.
    for (value, want) in [
        (
            7,
            "f-puzzles cell r1c2 has the value 7, but a 4×4 grid holds 1 to 4",
        ),
        (4, "the givens break a rule: 4 appears twice in row 1"),
    ] {
        let mut cell = good.clone();
        cell["grid"][0][1] = json!({"value": value, "given": true});
        refused(
            &fpuzzles_link(&cell),
            &[],
            &format!(": grid[0][1].value: {want}"),
        );
    }
    let mut both = good.clone();
    both["odd"] = json!([{"cell": "R1C2"}]);
    both["even"] = json!([{"cell": "R1C2"}]);
    refused(
        &fpuzzles_link(&both),
        &[],
        ": even[0].cell: r1c2 has an odd mark and an even mark",
    );
    let mut wrong = good.clone();
    wrong["solution"][1] = json!(4);
    refused(
        &fpuzzles_link(&wrong),
        &[],
        ": solution[1]: the recorded solution is wrong",
    );
    wrong["solution"][1] = json!(5);
    refused(
        &fpuzzles_link(&wrong),
        &[],
        ": solution[1]: f-puzzles `solution` has 5 at r1c2, not a digit from 1 to 4",
    );
    let mut size = good.clone();
    size["size"] = json!(17);
    refused(&fpuzzles_link(&size), &[], ":1: f-puzzles `size` is 17");
    // A key given twice, which serde_json would read as the last: here
    // `size`, 4 both times, and a cell's `given`.
    let twice = format!("{{\"size\": 4, {}", &good.to_string()[1..]);
    refused(
        &format!(
            "https://f-puzzles.com/?load={}",
            lz_str::compress_to_base64(twice.as_str())
        ),
        &[],
        ":1: f-puzzles key `size` comes twice in one object",
    );
    // f-puzzles JSON in a SudokuPad `scl` link too.
    refused(
        &scl_link(&twice),
        &[],
        ":1: f-puzzles key `size` comes twice in one object",
    );
    // SudokuPad's own JSON, by the same check.
    refused(
        &scl_link(
            "{\"metadata\": {\"title\": \"a\", \"title\": \"b\"}, \"cells\": \
             [[{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]]}",
        ),
        &[],
        ":1: metadata.title: SudokuPad key `title` comes twice in one object",
    );
    let cell = good
        .to_string()
        .replacen("\"given\":true", "\"given\":true,\"given\":false", 1);
    refused(
        &format!(
            "https://f-puzzles.com/?load={}",
            lz_str::compress_to_base64(cell.as_str())
        ),
        &[],
        ": grid[0][0].given: f-puzzles key `given` comes twice",
    );
    refused("https://sudokupad.app/abc123", &[], "never goes online");
    refused(".~R10C1_3", &[], "not a cell");
    refused(".Cage~8~R1C1~R1C2.Shape~4x4", &[], "add up to 3 to 7");
    refused(
        ".Shape~4x4.~R1C1_1.~R1C1_2",
        &[],
        "gives r1c1 twice, as 1 and as 2",
    );
    // Candidates with no value in common, or none the given is.
    refused(
        ".Shape~4x4.~R1C1_2_4.~R1C1_1_3",
        &[],
        "r1c1 has the candidates 2 or 4 and the candidates 1 or 3, which contradict each other",
    );
    refused(
        ".Shape~4x4.~R1C1_2.~R1C1_1_3",
        &[],
        "r1c1 has the given 2 and the candidates 1 or 3, which contradict each other",
    );
    // Messages say one cell, row or value as one, and "an" before a vowel.
    refused(
        ".Shape~4x4.Arrow~R1C1",
        &[],
        "1 cell: an arrow has at least 2 cells",
    );
    refused(
        ".Shape~4x4.Entropic~R1C1",
        &[],
        "1 cell: an entropic-line has at least 2 cells",
    );
    refused(
        ".Shape~4x4.Cage~5~R1C1",
        &[],
        "but 1 value from 1 to 4 adds up to 1 to 4",
    );
    let mut one_row = good.clone();
    one_row["grid"] = json!([[{}, {}, {}, {}]]);
    refused(
        &fpuzzles_link(&one_row),
        &[],
        "f-puzzles `grid` has 1 row, but `size` is 4",
    );
    let err = refused(
        "https://sudokupad.app/fpuzzles!!!",
        &[],
        "the SudokuPad link of f-puzzles JSON has `!` in its payload",
    );
    assert!(!err.contains("payload payload"), "{err}");
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.links");
    std::fs::write(&empty, "# nothing but a comment\n").expect("write");
    let out = bin().arg("convert").arg(&empty).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a links file holds one"));
}

/// ISS arguments a constraint does not take, or of the wrong shape, are
/// refused (ISS passes over some of them; smtgrid read them as if they were
/// not there): for every constraint type the reader takes, the message
/// names the constraint, the argument and the form to write.
#[test]
fn iss_arguments_that_are_malformed_or_extra_are_refused() {
    // Each case: the string, then what its message holds, ` | ` apart.
    for case in [
        // The three of the report: a cell where a line goes, an argument
        // to a rule over the whole grid, a second shape.
        ".Skyscraper~R1C1 | `.Skyscraper` | `R1C1` | C3 or R4 | .Skyscraper~C3~FRONT~BACK",
        ".AntiKnight~R1C1 | `.AntiKnight` | `R1C1` | write `.AntiKnight` alone",
        ".Shape~9x9.Shape~4x4 | `.Shape~4x4` after `.Shape~9x9` | keep the `.Shape`",
        // Whole-grid rules, each with the argument it was given.
        ".AntiKing~2 | `.AntiKing` | `2` | write `.AntiKing` alone",
        ".DisjointSets~ | `.DisjointSets` | empty argument | alone",
        ".Windoku~3x3 | `.Windoku` | `3x3` | alone",
        ".StrictKropki~R1C1 | `.StrictKropki` | `R1C1` | alone",
        ".StrictXV~R1C1 | `.StrictXV` | `R1C1` | alone",
        ".AntiConsecutive~1 | `.AntiConsecutive` | `1` | alone",
        ".NoBoxes~R1C1 | `.NoBoxes` | `R1C1` | alone",
        ".Diagonal~1~-1 | `.Diagonal~1~-1` | `.Diagonal~1` | `.Diagonal~-1`",
        // The grid's own: a jigsaw of another grid, of three arguments,
        // or given twice with two layouts.
        ".Shape~4x4.Jigsaw~6x6~aabbaabbccddccdd | `.Jigsaw~6x6~…` | 4×4 | `.Jigsaw~LAYOUT`",
        ".Shape~4x4.Jigsaw~4x4~aabbaabbccddccdd~x | `.Jigsaw` with 3 arguments | `.Jigsaw~LAYOUT`",
        ".Shape~4x4.Jigsaw~aabbaabbccddccdd.Jigsaw~aabbccddaabbccdd | `.Jigsaw` given twice \
         | keep the `.Jigsaw`",
        // Lines: a number where ISS has none, none where it needs one.
        ".Renban~3~R1C1~R1C2 | `.Renban` | takes no number, got 3 | .Renban~R1C1~R1C2",
        ".Arrow~2~R1C1~R1C2~R1C3 | `.Arrow` | got 2 | .Arrow~R1C1~R1C2",
        ".Modular~R1C1~R1C2 | `.Modular` | modulus | `R1C1` | .Modular~N~R1C1",
        ".Lockout~R1C1~R1C2~R1C3 | `.Lockout` | difference | `R1C1` | .Lockout~N~",
        ".PillArrow~R1C1~R1C2~R1C3 | `.PillArrow` | `R1C1` | .PillArrow~N~",
        // Pill sizes ISS does not offer.
        ".PillArrow~1~R1C1~R1C2~R1C3 | `.PillArrow` | a pill of 1 cells | hold 2 or 3 | .Arrow~",
        ".PillArrow~4~R1C1~R1C2~R1C3~R1C4~R1C5 | a pill of 4 cells | hold 2 or 3",
        // Value ranges and grid types other than ISS's defaults.
        ".Shape~9x9~0-8 | `.Shape~9x9~0-8`: values 0 to 8 | not yet supported | `.Shape~9x9`",
        ".Shape~9x9~8 | `.Shape~9x9~8`: values 1 to 8 | smtgrid's values are 1 to 9",
        ".Shape~4x4~1-x | `1-x` is not a value range such as 1-4",
        ".Shape~9x9~~Raw | the grid type `Raw` | `.Shape~9x9`",
        ".Shape~9x9~9~Sudoku~x | has 4 arguments | `.Shape~9x9~RANGE~TYPE`",
        ".Whisper~5~R1C1~x | `.Whisper` | `x` is not a cell such as R1C1",
        ".Thermo~R1C1~R1C2~ | `.Thermo` | an empty cell name | R1C1",
        // Markers and sets without cells marked nothing.
        ".X | `.X` | no cells | .X~R1C1~R1C2",
        ".WhiteDot | `.WhiteDot` | no cells | .WhiteDot~R1C1~R1C2",
        ".GreaterThan | `.GreaterThan` | no cells | .GreaterThan~R1C1~R1C2",
        ".AllDifferent | `.AllDifferent` | no cells | .AllDifferent~R1C1",
        ".Indexing~C | `.Indexing` | no cells after C | .Indexing~C~R1C1",
        // Outside clues: a line without a clue, too many clues, a count
        // of arguments off, a line where the sum goes, a bad clue.
        ".XSum~C3~~ | `.XSum` | C3 has no clue | .XSum~C3~FRONT~BACK",
        ".Skyscraper~C3~1~2~3 | `.Skyscraper` | 3 arguments after the line | FRONT~BACK",
        ".Sandwich~12 | `.Sandwich` | 1 argument where it takes two | .Sandwich~12~C3",
        ".Sandwich~C3~12 | `.Sandwich` | `12` is not a row or column | .Sandwich~12~C3",
        ".XSum~C3~x | `.XSum` | `x` is not a whole number | sum in digits",
        ".LittleKiller~R1C1 | `.LittleKiller` | 1 argument | .LittleKiller~15~R1C3",
        ".LittleKiller~x~R1C1 | `.LittleKiller` | `x` is not a whole number | ~15~R1C3",
        // A cage's sum left out, a cage without cells, a quadruple
        // without digits, with too many or with a letter.
        ".Cage~R1C1~R1C2 | `.Cage` | the sum `R1C1` | .Cage~SUM~R1C1~R1C2",
        ".Cage~10 | `.Cage` | without cells | .Cage~SUM~",
        ".Quad~R1C1 | `.Quad` | 0 digits after the cell | .Quad~R1C1~1~2",
        ".Quad~R1C1~1~2~3~4~5 | `.Quad` | 5 digits | .Quad~R1C1~1~2",
        ".Quad~R1C1~x | `.Quad` | `x` is not a digit | .Quad~R1C1~1~2",
    ] {
        let (input, wants) = case.split_once(" | ").expect("a string and its message");
        let wants: Vec<&str> = wants.split(" | ").collect();
        let err = refused(input, &[], wants[0]);
        for want in wants {
            assert!(err.contains(want), "{input}: want {want:?}: {err}");
        }
    }
    // A rule stated twice alike is one rule, and a shape twice alike one
    // shape (as ISS reads them).
    for same in [
        ".Shape~4x4.AntiKnight.AntiKnight",
        ".Shape~4x4.Shape~4x4",
        ".Diagonal~1.Diagonal~1",
        // ISS's default value range and grid type, written out.
        ".Shape~9x9~9",
        ".Shape~9x9~1-9",
        ".Shape~4x4~1-4~Sudoku",
        ".Shape~4x4~~Sudoku",
        ".Shape~4x4~4.PillArrow~3~R1C1~R1C2~R1C3~R2C3",
    ] {
        converted(&[same]);
    }
    // German whispers leave the difference out, as ISS allows.
    converted(&[".Whisper~R1C1~R2C2"]);
}

/// ISS's jigsaw text form, 81 givens then 81 region characters, in the
/// digits ISS writes a layout in (each region numbered in the order its
/// first cell comes) or in letters, solves with a real solver to its
/// checked answer, given on the command line or as a line of a links file
/// beside a sudoku line of digits and dots.
#[test]
fn an_iss_jigsaw_text_in_digits_solves_to_its_checked_answer() {
    common::require(&["z3"]);
    let givens = JIGSAW9_GIVENS.concat();
    let letters = JIGSAW9_REGIONS.concat();
    let mut order: Vec<char> = Vec::new();
    let numbered: String = letters
        .chars()
        .map(|c| {
            if !order.contains(&c) {
                order.push(c);
            }
            let i = order.iter().position(|&o| o == c).expect("seen");
            char::from_digit(i as u32, 10).expect("a digit")
        })
        .collect();
    assert_eq!(&numbered[..9], "000112222");
    let solved = |input: &str| -> Vec<Value> {
        let out = smtgrid(&["solve", input, "--solver", "z3", "--format", "json"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}\n{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&stdout).expect("a JSON array")
    };
    for layout in [&numbered, &letters] {
        let text = format!("{givens}{layout}");
        assert_eq!(text.len(), 162);
        let records = solved(&text);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0]["kind"], json!("jigsaw"), "{}", records[0]);
        assert_eq!(records[0]["verified"], json!(true), "{}", records[0]);
        let grid: Vec<Vec<u32>> =
            serde_json::from_value(records[0]["grid"].clone()).expect("a grid");
        assert_eq!(grid, digits(&JIGSAW9_SOLUTION));
    }
    // In a links file a line of digits and dots is a sudoku line when it
    // has n² characters, the jigsaw when it has 2·81.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mixed.links");
    std::fs::write(&file, format!("{}\n{givens}{numbered}\n", SUDOKU4.concat())).expect("write");
    let records = solved(file.to_str().expect("a UTF-8 path"));
    let kinds: Vec<&Value> = records.iter().map(|r| &r["kind"]).collect();
    assert_eq!(kinds, [&json!("sudoku"), &json!("jigsaw")]);
    assert!(records.iter().all(|r| r["verified"] == json!(true)));
    let grid: Vec<Vec<u32>> = serde_json::from_value(records[1]["grid"].clone()).expect("a grid");
    assert_eq!(grid, digits(&JIGSAW9_SOLUTION));
    // Read as a sudoku line file, the same line says what it is.
    let lines = dir.path().join("mixed.txt");
    std::fs::copy(&file, &lines).expect("copy");
    let out = bin().arg("convert").arg(&lines).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ISS's text forms") && err.contains("--input-format links"),
        "{err}"
    );
}

/// What an importer's hook makes passes the checks a TOML table gets, so
/// that no import reaches lowering or printing (`.Thermo` with no cells
/// panicked in the text grid) or converts to TOML that smtgrid refuses.
#[test]
fn imported_elements_pass_the_checks_their_toml_gets() {
    let mut p = sudoku4();
    for (key, value, want) in [
        (
            "thermometer",
            json!([{"lines": [[]]}]),
            "thermometer: no cells",
        ),
        (
            "slowthermometer",
            json!([{"lines": [["R1C1", "R1C2"], []]}]),
            "slow-thermometer: no cells",
        ),
        (
            "thermometer",
            json!([{"lines": [["R1C1", "R4C4"]]}]),
            "r1c1 and r4c4 do not touch",
        ),
        (
            "thermometer",
            json!([{"lines": [["R1C1", "R1C2", "R1C1"]]}]),
            "r1c1 is listed twice: a thermometer passes each cell once",
        ),
        (
            "odd",
            json!([{"cells": ["R1C2", "R1C2"]}]),
            "odd: r1c2 is listed twice",
        ),
        (
            "minimum",
            json!([{"cell": "R2C2"}, {"cell": "R2C2"}]),
            "minimum: r2c2 is listed twice",
        ),
    ] {
        p[key] = value;
        refused(&fpuzzles_link(&p), &[], want);
        p.as_object_mut().expect("an object").remove(key);
    }
    refused(".Thermo", &[], "thermometer: no cells");
    refused(".Shape~4x4.Thermo", &[], "thermometer: no cells");
    refused(".Thermo~R1C1~R9C9", &[], "r1c1 and r9c9 do not touch");
    refused(".Thermo~R1C1~R1C2~R1C1", &[], "r1c1 is listed twice");
}

/// A rule over the whole grid stated again (ISS's `.AntiKnight` thousands
/// of times made a 142 MB script) is one rule: the script is the one of
/// the rule stated once, as `convert` writes it once.
#[test]
fn a_repeated_whole_grid_rule_is_stated_once() {
    let script = |iss: &str| {
        let out = smtgrid(&["emit", iss]);
        succeeded(&out);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        // The link's name differs with its text.
        text.lines()
            .filter(|l| !l.contains(":source"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let once = ".Shape~4x4.AntiKnight.AntiKing.StrictKropki.WhiteDot~R1C1~R1C2.Diagonal~1";
    let dotted = format!("{once}.WhiteDot~R2C1~R2C2");
    // The flags again after a dot, fifty times: each still one rule, and
    // the dots all kept.
    let again = format!(
        "{dotted}{}",
        ".AntiKnight.AntiKing.StrictKropki.Diagonal~1".repeat(50)
    );
    assert_eq!(script(&again), script(&dotted));
    assert_ne!(script(once), script(&dotted));
}

#[test]
fn unknown_keys_are_refused_unless_ignored_and_then_listed() {
    let mut p = sudoku4();
    p["frobnicate"] = json!([1]);
    refused(&fpuzzles_link(&p), &[], "`frobnicate` is unknown");
    let out = bin()
        .args(["convert", "--ignore-unknown", &fpuzzles_link(&p)])
        .output()
        .expect("runs");
    succeeded(&out);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("ignored (--ignore-unknown) f-puzzles keys `frobnicate`")
    );
    // Known rules no element claims are refused by name and count,
    // whatever the flag says.
    let mut text = sudoku4();
    text["cage"] = json!([{"cells": ["R1C1"], "value": "?"}, {"cells": ["R2C1"], "value": "!"}]);
    refused(
        &fpuzzles_link(&text),
        &["--ignore-unknown"],
        "f-puzzles key `cage` with a clue in its value (2 instances): not yet supported",
    );
    refused(
        ".Regex~ab~R1C1~R1C2",
        &["--ignore-unknown"],
        "ISS constraint `.Regex` (1 instance): not yet supported",
    );
    // An element's hook refuses what it cannot read, named by the element.
    refused(
        ".Shape~4x4.WhiteDot~R1C1~R2C2",
        &[],
        "ISS `.WhiteDot` (kropki)",
    );
    let mut elsewhere = sudoku4();
    elsewhere["negative"] = json!(["ratio", "difference", "frobnicate"]);
    refused(
        &fpuzzles_link(&elsewhere),
        &[],
        "f-puzzles `negative` entry `frobnicate`: not yet supported",
    );
}

/// Killer cages without a sum and on jigsaw regions, from f-puzzles and
/// ISS, become killer-cage elements (a sudoku or jigsaw with cages); cages
/// that all have sums on boxes still make the killer kind.
#[test]
fn cages_without_sums_and_on_jigsaws_come_in_as_elements() {
    // The 6×6 killer with its first cage's sum left out stays unique.
    let mut sumless = killer6();
    sumless["killercage"][0] = json!({"cells": ["R1C1", "R1C2"]});
    let link = fpuzzles_link(&sumless);
    assert_eq!(solve_unique(&[&link]), digits(&KILLER6_SOLUTION));
    let out = smtgrid(&["convert", &link]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(
        toml.contains("kind = \"sudoku\"")
            && toml.contains("[[killer-cage]]\ncells = \"r1c1 r1c2\"\n\n"),
        "{toml}"
    );
    round_trip(&link);
    let out = smtgrid(&["convert", &fpuzzles_link(&killer6())]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("kind = \"killer\""));
    // ISS: a cage without a sum (`.Cage~~…`) only repeats no value.
    let iss = ".Shape~4x4.Cage~3~R1C1~R2C1.Cage~4~R1C2~R1C3.Cage~6~R3C3~R4C3.Cage~~R2C2~R3C2~R3C1";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    assert!(not_unique(
        ".Shape~4x4.Cage~3~R1C1~R2C1.Cage~4~R1C2~R1C3.Cage~6~R3C3~R4C3"
    ));
    // Cages on a jigsaw: its regions, with one region's cells caged.
    let regions = "0001021122312333";
    let jig = format!(
        ".Shape~4x4.Jigsaw~{regions}.Cage~6~R1C1~R1C2~R1C3.Cage~~R3C3~R4C3.~R2C1_2~R4C4_2~R3C1_1"
    );
    let out = smtgrid(&["convert", &jig]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(
        toml.contains("kind = \"jigsaw\"") && toml.contains("sum = 6"),
        "{toml}"
    );
}

/// One diagonal, disjoint groups, extra regions (windoku) and greater-than
/// signs come in from f-puzzles and ISS through their elements, and the
/// f-puzzles `negative` list goes entry by entry to the element that
/// claims each marker key (`xv` to XV, `ratio`/`difference` to kropki).
#[test]
fn groups_regions_signs_and_negatives_come_in() {
    common::require(&["yices2"]);
    let cases = [
        ElementCase {
            name: "diagonal",
            n: 4,
            iss: Some(".Diagonal~1".into()),
            fpuzzles: ("diagonal+", json!(true)),
            givens: &["R1C1_1", "R2C3_3", "R4C1_2"],
            solution: &["1324", "4231", "3142", "2413"],
        },
        ElementCase {
            name: "disjoint-groups",
            n: 4,
            iss: Some(".DisjointSets".into()),
            fpuzzles: ("disjointgroups", json!(true)),
            givens: &["R2C3_1", "R2C4_2", "R4C1_2", "R4C4_3"],
            solution: &["1234", "3412", "4321", "2143"],
        },
        ElementCase {
            name: "extra-region",
            n: 4,
            iss: Some(".Windoku".into()),
            fpuzzles: (
                "extraregion",
                json!([{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"]}]),
            ),
            givens: &["R1C2_2", "R1C3_4", "R2C4_2", "R3C2_3"],
            solution: &["1243", "3412", "4321", "2134"],
        },
    ];
    for case in &cases {
        case.check();
    }
    // ISS greater-than: each cell greater than every later one it touches.
    let signs = ".Shape~4x4.GreaterThan~R1C2~R1C1~R2C1.GreaterThan~R2C3~R2C4.GreaterThan~R3C3~R2C3";
    assert_eq!(
        solve_unique(&[signs]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    // `negative: ["xv"]`: every unmarked pair is no V (and no X).
    let v: Vec<Value> = [
        ["R1C1", "R1C2"],
        ["R1C3", "R1C4"],
        ["R2C1", "R2C2"],
        ["R2C3", "R2C4"],
        ["R3C1", "R3C2"],
        ["R3C3", "R3C4"],
        ["R4C1", "R4C2"],
        ["R4C3", "R4C4"],
    ]
    .iter()
    .map(|c| json!({"cells": c, "value": "V"}))
    .collect();
    let mut xv = json!({
        "size": 4,
        "grid": fp_grid(&["2.1.", ".4.2", "....", "...."]),
        "xv": v,
    });
    assert!(not_unique(&fpuzzles_link(&xv)));
    xv["negative"] = json!(["xv"]);
    let link = fpuzzles_link(&xv);
    assert_eq!(
        solve_unique(&[&link]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    round_trip(&link);
    // ISS's StrictXV is the same rule.
    let iss = ".Shape~4x4.StrictXV.V~R1C1~R1C2.V~R1C3~R1C4.V~R2C1~R2C2.V~R2C3~R2C4\
        .V~R3C1~R3C2.V~R3C3~R3C4.V~R4C1~R4C2.V~R4C3~R4C4.~R1C1_2~R1C3_1~R2C2_4~R2C4_2";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    xv["negative"] = json!(["ratio", "xv", "difference"]);
    let out = smtgrid(&["convert", &fpuzzles_link(&xv)]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(
        toml.contains("xv-negative = true") && toml.contains("kropki-negative = true"),
        "{toml}"
    );
}

#[test]
fn sudokupad_drawings_need_a_meaning() {
    let text = jigsaw9_scl().replace(
        ",re:",
        ",l:[{wp:[[0.5,0.5],[0.5,1.5],[1.5,1.5]],c:'#67F067',th:9}],re:",
    );
    let link = scl_link(&text);
    let err = refused(&link, &[], "--line 67f067=MEANING");
    assert!(err.contains("on r1c1-r1c2-r2c2"), "{err}");
    refused(
        &link,
        &["--line", "67f067=kropki-white"],
        "as kropki-white (1): not yet supported",
    );
    let out = bin()
        .args(["convert", "--line", "#67F067=ignore", &link])
        .output()
        .expect("runs");
    succeeded(&out);
    let out = bin()
        .args(["convert", "--line", "green=whispers", &link])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    // A clue outside the grid is a number no drawing's colour can carry:
    // refused by name, saying where such clues are read.
    for (flag, meaning) in [
        ("--line", "littlekiller"),
        ("--arrow", "little-killer"),
        ("--overlay", "sandwich"),
    ] {
        let out = bin()
            .args(["convert", flag, &format!("67f067={meaning}"), &link])
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("`{meaning}` is a clue outside the grid"))
                && err.contains("f-puzzles links")
                && err.contains(".LittleKiller"),
            "{err}"
        );
    }
}

/// A SudokuPad line declared a thermometer becomes the registry's
/// thermometer (built by its f-puzzles hook, no importer code of its own):
/// read, written, and solved to the recorded solution.
#[test]
fn a_sudokupad_line_becomes_the_element_its_meaning_names() {
    // r2c2 (5) → r1c2 (8) → r1c1 (9) rises along the solution.
    let text = jigsaw9_scl().replace(
        ",re:",
        ",l:[{wp:[[1.5,1.5],[0.5,1.5],[0.5,0.5]],c:'#CFCFCF',th:21}],re:",
    );
    let link = scl_link(&text);
    for meaning in ["cfcfcf=thermo", "cfcfcf=thermometer"] {
        let (toml, _) = converted(&["--line", meaning, &link]);
        assert!(
            toml.contains("[[thermometer]]\ncells = \"r2c2 r1c2 r1c1\""),
            "{toml}"
        );
    }
    assert_eq!(
        solve_unique(&["--line", "cfcfcf=thermo", &link]),
        digits(&JIGSAW9_SOLUTION)
    );
    // The same line read the other way round breaks the solution: the
    // recorded solution is checked against the thermometer and refused.
    let wrong = jigsaw9_scl().replace(
        ",re:",
        ",l:[{wp:[[0.5,0.5],[0.5,1.5],[1.5,1.5]],c:'#CFCFCF',th:21}],re:",
    );
    refused(&scl_link(&wrong), &["--line", "cfcfcf=thermo"], "solution");
    // A rule flag goes to the element whose f-puzzles key it is: anti-knight
    // is read, and this jigsaw's recorded solution breaks it.
    let knight = jigsaw9_scl().replace("metadata:{", "metadata:{antiknight:true,");
    refused(&scl_link(&knight), &[], "solution");
}

/// SudokuPad arrows and overlays with a meaning go to the element's hook
/// as lines do: an arrow from its circle's cell (its first point is on the
/// circle's edge), a dot on a border as the two cells it joins.
#[test]
fn sudokupad_arrows_and_overlays_become_the_element_their_meaning_names() {
    // r1c2 (8) = r2c1 (6) + r3c2 (2) in the solution.
    let text = jigsaw9_scl().replace(
        ",re:",
        ",a:[{wp:[[0.78,1.22],[1.5,0.5],[2.5,1.5]],c:'#000000'}],\
         o:[{center:[0.5,1],width:0.3,height:0.3,r:t,c2:'#FFFFFF',c1:'#000000'}],re:",
    );
    let link = scl_link(&text);
    refused(
        &link,
        &["--overlay", "ffffff=ignore"],
        "--arrow 000000=MEANING",
    );
    let args = ["--arrow", "000000=arrow", "--overlay", "ffffff=difference"];
    let mut all = vec!["convert"];
    all.extend_from_slice(&args);
    all.push(&link);
    let out = smtgrid(&all);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(
        toml.contains("[[arrow]]\ncells = \"r1c2 r2c1 r3c2\"")
            && toml.contains("[[kropki]]\ncells = \"r1c1 r1c2\""),
        "{toml}"
    );
    let mut solve = args.to_vec();
    solve.push(&link);
    assert_eq!(solve_unique(&solve), digits(&JIGSAW9_SOLUTION));
}

const THERMO4_SOLUTION: [&str; 4] = ["2341", "4132", "3214", "1423"];

/// A 4×4 f-puzzles puzzle whose thermometer is drawn as a grey `line`
/// from a grey circle, as setters draw rules given in the rules text only:
/// unique with the thermometer, open without it.
fn grey_line_thermo4() -> Value {
    json!({
        "size": 4,
        "grid": fp_grid(&["....", "....", "....", "1.2."]),
        "solution": fp_solution(&THERMO4_SOLUTION),
        "circle": [{"cells": ["R1C1"], "baseC": "#BFBFBF", "outlineC": "#BFBFBF", "width": 0.7, "height": 0.7}],
        "line": [
            {"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#BFBFBF", "width": 0.6},
            // A userscript's copy of a rule's own drawing is no drawing of its own.
            {"lines": [["R2C1", "R2C2"]], "outlineC": "#F067F0", "isNewConstraint": true},
        ],
    })
}

/// f-puzzles' own drawings take a meaning by `--line`/`--overlay` as
/// SudokuPad's do (one code path): a grey `line` that is a thermometer in
/// the rules text makes the puzzle unique only when said so; without a
/// meaning it stays decoration, listed in the note; a meaning the drawing
/// cannot have (a one-cell whispers line), a bad colour and a clue
/// outside the grid exit 2 naming the line and the fix.
#[test]
fn fpuzzles_drawings_take_the_meanings_sudokupad_drawings_do() {
    common::require(&["yices2"]);
    let solution = THERMO4_SOLUTION;
    let puzzle = grey_line_thermo4();
    let link = fpuzzles_link(&puzzle);
    assert!(not_unique(&link), "without the meaning the grid is open");
    let (_, err) = converted(&[&link]);
    assert!(err.contains("(1 circle, 1 line)"), "{err}");
    for spec in ["bfbfbf=thermo", "#BFBFBF=thermometer"] {
        let (toml, err) = converted(&["--line", spec, &link]);
        assert!(
            toml.contains("[[thermometer]]\ncells = \"r1c1 r1c2 r1c3\""),
            "{toml}"
        );
        // The line read is no longer listed as passed over; the bulb's circle is.
        assert!(err.contains("(1 circle)"), "{err}");
    }
    assert_eq!(
        solve_unique(&["--line", "bfbfbf=thermo", &link]),
        digits(&solution)
    );
    // The same colour of overlay is not the same flag: the circle stays.
    let (_, err) = converted(&["--overlay", "bfbfbf=ignore", &link]);
    assert!(err.contains("(1 line)"), "{err}");
    // A meaning the drawing cannot have: named with the colour, the cells and the fix.
    let mut one = puzzle.clone();
    one["line"] = json!([{"lines": [["R2C2"]], "outlineC": "#56FF00"}]);
    let err = refused(
        &fpuzzles_link(&one),
        &["--line", "56ff00=whispers"],
        "f-puzzles lines #56ff00 as whispers (on r2c2)",
    );
    assert!(err.contains("--line 56ff00=ignore"), "{err}");
    usage_refused(&["--line", "grey=thermo", &link], "6 (or 8) hex digits");
    usage_refused(
        &[
            "--line",
            "bfbfbf=thermo",
            "--line",
            "#BFBFBF=whispers",
            &link,
        ],
        "--line #BFBFBF=whispers: bfbfbf is already given the meaning thermo",
    );
    usage_refused(
        &["--line", "bfbfbf=littlekiller", &link],
        "is a clue outside the grid",
    );
}

/// `smtgrid convert ARGS` exits 2 with a message holding `want`: the
/// message, for more checks.
fn usage_refused(args: &[&str], want: &str) -> String {
    let out = bin().arg("convert").args(args).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(want), "want {want:?}: {err}");
    err
}

/// `--with` adds a rule over the whole grid that the rules text states and
/// the payload does not (Sudoku-Bench's puzzle_0080 states anti-knight in
/// its text only), by element name or f-puzzles key, through the element's
/// own f-puzzles hook; once, however often it is named or already stated;
/// refused for a rule that is no flag, for a name no element has, and for a
/// puzzle file, which states its own rules.
#[test]
fn with_adds_a_whole_grid_rule_the_payload_does_not_state() {
    common::require(&["yices2"]);
    let solution = ["4321", "1234", "2143", "3412"];
    let mut puzzle = json!({
        "size": 4,
        "grid": fp_grid(&["....", "....", "214.", "...."]),
        "solution": fp_solution(&solution),
    });
    let link = fpuzzles_link(&puzzle);
    assert!(not_unique(&link), "without anti-knight the grid is open");
    for with in ["anti-knight", "antiknight", "anti-knight,antiknight"] {
        assert_eq!(solve_unique(&["--with", with, &link]), digits(&solution));
    }
    // A rule the payload states already is not added twice.
    puzzle["antiknight"] = json!(true);
    let (toml, _) = converted(&["--with", "anti-knight", &fpuzzles_link(&puzzle)]);
    assert_eq!(toml.matches("anti-knight = true").count(), 1, "{toml}");
    // Anti-king breaks this solution: the recorded solution is checked
    // against the rule added, as against every rule.
    refused(&link, &["--with", "anti-king"], "solution");
    for (with, want) in [
        ("thermometer", "not a rule over the whole grid"),
        ("knights", "no element is called so"),
    ] {
        let err = usage_refused(&["--with", with, &link], want);
        assert!(err.contains("such as anti-knight"), "{err}");
    }
    let err = usage_refused(
        &["--with", "anti-knight", "puzzles/sudoku-4x4.toml"],
        "anti-knight = true",
    );
    assert!(err.contains("puzzles/sudoku-4x4.toml:"), "{err}");
}

#[test]
fn an_fpuzzles_json_file_is_read_as_one_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("k.json");
    std::fs::write(
        &file,
        serde_json::to_string_pretty(&killer6()).expect("json"),
    )
    .expect("write");
    let out = bin().arg("convert").arg(&file).output().expect("runs");
    succeeded(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("kind = \"killer\""));
    assert!(Path::new(&file).exists());
}

/// scripts/variants-check on a corpus this test lays out itself, one
/// readable and one refused puzzle per source: the table counts them, and
/// the refusals are grouped by reason.
#[test]
fn variants_check_measures_a_corpus() {
    common::require(&["yices2"]);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let write = |rel: &str, v: &Value| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, v.to_string()).expect("write");
    };
    let payload = |v: &Value| lz_str::compress_to_base64(v.to_string().as_str());
    let mut thermo = sudoku4();
    thermo["thermometer"] = json!([{"lines": [["R1C2", "R1C1"]]}]);
    let mut text = sudoku4();
    text["cage"] = json!([{"cells": ["R1C1"], "value": "?"}]);
    write(
        "sudokusolver/unique_variant_fpuzzles.json",
        &json!([
            {"id": "s1", "fpuzzles": payload(&thermo), "solution": SUDOKU4_SOLUTION.concat()},
            {"id": "s2", "fpuzzles": payload(&text), "solution": SUDOKU4_SOLUTION.concat()},
            {"id": "s3", "fpuzzles": payload(&grey_line_thermo4()), "solution": THERMO4_SOLUTION.concat()},
        ]),
    );
    write(
        "iss/iss_puzzles_with_solutions.json",
        &json!([
            {"id": "i1", "input": ".Shape~4x4\n.~R1C1_4~R1C3_1~R2C2_2~R3C3_3~R4C2_4~R4C4_1",
             "solution": SUDOKU4_SOLUTION.concat()},
            {"id": "i2", "input": ".Regex~ab~R1C1~R1C2", "solution": "x"},
            // ISS writes a 16×16's solution in letters (A for 1): the
            // check reads that form too.
            {"id": "i3", "input": ".Shape~4x4\n.~R1C1_4~R1C3_1~R2C2_2~R3C3_3~R4C2_4~R4C4_1",
             "solution": SUDOKU4_SOLUTION.concat().chars()
                 .map(|d| char::from(b'A' + d.to_digit(10).expect("a digit") as u8 - 1))
                 .collect::<String>()},
        ]),
    );
    write(
        "sudoku-bench/challenge_100/puzzle_0001.json",
        &json!({"encoded_puzzle": format!("scl{}", lz_str::compress_to_base64(jigsaw9_scl().as_str())),
                "solution": JIGSAW9_SOLUTION.concat()}),
    );
    write(
        "INVENTORY.json",
        &json!({"per_puzzle": [
            {"source": "sudokusolver", "id": "s1", "constraints": ["thermo"]},
            {"source": "sudokusolver", "id": "s2", "constraints": ["text cage"]},
            {"source": "iss", "id": "i2", "constraints": ["regex"]},
            {"source": "sudoku-bench", "id": "puzzle_0001", "constraints": ["jigsaw/irregular"]},
        ]}),
    );
    // s3's thermometer is a grey line: the flags file says so.
    let flags = root.join("flags.txt");
    std::fs::write(
        &flags,
        "# the rules text says\ns3 --line bfbfbf=thermo\nnot-here --with anti-knight\n",
    )
    .expect("write");
    let check = |extra: &[&std::ffi::OsStr]| {
        std::process::Command::new("python3")
            .arg(common::root().join("scripts/variants-check"))
            .arg(root)
            .args([
                "--smtgrid",
                env!("CARGO_BIN_EXE_smtgrid"),
                "--timeout",
                "30",
            ])
            .args(extra)
            .output()
            .expect("python3 runs")
    };
    let out = check(&["--flags".as_ref(), flags.as_os_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    succeeded(&out);
    let row = |name: &str| -> Vec<String> {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {text}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(row("iss "), ["iss", "3", "2", "2", "1", "0"], "{text}");
    // The plain figures: s3 read as its payload states, not unique.
    assert_eq!(
        row("sudokusolver "),
        ["sudokusolver", "3", "2", "1", "1", "0"],
        "{text}"
    );
    // Read with its flags, apart: solved.
    let flagged: Vec<&str> = text
        .split("Read with flags")
        .nth(1)
        .and_then(|t| t.lines().find(|l| l.starts_with("sudokusolver")))
        .unwrap_or_else(|| panic!("no flagged row: {text}"))
        .split_whitespace()
        .collect();
    assert_eq!(
        flagged,
        [
            "sudokusolver",
            "s3",
            "--line",
            "bfbfbf=thermo",
            "unsolved",
            "solved",
            "-"
        ],
        "{text}"
    );
    assert!(text.contains("not in the corpus read: not-here"), "{text}");
    assert_eq!(
        row("sudoku-bench "),
        ["sudoku-bench", "1", "1", "1", "0", "0"],
        "{text}"
    );
    assert!(
        text.contains("f-puzzles key `cage` with a clue in its value: not yet supported"),
        "{text}"
    );
    assert!(
        text.contains("ISS constraint `.Regex`: not yet supported"),
        "{text}"
    );
    assert_eq!(
        row("thermo "),
        ["thermo", "1", "1", "0", "0", "0"],
        "{text}"
    );
    assert_eq!(
        row("jigsaw/irregular "),
        ["jigsaw/irregular", "1", "1", "0", "0", "0"],
        "{text}"
    );
    // A flag that says how to solve, not what the puzzle means, is refused
    // naming the file and line.
    std::fs::write(&flags, "s3 --line bfbfbf=thermo\ns1 --solver z3\n").expect("write");
    let out = check(&["--flags".as_ref(), flags.as_os_str()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("flags.txt:2: `--solver`"), "{err}");
    // A folder without the corpus is refused, not hung on.
    let empty = tempfile::tempdir().expect("temp dir");
    let out = std::process::Command::new("python3")
        .arg(common::root().join("scripts/variants-check"))
        .arg(empty.path())
        .output()
        .expect("python3 runs");
    assert_eq!(out.status.code(), Some(2));
}

/// One element's puzzle, written both ways: its ISS constraints, its
/// f-puzzles key and value, the givens (ISS style, `R1C1_5`) and the one
/// solution.
struct ElementCase {
    name: &'static str,
    n: usize,
    iss: Option<String>,
    fpuzzles: (&'static str, Value),
    givens: &'static [&'static str],
    solution: &'static [&'static str],
}

impl ElementCase {
    /// The givens alone leave several solutions; with the element, from
    /// an f-puzzles link and (where ISS has it) an ISS string, the puzzle
    /// solves uniquely to its solution; `convert --to fpuzzles` and back
    /// gives the same puzzle.
    fn check(&self) {
        let case = self;
        let plain = format!(".Shape~{n}x{n}{}", case.iss_givens(), n = case.n);
        assert!(
            not_unique(&plain),
            "{}: the givens alone must leave several solutions",
            case.name
        );
        let link = fpuzzles_link(&case.fpuzzles());
        assert_eq!(
            solve_unique(&[&link]),
            digits(case.solution),
            "{} (f-puzzles)",
            case.name
        );
        if let Some(iss) = &case.iss {
            let text = format!(".Shape~{n}x{n}{iss}{}", case.iss_givens(), n = case.n);
            assert_eq!(
                solve_unique(&[&text]),
                digits(case.solution),
                "{} (ISS)",
                case.name
            );
        }
        round_trip(&link);
    }

    fn iss_givens(&self) -> String {
        format!(".~{}", self.givens.join("~"))
    }

    /// The f-puzzles puzzle: grid with the givens, the element's key, the
    /// recorded solution.
    fn fpuzzles(&self) -> Value {
        let mut rows = vec![vec!['.'; self.n]; self.n];
        for g in self.givens {
            let (cell, v) = g.split_once('_').expect("R1C1_5");
            let (r, c) = cell[1..].split_once('C').expect("R1C1");
            let (r, c): (usize, usize) = (r.parse().expect("row"), c.parse().expect("col"));
            rows[r - 1][c - 1] = v.chars().next().expect("a digit");
        }
        let rows: Vec<String> = rows.into_iter().map(String::from_iter).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut p = json!({
            "size": self.n,
            "grid": fp_grid(&rows),
            "solution": fp_solution(self.solution),
        });
        p[self.fpuzzles.0] = self.fpuzzles.1.clone();
        p
    }
}

/// `convert --to fpuzzles` of `input` read back gives the same puzzle as
/// `input` (both written as TOML, the comment lines aside, tables in any
/// order).
fn round_trip(input: &str) {
    let toml = smtgrid(&["convert", input]);
    succeeded(&toml);
    let link = smtgrid(&["convert", "--to", "fpuzzles", input]);
    succeeded(&link);
    let link = String::from_utf8_lossy(&link.stdout).trim().to_string();
    let back = smtgrid(&["convert", &link]);
    succeeded(&back);
    // f-puzzles keeps each marker kind in a list of its own, so instances
    // may come back in another order: compare the TOML's tables as a set.
    let strip = |o: &std::process::Output| -> Vec<String> {
        let text = String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        let mut blocks: Vec<String> = text.split("\n\n").map(str::to_string).collect();
        blocks.sort();
        blocks
    };
    assert_eq!(strip(&back), strip(&toml), "{input}");
}

/// Whether `input` has more than one solution (`solve --unique`).
fn not_unique(input: &str) -> bool {
    let out = smtgrid(&[
        "solve", input, "--unique", "--format", "json", "--solver", "yices2",
    ]);
    let records: Vec<Value> =
        serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).expect("a JSON array");
    records[0]["verified"] == json!(true) && records[0]["unique"] == json!(false)
}

/// Each element with import hooks, from an f-puzzles link and (where ISS
/// has it) an ISS string, solves uniquely to its solution, while the same
/// givens without the element have several solutions: the element was read
/// and lowered, through the registry, with no importer code of its own.
#[test]
fn every_element_with_hooks_imports_and_solves_uniquely() {
    common::require(&["yices2"]);
    let thermo_line = json!([{"lines": [["R1C1", "R1C2", "R1C3"]]}]);
    let strict = {
        // Every neighbouring pair of the solution that is consecutive or
        // 1:2 gets its dot; with the negative rule that says it all.
        let sol = ["654321", "321654", "563412", "412563", "236145", "145236"];
        let d = |r: usize, c: usize| sol[r].as_bytes()[c] - b'0';
        let (mut iss, mut white, mut black) = (String::new(), Vec::new(), Vec::new());
        for r in 0..6 {
            for c in 0..6 {
                for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                    if r2 == 6 || c2 == 6 {
                        continue;
                    }
                    let (a, b) = (d(r, c), d(r2, c2));
                    let cells = [
                        format!("R{}C{}", r + 1, c + 1),
                        format!("R{}C{}", r2 + 1, c2 + 1),
                    ];
                    if a.abs_diff(b) == 1 {
                        iss += &format!(".WhiteDot~{}~{}", cells[0], cells[1]);
                        white.push(json!({"cells": cells}));
                    } else if a.max(b) == 2 * a.min(b) {
                        iss += &format!(".BlackDot~{}~{}", cells[0], cells[1]);
                        black.push(json!({"cells": cells}));
                    }
                }
            }
        }
        (iss, white, black)
    };
    let cases = [
        ElementCase {
            name: "thermometer",
            n: 4,
            iss: Some(".Thermo~R1C1~R1C2~R1C3".into()),
            fpuzzles: ("thermometer", thermo_line.clone()),
            givens: &["R4C1_1", "R4C3_2"],
            solution: &["2341", "4132", "3214", "1423"],
        },
        ElementCase {
            name: "slow-thermometer",
            n: 4,
            iss: None,
            fpuzzles: ("slowthermometer", thermo_line),
            givens: &["R4C1_1", "R4C3_2"],
            solution: &["2341", "4132", "3214", "1423"],
        },
        ElementCase {
            name: "anti-knight",
            n: 4,
            iss: Some(".AntiKnight.".into()),
            fpuzzles: ("antiknight", json!(true)),
            givens: &["R3C1_2", "R3C2_1", "R3C3_4"],
            solution: &["4321", "1234", "2143", "3412"],
        },
        ElementCase {
            name: "anti-king",
            n: 6,
            iss: Some(".AntiKing.".into()),
            fpuzzles: ("antiking", json!(true)),
            givens: &[
                "R6C5_3", "R6C1_1", "R5C1_2", "R4C1_4", "R5C3_6", "R3C5_1", "R6C2_4", "R3C1_5",
            ],
            solution: &["654321", "321654", "563412", "412563", "236145", "145236"],
        },
        ElementCase {
            name: "kropki white",
            n: 4,
            iss: Some(".WhiteDot~R1C1~R1C2~R1C3~R1C4".into()),
            fpuzzles: (
                "difference",
                json!([
                    {"cells": ["R1C1", "R1C2"]},
                    {"cells": ["R1C2", "R1C3"]},
                    {"cells": ["R1C3", "R1C4"]},
                ]),
            ),
            givens: &["R4C2_2", "R4C1_1", "R4C3_3"],
            solution: &["4321", "2143", "3412", "1234"],
        },
        ElementCase {
            name: "kropki black",
            n: 4,
            iss: Some(".BlackDot~R2C1~R3C1".into()),
            fpuzzles: ("ratio", json!([{"cells": ["R2C1", "R3C1"]}])),
            givens: &["R4C2_2", "R3C3_3", "R2C2_1"],
            solution: &["4321", "2143", "1432", "3214"],
        },
        ElementCase {
            name: "odd",
            n: 4,
            iss: None,
            fpuzzles: (
                "odd",
                json!([{"cell": "R3C1"}, {"cell": "R1C2"}, {"cell": "R3C4"}]),
            ),
            givens: &["R4C1_4", "R2C4_2", "R1C3_1"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "minimum",
            n: 4,
            iss: None,
            fpuzzles: (
                "minimum",
                json!([{"cell": "R3C4"}, {"cell": "R1C3"}, {"cell": "R2C1"}, {"cell": "R4C2"}]),
            ),
            givens: &["R3C3_4", "R4C4_3", "R3C1_3"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "clone",
            n: 4,
            iss: None,
            fpuzzles: (
                "clone",
                json!([{"cells": ["R1C3", "R2C3", "R2C4"], "cloneCells": ["R2C1", "R3C1", "R3C2"]}]),
            ),
            givens: &["R1C2_3", "R1C3_1", "R4C3_2"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "quadruple",
            n: 4,
            iss: Some(".Quad~R3C1~3~4.Quad~R2C3~1~2.Quad~R1C2~3~3~4".into()),
            fpuzzles: (
                "quadruple",
                json!([
                    {"cells": ["R3C1", "R3C2", "R4C1", "R4C2"], "values": [3, 4]},
                    {"cells": ["R2C3", "R2C4", "R3C3", "R3C4"], "values": [1, 2]},
                    {"cells": ["R1C2", "R1C3", "R2C2", "R2C3"], "values": [3, 3, 4]},
                ]),
            ),
            givens: &["R1C3_1"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "column indexer",
            n: 4,
            iss: Some(".Indexing~C~R3C2~R2C3~R1C4~R2C1".into()),
            fpuzzles: (
                "columnindexer",
                json!([{"cells": ["R3C2", "R2C3", "R1C4", "R2C1"]}]),
            ),
            givens: &["R1C1_2", "R2C3_3"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "row indexer",
            n: 4,
            iss: Some(".Indexing~R~R1C3~R1C1~R2C4~R2C1".into()),
            fpuzzles: (
                "rowindexer",
                json!([{"cells": ["R1C3", "R1C1", "R2C4", "R2C1"]}]),
            ),
            givens: &["R4C3_2", "R2C2_4"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "box indexer",
            n: 4,
            iss: None,
            fpuzzles: (
                "boxindexer",
                json!([{"cells": ["R1C3", "R2C4", "R2C2", "R2C3"]}]),
            ),
            givens: &["R3C1_3", "R2C1_1"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "little-killer",
            n: 4,
            // ISS names a diagonal by its first cell on its edges: R2C1 is
            // the one up-left from below r4c3.
            iss: Some(".LittleKiller~13~R1C1.LittleKiller~7~R3C4.LittleKiller~5~R2C1".into()),
            fpuzzles: (
                "littlekillersum",
                json!([
                    {"cell": "R0C0", "cells": ["R1C1", "R2C2", "R3C3", "R4C4"], "direction": "DR", "value": "13"},
                    {"cell": "R4C5", "direction": "UL", "value": "7"},
                    {"cell": "R5C4", "direction": "UL", "value": "5"},
                    {"cell": "R5C1", "direction": "UR", "value": ""},
                ]),
            ),
            givens: &["R4C4_3"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "sandwich",
            n: 4,
            iss: Some(".Sandwich~2~C2.Sandwich~2~C4".into()),
            fpuzzles: (
                "sandwichsum",
                json!([{"cell": "R5C2", "value": "2"}, {"cell": "R5C4", "value": "2"}]),
            ),
            givens: &["R1C3_1", "R2C1_1"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "x-sum",
            n: 4,
            iss: Some(".XSum~C1~3.XSum~C3~~6.XSum~R1~~10".into()),
            fpuzzles: (
                "xsum",
                json!([
                    {"cell": "R0C1", "value": "3"},
                    {"cell": "R5C3", "value": "6"},
                    {"cell": "R1C5", "value": 10},
                ]),
            ),
            givens: &["R1C1_2"],
            solution: &["2314", "1432", "3241", "4123"],
        },
        ElementCase {
            name: "skyscraper",
            n: 4,
            iss: Some(".Skyscraper~R2~~3.Skyscraper~R3~2.Skyscraper~C3~3~.Skyscraper~C2~~3".into()),
            fpuzzles: (
                "skyscraper",
                json!([
                    {"cell": "R2C5", "value": "3"},
                    {"cell": "R3C0", "value": "2"},
                    {"cell": "R0C3", "value": "3"},
                    {"cell": "R5C2", "value": "3"},
                ]),
            ),
            givens: &["R1C1_2"],
            solution: &["2314", "1432", "3241", "4123"],
        },
    ];
    for case in &cases {
        case.check();
    }
    // The negative rule (here the dots alone decide the grid too, so the
    // rule is seen read in what `convert` writes).
    let (iss, white, black) = strict;
    let sol = ["654321", "321654", "563412", "412563", "236145", "145236"];
    let strict_iss = format!(".Shape~6x6.StrictKropki{iss}");
    assert_eq!(solve_unique(&[&strict_iss]), digits(&sol));
    let p = json!({
        "size": 6,
        "grid": fp_grid(&["......"; 6]),
        "solution": fp_solution(&sol),
        "difference": white,
        "ratio": black,
        "negative": ["ratio", "difference"],
    });
    assert_eq!(
        solve_unique(&[&fpuzzles_link(&p)]),
        digits(&sol),
        "negative (f-puzzles)"
    );
    round_trip(&strict_iss);
    for input in [strict_iss, fpuzzles_link(&p)] {
        let out = smtgrid(&["convert", &input]);
        succeeded(&out);
        assert!(String::from_utf8_lossy(&out.stdout).contains("kropki-negative = true"));
    }
    // f-puzzles' `nonconsecutive` (the white half) with `negative:
    // ["ratio"]` (the black half) is the same rule, written as one key.
    let mut split = p.clone();
    split["negative"] = json!(["ratio"]);
    split["nonconsecutive"] = json!(true);
    let link = fpuzzles_link(&split);
    assert_eq!(
        solve_unique(&[&link]),
        digits(&sol),
        "nonconsecutive + ratio"
    );
    let out = smtgrid(&["convert", &link]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert_eq!(toml.matches("kropki-negative").count(), 1, "{toml}");
    assert!(toml.contains("kropki-negative = true\n"), "{toml}");
    round_trip(&link);
}

/// ISS reads the cells of a `.WhiteDot`, `.BlackDot`, `.X` or `.V` as a
/// set and marks every two of them that share a side, not only the ones
/// listed one after the other: the three dots of the 4×4 kropki case,
/// written in another order (R1C4 then R1C1, not neighbours), mean the
/// same puzzle; a cell touching none of the others is refused, as ISS
/// refuses it.
#[test]
fn iss_markers_mark_every_touching_pair_of_their_cells() {
    let givens = ".~R4C2_2~R4C1_1~R4C3_3";
    let solution = digits(&["4321", "2143", "3412", "1234"]);
    let chain = format!(".Shape~4x4.WhiteDot~R1C1~R1C2~R1C3~R1C4{givens}");
    let scrambled = format!(".Shape~4x4.WhiteDot~R1C3~R1C4~R1C1~R1C2{givens}");
    assert_eq!(solve_unique(&[&chain]), solution);
    assert_eq!(solve_unique(&[&scrambled]), solution);
    refused(
        ".Shape~4x4.WhiteDot~R1C1~R1C2~R3C3",
        &[],
        "r3c3 shares a side with none of its other cells",
    );
}

/// f-puzzles' `negative: ["ratio"]` alone: no neighbours without a dot
/// are in ratio 1:2, while consecutive ones may be; a pair with a white
/// dot is exempt too (SudokuSolver). On this 4×4 the dots and that rule
/// alone decide the grid (the white dot sits on a 2|1 pair, which the
/// rule would break), the dots alone leave three grids; the rule comes in
/// as `kropki-negative = "black"` and goes back out as `["ratio"]`.
#[test]
fn negative_ratio_alone_forbids_unmarked_one_to_two_pairs() {
    let sol = ["1432", "3214", "2143", "4321"];
    let black: Vec<Value> = [
        ["R3C1", "R3C2"],
        ["R4C3", "R4C4"],
        ["R1C2", "R2C2"],
        ["R1C4", "R2C4"],
        ["R2C2", "R3C2"],
        ["R3C1", "R4C1"],
        ["R3C3", "R4C3"],
    ]
    .iter()
    .map(|c| json!({ "cells": c }))
    .collect();
    let mut p = json!({
        "size": 4,
        "grid": fp_grid(&["...."; 4]),
        "solution": fp_solution(&sol),
        "difference": [{"cells": ["R2C2", "R2C3"]}],
        "ratio": black,
    });
    assert!(not_unique(&fpuzzles_link(&p)), "the dots alone");
    p["negative"] = json!(["ratio"]);
    let link = fpuzzles_link(&p);
    assert_eq!(solve_unique(&[&link]), digits(&sol));
    let out = smtgrid(&["convert", &link]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(toml.contains("kropki-negative = \"black\"\n"), "{toml}");
    round_trip(&link);
    // `nonconsecutive` alone is the white half, and goes back out as itself.
    let link =
        fpuzzles_link(&json!({"size": 4, "grid": fp_grid(&["...."; 4]), "nonconsecutive": true}));
    let out = smtgrid(&["convert", &link]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(toml.contains("kropki-negative = \"white\"\n"), "{toml}");
    round_trip(&link);
}

/// An ISS cage that lists a cell twice counts it twice in its sum, its
/// cells still all different (ISS's sum handler adds the repeat's
/// coefficient, its AllDifferent drops the repeat): 2·r1c1 + r1c2 = 6
/// with these two givens leaves one grid (r1c1 = 1, r1c2 = 4); the cage
/// comes in as a `killer-cage` with `counts`, which reads back the same.
#[test]
fn iss_cage_listing_a_cell_twice_counts_it_twice() {
    let iss = ".Shape~4x4.Cage~6~R1C1~R1C2~R1C1.~R3C1_2~R3C4_3";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["1432", "3214", "2143", "4321"])
    );
    let out = smtgrid(&["convert", iss]);
    succeeded(&out);
    let toml = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        toml.contains("[[killer-cage]]\ncells = \"r1c1 r1c2\"\nsum = 6\ncounts = [2, 1]\n"),
        "{toml}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("cage.toml");
    std::fs::write(&file, &toml).expect("write");
    let file = file.to_str().expect("utf-8 path");
    assert_eq!(
        solve_unique(&[file]),
        digits(&["1432", "3214", "2143", "4321"])
    );
    // f-puzzles has no such cage: the link is refused, naming it.
    let out = smtgrid(&["convert", "--to", "fpuzzles", iss]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("counts a cell more than once"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every line element writes itself into f-puzzles (`convert --to
/// fpuzzles`) under the key its reader takes, and the link read back is
/// the same puzzle: parameters (a whispers or lockout difference, an
/// arrow's pill) included, as the registry's line kinds all write through
/// one hook.
#[test]
fn every_line_element_round_trips_through_fpuzzles() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("lines.toml");
    std::fs::write(
        &file,
        r#"kind = "sudoku"
title = "Every line"
givens = """
5........
.........
.........
.........
.........
.........
.........
.........
........1
"""

[[thermometer]]
cells = "r2c2 r2c3 r3c4"

[[slow-thermometer]]
cells = "r9c1 r8c1 r7c2"

[[arrow]]
cells = "r1c2 r2c1 r3c1"

[[arrow]]
cells = "r1c5 r1c6 r2c7 r3c7 r4c7"
circle = 2

[[double-arrow]]
cells = "r4c1 r4c2 r4c3 r5c4"

[[whispers]]
cells = "r5c1 r6c2 r7c3"

[[whispers]]
cells = "r6c5 r6c6"
difference = 4

[[renban]]
cells = "r3c5 r3c6 r4c6"

[[palindrome]]
cells = "r5c5 r5c6 r5c7 r5c8"

[[between-line]]
cells = "r7c5 r7c6 r7c7"

[[region-sum-line]]
cells = "r8c3 r8c4 r8c5 r8c6"

[[zipper-line]]
cells = "r9c3 r9c4 r9c5"

[[entropic-line]]
cells = "r1c7 r1c8 r1c9"

[[modular-line]]
cells = "r2c9 r3c9 r4c9"

[[nabner]]
cells = "r6c8 r7c9"

[[lockout-line]]
cells = "r8c8 r8c9 r9c9"

[[lockout-line]]
cells = "r6c9 r5c9 r4c8"
difference = 3
"#,
    )
    .expect("write");
    let path = file.to_str().expect("a UTF-8 path");
    let link = smtgrid(&["convert", "--to", "fpuzzles", path]);
    succeeded(&link);
    let json = link_json(&String::from_utf8_lossy(&link.stdout));
    for key in [
        "thermometer",
        "slowthermometer",
        "arrow",
        "doublearrow",
        "whispers",
        "renban",
        "palindrome",
        "betweenline",
        "regionsumline",
        "zipperline",
        "entropicline",
        "modularline",
        "nabner",
        "lockout",
    ] {
        assert!(json.get(key).is_some(), "`{key}` missing from {json}");
    }
    // The pill's circle is its two cells, its line starting in the one the
    // shaft leaves; a difference is f-puzzles' string "value".
    assert_eq!(
        json["arrow"][1],
        json!({"cells": ["R1C5", "R1C6"], "lines": [["R1C6", "R2C7", "R3C7", "R4C7"]]})
    );
    assert_eq!(json["whispers"][1]["value"], json!("4"));
    round_trip(path);
    // Written by hand it reads the same: `circle = 1` is the default.
    let toml = smtgrid(&["convert", path]);
    assert!(!String::from_utf8_lossy(&toml.stdout).contains("circle = 1"));
}

/// ISS's `.AntiConsecutive` (no two cells that share a side are
/// consecutive) is the white half of the negative constraint; a string
/// that starts with an empty piece (`..`) is ISS's too. ISS binds a pair
/// with a black dot as well, which the negative constraint exempts: there
/// it rules out 1 (of a 1:2 pair only 1 and 2 are consecutive), read as
/// the dotted cells' candidates, so a 1 on a black dot has no solution.
/// A white dot contradicts it and is refused.
#[test]
fn iss_anti_consecutive_is_the_white_negative_constraint() {
    let (toml, _) = converted(&["..Shape~4x4.AntiConsecutive.~R1C1_2"]);
    assert!(toml.contains("kropki-negative = \"white\""), "{toml}");
    let dotted = ".Shape~6x6.AntiConsecutive.BlackDot~R1C1~R1C2";
    let (toml, _) = converted(&[dotted]);
    assert!(
        toml.contains("[[candidates]]\ncells = \"r1c1 r1c2\"\nvalues = [2, 3, 4, 5, 6]"),
        "{toml}"
    );
    refused(
        &format!("{dotted}.~R1C1_1"),
        &[],
        "ISS gives r1c1 1, on a black dot under `.AntiConsecutive`",
    );
    refused(
        ".Shape~4x4.AntiConsecutive.WhiteDot~R1C1~R1C2",
        &[],
        "ISS `.AntiConsecutive` with white dots",
    );
}

/// ISS allows killer cages that share cells, each with its own sum and
/// digits that differ (its "Killer sudoku [overlap]"), and so do f-puzzles
/// and TOML's `[[killer-cage]]`: they are read as
/// killer-cage elements of a sudoku, not as the killer kind's cages,
/// which part the grid. Here five cages, two pairs of them sharing cells,
/// leave one grid; two cages of 3 through one given 2 ask for two 1s in
/// a row.
#[test]
fn iss_overlapping_cages_each_keep_their_sum() {
    let iss = ".Shape~4x4.Cage~4~R2C2~R2C3.Cage~8~R3C4~R2C4~R1C4.Cage~6~R2C2~R3C2~R4C2\
               .Cage~9~R1C1~R2C1~R3C1.Cage~7~R4C1~R3C1~R2C1";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["3421", "2134", "4213", "1342"])
    );
    let (toml, _) = converted(&[iss]);
    assert!(toml.contains("kind = \"sudoku\""), "{toml}");
    assert_unsat(".Shape~4x4.Cage~3~R1C1~R1C2.Cage~3~R1C2~R1C3.~R1C2_2");
    // f-puzzles' killer cages that share a cell read the same way.
    let mut fp = sudoku4();
    fp["killercage"] = json!([
        {"cells": ["R2C2", "R2C3"], "value": "6"},
        {"cells": ["R2C3", "R3C3"], "value": "7"},
    ]);
    let (toml, _) = converted(&[&fpuzzles_link(&fp)]);
    assert_eq!(toml.matches("[[killer-cage]]").count(), 2, "{toml}");
}

/// ISS's `.Modular~M~…` with any modulus: every M cells in a row on the
/// line hold M remainders mod M. Here a mod-2 square (r1c1 r1c2 r2c2
/// r2c1 alternate parity) and a mod-4 line of five cells (r1c1 … r1c4
/// all different, r2c4 equal to r1c1) with two givens leave one grid
/// (either line alone leaves four or more); two odd cells on a mod-2
/// line have no solution.
#[test]
fn iss_modular_lines_take_any_modulus() {
    let iss = ".Shape~4x4.Modular~2~R1C1~R1C2~R2C2~R2C1\
        .Modular~4~R1C1~R1C2~R1C3~R1C4~R2C4.~R3C3_4~R4C2_1";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    let (toml, _) = converted(&[iss]);
    assert!(toml.contains("modulus = 4"), "{toml}");
    assert_unsat(".Shape~4x4.Modular~2~R1C1~R1C2.~R1C1_1~R1C2_3");
    refused(".Shape~4x4.Modular~1~R1C1~R1C2", &[], "modulus = 1");
}

/// ISS's given candidates (`.~R2C3_3_4`: the cell holds 3 or 4) come in as
/// `candidates`: two such cells and two givens leave one grid; a
/// candidate that only repeats its box's given has none, and `explain`
/// names it.
#[test]
fn iss_given_candidates_restrict_their_cells() {
    let iss = ".Shape~4x4.~R3C3_4~R4C2_1~R2C3_3_4~R3C1_3_4";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["2314", "1432", "3241", "4123"])
    );
    let (toml, _) = converted(&[iss]);
    assert!(
        toml.contains("[[candidates]]\ncells = \"r2c3 r3c1\"\nvalues = [3, 4]\n"),
        "{toml}"
    );
    let out = smtgrid(&[
        "explain",
        ".Shape~4x4.~R1C1_2~R1C2_2_1~R2C1_1",
        "--solver",
        "yices2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("candidates (r1c2 is 1 or 2)"), "{text}");
}

/// ISS's pencil-mark text (n characters a cell, n³ in all, `.` for a value
/// the cell may not hold) on a links-file line: every cell of a 9×9
/// marked with its one value but r1c1 and r1c2, each marked with both of
/// theirs, is one grid; a cell marked with nothing is refused.
#[test]
fn iss_pencil_marks_read_as_candidates() {
    let value = |r: usize, c: usize| (r * 3 + r / 3 + c) % 9 + 1;
    let marks = |r: usize, c: usize| -> String {
        let mut allowed = vec![value(r, c)];
        if r == 0 && c < 2 {
            allowed.push(value(0, 1 - c));
        }
        (1..=9)
            .map(|v| {
                if allowed.contains(&v) {
                    char::from(b'0' + v as u8)
                } else {
                    '.'
                }
            })
            .collect()
    };
    let text: String = (0..81).map(|i| marks(i / 9, i % 9)).collect();
    assert_eq!(text.len(), 729);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("marks.links");
    std::fs::write(&file, format!("{text}\n")).expect("write");
    let file = file.to_str().expect("utf-8 path");
    let want: Vec<Vec<u32>> = (0..9)
        .map(|r| (0..9).map(|c| value(r, c) as u32).collect())
        .collect();
    assert_eq!(solve_unique(&[file, "--input-format", "links"]), want);
    let blank = format!("{}{}", ".".repeat(9), &text[9..]);
    refused(
        &blank,
        &["--input-format", "links"],
        "holds no value from 1 to 9",
    );
}

/// An f-puzzles cell's `parity` (`"Odd"` or `"Even"`, the older form of
/// the `odd` and `even` lists) marks it as they do: three odd cells, one
/// even one and two givens leave one
/// grid, which the givens alone do not; an odd cell given 2 is refused
/// up front, and so is another parity, naming the cell.
#[test]
fn fpuzzles_cell_parity_marks_odd_and_even_cells() {
    let sol = ["2314", "1432", "3241", "4123"];
    let mut p = json!({
        "size": 4,
        "grid": fp_grid(&["....", "....", "..4.", ".1.."]),
        "solution": fp_solution(&sol),
    });
    p["grid"][1][0]["parity"] = json!("Odd");
    p["grid"][2][0]["parity"] = json!("Odd");
    p["grid"][3][3]["parity"] = json!("Odd");
    p["grid"][1][3]["parity"] = json!("Even");
    assert_eq!(solve_unique(&[&fpuzzles_link(&p)]), digits(&sol));
    let (toml, _) = converted(&[&fpuzzles_link(&p)]);
    assert!(toml.contains("[[even]]\ncells = \"r2c4\""), "{toml}");
    // A cell both the `odd` list and its `parity` name is marked once.
    let mut both = p.clone();
    both["odd"] = json!([{ "cell": "R2C1" }]);
    let (toml, _) = converted(&[&fpuzzles_link(&both)]);
    assert_eq!(toml.matches("r2c1").count(), 1, "{toml}");
    let mut broken = json!({"size": 4, "grid": fp_grid(&["2...", "....", "....", "...."])});
    broken["grid"][0][0]["parity"] = json!("Odd");
    refused(
        &fpuzzles_link(&broken),
        &[],
        ": grid[0][0].parity: r1c1 has the given 2 and an odd mark, which contradict each other",
    );
    let mut bad = json!({"size": 4, "grid": fp_grid(&["...."; 4])});
    bad["grid"][0][1]["parity"] = json!("Prime");
    refused(
        &fpuzzles_link(&bad),
        &[],
        "f-puzzles cell r1c2 has the parity \"Prime\"",
    );
}

/// A whispers line that comes back to a cell (ISS's `.Whisper` listing it
/// twice) is a loop: each step's two cells differ by the difference. Here
/// the closing step r2c2→r1c2 makes the grid unique (the open line leaves
/// three); a loop round one 2×2 box has no solution (a 3 or a 2 would need
/// two neighbours 2 away from it); a renban that comes back is refused.
#[test]
fn an_iss_whispers_loop_constrains_its_closing_step() {
    let iss = ".Shape~4x4.Whisper~2~R1C2~R1C3~R2C3~R2C2~R1C2.~R1C1_1~R3C3_2";
    assert_eq!(
        solve_unique(&[iss]),
        digits(&["1243", "3412", "4321", "2134"])
    );
    assert_unsat(".Shape~4x4.Whisper~2~R1C1~R1C2~R2C2~R2C1~R1C1");
    refused(
        ".Shape~4x4.Renban~R1C1~R1C2~R2C2~R1C1",
        &[],
        "r1c1 is listed twice: a renban passes each cell once",
    );
}

/// A jigsaw region in pieces (ISS's `.Jigsaw` and f-puzzles' regions
/// allow it; its cells hold each value once, wherever they are): regions
/// a (r1c1 r1c2 r2c1 r4c4) and d (r2c2 r3c3 r3c4 r4c3) with three givens
/// leave one grid, and the TOML it converts to reads back the same.
#[test]
fn a_jigsaw_region_in_pieces_is_read() {
    let iss = ".Shape~4x4.Jigsaw~4x4~aabbadbbccddccda.NoBoxes.~R1C1_1~R1C2_2~R3C3_4";
    let want = digits(&["1234", "4321", "3142", "2413"]);
    assert_eq!(solve_unique(&[iss]), want);
    let (toml, _) = converted(&[iss]);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("pieces.toml");
    std::fs::write(&file, &toml).expect("write");
    assert_eq!(solve_unique(&[file.to_str().expect("utf-8 path")]), want);
}

/// ISS's `.NoBoxes` without a `.Jigsaw` is a Latin square: the boxes'
/// rule is gone, so a grid whose top-left box holds 2 twice is its only
/// solution; it converts to a sudoku whose boxes are its rows. So are an
/// f-puzzles grid whose every cell is in no region (`region: null`) and
/// a SudokuPad puzzle drawing no regions, by the same code; regions
/// still drawn beside cells in none are extra regions, and one left short
/// is refused.
#[test]
fn a_grid_without_boxes_is_a_latin_square() {
    let iss =
        ".Shape~4x4.NoBoxes.~R1C1_1~R1C2_2~R1C3_3~R1C4_4~R2C1_2~R2C2_3~R2C3_4~R2C4_1~R3C1_3~R3C2_4";
    let want = digits(&["1234", "2341", "3412", "4123"]);
    assert_eq!(solve_unique(&[iss]), want);
    let (toml, _) = converted(&[iss]);
    assert!(toml.contains("box = \"1x4\""), "{toml}");
    let mut none = sudoku4();
    none["grid"] = fp_grid(&["1...", "....", "....", "...."]);
    for row in none["grid"].as_array_mut().expect("rows") {
        for cell in row.as_array_mut().expect("cells") {
            cell["region"] = Value::Null;
        }
    }
    none["solution"] = fp_solution(&["1234", "2341", "3412", "4123"]);
    let (toml, _) = converted(&[&fpuzzles_link(&none)]);
    assert!(toml.contains("box = \"1x4\""), "{toml}");
    assert!(!toml.contains("[[extra-region]]"), "{toml}");
    let (toml, _) = converted(&[&scl_link(
        "{id:'latin',metadata:{solution:'1234234134124123'},\
         ce:[[{v:1},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}",
    )]);
    assert!(toml.contains("box = \"1x4\""), "{toml}");
    // The top two boxes kept: rows 1 and 2 in no region.
    let mut half = none.clone();
    for c in 0..4 {
        half["grid"][0][c] = json!({});
        half["grid"][1][c] = json!({});
    }
    half["solution"] = fp_solution(&SUDOKU4_SOLUTION);
    let (toml, _) = converted(&[&fpuzzles_link(&half)]);
    assert!(toml.contains("box = \"1x4\""), "{toml}");
    assert_eq!(toml.matches("[[extra-region]]").count(), 2, "{toml}");
    let mut short = sudoku4();
    short["grid"][0][0]["region"] = Value::Null;
    refused(
        &fpuzzles_link(&short),
        &[],
        "region 1 (from r1c2) has 3 cells, but every region of a 4×4 grid has 4 (r1c1 is in \
         no region: give every cell a region, or no cell one for a Latin square)",
    );
}

/// A given repeated in a region that a partial layout keeps (beside
/// cells in no region), or in an extra region the payload draws, is
/// refused at load time at the second given, as one repeated in a full
/// layout's region is, by every importer that has such regions; not left
/// for the solver to find unsat.
#[test]
fn a_given_repeated_in_an_extra_or_kept_region_is_refused_at_load() {
    // Rows 1 and 2 in no region; the bottom-left box, kept, holds 1 twice.
    let mut half = sudoku4();
    half["grid"] = fp_grid(&["....", "....", "1...", ".1.."]);
    half.as_object_mut().expect("an object").remove("solution");
    for r in 0..2 {
        for c in 0..4 {
            half["grid"][r][c]["region"] = Value::Null;
        }
    }
    let want = "the givens break a rule: 1 appears twice in region 1 (r3c1 and r4c2): correct \
                one of the two";
    refused(
        &fpuzzles_link(&half),
        &[],
        &format!(": grid[3][1].value: {want}"),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = written(
        dir.path(),
        "half.json",
        &serde_json::to_string_pretty(&half).expect("json"),
    );
    let out = bin().arg("convert").arg(&file).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // The second given's `value`, on its own line of the pretty JSON.
    let text = std::fs::read_to_string(&file).expect("read");
    let line = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"value\": 1"))
        .nth(1)
        .map(|(k, _)| k + 1)
        .expect("two givens");
    assert!(err.contains(&format!("half.json:{line}:")), "{err}");
    assert!(err.contains(want), "{err}");
    // An f-puzzles extra region and an ISS one.
    let mut extra = sudoku4();
    extra["grid"] = fp_grid(&["1...", "..1.", "....", "...."]);
    extra.as_object_mut().expect("an object").remove("solution");
    extra["extraregion"] = json!([{"cells": ["R1C1", "R2C3"]}]);
    refused(
        &fpuzzles_link(&extra),
        &[],
        ": grid[1][2].value: the givens break a rule: 1 appears twice in extra-region 1 (r1c1 \
         and r2c3)",
    );
    refused(
        ".Shape~4x4.~R1C1_1~R2C3_1.AllDifferent~R1C1~R2C3",
        &[],
        "1 appears twice in extra-region 1 (r1c1 and r2c3)",
    );
    // SudokuPad: regions drawn for the bottom two boxes only.
    refused(
        &scl_link(
            "{cells:[[,,,],[,,,],[{v:1},,,],[,{v:1},,]],\
             regions:[[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]]}",
        ),
        &[],
        &format!(": cells[3][1].value: {want}"),
    );
}

/// SudokuPad's own JSON refused names where in it the fault is, as
/// f-puzzles JSON does: its path in a link (plain or abbreviated JSON,
/// the path in the long keys), its line and column in a JSON file.
#[test]
fn sudokupad_json_faults_name_their_place() {
    let empty = "[{}, {}, {}, {}]";
    let rows = |second: &str| format!("[{empty}, {second}, {empty}, {empty}]");
    let plain = rows(empty);
    // (the JSON, its path, what the message says)
    let cases = [
        (
            format!("{{\"cells\": {}}}", rows("[{}, {}, {}, {\"value\": 9}]")),
            "cells[1][3].value",
            "SudokuPad cell r2c4 holds 9, but a 4×4 grid holds 1 to 4",
        ),
        (
            format!("{{\"cells\": {}}}", rows("[{}, {}, 7, {}]")),
            "cells[1][2]",
            "SudokuPad cell r2c3 is a number, not an object",
        ),
        (
            format!("{{\"cells\": {}}}", rows("[{}, {}, {}]")),
            "cells[1]",
            "SudokuPad row 2 is not 4 cells long",
        ),
        (
            format!(
                "{{\"cells\": {plain}, \"cages\": [{{\"cells\": [[0, 0]], \"value\": 1}}, \
                 {{\"cells\": [[0, 1], [4, 1]], \"value\": 9}}]}}"
            ),
            "cages[1].cells[1]",
            "a SudokuPad cell [4,1] is not a cell of the 4×4 grid",
        ),
        (
            format!(
                "{{\"cells\": {plain}, \"lines\": [{{\"color\": \"#ff0000\", \
                 \"wayPoints\": [[0.5, 0.5], [1.5, 0.5], [2.5]]}}]}}"
            ),
            "lines[0].wayPoints[2]",
            "a SudokuPad line point [2.5] is not two numbers",
        ),
        (
            format!("{{\"cells\": {plain}, \"regions\": [[[0, 0], [0, 1.5]]]}}"),
            "regions[0][1]",
            "a SudokuPad cell [0,1.5] is not a cell of the 4×4 grid",
        ),
        (
            format!(
                "{{\"cells\": {plain}, \"cages\": [{{\"cells\": [[0, 0], [0, 1]], \
                 \"value\": \"odd\"}}]}}"
            ),
            "cages[0].value",
            "SudokuPad cage at r1c1 has the value `odd`, not a sum",
        ),
        (
            format!("{{\"cells\": {plain}, \"metadata\": {{\"solution\": \"12\"}}}}"),
            "metadata.solution",
            "the SudokuPad solution has 2 characters",
        ),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    for (k, (json, path, want)) in cases.iter().enumerate() {
        refused(&scl_link(json), &[], &format!(": {path}: {want}"));
        // The file: its line and column, each case's fault on a line of
        // its own.
        let text = json.replacen(", ", ",\n", 1);
        let file = written(dir.path(), &format!("sp{k}.json"), &text);
        let out = bin().arg("convert").arg(&file).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{file}:")), "{err}");
        assert!(err.contains(want), "{err}");
        assert!(
            !err.contains(&format!("{file}: ")),
            "a line and column: {err}"
        );
    }
    // The abbreviated form: the same path, in the long keys.
    refused(
        &scl_link("{ce:[[,,,],[,,,{v:9}],[,,,],[,,,]]}"),
        &[],
        ": cells[1][3].value: SudokuPad cell r2c4 holds 9",
    );
    refused(
        &scl_link("{ce:[[,,,],[,,,],[,,,],[,,,]],l:[{wp:[[0.5,0.5],'x']}]}"),
        &[],
        ": lines[0].wayPoints[1]: a SudokuPad line point \"x\" is not two numbers",
    );
}

/// Writes `text` into `dir` as file `name`; its path.
fn written(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("a UTF-8 path").to_string()
}

/// The f-puzzles JSON in the link `text` (one line, as `convert --to
/// fpuzzles` writes it).
fn link_json(text: &str) -> Value {
    let payload = text
        .trim()
        .strip_prefix("https://www.f-puzzles.com/?load=")
        .expect("an f-puzzles link");
    serde_json::from_str(
        &lz_str::decompress_from_base64(payload)
            .map(|u| String::from_utf16_lossy(&u))
            .expect("lz-string"),
    )
    .expect("f-puzzles JSON")
}

/// `convert` keeps what a file says about a puzzle: its title, author and
/// rules in words from f-puzzles JSON to TOML (`ruleset` becomes `rules`),
/// and from TOML to an f-puzzles link and back to the same TOML; a
/// generated puzzle's `[source]` and `[grade]` tables from TOML to TOML,
/// while a link, which cannot hold them, says so on standard error.
#[test]
fn convert_keeps_what_a_file_says_about_a_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fp = written(
        dir.path(),
        "fp.json",
        r#"{"size":4,"title":"T","author":"Someone","ruleset":"Normal rules.","grid":[[{"value":4,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#,
    );
    let (toml, _) = converted(&[&fp]);
    for line in [
        "title = \"T\"\n",
        "author = \"Someone\"\n",
        "rules = \"Normal rules.\"\n",
    ] {
        assert!(toml.contains(line), "{line}{toml}");
    }

    let path = written(
        dir.path(),
        "p.toml",
        "kind = \"sudoku\"\ntitle = \"Classic\"\nauthor = \"A. Setter\"\n\
         rules = \"Normal sudoku rules.\\nA second line.\"\n\
         givens = \"\"\"\n4.1.\n.2..\n..3.\n.4.1\n\"\"\"\n",
    );
    let path = path.as_str();
    let (link, err) = converted(&["--to", "fpuzzles", path]);
    assert!(err.is_empty(), "nothing is left out: {err}");
    let json = link_json(&link);
    assert_eq!(json["title"], json!("Classic"), "{json}");
    assert_eq!(json["author"], json!("A. Setter"), "{json}");
    assert_eq!(
        json["ruleset"],
        json!("Normal sudoku rules.\nA second line."),
        "{json}"
    );
    let (there, _) = converted(&[path]);
    let (back, _) = converted(&[link.trim()]);
    assert_eq!(back, there);

    // A generated puzzle's tables.
    let path = written(
        dir.path(),
        "gen.toml",
        "kind = \"sudoku\"\ngivens = \"\"\"\n4.1.\n.2..\n..3.\n.4.1\n\"\"\"\n\n\
         [source]\nseed = 1\ngenerator = \"smtgrid 0.1.0 generate\"\nunique = true\n\n\
         [grade]\nname = \"easy\"\npropagated = 0.5\n",
    );
    let path = path.as_str();
    let (toml, err) = converted(&[path]);
    assert!(err.is_empty(), "{err}");
    let source = toml.find("\n[source]\n").expect("[source]");
    let grade = toml.find("\n[grade]\n").expect("[grade]");
    assert!(source < grade, "{toml}");
    // The keys in the file's order, not the alphabet's.
    assert!(
        toml[source..].starts_with("\n[source]\nseed = 1\ngenerator = "),
        "{toml}"
    );
    for line in [
        "generator = \"smtgrid 0.1.0 generate\"\n",
        "seed = 1\n",
        "unique = true\n",
        "name = \"easy\"\n",
        "propagated = 0.5\n",
    ] {
        assert!(toml.contains(line), "{line}{toml}");
    }
    // Converting the converted file again changes nothing.
    let again = written(dir.path(), "again.toml", &toml);
    let (twice, _) = converted(&[&again]);
    assert_eq!(twice, toml);

    let (_, err) = converted(&["--to", "fpuzzles", path]);
    assert!(
        err.contains(
            "gen: f-puzzles has no place for [source] and [grade] tables: the link leaves them out"
        ),
        "{err}"
    );
}
