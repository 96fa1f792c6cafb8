//! [`ComponentWrapper`]: a wrapper plugin over any env. The host links the plugin's `inner`
//! import to the wrapped env (a component env, a native wrapper, another component wrapper).

use crate::bindings::wrapper_world::WrapperPlugin;
use crate::component_env::{next_entropy, os_entropy};
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guard::{self, GuestCall, Live};
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;

/// A wrapper plugin instance over an inner env.
pub struct ComponentWrapper {
    plugin: Arc<Plugin>,
    id: String,
    config_json: String,
    limits: Limits,
    live: Option<Live<WrapperPlugin>>,
    /// The inner env while no instance holds it (after a trap, before a rebuild).
    parked: Option<Box<dyn Env>>,
    entropy: u64,
}

impl std::fmt::Debug for ComponentWrapper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentWrapper")
            .field("id", &self.id)
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl ComponentWrapper {
    /// Instantiates wrapper `id` of `plugin` over `inner`.
    pub fn new(
        plugin: Arc<Plugin>,
        id: &str,
        config_json: String,
        limits: Limits,
        inner: Box<dyn Env>,
    ) -> Result<Self> {
        let mut wrapper = ComponentWrapper {
            plugin,
            id: id.to_owned(),
            config_json,
            limits,
            live: None,
            parked: Some(inner),
            entropy: os_entropy(),
        };
        wrapper.ensure_live()?;
        Ok(wrapper)
    }

    fn ensure_live(&mut self) -> Result<()> {
        if self.live.is_some() {
            return Ok(());
        }
        let mut store =
            self.plugin
                .new_store(&self.id, &self.limits, next_entropy(&mut self.entropy));
        store.data_mut().inner = self.parked.take();
        let Template::Wrapper(pre) = &self.plugin.template else {
            self.parked = store.into_data().inner;
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by a wrapper plugin",
                self.id
            )));
        };
        let api = match pre.instantiate(&mut store) {
            Ok(api) => api,
            Err(e) => return Err(self.salvage(store, "instantiate", e)),
        };
        self.limits.arm(&mut store);
        match api
            .geode_env_wrapper()
            .call_create(&mut store, &self.id, &self.config_json)
        {
            Ok(Ok(handle)) => {
                self.live = Some(Live { store, api, handle });
                Ok(())
            }
            Ok(Err(refusal)) => {
                self.parked = store.into_data().inner;
                Err(guard::refused(&self.id, "create", refusal))
            }
            Err(e) => Err(self.salvage(store, "create", e)),
        }
    }

    /// Takes the inner env back from a failed store and explains the failure.
    fn salvage(
        &mut self,
        store: Store<GuestState>,
        call: &'static str,
        error: wasmtime::Error,
    ) -> Error {
        let error = guard::classify(&self.id, &self.limits, store.data(), call, error);
        self.parked = store.into_data().inner;
        error
    }

    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, WrapperPlugin, R>) -> Result<R> {
        self.ensure_live()?;
        if let Some(live) = self.live.as_mut() {
            live.store.data_mut().inner_error = None;
        }
        match guard::call(&mut self.live, &self.id, &self.limits, name, f) {
            Ok(value) => Ok(value),
            Err((error, discarded)) => {
                let inner_error = match discarded {
                    Some(store) => {
                        let mut data = store.into_data();
                        self.parked = data.inner.take();
                        data.inner_error
                    }
                    None => self
                        .live
                        .as_mut()
                        .and_then(|l| l.store.data_mut().inner_error.take()),
                };
                // The inner env's own typed error says more than the wrapper's report of it.
                Err(inner_error.unwrap_or(error))
            }
        }
    }

    fn inner(&mut self) -> Result<&mut Box<dyn Env>> {
        self.ensure_live()?;
        let live = self.live.as_mut().expect("live after ensure_live");
        live.store
            .data_mut()
            .inner
            .as_mut()
            .ok_or_else(|| Error::Internal("wrapper lost its inner env".into()))
    }

    fn contract(&mut self, call: &'static str, message: String) -> Error {
        if let Some(live) = self.live.take() {
            self.parked = live.store.into_data().inner;
        }
        Error::Contract {
            env: self.id.clone(),
            call,
            message,
        }
    }

    fn info(&mut self, call: &'static str, info: String) -> Result<Info> {
        if info.len() > self.limits.max_info_bytes {
            return Err(self.contract(
                call,
                format!(
                    "info is {} bytes, over the limit of {}",
                    info.len(),
                    self.limits.max_info_bytes
                ),
            ));
        }
        Info::from_json(info).map_err(|m| self.contract(call, m))
    }

    fn observation(&mut self, call: &'static str, text: String) -> Result<String> {
        if text.len() > self.limits.max_observation_bytes {
            let message = format!(
                "observation is {} bytes, over the limit of {}",
                text.len(),
                self.limits.max_observation_bytes
            );
            return Err(self.contract(call, message));
        }
        Ok(text)
    }
}

impl Env for ComponentWrapper {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let out = self.call("reset", &mut |store, api, h| {
            api.geode_env_wrapper()
                .instance()
                .call_reset(store, h, seed)
        })?;
        let info = self.info("reset", out.info)?;
        Ok(ResetOutput {
            observation: self.observation("reset", out.observation)?,
            info,
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        if action.len() > self.limits.max_action_bytes {
            let limit = self.limits.max_action_bytes;
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "action",
                len: action.len(),
                limit,
            });
        }
        let out = self.call("step", &mut |store, api, h| {
            api.geode_env_wrapper()
                .instance()
                .call_step(store, h, action)
        })?;
        if !out.reward.is_finite() {
            return Err(self.contract(
                "step",
                format!("reward must be a finite number, got {}", out.reward),
            ));
        }
        let info = self.info("step", out.info)?;
        let observation = self.observation("step", out.observation)?;
        Ok(StepOutput {
            observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
            info,
        })
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.call("sample_random_action", &mut |store, api, h| {
            api.geode_env_wrapper()
                .instance()
                .call_sample_random_action(store, h)
        })
    }

    /// The inner env's state (a wrapper plugin's own state is not part of the contract).
    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.inner()?.get_state()
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.inner()?.set_state(state)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let inner = self.inner()?.spawn(same_state)?;
        let twin = ComponentWrapper::new(
            self.plugin.clone(),
            &self.id,
            self.config_json.clone(),
            self.limits.clone(),
            inner,
        )?;
        Ok(Box::new(twin))
    }
}
