//! Fuzzes the importers (links input) and everything after them up to emit.
#![no_main]

#[path = "../../tests/fuzz/props.rs"]
#[allow(dead_code)] // each target uses only its own property
mod props;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(why) = props::puzzle_input(data, smtgrid::parse::InputFormat::Links) {
        panic!("{why}");
    }
});
