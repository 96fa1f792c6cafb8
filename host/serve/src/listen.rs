//! The accept loop: each connection is served by hyper (HTTP/1.1, WebSocket upgrades) with a
//! deadline on request headers, counted from when the server starts waiting for a request, so
//! a client that opens a connection and says nothing, or sends its headers a byte at a time
//! (slowloris), or keeps a connection alive without using it, is closed when it runs out. When
//! the server stops, the listener closes and the requests in flight finish.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The kernel send buffer asked for each connection (Linux doubles it): replies a client has
/// not read wait there, so a client that stops reading stalls its own session after this much
/// instead of the several MiB the kernel's autotuning would grow to; its session then waits for
/// it up to the idle timeout, reading nothing more from it.
const SEND_BUFFER_BYTES: usize = 64 << 10;

/// How long accepting waits after an error (out of file descriptors, say) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `stop` resolves, then closes the listener and waits for
/// the requests in flight (upgraded WebSocket connections are the sessions' own to close).
pub async fn run(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            biased;
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        // Replies are small and awaited one by one: do not hold them back for more.
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER_BYTES);
        let service = TowerToHyperService::new(app.clone());
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let closing = closing.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                () = closing.cancelled() => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
    }
    drop(listener);
    closing.cancel();
    connections.close();
    connections.wait().await;
}
