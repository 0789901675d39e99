//! Where the commands that write one file per puzzle (`emit`, `convert`,
//! `render`) write: standard output, a file, or a folder they create.

use std::path::{Path, PathBuf};

use super::config::Inputs;
use crate::error::{Error, Result};
use crate::output::{OutputNames, Stdout, note, write_file_atomically};
use crate::puzzle::Puzzle;

/// Where `-o` points.
pub(super) enum Target {
    /// No `-o`: one puzzle, on standard output.
    Stdout,
    /// One puzzle, into this file.
    File(PathBuf),
    /// One `NAME.EXT` per puzzle into this folder.
    Dir(PathBuf),
}

impl Target {
    /// Reads `-o`: an existing directory or a path ending in `/` is a
    /// folder, created if need be (with its parents); anything else a
    /// file, whose folder is created if need be. Never an input file
    /// ([`Inputs::check`] marks them first).
    pub(super) fn of(output: Option<&Path>) -> Result<Target> {
        use std::os::unix::ffi::OsStrExt;
        let Some(path) = output else {
            return Ok(Target::Stdout);
        };
        if path.is_dir() {
            return Ok(Target::Dir(path.to_path_buf()));
        }
        if path.as_os_str().as_bytes().ends_with(b"/") {
            create_dir("-o", path)?;
            return Ok(Target::Dir(path.to_path_buf()));
        }
        crate::output::claim("-o", path)?;
        if let Some(folder) = path.parent()
            && !folder.as_os_str().is_empty()
            && !folder.is_dir()
        {
            create_dir("-o", folder)?;
        }
        Ok(Target::File(path.to_path_buf()))
    }
}

/// Creates `dir` (given with `flag`) and its parents. A file where a
/// folder of the path would be is refused, naming it: the system's own
/// word for that is "File exists" or "Not a directory", which names
/// neither the path nor the fix.
pub(super) fn create_dir(flag: &str, dir: &Path) -> Result<()> {
    // Without a trailing `/`: `afile/` is no path the system can look
    // at, as `afile` is.
    let file = dir
        .ancestors()
        .map(|a| a.components().collect::<PathBuf>())
        .find(|a| a.metadata().is_ok_and(|m| !m.is_dir()));
    if let Some(file) = file {
        let at = match file.as_path() == dir {
            true => String::new(),
            false => format!("{}: ", dir.display()),
        };
        return Err(Error::Usage(format!(
            "{flag} {at}{}: that is a file, not a folder; give a folder (an existing one, or \
             a path to create), or move the file away",
            file.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// Writes `make(index, p)` for every puzzle of `inputs` to `target`: one
/// `NAME.EXT` per puzzle into a folder, or a file or standard output when
/// there is one puzzle. Never over an input file, and never two puzzles
/// into one file.
pub(super) fn write_each(
    mut puzzles: impl Iterator<Item = Result<Puzzle>>,
    inputs: &Inputs,
    target: &Target,
    ext: &str,
    mut make: impl FnMut(usize, &Puzzle) -> Result<String>,
) -> Result<()> {
    if let Target::Dir(dir) = target {
        // One at a time: a file of many puzzles is never held whole.
        let mut names = OutputNames::new(&inputs.puzzles);
        for (n, p) in puzzles.enumerate() {
            let p = p?;
            let file = names.file(dir, &p.id, ext)?;
            // Never over an input: write_file_atomically refuses those.
            write_file_atomically(&file, &make(n, &p)?)?;
        }
        note(format_args!(
            "wrote {} .{ext} files to {}",
            names.count(),
            dir.display()
        ));
        return Ok(());
    }
    // The stream never starts empty; `None` stays no output, not a panic.
    let Some(p) = puzzles.next().transpose()? else {
        return Ok(());
    };
    if let Some(second) = puzzles.next() {
        let second = second?;
        let held = match &inputs.puzzles[..] {
            [one] => format!("{} holds more than one puzzle", one.display()),
            _ => format!(
                "the inputs hold more than one puzzle ({} and {})",
                p.name, second.name
            ),
        };
        return Err(Error::Usage(format!(
            "{held}: give a directory with -o DIR/ to write one .{ext} per puzzle"
        )));
    }
    let text = make(0, &p)?;
    match target {
        Target::File(file) => write_file_atomically(file, &text),
        _ => {
            let mut out = Stdout::new();
            out.write_str(&text)?;
            out.flush()
        }
    }
}
