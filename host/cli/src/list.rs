//! `geode list`.

use anyhow::Result;
use geode_runtime::Registry;
use geode_runtime::sandbox::NATIVE_SOURCE;

/// Prints one row per id: id, kind (env, tool, wrapper), plugin, description. Ids the host
/// provides itself (code envs, `tool:python`) show [`NATIVE_SOURCE`] as their plugin.
pub fn print(registry: &Registry) -> Result<()> {
    let mut rows: Vec<[String; 4]> = Vec::new();
    for plugin in registry.plugins() {
        for spec in plugin.specs() {
            let kind = plugin.kind().to_string();
            let source = plugin.source().to_string();
            rows.push([spec.id.clone(), kind, source, spec.description.clone()]);
        }
    }
    let native = |kind: &str, (id, description): (&str, &str)| {
        [id, kind, NATIVE_SOURCE, description].map(str::to_owned)
    };
    rows.extend(registry.native_env_ids().map(|ids| native("env", ids)));
    rows.extend(registry.native_tool_ids().map(|ids| native("tool", ids)));
    rows.sort_by(|a, b| (&a[1], &a[0]).cmp(&(&b[1], &b[0])));
    let id_width = rows.iter().map(|r| r[0].len()).max().unwrap_or(2).max(2);
    let plugin_width = rows.iter().map(|r| r[2].len()).max().unwrap_or(6).max(6);
    println!(
        "{:id_width$}  {:7}  {:plugin_width$}  DESCRIPTION",
        "ID", "KIND", "PLUGIN"
    );
    for [id, kind, plugin, description] in rows {
        println!("{id:id_width$}  {kind:7}  {plugin:plugin_width$}  {description}");
    }
    Ok(())
}
