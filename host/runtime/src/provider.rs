//! Who provides an id: a loaded [`Plugin`], or a [`NativeProvider`] (ids the host implements
//! in Rust, such as the code envs and `tool:python`). The registry keeps both in one id space.

use crate::env::Env;
use crate::limits::Limits;
use crate::plugin::{EnvSpec, Plugin, PluginKind};
use crate::runtime::Runtime;
use crate::tool::Tool;
use crate::{Error, Result};
use serde_json::Value;
use std::sync::Arc;

/// Envs and tools the host implements itself, registered next to plugins.
pub trait NativeProvider: Send + Sync {
    /// Shown as the provider in listings (`geode list`, `list_envs()`).
    fn name(&self) -> &str;

    /// Every id it provides, with its kind (env or tool).
    fn specs(&self) -> Vec<(PluginKind, EnvSpec)>;

    /// Makes env `id` (one of its env ids) with `overrides` merged over its defaults. The
    /// default refuses: a provider of tools only need not implement it.
    fn make_env(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let _ = (runtime, overrides, limits);
        Err(Error::Internal(format!(
            "{} has no env `{id}`",
            self.name()
        )))
    }

    /// Makes tool `id` (one of its tool ids) with `overrides` merged over its defaults. The
    /// default refuses: a provider of envs only need not implement it.
    fn make_tool(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        let _ = (runtime, overrides, limits);
        Err(Error::Internal(format!(
            "{} has no tool `{id}`",
            self.name()
        )))
    }
}

/// Makes a [`ToolProvider`]'s tool from the runtime and the user's overrides.
pub type MakeTool = fn(&Runtime, &Value) -> Result<Box<dyn Tool>>;

/// Provides one tool the host implements in Rust: its spec (id, defaults, description) and how
/// to make it. Host tool crates register one of these instead of writing a provider each.
#[derive(Debug, Clone)]
pub struct ToolProvider {
    source: &'static str,
    spec: EnvSpec,
    make: MakeTool,
}

impl ToolProvider {
    /// Tool `spec`, listed as provided by `source` and made by `make`.
    pub fn new(source: &'static str, spec: EnvSpec, make: MakeTool) -> Self {
        ToolProvider { source, spec, make }
    }
}

impl NativeProvider for ToolProvider {
    fn name(&self) -> &str {
        self.source
    }

    fn specs(&self) -> Vec<(PluginKind, EnvSpec)> {
        vec![(PluginKind::Tool, self.spec.clone())]
    }

    fn make_tool(
        &self,
        runtime: &Runtime,
        id: &str,
        overrides: &Value,
        _limits: &Limits,
    ) -> Result<Box<dyn Tool>> {
        if id != self.spec.id {
            return Err(Error::Internal(format!(
                "{} has no tool `{id}`",
                self.source
            )));
        }
        (self.make)(runtime, overrides)
    }
}

/// What provides one registered id.
#[derive(Clone)]
pub enum Provider {
    /// A WebAssembly plugin.
    Plugin(Arc<Plugin>),
    /// The host itself.
    Native(Arc<dyn NativeProvider>),
}

impl Provider {
    /// Where the id comes from, as listings print it.
    pub fn source(&self) -> String {
        match self {
            Provider::Plugin(plugin) => plugin.source().to_string(),
            Provider::Native(native) => native.name().to_owned(),
        }
    }

    /// The plugin, when a plugin provides the id.
    pub fn plugin(&self) -> Option<&Arc<Plugin>> {
        match self {
            Provider::Plugin(plugin) => Some(plugin),
            Provider::Native(_) => None,
        }
    }
}

/// One id of a registry: its spec, kind and provider.
#[derive(Clone)]
pub struct Entry {
    /// Id, default configuration and description.
    pub spec: EnvSpec,
    /// Env, tool or wrapper.
    pub kind: PluginKind,
    /// Who makes it.
    pub provider: Provider,
}

impl Entry {
    /// The id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// Refuses an entry of another kind than `wanted`.
    pub(crate) fn expect_kind(&self, wanted: PluginKind) -> Result<&Self> {
        if self.kind == wanted {
            return Ok(self);
        }
        Err(Error::InvalidArgument(format!(
            "`{}` is {}, not {}",
            self.spec.id,
            self.kind.with_article(),
            wanted.with_article()
        )))
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("id", &self.spec.id)
            .field("kind", &self.kind)
            .field("provider", &self.provider.source())
            .finish()
    }
}
