//! The table of solver profiles, kept as data in `profiles.toml` so that a
//! new solver is a new table, not new code.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crate::error::{InputError, Location};

/// How to find, start and talk to one SMT solver.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The name `--solver NAME` and reports use, e.g. `yices2`.
    pub name: String,
    /// Executable names looked up on PATH in this order, e.g. `yices-smt2`.
    pub binaries: Vec<String>,
    /// Arguments for a run on a file; the file's path comes after them.
    pub oneshot_args: Vec<String>,
    /// Arguments for an interactive session over pipes; `None` if the
    /// solver has none.
    #[serde(default)]
    pub interactive_args: Option<Vec<String>>,
    /// The solver's own time-limit flag as a template: `{secs}` (rounded
    /// up) and `{ms}` are replaced by the limit. Empty if it has none.
    #[serde(default)]
    pub timeout_args: Vec<String>,
    /// Arguments that seed the solver's search, as a template: `{seed}` is
    /// replaced by the seed. Empty if it takes none. A race may run a
    /// solver twice under different seeds (`seed` in `auto_first`).
    #[serde(default)]
    pub seed_args: Vec<String>,
    /// Arguments that make the solver search with several threads, as a
    /// template: `{threads}` is replaced by their number. Empty if it runs
    /// one. A race may run it so (`threads` in `auto_first`); the
    /// scheduler then counts it as that many jobs.
    #[serde(default)]
    pub threads_args: Vec<String>,
    /// Arguments that make the solver print its version and exit.
    #[serde(default)]
    pub version_args: Vec<String>,
    /// The SMT-LIB logics it accepts; empty means "any" (custom solvers).
    #[serde(default)]
    pub logics: Vec<String>,
    /// Whether smtgrid's tests exercise this solver (it is installed on the
    /// development machine); untested profiles come from documentation.
    #[serde(default)]
    pub tested: bool,
    /// Words the solver prints instead of an answer when its own time
    /// limit stops it (z3 prints a bare `timeout`).
    #[serde(default)]
    pub timeout_replies: Vec<String>,
    /// SMT-LIB commands the solver rejects; a script for it must avoid them.
    #[serde(default)]
    pub unsupported_commands: Vec<String>,
    /// Exit statuses that mean the solver ran normally.
    #[serde(default = "default_ok_exit_codes")]
    pub ok_exit_codes: Vec<i32>,
    /// Extra arguments for scripts in a given logic, e.g. cvc5's
    /// `--no-symmetry-breaker` for QF_UF (10× faster on onehot scripts).
    #[serde(default)]
    pub logic_args: std::collections::BTreeMap<String, Vec<String>>,
    /// Peculiarities worth telling the user, shown by `smtgrid solvers`.
    #[serde(default)]
    pub quirks: Vec<String>,
    /// Whether, after `(reset)`, a session answers a whole script with the
    /// same answer and statistics as a new process (measured: see its
    /// entry): a run of many puzzles may then ask them of one session
    /// per worker instead of a process each.
    #[serde(default)]
    pub resets_like_new: bool,
    /// How the solver answers `(get-info :all-statistics)`; `None`: it is
    /// never asked.
    #[serde(default)]
    pub statistics: Option<Statistics>,
}

/// What a solver's `(get-info :all-statistics)` reply means, from
/// `profiles.toml`: which of its keys are the counters smtgrid names the
/// same for every solver, and whether asking is cheap.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Statistics {
    /// Asked by default: the reply costs well under a millisecond.
    pub cheap: bool,
    /// Its counters add up over the `check-sat`s of a session.
    pub cumulative: bool,
    /// It leaves out counters that are zero (z3), so a missing counter
    /// is 0 rather than unknown.
    #[serde(default)]
    pub omits_zeros: bool,
    /// Its keys for the SAT search's conflicts, added up (z3 counts
    /// in `conflicts` or, when it bit-blasts, `sat-conflicts`).
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// Its keys for the SAT search's decisions, added up.
    #[serde(default)]
    pub decisions: Vec<String>,
    /// Its keys for the SAT search's (Boolean) propagations, added up.
    #[serde(default)]
    pub propagations: Vec<String>,
    /// Prefixes of the other keys reported as they are; empty: every key
    /// with a numeric value.
    #[serde(default)]
    pub keep: Vec<String>,
}

impl Statistics {
    /// Whether a key the solver printed (without its leading `:`) is
    /// reported raw.
    pub fn keeps(&self, key: &str) -> bool {
        self.keep.is_empty() || self.keep.iter().any(|k| key.starts_with(k.as_str()))
    }
}

fn default_ok_exit_codes() -> Vec<i32> {
    vec![0]
}

impl Profile {
    /// A profile for a solver that is not in the table: a plain SMT-LIB2
    /// solver that takes the script's path as its last argument.
    pub fn plain(name: &str) -> Profile {
        Profile {
            name: name.to_string(),
            binaries: Vec::new(),
            oneshot_args: Vec::new(),
            interactive_args: None,
            timeout_args: Vec::new(),
            seed_args: Vec::new(),
            threads_args: Vec::new(),
            version_args: Vec::new(),
            logics: Vec::new(),
            tested: false,
            timeout_replies: Vec::new(),
            unsupported_commands: Vec::new(),
            ok_exit_codes: default_ok_exit_codes(),
            logic_args: Default::default(),
            quirks: Vec::new(),
            resets_like_new: false,
            statistics: None,
        }
    }

    /// The extra arguments for a script in `logic` (none if unknown).
    pub fn args_for_logic(&self, logic: Option<&str>) -> &[String] {
        logic
            .and_then(|l| self.logic_args.get(l))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the solver takes scripts in `logic`.
    pub fn accepts_logic(&self, logic: &str) -> bool {
        self.logics.is_empty() || self.logics.iter().any(|l| l == logic)
    }

    /// The solver's own time-limit arguments for `limit`, empty if it has
    /// no such flag.
    pub fn timeout_args_for(&self, limit: Duration) -> Vec<String> {
        let ms = limit.as_millis().max(1);
        let secs = ms.div_ceil(1000);
        self.timeout_args
            .iter()
            .map(|a| {
                a.replace("{secs}", &secs.to_string())
                    .replace("{ms}", &ms.to_string())
            })
            .collect()
    }

    /// Whether the profile can run `variant`: it has seed arguments if
    /// the variant has a seed, threads arguments if it has threads.
    pub fn takes(&self, variant: Variant) -> bool {
        (variant.seed.is_none() || !self.seed_args.is_empty())
            && (variant.threads.is_none() || !self.threads_args.is_empty())
    }

    /// The profile run as `variant`: its seed and threads arguments
    /// added to both ways of starting it; `None` if it cannot run so.
    pub fn variant(&self, variant: Variant) -> Option<Profile> {
        if !self.takes(variant) {
            return None;
        }
        let fill = |templates: &[String], key: &str, n: Option<u32>| -> Vec<String> {
            n.map_or_else(Vec::new, |n| {
                templates
                    .iter()
                    .map(|a| a.replace(key, &n.to_string()))
                    .collect()
            })
        };
        let mut args = fill(&self.seed_args, "{seed}", variant.seed);
        args.extend(fill(&self.threads_args, "{threads}", variant.threads));
        let mut p = self.clone();
        p.oneshot_args.extend(args.iter().cloned());
        if let Some(i) = &mut p.interactive_args {
            i.extend(args);
        }
        Some(p)
    }

    /// The environment variable that points at this solver's binary:
    /// `SMTGRID_` and the name upper-cased, other characters as `_`.
    pub fn env_var(&self) -> String {
        env_var_for(&self.name)
    }
}

/// `SMTGRID_<NAME>` for a solver name, e.g. `SMTGRID_YICES2`.
pub fn env_var_for(name: &str) -> String {
    let upper: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("SMTGRID_{upper}")
}

/// How a race may run a solver other than plainly: under a search seed,
/// with several threads, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The seed of its search (`seed_args`).
    pub seed: Option<u32>,
    /// How many threads it searches with (`threads_args`); more than 1.
    pub threads: Option<u32>,
}

impl Variant {
    /// The plain run: no seed, one thread.
    pub const PLAIN: Variant = Variant {
        seed: None,
        threads: None,
    };

    /// What a label gets for it: `@seedN`, `@Nthreads`, both or nothing.
    pub fn suffix(&self) -> String {
        let mut s = String::new();
        if let Some(seed) = self.seed {
            s.push_str(&format!("@seed{seed}"));
        }
        if let Some(n) = self.threads {
            s.push_str(&format!("@{n}threads"));
        }
        s
    }

    /// How many cores it keeps busy.
    pub fn weight(&self) -> usize {
        self.threads.map_or(1, |n| n as usize)
    }

    /// The variant on a run of at most `cores` jobs at once: its threads
    /// cut to that many (one thread is the plain run).
    pub fn within(self, cores: usize) -> Variant {
        let threads = self
            .threads
            .map(|n| n.min(u32::try_from(cores).unwrap_or(u32::MAX)))
            .filter(|&n| n > 1);
        Variant { threads, ..self }
    }
}

/// One entry of `auto_order` or `auto_first`: a solver profile's name and
/// an encoding's name (this module knows encodings only by name), and in
/// `auto_first` optionally a seed, threads, a budget and how open a
/// puzzle it takes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutoPair {
    /// A profile name, e.g. `yices2`.
    pub solver: String,
    /// An encoding name, e.g. `onehot`.
    pub encoding: String,
    /// Run the solver with its search seeded so (its `seed_args`): a
    /// second entry of the same pair with another seed is a second,
    /// independent chance in the race.
    #[serde(default)]
    pub seed: Option<u32>,
    /// Run the solver with this many threads (its `threads_args`), each
    /// taking one of the race's cores: on 2 cores, a 2-thread entry runs
    /// alone once the entries before it end or give way.
    #[serde(default)]
    pub threads: Option<u32>,
    /// Milliseconds after which the pair gives its place to the entry
    /// listed right after it, when that one races too; otherwise it keeps
    /// the whole limit.
    #[serde(default)]
    pub budget_ms: Option<u64>,
    /// With a budget: the pair runs only on puzzles whose propagation
    /// leaves less than this percentage of the cells' values open; on
    /// one it leaves more open it gives its place at once, as at the end
    /// of its budget.
    #[serde(default)]
    pub open_below_pct: Option<u8>,
}

impl AutoPair {
    /// The variant it runs its solver as.
    pub fn variant(&self) -> Variant {
        Variant {
            seed: self.seed,
            threads: self.threads.filter(|&n| n > 1),
        }
    }

    /// Whether `other` names the same run (solver, encoding and
    /// variant), whatever its budget.
    pub fn same_run(&self, other: &AutoPair) -> bool {
        self.solver == other.solver
            && self.encoding == other.encoding
            && self.variant() == other.variant()
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    default_solvers: Vec<String>,
    auto_order: Vec<AutoPair>,
    /// Per puzzle kind (by name), the pairs that start before the rest of
    /// `auto_order`.
    #[serde(default)]
    auto_first: BTreeMap<String, Vec<AutoPair>>,
    solver: Vec<Profile>,
}

const TABLE: &str = include_str!("profiles.toml");

fn parse_table(text: &str) -> Result<Table, String> {
    toml::from_str::<Table>(text).map_err(|e| e.to_string())
}

fn table() -> &'static Table {
    static TABLE_DATA: OnceLock<Table> = OnceLock::new();
    TABLE_DATA.get_or_init(|| {
        // The table is compiled in and a unit test parses it, so this
        // only fires on a broken build; knowing no solvers then is safer
        // than stopping.
        parse_table(TABLE).unwrap_or_else(|e| {
            crate::output::note(format_args!(
                "internal error: src/solver/profiles.toml: {e}"
            ));
            Table::default()
        })
    })
}

/// A user's profiles file (`$XDG_CONFIG_HOME/smtgrid/profiles.toml` or
/// `--profiles FILE`): only `[[solver]]` tables, of the built-in schema.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserTable {
    #[serde(default)]
    solver: Vec<Profile>,
}

/// Only the names of a user file's profiles, with where each is written,
/// to point at a name given twice.
#[derive(Debug, Deserialize)]
struct UserNames {
    #[serde(default)]
    solver: Vec<UserName>,
}

#[derive(Debug, Deserialize)]
struct UserName {
    name: toml::Spanned<String>,
}

/// The user's profiles and the file they came from, set once at start-up
/// (before any profile is looked up) by [`set_user_profiles`].
static USER: OnceLock<(PathBuf, Vec<Profile>)> = OnceLock::new();

/// Reads a user profiles file's `text` (from `file`), strictly: an
/// unknown key, a value of the wrong type, a missing required field or a
/// name given twice is an error at its line and column.
pub fn parse_user_profiles(file: &Path, text: &str) -> Result<Vec<Profile>, InputError> {
    let src = Location::file(file);
    let at = |offset: usize| {
        let (l, c) = crate::error::line_col(text, offset);
        src.at(l, c)
    };
    let table = toml::from_str::<UserTable>(text).map_err(|e| {
        let msg = e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        let loc = e.span().map_or_else(|| src.clone(), |s| at(s.start));
        InputError::new(
            loc,
            format!(
                "{msg}; a profiles file holds only [[solver]] tables with the keys of \
                 src/solver/profiles.toml (`name`, `binaries` and `oneshot_args` are \
                 required; see docs/commands.md)"
            ),
        )
    })?;
    // The table parsed, so the names do too.
    let names = toml::from_str::<UserNames>(text).map_or_else(|_| Vec::new(), |n| n.solver);
    for (i, n) in names.iter().enumerate() {
        if let Some(first) = names[..i]
            .iter()
            .find(|f| f.name.get_ref() == n.name.get_ref())
        {
            let (line, _) = crate::error::line_col(text, first.name.span().start);
            return Err(InputError::new(
                at(n.name.span().start),
                format!(
                    "the solver `{}` is already defined on line {line}: remove one \
                     [[solver]] table or rename it",
                    n.name.get_ref()
                ),
            ));
        }
    }
    Ok(table.solver)
}

/// Where the user's own profiles live when `--profiles` is not given:
/// `$XDG_CONFIG_HOME/smtgrid/profiles.toml`, or
/// `$HOME/.config/smtgrid/profiles.toml` when `XDG_CONFIG_HOME` is unset
/// or empty (the XDG base directory rule); `None` without either.
pub fn user_profiles_file() -> Option<PathBuf> {
    let nonempty = |v: &str| std::env::var_os(v).filter(|s| !s.is_empty());
    let config = nonempty("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("smtgrid").join("profiles.toml"))
}

/// Makes `profiles` (read from `file`) part of the table: one named like
/// a built-in profile replaces it in place, the others come after the
/// built-in ones. Call it once, before any profile is looked up; later
/// calls change nothing.
pub fn set_user_profiles(file: PathBuf, profiles: Vec<Profile>) {
    let _ = USER.set((file, profiles));
}

/// Where the profile called `name` comes from: the user's file, or
/// `None` for a built-in one.
pub fn user_file_of(name: &str) -> Option<&'static Path> {
    USER.get()
        .filter(|(_, ps)| ps.iter().any(|p| p.name == name))
        .map(|(f, _)| f.as_path())
}

/// Every known solver profile, in table order (which is also the order of
/// `--solver all`), the user's own after the built-in ones.
pub fn profiles() -> &'static [Profile] {
    static MERGED: OnceLock<Vec<Profile>> = OnceLock::new();
    MERGED.get_or_init(|| {
        let user = USER.get().map_or(&[][..], |(_, ps)| ps.as_slice());
        merge(&table().solver, user)
    })
}

/// The built-in profiles with the user's: a user profile replaces the
/// built-in one of its name (the user wins), the rest are appended.
fn merge(builtin: &[Profile], user: &[Profile]) -> Vec<Profile> {
    let mut out: Vec<Profile> = builtin
        .iter()
        .map(|b| user.iter().find(|u| u.name == b.name).unwrap_or(b).clone())
        .collect();
    out.extend(
        user.iter()
            .filter(|u| !builtin.iter().any(|b| b.name == u.name))
            .cloned(),
    );
    out
}

/// The solvers tried, in order, when a command names none: the first one
/// found is used.
pub fn default_solvers() -> &'static [String] {
    &table().default_solvers
}

/// The order in which `--encoding auto` starts solver × encoding pairs on
/// puzzles of kind `kind` (e.g. `killer`), best first (measured; see
/// profiles.toml): the kind's `auto_first` pairs, then `auto_order`.
/// Pairs not listed come after.
pub fn auto_order_for(kind: &str) -> Vec<&'static AutoPair> {
    let t = table();
    let first = t.auto_first.get(kind).map_or(&[][..], Vec::as_slice);
    let mut out: Vec<&AutoPair> = first.iter().collect();
    out.extend(
        t.auto_order
            .iter()
            .filter(|a| !first.iter().any(|f| f.same_run(a))),
    );
    out
}

/// Every (solver, variant) other than plain that an `auto_first` entry
/// names, in table order.
pub fn auto_variants() -> Vec<(&'static str, Variant)> {
    let mut out: Vec<(&str, Variant)> = Vec::new();
    for a in table().auto_first.values().flatten() {
        let v = a.variant();
        if v != Variant::PLAIN && !out.contains(&(a.solver.as_str(), v)) {
            out.push((a.solver.as_str(), v));
        }
    }
    out
}

/// The kinds that have an `auto_first` entry, for checking the table.
#[cfg(test)]
pub(crate) fn auto_first_kinds() -> impl Iterator<Item = &'static str> {
    table().auto_first.keys().map(String::as_str)
}

/// The profile called `name`, if any.
pub fn profile(name: &str) -> Option<&'static Profile> {
    profiles().iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seed or threads only for a solver that takes them, a budget only
    /// where an entry follows to take the place.
    #[test]
    fn auto_first_variants_and_budgets_can_take_effect() {
        for (kind, list) in &table().auto_first {
            for (i, a) in list.iter().enumerate() {
                let p = profile(&a.solver).expect("a profile");
                assert!(
                    p.takes(a.variant()),
                    "{kind}: {} cannot run as {:?}",
                    a.solver,
                    a.variant()
                );
                if a.budget_ms.is_some() {
                    assert!(i + 1 < list.len(), "{kind}: nothing follows {a:?}");
                }
                if let Some(pct) = a.open_below_pct {
                    assert!(
                        a.budget_ms.is_some(),
                        "{kind}: {a:?} has nothing to give way with"
                    );
                    assert!(
                        (1..=100).contains(&pct),
                        "{kind}: {a:?} is not a percentage"
                    );
                }
            }
        }
        let two = Variant {
            seed: None,
            threads: Some(2),
        };
        assert_eq!(auto_variants(), [("glucose", two)]);
    }

    #[test]
    fn table_parses_and_names_are_unique() {
        let table = parse_table(TABLE).expect("profiles.toml parses");
        let names: Vec<&str> = table.solver.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "z3",
                "cvc5",
                "yices2",
                "cvc4",
                "boolector",
                "bitwuzla",
                "glucose",
                "opensmt",
                "mathsat"
            ]
        );
        assert_eq!(profiles().len(), names.len());
        for n in table
            .default_solvers
            .iter()
            .chain(table.auto_order.iter().map(|a| &a.solver))
            .chain(table.auto_first.values().flatten().map(|a| &a.solver))
        {
            assert!(names.contains(&n.as_str()), "{n} is not a profile");
        }
        for p in &table.solver {
            assert!(!p.binaries.is_empty(), "{} has no binary", p.name);
            assert!(
                !p.version_args.is_empty(),
                "{} cannot tell its version",
                p.name
            );
        }
    }

    #[test]
    fn issue_flags_are_in_the_table() {
        let z3 = profile("z3").expect("z3");
        assert_eq!(
            z3.interactive_args.as_deref(),
            Some(&["-in".to_string(), "-smt2".into()][..])
        );
        assert_eq!(z3.timeout_replies, ["timeout"]);
        let yices = profile("yices2").expect("yices2");
        assert_eq!(yices.binaries, ["yices-smt2"]);
        assert!(
            yices
                .interactive_args
                .as_ref()
                .is_some_and(|a| a.contains(&"--incremental".into()))
        );
    }

    #[test]
    fn timeout_templates_round_seconds_up() {
        let d = Duration::from_millis(1500);
        assert_eq!(
            profile("z3").map(|p| p.timeout_args_for(d)),
            Some(vec!["-T:2".to_string()])
        );
        assert_eq!(
            profile("cvc4").map(|p| p.timeout_args_for(d)),
            Some(vec!["--tlimit=1500".to_string()])
        );
        assert_eq!(
            profile("boolector").map(|p| p.timeout_args_for(d)),
            Some(vec!["-t".to_string(), "2".into()])
        );
        assert_eq!(
            profile("bitwuzla").map(|p| p.timeout_args_for(d)),
            Some(vec!["--time-limit=1500".to_string()])
        );
        assert!(Profile::plain("x").timeout_args_for(d).is_empty());
    }

    #[test]
    fn the_smt_solvers_checked_by_hand_say_how_they_report_statistics() {
        for name in ["z3", "cvc5", "yices2", "cvc4"] {
            let s = profile(name)
                .and_then(|p| p.statistics.as_ref())
                .unwrap_or_else(|| panic!("{name}"));
            for keys in [&s.conflicts, &s.decisions, &s.propagations] {
                assert!(!keys.is_empty(), "{name}: {s:?}");
            }
        }
        let cvc5 = profile("cvc5")
            .and_then(|p| p.statistics.as_ref())
            .expect("cvc5");
        assert!(!cvc5.cheap && cvc5.keeps("sat::starts") && !cvc5.keeps("theory::uf::lemmas"));
        assert!(profile("boolector").is_some_and(|p| p.statistics.is_none()));
    }

    #[test]
    fn user_profiles_are_read_strictly() {
        let f = Path::new("p.toml");
        let ok = "[[solver]]\nname = \"mine\"\nbinaries = [\"z3\"]\noneshot_args = [\"-smt2\"]\n";
        let ps = parse_user_profiles(f, ok).expect("parses");
        assert_eq!(ps[0].name, "mine");
        let bad = |text: &str, at: &str| {
            let e = parse_user_profiles(f, text).expect_err(text);
            assert!(e.to_string().starts_with(at), "{e}");
        };
        bad(&format!("{ok}colour = 1\n"), "p.toml:5:1");
        bad("[[solver]]\nname = 3\n", "p.toml:2:8");
        bad(&format!("{ok}{ok}"), "p.toml:6:8");
        bad("x = 1\n", "p.toml:1:1");
        let merged = merge(
            &[Profile::plain("z3"), Profile::plain("cvc5")],
            &[Profile::plain("new"), {
                let mut p = Profile::plain("z3");
                p.tested = true;
                p
            }],
        );
        let names: Vec<&str> = merged.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["z3", "cvc5", "new"]);
        assert!(merged[0].tested);
    }

    #[test]
    fn env_var_names() {
        assert_eq!(env_var_for("yices2"), "SMTGRID_YICES2");
        assert_eq!(env_var_for("z3@debian"), "SMTGRID_Z3_DEBIAN");
    }

    #[test]
    fn logics() {
        let b = profile("boolector").expect("boolector");
        assert!(b.accepts_logic("QF_BV"));
        assert!(!b.accepts_logic("QF_LIA"));
        assert!(Profile::plain("x").accepts_logic("QF_NIA"));
    }
}
