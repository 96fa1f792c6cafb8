//! The `wasi:io` streams of a tree's files: [`TreeReader`] (`read-via-stream`) and
//! [`TreeWriter`] (`write-via-stream`, `append-via-stream`). They read and write the tree
//! live, so what one descriptor writes the next read sees, and a write over the quota fails
//! that write with the `quota` error code (the guest's `OSError: [Errno 73]`), not the run.

use super::tree::Ino;
use super::wasi::{SharedTree, lock};
use bytes::Bytes;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError, StreamResult};

/// Most bytes one write may carry (the guest splits larger ones).
const WRITE_PERMIT: usize = 1 << 20;

fn failed(code: ErrorCode) -> StreamError {
    StreamError::LastOperationFailed(wasmtime::Error::new(code))
}

/// Reads a file of a tree from an offset on.
pub struct TreeReader {
    tree: SharedTree,
    ino: Ino,
    at: u64,
}

impl TreeReader {
    /// A reader of `ino` from `at` (it holds the file open).
    pub fn new(tree: SharedTree, ino: Ino, at: u64) -> Result<Self, ErrorCode> {
        lock(&tree).hold(ino)?;
        Ok(TreeReader { tree, ino, at })
    }
}

impl Drop for TreeReader {
    fn drop(&mut self) {
        lock(&self.tree).release(self.ino);
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for TreeReader {
    async fn ready(&mut self) {}
}

impl InputStream for TreeReader {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let tree = lock(&self.tree);
        let bytes = tree.read(self.ino, self.at, size).map_err(failed)?;
        if bytes.is_empty() && size > 0 {
            return Err(StreamError::Closed);
        }
        self.at += bytes.len() as u64;
        Ok(Bytes::copy_from_slice(bytes))
    }
}

/// Writes a file of a tree at an offset (moving on) or at its end.
pub struct TreeWriter {
    tree: SharedTree,
    ino: Ino,
    /// Where the next write goes; `None` appends.
    at: Option<u64>,
}

impl TreeWriter {
    /// A writer of `ino` at `at` (`None`: appending); it holds the file open.
    pub fn new(tree: SharedTree, ino: Ino, at: Option<u64>) -> Result<Self, ErrorCode> {
        lock(&tree).hold(ino)?;
        Ok(TreeWriter { tree, ino, at })
    }
}

impl Drop for TreeWriter {
    fn drop(&mut self) {
        lock(&self.tree).release(self.ino);
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for TreeWriter {
    async fn ready(&mut self) {}
}

impl OutputStream for TreeWriter {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        let end = lock(&self.tree)
            .write(self.ino, self.at, &bytes)
            .map_err(failed)?;
        if self.at.is_some() {
            self.at = Some(end);
        }
        Ok(())
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(WRITE_PERMIT)
    }
}
