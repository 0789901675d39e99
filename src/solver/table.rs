//! What `smtgrid solvers` shows of each [`Found`] solver: a text table or
//! one JSON object per solver.

use std::fmt::Write;

use super::discover::Found;

impl Found {
    /// The user's profiles file its profile comes from; `None` for a
    /// built-in profile or a `--solver-cmd` solver.
    fn user_file(&self) -> Option<&'static std::path::Path> {
        (!self.custom)
            .then(|| super::user_file_of(&self.profile.name))
            .flatten()
    }

    /// One JSON object: name, whether found, version, path, logics, tested,
    /// custom, the user's profiles file it comes from (`null`: built in),
    /// quirks and the error, if any.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.label,
            "found": self.path.is_some(),
            "version": self.version,
            "path": self.path,
            "logics": self.profile.logics,
            "tested": self.profile.tested,
            "custom": self.custom,
            "profile_file": self.user_file(),
            "quirks": self.profile.quirks,
            "error": self.error,
        })
    }
}

/// The solvers as text: per solver, a line with its version and path, a
/// line with its logics and notes, and a line per known quirk.
pub fn table(found: &[Found]) -> String {
    let mut out = String::new();
    for f in found {
        let state = match (&f.path, &f.version) {
            (Some(p), Some(v)) => format!("{v:<10} {}", p.display()),
            (Some(p), None) => format!("{:<10} {}", "?", p.display()),
            (None, _) => "not found".to_string(),
        };
        let mut notes = Vec::new();
        if f.custom {
            notes.push("custom".to_string());
        } else if !f.profile.tested {
            notes.push("untested".to_string());
        }
        if let Some(file) = f.user_file() {
            notes.push(format!(
                "profile from {}",
                crate::error::escape_controls(&file.display().to_string())
            ));
        }
        if let Some(e) = &f.error {
            notes.push(e.clone());
        }
        let logics = if f.profile.logics.is_empty() {
            "any".into()
        } else {
            f.profile.logics.join(",")
        };
        // Writing into a String cannot fail.
        let _ = writeln!(out, "{:<12} {state}", f.label);
        let _ = writeln!(
            out,
            "{:<12} logics: {logics}{}",
            "",
            if notes.is_empty() {
                String::new()
            } else {
                format!("  ({})", notes.join("; "))
            }
        );
        for q in &f.profile.quirks {
            let _ = writeln!(out, "{:<12} note: {q}", "");
        }
    }
    out
}
