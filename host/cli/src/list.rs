//! `geode list`.

use anyhow::Result;
use geode_runtime::Registry;

/// Prints one row per id: id, plugin, description.
pub fn print(registry: &Registry) -> Result<()> {
    let rows: Vec<(String, String, String)> = registry
        .plugins()
        .iter()
        .flat_map(|plugin| {
            plugin.specs().iter().map(|spec| {
                (
                    spec.id.clone(),
                    plugin.source().to_string(),
                    spec.description.clone(),
                )
            })
        })
        .collect();
    let id_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(2).max(2);
    let plugin_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(6).max(6);
    println!(
        "{:id_width$}  {:plugin_width$}  DESCRIPTION",
        "ID", "PLUGIN"
    );
    let mut sorted = rows;
    sorted.sort();
    for (id, plugin, description) in sorted {
        println!("{id:id_width$}  {plugin:plugin_width$}  {description}");
    }
    Ok(())
}
