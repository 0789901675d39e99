//! Where smtgrid's output goes: standard output, whose write errors become
//! typed [`Error`]s (a closed pipe stops the command quietly, a full disk is
//! an error); files written whole or not at all; and messages on standard
//! error, which never fail the program.

use std::fmt;
use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::error::{Error, Result};

/// Standard output, locked for the life of the command. Every write
/// reports failure as [`Error::from_stdout`] classifies it, so `?` after a
/// `write!`/`writeln!` stops the command the right way: quietly with exit 0
/// when the reader closed the pipe (`| head -1`), with a message and exit
/// 2 on any other failure (`> /dev/full`).
pub struct Stdout {
    inner: io::StdoutLock<'static>,
}

impl Stdout {
    /// Locks standard output.
    pub fn new() -> Self {
        Stdout {
            inner: io::stdout().lock(),
        }
    }

    /// Writes formatted text; `write!(out, …)` and `writeln!(out, …)` call
    /// this and so return smtgrid's [`Result`].
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<()> {
        self.inner.write_fmt(args).map_err(Error::from_stdout)
    }

    /// Writes `text` as it is.
    pub fn write_str(&mut self, text: &str) -> Result<()> {
        self.inner
            .write_all(text.as_bytes())
            .map_err(Error::from_stdout)
    }

    /// Pushes out anything held back (standard output holds a line that
    /// has no newline yet), so a failure shows now rather than being lost
    /// when the program ends.
    pub fn flush(&mut self) -> Result<()> {
        self.inner.flush().map_err(Error::from_stdout)
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Stdout::new()
    }
}

/// Prints `smtgrid: MESSAGE` on standard error, one line, with control
/// characters escaped (messages quote file names, titles and solver
/// output). A full or closed standard error is ignored: there is nowhere
/// left to report it, and `eprintln!` would panic.
pub fn note(message: impl fmt::Display) {
    let text = message.to_string();
    let _ = writeln!(
        io::stderr().lock(),
        "smtgrid: {}",
        crate::error::escape_controls(&text)
    );
}

/// Writes `text` (a script, a picture) to `path` so that `path` ends up holding either all of
/// `text` or what it held before, never a truncated script: the text goes
/// to a temporary file in the same folder, which is synced and then renamed
/// over `path`. On failure the temporary file is removed. A new file gets
/// the usual permissions (0666 less the umask); a replaced file keeps its
/// own; a symbolic link stays a link, and the file it points at is
/// replaced. What is not a regular file (`/dev/null`, a named pipe) is
/// written in place: renaming over it would replace the device or pipe.
pub fn write_file_atomically<T: AsRef<[u8]> + ?Sized>(path: &Path, text: &T) -> Result<()> {
    let text = text.as_ref();
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let (target, previous) = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)
                .map_err(io_error)?;
            return f.write_all(text).map_err(io_error);
        }
        // Renaming over a write-protected file would succeed where
        // writing into it fails; it stays protected.
        Ok(_) if !writable(path) => {
            return Err(io_error(io::Error::from_raw_os_error(libc::EACCES)));
        }
        Ok(m) => (
            std::fs::canonicalize(path).map_err(io_error)?,
            Some(m.permissions()),
        ),
        Err(_) => (path.to_path_buf(), None),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".smtgrid-")
        .suffix(".tmp")
        .permissions(
            previous
                .clone()
                .unwrap_or_else(|| Permissions::from_mode(0o666)),
        )
        .tempfile_in(dir)
        .map_err(io_error)?;
    if let Some(p) = previous {
        // The umask applied at creation; an existing file's mode is kept
        // exactly.
        file.as_file().set_permissions(p).map_err(io_error)?;
    }
    // Through the `File`: tempfile's own `Write` adds the temporary
    // file's name to errors, and the user asked for `path`.
    file.as_file_mut().write_all(text).map_err(io_error)?;
    // Some file systems report a full disk only when the data is flushed.
    file.as_file().sync_all().map_err(io_error)?;
    file.persist(&target).map_err(|e| io_error(e.error))?;
    Ok(())
}

/// Whether this process may write into the existing file `path` (root
/// may write into a file without write permission).
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// Whether `a` and `b` name the same existing file (the same device and
/// inode, so links and `./` spellings count).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// A file name for the output of the puzzle named `puzzle`, with
/// extension `ext`: `top95.txt:3`
/// becomes `top95-3.smt2`.
pub fn file_name(puzzle: &str, ext: &str) -> String {
    let base = puzzle.rsplit('/').next().unwrap_or(puzzle);
    let base = base
        .replace(".txt.gz:", "-")
        .replace(".txt:", "-")
        .replace(".sgt:", "-")
        .replace(':', "-");
    let clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "{}.{ext}",
        clean.trim_end_matches(".toml").trim_end_matches(".kakuro")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_quiet_and_other_failures_are_errors() {
        let closed = Error::from_stdout(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(closed, Error::OutputClosed));
        assert!(!closed.is_reported());
        let full = Error::from_stdout(io::Error::from_raw_os_error(libc::ENOSPC));
        assert!(matches!(full, Error::Output(_)));
        assert!(full.is_reported());
        assert!(
            full.to_string()
                .starts_with("cannot write to standard output")
        );
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_keep_their_mode() {
        let dir = tempfile::tempdir().expect("temp dir");
        let f = dir.path().join("a.smt2");
        write_file_atomically(&f, "one\n").expect("write");
        assert_eq!(std::fs::read_to_string(&f).expect("read"), "one\n");
        std::fs::set_permissions(&f, Permissions::from_mode(0o640)).expect("chmod");
        write_file_atomically(&f, "two\n").expect("write");
        assert_eq!(std::fs::read_to_string(&f).expect("read"), "two\n");
        let mode = std::fs::metadata(&f).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["a.smt2"], "no temporary file is left");
        assert!(same_file(&f, &dir.path().join("./a.smt2")));
        assert!(!same_file(&f, &dir.path().join("b.smt2")));

        let link = dir.path().join("link.smt2");
        std::os::unix::fs::symlink(&f, &link).expect("symlink");
        write_file_atomically(&link, "three\n").expect("write");
        assert!(link.is_symlink(), "the link stays a link");
        assert_eq!(std::fs::read_to_string(&f).expect("read"), "three\n");

        let protected = dir.path().join("protected.smt2");
        std::fs::write(&protected, "kept\n").expect("write");
        std::fs::set_permissions(&protected, Permissions::from_mode(0o444)).expect("chmod");
        // SAFETY: geteuid only reads the process's user id.
        let root = unsafe { libc::geteuid() } == 0;
        assert_eq!(writable(&protected), root, "only root may write into it");
        if !root {
            assert!(write_file_atomically(&protected, "lost\n").is_err());
            assert_eq!(std::fs::read_to_string(&protected).expect("read"), "kept\n");
        }

        write_file_atomically(Path::new("/dev/null"), "gone\n").expect("write");
        assert!(
            !Path::new("/dev/null").is_file(),
            "/dev/null stays a device"
        );
    }
}
