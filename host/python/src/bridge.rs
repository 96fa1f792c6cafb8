//! How `await vec.step_async(...)` reaches asyncio without any extra thread or the GIL on the
//! hot path. Each step is the pool's own future (`AsyncPool::step_one`), polled once when it is
//! started and then parked in a [`Steps`] table. Its waker, called by the pool's worker thread
//! when the result is ready, posts the step's token to a [`Mailbox`] and writes one byte to a
//! socket the event loop watches (`loop.add_reader`); the loop then polls the woken steps, which
//! are ready, and resolves their asyncio futures.

use std::collections::HashMap;
use std::future::Future;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

/// Tokens of woken steps waiting for the event loop, and the socket pair that wakes it.
pub struct Mailbox {
    tokens: Mutex<Vec<u64>>,
    /// A wake-up byte is in the socket and not yet drained.
    signaled: AtomicBool,
    reader: UnixStream,
    writer: UnixStream,
}

impl Mailbox {
    /// An empty mailbox with a non-blocking socket pair.
    pub fn new() -> std::io::Result<Self> {
        let (reader, writer) = UnixStream::pair()?;
        reader.set_nonblocking(true)?;
        writer.set_nonblocking(true)?;
        Ok(Mailbox {
            tokens: Mutex::new(Vec::new()),
            signaled: AtomicBool::new(false),
            reader,
            writer,
        })
    }

    /// The file descriptor that becomes readable when tokens arrive.
    pub fn fd(&self) -> i32 {
        self.reader.as_raw_fd()
    }

    /// Queues `token` and wakes the reader unless a wake-up is already pending.
    pub fn post(&self, token: u64) {
        self.tokens
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(token);
        if !self.signaled.swap(true, Ordering::SeqCst) {
            // A full socket buffer means a wake-up is pending anyway.
            let _ = (&self.writer).write(&[1]);
        }
    }

    /// Every token posted so far. Order matters: consume the wake-up bytes, then clear the flag,
    /// then take the tokens; a post that finds the flag still set is taken by this drain, and
    /// one that finds it cleared writes a new byte.
    pub fn drain(&self) -> Vec<u64> {
        let mut sink = [0u8; 256];
        loop {
            match (&self.reader).read(&mut sink) {
                Ok(n) if n == sink.len() => continue,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                _ => break,
            }
        }
        self.signaled.store(false, Ordering::SeqCst);
        std::mem::take(&mut *self.tokens.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Wakes the event loop for one step.
struct TokenWaker {
    token: u64,
    mailbox: Arc<Mailbox>,
}

impl Wake for TokenWaker {
    fn wake(self: Arc<Self>) {
        self.mailbox.post(self.token);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.mailbox.post(self.token);
    }
}

type StepFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A started step: still running, or finished and not yet collected.
enum Entry<T> {
    Running(StepFuture<T>),
    Done(T),
}

/// The steps started by `step_async`, by token.
pub struct Steps<T> {
    entries: Mutex<HashMap<u64, Entry<T>>>,
    mailbox: Arc<Mailbox>,
}

impl<T> Steps<T> {
    /// An empty table with its own mailbox.
    pub fn new() -> std::io::Result<Self> {
        Ok(Steps {
            entries: Mutex::new(HashMap::new()),
            mailbox: Arc::new(Mailbox::new()?),
        })
    }

    /// The file descriptor the event loop watches.
    pub fn fd(&self) -> i32 {
        self.mailbox.fd()
    }

    fn poll(&self, token: u64, future: &mut StepFuture<T>) -> Poll<T> {
        let waker = Waker::from(Arc::new(TokenWaker {
            token,
            mailbox: self.mailbox.clone(),
        }));
        future.as_mut().poll(&mut Context::from_waker(&waker))
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry<T>>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts `future` under `token` (its first poll sends the job to the pool).
    pub fn start(&self, token: u64, future: impl Future<Output = T> + Send + 'static) {
        let mut future: StepFuture<T> = Box::pin(future);
        let entry = match self.poll(token, &mut future) {
            Poll::Ready(value) => {
                self.mailbox.post(token);
                Entry::Done(value)
            }
            Poll::Pending => Entry::Running(future),
        };
        self.entries().insert(token, entry);
    }

    /// The results of every woken step that has finished, with their tokens.
    pub fn collect(&self) -> Vec<(u64, T)> {
        let mut out = Vec::new();
        for token in self.mailbox.drain() {
            let Some(entry) = self.entries().remove(&token) else {
                continue; // a stale wake-up of a step already collected
            };
            match entry {
                Entry::Done(value) => out.push((token, value)),
                Entry::Running(mut future) => match self.poll(token, &mut future) {
                    Poll::Ready(value) => out.push((token, value)),
                    Poll::Pending => {
                        self.entries().insert(token, Entry::Running(future));
                    }
                },
            }
        }
        out
    }
}
