//! Where a result came from: the machine, the smtgrid build, the date,
//! and each solver binary's SHA-256, for the records of `bench --out` and
//! `solve --format json`, so that a published figure can be traced back
//! to what made it.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::solver::MemoryLimitBy;

/// The machine a run was made on, and the smtgrid that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Logical cores.
    pub cores: usize,
    /// Operating system and architecture, e.g. `linux x86_64`.
    pub os: String,
    /// The CPU model (`/proc/cpuinfo`'s `model name`); empty if unknown.
    #[serde(default)]
    pub cpu: String,
    /// The kernel release (`/proc/sys/kernel/osrelease`); empty if
    /// unknown.
    #[serde(default)]
    pub kernel: String,
    /// The smtgrid version that made the run.
    pub smtgrid: String,
    /// The git commit smtgrid was built from; `null` when it was not built
    /// from a checkout.
    #[serde(default)]
    pub smtgrid_commit: Option<String>,
}

impl Machine {
    /// This machine and this build (read once).
    pub fn this() -> Machine {
        static THIS: OnceLock<Machine> = OnceLock::new();
        THIS.get_or_init(|| {
            let cpu = std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with("model name"))
                        .and_then(|l| l.split_once(':'))
                        .map(|(_, v)| v.trim().to_string())
                })
                .unwrap_or_default();
            let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            Machine {
                cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
                os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
                cpu,
                kernel,
                smtgrid: env!("CARGO_PKG_VERSION").into(),
                smtgrid_commit: commit().map(String::from),
            }
        })
        .clone()
    }
}

/// The settings, machine and date of one run, for records that do not
/// carry them otherwise (`solve --format json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// `--timeout` in milliseconds.
    pub timeout_ms: u64,
    /// `--memory-limit` in MiB, or `null` for none.
    pub memory_limit_mb: Option<u64>,
    /// How the memory limit was held, or `null` for none.
    pub memory_limit_by: Option<MemoryLimitBy>,
    /// Whether the scripts were unsimplified (`--plain`).
    pub plain: bool,
    /// The machine and smtgrid build.
    pub machine: Machine,
    /// When the record was made (UTC, ISO 8601).
    pub date: String,
}

impl Provenance {
    /// The provenance of a run of `plan`, made now.
    pub fn of(plan: &crate::solve::Plan) -> Provenance {
        Provenance {
            timeout_ms: u64::try_from(plan.limits.timeout.as_millis()).unwrap_or(u64::MAX),
            memory_limit_mb: plan.limits.memory.map(|m| m.mb),
            memory_limit_by: plan.limits.memory.map(|m| m.by()),
            plain: plan.options.plain,
            machine: Machine::this(),
            date: now_utc(),
        }
    }
}

/// The git commit this smtgrid was built from, if known (see `build.rs`).
pub fn commit() -> Option<&'static str> {
    Some(env!("SMTGRID_GIT_COMMIT")).filter(|c| !c.is_empty())
}

/// The SHA-256 of the file at `path` in hex, computed once per path and
/// process; `None` if it cannot be read.
pub fn sha256(path: &Path) -> Option<String> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().ok()?.get(path) {
        return hit.clone();
    }
    // Hashed outside the lock: a solver binary is tens of megabytes.
    let digest = hash_file(path);
    cache
        .lock()
        .ok()?
        .insert(path.to_path_buf(), digest.clone());
    digest
}

fn hash_file(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Some(
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// The current time in UTC, ISO 8601 to the second
/// (`2026-11-24T09:17:43Z`).
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// Seconds since the epoch as an ISO 8601 UTC time.
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_utc() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_513_063), "2026-11-24T09:37:43Z");
    }

    #[test]
    fn sha256_of_a_known_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("abc");
        std::fs::write(&p, "abc").expect("write");
        assert_eq!(
            sha256(&p).as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(sha256(&dir.path().join("missing")), None);
    }

    #[test]
    fn this_machine_is_described() {
        let m = Machine::this();
        assert!(m.cores >= 1);
        assert!(!m.smtgrid.is_empty());
    }
}
