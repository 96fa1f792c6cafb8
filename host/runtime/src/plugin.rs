//! A loaded plugin: its compiled component, a pre-instantiated template, and the specs its
//! `describe()` returned. A plugin is an env, a tool or a wrapper plugin, by what it exports.

use crate::bindings::env_world::EnvPluginPre;
use crate::bindings::env_world::geode::env::types::PluginSpec as RawSpec;
use crate::bindings::multiagent_world::MultiagentPluginPre;
use crate::bindings::tool_world::ToolPluginPre;
use crate::bindings::wrapper_world::WrapperPluginPre;
use crate::bindings::{
    CONTRACT_VERSION, ENV_EXPORT, MULTIAGENT_EXPORT, TOOL_EXPORT, WRAPPER_EXPORT,
};
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::runtime::Runtime;
use crate::{Error, Result};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::Arc;
use wasmtime::Store;
use wasmtime::component::types::ComponentItem;

/// Where a plugin came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PluginSource {
    /// Compiled into the geode binary from `plugins/<name>`.
    Builtin(String),
    /// Loaded from a `.wasm` file.
    File(PathBuf),
}

impl std::fmt::Display for PluginSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PluginSource::Builtin(name) => write!(f, "built-in plugin `{name}`"),
            PluginSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// What a plugin provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginKind {
    /// Environments (`geode:env/env`).
    Env,
    /// Tools (`geode:env/tool`).
    Tool,
    /// Wrappers over another env (`geode:env/wrapper`).
    Wrapper,
    /// Multi-agent environments (`geode:env/multiagent`).
    MultiAgent,
}

impl PluginKind {
    fn export(self) -> &'static str {
        match self {
            PluginKind::Env => ENV_EXPORT,
            PluginKind::Tool => TOOL_EXPORT,
            PluginKind::Wrapper => WRAPPER_EXPORT,
            PluginKind::MultiAgent => MULTIAGENT_EXPORT,
        }
    }
}

impl PluginKind {
    /// "an env", "a tool", "a wrapper".
    pub fn with_article(self) -> &'static str {
        match self {
            PluginKind::Env => "an env",
            PluginKind::Tool => "a tool",
            PluginKind::Wrapper => "a wrapper",
            PluginKind::MultiAgent => "a multi-agent env",
        }
    }
}

impl std::fmt::Display for PluginKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PluginKind::Env => "env",
            PluginKind::Tool => "tool",
            PluginKind::Wrapper => "wrapper",
            PluginKind::MultiAgent => "multiagent",
        })
    }
}

/// One id a plugin provides.
#[derive(Debug, Clone)]
pub struct EnvSpec {
    /// The id users pass to `make` (or `make_tool`, or in a `WrapperSpec::Plugin`).
    pub id: String,
    /// The default configuration (a JSON object).
    pub default_config: Map<String, Value>,
    /// One line for listings.
    pub description: String,
}

impl EnvSpec {
    /// The spec of `id` with `default_config` (a JSON object; anything else counts as `{}`).
    pub fn new(id: &str, description: &str, default_config: &Value) -> Self {
        EnvSpec {
            id: id.to_owned(),
            default_config: default_config.as_object().cloned().unwrap_or_default(),
            description: description.to_owned(),
        }
    }
}

/// The pre-instantiated template of a plugin, by kind.
pub(crate) enum Template {
    Env(EnvPluginPre<GuestState>),
    Tool(ToolPluginPre<GuestState>),
    Wrapper(WrapperPluginPre<GuestState>),
    MultiAgent(MultiagentPluginPre<GuestState>),
}

/// A plugin ready to instantiate.
pub struct Plugin {
    pub(crate) runtime: Runtime,
    pub(crate) template: Template,
    source: PluginSource,
    specs: Vec<EnvSpec>,
    sha256: String,
    size: usize,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("source", &self.source)
            .field("ids", &self.ids())
            .finish()
    }
}

impl Plugin {
    /// Compiles (or loads from the cache) `wasm`, checks it is a geode plugin and asks it for
    /// its specs.
    pub fn load(runtime: &Runtime, source: PluginSource, wasm: &[u8]) -> Result<Arc<Plugin>> {
        let not_a_plugin = |reason: String| Error::NotAPlugin {
            source_name: source.to_string(),
            reason,
        };
        let component = runtime.cache().load(runtime.engine(), wasm).map_err(|e| {
            not_a_plugin(format!(
                "not a valid WebAssembly component ({})",
                first_line(&format!("{e:#}"))
            ))
        })?;
        let kind = detect_kind(runtime, &component).map_err(not_a_plugin)?;
        let instance_pre = runtime.linker().instantiate_pre(&component).map_err(|e| {
            not_a_plugin(format!("it needs an import geode does not provide: {e:#}"))
        })?;
        let mismatch = |e: wasmtime::Error| {
            not_a_plugin(format!(
                "its `{}` export does not match the contract: {e:#}",
                kind.export()
            ))
        };
        let template = match kind {
            PluginKind::Env => Template::Env(EnvPluginPre::new(instance_pre).map_err(mismatch)?),
            PluginKind::Tool => Template::Tool(ToolPluginPre::new(instance_pre).map_err(mismatch)?),
            PluginKind::Wrapper => {
                Template::Wrapper(WrapperPluginPre::new(instance_pre).map_err(mismatch)?)
            }
            PluginKind::MultiAgent => {
                Template::MultiAgent(MultiagentPluginPre::new(instance_pre).map_err(mismatch)?)
            }
        };
        let mut plugin = Plugin {
            runtime: runtime.clone(),
            template,
            source: source.clone(),
            specs: Vec::new(),
            sha256: crate::cache::sha256_hex(wasm),
            size: wasm.len(),
        };
        plugin.specs = plugin.describe()?;
        Ok(Arc::new(plugin))
    }

    fn describe(&self) -> Result<Vec<EnvSpec>> {
        let label = self.source.to_string();
        let mut store = self.new_store(&label, &Limits::default(), 0);
        let failed = |e: wasmtime::Error| Error::NotAPlugin {
            source_name: label.clone(),
            reason: format!("it failed to start: {e:#}"),
        };
        let trapped = |e: wasmtime::Error| Error::GuestTrap {
            env: label.clone(),
            call: "describe",
            message: format!("{e:#}"),
        };
        let raw: Vec<RawSpec> = match &self.template {
            Template::Env(pre) => pre
                .instantiate(&mut store)
                .map_err(failed)?
                .geode_env_env()
                .call_describe(&mut store)
                .map_err(trapped)?,
            Template::Tool(pre) => pre
                .instantiate(&mut store)
                .map_err(failed)?
                .geode_env_tool()
                .call_describe(&mut store)
                .map_err(trapped)?,
            Template::Wrapper(pre) => pre
                .instantiate(&mut store)
                .map_err(failed)?
                .geode_env_wrapper()
                .call_describe(&mut store)
                .map_err(trapped)?,
            Template::MultiAgent(pre) => pre
                .instantiate(&mut store)
                .map_err(failed)?
                .geode_env_multiagent()
                .call_describe(&mut store)
                .map_err(trapped)?,
        };
        let mut specs: Vec<EnvSpec> = Vec::with_capacity(raw.len());
        for spec in raw {
            let contract = |message: String| Error::Contract {
                env: label.clone(),
                call: "describe",
                message,
            };
            let default_config = match serde_json::from_str(&spec.default_config) {
                Ok(Value::Object(map)) => map,
                _ => {
                    return Err(contract(format!(
                        "default config of `{}` is not a JSON object",
                        spec.id
                    )));
                }
            };
            if spec.id.is_empty() || specs.iter().any(|s| s.id == spec.id) {
                return Err(contract(format!(
                    "id `{}` is empty or listed twice",
                    spec.id
                )));
            }
            specs.push(EnvSpec {
                id: spec.id,
                default_config,
                description: spec.description,
            });
        }
        if specs.is_empty() {
            return Err(Error::NotAPlugin {
                source_name: label,
                reason: "it describes no ids".into(),
            });
        }
        Ok(specs)
    }

    /// A store for one instance of this plugin, with limits applied.
    pub(crate) fn new_store(
        &self,
        label: &str,
        limits: &Limits,
        entropy: u64,
    ) -> Store<GuestState> {
        let mut store = Store::new(
            self.runtime.engine(),
            GuestState::new(label, limits, entropy, self.runtime.datasets().clone()),
        );
        store.limiter(|state| &mut state.limiter);
        store.epoch_deadline_callback(crate::guest::budget::on_epoch);
        store.data_mut().sandbox = Some(self.runtime.shared_sandbox().clone());
        limits.arm(&mut store);
        store
    }

    /// What the plugin provides.
    pub fn kind(&self) -> PluginKind {
        match self.template {
            Template::Env(_) => PluginKind::Env,
            Template::Tool(_) => PluginKind::Tool,
            Template::Wrapper(_) => PluginKind::Wrapper,
            Template::MultiAgent(_) => PluginKind::MultiAgent,
        }
    }

    /// Where the plugin came from.
    pub fn source(&self) -> &PluginSource {
        &self.source
    }

    /// The ids it provides, with default configs.
    pub fn specs(&self) -> &[EnvSpec] {
        &self.specs
    }

    /// The ids it provides.
    pub fn ids(&self) -> Vec<&str> {
        self.specs.iter().map(|s| s.id.as_str()).collect()
    }

    /// The spec of `id`, if this plugin provides it.
    pub fn spec(&self, id: &str) -> Option<&EnvSpec> {
        self.specs.iter().find(|s| s.id == id)
    }

    /// The contract version the plugin was built against.
    pub fn contract_version(&self) -> &'static str {
        CONTRACT_VERSION
    }

    /// SHA-256 of the component bytes.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Size of the component in bytes.
    pub fn size(&self) -> usize {
        self.size
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}

/// Finds which geode interface the component exports, explaining what it exports instead when
/// it exports none of this contract version.
fn detect_kind(
    runtime: &Runtime,
    component: &wasmtime::component::Component,
) -> std::result::Result<PluginKind, String> {
    let ty = component.component_type();
    let mut exports = Vec::new();
    for (name, item) in ty.exports(runtime.engine()) {
        if matches!(item.ty, ComponentItem::ComponentInstance(_)) {
            for kind in [
                PluginKind::Env,
                PluginKind::Tool,
                PluginKind::Wrapper,
                PluginKind::MultiAgent,
            ] {
                if name == kind.export() {
                    return Ok(kind);
                }
            }
        }
        exports.push(name.to_owned());
    }
    let wanted =
        format!("`{ENV_EXPORT}`, `{TOOL_EXPORT}`, `{WRAPPER_EXPORT}` or `{MULTIAGENT_EXPORT}`");
    if let Some(other) = exports.iter().find(|name| name.starts_with("geode:env/")) {
        return Err(format!(
            "it was built against contract `{other}`; this host speaks {wanted}"
        ));
    }
    if exports.is_empty() {
        return Err(format!(
            "it exports nothing; a geode plugin exports {wanted}"
        ));
    }
    Err(format!(
        "it does not export {wanted} (it exports {})",
        exports.join(", ")
    ))
}
