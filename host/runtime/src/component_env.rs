//! [`ComponentEnv`]: one env of a component plugin in an instance of its own (a unit of one).
//!
//! Every call gets a fresh fuel budget and deadline. A call that traps, runs out of a budget or
//! breaks the contract discards the instance; the next `reset` builds a new one from the
//! plugin's pre-instantiated template (microseconds), so a bad episode never poisons the next.

use crate::env::{Env, ResetOutput, StepOutput};
use crate::limits::Limits;
use crate::plugin::Plugin;
use crate::plugin::PluginKind;
use crate::unit::{ComponentUnit, MemberEnv, Unit};
use crate::{Registry, Result};
use serde_json::Value;
use std::sync::Arc;

/// An env provided by a component plugin.
#[derive(Debug)]
pub struct ComponentEnv {
    unit: ComponentUnit,
}

impl ComponentEnv {
    /// Instantiates `id` of `plugin` with a merged configuration (see [`crate::Registry::make`]).
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        let unit = ComponentUnit::new(plugin, vec![(id.to_owned(), config_json)], limits)?;
        Ok(Self::from_unit(unit))
    }

    /// Makes env `id` of a plugin in `registry` as this concrete type, for what only
    /// component envs offer (`is_live`, the instance's memory); [`Registry::make`] serves
    /// every id.
    pub fn make(registry: &Registry, id: &str, overrides: &Value, limits: &Limits) -> Result<Self> {
        let (plugin, config) = registry.resolve(id, PluginKind::Env, overrides)?;
        ComponentEnv::new(plugin, id, config, limits.clone())
    }

    /// The env of a unit of one.
    pub(crate) fn from_unit(unit: ComponentUnit) -> Self {
        debug_assert_eq!(unit.len(), 1);
        ComponentEnv { unit }
    }

    /// The limits this env runs under.
    pub fn limits(&self) -> &Limits {
        self.unit.limits()
    }

    /// The plugin that provides this env.
    pub fn plugin(&self) -> &Arc<Plugin> {
        self.unit.plugin()
    }

    /// The configuration the guest was created with (a JSON object).
    pub fn config_json(&self) -> &str {
        self.unit.config_json(0)
    }

    /// Whether an instance is live (false right after a trap, until the next `reset`).
    pub fn is_live(&self) -> bool {
        self.unit.is_live()
    }

    fn member(&mut self) -> MemberEnv<'_> {
        MemberEnv::new(&mut self.unit, 0)
    }
}

impl Env for ComponentEnv {
    fn id(&self) -> &str {
        self.unit.id(0)
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        self.member().reset(seed)
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        self.member().step(action)
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.member().sample_random_action()
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.member().get_state()
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.member().set_state(state)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        self.member().spawn(same_state)
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.member().seek_episode(number)
    }
}
