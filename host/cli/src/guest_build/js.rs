//! JavaScript plugins: `plugin.js` (an ES module exporting its `Env` subclasses) and the
//! modules it imports, with `sdk/js` as the package `geode-sdk`, snapshotted with QuickJS into
//! a component by componentize-qjs.

use super::toolchains::{Toolchains, copy_tree, run};
use super::{Project, componentize, sources};
use anyhow::Result;
use std::path::Path;
use std::process::Command;

/// The module componentize-qjs starts from: the plugin's envs behind the SDK's glue.
const ENTRY: &str = "import * as plugin from \"./plugin.js\";\n\
                     import { contract } from \"geode-sdk/contract.js\";\n\
                     export const env = contract(plugin);\n";

/// Builds `project` into the component `out`.
pub fn build(project: &Project, tools: &Toolchains, out: &Path) -> Result<()> {
    let qjs = tools.componentize_qjs()?;
    let stage = project.stage("js")?;
    copy_tree(&project.dir, &stage)?;
    copy_tree(&sources::sdk("js")?, &stage.join("node_modules/geode-sdk"))?;
    let entry = stage.join("geode-entry.js");
    std::fs::write(&entry, ENTRY)?;
    run(Command::new(qjs)
        .arg("--sync")
        .arg("--wit")
        .arg(sources::wit()?)
        .args(["--world", componentize::WORLD])
        .arg("--js")
        .arg(&entry)
        .arg("--module-root")
        .arg(&stage)
        .arg("-o")
        .arg(out))
}
