//! smtgrid: write a grid puzzle down once, emit it as SMT-LIB2, run it on
//! every installed SMT solver, and get back a grid that smtgrid's own
//! checker has verified.
//!
//! The pipeline, one module per stage:
//! [`parse`] → [`puzzle::Puzzle`] → [`lower`] → [`model::Model`] →
//! [`encode`] → [`smtlib::Script`] → [`solver`] (runs it) →
//! [`smtlib::reply`] (reads the answer) → [`model::Model::check`] →
//! [`render`].
//!
//! ```
//! use smtgrid::{Location, encode, lower, parse};
//!
//! let text = "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n";
//! let puzzles = parse::parse_str(text, &Location::file("mini.toml"), None).unwrap();
//! let model = lower::lower(&puzzles[0]);
//! let script = encode::encode(&model, encode::Encoding::Lia, &encode::Options::default());
//! assert_eq!(script.logic, "QF_LIA");
//! assert!(script.script.contains("(distinct x_1_1 x_1_2 x_1_3 x_1_4)"));
//!
//! // The checker needs no solver: a filled grid passes or names the broken rule.
//! let good = [4, 3, 1, 2, 1, 2, 4, 3, 2, 1, 3, 4, 3, 4, 2, 1];
//! assert!(model.check(&good).is_ok());
//! let mut bad = good;
//! bad.swap(0, 1);
//! assert!(model.check(&bad).unwrap_err().message.contains("given r1c1"));
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod cancel;
pub mod cli;
pub mod elements;
pub mod encode;
pub mod error;
pub mod explain;
pub mod family;
pub mod generate;
pub mod import;
pub mod inspect;
pub mod kinds;
pub mod lower;
pub mod model;
pub mod output;
pub mod parse;
pub mod provenance;
pub mod puzzle;
pub mod render;
pub mod reporter;
pub mod rng;
pub mod signals;
pub mod smtlib;
pub mod solve;
pub mod solver;
pub mod templates;

pub use error::{Error, InputError, Location, Result};
