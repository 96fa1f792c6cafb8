//! `geode inspect`: what a plugin file, or one env or tool id, provides.

use anyhow::{Result, bail};
use geode_runtime::{EnvSpec, Provider, Registry, Runtime};
use std::path::Path;

/// Describes `target`: a plugin file (loaded alone), else an id of the standard registry plus
/// `sources` (a plugin's id or one the host provides natively, such as `code:CodeContest`).
pub fn inspect(sources: &crate::Sources, target: &str) -> Result<()> {
    let path = Path::new(target);
    if path.is_file() || target.ends_with(".wasm") {
        return inspect_file(path);
    }
    let registry = crate::registry(sources)?;
    let entry = registry.lookup(target)?;
    println!("id         {}", entry.spec.id);
    println!("kind       {}", entry.kind);
    println!("plugin     {}", entry.provider.source());
    if let Provider::Plugin(plugin) = &entry.provider {
        println!("contract   geode:env@{}", plugin.contract_version());
    }
    print_spec(&entry.spec);
    Ok(())
}

/// Loads `file` alone and prints its contract version, size, hash, ids and default configs.
fn inspect_file(file: &Path) -> Result<()> {
    if !file.is_file() {
        bail!("no plugin file at {}", file.display());
    }
    let mut registry = Registry::empty(Runtime::new()?);
    let plugin = registry.add_file(file)?;
    println!("plugin     {}", file.display());
    println!("contract   geode:env@{}", plugin.contract_version());
    println!("size       {} bytes", plugin.size());
    println!("sha256     {}", plugin.sha256());
    println!("ids        {}", plugin.specs().len());
    for spec in plugin.specs() {
        println!();
        println!("  {}", spec.id);
        println!("    {}", spec.description);
        println!(
            "    default config: {}",
            serde_json::Value::Object(spec.default_config.clone())
        );
    }
    Ok(())
}

/// The description and default configuration of one id.
fn print_spec(spec: &EnvSpec) {
    println!("about      {}", spec.description);
    println!(
        "config     {}",
        serde_json::Value::Object(spec.default_config.clone())
    );
}
