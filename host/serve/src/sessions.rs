//! Sessions: one isolated geode env each, a bounded count of them, and the worker threads
//! their calls run on (env calls are CPU work; they never run on the async threads).

use crate::config::ServeConfig;
use crate::metrics::{Call, Metrics};
use crate::shutdown::Shutdown;
use crate::tasks::Catalog;
use crate::tools::{SessionTools, Toolbox};
use crate::wire::{self, Code, Failure, ResetParams};
use geode_runtime::{Env, EnvLender, Registry};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// One env and its episode bookkeeping. Holds a capacity slot until dropped.
pub struct Session {
    /// Always `Some` until the session is dropped (then handed to a worker thread: giving a
    /// shared instance's env back waits for the call of another session in it).
    env: Option<Box<dyn Env>>,
    workers: Arc<rayon::ThreadPool>,
    episode_id: Option<String>,
    step_count: u64,
    /// The session's own instances of the MCP tools, made on its first tool call.
    pub tools: SessionTools,
    _slot: Slot,
}

/// A session shared between the request that runs a call and the table that names it.
pub type Shared = Arc<Mutex<Session>>;

impl Session {
    /// Starts an episode from OpenEnv's reset parameters: a seed, or a chosen task (a dataset
    /// env's row), and the episode id.
    pub fn reset(&mut self, params: ResetParams) -> Result<Value, Failure> {
        let ResetParams {
            seed,
            task,
            episode_id,
        } = params;
        let out = match task {
            Some(index) => crate::tasks::start(self.env(), index),
            None => self.env().reset(seed).map_err(|e| Failure::env(&e)),
        }?;
        self.episode_id = Some(episode_id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()));
        self.step_count = 0;
        Ok(wire::reset_result(&out))
    }

    /// Applies one action.
    pub fn step(&mut self, action: &str) -> Result<Value, Failure> {
        let out = self.env().step(action).map_err(|e| Failure::env(&e))?;
        self.step_count += 1;
        Ok(wire::step_result(&out))
    }

    /// OpenEnv's state of this session.
    pub fn state(&self) -> Value {
        let id = self.env.as_ref().map_or("", |env| env.id());
        wire::state(id, self.episode_id.as_deref(), self.step_count)
    }

    fn env(&mut self) -> &mut dyn Env {
        &mut **self
            .env
            .as_mut()
            .expect("a session has its env until dropped")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(env) = self.env.take() {
            self.workers.spawn(move || drop(env));
        }
    }
}

/// Locks a session; a call that panicked on a worker leaves it usable (the env reports its
/// own state on the next call).
pub fn lock(session: &Shared) -> MutexGuard<'_, Session> {
    lock_any(session)
}

/// Locks any of the server's mutexes, recovering one a panicking call left poisoned.
pub fn lock_any<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One unit of the session budget, returned when dropped.
pub struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A named HTTP episode (`episode_id`) and when it was last used.
struct Named {
    session: Shared,
    last_used: Instant,
}

/// Everything the routes share: the registry, the settings, the session budget, the worker
/// threads and the named HTTP episodes.
pub struct Sessions {
    registry: Arc<Registry>,
    lender: EnvLender,
    config: ServeConfig,
    active: Arc<AtomicUsize>,
    workers: Arc<rayon::ThreadPool>,
    named: Mutex<HashMap<String, Named>>,
    catalog: Catalog,
    toolbox: Toolbox,
    shutdown: Shutdown,
    metrics: Metrics,
}

impl Sessions {
    /// The shared state of a server for `config` over `registry`.
    pub fn new(registry: Arc<Registry>, config: ServeConfig) -> anyhow::Result<Self> {
        let workers = rayon::ThreadPoolBuilder::new()
            .num_threads(config.workers.max(1))
            .thread_name(|i| format!("geode-serve-{i}"))
            .build()?;
        let workers = Arc::new(workers);
        let lender = EnvLender::new(
            registry.clone(),
            &config.env_id,
            config.make_options(),
            config.envs_per_instance,
            config.workers.max(1),
        )?;
        Ok(Sessions {
            registry,
            lender,
            active: Arc::new(AtomicUsize::new(0)),
            workers,
            named: Mutex::new(HashMap::new()),
            catalog: Catalog::default(),
            toolbox: Toolbox::new(&config),
            shutdown: Shutdown::default(),
            metrics: Metrics::default(),
            config,
        })
    }

    /// The server's settings.
    pub fn config(&self) -> &ServeConfig {
        &self.config
    }

    /// The env the task API reads tasks from.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The MCP tools every session offers.
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The server's shutdown: begun on SIGTERM or SIGINT, watched by every WebSocket session.
    pub fn shutdown(&self) -> &Shutdown {
        &self.shutdown
    }

    /// The server's counters (`/metrics`).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// [`Sessions::run`] for an env call of kind `call`, counted with its latency.
    pub async fn call<T: Send + 'static>(
        &self,
        call: Call,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failure> {
        let started = Instant::now();
        let out = self.run(work).await;
        self.metrics.call(call, started.elapsed());
        out
    }

    /// Where sessions' envs come from (shared instances, see [`ServeConfig::envs_per_instance`]).
    pub fn lender(&self) -> &EnvLender {
        &self.lender
    }

    /// The registry sessions are made from.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Sessions held now, named HTTP episodes apart (those are dropped at shutdown).
    pub fn shutdown_pending(&self) -> usize {
        let named = lock_any(&self.named).len();
        self.active().saturating_sub(named)
    }

    /// Sessions held now.
    pub fn active(&self) -> usize {
        self.active.load(Ordering::Acquire)
    }

    /// Takes one unit of the session budget, or `CAPACITY_REACHED`.
    pub fn acquire(&self) -> Result<Slot, Failure> {
        let max = self.config.max_sessions;
        self.active
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .map(|_| Slot(self.active.clone()))
            .map_err(|active| {
                Failure::new(
                    Code::CapacityReached,
                    format!("server at capacity: {active} of {max} sessions in use"),
                )
                .with("active_sessions", active)
                .with("max_sessions", max)
            })
    }

    /// Runs `call` on a worker thread and waits for it without blocking the async threads.
    pub async fn run<T: Send + 'static>(
        &self,
        call: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failure> {
        let (done, result) = tokio::sync::oneshot::channel();
        self.workers.spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call));
            let _ = done.send(out);
        });
        match result.await {
            Ok(Ok(value)) => Ok(value),
            _ => Err(Failure::new(
                Code::SessionError,
                "internal error: the env call panicked on its worker",
            )),
        }
    }

    /// Takes a slot and makes a fresh env for a new session (on a worker thread).
    pub async fn open(self: &Arc<Self>) -> Result<Shared, Failure> {
        let slot = self.acquire()?;
        let this = self.clone();
        let env = self
            .call(Call::Make, move || this.lender.lend())
            .await?
            .map_err(|e| {
                Failure::new(Code::FactoryError, e.to_string())
                    .with("factory_name", self.config.env_id.clone())
                    .with("kind", wire::error_kind(&e))
            })?;
        self.metrics.session_opened();
        Ok(Arc::new(Mutex::new(Session {
            env: Some(env),
            workers: self.workers.clone(),
            episode_id: None,
            step_count: 0,
            tools: SessionTools::default(),
            _slot: slot,
        })))
    }

    /// Keeps `session` under `episode_id` for later HTTP calls (replacing an older one).
    pub fn name(&self, episode_id: &str, session: Shared) {
        let named = Named {
            session,
            last_used: Instant::now(),
        };
        self.table().insert(episode_id.to_owned(), named);
    }

    /// The HTTP episode named `episode_id`, marked as used now.
    pub fn named(&self, episode_id: &str) -> Result<Shared, Failure> {
        let mut table = self.table();
        let named = table.get_mut(episode_id).ok_or_else(|| {
            Failure::new(
                Code::SessionError,
                format!("no episode `{episode_id}` on this server (never reset, or idle too long)"),
            )
        })?;
        named.last_used = Instant::now();
        Ok(named.session.clone())
    }

    /// Drops the named session `id`; whether there was one. A WebSocket attached to it keeps
    /// its env until it closes.
    pub fn forget(&self, id: &str) -> bool {
        self.table().remove(id).is_some()
    }

    /// Drops the named HTTP episodes idle for longer than the timeout; how many.
    pub fn reap_idle(&self) -> usize {
        let timeout = self.config.idle_timeout;
        let mut table = self.table();
        let before = table.len();
        table.retain(|_, named| named.last_used.elapsed() < timeout);
        before - table.len()
    }

    fn table(&self) -> MutexGuard<'_, HashMap<String, Named>> {
        lock_any(&self.named)
    }
}
