//! `geode list`.

use anyhow::Result;
use geode_runtime::Registry;

/// GEM's ReasoningGym ids are not plugins: the Python package runs them in the host's Python.
const RG_NOTE: &str = "\nrg:* (GEM's 104 ReasoningGym ids): provided by the Python package with the rg \
extra (pip install 'geode[rg]'), run in the host's Python; not available from the CLI";

/// Prints one row per id: id, kind (env, tool, wrapper, multiagent), provider, description. Ids the host
/// provides itself (code envs, `tool:python`) show their native provider. A last note says
/// where the `rg:*` ids are.
pub fn print(registry: &Registry) -> Result<()> {
    let mut rows: Vec<[String; 4]> = registry
        .entries()
        .map(|entry| {
            [
                entry.spec.id.clone(),
                entry.kind.to_string(),
                entry.provider.source(),
                entry.spec.description.clone(),
            ]
        })
        .collect();
    rows.sort_by(|a, b| (&a[1], &a[0]).cmp(&(&b[1], &b[0])));
    let id_width = rows.iter().map(|r| r[0].len()).max().unwrap_or(2).max(2);
    let kind_width = rows.iter().map(|r| r[1].len()).max().unwrap_or(4).max(4);
    let plugin_width = rows.iter().map(|r| r[2].len()).max().unwrap_or(6).max(6);
    println!(
        "{:id_width$}  {:kind_width$}  {:plugin_width$}  DESCRIPTION",
        "ID", "KIND", "PLUGIN"
    );
    for [id, kind, plugin, description] in rows {
        println!("{id:id_width$}  {kind:kind_width$}  {plugin:plugin_width$}  {description}");
    }
    println!("{RG_NOTE}");
    Ok(())
}
