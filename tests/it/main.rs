//! The integration tests, one module per area, in one test binary: each
//! binary of its own linked the whole library again, and with thirty-two
//! of them the links were a large share of the test command's time beside
//! the main job (docs/testing.md). Two files stay binaries of their own,
//! tests/runner.rs and tests/input_limits.rs: they measure the peak memory
//! of the processes they start, which Linux counts from the parent's size
//! at the fork, and this binary grows large over its tests.

mod bad_input;
mod bench;
mod bounds;
mod cli;
mod commands;
mod common;
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
mod output;
mod pictures;
mod profiles;
mod propagated;
mod puzzles;
mod render;
mod reply_fixtures;
mod sessions;
mod sgt;
mod signals;
mod snapshots;
mod solve_all;
mod starters;
mod text_grids;
