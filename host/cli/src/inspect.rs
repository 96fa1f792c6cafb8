//! `geode inspect`: what a plugin file provides.

use anyhow::Result;
use geode_runtime::{Registry, Runtime};
use std::path::Path;

/// Loads `file` alone and prints its contract version, size, hash, ids and default configs.
pub fn inspect(file: &Path) -> Result<()> {
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
