//! Transcripts (`--transcript DIR`): what smtgrid sent each solver process
//! and what came back, with times and the run each message belongs to,
//! one file per process. For debugging a solver that misbehaves, and for
//! the tests that check the session protocol.
//!
//! A file is JSON lines: first `{"solver", "pid", "program", "args"}`,
//! then one event per line, `{"ms", "run", "sent"}` when a text was wholly
//! written to the solver, `{"ms", "run", "received"}` when a reply was
//! complete (for a session, up to and with its sentinel line; for a
//! process run, its whole stdout), and last `{"ms", "ended"}`. `ms` counts
//! from the process's start. Each file holds at most [`TRANSCRIPT_CAP`]
//! bytes: events beyond it are left out, and the last line says how many
//! bytes were.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde_json::json;

/// The most bytes one transcript file holds (64 MiB, as much as smtgrid
/// takes of a solver's output).
pub const TRANSCRIPT_CAP: u64 = 64 << 20;

/// Where transcripts go: a folder, one file per solver process.
#[derive(Debug, Clone)]
pub struct Transcripts {
    dir: PathBuf,
    cap: u64,
    next: Arc<AtomicU64>,
}

impl Transcripts {
    /// Transcripts in `dir`, which is created if missing.
    pub fn new(dir: &Path) -> std::io::Result<Transcripts> {
        std::fs::create_dir_all(dir)?;
        if !std::fs::metadata(dir)?.is_dir() {
            return Err(std::io::Error::other("not a directory"));
        }
        Ok(Transcripts {
            dir: dir.to_path_buf(),
            cap: TRANSCRIPT_CAP,
            next: Arc::default(),
        })
    }

    /// The same with another cap on each file's size.
    pub fn with_cap(mut self, cap: u64) -> Transcripts {
        self.cap = cap;
        self
    }

    /// Starts the transcript of solver process `pid`, labelled `solver`,
    /// started as `program args`. A file that cannot be created gives a
    /// transcript that writes nothing (the run goes on) and a note.
    pub(crate) fn open(
        &self,
        solver: &str,
        pid: u32,
        program: &Path,
        args: &[String],
    ) -> Transcript {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let safe: String = solver
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._@-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        let path = self.dir.join(format!("{n:05}-{safe}-{pid}.jsonl"));
        // Never over an existing file (nor through a link planted there).
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| {
                crate::output::note(format!(
                    "warning: no transcript for {solver}: {}: {e}",
                    path.display()
                ))
            })
            .ok()
            .map(BufWriter::new);
        let mut t = Transcript {
            file,
            cap: self.cap,
            written: 0,
            left_out: 0,
            start: Instant::now(),
        };
        t.line(&json!({
            "solver": solver,
            "pid": pid,
            "program": program.to_string_lossy(),
            "args": args,
        }));
        t
    }
}

/// One solver process's transcript.
#[derive(Debug)]
pub(crate) struct Transcript {
    file: Option<BufWriter<File>>,
    cap: u64,
    written: u64,
    /// Bytes of events left out once the cap was reached.
    left_out: u64,
    start: Instant,
}

impl Transcript {
    /// `text` was wholly written to the solver, for `run`.
    pub fn sent(&mut self, run: &str, text: &str) {
        self.event(run, "sent", &[text]);
    }

    /// `text` came back, a complete reply, for `run`.
    pub fn received(&mut self, run: &str, text: &str) {
        self.event(run, "received", &[text]);
    }

    /// A complete reply came back for `run` in pieces: `parts` one after
    /// the other, recorded as one text.
    pub fn received_parts(&mut self, run: &str, parts: &[&str]) {
        self.event(run, "received", parts);
    }

    /// The process ended, as `how` says.
    pub fn ended(&mut self, how: &str) {
        let mut end = json!({ "ms": self.ms(), "ended": how });
        if self.left_out > 0 {
            end["left_out_bytes"] = self.left_out.into();
        }
        // The last line is written even at the cap, so a reader learns
        // that events are missing.
        if let Some(len) = measured(&end) {
            self.write(&end, len);
        }
        if let Some(f) = &mut self.file {
            let _ = f.flush();
        }
        self.file = None;
    }

    fn ms(&self) -> f64 {
        (self.start.elapsed().as_secs_f64() * 1e6).round() / 1e3
    }

    /// Records an event, its text as `parts`: serialized straight into
    /// the file, so a reply as large as a solver's output is never copied
    /// into a JSON value and again into its text.
    fn event(&mut self, run: &str, key: &str, parts: &[&str]) {
        if self.file.is_none() {
            return;
        }
        self.line(&Event {
            ms: self.ms(),
            run,
            key,
            text: Concat(parts),
        });
    }

    /// Writes `value` as one line, unless it would pass the cap (room is
    /// kept for the last line): measured first, then written, with no
    /// copy of its text.
    fn line(&mut self, value: &impl serde::Serialize) {
        let Some(len) = measured(value) else { return };
        if self.written + len > self.cap.saturating_sub(256) {
            self.left_out += len;
            return;
        }
        self.write(value, len);
    }

    /// Writes `value` and a newline, `len` bytes in all; a failed write
    /// (a full disk) stops the transcript, the run goes on.
    fn write(&mut self, value: &impl serde::Serialize, len: u64) {
        let Some(f) = &mut self.file else { return };
        if serde_json::to_writer(&mut *f, value).is_err() || writeln!(f).is_err() {
            self.file = None;
            return;
        }
        self.written += len;
    }
}

/// The bytes of `value`'s line (its JSON and a newline), counted without
/// holding its text; `None` if it cannot be serialized.
fn measured(value: &impl serde::Serialize) -> Option<u64> {
    let mut counted = Counted(0);
    serde_json::to_writer(&mut counted, value).ok()?;
    Some(counted.0 + 1)
}

/// One `sent` or `received` event, serialized with its keys in the order
/// of the other lines' (sorted, as `serde_json` orders an object's).
struct Event<'a> {
    ms: f64,
    run: &'a str,
    /// `sent` or `received`.
    key: &'a str,
    text: Concat<'a>,
}

impl serde::Serialize for Event<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("ms", &self.ms)?;
        if self.key < "run" {
            map.serialize_entry(self.key, &self.text)?;
            map.serialize_entry("run", self.run)?;
        } else {
            map.serialize_entry("run", self.run)?;
            map.serialize_entry(self.key, &self.text)?;
        }
        map.end()
    }
}

/// Texts serialized as one JSON string, escaped as they are written.
struct Concat<'a>(&'a [&'a str]);

impl std::fmt::Display for Concat<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|part| f.write_str(part))
    }
}

impl serde::Serialize for Concat<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A writer that only counts the bytes it is given.
struct Counted(u64);

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Transcript {
    fn drop(&mut self) {
        if self.file.is_some() {
            self.ended("gone");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_in_parts_is_one_text_escaped_as_json() {
        let dir = tempfile::tempdir().expect("temp dir");
        let t = Transcripts::new(dir.path()).expect("dir");
        let mut one = t.open("z3", 7, Path::new("/bin/z3"), &[]);
        one.sent("p:1", "(check-sat)\n");
        one.received_parts("p:1", &["sat \"\u{1b}\u{fffd}\\\n", "smtgrid-sentinel-1\n"]);
        one.ended("killed");
        let path = dir.path().join("00001-z3-7.jsonl");
        let text = std::fs::read_to_string(path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        // Keys in the order of every other line's: sorted.
        assert!(lines[1].starts_with("{\"ms\":"), "{}", lines[1]);
        assert!(lines[1].ends_with(",\"run\":\"p:1\",\"sent\":\"(check-sat)\\n\"}"));
        assert!(lines[2].contains(",\"received\":\"sat \\\"\\u001b\u{fffd}\\\\\\nsmtgrid"));
        let received: serde_json::Value = serde_json::from_str(lines[2]).expect("JSON");
        assert_eq!(
            received["received"],
            "sat \"\u{1b}\u{fffd}\\\nsmtgrid-sentinel-1\n"
        );
        assert_eq!(received["run"], "p:1");
    }

    #[test]
    fn a_transcript_is_bounded_and_says_what_it_left_out() {
        let dir = tempfile::tempdir().expect("temp dir");
        let t = Transcripts::new(dir.path()).expect("dir").with_cap(4096);
        let mut one = t.open("z3@a b/c", 42, Path::new("/bin/z3"), &["-in".into()]);
        for i in 0..100 {
            one.sent("p:1 z3/lia", &format!("(check-sat) ; {i}\n"));
            one.received("p:1 z3/lia", "sat\nsmtgrid-sentinel-1\n");
        }
        one.ended("exited with status 0");
        let files: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").path())
            .collect();
        assert_eq!(files.len(), 1);
        let name = files[0]
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert_eq!(name, "00001-z3@a_b_c-42.jsonl");
        let text = std::fs::read_to_string(&files[0]).expect("read");
        assert!(text.len() <= 4096, "{}", text.len());
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(lines[0]["pid"], 42);
        assert_eq!(lines[1]["sent"], "(check-sat) ; 0\n");
        let last = lines.last().expect("a last line");
        assert_eq!(last["ended"], "exited with status 0");
        assert!(
            last["left_out_bytes"].as_u64().is_some_and(|n| n > 0),
            "{last}"
        );
    }
}
