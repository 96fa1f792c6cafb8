//! [`GuestOutput`]: a host-side byte sink as a guest's WASI stdout or stderr. The WASI stream
//! plumbing is the same for every capture the host keeps; only what happens to the bytes
//! differs (see [`OutputSink`]).

use bytes::Bytes;
use std::pin::Pin;
use std::task::{Context, Poll};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};

/// Where the bytes a guest writes to an output stream go.
pub trait OutputSink: Clone + Send + Sync + 'static {
    /// Takes `bytes`; an error stops the guest with a trap at this write.
    fn accept(&self, bytes: &[u8]) -> wasmtime::Result<()>;
}

/// `sink` as a WASI output stream, for `WasiCtxBuilder::stdout` / `stderr`.
#[derive(Clone, Debug)]
pub struct GuestOutput<S>(pub S);

impl<S: OutputSink> IsTerminal for GuestOutput<S> {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl<S: OutputSink> StdoutStream for GuestOutput<S> {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl<S: OutputSink> Pollable for GuestOutput<S> {
    async fn ready(&mut self) {}
}

impl<S: OutputSink> OutputStream for GuestOutput<S> {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.0.accept(&bytes).map_err(StreamError::Trap)
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 << 10)
    }
}

impl<S: OutputSink> tokio::io::AsyncWrite for GuestOutput<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(
            self.0
                .accept(buf)
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
