//! The command line (being written).

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    0
}
