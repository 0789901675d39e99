//! The properties every fuzz input must keep, shared by the stable replay
//! harness (`tests/it/fuzz.rs`) and the cargo-fuzz targets (`fuzz/`), so both
//! check the same thing. A property that fails returns `Err` with what
//! broke; a panic inside the library is a failure too (the harness catches
//! it, libFuzzer reports it).

use smtgrid::Location;
use smtgrid::encode::{Encoding, Options, encode};
use smtgrid::lower::lower;
use smtgrid::parse::{InputFormat, parse_str};
use smtgrid::smtlib::reply::read_answer;

/// The file name every fuzzed puzzle claims to come from; every error must
/// name it.
pub const FILE: &str = "fuzz-input";

/// Puzzles up to this many cells are encoded (twice, to check that emit is
/// deterministic); larger ones only parse and lower, which keeps a fuzz
/// iteration in the millisecond range.
const ENCODE_CELLS: usize = 100;

/// Parses `data` as `format`; on success lowers and (for small puzzles)
/// encodes every puzzle twice in every encoding, which must give the same
/// bytes; on failure the message must name the file and be one printable
/// line.
pub fn puzzle_input(data: &[u8], format: InputFormat) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let loc = Location::file(FILE);
    match parse_str(&text, &loc, Some(format)) {
        Err(e) => message_is_clean(&e.to_string()),
        Ok(puzzles) => {
            for p in &puzzles {
                let model = lower(p);
                if model.cells.len() > ENCODE_CELLS {
                    continue;
                }
                for enc in Encoding::ALL {
                    let opts = Options::default();
                    let a = encode(&model, enc, &opts);
                    let b = encode(&model, enc, &opts);
                    if a.script != b.script {
                        return Err(format!("{enc} is not deterministic on {}", p.name));
                    }
                }
            }
            Ok(())
        }
    }
}

/// An error message must start with the file it is about and be a single
/// line of printable text: input bytes never reach the terminal raw.
pub fn message_is_clean(msg: &str) -> Result<(), String> {
    if !msg.starts_with(FILE) {
        return Err(format!("the message does not name the file: {msg:?}"));
    }
    if msg.chars().any(char::is_control) {
        return Err(format!("the message holds a control character: {msg:?}"));
    }
    Ok(())
}

/// Reads `data` as a solver's reply. Any outcome but a panic is fine: the
/// reader's job is to never crash on what a solver prints.
pub fn reply(data: &[u8]) -> Result<(), String> {
    let _ = read_answer(&String::from_utf8_lossy(data));
    Ok(())
}
