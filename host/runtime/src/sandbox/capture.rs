//! [`CappedPipe`]: a guest output stream that keeps the first `cap` bytes and stops the guest
//! with a trap the moment it writes more, so flooding stdout costs at most `cap` bytes of host
//! memory and no time past the write that crossed the line.

use crate::guest_output::OutputSink;
use std::sync::{Arc, Mutex};

/// The error a write over the cap traps with.
#[derive(Debug, thiserror::Error)]
#[error("output over the limit of {cap} bytes")]
pub struct OutputLimitExceeded {
    /// The cap that was crossed.
    pub cap: usize,
}

/// A capped capture of one output stream, shared by the guest's WASI context and the host.
#[derive(Clone, Debug)]
pub struct CappedPipe {
    inner: Arc<Mutex<Captured>>,
}

#[derive(Debug)]
struct Captured {
    bytes: Vec<u8>,
    cap: usize,
    overflowed: bool,
}

impl CappedPipe {
    /// A pipe keeping at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        CappedPipe {
            inner: Arc::new(Mutex::new(Captured {
                bytes: Vec::new(),
                cap,
                overflowed: false,
            })),
        }
    }

    /// Whether the guest tried to write past the cap.
    pub fn overflowed(&self) -> bool {
        self.inner.lock().expect("capture lock").overflowed
    }

    /// What was captured, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.inner.lock().expect("capture lock").bytes).into_owned()
    }

    fn push(&self, bytes: &[u8]) -> Result<(), OutputLimitExceeded> {
        let mut captured = self.inner.lock().expect("capture lock");
        let room = captured.cap - captured.bytes.len();
        if bytes.len() > room {
            captured.bytes.extend_from_slice(&bytes[..room]);
            captured.overflowed = true;
            return Err(OutputLimitExceeded { cap: captured.cap });
        }
        captured.bytes.extend_from_slice(bytes);
        Ok(())
    }
}

impl OutputSink for CappedPipe {
    fn accept(&self, bytes: &[u8]) -> wasmtime::Result<()> {
        self.push(bytes).map_err(wasmtime::Error::new)
    }
}

#[cfg(test)]
mod tests {
    use super::CappedPipe;

    #[test]
    fn keeps_the_head_and_flags_overflow() {
        let pipe = CappedPipe::new(4);
        assert!(pipe.push(b"ab").is_ok());
        assert!(pipe.push(b"cdef").is_err());
        assert_eq!(pipe.text(), "abcd");
        assert!(pipe.overflowed());
    }
}
