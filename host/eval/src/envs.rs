//! The envs a run steps: made once per id and reused across episodes (a reset starts the next
//! one), every call run on a worker thread so the async threads only wait for the model.

use crate::seat::{Opponent, SeatEnv};
use geode_runtime::{Env, MakeOptions, PluginKind, Registry};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How to make one env id of a run.
#[derive(Debug, Clone)]
pub enum Recipe {
    /// A single-agent env with its options.
    Env(MakeOptions),
    /// A multi-agent env, played from `seat` against `opponent`.
    Seat {
        /// Config overrides and limits (wrappers do not apply).
        options: MakeOptions,
        /// The model's agent (`None`: the first).
        seat: Option<String>,
        /// The other agents' policy.
        opponent: Opponent,
    },
}

impl Recipe {
    /// The recipe of `id`: a seat when it is a multi-agent id.
    pub fn of(
        registry: &Registry,
        id: &str,
        options: MakeOptions,
        seat: Option<&str>,
        opponent: &Opponent,
    ) -> anyhow::Result<Recipe> {
        if registry.lookup(id)?.kind != PluginKind::MultiAgent {
            return Ok(Recipe::Env(options));
        }
        if !options.wrappers.is_empty() {
            anyhow::bail!("{id} is a multi-agent env: wrappers do not apply to it");
        }
        Ok(Recipe::Seat {
            options,
            seat: seat.map(str::to_owned),
            opponent: opponent.clone(),
        })
    }

    /// This recipe with `opponent` playing the other agents (a single-agent recipe unchanged).
    pub fn with_opponent(&self, opponent: Opponent) -> Recipe {
        match self {
            Recipe::Env(_) => self.clone(),
            Recipe::Seat { options, seat, .. } => Recipe::Seat {
                options: options.clone(),
                seat: seat.clone(),
                opponent,
            },
        }
    }

    /// Makes one env of `id` by this recipe.
    pub fn make(&self, registry: &Registry, id: &str) -> geode_runtime::Result<Box<dyn Env>> {
        match self {
            Recipe::Env(options) => registry.make(id, options.clone()),
            Recipe::Seat {
                options,
                seat,
                opponent,
            } => {
                let make = || registry.make_multiagent(id, &options.overrides, &options.limits);
                let inner = match opponent {
                    Opponent::Model(player) => player.guest_permits.hold(make)?,
                    _ => make()?,
                };
                Ok(Box::new(SeatEnv::new(
                    inner,
                    seat.as_deref(),
                    opponent.clone(),
                )?))
            }
        }
    }
}

/// Makes, lends and steps the run's envs.
pub struct EnvWorkers {
    registry: Arc<Registry>,
    recipes: HashMap<String, Recipe>,
    idle: Mutex<HashMap<String, Vec<Box<dyn Env>>>>,
    pool: rayon::ThreadPool,
}

/// An env lent to one episode; [`give_back`](Self::give_back) returns it for the next. An env
/// whose call failed is dropped instead (a fresh one is made for the next episode).
pub struct EnvLease {
    env: Option<Box<dyn Env>>,
    id: String,
    workers: Arc<EnvWorkers>,
}

type Job<T> = Box<dyn FnOnce(&mut dyn Env) -> geode_runtime::Result<T> + Send>;

impl EnvWorkers {
    /// Workers for the ids of `options` (each with its make options), on `threads` threads.
    pub fn new(
        registry: Arc<Registry>,
        recipes: HashMap<String, Recipe>,
        threads: usize,
    ) -> anyhow::Result<Arc<Self>> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("geode-eval-env-{i}"))
            .build()?;
        Ok(Arc::new(EnvWorkers {
            registry,
            recipes,
            idle: Mutex::new(HashMap::new()),
            pool,
        }))
    }

    /// Makes one env of `id` now (so a bad id or config stops the run before any request) and
    /// keeps it for the first episode.
    pub fn prepare(&self, id: &str) -> anyhow::Result<()> {
        let env = self
            .make(id)
            .map_err(|e| anyhow::anyhow!("making {id}: {e}"))?;
        self.idle_envs().entry(id.to_owned()).or_default().push(env);
        Ok(())
    }

    /// Leases an env of `id` and runs `call` on it on a worker thread.
    pub async fn call<T: Send + 'static>(
        self: &Arc<Self>,
        id: &str,
        call: impl FnOnce(&mut dyn Env) -> geode_runtime::Result<T> + Send + 'static,
    ) -> Result<(EnvLease, T), String> {
        let idle = self.idle_envs().get_mut(id).and_then(Vec::pop);
        let mut lease = EnvLease {
            env: idle,
            id: id.to_owned(),
            workers: Arc::clone(self),
        };
        let value = lease.call(call).await?;
        Ok((lease, value))
    }

    fn make(&self, id: &str) -> geode_runtime::Result<Box<dyn Env>> {
        match self.recipes.get(id) {
            Some(recipe) => recipe.make(&self.registry, id),
            None => self.registry.make(id, MakeOptions::default()),
        }
    }

    fn idle_envs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<Box<dyn Env>>>> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        id: String,
        env: Option<Box<dyn Env>>,
        job: Job<T>,
    ) -> (Option<Box<dyn Env>>, Result<T, String>) {
        let (done, result) = tokio::sync::oneshot::channel();
        let workers = Arc::clone(self);
        self.pool.spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut env = match env {
                    Some(env) => env,
                    None => workers.make(&id).map_err(|e| e.to_string())?,
                };
                match job(env.as_mut()) {
                    Ok(value) => Ok((env, value)),
                    Err(error) => Err(error.to_string()),
                }
            }));
            let _ = done.send(outcome);
        });
        match result.await {
            Ok(Ok(Ok((env, value)))) => (Some(env), Ok(value)),
            Ok(Ok(Err(message))) => (None, Err(message)),
            _ => (None, Err("the env call panicked on its worker".into())),
        }
    }
}

impl EnvLease {
    /// Runs `call` on the leased env on a worker thread; a failed call drops the env.
    pub async fn call<T: Send + 'static>(
        &mut self,
        call: impl FnOnce(&mut dyn Env) -> geode_runtime::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let workers = Arc::clone(&self.workers);
        let (env, result) = workers
            .run(self.id.clone(), self.env.take(), Box::new(call))
            .await;
        self.env = env;
        result
    }

    /// Returns the env for the next episode of its id.
    pub fn give_back(mut self) {
        if let Some(env) = self.env.take() {
            self.workers
                .idle_envs()
                .entry(self.id.clone())
                .or_default()
                .push(env);
        }
    }
}
