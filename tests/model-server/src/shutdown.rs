//! When to stop: stdin closing, SIGTERM or SIGINT.

use std::future::Future;
use std::io::Read;
use tokio::sync::oneshot;

/// A future that completes on SIGTERM, SIGINT, or (when `on_stdin_eof`) the end of stdin.
pub fn signal(on_stdin_eof: bool) -> anyhow::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let stdin = on_stdin_eof.then(stdin_eof);
    Ok(async move {
        let stdin = async {
            match stdin {
                Some(rx) => {
                    let _ = rx.await;
                }
                None => std::future::pending().await,
            }
        };
        #[cfg(unix)]
        let term = term.recv();
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = stdin => {}
            _ = term => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    })
}

/// Completes when stdin reaches its end (or fails). A plain thread reads it: a read cannot be
/// cancelled, and the process exits without waiting for that thread.
fn stdin_eof() -> oneshot::Receiver<()> {
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        let mut stdin = std::io::stdin().lock();
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(());
    });
    rx
}
