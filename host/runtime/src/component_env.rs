//! [`ComponentEnv`]: an env running inside its own wasm component instance, under limits.
//!
//! Every call gets a fresh fuel budget and deadline. A call that traps, runs out of a budget or
//! breaks the contract discards the instance; the next `reset` builds a new one from the
//! plugin's pre-instantiated template (microseconds), so a bad episode never poisons the next.

use crate::bindings::env_world::EnvPlugin;
use crate::bindings::env_world::exports::geode::env::env::EnvError;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::error::RefusalKind;
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::component::ResourceAny;
use wasmtime::{Store, Trap};

/// A live instance: its store, its bindings and the guest's env resource.
struct Live {
    store: Store<GuestState>,
    api: EnvPlugin,
    handle: ResourceAny,
}

/// An env provided by a component plugin.
pub struct ComponentEnv {
    plugin: Arc<Plugin>,
    id: String,
    config_json: String,
    limits: Limits,
    live: Option<Live>,
    entropy: u64,
    started: bool,
}

impl std::fmt::Debug for ComponentEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentEnv")
            .field("id", &self.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

type Call<R> = dyn FnOnce(
    &mut Store<GuestState>,
    &EnvPlugin,
    ResourceAny,
) -> wasmtime::Result<std::result::Result<R, EnvError>>;

impl ComponentEnv {
    /// Instantiates `id` of `plugin` with a merged configuration (see [`crate::Registry::make`]).
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let mut env = ComponentEnv {
            plugin,
            id: id.to_owned(),
            config_json,
            limits,
            live: None,
            entropy: getrandom::u64().unwrap_or(0x2545_f491_4f6c_dd1d),
            started: false,
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

    fn next_entropy(&mut self) -> u64 {
        self.entropy = self
            .entropy
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.entropy ^ (self.entropy >> 29)
    }

    fn instantiate(&mut self) -> Result<Live> {
        let entropy = self.next_entropy();
        let mut store = self.plugin.new_store(&self.id, &self.limits, entropy);
        self.limits.arm(&mut store);
        let api = self
            .plugin
            .pre
            .instantiate(&mut store)
            .map_err(|e| self.classify(&store, "instantiate", e))?;
        self.limits.arm(&mut store);
        let created = api
            .geode_env_env()
            .call_create(&mut store, &self.id, &self.config_json);
        let handle = match created {
            Ok(Ok(handle)) => handle,
            Ok(Err(refusal)) => return Err(self.refused("create", refusal)),
            Err(e) => return Err(self.classify(&store, "create", e)),
        };
        Ok(Live { store, api, handle })
    }

    /// Runs one guest call under fresh budgets, discarding the instance when it fails hard.
    fn call<R>(&mut self, name: &'static str, f: Box<Call<R>>) -> Result<R> {
        let Some(live) = self.live.as_mut() else {
            return Err(Error::InvalidState {
                env: self.id.clone(),
                message: format!(
                    "{name} called on an instance discarded after a failure; call reset to start a fresh one"
                ),
            });
        };
        self.limits.arm(&mut live.store);
        live.store.data().stderr.clear();
        let outcome = f(&mut live.store, &live.api, live.handle);
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(refusal)) => Err(self.refused(name, refusal)),
            Err(trap) => {
                let live = self.live.take().expect("live instance");
                Err(self.classify(&live.store, name, trap))
            }
        }
    }

    fn refused(&self, call: &'static str, refusal: EnvError) -> Error {
        let (kind, message) = match refusal {
            EnvError::BadConfig(m) => (RefusalKind::BadConfig, m),
            EnvError::UnknownId(m) => (RefusalKind::UnknownId, m),
            EnvError::InvalidState(m) => (RefusalKind::InvalidState, m),
            EnvError::BadState(m) => (RefusalKind::BadState, m),
            EnvError::Internal(m) => (RefusalKind::Internal, m),
        };
        Error::Refused {
            env: self.id.clone(),
            call,
            kind,
            message,
        }
    }

    /// Turns a wasmtime error into the typed error that explains it.
    fn classify(
        &self,
        store: &Store<GuestState>,
        call: &'static str,
        error: wasmtime::Error,
    ) -> Error {
        let env = self.id.clone();
        let state = store.data();
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => Error::OutOfFuel {
                env,
                call,
                budget: self.limits.fuel_per_call.unwrap_or(u64::MAX),
            },
            Some(Trap::Interrupt) => Error::Deadline {
                env,
                call,
                limit: self.limits.deadline_per_call.unwrap_or_default(),
            },
            Some(Trap::StackOverflow) => Error::StackOverflow { env, call },
            _ if state.limiter.memory_denied => Error::MemoryLimit {
                env,
                call,
                limit_bytes: self.limits.max_memory_bytes,
            },
            _ => {
                let guest_said = panic_message(&state.stderr.tail());
                let message = match guest_said {
                    Some(said) => said,
                    None => error.to_string(),
                };
                Error::GuestTrap { env, call, message }
            }
        }
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
        self.check_text(call, "info", &info, self.limits.max_info_bytes)?;
        Info::from_json(info).map_err(|message| self.contract(call, message))
    }
}

/// The message of a Rust-style panic (`panicked at file:line:col:\nmessage`) or any other last
/// words the guest wrote to stderr.
fn panic_message(stderr: &str) -> Option<String> {
    let text = stderr.trim();
    if text.is_empty() {
        return None;
    }
    if let Some(at) = text.rfind("panicked at ") {
        let after = &text[at + "panicked at ".len()..];
        let (location, message) = after.split_once(":\n").unwrap_or((after, ""));
        let message = message
            .lines()
            .take_while(|l| !l.starts_with("note:"))
            .collect::<Vec<_>>()
            .join("\n");
        return Some(format!("panicked at {location}: {}", message.trim()));
    }
    Some(
        text.lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

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
        let out = self.call(
            "reset",
            Box::new(move |store, api, h| {
                api.geode_env_env().instance().call_reset(store, h, seed)
            }),
        )?;
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
        let action = action.to_owned();
        let out = self.call(
            "step",
            Box::new(move |store, api, h| {
                api.geode_env_env().instance().call_step(store, h, &action)
            }),
        )?;
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
        let action = self.call(
            "sample_random_action",
            Box::new(|store, api, h| {
                api.geode_env_env()
                    .instance()
                    .call_sample_random_action(store, h)
            }),
        )?;
        self.check_text(
            "sample_random_action",
            "action",
            &action,
            self.limits.max_action_bytes,
        )?;
        Ok(action)
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        let state = self.call(
            "get_state",
            Box::new(|store, api, h| api.geode_env_env().instance().call_get_state(store, h)),
        )?;
        if state.len() > self.limits.max_state_bytes {
            return Err(self.contract(
                "get_state",
                format!(
                    "state is {} bytes, over the limit of {}",
                    state.len(),
                    self.limits.max_state_bytes
                ),
            ));
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
        let state = state.to_vec();
        self.call(
            "set_state",
            Box::new(move |store, api, h| {
                api.geode_env_env()
                    .instance()
                    .call_set_state(store, h, &state)
            }),
        )?;
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

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn extracts_rust_panic_messages() {
        let stderr = "\nthread '<unnamed>' panicked at src/lib.rs:10:5:\nthe board is on fire\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_message(stderr).unwrap(),
            "panicked at src/lib.rs:10:5: the board is on fire"
        );
        assert_eq!(panic_message("  "), None);
    }
}
