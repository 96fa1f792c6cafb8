//! [`Recipe`]: what a component-backed env, tool or wrapper keeps to build its instance again
//! after a failure: the plugin, the id and configuration it was made with, its limits, and its
//! own entropy stream (each instance gets a fresh seed for its virtual WASI randomness).

use crate::bindings::env_world::geode::env::types::EnvError;
use crate::guard::{self, Live};
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;

/// How to build (and rebuild) one guest instance.
pub(crate) struct Recipe {
    pub plugin: Arc<Plugin>,
    pub id: String,
    /// The merged configuration the guest is created with (a JSON object).
    pub config_json: String,
    pub limits: Limits,
    entropy: u64,
}

impl Recipe {
    /// A recipe with an entropy stream seeded from the OS.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Self {
        Recipe {
            plugin,
            id: id.to_owned(),
            config_json,
            limits,
            entropy: getrandom::u64().unwrap_or(0x2545_f491_4f6c_dd1d),
        }
    }

    /// The same plugin, id, configuration and limits, with its own entropy stream.
    pub fn twin(&self) -> Self {
        Recipe::new(
            self.plugin.clone(),
            &self.id,
            self.config_json.clone(),
            self.limits.clone(),
        )
    }

    /// A store for the next instance, armed with the limits and the next entropy seed (an LCG
    /// step plus a xorshift).
    pub fn new_store(&mut self) -> Store<GuestState> {
        self.entropy = self
            .entropy
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let seed = self.entropy ^ (self.entropy >> 29);
        self.plugin.new_store(&self.id, &self.limits, seed)
    }

    /// A live instance: a fresh store, the plugin's pre-instantiated component (`instantiate`
    /// gives `None` when the plugin is not of `kind`), then the guest resource from `create`.
    pub fn build<A>(
        &mut self,
        kind: &str,
        instantiate: impl FnOnce(&Plugin, &mut Store<GuestState>) -> Option<wasmtime::Result<A>>,
        create: impl FnOnce(
            &A,
            &mut Store<GuestState>,
            &str,
            &str,
        ) -> wasmtime::Result<
            std::result::Result<wasmtime::component::ResourceAny, EnvError>,
        >,
    ) -> Result<Live<A>> {
        let mut store = self.new_store();
        let api = match instantiate(&self.plugin, &mut store) {
            None => {
                return Err(Error::InvalidArgument(format!(
                    "`{}` is not provided by {kind}",
                    self.id
                )));
            }
            Some(api) => api.map_err(|e| self.classify(&store, "instantiate", e))?,
        };
        self.limits.arm(&mut store);
        let handle = match create(&api, &mut store, &self.id, &self.config_json) {
            Ok(Ok(handle)) => handle,
            Ok(Err(refusal)) => return Err(guard::refused(&self.id, "create", refusal)),
            Err(e) => return Err(self.classify(&store, "create", e)),
        };
        Ok(Live { store, api, handle })
    }

    /// The typed error that explains the failed `call` on `store`.
    pub fn classify(
        &self,
        store: &Store<GuestState>,
        call: &'static str,
        error: wasmtime::Error,
    ) -> Error {
        guard::classify(&self.id, &self.limits, store.data(), call, error)
    }

    /// Refuses an action over the action size limit before it reaches the guest.
    pub fn check_action(&self, action: &str) -> Result<()> {
        let limit = self.limits.max_action_bytes;
        if action.len() > limit {
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "action",
                len: action.len(),
                limit,
            });
        }
        Ok(())
    }

    /// The contract error for `what` (an output of `call`) being `len` bytes, over `limit`, or
    /// `None` when it fits. The caller discards the instance before returning it.
    pub fn oversize(
        &self,
        call: &'static str,
        what: &str,
        len: usize,
        limit: usize,
    ) -> Option<Error> {
        (len > limit).then(|| Error::Contract {
            env: self.id.clone(),
            call,
            message: format!("{what} is {len} bytes, over the limit of {limit}"),
        })
    }
}
