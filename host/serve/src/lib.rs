//! `geode serve`: one env id behind OpenEnv's HTTP and WebSocket protocol (as `openenv-core`
//! 0.3 and `openenv` 0.10 speak it), so OpenEnv's clients (TRL, NeMo Gym, SkyRL, verifiers,
//! `GenericEnvClient`, `MCPToolClient`) play geode envs remotely. Every session is an isolated geode env under its limits; env calls run on a pool of
//! worker threads (one per core) while tokio serves the connections.
//!
//! Routes: `POST /reset`, `POST /step`, `GET /state`, `GET /health`, `GET /schema`,
//! `GET /metadata`, `GET /metrics` (Prometheus), `GET /ws`; MCP's `POST /mcp` and `GET /mcp` (WebSocket) for the tools of the
//! env's tool wrappers; the task API of dataset envs (`/list_environments`, `/{env}/splits`,
//! `/{env}/tasks`, `/{env}/num_tasks`, `/{env}/task`, `/{env}/task_range`). The wire format is
//! in [`wire`].

#![deny(missing_docs)]

mod auth;
mod body;
mod config;
mod http;
mod listen;
mod mcp;
mod metrics;
mod sessions;
mod shutdown;
mod tasks;
mod tools;
pub mod wire;
mod ws;

pub use config::{DEFAULT_ENVS_PER_INSTANCE, ServeConfig};
pub use sessions::{Session, Sessions, Shared};
pub use shutdown::Shutdown;
pub use ws::reply as ws_reply;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use geode_runtime::Registry;
use std::net::SocketAddr;
use std::sync::Arc;
use tower_http::limit::RequestBodyLimitLayer;

/// The routes of a server over `sessions`, with the token check and the body size limit.
pub fn router(sessions: Arc<Sessions>) -> Router {
    let limit = sessions.config().max_request_bytes;
    Router::new()
        .route("/reset", post(http::reset))
        .route("/step", post(http::step))
        .route("/state", get(http::state))
        .route("/schema", get(http::schema))
        .route("/metadata", get(http::metadata))
        .route("/metrics", get(metrics::route))
        .route("/ws", get(ws::upgrade))
        .route("/mcp", post(mcp::http).get(mcp::upgrade))
        .route("/list_environments", get(tasks::list_environments))
        .route("/{env}/splits", get(tasks::splits))
        .route("/{env}/tasks", post(tasks::tasks))
        .route("/{env}/num_tasks", post(tasks::num_tasks))
        .route("/{env}/task", post(tasks::task))
        .route("/{env}/task_range", post(tasks::task_range))
        // Bodies are read once the token has been checked (the body limit layer caps them).
        .route_layer(axum::middleware::from_fn_with_state(
            sessions.clone(),
            body::read_within_deadline,
        ))
        .route_layer(axum::middleware::from_fn_with_state(
            sessions.clone(),
            auth::check,
        ))
        .route("/health", get(http::health))
        .layer(DefaultBodyLimit::disable())
        .layer(RequestBodyLimitLayer::new(limit))
        .layer(axum::middleware::map_response(close_after_refused_body))
        .layer(axum::middleware::from_fn_with_state(
            sessions.clone(),
            count_failures,
        ))
        .with_state(sessions)
}

/// Counts the failures HTTP routes answer with, by the OpenEnv code their response carries.
async fn count_failures(
    axum::extract::State(sessions): axum::extract::State<Arc<Sessions>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let response = next.run(request).await;
    if let Some(code) = response.extensions().get::<wire::Code>() {
        sessions.metrics().failure(*code);
    }
    response
}

/// Marks a 413 reply `Connection: close`. A body refused for its size may be left unread on the
/// socket, so the connection cannot carry another request; saying so keeps clients from reusing
/// it and finding it closed under their next request.
async fn close_after_refused_body(
    mut response: axum::response::Response,
) -> axum::response::Response {
    if response.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        response.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
    }
    response
}

/// Serves `config.env_id` from `registry` until SIGTERM or SIGINT, then shuts down gracefully
/// (see [`Shutdown`]) and returns. Checks the id first (an unknown id fails here, not at the
/// first session), binds, then calls `ready` with the bound address (port 0 becomes the port
/// picked).
pub fn serve(
    registry: Registry,
    config: ServeConfig,
    ready: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    registry.make(&config.env_id, config.make_options())?;
    // Every session holds a connection's file descriptor: take all the system allows (the
    // soft limit is often 1,024).
    if let Ok(limit) = rlimit::increase_nofile_limit(u64::MAX)
        && limit < config.max_sessions as u64 + 64
    {
        eprintln!(
            "geode serve: the open-file limit is {limit}, under --max-sessions {}: raise it (ulimit -n)",
            config.max_sessions
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("geode-serve-io")
        .build()?;
    let outcome = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let grace = config.grace_period;
        let sessions = Arc::new(Sessions::new(Arc::new(registry), config)?);
        // Signals are watched before the address is announced: a SIGTERM sent as soon as the
        // server says it listens already shuts it down gracefully.
        let signal = tokio::spawn(shutdown::signal());
        ready(listener.local_addr()?);
        tokio::spawn(reap(sessions.clone()));
        let mut server = tokio::spawn(listen::run(
            listener,
            router(sessions.clone()),
            sessions.config().header_timeout,
            sessions.shutdown().begins(),
        ));
        let name = tokio::select! {
            ended = &mut server => {
                ended?;
                return Ok(());
            }
            name = signal => name.unwrap_or("a signal"),
        };
        eprintln!(
            "geode serve: {name}: no new connections; {} sessions finish their calls and close (grace period {} s)",
            sessions.shutdown_pending(),
            grace.as_secs_f64()
        );
        sessions.shutdown().begin();
        let drained = async {
            let _ = (&mut server).await;
            sessions.shutdown().drain().await;
        };
        match tokio::time::timeout(grace, drained).await {
            Ok(()) => eprintln!("geode serve: stopped"),
            Err(_) => eprintln!(
                "geode serve: stopped at the end of the {} s grace period with {} sessions still in a call",
                grace.as_secs_f64(),
                sessions.shutdown_pending()
            ),
        }
        Ok(())
    });
    // Env calls still running on worker threads after the grace period end with the process.
    runtime.shutdown_background();
    outcome
}

/// Drops idle named HTTP episodes, checking four times per timeout.
async fn reap(sessions: Arc<Sessions>) {
    let period = (sessions.config().idle_timeout / 4).max(std::time::Duration::from_millis(100));
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        sessions.reap_idle();
    }
}
