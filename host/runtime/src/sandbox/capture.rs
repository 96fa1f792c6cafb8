//! [`CappedPipe`]: a guest output stream that keeps the first `cap` bytes and stops the guest
//! with a trap the moment it writes more, so flooding stdout costs at most `cap` bytes of host
//! memory and no time past the write that crossed the line.

use bytes::Bytes;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};

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

impl IsTerminal for CappedPipe {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CappedPipe {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CappedPipe {
    async fn ready(&mut self) {}
}

impl OutputStream for CappedPipe {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.push(&bytes)
            .map_err(|e| StreamError::Trap(wasmtime::Error::new(e)))
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 << 10)
    }
}

impl tokio::io::AsyncWrite for CappedPipe {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(
            self.push(buf)
                .map(|()| buf.len())
                .map_err(std::io::Error::other),
        )
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
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
