use std::process::ExitCode;

use smtgrid::cli::{Completion, run};

/// The exit status of every command is decided here, and only here.
fn main() -> ExitCode {
    ExitCode::from(match run() {
        Completion::Clean => 0,
        Completion::Failed => 1,
        Completion::Usage => 2,
        Completion::Interrupted => 130,
    })
}
