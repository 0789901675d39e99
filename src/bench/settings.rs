//! The settings of a bench run: every option that changes what a run's
//! numbers mean (its time limit, the form of the scripts, how solvers were
//! asked to run). Each record carries them, so that runs made under
//! different settings are never counted as one benchmark: `--resume`
//! refuses a results file made with other settings, naming each
//! difference.
//!
//! `report` merges files only when all their runs share the settings
//! ([`select`]); `--keep FIELD=VALUE` ([`Keep`]) picks one set of runs.
//!
//! To add a setting, add a field to [`Settings`] (an `Option` with
//! `#[serde(default)]`, so that older files still read, with the field
//! "not recorded") and its flag to [`FLAGS`]: the comparison works on the
//! serialised fields, so it needs no other change.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Loaded, Record};
use crate::error::{Error, InputError, Location, Result};
use crate::solve::{Plan, RunMode, SessionUse, StatsUse};

/// The options that change what a run measures. Flattened into each
/// [`super::Record`], so each is a top-level field of a results line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// `--stats`: of which solvers statistics were asked (the question
    /// follows the answer in a process run, so it is in `time_ms`);
    /// `null` when not recorded.
    #[serde(default)]
    pub asked_stats: Option<StatsUse>,
}

/// Each setting's command-line flag, for messages; a setting missing here
/// is named by its field.
pub const FLAGS: &[(&str, &str)] = &[
    ("timeout_ms", "--timeout"),
    ("memory_limit_mb", "--memory-limit"),
    ("plain", "--plain"),
    ("asked_mode", "--mode"),
    ("asked_stats", "--stats"),
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
            asked_stats: Some(plan.stats),
        }
    }

    /// Each setting by its field name, as in a results line (`null` when
    /// not recorded).
    fn fields(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        }
    }

    /// Every setting in which `theirs` differs from these, by field name.
    pub fn differences(&self, theirs: &Settings) -> Vec<Difference> {
        let other = theirs.fields();
        self.fields()
            .into_iter()
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

/// A setting's value as `--keep` takes it: `null` when not recorded.
fn keep_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// `--keep FIELD=VALUE`: of runs made under different settings, report
/// only those whose setting FIELD (a field of [`Settings`], as in a
/// results line) has VALUE (`null` for "not recorded").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keep {
    /// The field, e.g. `timeout_ms`.
    pub field: String,
    /// Its value as written in a results line, strings unquoted.
    pub value: String,
}

impl FromStr for Keep {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Keep, String> {
        let fields = Settings::default().fields();
        let names = fields.keys().cloned().collect::<Vec<_>>().join(", ");
        let Some((field, value)) = s.split_once('=') else {
            return Err(format!(
                "give FIELD=VALUE (e.g. timeout_ms=20000), FIELD one of {names}"
            ));
        };
        let field = field.trim();
        if !fields.contains_key(field) {
            return Err(format!(
                "`{}` is not a setting; give one of {names}",
                crate::error::escape_controls(field)
            ));
        }
        Ok(Keep {
            field: field.to_string(),
            value: value.trim().to_string(),
        })
    }
}

impl std::fmt::Display for Keep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = crate::error::escape_controls(&self.value);
        write!(f, "--keep {}={value}", self.field)
    }
}

/// The runs `report` shows, and how many `--keep` left out.
#[derive(Debug, Default)]
pub struct Selection {
    /// The kept runs, in file order.
    pub records: Vec<Record>,
    /// How many runs of the files were left out.
    pub left_out: usize,
}

/// The runs of `files` that `keep` keeps (all of them without `--keep`),
/// refusing a mix of settings: runs made under other settings measure
/// other things, so merging them would count them as one benchmark. The
/// refusal names a run of each side, each difference and the `--keep`
/// that picks either side.
pub fn select(files: Vec<(PathBuf, Loaded)>, keep: &[Keep]) -> Result<Selection> {
    let runs = files.into_iter().flat_map(|(path, loaded)| {
        let at = Location::file(path);
        loaded
            .lines
            .into_iter()
            .map(move |line| at.at_line(line))
            .zip(loaded.records)
    });
    let mut selection = Selection::default();
    let mut kept: Vec<(Location, Record)> = Vec::new();
    let mut seen: Vec<BTreeSet<String>> = vec![BTreeSet::new(); keep.len()];
    for (at, r) in runs {
        let fields = r.settings.fields();
        let mut keeps = true;
        for (k, seen) in keep.iter().zip(&mut seen) {
            let value = keep_text(fields.get(&k.field).unwrap_or(&Value::Null));
            keeps &= value == k.value;
            seen.insert(value);
        }
        if !keeps {
            selection.left_out += 1;
            continue;
        }
        if let Some((first_at, first)) = kept.first() {
            let differences = r.settings.differences(&first.settings);
            if let Some(d) = differences.first() {
                return Err(InputError::new(
                    at,
                    format!(
                        "this run was made under other settings than the run at {first_at}: {}; \
                         report one set of runs at a time: add --keep {}={} or --keep {}={}",
                        describe(&differences),
                        d.field,
                        keep_text(&d.theirs),
                        d.field,
                        keep_text(&d.ours)
                    ),
                )
                .into());
            }
        }
        kept.push((at, r));
    }
    if kept.is_empty() && selection.left_out > 0 {
        let held = keep
            .iter()
            .zip(&seen)
            .map(|(k, seen)| {
                let values: Vec<&str> = seen.iter().map(String::as_str).collect();
                format!("{} is {}", k.field, values.join(" or "))
            })
            .collect::<Vec<_>>()
            .join("; ");
        let asked: Vec<String> = keep.iter().map(ToString::to_string).collect();
        return Err(Error::Usage(format!(
            "{} keeps none of the {} runs: in the files, {held}",
            asked.join(" "),
            selection.left_out
        )));
    }
    selection.records = kept.into_iter().map(|(_, r)| r).collect();
    Ok(selection)
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
            asked_stats: None,
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
