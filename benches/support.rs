//! Shared set-up for the benchmarks.

use geode_runtime::{Registry, Runtime};

/// Results are allocated on the threads that step the envs and freed wherever the caller drops
/// them; mimalloc handles that cross-thread traffic far better than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The built-in plugins on a fresh runtime.
pub fn registry() -> Registry {
    geode_builtins::registry(Runtime::new().expect("runtime")).expect("built-in plugins")
}

/// This process's resident set size, in KiB (0 where `/proc` is unavailable).
pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
