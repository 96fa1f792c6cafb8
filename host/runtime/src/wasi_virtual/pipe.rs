//! [`CapturePipe`]: a guest's stdout or stderr captured in host memory, up to a cap, for env
//! instances and sandbox runs alike. What happens at the cap is the one policy where they
//! differ ([`Overflow`]): an env instance keeps the tail of its stderr (to explain a panic) and
//! writes on for free; a sandbox run keeps the head of its output and is stopped by a trap at
//! the write that crossed the cap, so flooding stdout costs at most the cap in host memory and
//! no time past that write.

use super::output::OutputSink;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What a [`CapturePipe`] does with a write past its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Keep the last `cap` bytes; the guest never notices (env instances).
    KeepTail,
    /// Keep the first `cap` bytes and trap with [`OutputLimitExceeded`] (sandbox runs).
    Trap,
}

/// The error a write over the cap of a sandbox pipe (one that traps at its cap) traps with.
#[derive(Debug, thiserror::Error)]
#[error("output over the limit of {cap} bytes")]
pub struct OutputLimitExceeded {
    /// The cap that was crossed.
    pub cap: usize,
}

/// A capped capture of one output stream, shared by the guest's WASI context and the host.
#[derive(Clone, Debug)]
pub struct CapturePipe {
    inner: Arc<Mutex<Captured>>,
    /// Set by every write: lets [`clear`](Self::clear), run before each guest call, skip the
    /// lock when the guest wrote nothing (the usual case).
    written: Arc<AtomicBool>,
}

#[derive(Debug)]
struct Captured {
    bytes: VecDeque<u8>,
    cap: usize,
    overflow: Overflow,
    overflowed: bool,
}

impl CapturePipe {
    /// A pipe keeping at most `cap` bytes, with `overflow` deciding which.
    pub fn new(cap: usize, overflow: Overflow) -> Self {
        CapturePipe {
            inner: Arc::new(Mutex::new(Captured {
                bytes: VecDeque::new(),
                cap,
                overflow,
                overflowed: false,
            })),
            written: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the guest wrote more than the cap.
    pub fn overflowed(&self) -> bool {
        self.inner.lock().expect("capture lock").overflowed
    }

    /// What was kept, lossily decoded.
    pub fn text(&self) -> String {
        let captured = self.inner.lock().expect("capture lock");
        let (a, b) = captured.bytes.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Empties the pipe.
    pub fn clear(&self) {
        // A plain load first: most calls write nothing, and a swap would take the line
        // exclusively on every call.
        if !self.written.load(Ordering::Acquire) || !self.written.swap(false, Ordering::AcqRel) {
            return;
        }
        let mut captured = self.inner.lock().expect("capture lock");
        captured.bytes.clear();
        captured.overflowed = false;
    }

    fn push(&self, bytes: &[u8]) -> Result<(), OutputLimitExceeded> {
        let mut captured = self.inner.lock().expect("capture lock");
        self.written.store(true, Ordering::Release);
        let cap = captured.cap;
        let room = cap - captured.bytes.len();
        if bytes.len() <= room {
            captured.bytes.extend(bytes);
            return Ok(());
        }
        captured.overflowed = true;
        match captured.overflow {
            Overflow::Trap => {
                captured.bytes.extend(&bytes[..room]);
                Err(OutputLimitExceeded { cap })
            }
            Overflow::KeepTail => {
                let keep = bytes.len().min(cap);
                let drop = captured.bytes.len() + keep - cap;
                captured.bytes.drain(..drop);
                captured.bytes.extend(&bytes[bytes.len() - keep..]);
                Ok(())
            }
        }
    }
}

impl OutputSink for CapturePipe {
    fn accept(&self, bytes: &[u8]) -> wasmtime::Result<()> {
        self.push(bytes).map_err(wasmtime::Error::new)
    }
}

#[cfg(test)]
mod tests {
    use super::{CapturePipe, Overflow};

    #[test]
    fn an_env_pipe_keeps_the_tail_and_never_fails() {
        let pipe = CapturePipe::new(4, Overflow::KeepTail);
        assert!(pipe.push(b"hello").is_ok());
        assert!(pipe.push(b"!!").is_ok());
        assert_eq!(pipe.text(), "lo!!");
        assert!(pipe.overflowed());
        pipe.clear();
        assert_eq!(pipe.text(), "");
        assert!(!pipe.overflowed());
    }

    #[test]
    fn a_sandbox_pipe_keeps_the_head_and_traps() {
        let pipe = CapturePipe::new(4, Overflow::Trap);
        assert!(pipe.push(b"ab").is_ok());
        assert!(!pipe.overflowed());
        assert!(pipe.push(b"cdef").is_err());
        assert_eq!(pipe.text(), "abcd");
        assert!(pipe.overflowed());
    }
}
