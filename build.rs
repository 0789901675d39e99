//! Records the git commit smtgrid is built from (when built from a
//! checkout with git at hand) in `SMTGRID_GIT_COMMIT`, for the provenance
//! of benchmark records. `SMTGRID_GIT_COMMIT` set in the environment wins
//! (a build from a source archive can name its commit that way).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-env-changed=SMTGRID_GIT_COMMIT");
    let commit = std::env::var("SMTGRID_GIT_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| {
            // Rebuild when HEAD moves: HEAD itself and the branch it names.
            for p in ["HEAD", "logs/HEAD"] {
                if let Some(path) = git(&["rev-parse", "--git-path", p]) {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            if let Some(name) = git(&["symbolic-ref", "-q", "HEAD"])
                && let Some(path) = git(&["rev-parse", "--git-path", &name])
            {
                println!("cargo:rerun-if-changed={path}");
            }
            // Uncommitted changes are not marked: the script is not rerun
            // when only the work tree changes, so the mark would go stale.
            git(&["rev-parse", "HEAD"])
        })
        .unwrap_or_default();
    println!("cargo:rustc-env=SMTGRID_GIT_COMMIT={commit}");
}
