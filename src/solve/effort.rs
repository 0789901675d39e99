//! Search effort: what a solver says it did for one answer (conflicts,
//! decisions, propagations), read from `(get-info :all-statistics)` and
//! named the same for every solver where the meaning is the same. See
//! `docs/stats.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::smtlib::stats::{Number, read_statistics};
use crate::solver::Statistics;

/// The echo that separates an answer from the statistics after it in a
/// one-shot run's output.
pub(super) const MARKER: &str = "smtgrid-stats";

/// The question, framed for a one-shot script.
pub(super) fn question() -> String {
    format!("(echo \"{MARKER}\")\n(get-info :all-statistics)\n")
}

/// When statistics are asked for (`--stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StatsUse {
    /// Of the solvers whose profile calls the question cheap (z3,
    /// yices2), in one-shot runs only: in a session it is a round trip
    /// of its own after every puzzle (on the 49,151 17-clue sudokus with
    /// yices2 it made the whole run 21 % slower: 10.1 s against 8.3 s).
    #[default]
    Auto,
    /// Of every solver whose profile says how it answers.
    Always,
    /// Never.
    Never,
}

impl StatsUse {
    /// The profile's statistics description, if this setting asks the
    /// solver, in a session or in a one-shot run.
    pub fn asks(self, profile: Option<&Statistics>, session: bool) -> Option<&Statistics> {
        profile.filter(|s| match self {
            StatsUse::Auto => s.cheap && !session,
            StatsUse::Always => true,
            StatsUse::Never => false,
        })
    }
}

/// A run's search effort. The three counters are the SAT search's, named
/// the same for every solver (`null`: the solver gives no such count or
/// was not asked); `raw` holds its other numeric statistics under its own
/// names. In a session of a solver whose counters add up (z3, cvc5,
/// cvc4), numerals are the differences made by this run's questions;
/// decimals (memory, time) are as printed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Conflicts the search met.
    pub conflicts: Option<u64>,
    /// Decisions it made.
    pub decisions: Option<u64>,
    /// Propagations (Boolean constraint propagation).
    pub propagations: Option<u64>,
    /// The solver's other statistics, as it names them.
    #[serde(default)]
    pub raw: BTreeMap<String, Number>,
}

/// What a session's solver last reported, for the differences of the next
/// question: key to count.
pub(super) type Totals = BTreeMap<String, u64>;

impl Stats {
    /// Reads one reply. `totals`: for a solver whose counters add up, the
    /// counts it reported last in this process (updated here).
    pub(super) fn read(text: &str, profile: &Statistics, totals: &mut Totals) -> Option<Stats> {
        let entries = read_statistics(text).ok()?;
        let mut now: BTreeMap<String, Number> = BTreeMap::new();
        for (key, value) in entries {
            let value = match value {
                Number::Count(n) if profile.cumulative => {
                    let before = totals.insert(key.clone(), n).unwrap_or(0);
                    Number::Count(n.saturating_sub(before))
                }
                other => other,
            };
            now.insert(key, value);
        }
        // The sum of the counter's keys that were printed; with none
        // printed, 0 for a solver that leaves zeros out.
        let mut take = |keys: &[String]| -> Option<u64> {
            if keys.is_empty() {
                return None;
            }
            let mut found = None;
            for key in keys {
                match now.remove(key) {
                    Some(Number::Count(n)) => found = Some(found.unwrap_or(0u64).saturating_add(n)),
                    Some(Number::Decimal(_)) => return None,
                    None => {}
                }
            }
            found.or(profile.omits_zeros.then_some(0))
        };
        let conflicts = take(&profile.conflicts);
        let decisions = take(&profile.decisions);
        let propagations = take(&profile.propagations);
        now.retain(|k, _| profile.keeps(k));
        Some(Stats {
            conflicts,
            decisions,
            propagations,
            raw: now,
        })
    }

    /// The effort of two questions of one run: counts add up (one side
    /// unknown makes the sum unknown), decimals are the later ones.
    pub(super) fn and(self, later: Stats) -> Stats {
        let sum = |a: Option<u64>, b: Option<u64>| Some(a?.saturating_add(b?));
        let mut raw = self.raw;
        for (k, v) in later.raw {
            let merged = match (raw.get(&k), v) {
                (Some(Number::Count(a)), Number::Count(b)) => Number::Count(a.saturating_add(b)),
                (_, v) => v,
            };
            raw.insert(k, merged);
        }
        Stats {
            conflicts: sum(self.conflicts, later.conflicts),
            decisions: sum(self.decisions, later.decisions),
            propagations: sum(self.propagations, later.propagations),
            raw,
        }
    }
}

/// Adds `later` to what a run has so far (boxed: most runs have none,
/// and a run is moved around a lot).
pub(super) fn add(so_far: &mut Option<Box<Stats>>, later: Option<Stats>) {
    *so_far = match (so_far.take(), later) {
        (Some(a), Some(b)) => Some(Box::new(a.and(b))),
        (a, b) => a.or(b.map(Box::new)),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::profile;

    fn stats_of(name: &str) -> Statistics {
        profile(name)
            .and_then(|p| p.statistics.clone())
            .expect("in the table")
    }

    #[test]
    fn z3_zeros_left_out_are_zero_and_sessions_report_differences() {
        let z3 = stats_of("z3");
        let mut totals = Totals::new();
        let first = Stats::read(
            "(:decisions 2 :propagations 9 :memory 17.1)",
            &z3,
            &mut totals,
        )
        .expect("read");
        assert_eq!(
            (first.conflicts, first.decisions, first.propagations),
            (Some(0), Some(2), Some(9))
        );
        assert_eq!(first.raw.get("memory"), Some(&Number::Decimal(17.1)));
        let second = Stats::read(
            "(:decisions 4 :propagations 21 :num-checks 2)",
            &z3,
            &mut totals,
        )
        .expect("read");
        assert_eq!((second.decisions, second.propagations), (Some(2), Some(12)));
        assert_eq!(second.raw.get("num-checks"), Some(&Number::Count(2)));
        let both = first.and(second);
        assert_eq!(both.propagations, Some(21));
        let bits = "(:sat-decisions 7 :sat-propagations-2ary 5 :sat-propagations-nary 6)";
        let bits = Stats::read(bits, &z3, &mut Totals::new()).expect("read");
        assert_eq!(
            (bits.conflicts, bits.decisions, bits.propagations),
            (Some(0), Some(7), Some(11))
        );
    }

    #[test]
    fn yices_names_are_normalised_and_not_subtracted() {
        let y = stats_of("yices2");
        let mut totals = Totals::new();
        let text = "(:decisions 5 :conflicts 1 :boolean-propagations 6 :theory-propagations 2)";
        let a = Stats::read(text, &y, &mut totals).expect("read");
        let b = Stats::read(text, &y, &mut totals).expect("read");
        assert_eq!(a, b);
        assert_eq!(
            (a.conflicts, a.decisions, a.propagations),
            (Some(1), Some(5), Some(6))
        );
        assert_eq!(a.raw.keys().collect::<Vec<_>>(), ["theory-propagations"]);
    }

    #[test]
    fn cvc5_keeps_only_the_listed_raw_keys_and_unreadable_replies_give_none() {
        let c = stats_of("cvc5");
        let text = "(:all-statistics ((\"sat::conflicts\" 3) (\"sat::decisions\" 9) \
                    (\"sat::propagations\" 66) (\"sat::starts\" 2) (\"theory::uf::lemmas\" 4)))";
        let s = Stats::read(text, &c, &mut Totals::new()).expect("read");
        assert_eq!(
            (s.conflicts, s.decisions, s.propagations),
            (Some(3), Some(9), Some(66))
        );
        assert_eq!(s.raw.keys().collect::<Vec<_>>(), ["sat::starts"]);
        assert_eq!(Stats::read("(error \"x\")", &c, &mut Totals::new()), None);
        let mut none = None;
        add(&mut none, Some(s.clone()));
        add(&mut none, None);
        assert_eq!(none, Some(Box::new(s)));
    }
}
