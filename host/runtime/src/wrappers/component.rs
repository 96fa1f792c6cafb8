//! [`ComponentWrapper`]: a wrapper plugin over any env. The host links the plugin's `inner`
//! import to the wrapped env (a component env, a native wrapper, another component wrapper).

use crate::bindings::wrapper_world::WrapperPlugin;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guard::{self, GuestCall, Live};
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::recipe::Recipe;
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;

/// A wrapper plugin instance over an inner env.
pub struct ComponentWrapper {
    recipe: Recipe,
    live: Option<Live<WrapperPlugin>>,
    /// The inner env while no instance holds it (after a trap, before a rebuild).
    parked: Option<Box<dyn Env>>,
}

impl std::fmt::Debug for ComponentWrapper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentWrapper")
            .field("id", &self.recipe.id)
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
            recipe: Recipe::new(plugin, id, config_json, limits),
            live: None,
            parked: Some(inner),
        };
        wrapper.ensure_live()?;
        Ok(wrapper)
    }

    fn ensure_live(&mut self) -> Result<()> {
        if self.live.is_some() {
            return Ok(());
        }
        let mut store = self.recipe.new_store();
        store.data_mut().inner = self.parked.take();
        let Template::Wrapper(pre) = &self.recipe.plugin.template else {
            self.parked = store.into_data().inner;
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by a wrapper plugin",
                self.recipe.id
            )));
        };
        let api = match pre.instantiate(&mut store) {
            Ok(api) => api,
            Err(e) => return Err(self.salvage(store, "instantiate", e)),
        };
        self.recipe.limits.arm(&mut store);
        match api.geode_env_wrapper().call_create(
            &mut store,
            &self.recipe.id,
            &self.recipe.config_json,
        ) {
            Ok(Ok(handle)) => {
                self.live = Some(Live { store, api, handle });
                Ok(())
            }
            Ok(Err(refusal)) => {
                self.parked = store.into_data().inner;
                Err(guard::refused(&self.recipe.id, "create", refusal))
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
        let error = self.recipe.classify(&store, call, error);
        self.parked = store.into_data().inner;
        error
    }

    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, WrapperPlugin, R>) -> Result<R> {
        self.ensure_live()?;
        if let Some(live) = self.live.as_mut() {
            live.store.data_mut().inner_error = None;
        }
        match guard::call(
            &mut self.live,
            &self.recipe.id,
            &self.recipe.limits,
            name,
            f,
        ) {
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
        self.discard();
        Error::Contract {
            env: self.recipe.id.clone(),
            call,
            message,
        }
    }

    /// Discards the instance (keeping the inner env) and fails when an output is over `limit`.
    fn check_len(
        &mut self,
        call: &'static str,
        what: &str,
        len: usize,
        limit: usize,
    ) -> Result<()> {
        match self.recipe.oversize(call, what, len, limit) {
            Some(error) => {
                self.discard();
                Err(error)
            }
            None => Ok(()),
        }
    }

    fn discard(&mut self) {
        if let Some(live) = self.live.take() {
            self.parked = live.store.into_data().inner;
        }
    }

    fn info(&mut self, call: &'static str, info: String) -> Result<Info> {
        self.check_len(call, "info", info.len(), self.recipe.limits.max_info_bytes)?;
        Info::from_json(info).map_err(|m| self.contract(call, m))
    }

    fn observation(&mut self, call: &'static str, text: String) -> Result<String> {
        let limit = self.recipe.limits.max_observation_bytes;
        self.check_len(call, "observation", text.len(), limit)?;
        Ok(text)
    }
}

impl Env for ComponentWrapper {
    fn id(&self) -> &str {
        &self.recipe.id
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
        self.recipe.check_action(action)?;
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
            self.recipe.plugin.clone(),
            &self.recipe.id,
            self.recipe.config_json.clone(),
            self.recipe.limits.clone(),
            inner,
        )?;
        Ok(Box::new(twin))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.inner()?.seek_episode(number)
    }
}
