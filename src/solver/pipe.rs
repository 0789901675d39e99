//! Reading a solver's output streams, keeping a bounded part of what is
//! read, so that neither a flooding solver nor one that stops writing can
//! block smtgrid or fill its memory: [`Pipe`] reads on a thread of its own
//! (a one-shot run's streams, every stderr), [`Polled`] when the waiting
//! thread asks (a session's replies, one per puzzle, so no hand-off
//! between threads per puzzle).

use std::io::Read;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// Which part of a stream to keep.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Keep {
    /// Up to n bytes not yet taken by the reader ([`Pipe::take`]); what
    /// arrives beyond is counted and dropped.
    Head(usize),
    /// The last n bytes.
    Tail(usize),
}

/// What has been read from one stream so far.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    /// The bytes kept (for [`Keep::Tail`], up to twice the cap until
    /// [`Pipe::text`] trims them).
    pub bytes: Vec<u8>,
    /// Bytes read and dropped because [`Keep::Head`]'s cap was reached.
    pub dropped: u64,
    /// Whether the stream has ended (closed, or a read error).
    pub closed: bool,
}

#[derive(Debug, Default)]
struct Shared {
    kept: Mutex<Kept>,
    changed: Condvar,
}

/// One output stream of a solver, read on a thread of its own.
#[derive(Debug, Clone)]
pub(crate) struct Pipe {
    shared: Arc<Shared>,
    keep: Keep,
}

/// How much one read takes at most.
const CHUNK: usize = 64 << 10;

impl Pipe {
    /// Starts reading `r` until it closes.
    pub fn read(mut r: impl Read + Send + 'static, keep: Keep) -> Pipe {
        let pipe = Pipe {
            shared: Arc::default(),
            keep,
        };
        let shared = Arc::clone(&pipe.shared);
        thread::spawn(move || {
            let mut buf = vec![0u8; CHUNK];
            loop {
                let n = match r.read(&mut buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => 0,
                };
                let mut k = shared.kept.lock().unwrap_or_else(|e| e.into_inner());
                if n == 0 {
                    k.closed = true;
                } else {
                    keep_bytes(&mut k, &buf[..n], keep);
                }
                drop(k);
                shared.changed.notify_all();
                if n == 0 {
                    break;
                }
            }
        });
        pipe
    }

    /// A pipe that is already closed and holds nothing (for a stream the
    /// child does not have).
    pub fn closed(keep: Keep) -> Pipe {
        let pipe = Pipe {
            shared: Arc::default(),
            keep,
        };
        pipe.lock().closed = true;
        pipe
    }

    /// The state, locked.
    pub fn lock(&self) -> MutexGuard<'_, Kept> {
        self.shared.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until more is read, the stream closes or `d` passes.
    pub fn wait<'a>(&self, guard: MutexGuard<'a, Kept>, d: Duration) -> MutexGuard<'a, Kept> {
        match self.shared.changed.wait_timeout(guard, d) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        }
    }

    /// Waits until the stream closes or `until` passes; returns whether it
    /// closed.
    pub fn wait_closed(&self, until: Instant) -> bool {
        let mut k = self.lock();
        while !k.closed {
            let now = Instant::now();
            if now >= until {
                return false;
            }
            k = self.wait(k, until - now);
        }
        true
    }

    /// Whether more than a [`Keep::Head`] cap has arrived.
    pub fn overflowed(&self) -> bool {
        self.lock().dropped > 0
    }

    /// Takes the kept bytes out, leaving the pipe empty.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.lock().bytes)
    }

    /// The kept bytes as text (a [`Keep::Tail`] cut to its cap), without
    /// taking them.
    pub fn text(&self) -> String {
        let k = self.lock();
        let bytes = match self.keep {
            Keep::Tail(cap) => &k.bytes[k.bytes.len().saturating_sub(cap)..],
            Keep::Head(_) => &k.bytes[..],
        };
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// One output stream read by the thread that waits on it, with no thread
/// of its own: the descriptor is non-blocking, and each call reads what
/// has arrived. A session waits on its solver's replies this way, so a
/// reply reaches the waiting thread without a hand-off between threads.
#[derive(Debug)]
pub(crate) struct Polled {
    stream: Option<std::process::ChildStdout>,
    kept: Kept,
    keep: Keep,
    buf: Vec<u8>,
}

impl Polled {
    /// Reads `stream` (closed and empty without one) when asked.
    pub fn new(stream: Option<std::process::ChildStdout>, keep: Keep) -> Polled {
        use std::os::fd::AsRawFd;
        if let Some(s) = &stream {
            crate::output::set_nonblocking(s.as_raw_fd());
        }
        let closed = stream.is_none();
        Polled {
            stream,
            kept: Kept {
                closed,
                ..Kept::default()
            },
            keep,
            buf: Vec::new(),
        }
    }

    /// What has been read, after reading everything that has arrived,
    /// without waiting.
    pub fn now(&mut self) -> &mut Kept {
        while let Some(s) = &mut self.stream {
            if self.buf.is_empty() {
                self.buf = vec![0; CHUNK];
            }
            match s.read(&mut self.buf) {
                Ok(0) => {
                    self.stream = None;
                    self.kept.closed = true;
                }
                Ok(n) => keep_bytes(&mut self.kept, &self.buf[..n], self.keep),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.stream = None;
                    self.kept.closed = true;
                }
            }
            // A solver that floods is stopped by the caller; reading on
            // could go on for as long as it writes.
            if self.kept.dropped > 0 {
                break;
            }
        }
        &mut self.kept
    }

    /// What has been read so far, without reading.
    pub fn kept(&mut self) -> &mut Kept {
        &mut self.kept
    }

    /// Waits until more arrives, the stream closes or `d` passes, then
    /// reads what is there.
    pub fn wait(&mut self, d: Duration) -> &mut Kept {
        use std::os::fd::AsRawFd;
        if let Some(s) = &self.stream {
            crate::output::wait_ready(s.as_raw_fd(), libc::POLLIN, d);
        }
        self.now()
    }

    /// Takes out everything read so far and what has arrived.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.now().bytes)
    }
}

/// Adds `data` to what is kept.
fn keep_bytes(k: &mut Kept, data: &[u8], keep: Keep) {
    match keep {
        Keep::Head(cap) => {
            if k.bytes.capacity() < cap {
                // Room for the whole cap at once: growing by doubling
                // would copy the text and hold both copies (twice the cap)
                // for a moment. Pages not written cost no memory.
                k.bytes.reserve_exact(cap.saturating_sub(k.bytes.len()));
            }
            let room = cap.saturating_sub(k.bytes.len()).min(data.len());
            k.bytes.extend_from_slice(&data[..room]);
            k.dropped += (data.len() - room) as u64;
        }
        Keep::Tail(cap) => {
            k.bytes.extend_from_slice(data);
            // Trim only once twice the cap is reached, so trimming costs
            // O(1) per byte read.
            if k.bytes.len() > 2 * cap {
                let cut = k.bytes.len() - cap;
                k.bytes.drain(..cut);
            }
        }
    }
}

/// `bytes` as text of at most `cap` bytes, each invalid UTF-8 sequence
/// replaced by U+FFFD as [`String::from_utf8_lossy`] does, in the same
/// buffer: a solver's output is never held twice. A replacement can take
/// three bytes where the sequence took one; what would then pass `cap` is
/// dropped, as what a solver prints past the cap is.
pub(crate) fn into_text(bytes: Vec<u8>, cap: usize) -> String {
    let mut bytes = match String::from_utf8(bytes) {
        Ok(mut text) => {
            text.truncate(text.floor_char_boundary(cap));
            return text;
        }
        Err(e) => e.into_bytes(),
    };
    // First the text's length, and how much of `bytes` makes it.
    let (mut taken, mut len) = (0, 0);
    while let Some((valid, invalid)) = first_chunk(&bytes[taken..]) {
        if len + valid > cap {
            let text = std::str::from_utf8(&bytes[taken..taken + valid]).unwrap_or_default();
            let fits = text.floor_char_boundary(cap - len);
            taken += fits;
            len += fits;
            break;
        }
        taken += valid;
        len += valid;
        if invalid == 0 || len + REPLACEMENT.len() > cap {
            break;
        }
        taken += invalid;
        len += REPLACEMENT.len();
    }
    // Then the bytes taken move to the end of the text's room, and the
    // text is written from its start: each piece of text is at least as
    // long as the bytes it comes from, so writing never overtakes reading.
    bytes.truncate(taken);
    bytes.resize(len, 0);
    let from = len - taken;
    bytes.copy_within(..taken, from);
    let (mut read, mut write) = (from, 0);
    while let Some((valid, invalid)) = first_chunk(&bytes[read..]) {
        bytes.copy_within(read..read + valid, write);
        read += valid;
        write += valid;
        if invalid > 0 {
            bytes[write..write + REPLACEMENT.len()].copy_from_slice(REPLACEMENT);
            read += invalid;
            write += REPLACEMENT.len();
        }
    }
    bytes.truncate(write);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// U+FFFD, which stands for invalid UTF-8.
const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();

/// The lengths of the valid UTF-8 at the start of `bytes` and of the
/// invalid sequence after it (0 if none), as [`String::from_utf8_lossy`]
/// cuts them; `None` for no bytes.
fn first_chunk(bytes: &[u8]) -> Option<(usize, usize)> {
    let chunk = bytes.utf8_chunks().next()?;
    Some((chunk.valid().len(), chunk.invalid().len()))
}

/// Text for a message that quotes solver output: at most `max` bytes of
/// `bytes` (its start and its end), with how much was left out, and with
/// control characters escaped: the solver's text must not reach a terminal raw.
pub(crate) fn excerpt(bytes: &[u8], max: usize) -> String {
    let text = |b: &[u8]| crate::error::escape_controls(&String::from_utf8_lossy(b)).into_owned();
    if bytes.len() <= max {
        return text(bytes);
    }
    let half = max / 2;
    format!(
        "{} … [{} bytes left out] … {}",
        text(&bytes[..half]),
        bytes.len() - 2 * half,
        text(&bytes[bytes.len() - half..])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_end() {
        let mut k = Kept::default();
        for _ in 0..100 {
            keep_bytes(&mut k, b"0123456789", Keep::Tail(25));
        }
        assert!(k.bytes.len() <= 50);
        let pipe = Pipe::closed(Keep::Tail(25));
        pipe.lock().bytes = k.bytes;
        assert_eq!(pipe.text(), "5678901234567890123456789");
    }

    #[test]
    fn head_keeps_the_start_and_counts_the_rest() {
        let mut k = Kept::default();
        keep_bytes(&mut k, b"abcdef", Keep::Head(4));
        keep_bytes(&mut k, b"ghij", Keep::Head(4));
        assert_eq!(k.bytes, b"abcd");
        assert_eq!(k.dropped, 6);
    }

    #[test]
    fn a_pipe_reads_to_the_end() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let pipe = Pipe::read(std::io::Cursor::new(data.clone()), Keep::Head(150_000));
        assert!(pipe.wait_closed(Instant::now() + Duration::from_secs(10)));
        assert!(pipe.overflowed());
        assert_eq!(pipe.take(), data[..150_000]);
        assert!(pipe.take().is_empty());
    }

    fn polled(script: &str, keep: Keep) -> (std::process::Child, Polled) {
        let mut child = std::process::Command::new("sh")
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("sh runs");
        let p = Polled::new(child.stdout.take(), keep);
        (child, p)
    }

    #[test]
    fn a_polled_stream_gives_what_arrived_and_then_its_end() {
        let (mut child, mut p) = polled("printf 'a\\nb\\n'; sleep 0.3; printf c", Keep::Head(100));
        let until = Instant::now() + Duration::from_secs(20);
        while p.now().bytes.len() < 4 && Instant::now() < until {
            p.wait(Duration::from_millis(50));
        }
        assert_eq!(p.now().bytes, b"a\nb\n");
        assert!(!p.now().closed, "the rest has not arrived yet");
        while !p.wait(Duration::from_millis(50)).closed && Instant::now() < until {}
        assert_eq!(p.take(), b"a\nb\nc");
        assert!(p.now().closed);
        child.wait().expect("reaped");
    }

    #[test]
    fn a_polled_flood_is_counted_and_reading_stops() {
        let (mut child, mut p) = polled("yes", Keep::Head(1000));
        let until = Instant::now() + Duration::from_secs(20);
        while p.wait(Duration::from_millis(50)).dropped == 0 && Instant::now() < until {}
        assert_eq!(p.now().bytes.len(), 1000);
        assert!(p.now().dropped > 0);
        child.kill().expect("killed");
        child.wait().expect("reaped");
    }

    #[test]
    fn text_replaces_invalid_utf8_as_lossy_conversion_does() {
        let cases: [&[u8]; 7] = [
            b"sat\n",
            b"\xff",
            b"a\xffb\xfe\xfd",
            b"\xe2\x82A\xe2\x82",
            "é€😀".as_bytes(),
            b"\xf0\x9f\x98",
            b"",
        ];
        for bytes in cases {
            let want = String::from_utf8_lossy(bytes).into_owned();
            assert_eq!(into_text(bytes.to_vec(), 100), want, "{bytes:?}");
        }
    }

    #[test]
    fn text_holds_at_most_the_cap_and_whole_characters() {
        assert_eq!(into_text(b"abcdef".to_vec(), 4), "abcd");
        assert_eq!(into_text("aé".as_bytes().to_vec(), 2), "a");
        assert_eq!(into_text(b"ab\xff".to_vec(), 4), "ab");
        assert_eq!(into_text(b"a\xffb".to_vec(), 4), "a\u{fffd}");
        assert_eq!(into_text(b"\xff\xffab".to_vec(), 7), "\u{fffd}\u{fffd}a");
        assert_eq!(into_text(b"a\xff\xe2\x82\xac".to_vec(), 6), "a\u{fffd}");
    }

    proptest::proptest! {
        #[test]
        fn text_is_the_lossy_conversion_cut_at_the_cap(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::any::<u8>(),
                    proptest::sample::select(vec![b'a', 0x80, 0xc3, 0xa9, 0xe2, 0xf0, 0x9f]),
                ],
                0..64,
            ),
            cap in 0usize..200,
        ) {
            let lossy = String::from_utf8_lossy(&bytes).into_owned();
            let got = into_text(bytes, cap);
            proptest::prop_assert!(got.len() <= cap);
            proptest::prop_assert!(lossy.starts_with(&got), "{got:?} of {lossy:?}");
            // Cut only where the next character (or replacement) would pass the cap.
            if let Some(next) = lossy[got.len()..].chars().next() {
                proptest::prop_assert!(got.len() + next.len_utf8() > cap);
            }
        }
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt(b"abc", 10), "abc");
        assert_eq!(excerpt(b"a\x1b]0;t\x07", 10), "a\\u{1b}]0;t\\u{7}");
        let long = vec![b'('; 70 << 20];
        let e = excerpt(&long, 200);
        assert!(e.len() < 300, "{}", e.len());
        assert!(e.contains(&format!("{} bytes left out", (70 << 20) - 200)));
    }
}
