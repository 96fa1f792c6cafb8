//! Graceful shutdown: on SIGTERM or SIGINT the server stops accepting connections, lets the
//! requests and env calls in flight finish, closes every WebSocket session with 1001 ("going
//! away") and a reason, and returns; what is still running after the grace period is dropped.

use std::future::Future;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TrackedFuture;

/// The close reason WebSocket sessions get when the server stops.
pub const CLOSE_REASON: &str = "server shutting down";

/// What a stopping server tells its sessions, and how it waits for them.
#[derive(Debug, Default)]
pub struct Shutdown {
    token: CancellationToken,
    sessions: TaskTracker,
}

impl Shutdown {
    /// Starts the shutdown: sessions close once their current call is done.
    pub fn begin(&self) {
        self.token.cancel();
    }

    /// True once the shutdown began.
    pub fn begun(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Resolves when the shutdown begins.
    pub fn begins(&self) -> impl Future<Output = ()> + Send + 'static {
        self.token.clone().cancelled_owned()
    }

    /// `session`, counted until it ends, so [`Shutdown::drain`] can wait for it.
    pub fn track<F: Future>(&self, session: F) -> TrackedFuture<F> {
        self.sessions.track_future(session)
    }

    /// Waits until every tracked session ended (the caller bounds it with the grace period).
    pub async fn drain(&self) {
        self.sessions.close();
        self.sessions.wait().await;
    }
}

/// Installs the SIGTERM and SIGINT handlers now (from inside a tokio runtime) and returns a
/// future that resolves on the first of them, with the signal's name.
pub fn signal() -> impl Future<Output = &'static str> + Send + 'static {
    use tokio::signal::unix::{SignalKind, signal};
    let handlers = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    );
    async move {
        let (Ok(mut term), Ok(mut int)) = handlers else {
            // No signal handling: never resolve (the process ends as it would without it).
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        }
    }
}
