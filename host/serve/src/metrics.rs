//! `GET /metrics`: the server's counters in Prometheus' text format (OpenMetrics): sessions
//! held and opened, the shared instances their envs live in, env calls by kind with their latency, and failures by OpenEnv code.

use crate::sessions::Sessions;
use crate::wire::Code;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::Duration;

/// The env call a metric is about.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Call {
    /// Making a session's env.
    Make,
    /// A reset.
    Reset,
    /// A step.
    Step,
    /// Reading state.
    State,
}

impl Call {
    fn as_str(self) -> &'static str {
        match self {
            Call::Make => "make",
            Call::Reset => "reset",
            Call::Step => "step",
            Call::State => "state",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabel {
    call: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabel {
    code: &'static str,
}

/// The server's metrics (cheap to update from any thread).
pub struct Metrics {
    registry: Registry,
    sessions: Gauge,
    instances: Gauge,
    sessions_opened: Counter,
    calls: Family<CallLabel, Counter>,
    call_seconds: Family<CallLabel, Histogram>,
    failures: Family<CodeLabel, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("geode_serve");
        let sessions = Gauge::default();
        let instances = Gauge::default();
        let sessions_opened = Counter::default();
        let calls = Family::<CallLabel, Counter>::default();
        // 50 µs to ~13 s, doubling.
        let call_seconds = Family::<CallLabel, Histogram>::new_with_constructor(
            (|| Histogram::new(exponential_buckets(5e-5, 2.0, 19))) as fn() -> Histogram,
        );
        let failures = Family::<CodeLabel, Counter>::default();
        registry.register("sessions", "Sessions held now", sessions.clone());
        registry.register(
            "instances",
            "Component instances that sessions' envs share now (envs that cannot share are not counted)",
            instances.clone(),
        );
        registry.register(
            "sessions_opened",
            "Sessions opened (WebSocket, named and one-shot HTTP)",
            sessions_opened.clone(),
        );
        registry.register("calls", "Env calls by kind", calls.clone());
        registry.register(
            "call_seconds",
            "Env call latency by kind, on a worker thread, in seconds",
            call_seconds.clone(),
        );
        registry.register(
            "failures",
            "Failures reported to clients, by OpenEnv code",
            failures.clone(),
        );
        Metrics {
            registry,
            sessions,
            instances,
            sessions_opened,
            calls,
            call_seconds,
            failures,
        }
    }
}

impl Metrics {
    /// Counts a session opened.
    pub fn session_opened(&self) {
        self.sessions_opened.inc();
    }

    /// Counts an env call of kind `call` that took `took`.
    pub fn call(&self, call: Call, took: Duration) {
        let label = CallLabel {
            call: call.as_str(),
        };
        self.calls.get_or_create(&label).inc();
        self.call_seconds
            .get_or_create(&label)
            .observe(took.as_secs_f64());
    }

    /// Counts a failure reported with `code`.
    pub fn failure(&self, code: Code) {
        let label = CodeLabel {
            code: code.as_str(),
        };
        self.failures.get_or_create(&label).inc();
    }

    /// The text exposition, with the gauges set to `sessions` and `instances`.
    fn render(&self, sessions: usize, instances: usize) -> String {
        self.sessions
            .set(i64::try_from(sessions).unwrap_or(i64::MAX));
        self.instances
            .set(i64::try_from(instances).unwrap_or(i64::MAX));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        text
    }
}

/// `GET /metrics`.
pub async fn route(State(server): State<Arc<Sessions>>) -> Response {
    let text = server
        .metrics()
        .render(server.active(), server.lender().instances());
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
