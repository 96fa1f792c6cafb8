//! Shared set-up for the benchmarks.

use geode_runtime::{Registry, Runtime};

/// The built-in plugins on a fresh runtime.
pub fn registry() -> Registry {
    Registry::with_builtins(Runtime::new().expect("runtime")).expect("built-in plugins")
}
