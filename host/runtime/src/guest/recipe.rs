//! [`Recipe`]: what a guest instance is built (and rebuilt after a failure) from: the plugin,
//! the guest resources to create in it (an id and configuration each: one for a tool, a
//! wrapper or a lone env, several for a unit), one member's limits, and the instance's own
//! entropy stream (each instance gets a fresh seed for its virtual WASI randomness).

use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;

/// How to build (and rebuild) one guest instance.
pub(crate) struct Recipe {
    pub plugin: Arc<Plugin>,
    /// The guest resources to create: `(id, merged configuration as a JSON object)`.
    pub members: Vec<(String, String)>,
    /// One member's limits.
    pub limits: Limits,
    entropy: u64,
}

impl Recipe {
    /// A recipe for one guest resource, with an entropy stream seeded from the OS.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Self {
        Recipe::of_members(plugin, vec![(id.to_owned(), config_json)], limits)
    }

    /// A recipe for several guest resources of one plugin in one instance.
    pub fn of_members(plugin: Arc<Plugin>, members: Vec<(String, String)>, limits: Limits) -> Self {
        Recipe {
            plugin,
            members,
            limits,
            entropy: getrandom::u64().unwrap_or(0x2545_f491_4f6c_dd1d),
        }
    }

    /// The same plugin, members and limits, with its own entropy stream.
    pub fn twin(&self) -> Self {
        Recipe::of_members(
            self.plugin.clone(),
            self.members.clone(),
            self.limits.clone(),
        )
    }

    /// The first member's id (the only one's, but in a unit).
    pub fn id(&self) -> &str {
        &self.members[0].0
    }

    /// The next number of the recipe's entropy stream (an LCG step plus a xorshift).
    pub fn next_entropy(&mut self) -> u64 {
        self.entropy = self
            .entropy
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.entropy ^ (self.entropy >> 29)
    }

    /// A store for the next instance, under the limits of the whole instance (one member's,
    /// times the members for memory, tables and handles) and the next entropy seed.
    pub fn new_store(&mut self) -> Store<GuestState> {
        let n = self.members.len();
        let limits = Limits {
            max_memory_bytes: self.limits.max_memory_bytes.saturating_mul(n as u64),
            max_resource_handles: self.limits.max_resource_handles.saturating_mul(n),
            max_table_elements: self.limits.max_table_elements.saturating_mul(n),
            ..self.limits.clone()
        };
        let seed = self.next_entropy();
        self.plugin.new_store(self.id(), &limits, seed)
    }

    /// Refuses an input of `len` bytes over `limit` for `member` before it reaches the guest.
    pub fn check_input(
        &self,
        member: usize,
        what: &'static str,
        len: usize,
        limit: usize,
    ) -> Result<()> {
        if len > limit {
            return Err(Error::InputTooLarge {
                env: self.members[member].0.clone(),
                what,
                len,
                limit,
            });
        }
        Ok(())
    }

    /// Refuses an action over the action size limit before it reaches the guest.
    pub fn check_action(&self, member: usize, action: &str) -> Result<()> {
        self.check_input(member, "action", action.len(), self.limits.max_action_bytes)
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
            env: self.id().to_owned(),
            call,
            message: format!("{what} is {len} bytes, over the limit of {limit}"),
        })
    }
}
