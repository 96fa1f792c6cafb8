//! A small executor thread that drives the pool's async API (`AsyncPool::step_one`) for Python:
//! each awaited step is a task here, and its result is handed to a Python callback (which
//! resolves an asyncio future with `loop.call_soon_threadsafe`).

use std::future::Future;
use std::sync::OnceLock;
use tokio::runtime::{Builder, Handle};

static BRIDGE: OnceLock<Handle> = OnceLock::new();

fn handle() -> &'static Handle {
    BRIDGE.get_or_init(|| {
        let runtime = Builder::new_current_thread()
            .build()
            .expect("a current-thread tokio runtime needs no resources that can fail");
        let handle = runtime.handle().clone();
        std::thread::Builder::new()
            .name("geode-async-bridge".into())
            .spawn(move || runtime.block_on(std::future::pending::<()>()))
            .expect("cannot start the geode async bridge thread");
        handle
    })
}

/// Runs `task` on the bridge thread.
pub fn spawn(task: impl Future<Output = ()> + Send + 'static) {
    handle().spawn(task);
}
