//! Reading a solver's output streams: one loop, on a thread of its own per
//! stream, keeping a bounded part of what it reads, so that neither a
//! flooding solver nor one that stops writing can block smtgrid or fill its
//! memory.

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

/// Adds `data` to what is kept.
fn keep_bytes(k: &mut Kept, data: &[u8], keep: Keep) {
    match keep {
        Keep::Head(cap) => {
            if k.bytes.capacity() == 0 {
                // Reserved once: growing by doubling would copy the text
                // and hold both copies (twice the cap) for a moment. Pages
                // not written cost no memory.
                k.bytes.reserve_exact(cap);
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

/// Text for a message that quotes solver output: at most `max` bytes of
/// `bytes` (its start and its end), with how much was left out.
pub(crate) fn excerpt(bytes: &[u8], max: usize) -> String {
    if bytes.len() <= max {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let half = max / 2;
    format!(
        "{} … [{} bytes left out] … {}",
        String::from_utf8_lossy(&bytes[..half]),
        bytes.len() - 2 * half,
        String::from_utf8_lossy(&bytes[bytes.len() - half..])
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

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt(b"abc", 10), "abc");
        let long = vec![b'('; 70 << 20];
        let e = excerpt(&long, 200);
        assert!(e.len() < 300, "{}", e.len());
        assert!(e.contains(&format!("{} bytes left out", (70 << 20) - 200)));
    }
}
