//! [`ComponentWrapper`]: a wrapper plugin over any env. The host links the plugin's `inner`
//! import to the wrapped env (a component env, a native wrapper, another component wrapper).

use crate::bindings::wrapper_world::WrapperPlugin;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guest::{GuestCall, GuestInstance, Recipe};
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::{Error, Result};
use std::sync::Arc;

/// A wrapper plugin instance over an inner env.
pub struct ComponentWrapper {
    guest: GuestInstance<WrapperPlugin>,
}

impl std::fmt::Debug for ComponentWrapper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentWrapper")
            .field("id", &self.guest.recipe.id())
            .field("live", &self.guest.is_live())
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
        let recipe = Recipe::new(plugin, id, config_json, limits);
        let mut wrapper = ComponentWrapper {
            guest: GuestInstance::new(recipe, Some(inner)),
        };
        wrapper.guest.ensure_live()?;
        Ok(wrapper)
    }

    fn call<R>(&mut self, name: &'static str, f: GuestCall<'_, WrapperPlugin, R>) -> Result<R> {
        self.guest.call(0, name, f)
    }

    fn inner(&mut self) -> Result<&mut Box<dyn Env>> {
        self.guest.ensure_live()?;
        self.guest
            .inner()
            .ok_or_else(|| Error::Internal("wrapper lost its inner env".into()))
    }

    fn contract(&mut self, call: &'static str, message: String) -> Error {
        self.guest.discard();
        Error::Contract {
            env: self.guest.recipe.id().to_owned(),
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
        match self.guest.recipe.oversize(call, what, len, limit) {
            Some(error) => {
                self.guest.discard();
                Err(error)
            }
            None => Ok(()),
        }
    }

    fn info(&mut self, call: &'static str, info: String) -> Result<Info> {
        let limit = self.guest.recipe.limits.max_info_bytes;
        self.check_len(call, "info", info.len(), limit)?;
        Info::from_json(info).map_err(|m| self.contract(call, m))
    }

    fn observation(&mut self, call: &'static str, text: String) -> Result<String> {
        let limit = self.guest.recipe.limits.max_observation_bytes;
        self.check_len(call, "observation", text.len(), limit)?;
        Ok(text)
    }
}

impl Env for ComponentWrapper {
    fn id(&self) -> &str {
        self.guest.recipe.id()
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
        self.guest.recipe.check_action(0, action)?;
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
        let mut twin = ComponentWrapper {
            guest: GuestInstance::new(self.guest.recipe.twin(), Some(inner)),
        };
        twin.guest.ensure_live()?;
        Ok(Box::new(twin))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.inner()?.seek_episode(number)
    }
}
