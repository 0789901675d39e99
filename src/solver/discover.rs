//! Finding solvers: on PATH, through `SMTGRID_<NAME>`, through
//! `--solver NAME=PATH` and `--solver-cmd 'NAME=/path/bin ARGS…'`, and
//! choosing the ones a command asked for.
//!
//! Two versions of one solver run side by side by giving the second a
//! tagged label: `--solver z3@debian=/usr/bin/z3` adds a solver labelled
//! `z3@debian` that uses the z3 profile, next to the `z3` found on PATH.

use super::Cancel;
use super::profile::{Profile, Variant, default_solvers, env_var_for, profile, profiles};
use super::run::{check_executable, exec, resolve_program};
use crate::error::did_you_mean;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// How long a version probe may take. It normally takes milliseconds, but
/// on a loaded 2-core machine z3's start alone was seen to pass 1 s, and a
/// lost version leaves a result unlabelled.
const VERSION_TIMEOUT: Duration = Duration::from_secs(15);

/// A solver ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solver {
    /// What reports call it: a profile name (`z3`), a tagged profile name
    /// (`z3@debian`) or a custom solver's name.
    pub label: String,
    /// Its profile; for a custom solver, [`Profile::plain`].
    pub profile: Profile,
    /// The executable.
    pub path: PathBuf,
    /// Its version, if it could be read.
    pub version: Option<String>,
    /// For a solver added with `--solver-cmd`: the arguments given after
    /// the executable (the script's path follows them). `None` for a
    /// solver from the table.
    pub custom_args: Option<Vec<String>>,
}

impl Solver {
    /// Whether it takes scripts in `logic`.
    pub fn accepts_logic(&self, logic: &str) -> bool {
        self.profile.accepts_logic(logic)
    }

    /// The label and version, e.g. `z3@debian 4.8.12`.
    pub fn display_name(&self) -> String {
        match &self.version {
            Some(v) => format!("{} {v}", self.label),
            None => self.label.clone(),
        }
    }

    /// The same solver run as `variant` (seeded, with threads), labelled
    /// `LABEL@seedN`, `LABEL@Nthreads` or both (a tagged profile name);
    /// `None` for a solver that cannot run so or was added with
    /// `--solver-cmd`.
    pub fn variant(&self, variant: Variant) -> Option<Solver> {
        if self.is_custom() {
            return None;
        }
        Some(Solver {
            label: format!("{}{}", self.label, variant.suffix()),
            profile: self.profile.variant(variant)?,
            path: self.path.clone(),
            version: self.version.clone(),
            custom_args: None,
        })
    }

    /// Whether [`Solver::variant`] can run it as `variant`: a table
    /// solver whose profile has the arguments it needs.
    pub fn takes(&self, variant: Variant) -> bool {
        !self.is_custom() && self.profile.takes(variant)
    }

    /// Whether it was added with `--solver-cmd`.
    pub fn is_custom(&self) -> bool {
        self.custom_args.is_some()
    }

    /// The arguments of its interactive mode for scripts in `logic`, if it
    /// has one smtgrid knows (a `--solver-cmd` solver has none).
    pub fn interactive_args(&self, logic: Option<&str>) -> Option<Vec<String>> {
        match (&self.profile.interactive_args, &self.custom_args) {
            (Some(a), None) => {
                let mut a = a.clone();
                a.extend(self.profile.args_for_logic(logic).iter().cloned());
                Some(a)
            }
            _ => None,
        }
    }

    /// The program and arguments for a run on `script`, a script in
    /// `logic`, with the solver's own time limit set to `own_limit`.
    pub fn oneshot_command(
        &self,
        script: &Path,
        logic: Option<&str>,
        own_limit: Duration,
    ) -> (PathBuf, Vec<String>) {
        let mut args = match &self.custom_args {
            Some(custom) => custom.clone(),
            None => {
                let mut a = self.profile.oneshot_args.clone();
                a.extend(self.profile.args_for_logic(logic).iter().cloned());
                a.extend(self.profile.timeout_args_for(own_limit));
                a
            }
        };
        args.push(script.display().to_string());
        (self.path.clone(), args)
    }
}

/// One entry of the solver list: a profile, an override or a custom
/// solver, found or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its label (see [`Solver::label`]).
    pub label: String,
    /// Its profile.
    pub profile: Profile,
    /// The executable, if found.
    pub path: Option<PathBuf>,
    /// Its version, if found and readable.
    pub version: Option<String>,
    /// Why it was not found, or why its version could not be read.
    pub error: Option<String>,
    /// Whether it was added with `--solver-cmd`.
    pub custom: bool,
    /// A custom solver's arguments after the executable.
    pub custom_args: Option<Vec<String>>,
}

impl Found {
    /// The runnable solver, if its executable was found.
    pub fn solver(&self) -> Option<Solver> {
        Some(Solver {
            label: self.label.clone(),
            profile: self.profile.clone(),
            path: self.path.clone()?,
            version: self.version.clone(),
            custom_args: self.custom_args.clone(),
        })
    }
}

/// Checks a solver name given on the command line.
fn check_label(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("empty solver name".into());
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "_-.@+".contains(*c)))
    {
        return Err(format!(
            "solver name `{name}` contains `{bad}`; use letters, digits and _ - . @ +"
        ));
    }
    if name == "all" {
        return Err("`all` is reserved: it selects every installed solver".into());
    }
    Ok(())
}

fn known_profiles() -> String {
    profiles()
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `NAME=PATH` from `--solver`. NAME is a profile name (`cvc5`) or
/// `PROFILE@TAG` (`z3@debian`), which adds a second solver of that kind
/// labelled with the tag, so two versions can run side by side.
pub fn parse_solver_override(s: &str) -> Result<(String, PathBuf), String> {
    let Some((name, path)) = s.split_once('=') else {
        return Err(format!("`{s}` is not NAME=PATH"));
    };
    let (name, path) = (name.trim(), path.trim());
    check_label(name)?;
    if let Some((base, tag)) = name.split_once('@') {
        if base.is_empty() {
            return Err(format!(
                "`--solver {s}`: no solver before `@`; write PROFILE@TAG=PATH with a known \
                 profile ({}), e.g. z3@{tag}={path}",
                known_profiles()
            ));
        }
        if tag.is_empty() {
            return Err(format!(
                "`--solver {s}`: no tag after `@`; write {base}@TAG=PATH to add a second \
                 {base}, e.g. {base}@2={path}, or {base}={path} to point {base} at it"
            ));
        }
    }
    let base = name.split_once('@').map_or(name, |(b, _)| b);
    if profile(base).is_none() {
        return Err(format!(
            "`--solver {s}`: `{base}` is not a known solver ({}){}; for another solver use \
             --solver-cmd '{name}={path} ARGS…'",
            known_profiles(),
            did_you_mean(base, profiles().iter().map(|p| p.name.as_str()))
        ));
    }
    if path.is_empty() {
        return Err(format!("`--solver {s}`: the path after `=` is empty"));
    }
    Ok((name.to_string(), PathBuf::from(path)))
}

/// Parses `NAME=/path/bin ARGS…` from `--solver-cmd` into the name and the
/// words of the command (the executable first). Words are separated by
/// whitespace; single or double quotes keep a word with spaces together,
/// and a backslash escapes the next character outside single quotes.
pub fn parse_solver_cmd(s: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, cmd)) = s.split_once('=') else {
        return Err(format!("`{s}` is not NAME=/path/to/solver ARGS…"));
    };
    let name = name.trim();
    check_label(name)?;
    if profile(name).is_some() || name.contains('@') {
        return Err(format!(
            "`--solver-cmd {s}`: `{name}` names a solver smtgrid knows; point at its binary \
             with --solver {name}=PATH instead, or choose another name"
        ));
    }
    let words = split_words(cmd).map_err(|e| format!("`--solver-cmd {s}`: {e}"))?;
    if words.is_empty() {
        return Err(format!("`--solver-cmd {s}`: no command after `=`"));
    }
    Ok((name.to_string(), words))
}

fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.get_or_insert_with(String::new).push(c),
            (_, '\\') => match chars.next() {
                Some(n) => word.get_or_insert_with(String::new).push(n),
                None => return Err("a backslash ends the command".into()),
            },
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q}"));
    }
    words.extend(word);
    Ok(words)
}

/// Extracts a version number from `--version` output: the first word that
/// looks like `1.2` or `4.8.12` (a leading `v` and trailing punctuation
/// are dropped).
pub fn extract_version(text: &str) -> Option<String> {
    text.split_whitespace().find_map(|w| {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let w = w.strip_prefix('v').unwrap_or(w);
        let numeric: String = w
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let parts: Vec<&str> = numeric.split('.').collect();
        let ok = parts.len() >= 2 && parts.iter().all(|p| !p.is_empty());
        ok.then(|| w.to_string())
    })
}

/// What a version probe found: the version (`None` if the output names
/// none), or why the probe failed.
type Probed = Result<Option<String>, String>;
/// Probes done in this process, by binary and arguments.
type Probes = HashMap<(PathBuf, Vec<String>), Probed>;

/// Runs the version probe once per binary and arguments in this process:
/// later calls get the first answer. The probe takes at most `limit` (the
/// caller's own time limit) or [`VERSION_TIMEOUT`], whichever is shorter.
/// A probe stopped by `cancel` is not remembered (and gives `Err`).
fn probe_version(path: &Path, args: &[String], limit: Duration, cancel: &Cancel) -> Probed {
    static SEEN: OnceLock<Mutex<Probes>> = OnceLock::new();
    let seen = SEEN.get_or_init(Mutex::default);
    let key = (path.to_path_buf(), args.to_vec());
    if let Some(p) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return p.clone();
    }
    let out = exec(
        path,
        args,
        &super::Limits::timeout(limit.min(VERSION_TIMEOUT)),
        cancel,
        None,
    );
    let version = extract_version(&out.stdout).or_else(|| extract_version(&out.stderr));
    let probed = match (&out.end, version) {
        (super::RunEnd::Cancelled, _) => return Err("cancelled".into()),
        (_, Some(v)) => Ok(Some(v)),
        (super::RunEnd::Exited(0), None) => Ok(None),
        (end, None) => Err(format!(
            "`{} {}` {end}: {}",
            path.display(),
            args.join(" "),
            out.stderr_tail(3)
        )),
    };
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, probed.clone());
    probed
}

/// Every solver smtgrid knows about: each profile of the table (found or
/// not), each tagged override (`z3@debian`) right after its profile, then
/// each custom solver. A profile's binary comes from `--solver NAME=PATH`,
/// else `SMTGRID_<NAME>`, else the first of its binaries on PATH. The
/// versions of the found ones are probed in parallel (once per binary in
/// this process); `cancel` stops the probes at once.
pub fn discover(
    overrides: &[(String, PathBuf)],
    custom: &[(String, Vec<String>)],
    cancel: &Cancel,
) -> Vec<Found> {
    let mut list = locate_all(overrides, custom);
    std::thread::scope(|s| {
        for e in list.iter_mut() {
            let Some(path) = e.path.clone() else { continue };
            if e.profile.version_args.is_empty() {
                continue;
            }
            s.spawn(move || {
                match probe_version(&path, &e.profile.version_args, VERSION_TIMEOUT, cancel) {
                    Ok(v) => e.version = v,
                    Err(why) => e.error = Some(why),
                }
            });
        }
    });
    list
}

/// Reads the version of each solver that has none yet, in parallel. Kept
/// apart from [`discover`] because a probe costs a process start (30 ms for
/// z3): `solve` probes only the solvers whose results it reports. Each
/// binary is probed once per process, however often this is called (e.g.
/// once per puzzle); `cancel` (Ctrl-C) stops the probes at once, leaving
/// those versions unread. A probe takes at most `limit`, the caller's own
/// time limit (a run's `--timeout`; `Duration::MAX` for none), or 15 s,
/// whichever is shorter: a solver whose `--version` hangs then costs a
/// run no more time than the run may take.
pub fn read_versions(solvers: &mut [Solver], limit: Duration, cancel: &Cancel) {
    std::thread::scope(|s| {
        for solver in solvers.iter_mut() {
            if solver.version.is_some() || solver.profile.version_args.is_empty() {
                continue;
            }
            s.spawn(move || {
                let args = &solver.profile.version_args;
                solver.version = probe_version(&solver.path, args, limit, cancel)
                    .ok()
                    .flatten();
            });
        }
    });
}

/// Like [`discover`], without reading versions.
fn locate_all(overrides: &[(String, PathBuf)], custom: &[(String, Vec<String>)]) -> Vec<Found> {
    let mut list = Vec::new();
    for p in profiles() {
        let given = overrides.iter().rev().find(|(l, _)| *l == p.name);
        let path = match given {
            Some((label, path)) => given_path(label, path),
            None => locate(p),
        };
        list.push(entry(p.name.clone(), p.clone(), path, None));
        let mut tagged: Vec<&(String, PathBuf)> = Vec::new();
        for o in overrides {
            let is_tag = o.0.split_once('@').is_some_and(|(b, _)| b == p.name);
            if is_tag {
                tagged.retain(|t| t.0 != o.0);
                tagged.push(o);
            }
        }
        for (label, path) in tagged {
            list.push(entry(
                label.clone(),
                p.clone(),
                given_path(label, path),
                None,
            ));
        }
    }
    for (name, words) in custom {
        let mut profile = Profile::plain(name);
        profile
            .quirks
            .push(format!("custom solver: {}", words.join(" ")));
        let (program, args) = match words.split_first() {
            Some((p, a)) => (resolve_program(p), a.to_vec()),
            None => (Err("empty command".to_string()), Vec::new()),
        };
        let mut e = entry(name.clone(), profile, program, Some(args));
        e.custom = true;
        list.push(e);
    }
    list
}

fn entry(
    label: String,
    profile: Profile,
    path: Result<PathBuf, String>,
    custom_args: Option<Vec<String>>,
) -> Found {
    let (path, error) = match path {
        Ok(p) => (Some(p), None),
        Err(e) => (None, Some(e)),
    };
    Found {
        label,
        profile,
        path,
        version: None,
        error,
        custom: false,
        custom_args,
    }
}

fn given_path(label: &str, path: &Path) -> Result<PathBuf, String> {
    check_executable(path)
        .map(|()| path.to_path_buf())
        .map_err(|e| format!("--solver {label}={}: {e}", path.display()))
}

fn locate(p: &Profile) -> Result<PathBuf, String> {
    let var = p.env_var();
    if let Some(v) = std::env::var_os(&var).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(v);
        return check_executable(&path)
            .map(|()| path)
            .map_err(|e| format!("{var} points at {e}"));
    }
    p.binaries
        .iter()
        .find_map(|b| which::which(b).ok())
        .ok_or_else(|| format!("`{}` is not on PATH", p.binaries.join("`, `")))
}

fn installed(found: &[Found]) -> String {
    let names: Vec<String> = found
        .iter()
        .filter_map(|f| f.solver())
        .map(|s| s.display_name())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// How to make solver `name` available: scripts/install-solvers installs
/// only the `tested` profiles (the others come from documentation, and
/// `smtgrid solvers` says they are not installable here).
fn how_to_point(name: &str, tested: bool) -> String {
    let base = name.split_once('@').map_or(name, |(b, _)| b);
    let install = if tested {
        "install it (scripts/install-solvers)"
    } else {
        "scripts/install-solvers does not install it: install it yourself"
    };
    format!(
        "{install}, or point at its binary with --solver {name}=PATH or {}=PATH",
        env_var_for(base)
    )
}

/// Chooses solvers by name. Each name may be a label, `all` (every found
/// solver, in list order) or a comma-separated list of those; no names at
/// all means the first found of z3, cvc5 and yices2. Repeats are dropped.
/// The error says what is installed and how to point at a binary.
pub fn select(found: &[Found], names: &[String]) -> Result<Vec<Solver>, String> {
    let names: Vec<&str> = names
        .iter()
        .flat_map(|n| n.split(','))
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return default_solvers()
            .iter()
            .find_map(|d| found.iter().find(|f| f.label == *d).and_then(Found::solver))
            .map(|s| vec![s])
            .ok_or_else(|| {
                format!(
                    "no solver found: none of {} is installed (installed: {}); {}",
                    default_solvers().join(", "),
                    installed(found),
                    how_to_point("z3", true)
                )
            });
    }
    let mut chosen: Vec<Solver> = Vec::new();
    fn add(s: Solver, chosen: &mut Vec<Solver>) {
        if !chosen.iter().any(|c| c.label == s.label) {
            chosen.push(s);
        }
    }
    for name in names {
        if name == "all" {
            let all: Vec<Solver> = found.iter().filter_map(Found::solver).collect();
            if all.is_empty() {
                return Err(format!(
                    "`--solver all`: no solver is installed; {}",
                    how_to_point("z3", true)
                ));
            }
            for s in all {
                add(s, &mut chosen);
            }
            continue;
        }
        let Some(f) = found.iter().find(|f| f.label == name) else {
            return Err(format!(
                "unknown solver `{name}`{}; known: {}, or `all` for every installed one; \
                 installed: {}; a solver not in this list can be added with \
                 --solver-cmd '{name}=/path/to/bin ARGS…'",
                did_you_mean(name, found.iter().map(|f| f.label.as_str())),
                known_profiles(),
                installed(found)
            ));
        };
        match f.solver() {
            Some(s) => add(s, &mut chosen),
            None => {
                return Err(format!(
                    "solver `{name}` is not available: {}; installed: {}; {}",
                    f.error.as_deref().unwrap_or("not found"),
                    installed(found),
                    how_to_point(name, f.profile.tested)
                ));
            }
        }
    }
    Ok(chosen)
}

/// The solver choices of one command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SolverRequest {
    /// Names to select (see [`select`]); empty means the default.
    pub names: Vec<String>,
    /// `--solver NAME=PATH` overrides.
    pub overrides: Vec<(String, PathBuf)>,
    /// `--solver-cmd NAME=CMD` solvers: name and command words.
    pub custom: Vec<(String, Vec<String>)>,
}

impl SolverRequest {
    /// Reads the values of every `--solver` and `--solver-cmd` flag. A
    /// `--solver NAME=PATH` both points NAME at PATH and selects it; a
    /// `--solver-cmd` solver is only defined, and is selected by
    /// `--solver NAME` or `--solver all`.
    pub fn parse(solver_args: &[String], solver_cmds: &[String]) -> Result<SolverRequest, String> {
        let mut req = SolverRequest::default();
        for a in solver_args {
            if a.contains('=') {
                let (label, path) = parse_solver_override(a)?;
                if let Some((_, other)) = req.overrides.iter().find(|(l, _)| *l == label)
                    && *other != path
                {
                    return Err(format!(
                        "--solver {label}: given both {} and {}; give each label one path",
                        other.display(),
                        path.display()
                    ));
                }
                req.names.push(label.clone());
                req.overrides.push((label, path));
            } else {
                req.names.push(a.clone());
            }
        }
        for c in solver_cmds {
            let (name, words) = parse_solver_cmd(c)?;
            req.custom.retain(|(n, _)| *n != name);
            req.custom.push((name, words));
        }
        Ok(req)
    }

    /// Finds every solver this request can see (see [`discover`]).
    pub fn discover(&self, cancel: &Cancel) -> Vec<Found> {
        discover(&self.overrides, &self.custom, cancel)
    }

    /// Finds and selects the requested solvers, without reading their
    /// versions (see [`read_versions`]).
    pub fn solvers(&self) -> Result<Vec<Solver>, String> {
        select(&locate_all(&self.overrides, &self.custom), &self.names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_from_real_outputs() {
        let cases = [
            ("Z3 version 4.8.12 - 64 bit\n", "4.8.12"),
            (
                "This is cvc5 version 1.0.3 [git tag 1.0.3 branch HEAD]\ncompiled with GCC version 12.2.0\n",
                "1.0.3",
            ),
            (
                "This is CVC4 version 1.8\ncompiled with GCC version 12.2.0\n",
                "1.8",
            ),
            (
                "Yices 2.6.5\nCopyright SRI International.\nLinked with GMP 6.3.0\n",
                "2.6.5",
            ),
            ("1.5.118\n", "1.5.118"),
            ("MathSAT5 version 5.6.10 (…)\n", "5.6.10"),
            ("Bitwuzla v0.4.0-dev\n", "0.4.0-dev"),
        ];
        for (text, want) in cases {
            assert_eq!(extract_version(text).as_deref(), Some(want), "{text}");
        }
        assert_eq!(extract_version("no digits here 12\n"), None);
    }

    #[test]
    fn one_label_takes_one_path() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let e =
            SolverRequest::parse(&args(&["z3@a=/usr/bin/z3", "z3@a=/opt/z3"]), &[]).unwrap_err();
        assert!(e.contains("given both /usr/bin/z3 and /opt/z3"), "{e}");
        assert!(
            SolverRequest::parse(&args(&["z3@a=/usr/bin/z3", "z3@a=/usr/bin/z3"]), &[]).is_ok()
        );
    }

    #[test]
    fn override_names() {
        assert_eq!(
            parse_solver_override("z3@debian=/usr/bin/z3"),
            Ok(("z3@debian".to_string(), PathBuf::from("/usr/bin/z3")))
        );
        assert_eq!(
            parse_solver_override("cvc5 = /opt/cvc5"),
            Ok(("cvc5".to_string(), PathBuf::from("/opt/cvc5")))
        );
        let e = parse_solver_override("mysolver=/x").unwrap_err();
        assert!(e.contains("--solver-cmd"), "{e}");
        assert!(parse_solver_override("z3").is_err());
        assert!(parse_solver_override("z3=").is_err());
        assert!(parse_solver_override("z3 x=/y").is_err());
        let e = parse_solver_override("@x=/usr/bin/z3").unwrap_err();
        assert!(e.contains("no solver before `@`"), "{e}");
        let e = parse_solver_override("z3@=/usr/bin/z3").unwrap_err();
        assert!(e.contains("no tag after `@`"), "{e}");
    }

    #[test]
    fn solver_cmd_words() {
        assert_eq!(
            parse_solver_cmd("mine=/opt/my solver --smt2 'a b' \"c d\" e\\ f"),
            Ok((
                "mine".to_string(),
                vec!["/opt/my", "solver", "--smt2", "a b", "c d", "e f"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            ))
        );
        assert_eq!(
            parse_solver_cmd("x=''"),
            Ok(("x".to_string(), vec![String::new()]))
        );
        assert!(parse_solver_cmd("x=/bin 'open").is_err());
        assert!(parse_solver_cmd("x=   ").is_err());
        assert!(parse_solver_cmd("z3=/bin/z3").is_err());
        assert!(parse_solver_cmd("all=/bin/true").is_err());
        assert!(parse_solver_cmd("noequals").is_err());
    }

    fn fake(label: &str, path: Option<&str>) -> Found {
        Found {
            label: label.into(),
            profile: profile(label.split('@').next().unwrap_or(label))
                .cloned()
                .unwrap_or_else(|| Profile::plain(label)),
            path: path.map(PathBuf::from),
            version: path.map(|_| "1.0".to_string()),
            error: path.is_none().then(|| "`x` is not on PATH".to_string()),
            custom: false,
            custom_args: None,
        }
    }

    #[test]
    fn selection() {
        let found = vec![
            fake("z3", None),
            fake("cvc5", Some("/c5")),
            fake("yices2", Some("/y")),
            fake("z3@old", Some("/z")),
        ];
        let labels = |names: &[&str]| -> Result<Vec<String>, String> {
            let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            select(&found, &names).map(|v| v.into_iter().map(|s| s.label).collect())
        };
        assert_eq!(labels(&[]), Ok(vec!["cvc5".to_string()]));
        assert_eq!(
            labels(&["all"]),
            Ok(vec!["cvc5".into(), "yices2".into(), "z3@old".into()])
        );
        assert_eq!(
            labels(&["yices2,cvc5", "yices2"]),
            Ok(vec!["yices2".into(), "cvc5".into()])
        );
        let e = labels(&["z3"]).unwrap_err();
        assert!(
            e.contains("--solver z3=PATH") && e.contains("SMTGRID_Z3"),
            "{e}"
        );
        assert!(e.contains("cvc5 1.0"), "{e}");
        let e = labels(&["nosuch"]).unwrap_err();
        assert!(
            e.contains("unknown solver `nosuch`") && e.contains("--solver-cmd"),
            "{e}"
        );
        assert!(select(&[fake("z3", None)], &[]).is_err());
    }

    #[test]
    fn request_selects_overrides() {
        let req = SolverRequest::parse(
            &["z3@debian=/usr/bin/z3".into(), "cvc5".into()],
            &["mine=/bin/cat -".into()],
        );
        let req = req.expect("parses");
        assert_eq!(req.names, ["z3@debian", "cvc5"]);
        assert_eq!(
            req.overrides,
            [("z3@debian".to_string(), PathBuf::from("/usr/bin/z3"))]
        );
        assert_eq!(
            req.custom,
            [("mine".to_string(), vec!["/bin/cat".to_string(), "-".into()])]
        );
    }

    #[test]
    fn oneshot_command_lines() {
        let s = Solver {
            label: "z3".into(),
            profile: profile("z3")
                .cloned()
                .unwrap_or_else(|| Profile::plain("z3")),
            path: "/bin/z3".into(),
            version: Some("4.8.12".into()),
            custom_args: None,
        };
        let (p, a) = s.oneshot_command(Path::new("/tmp/a.smt2"), None, Duration::from_secs(3));
        assert_eq!(p, PathBuf::from("/bin/z3"));
        assert_eq!(a, ["-smt2", "-T:3", "/tmp/a.smt2"]);
        assert_eq!(s.display_name(), "z3 4.8.12");
        let c = Solver {
            custom_args: Some(vec!["--x".into()]),
            ..s
        };
        let (_, a) = c.oneshot_command(Path::new("/tmp/a.smt2"), None, Duration::from_secs(3));
        assert_eq!(a, ["--x", "/tmp/a.smt2"]);
    }
}
