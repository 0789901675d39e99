//! smtgrid: write a grid puzzle down once, emit it as SMT-LIB2, run it on
//! every installed SMT solver, and get back a grid that smtgrid's own
//! checker has verified.
//!
//! The pipeline, one module per stage:
//! [`parse`] → [`puzzle::Puzzle`] → [`lower`] → [`model::Model`] →
//! [`encode`] → [`smtlib::Script`] → [`solver`] (runs it) →
//! [`smtlib::reply`] (reads the answer) → [`model::Model::check`] →
//! [`render`].
#![warn(missing_docs)]

pub mod cli;
pub mod encode;
pub mod error;
pub mod lower;
pub mod model;
pub mod parse;
pub mod puzzle;
pub mod render;
pub mod smtlib;
pub mod solve;
pub mod solver;
pub mod templates;

pub use error::{Error, InputError, Location, Result};
