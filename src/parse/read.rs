//! Reading an input with bounded cost: at most [`InputLimits::max_bytes`]
//! bytes (after decompression), gzip detected by extension or magic bytes,
//! and every line ending (`\n`, `\r\n`, a lone `\r`) turned into `\n` so
//! that the parsers see one kind of line.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{InputError, Location, closest};

/// The default bound on the bytes read from one input, in MB (2^20 bytes).
pub const DEFAULT_MAX_INPUT_MB: u64 = 64;

/// The largest `--max-input-mb`: 1 TiB. A bound in bytes then still fits
/// a `u64` with room for the reader's "one byte past the limit".
pub const MAX_INPUT_MB: u64 = 1 << 20;

/// The longest line a sudoku line file may have, in bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What reading one input may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputLimits {
    /// Bytes read from one input, counted after decompression.
    pub max_bytes: u64,
    /// Bytes in one line of a line file.
    pub max_line: usize,
}

impl Default for InputLimits {
    fn default() -> Self {
        InputLimits::with_max_mb(DEFAULT_MAX_INPUT_MB)
    }
}

impl InputLimits {
    /// The default limits with at most `mb` MB (2^20 bytes) per input;
    /// `mb` is taken as at most [`MAX_INPUT_MB`].
    pub fn with_max_mb(mb: u64) -> Self {
        InputLimits {
            max_bytes: mb.min(MAX_INPUT_MB) << 20,
            max_line: MAX_LINE_BYTES,
        }
    }

    /// The byte limit in MB, for messages.
    fn mb(&self) -> u64 {
        self.max_bytes.div_ceil(1 << 20)
    }
}

/// The error a [`Bounded`] reader gives once the limit is passed.
#[derive(Debug)]
struct TooLarge;

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the input is larger than the limit")
    }
}

impl std::error::Error for TooLarge {}

/// Fails with [`TooLarge`] as soon as more than `left` bytes come through,
/// so that neither `/dev/zero` nor a gzip bomb is read further.
struct Bounded<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // One byte past the limit tells a file of exactly the limit from a
        // larger one.
        let want = buf
            .len()
            .min(usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            self.left = 0;
            return Err(io::Error::other(TooLarge));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Turns `\r\n` and a lone `\r` into `\n`. A lone `\r` and the `\r` of a
/// `\r\n` both become `\n` in place; the `\n` after a `\r` is dropped, so
/// no byte ever moves to a later offset.
struct Newlines<R> {
    inner: R,
    after_cr: bool,
}

impl<R: Read> Read for Newlines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            if n == 0 {
                return Ok(0);
            }
            let mut out = 0;
            for i in 0..n {
                let b = buf[i];
                if b == b'\n' && self.after_cr {
                    self.after_cr = false;
                    continue;
                }
                self.after_cr = b == b'\r';
                buf[out] = if b == b'\r' { b'\n' } else { b };
                out += 1;
            }
            // A read that held only the `\n` of a `\r\n` gives nothing:
            // read again, as returning 0 would mean the end.
            if out > 0 {
                return Ok(out);
            }
        }
    }
}

/// `text` with every line ending turned into `\n`, as [`open`] gives it.
pub(crate) fn newlines(text: &str) -> Cow<'_, str> {
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len());
    let mut r = Newlines {
        inner: text.as_bytes(),
        after_cr: false,
    };
    // Reading a slice cannot fail, and only ASCII bytes change, so the
    // text stays UTF-8.
    let _ = r.read_to_end(&mut out);
    Cow::Owned(
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// An open input: its bytes, bounded and with `\n` line ends.
pub struct Input {
    /// The reader.
    pub reader: Box<dyn BufRead>,
    /// Whether the bytes are decompressed from gzip (for messages).
    gzip: bool,
    limits: InputLimits,
    file: Location,
}

/// The two bytes every gzip stream starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Opens `path` (`-` for standard input) for bounded reading.
pub fn open(path: &Path, limits: InputLimits) -> Result<Input, InputError> {
    let file = Location::file(path);
    let cannot = |e: io::Error| InputError::new(file.clone(), format!("cannot read the file: {e}"));
    let raw: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin())
    } else {
        let f = File::open(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::new(file.clone(), missing(path)),
            _ => cannot(e),
        })?;
        if let Ok(meta) = f.metadata()
            && meta.is_dir()
        {
            return Err(InputError::new(
                file,
                "this is a directory: give a puzzle file (a .toml, a line file or a .kakuro)",
            ));
        }
        Box::new(f)
    };
    let mut raw = BufReader::with_capacity(1 << 16, raw);
    let named_gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let magic = raw.fill_buf().map_err(cannot)?.starts_with(&GZIP_MAGIC);
    let gzip = named_gz || magic;
    let decoded: Box<dyn Read> = if gzip {
        Box::new(flate2::bufread::MultiGzDecoder::new(raw))
    } else {
        Box::new(raw)
    };
    let bounded = Bounded {
        inner: decoded,
        left: limits.max_bytes,
    };
    let reader = Box::new(BufReader::with_capacity(
        1 << 16,
        Newlines {
            inner: bounded,
            after_cr: false,
        },
    ));
    Ok(Input {
        reader,
        gzip,
        limits,
        file,
    })
}

/// The most names of one folder [`missing`] compares with a missing one.
const MAX_NAMES_COMPARED: usize = 10_000;

/// What to say of a path that names no file, with the fix: the name a typo
/// away from it in its folder, or the first folder of the path that is not
/// there; else, for a starter's name (`thermo.toml`), the command that
/// writes that starter.
fn missing(path: &Path) -> String {
    // The first part of the path that does not exist, and the folder it
    // was looked for in.
    let mut absent = path;
    while let Some(parent) = absent.parent() {
        if parent.as_os_str().is_empty() || parent.is_dir() {
            break;
        }
        absent = parent;
    }
    let folder = absent.parent().filter(|p| !p.as_os_str().is_empty());
    let wanted = absent
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let names: Vec<String> = std::fs::read_dir(folder.unwrap_or(Path::new(".")))
        .into_iter()
        .flatten()
        .take(MAX_NAMES_COMPARED)
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    let meant = closest(&wanted, names.iter().map(String::as_str)).map(|name| {
        let meant = folder.map_or_else(|| Path::new(name).to_path_buf(), |f| f.join(name));
        format!(" (did you mean `{}`?)", meant.display())
    });
    if absent != path {
        return format!(
            "no such file: there is no folder `{}`{}",
            absent.display(),
            meant.unwrap_or_default()
        );
    }
    if let Some(meant) = meant {
        return format!("no such file{meant}");
    }
    let starter = path.file_stem().and_then(|s| s.to_str()).filter(|s| {
        path.extension().is_some_and(|e| e == "toml") && crate::templates::names().any(|n| n == *s)
    });
    match starter {
        Some(name) => format!(
            "no such file: `smtgrid new {name} > {}` writes a starter",
            path.display()
        ),
        None => "no such file".to_string(),
    }
}

impl Input {
    /// An input holding `text` (with `\n` line ends) that came from `file`.
    pub fn from_text(text: &str, file: &Location) -> Input {
        Input {
            reader: Box::new(io::Cursor::new(text.as_bytes().to_vec())),
            gzip: false,
            limits: InputLimits::default(),
            file: file.clone(),
        }
    }

    /// The input error for a failed read.
    pub fn error(&self, e: io::Error, at: Location) -> InputError {
        let too_large = e
            .get_ref()
            .is_some_and(|inner| inner.downcast_ref::<TooLarge>().is_some());
        if too_large {
            let mb = self.limits.mb();
            let what = if self.gzip {
                "decompresses to more than"
            } else {
                "is larger than"
            };
            return InputError::new(
                self.file.clone(),
                format!(
                    "the input {what} {mb} MB, the most smtgrid reads from one input: \
                     pass --max-input-mb N to allow N MB, or split the file"
                ),
            );
        }
        let damaged = matches!(
            e.kind(),
            io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof
        );
        if self.gzip && damaged {
            return InputError::new(at, format!("the gzip data is damaged: {e}"));
        }
        InputError::new(at, format!("cannot read the file: {e}"))
    }

    /// Reads up to `n` bytes (fewer at the end of the input), for guessing
    /// the format; the caller puts them back with [`Input::unread`].
    pub fn peek(&mut self, n: usize) -> Result<Vec<u8>, InputError> {
        let mut head = Vec::new();
        (&mut self.reader)
            .take(n as u64)
            .read_to_end(&mut head)
            .map_err(|e| self.error(e, self.file.clone()))?;
        Ok(head)
    }

    /// Puts `head` back in front of the rest of the input.
    pub fn unread(self, head: Vec<u8>) -> Input {
        Input {
            reader: Box::new(io::Cursor::new(head).chain(self.reader)),
            ..self
        }
    }

    /// Reads the whole input (at most the limit) as text.
    pub fn text(mut self) -> Result<String, InputError> {
        // `read_to_end` would double the buffer past the limit (128 MB
        // for a 64 MB limit); growing by hand caps it at the limit.
        let most = usize::try_from(self.limits.max_bytes).unwrap_or(usize::MAX);
        let mut bytes = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let n = match self.reader.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.error(e, self.file.clone())),
            };
            let need = bytes.len() + n;
            if need > bytes.capacity() {
                let grown = (bytes.capacity() * 2).max(1 << 16).min(most.max(need));
                bytes.reserve_exact(grown.max(need) - bytes.len());
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
        utf8(bytes, &self.file, 1, 0)
    }

    /// Reads one line (without its `\n`) into `line`, at most
    /// `max_line` bytes. Returns `Ok(false)` at the end of the input.
    /// `ln` is the line's number, for messages.
    pub fn line(&mut self, line: &mut Vec<u8>, ln: usize) -> Result<bool, InputError> {
        line.clear();
        let max = self.limits.max_line;
        let mut bounded = (&mut self.reader).take(max as u64 + 1);
        if let Err(e) = bounded.read_until(b'\n', line) {
            return Err(self.error(e, self.file.at_line(ln)));
        }
        if line.is_empty() {
            return Ok(false);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        } else if line.len() > max {
            return Err(InputError::new(
                self.file.at_line(ln),
                format!(
                    "line {ln} is longer than {max} bytes: a line file holds one puzzle of \
                     n² characters per line (81 for a 9×9); is this the right file?"
                ),
            ));
        }
        Ok(true)
    }
}

/// Turns bytes read from `file` into text, or names the first byte that is
/// not UTF-8. The bytes are line `first_line` of the file onward, and start
/// at byte `offset` of it.
pub(crate) fn utf8(
    bytes: Vec<u8>,
    file: &Location,
    first_line: usize,
    offset: usize,
) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let off = e.utf8_error().valid_up_to();
        let before = &bytes[..off];
        let line = first_line + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        let byte = bytes.get(off).copied().unwrap_or(0);
        InputError::new(
            file.at(line, col),
            format!(
                "the file is not UTF-8 text: byte 0x{byte:02x} at offset {} is not valid UTF-8 \
                 (save the file as UTF-8)",
                offset + off
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn newlines(chunks: &[&[u8]]) -> Vec<u8> {
        // Feeds the chunks one read at a time, as a pipe would.
        struct Chunks(Vec<Vec<u8>>);
        impl Read for Chunks {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Ok(0);
                }
                let c = self.0.remove(0);
                buf[..c.len()].copy_from_slice(&c);
                Ok(c.len())
            }
        }
        let mut r = Newlines {
            inner: Chunks(chunks.iter().map(|c| c.to_vec()).collect()),
            after_cr: false,
        };
        let mut out = Vec::new();
        r.read_to_end(&mut out).expect("reads");
        out
    }

    #[test]
    fn every_line_ending_becomes_lf() {
        assert_eq!(newlines(&[b"a\rb\r\nc\nd"]), b"a\nb\nc\nd");
        // A `\r\n` split between two reads, and a read holding only `\n`.
        assert_eq!(newlines(&[b"a\r", b"\n", b"b\r", b"\r\n"]), b"a\nb\n\n");
        assert_eq!(newlines(&[b"\r\r"]), b"\n\n");
    }

    #[test]
    fn whole_text_within_any_limit() {
        let mut input = Input::from_text("abc\ndef\n", &Location::file("t"));
        input.limits.max_bytes = 3;
        assert_eq!(input.text().expect("text"), "abc\ndef\n");
    }

    #[test]
    fn bounded_stops_one_byte_past_the_limit() {
        let mut ok = Bounded {
            inner: &b"12345"[..],
            left: 5,
        };
        let mut out = Vec::new();
        assert_eq!(ok.read_to_end(&mut out).expect("at the limit"), 5);
        let mut over = Bounded {
            inner: io::repeat(0),
            left: 1000,
        };
        let e = over.read_to_end(&mut Vec::new()).expect_err("over");
        assert!(e.get_ref().is_some_and(|i| i.is::<TooLarge>()));
    }

    #[test]
    fn the_largest_limits_read_everything() {
        // "One byte past the limit" must not wrap around to nothing.
        let mut all = Bounded {
            inner: &b"12345"[..],
            left: u64::MAX,
        };
        let mut out = Vec::new();
        assert_eq!(all.read_to_end(&mut out).expect("reads"), 5);
        let most = InputLimits::with_max_mb(u64::MAX);
        assert_eq!(most, InputLimits::with_max_mb(MAX_INPUT_MB));
        assert_eq!(most.max_bytes, MAX_INPUT_MB << 20);
    }
}
