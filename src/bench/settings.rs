//! The settings of a bench run: every option that changes what a run's
//! numbers mean (its time limit, the form of the scripts, how solvers were
//! asked to run). Each record carries them, so that runs made under
//! different settings are never counted as one benchmark: `--resume`
//! refuses a results file made with other settings, naming each
//! difference.
//!
//! To add a setting, add a field to [`Settings`] (an `Option` with
//! `#[serde(default)]`, so that older files still read, with the field
//! "not recorded") and its flag to [`FLAGS`]: the comparison works on the
//! serialised fields, so it needs no other change.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::solve::{Plan, RunMode, SessionUse};

/// The options that change what a run measures. Flattened into each
/// [`super::Record`], so each is a top-level field of a results line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The time limit of the run in milliseconds (PAR-2 charges twice this
    /// for a run without a definite answer).
    pub timeout_ms: u64,
    /// Whether the scripts were the unsimplified ones (`--plain`);
    /// `null` in records of smtgrid versions that did not record it.
    #[serde(default)]
    pub plain: Option<bool>,
    /// `--memory-limit` in MiB, or `null` for none (smtgrid had no memory
    /// limit before it recorded one).
    #[serde(default)]
    pub memory_limit_mb: Option<u64>,
    /// The `--mode` the bench was asked for (the record's `mode` says how
    /// this run was made: a solver without an interactive mode runs as a
    /// process under `--mode incremental`); `null` when not recorded.
    #[serde(default)]
    pub asked_mode: Option<RunMode>,
}

/// Each setting's command-line flag, for messages; a setting missing here
/// is named by its field.
pub const FLAGS: &[(&str, &str)] = &[
    ("timeout_ms", "--timeout"),
    ("memory_limit_mb", "--memory-limit"),
    ("plain", "--plain"),
    ("asked_mode", "--mode"),
];

impl Settings {
    /// The settings of the runs `plan` makes.
    pub fn of(plan: &Plan) -> Settings {
        Settings {
            timeout_ms: u64::try_from(plan.limits.timeout.as_millis()).unwrap_or(u64::MAX),
            memory_limit_mb: plan.limits.memory.map(|m| m.mb),
            plain: Some(plan.options.plain),
            asked_mode: Some(match plan.sessions {
                SessionUse::Never => RunMode::Process,
                // `bench` asks for sessions always or never; `solve`'s
                // "from the second puzzle of a shape on" is sessions too.
                SessionUse::Always | SessionUse::Repeated => RunMode::Incremental,
            }),
        }
    }

    /// Every setting in which `theirs` differs from these, by field name.
    pub fn differences(&self, theirs: &Settings) -> Vec<Difference> {
        let (Value::Object(ours), Value::Object(other)) = (
            serde_json::to_value(self).unwrap_or(Value::Null),
            serde_json::to_value(theirs).unwrap_or(Value::Null),
        ) else {
            return Vec::new();
        };
        ours.into_iter()
            .filter_map(|(field, ours)| {
                let theirs = other.get(&field).cloned().unwrap_or(Value::Null);
                (ours != theirs).then_some(Difference {
                    field,
                    ours,
                    theirs,
                })
            })
            .collect()
    }
}

/// One setting that two sets of runs do not share.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The record field, e.g. `timeout_ms`.
    pub field: String,
    /// Its value on this side (JSON; `null` when not recorded).
    pub ours: Value,
    /// Its value on the other side.
    pub theirs: Value,
}

impl Difference {
    /// The flag that sets it, or the field's name.
    pub fn flag(&self) -> &str {
        FLAGS
            .iter()
            .find(|(f, _)| *f == self.field)
            .map_or(self.field.as_str(), |(_, flag)| flag)
    }
}

/// A setting's value for a message: `null` is "not recorded".
pub fn shown(v: &Value) -> String {
    match v {
        Value::Null => "not recorded".into(),
        Value::String(s) => crate::error::escape_controls(s).into_owned(),
        v => v.to_string(),
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}) is {} there but {} here",
            self.field,
            self.flag(),
            shown(&self.theirs),
            shown(&self.ours)
        )
    }
}

/// The differences of `theirs` from `ours`, joined for one message:
/// `timeout_ms (--timeout) is 1 there but 60000 here; …`.
pub fn describe(differences: &[Difference]) -> String {
    differences
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(timeout_ms: u64) -> Settings {
        Settings {
            timeout_ms,
            memory_limit_mb: None,
            plain: Some(false),
            asked_mode: Some(RunMode::Process),
        }
    }

    #[test]
    fn every_differing_field_is_named_with_its_flag() {
        let a = settings(60_000);
        assert!(a.differences(&a.clone()).is_empty());
        let mut b = settings(1);
        b.plain = None;
        let d = a.differences(&b);
        let fields: Vec<&str> = d.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["plain", "timeout_ms"]);
        assert_eq!(
            describe(&d),
            "plain (--plain) is not recorded there but false here; \
             timeout_ms (--timeout) is 1 there but 60000 here"
        );
    }

    #[test]
    fn records_without_settings_still_read() {
        let s: Settings = serde_json::from_str(r#"{"timeout_ms": 5}"#).expect("reads");
        assert_eq!((s.plain, s.asked_mode), (None, None));
    }
}
