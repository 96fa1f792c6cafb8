//! The tokio runtime every MCP connection of the process runs on (two worker threads), and
//! [`block_on`], which waits for a task of it from any thread: a plain thread, a rayon worker,
//! or a task of another tokio runtime (where `Runtime::block_on` would panic).

use std::future::Future;
use std::sync::LazyLock;
use tokio::runtime::Runtime;

static RUNTIME: LazyLock<Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("geode-mcp")
        .enable_all()
        .build()
        .expect("the MCP runtime starts")
});

/// Runs `future` on the MCP runtime and waits for its output; `Err` if the task panicked.
pub fn block_on<T: Send + 'static>(
    future: impl Future<Output = T> + Send + 'static,
) -> Result<T, String> {
    let (sender, receiver) = std::sync::mpsc::sync_channel(1);
    drop(RUNTIME.spawn(async move {
        let _ = sender.send(future.await);
    }));
    receiver
        .recv()
        .map_err(|_| "the MCP client task panicked".to_owned())
}
