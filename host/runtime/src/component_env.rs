//! [`ComponentEnv`]: an env running inside its own wasm component instance, under limits.
//!
//! Every call gets a fresh fuel budget and deadline. A call that traps, runs out of a budget or
//! breaks the contract discards the instance; the next `reset` builds a new one from the
//! plugin's pre-instantiated template (microseconds), so a bad episode never poisons the next.

use crate::bindings::env_world::EnvPlugin;
use crate::bindings::env_world::geode::env::types::EnvError;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guard::{self, GuestCall, Live};
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;

/// An env provided by a component plugin.
pub struct ComponentEnv {
    plugin: Arc<Plugin>,
    id: String,
    config_json: String,
    limits: Limits,
    live: Option<Live<EnvPlugin>>,
    entropy: u64,
    started: bool,
    /// The last info text that passed validation: most envs return the same info step after
    /// step, and comparing bytes costs far less than parsing JSON again.
    last_valid_info: String,
}

impl std::fmt::Debug for ComponentEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentEnv")
            .field("id", &self.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

/// A per-instance entropy stream (an LCG step plus a xorshift), seeded from the OS once.
pub(crate) fn next_entropy(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state ^ (*state >> 29)
}

/// A fresh entropy seed from the OS.
pub(crate) fn os_entropy() -> u64 {
    getrandom::u64().unwrap_or(0x2545_f491_4f6c_dd1d)
}

impl ComponentEnv {
    /// Instantiates `id` of `plugin` with a merged configuration (see [`crate::Registry::make`]).
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let mut env = ComponentEnv {
            plugin,
            id: id.to_owned(),
            config_json,
            limits,
            live: None,
            entropy: os_entropy(),
            started: false,
            last_valid_info: String::new(),
        };
        env.live = Some(env.instantiate()?);
        Ok(env)
    }

    /// The limits this env runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The plugin that provides this env.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.plugin
    }

    /// The configuration the guest was created with (a JSON object).
    pub fn config_json(&self) -> &str {
        &self.config_json
    }

    /// Whether an instance is live (false right after a trap, until the next `reset`).
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    fn instantiate(&mut self) -> Result<Live<EnvPlugin>> {
        let entropy = next_entropy(&mut self.entropy);
        let mut store = self.plugin.new_store(&self.id, &self.limits, entropy);
        let Template::Env(pre) = &self.plugin.template else {
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by an env plugin",
                self.id
            )));
        };
        let api = pre
            .instantiate(&mut store)
            .map_err(|e| self.classify(&store, "instantiate", e))?;
        self.limits.arm(&mut store);
        let handle = match api
            .geode_env_env()
            .call_create(&mut store, &self.id, &self.config_json)
        {
            Ok(Ok(handle)) => handle,
            Ok(Err(refusal)) => return Err(guard::refused(&self.id, "create", refusal)),
            Err(e) => return Err(self.classify(&store, "create", e)),
        };
        Ok(Live { store, api, handle })
    }

    fn classify(
        &self,
        store: &Store<GuestState>,
        call: &'static str,
        error: wasmtime::Error,
    ) -> Error {
        guard::classify(&self.id, &self.limits, store.data(), call, error)
    }

    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, EnvPlugin, R>) -> Result<R> {
        guard::call(&mut self.live, &self.id, &self.limits, name, f).map_err(|(error, _)| error)
    }

    fn contract(&mut self, call: &'static str, message: String) -> Error {
        self.live = None;
        Error::Contract {
            env: self.id.clone(),
            call,
            message,
        }
    }

    fn check_text(
        &mut self,
        call: &'static str,
        what: &str,
        text: &str,
        limit: usize,
    ) -> Result<()> {
        if text.len() > limit {
            return Err(self.contract(
                call,
                format!("{what} is {} bytes, over the limit of {limit}", text.len()),
            ));
        }
        Ok(())
    }

    fn check_info(&mut self, call: &'static str, info: String) -> Result<Info> {
        if !info.is_empty() && info == self.last_valid_info {
            return Ok(Info::from_validated(info));
        }
        self.check_text(call, "info", &info, self.limits.max_info_bytes)?;
        let info = Info::from_json(info).map_err(|message| self.contract(call, message))?;
        self.last_valid_info.clear();
        self.last_valid_info.push_str(info.as_json());
        Ok(info)
    }
}

type EnvCall<R> = wasmtime::Result<std::result::Result<R, EnvError>>;

impl Env for ComponentEnv {
    fn id(&self) -> &str {
        &self.id
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
        self.check_text(
            "reset",
            "observation",
            &out.observation,
            self.limits.max_observation_bytes,
        )?;
        let info = self.check_info("reset", out.info)?;
        self.started = true;
        Ok(ResetOutput {
            observation: out.observation,
            info,
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        if action.len() > self.limits.max_action_bytes {
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "action",
                len: action.len(),
                limit: self.limits.max_action_bytes,
            });
        }
        if !self.started {
            return Err(Error::InvalidState {
                env: self.id.clone(),
                message: "step called before reset".into(),
            });
        }
        let out = self.call("step", &mut |store, api, h| {
            api.geode_env_env().instance().call_step(store, h, action)
        })?;
        self.check_text(
            "step",
            "observation",
            &out.observation,
            self.limits.max_observation_bytes,
        )?;
        if !out.reward.is_finite() {
            return Err(self.contract(
                "step",
                format!("reward must be a finite number, got {}", out.reward),
            ));
        }
        let info = self.check_info("step", out.info)?;
        Ok(StepOutput {
            observation: out.observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
            info,
        })
    }

    fn sample_random_action(&mut self) -> Result<String> {
        let action = self.call("sample_random_action", &mut |store, api, h| {
            api.geode_env_env()
                .instance()
                .call_sample_random_action(store, h)
        })?;
        self.check_text(
            "sample_random_action",
            "action",
            &action,
            self.limits.max_action_bytes,
        )?;
        Ok(action)
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        let state = self.call("get_state", &mut |store, api, h| {
            api.geode_env_env().instance().call_get_state(store, h)
        })?;
        if state.len() > self.limits.max_state_bytes {
            let message = format!(
                "state is {} bytes, over the limit of {}",
                state.len(),
                self.limits.max_state_bytes
            );
            return Err(self.contract("get_state", message));
        }
        Ok(state)
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        if state.len() > self.limits.max_state_bytes {
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "state",
                len: state.len(),
                limit: self.limits.max_state_bytes,
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
        let mut twin = ComponentEnv::new(
            self.plugin.clone(),
            &self.id,
            self.config_json.clone(),
            self.limits.clone(),
        )?;
        if same_state && self.started {
            let state = self.get_state()?;
            twin.set_state(&state)?;
        }
        Ok(Box::new(twin))
    }
}
