//! [`Registry`]: one id space for everything geode can make (envs, tools and wrappers from
//! plugins, and the ids the host provides itself), and `make(id, options)` for every env id.

use crate::component_env::ComponentEnv;
use crate::config::merge;
use crate::env::Env;
use crate::limits::Limits;
use crate::options::MakeOptions;
use crate::plugin::{Plugin, PluginKind, PluginSource};
use crate::provider::{Entry, NativeProvider, Provider};
use crate::runtime::Runtime;
use crate::tool::{ComponentTool, Tool};
use crate::wrappers::ComponentWrapper;
use crate::{Error, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The environment variable listing extra plugin directories or files (`:`-separated).
pub const PLUGIN_PATH_VAR: &str = "GEODE_PLUGIN_PATH";
/// The environment variable listing data directories (`:`-separated): dataset files named by an
/// env's `dataset` key are read from them.
pub const DATA_PATH_VAR: &str = "GEODE_DATA_PATH";

/// The key of an env's configuration that names a dataset file (relative to a data directory).
/// The host loads that file before the plugin sees the configuration, as dataset of that name.
pub const DATASET_KEY: &str = "dataset";

/// Every registered id (from plugins and native providers) and how to make it.
#[derive(Clone)]
pub struct Registry {
    runtime: Runtime,
    plugins: Vec<Arc<Plugin>>,
    ids: BTreeMap<String, Entry>,
    /// Ids this build leaves out, and why (see [`Registry::leave_out`]).
    left_out: BTreeMap<String, String>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("ids", &self.ids.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Registry {
    /// An empty registry on `runtime`.
    pub fn empty(runtime: Runtime) -> Self {
        Registry {
            runtime,
            plugins: Vec::new(),
            ids: BTreeMap::new(),
            left_out: BTreeMap::new(),
        }
    }

    /// Adds the data directories of `GEODE_DATA_PATH` to the runtime and loads every plugin
    /// file or directory on `GEODE_PLUGIN_PATH` (`geode_builtins::standard` calls this after
    /// loading the built-ins).
    pub fn add_from_env(&mut self) -> Result<()> {
        if let Some(paths) = std::env::var_os(DATA_PATH_VAR) {
            for dir in std::env::split_paths(&paths).filter(|p| !p.as_os_str().is_empty()) {
                self.runtime.datasets().add_root(&dir)?;
            }
        }
        if let Some(paths) = std::env::var_os(PLUGIN_PATH_VAR) {
            for path in std::env::split_paths(&paths) {
                if path.is_dir() {
                    self.add_dir(&path)?;
                } else if path.exists() {
                    self.add_file(&path)?;
                }
            }
        }
        Ok(())
    }

    /// Loads a plugin from component bytes and registers its ids.
    pub fn add_bytes(&mut self, source: PluginSource, wasm: &[u8]) -> Result<Arc<Plugin>> {
        let plugin = Plugin::load(&self.runtime, source, wasm)?;
        let entries = plugin.specs().iter().map(|spec| Entry {
            spec: spec.clone(),
            kind: plugin.kind(),
            provider: Provider::Plugin(plugin.clone()),
        });
        self.register(entries.collect())?;
        self.plugins.push(plugin.clone());
        Ok(plugin)
    }

    /// Registers the ids a native provider makes.
    pub fn add_native(&mut self, provider: Arc<dyn NativeProvider>) -> Result<()> {
        let entries = provider.specs().into_iter().map(|(kind, spec)| Entry {
            spec,
            kind,
            provider: Provider::Native(provider.clone()),
        });
        self.register(entries.collect())
    }

    /// Adds `entries`, or none of them when one id is already taken.
    fn register(&mut self, entries: Vec<Entry>) -> Result<()> {
        for entry in &entries {
            if let Some(first) = self.ids.get(entry.id()) {
                return Err(Error::DuplicateId {
                    id: entry.id().to_owned(),
                    first: first.provider.source(),
                    second: entry.provider.source(),
                });
            }
        }
        for entry in entries {
            self.ids.insert(entry.id().to_owned(), entry);
        }
        Ok(())
    }

    /// Loads a `.wasm` plugin file.
    pub fn add_file(&mut self, path: &Path) -> Result<Arc<Plugin>> {
        let wasm = std::fs::read(path).map_err(|source| Error::Io {
            context: format!("reading plugin {}", path.display()),
            source,
        })?;
        self.add_bytes(PluginSource::File(path.to_path_buf()), &wasm)
    }

    /// Loads every `*.wasm` file in `dir` (sorted by name).
    pub fn add_dir(&mut self, dir: &Path) -> Result<Vec<Arc<Plugin>>> {
        let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
            context: format!("reading plugin directory {}", dir.display()),
            source,
        })?;
        let mut files: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|ext| ext == "wasm"))
            .collect();
        files.sort();
        files.iter().map(|path| self.add_file(path)).collect()
    }

    /// The runtime the plugins run on.
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// Every loaded plugin.
    pub fn plugins(&self) -> &[Arc<Plugin>] {
        &self.plugins
    }

    /// Every id (envs, tools and wrappers), sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.ids.keys().map(String::as_str)
    }

    /// Every registered id with its spec, kind and provider, sorted by id.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.ids.values()
    }

    /// The ids of one kind, sorted.
    pub fn ids_of(&self, kind: PluginKind) -> impl Iterator<Item = &str> {
        self.ids
            .values()
            .filter(move |entry| entry.kind == kind)
            .map(Entry::id)
    }

    /// The entry of `id`, or [`Error::UnknownEnv`] with close ids.
    pub fn lookup(&self, id: &str) -> Result<&Entry> {
        self.ids.get(id).ok_or_else(|| Error::UnknownEnv {
            id: id.to_owned(),
            suggestions: self.suggest(id),
            left_out: self.left_out.get(id).cloned(),
        })
    }

    /// Records that this build leaves `id` out (a feature turned off), and `why`: asking for
    /// it then fails with that reason instead of "unknown id".
    pub fn leave_out(&mut self, id: &str, why: &str) {
        self.left_out.insert(id.to_owned(), why.to_owned());
    }

    fn suggest(&self, id: &str) -> Vec<String> {
        let wanted = id.to_lowercase();
        let mut close: Vec<(usize, &str)> = self
            .ids
            .keys()
            .map(String::as_str)
            .filter_map(|known| {
                let lower = known.to_lowercase();
                let distance = strsim::levenshtein(&wanted, &lower);
                let related = lower.contains(&wanted) || wanted.contains(&lower);
                (related || distance <= 3.max(wanted.len() / 5)).then_some((distance, known))
            })
            .collect();
        close.sort();
        let best = close.first().map_or(0, |(d, _)| *d);
        close
            .into_iter()
            .take_while(|(d, _)| *d <= best + 1)
            .take(3)
            .map(|(_, id)| id.to_owned())
            .collect()
    }

    /// Makes env `id`, whoever provides it, and wraps it in `options.wrappers` (in order).
    /// `options` may be a full [`MakeOptions`] or just the config overrides (`&json!({..})`).
    pub fn make(&self, id: &str, options: impl Into<MakeOptions>) -> Result<Box<dyn Env>> {
        let options = options.into();
        for dir in &options.data_dirs {
            self.runtime.datasets().add_root(dir)?;
        }
        let mut env = self.make_bare(id, &options.overrides, &options.limits)?;
        for spec in &options.wrappers {
            env = self.wrap(env, spec, &options.limits)?;
        }
        Ok(env)
    }

    /// Makes env `id` without wrappers.
    pub(crate) fn make_bare(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        let entry = self.lookup(id)?.expect_kind(PluginKind::Env)?;
        match &entry.provider {
            Provider::Native(native) => native.make_env(&self.runtime, id, overrides, limits),
            Provider::Plugin(_) => Ok(Box::new(ComponentEnv::make(self, id, overrides, limits)?)),
        }
    }

    /// Makes tool `id`, whoever provides it.
    pub fn make_tool(&self, id: &str, overrides: &Value, limits: &Limits) -> Result<Box<dyn Tool>> {
        let entry = self.lookup(id)?.expect_kind(PluginKind::Tool)?;
        if let Provider::Native(native) = &entry.provider {
            return native.make_tool(&self.runtime, id, overrides, limits);
        }
        let (plugin, config) = self.resolve(id, PluginKind::Tool, overrides)?;
        Ok(Box::new(ComponentTool::new(
            plugin,
            id,
            config,
            limits.clone(),
        )?))
    }

    /// Makes multi-agent env `id` (from a multi-agent plugin).
    pub fn make_multiagent(
        &self,
        id: &str,
        overrides: &Value,
        limits: &Limits,
    ) -> Result<Box<dyn crate::MultiAgentEnv>> {
        let (plugin, config) = self.resolve(id, PluginKind::MultiAgent, overrides)?;
        Ok(Box::new(crate::ComponentMultiAgentEnv::new(
            plugin,
            id,
            config,
            limits.clone(),
        )?))
    }

    /// Makes wrapper `id` (from a wrapper plugin) over `inner` (what [`Registry::wrap`] does
    /// for a [`WrapperSpec::Plugin`](crate::WrapperSpec::Plugin)).
    pub(crate) fn make_wrapper(
        &self,
        id: &str,
        overrides: &Value,
        limits: Limits,
        inner: Box<dyn Env>,
    ) -> Result<ComponentWrapper> {
        let (plugin, config) = self.resolve(id, PluginKind::Wrapper, overrides)?;
        ComponentWrapper::new(plugin, id, config, limits, inner)
    }

    /// The plugin providing `id` as a `kind`, and the merged configuration as JSON.
    pub(crate) fn resolve(
        &self,
        id: &str,
        kind: PluginKind,
        overrides: &Value,
    ) -> Result<(Arc<Plugin>, String)> {
        let entry = self.lookup(id)?.expect_kind(kind)?;
        let Provider::Plugin(plugin) = &entry.provider else {
            return Err(Error::Internal(format!(
                "`{id}` is not provided by a plugin"
            )));
        };
        let config = merge(id, &entry.spec.default_config, overrides)?;
        self.load_dataset_file(id, &config, overrides)?;
        Ok((plugin.clone(), Value::Object(config).to_string()))
    }

    /// Loads the file named by the configuration's `dataset` key, when it names a file (a
    /// `.jsonl`, `.json` or `.parquet` path), so the plugin can read it by that name (a name
    /// already loaded is kept). A path from the user's `overrides` may be absolute or start with
    /// `~/`; a plugin's own default stays inside the data directories.
    fn load_dataset_file(
        &self,
        id: &str,
        config: &Map<String, Value>,
        overrides: &Value,
    ) -> Result<()> {
        let Some(Value::String(name)) = config.get(DATASET_KEY) else {
            return Ok(());
        };
        let is_file = [".jsonl", ".json", ".parquet"]
            .iter()
            .any(|ext| name.ends_with(ext));
        if !is_file {
            return Ok(());
        }
        let datasets = self.runtime.datasets();
        let loaded = if overrides.get(DATASET_KEY) == Some(&Value::String(name.clone())) {
            datasets.load_user_path(name, name)
        } else {
            datasets.load(name, Path::new(name))
        };
        loaded.map(drop).map_err(|e| Error::BadConfig {
            id: id.to_owned(),
            key: DATASET_KEY.to_owned(),
            message: e.to_string(),
        })
    }
}
