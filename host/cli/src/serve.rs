//! `geode serve`: one env id behind OpenEnv's HTTP and WebSocket protocol (`geode-serve`).

use anyhow::Result;
use clap::Args;
use geode_runtime::{EngineSettings, Registry, WrapperSpec};
use geode_serve::ServeConfig;
use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

/// Arguments of `geode serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The env id every session makes.
    id: String,
    /// Configuration overrides, a JSON object.
    #[arg(long)]
    config: Option<String>,
    /// Wrappers by GEM's names, comma-separated, in order (e.g. python_tool); the tools of tool
    /// wrappers are also offered on /mcp.
    #[arg(long, value_delimiter = ',')]
    wrappers: Vec<String>,
    /// Address to bind (loopback by default; 0.0.0.0 exposes the server to the network).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port to listen on (0 picks a free one; the line printed at start names it).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Sessions held at once; one more gets CAPACITY_REACHED.
    #[arg(long, default_value_t = 1024)]
    max_sessions: usize,
    /// Seconds a session may stay without a message before it is closed.
    #[arg(long, default_value_t = 300.0)]
    idle_timeout: f64,
    /// Seconds a request's headers may take to arrive, and its body after them (a slow client
    /// is closed); also how long a kept-alive HTTP connection may stay idle.
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// Largest request body or WebSocket message, in bytes.
    #[arg(long, default_value_t = 2 << 20)]
    max_request_bytes: usize,
    /// Threads running env calls (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Sessions whose envs share one component instance, each still called alone under its own
    /// limits, a fault reaching only its own session (1: an instance per session).
    #[arg(long, default_value_t = geode_serve::DEFAULT_ENVS_PER_INSTANCE)]
    envs_per_instance: usize,
    /// Fuel per env call (deterministic CPU budget; default 1e9).
    #[arg(long)]
    fuel: Option<u64>,
    /// Seconds of wall time per env call (default 2).
    #[arg(long)]
    deadline: Option<f64>,
    /// Seconds that calls in flight and closing sessions get after SIGTERM or SIGINT before
    /// the server exits anyway.
    #[arg(long, default_value_t = 10.0)]
    grace_period: f64,
    /// Require `Authorization: Bearer <TOKEN>` on every route but /health (also read from
    /// GEODE_SERVE_TOKEN).
    #[arg(long, env = "GEODE_SERVE_TOKEN", hide_env_values = true)]
    token: Option<String>,
}

/// Live instances the engine's pool holds beyond one per session: the one-shot HTTP calls' and
/// tools' own, and the check of the id at start.
const POOL_HEADROOM: u32 = 256;

/// The engine for `args`: an instance pool with a slot per session and headroom (at least the
/// default pool).
pub fn engine_settings(args: &ServeArgs) -> EngineSettings {
    let default = EngineSettings::default();
    let wanted = u32::try_from(args.max_sessions)
        .unwrap_or(u32::MAX)
        .saturating_add(POOL_HEADROOM);
    EngineSettings {
        max_instances: default.max_instances.max(wanted),
        ..default
    }
}

/// Serves until SIGTERM or SIGINT (then shuts down gracefully and returns); prints `geode serve: listening on http://ADDR` once bound.
pub fn serve(registry: Registry, args: &ServeArgs) -> Result<()> {
    let mut config = ServeConfig::new(&args.id);
    config.overrides = crate::parse_overrides(args.config.as_deref())?;
    config.wrappers = args
        .wrappers
        .iter()
        .map(|name| WrapperSpec::from_name(name, serde_json::Value::Null))
        .collect::<Result<_, _>>()?;
    config.addr = (args.host, args.port).into();
    config.max_sessions = args.max_sessions.max(1);
    anyhow::ensure!(
        args.idle_timeout.is_finite() && args.idle_timeout > 0.0,
        "--idle-timeout must be a positive number of seconds"
    );
    config.idle_timeout = Duration::from_secs_f64(args.idle_timeout);
    config.max_request_bytes = args.max_request_bytes;
    anyhow::ensure!(
        args.header_timeout.is_finite() && args.header_timeout > 0.0,
        "--header-timeout must be a positive number of seconds"
    );
    config.header_timeout = Duration::from_secs_f64(args.header_timeout);
    anyhow::ensure!(
        args.grace_period.is_finite() && args.grace_period >= 0.0,
        "--grace-period must be a number of seconds, 0 or more"
    );
    config.grace_period = Duration::from_secs_f64(args.grace_period);
    if let Some(fuel) = args.fuel {
        config.limits.fuel_per_call = Some(fuel);
    }
    if let Some(deadline) = args.deadline {
        anyhow::ensure!(
            deadline.is_finite() && deadline > 0.0,
            "--deadline must be a positive number of seconds"
        );
        config.limits.deadline_per_call = Some(Duration::from_secs_f64(deadline));
    }
    if let Some(workers) = args.workers {
        config.workers = workers.max(1);
    }
    anyhow::ensure!(
        args.envs_per_instance >= 1,
        "--envs-per-instance must be 1 or more"
    );
    config.envs_per_instance = args.envs_per_instance;
    config.token = args.token.clone().filter(|token| !token.is_empty());
    let id = args.id.clone();
    geode_serve::serve(registry, config, move |addr| {
        println!("geode serve: {id} listening on http://{addr}");
        let _ = std::io::stdout().flush();
    })
}
