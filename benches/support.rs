//! Shared set-up for the benchmarks.

use geode_runtime::{Registry, Runtime};

/// The built-in plugins on a fresh runtime.
pub fn registry() -> Registry {
    Registry::with_builtins(Runtime::new().expect("runtime")).expect("built-in plugins")
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
