//! Where smtgrid's output goes: standard output, whose write errors become
//! typed [`Error`]s (a closed pipe stops the command quietly, a full disk is
//! an error); files written whole or not at all; and messages on standard
//! error ([`note`]), which never fail the program.

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
    /// Standard output (which itself holds a line until its newline),
    /// behind a buffer that only a holding writer fills.
    inner: io::BufWriter<io::StdoutLock<'static>>,
    hold: bool,
}

impl Stdout {
    /// Locks standard output; each line goes out when it ends.
    pub fn new() -> Self {
        Stdout {
            // Never filled: writes go past it (see `out`).
            inner: io::BufWriter::with_capacity(0, io::stdout().lock()),
            hold: false,
        }
    }

    /// Locks standard output and holds what is written until
    /// [`Stdout::flush`] (or a full buffer): one write for many lines,
    /// where a run prints thousands of results a second.
    pub fn holding() -> Self {
        Stdout {
            inner: io::BufWriter::with_capacity(HELD_BYTES, io::stdout().lock()),
            hold: true,
        }
    }

    fn out(&mut self) -> &mut dyn Write {
        match self.hold {
            true => &mut self.inner,
            false => self.inner.get_mut(),
        }
    }

    /// Writes formatted text; `write!(out, …)` and `writeln!(out, …)` call
    /// this and so return smtgrid's [`Result`].
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<()> {
        self.out().write_fmt(args).map_err(Error::from_stdout)
    }

    /// Writes `text` as it is.
    pub fn write_str(&mut self, text: &str) -> Result<()> {
        self.out()
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

/// What a holding [`Stdout`] keeps before it writes anyway.
const HELD_BYTES: usize = 64 * 1024;

impl Default for Stdout {
    fn default() -> Self {
        Stdout::new()
    }
}

/// Messages on standard error: [`crate::error::note`], which every stage
/// may use (a reader's notes on what it left out, a profile's warning).
pub use crate::error::note;

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
    let cancelled = || crate::signals::installed().is_some_and(|c| c.is_cancelled());
    if cancelled() {
        return Err(Error::Interrupted);
    }
    refuse_input(path)?;
    let (target, previous) = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return write_in_place(path, text),
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
    // A signal during the write: the temporary file is removed when
    // `file` drops, and `path` keeps what it held.
    if cancelled() {
        return Err(Error::Interrupted);
    }
    file.persist(&target).map_err(|e| io_error(e.error))?;
    Ok(())
}

/// Writes `bytes` into `path`, which is not a regular file (`/dev/null`,
/// a named pipe), without ever blocking for good: it is opened and written
/// non-blocking, so a named pipe that nobody reads is refused at once and
/// one whose reader stops reading is waited for only until a signal
/// cancels the command.
fn write_in_place(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let f = match std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(io_error(io::Error::other(
                "nobody reads from it (a named pipe with no reader, or a socket): start the \
                 reader first, or write to a regular file or a directory",
            )));
        }
        r => r.map_err(io_error)?,
    };
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: `f` is open for writing; the buffer is valid for
        // `rest.len()` bytes.
        let n = unsafe { libc::write(f.as_raw_fd(), rest.as_ptr().cast(), rest.len()) };
        if n >= 0 {
            rest = &rest[n as usize..];
            continue;
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => {}
            Some(libc::EAGAIN) => {
                if crate::signals::installed().is_some_and(|c| c.is_cancelled()) {
                    return Err(Error::Interrupted);
                }
                wait_writable(f.as_raw_fd(), std::time::Duration::from_millis(50));
            }
            _ => return Err(io_error(e)),
        }
    }
    Ok(())
}

/// Waits until `fd` has room for a write (or its reader closed it), at
/// most `wait`: the pause of every non-blocking writer that must keep a
/// deadline or a cancel flag in view.
pub(crate) fn wait_writable(fd: std::os::fd::RawFd, wait: std::time::Duration) {
    wait_ready(fd, libc::POLLOUT, wait);
}

/// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`) or
/// closed, at most `wait` (at least a millisecond).
pub(crate) fn wait_ready(fd: std::os::fd::RawFd, events: libc::c_short, wait: std::time::Duration) {
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    let ms = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
    // SAFETY: one valid pollfd, for the duration of the call.
    unsafe {
        libc::poll(&mut p, 1, ms);
    }
}

/// Makes this process's end of a pipe non-blocking (the other end is a
/// separate open file and keeps its own mode).
pub(crate) fn set_nonblocking(fd: std::os::fd::RawFd) {
    // SAFETY: fcntl on a descriptor this process owns, with integer
    // arguments only.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
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
    matches!(
        (identity(a), identity(b)),
        (Some(x @ Identity::Inode(..)), Some(y)) if x == y
    )
}

/// What makes two spellings of a path one file: an existing file's device
/// and inode (through links), else the real folder and the name in it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    Inode(u64, u64),
    Path(std::path::PathBuf),
}

/// The identity of `path`; `None` when neither it nor its folder exists.
fn identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    if let Ok(m) = std::fs::metadata(path) {
        return Some(Identity::Inode(m.dev(), m.ino()));
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(Identity::Path(
        std::fs::canonicalize(folder).ok()?.join(path.file_name()?),
    ))
}

/// The files this command reads, and the files its output flags name:
/// none of them is ever written by another flag (see [`claim`]).
static FILES: std::sync::Mutex<Vec<(Identity, Role, std::path::PathBuf)>> =
    std::sync::Mutex::new(Vec::new());

/// Why a file is in [`FILES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The command reads it.
    Input,
    /// An output flag names it.
    Output(&'static str),
}

fn files() -> std::sync::MutexGuard<'static, Vec<(Identity, Role, std::path::PathBuf)>> {
    FILES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Marks `path` as an input of this command: no writer of smtgrid
/// ([`write_file_atomically`], every output flag through [`claim`]) writes
/// over it, whatever path, link or hard link leads to it. Standard input
/// (`-`) and a missing file are no files to protect.
pub fn protect(path: &Path) {
    if path.as_os_str() == "-" {
        return;
    }
    if let Some(id @ Identity::Inode(..)) = identity(path) {
        files().push((id, Role::Input, path.to_path_buf()));
    }
}

/// Takes `path` for the output flag `flag` (`-o`, `--html`, …): refused
/// when it is an input of this command ([`protect`]) or the file of
/// another output flag, or when it is a folder, before anything is
/// written. Every output flag of every command that names a file goes
/// through here, so no flag can write over what another reads or writes.
pub fn claim(flag: &'static str, path: &Path) -> Result<()> {
    // Refused now, not after the run the file would have ended.
    if path.is_dir() {
        return Err(Error::Usage(format!(
            "{flag} {}: that is a folder; give a file name",
            path.display()
        )));
    }
    let Some(id) = identity(path) else {
        return Ok(());
    };
    let mut files = files();
    if let Some((_, role, other)) = files.iter().find(|(i, _, _)| *i == id) {
        let what = match role {
            Role::Input => format!("that is the input file {}", other.display()),
            Role::Output(f) => format!("{f} {} writes that file already", other.display()),
        };
        return Err(Error::Usage(format!(
            "{flag} {}: {what}; write to another file",
            path.display()
        )));
    }
    files.push((id, Role::Output(flag), path.to_path_buf()));
    Ok(())
}

/// Refuses to write `path` when it is an input of this command
/// ([`protect`]): the last guard of every file smtgrid writes, for the
/// files whose names are made as the command runs (one per puzzle in a
/// folder).
fn refuse_input(path: &Path) -> Result<()> {
    let Some(id @ Identity::Inode(..)) = identity(path) else {
        return Ok(());
    };
    match files()
        .iter()
        .find(|(i, role, _)| *i == id && *role == Role::Input)
    {
        Some((_, _, input)) => Err(Error::Usage(format!(
            "{}: that is the input file {}; write to another file",
            path.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Digits of the zero-padded number of a puzzle from a file of many, so
/// that names sort in input order (`top95-00002` before `top95-00010`) up
/// to 99,999 puzzles per file.
pub const NUMBER_WIDTH: usize = 5;

/// Output files for the puzzles of one run, one each. When the inputs'
/// names are distinct, a puzzle's file is named by its input's name alone
/// (`classic.svg`, `top95-00003.svg`), wherever the input lies; otherwise
/// by its input's path relative to the folder every input shares, taken
/// absolute (`easy/1.svg`, `hard/1.svg`), so no output lands under a copy
/// of an absolute path. Two puzzles whose names still meet (ids that
/// differ only in characters a file name cannot hold) are refused, never
/// written over each other.
pub struct OutputNames {
    /// The folder every input shares, absolute, left out of the names;
    /// `None` when the inputs' names alone tell them apart.
    base: Option<std::path::PathBuf>,
    /// Names handed out, each with the puzzle that has it.
    taken: std::collections::HashMap<std::path::PathBuf, String>,
}

impl OutputNames {
    /// Names for the puzzles read from `inputs` (paths as given; `-` is
    /// standard input).
    pub fn new(inputs: &[std::path::PathBuf]) -> Self {
        let stems: Vec<String> = inputs.iter().map(|i| file_stem(&input_id(i))).collect();
        let distinct = stems
            .iter()
            .enumerate()
            .all(|(n, s)| !stems[..n].contains(s));
        let base = (!distinct).then(|| {
            let mut shared: Option<Vec<std::ffi::OsString>> = None;
            for input in inputs.iter().filter(|i| i.as_os_str() != "-") {
                let folders: Vec<_> =
                    folders(&absolute(input.parent().unwrap_or(Path::new("")))).collect();
                shared = Some(match shared {
                    None => folders,
                    Some(s) => s
                        .into_iter()
                        .zip(folders)
                        .take_while(|(a, b)| a == b)
                        .map(|(a, _)| a)
                        .collect(),
                });
            }
            let mut base = std::path::PathBuf::from("/");
            base.extend(shared.unwrap_or_default());
            base
        });
        OutputNames {
            base,
            taken: std::collections::HashMap::new(),
        }
    }

    /// The file in `dir` with extension `ext` for the puzzle whose identity
    /// is `id`, its folder created; an error when an earlier puzzle of the
    /// run has it already.
    pub fn file(&mut self, dir: &Path, id: &str, ext: &str) -> Result<std::path::PathBuf> {
        let name = self.claim(id, ext)?;
        let file = dir.join(&name);
        if let Some(folder) = file
            .parent()
            .filter(|_| name.parent() != Some(Path::new("")))
        {
            std::fs::create_dir_all(folder).map_err(|source| Error::Io {
                path: folder.to_path_buf(),
                source,
            })?;
        }
        Ok(file)
    }

    /// The path, relative to the output folder, of the file with extension
    /// `ext` for the puzzle whose identity is `id`.
    fn claim(&mut self, id: &str, ext: &str) -> Result<std::path::PathBuf> {
        let path = Path::new(id);
        let mut name = std::path::PathBuf::new();
        if let Some(base) = &self.base {
            let folder = absolute(path.parent().unwrap_or(Path::new("")));
            if let Ok(rest) = folder.strip_prefix(base) {
                for part in folders(rest) {
                    name.push(safe_name(&part.to_string_lossy()));
                }
            }
        }
        name.push(file_name(id, ext));
        if let Some(first) = self.taken.get(&name) {
            return Err(Error::Usage(format!(
                "{} and {id} would both be written to {}: give them in separate runs or rename \
                 one",
                first,
                name.display()
            )));
        }
        self.taken.insert(name.clone(), id.to_string());
        Ok(name)
    }

    /// How many names were handed out.
    pub fn count(&self) -> usize {
        self.taken.len()
    }
}

/// The identity the puzzles of input `path` are named from: `stdin` for
/// `-`.
fn input_id(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".into()
    } else {
        path.to_string_lossy().into_owned()
    }
}

/// `path` made absolute against the working folder, with `.` and `..`
/// resolved as written (links are not followed: the names are for people).
fn absolute(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let full = std::env::current_dir().unwrap_or_default().join(path);
    let mut out = std::path::PathBuf::from("/");
    for c in full.components() {
        match c {
            Component::Normal(s) => out.push(s),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// The named parts of `path`: `.` and the root left out, `..` kept (it is
/// made a safe name where it is used).
fn folders(path: &Path) -> impl Iterator<Item = std::ffi::OsString> + '_ {
    use std::path::Component;
    path.components().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_os_string()),
        Component::ParentDir => Some("..".into()),
        _ => None,
    })
}

/// A file name for the output of the puzzle named `puzzle`, with
/// extension `ext`: see [`file_stem`].
pub fn file_name(puzzle: &str, ext: &str) -> String {
    format!("{}.{ext}", file_stem(puzzle))
}

/// A file name stem for the puzzle named `puzzle`: its file's stem, and
/// for a puzzle of a file of many its number zero-padded
/// (`puzzles/top95.txt:3` becomes `top95-00003`); characters other than
/// ASCII letters, digits, `.`, `_` and `-` become `_`.
pub fn file_stem(puzzle: &str) -> String {
    let base = puzzle.rsplit('/').next().unwrap_or(puzzle);
    let (file, number) = match base.rsplit_once(':') {
        Some((f, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (f, Some(n)),
        _ => (base, None),
    };
    let mut stem = file;
    for ext in [".gz", ".GZ", ".txt", ".links", ".toml", ".kakuro", ".sgt"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    let stem = match number {
        Some(n) => format!("{stem}-{n:0>NUMBER_WIDTH$}"),
        None => stem.to_string(),
    };
    safe_name(&stem)
}

/// `text` with every character but ASCII letters, digits, `.`, `_` and `-`
/// replaced by `_`, for a file or folder name (never hidden, never empty).
pub fn safe_name(text: &str) -> String {
    let s: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// `n` and the noun for it: `1 puzzle`, `3 puzzles`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether colour is on when left to `auto`: never with `NO_COLOR` set
/// (<https://no-color.org>); always with `CLICOLOR_FORCE` set (non-empty,
/// as clap and anstream read it);
/// never with `CLICOLOR=0`; otherwise when standard output is a terminal
/// (<https://bixense.com/clicolors/>).
pub fn auto_color() -> bool {
    use std::io::IsTerminal;
    color_wanted(
        anstyle_query::no_color(),
        anstyle_query::clicolor_force(),
        anstyle_query::clicolor(),
        std::io::stdout().is_terminal(),
    )
}

/// The rule of [`auto_color`], on what the environment says.
fn color_wanted(no_color: bool, force: bool, clicolor: Option<bool>, terminal: bool) -> bool {
    !no_color && (force || (clicolor != Some(false) && terminal))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_padded_to_sort_in_input_order() {
        assert_eq!(file_name("puzzles/top95.txt:3", "smt2"), "top95-00003.smt2");
        assert_eq!(file_stem("my puzzle.toml"), "my_puzzle");
        assert_eq!(file_stem("x.txt.gz:12"), "x-00012");
        assert_eq!(file_stem("a.sgt:1"), "a-00001");
        assert_eq!(file_stem("mine.links:4"), "mine-00004");
        assert_eq!(file_stem(".hidden"), "_.hidden");
    }

    #[test]
    fn puzzles_of_other_folders_keep_their_folders_and_names_never_meet() {
        let paths = |p: &[&str]| p.iter().map(std::path::PathBuf::from).collect::<Vec<_>>();
        let mut one = OutputNames::new(&paths(&["puzzles/a.toml", "./puzzles/top95.txt"]));
        let name =
            |n: &mut OutputNames, id| n.claim(id, "svg").expect("free").display().to_string();
        assert_eq!(name(&mut one, "puzzles/a.toml"), "a.svg");
        assert_eq!(name(&mut one, "./puzzles/top95.txt:3"), "top95-00003.svg");
        // Distinct names are enough, wherever the inputs lie: no output
        // lands under a copy of an absolute path.
        let mut apart = OutputNames::new(&paths(&["my/x.toml", "/abs/repo/puzzles/k.toml"]));
        assert_eq!(name(&mut apart, "my/x.toml"), "x.svg");
        assert_eq!(name(&mut apart, "/abs/repo/puzzles/k.toml"), "k.svg");
        let mut two = OutputNames::new(&paths(&["set/easy/1.toml", "set/hard/1.toml"]));
        assert_eq!(name(&mut two, "set/easy/1.toml"), "easy/1.svg");
        assert_eq!(name(&mut two, "set/hard/1.toml"), "hard/1.svg");
        let mut abs = OutputNames::new(&paths(&["/r/set/easy/1.toml", "/r/set/hard/1.toml"]));
        assert_eq!(name(&mut abs, "/r/set/easy/1.toml"), "easy/1.svg");
        // Relative and absolute spellings meet in their common folder.
        let here = std::env::current_dir().expect("cwd");
        let there = here.join("sub/1.toml").display().to_string();
        let mut mixed = OutputNames::new(&paths(&["../x/1.toml", &there, "-"]));
        let mine = here
            .file_name()
            .expect("named")
            .to_string_lossy()
            .into_owned();
        assert_eq!(name(&mut mixed, "../x/1.toml"), "x/1.svg");
        assert_eq!(name(&mut mixed, &there), format!("{mine}/sub/1.svg"));
        assert_eq!(
            name(&mut mixed, "stdin:2"),
            format!("{mine}/stdin-00002.svg")
        );
        let mut odd = OutputNames::new(&paths(&["a b.toml", "a_b.toml"]));
        name(&mut odd, "a b.toml");
        let e = odd
            .claim("a_b.toml", "svg")
            .expect_err("one file for two puzzles");
        assert!(
            e.to_string().contains("would both be written to a_b.svg"),
            "{e}"
        );
        assert_eq!(odd.count(), 1);
    }

    #[test]
    fn colour_follows_no_color_clicolor_and_clicolor_force() {
        // (NO_COLOR, CLICOLOR_FORCE, CLICOLOR, terminal) -> colour
        for (no, force, cli, tty, want) in [
            (false, false, None, true, true),
            (false, false, None, false, false),
            (false, true, None, false, true),
            (true, true, None, true, false),
            (false, false, Some(false), true, false),
            (false, true, Some(false), false, true),
            (false, false, Some(true), false, false),
        ] {
            assert_eq!(
                color_wanted(no, force, cli, tty),
                want,
                "{no} {force} {cli:?} {tty}"
            );
        }
    }

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
