//! SMT-LIB2: terms and scripts to write, and a reader for what solvers
//! answer. Knows nothing about puzzles.

pub mod benchmark;
pub mod reply;
pub mod script;
pub mod sexp;
pub mod stats;

pub use reply::{Answer, CheckSat, Value};
pub use script::{Script, Sort, Term};
pub use sexp::Sexp;
