//! The integration tests, one module per area, in one test binary: each
//! binary of its own linked the whole library again, and with thirty-two
//! of them the links were a large share of the test command's time beside
//! the main job (docs/testing.md).

// The shared helpers come first so that their macros are in scope below.
#[macro_use]
mod common;

mod bad_input;
mod bench;
mod bounds;
mod cli;
mod commands;
mod derived;
mod effort;
mod elements;
mod encodings;
mod examples;
mod explain;
mod family;
mod fuzz;
mod generate;
mod import;
mod incremental;
mod input_limits;
mod output;
mod pictures;
mod profiles;
mod propagated;
mod puzzles;
mod render;
mod reply_fixtures;
mod runner;
mod sessions;
mod sgt;
mod signals;
mod snapshots;
mod solve_all;
mod starters;
mod text_grids;
