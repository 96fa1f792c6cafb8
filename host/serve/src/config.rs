//! What `geode serve` is asked to serve, and its limits.

use geode_runtime::{Limits, MakeOptions, WrapperSpec};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;

/// Sessions to a shared instance unless told otherwise: large enough that an idle session's
/// share of its instance is a few KiB, small enough that recovering from one session's fault
/// (the others' episodes are replayed into a fresh instance) stays short.
pub const DEFAULT_ENVS_PER_INSTANCE: usize = 64;

/// The settings of one server: the env every session makes, where to listen, and the limits.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The env id each session makes (`game:GuessTheNumber-v0`).
    pub env_id: String,
    /// Configuration overrides of that env (a JSON object, or null for none).
    pub overrides: Value,
    /// Wrapper layers around each session's env, in order (GEM's names: `python_tool`...). The
    /// tools of its tool layers are also served as MCP tools on `/mcp`.
    pub wrappers: Vec<WrapperSpec>,
    /// Where to listen; loopback by default. Port 0 picks a free port.
    pub addr: SocketAddr,
    /// Sessions (WebSocket connections, named HTTP episodes, one-shot HTTP calls) held at once;
    /// one more is refused with `CAPACITY_REACHED`.
    pub max_sessions: usize,
    /// A session with no message for this long is closed and its env freed.
    pub idle_timeout: Duration,
    /// When set, every route but `/health` wants `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// A request's headers must arrive within this long of its first byte, and its body within
    /// as long again (a slow client is closed); a kept-alive HTTP connection idle for this
    /// long is closed.
    pub header_timeout: Duration,
    /// The largest request body or WebSocket message accepted, in bytes.
    pub max_request_bytes: usize,
    /// Threads that run env calls (default: one per core).
    pub workers: usize,
    /// Sessions whose envs share one component instance, as a vector env's slots do (1: an
    /// instance per session). Each session's calls still run alone under its own limits, and a
    /// fault reaches only the session that caused it. Envs that cannot share (native envs,
    /// plugins without the `batch` export) get an instance per session anyway.
    pub envs_per_instance: usize,
    /// Fuel, memory and deadline limits of every env call.
    pub limits: Limits,
    /// On SIGTERM or SIGINT, how long calls in flight and closing sessions may take before the
    /// server exits anyway.
    pub grace_period: Duration,
}

impl ServeConfig {
    /// What every session is made with: the overrides, the wrappers and the limits.
    pub fn make_options(&self) -> MakeOptions {
        MakeOptions::overrides(self.overrides.clone())
            .with_wrappers(self.wrappers.clone())
            .with_limits(self.limits.clone())
    }

    /// Serves `env_id` with the defaults: 127.0.0.1:8000, 1,024 sessions, 5 minutes idle
    /// timeout, 10 s for request headers, no token, 2 MiB requests, one worker per core,
    /// [`DEFAULT_ENVS_PER_INSTANCE`] sessions to an instance, the default limits, 10 s grace
    /// period.
    pub fn new(env_id: &str) -> Self {
        ServeConfig {
            env_id: env_id.to_owned(),
            overrides: Value::Null,
            wrappers: Vec::new(),
            addr: SocketAddr::from(([127, 0, 0, 1], 8000)),
            max_sessions: 1024,
            idle_timeout: Duration::from_secs(300),
            token: None,
            header_timeout: Duration::from_secs(10),
            max_request_bytes: 2 << 20,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            envs_per_instance: DEFAULT_ENVS_PER_INSTANCE,
            limits: Limits::default(),
            grace_period: Duration::from_secs(10),
        }
    }
}
