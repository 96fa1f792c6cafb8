//! [`ComponentEnv`]: an env running inside its own wasm component instance, under limits.
//!
//! Every call gets a fresh fuel budget and deadline. A call that traps, runs out of a budget or
//! breaks the contract discards the instance; the next `reset` builds a new one from the
//! plugin's pre-instantiated template (microseconds), so a bad episode never poisons the next.

use crate::bindings::env_world::EnvPlugin;
use crate::bindings::env_world::geode::env::types::{EnvError, StepResult};
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guard::{self, GuestCall, Live};
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::recipe::Recipe;
use crate::{Error, Result};
use std::sync::Arc;

/// An env provided by a component plugin.
pub struct ComponentEnv {
    recipe: Recipe,
    live: Option<Live<EnvPlugin>>,
    started: bool,
    /// The last info text that passed validation: most envs return the same info step after
    /// step, and comparing bytes costs far less than parsing JSON again.
    last_valid_info: String,
}

impl std::fmt::Debug for ComponentEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentEnv")
            .field("id", &self.recipe.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl ComponentEnv {
    /// Instantiates `id` of `plugin` with a merged configuration (see [`crate::Registry::make`]).
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let mut env = ComponentEnv {
            recipe: Recipe::new(plugin, id, config_json, limits),
            live: None,
            started: false,
            last_valid_info: String::new(),
        };
        env.live = Some(env.instantiate()?);
        Ok(env)
    }

    /// The limits this env runs under.
    pub fn limits(&self) -> &Limits {
        &self.recipe.limits
    }

    /// The plugin that provides this env.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.recipe.plugin
    }

    /// The configuration the guest was created with (a JSON object).
    pub fn config_json(&self) -> &str {
        &self.recipe.config_json
    }

    /// Whether an instance is live (false right after a trap, until the next `reset`).
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    fn instantiate(&mut self) -> Result<Live<EnvPlugin>> {
        self.recipe.build(
            "an env plugin",
            |plugin, store| match &plugin.template {
                Template::Env(pre) => Some(pre.instantiate(store)),
                _ => None,
            },
            |api, store, id, config| api.geode_env_env().call_create(store, id, config),
        )
    }

    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, EnvPlugin, R>) -> Result<R> {
        guard::call(
            &mut self.live,
            &self.recipe.id,
            &self.recipe.limits,
            name,
            f,
        )
        .map_err(|(error, _)| error)
    }

    fn contract(&mut self, call: &'static str, message: String) -> Error {
        self.live = None;
        Error::Contract {
            env: self.recipe.id.clone(),
            call,
            message,
        }
    }

    /// Discards the instance and fails when an output of `call` is over its limit.
    fn check_len(
        &mut self,
        call: &'static str,
        what: &str,
        len: usize,
        limit: usize,
    ) -> Result<()> {
        match self.recipe.oversize(call, what, len, limit) {
            Some(error) => {
                self.live = None;
                Err(error)
            }
            None => Ok(()),
        }
    }

    fn check_info(&mut self, call: &'static str, info: String) -> Result<Info> {
        if !info.is_empty() && info == self.last_valid_info {
            return Ok(Info::from_validated(info));
        }
        self.check_len(call, "info", info.len(), self.recipe.limits.max_info_bytes)?;
        let info = Info::from_json(info).map_err(|message| self.contract(call, message))?;
        self.last_valid_info.clear();
        self.last_valid_info.push_str(info.as_json());
        Ok(info)
    }
}

/// A guest's step result with its validated info, as the host's [`StepOutput`].
pub(crate) fn step_output(out: StepResult, info: Info) -> StepOutput {
    StepOutput {
        observation: out.observation,
        reward: out.reward,
        terminated: out.terminated,
        truncated: out.truncated,
        info,
    }
}

type EnvCall<R> = wasmtime::Result<std::result::Result<R, EnvError>>;

impl Env for ComponentEnv {
    fn id(&self) -> &str {
        &self.recipe.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        if self.live.is_none() {
            self.live = Some(self.instantiate()?);
        }
        if let (Some(seed), Some(live)) = (seed, self.live.as_mut()) {
            live.store.data_mut().reseed(seed);
        }
        let out = self.call("reset", &mut |store, api, h| -> EnvCall<_> {
            api.geode_env_env().instance().call_reset(store, h, seed)
        })?;
        self.check_len(
            "reset",
            "observation",
            out.observation.len(),
            self.recipe.limits.max_observation_bytes,
        )?;
        let info = self.check_info("reset", out.info)?;
        self.started = true;
        Ok(ResetOutput {
            observation: out.observation,
            info,
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        self.recipe.check_action(action)?;
        if !self.started {
            return Err(Error::InvalidState {
                env: self.recipe.id.clone(),
                message: "step called before reset".into(),
            });
        }
        let mut out = self.call("step", &mut |store, api, h| {
            api.geode_env_env().instance().call_step(store, h, action)
        })?;
        self.check_len(
            "step",
            "observation",
            out.observation.len(),
            self.recipe.limits.max_observation_bytes,
        )?;
        if !out.reward.is_finite() {
            return Err(self.contract(
                "step",
                format!("reward must be a finite number, got {}", out.reward),
            ));
        }
        let info = self.check_info("step", std::mem::take(&mut out.info))?;
        Ok(step_output(out, info))
    }

    fn sample_random_action(&mut self) -> Result<String> {
        let action = self.call("sample_random_action", &mut |store, api, h| {
            api.geode_env_env()
                .instance()
                .call_sample_random_action(store, h)
        })?;
        self.check_len(
            "sample_random_action",
            "action",
            action.len(),
            self.recipe.limits.max_action_bytes,
        )?;
        Ok(action)
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        let state = self.call("get_state", &mut |store, api, h| {
            api.geode_env_env().instance().call_get_state(store, h)
        })?;
        let limit = self.recipe.limits.max_state_bytes;
        self.check_len("get_state", "state", state.len(), limit)?;
        Ok(state)
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        if state.len() > self.recipe.limits.max_state_bytes {
            return Err(Error::InputTooLarge {
                env: self.recipe.id.clone(),
                what: "state",
                len: state.len(),
                limit: self.recipe.limits.max_state_bytes,
            });
        }
        if self.live.is_none() {
            self.live = Some(self.instantiate()?);
        }
        self.call("set_state", &mut |store, api, h| {
            api.geode_env_env()
                .instance()
                .call_set_state(store, h, state)
        })?;
        self.started = true;
        Ok(())
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let recipe = self.recipe.twin();
        let mut twin =
            ComponentEnv::new(recipe.plugin, &recipe.id, recipe.config_json, recipe.limits)?;
        if same_state && self.started {
            let state = self.get_state()?;
            twin.set_state(&state)?;
        }
        Ok(Box::new(twin))
    }
}
