//! JavaScript plugins: `plugin.js` (an ES module exporting its `Env` subclasses) and the
//! modules it imports, with `sdk/js` as the package `geode-sdk`, snapshotted with QuickJS into
//! a component by componentize-qjs.

use super::toolchains::{Toolchains, copy_tree, run};
use super::{Kind, Project, sources};
use anyhow::Result;
use std::path::Path;
use std::process::Command;

/// The world JavaScript plugins target: the kind's world plus WASI randomness, which QuickJS
/// does not expose (`Math.random` is frozen in the build-time snapshot): the SDK seeds unseeded
/// generators from it, and the host seeds and records it.
fn world(kind: Kind) -> String {
    format!(
        "package geode:js-plugin;\n\n\
         world {WORLD} {{\n    \
         include geode:env/{}@0.1.0;\n    \
         import wasi:random/random@0.2.0;\n}}\n",
        kind.world()
    )
}

/// The name of that world.
const WORLD: &str = "js-plugin";

/// The one WASI interface the world names (its standard definition, trimmed to what is used).
const WASI_RANDOM: &str = "package wasi:random@0.2.0;\n\n\
                           interface random {\n    \
                           get-random-u64: func() -> u64;\n}\n";

/// The module componentize-qjs starts from: the plugin's envs behind the SDK's glue for the
/// project's kind, exported under the world's export names.
fn entry_module(kind: Kind) -> &'static str {
    match kind {
        Kind::Env => {
            "import * as plugin from \"./plugin.js\";\n\
             import { contract } from \"geode-sdk/contract.js\";\n\
             import { batch as batchExport } from \"geode-sdk/batch.js\";\n\
             export const env = contract(plugin);\n\
             export const batch = batchExport;\n"
        }
        Kind::MultiAgent => {
            "import * as plugin from \"./plugin.js\";\n\
             import { multiagentContract } from \"geode-sdk/multiagent_contract.js\";\n\
             export const multiagent = multiagentContract(plugin);\n"
        }
    }
}

/// Builds `project` into the component `out`.
pub fn build(project: &Project, tools: &Toolchains, out: &Path) -> Result<()> {
    let qjs = tools.componentize_qjs()?;
    let stage = project.stage("js")?;
    copy_tree(&project.dir, &stage)?;
    copy_tree(&sources::sdk("js")?, &stage.join("node_modules/geode-sdk"))?;
    let wit = stage.join(".wit");
    copy_tree(&sources::wit()?, &wit.join("deps/geode-env"))?;
    std::fs::create_dir_all(wit.join("deps/wasi-random"))?;
    std::fs::write(wit.join("deps/wasi-random/random.wit"), WASI_RANDOM)?;
    std::fs::write(wit.join("world.wit"), world(project.kind))?;
    let entry = stage.join("geode-entry.js");
    std::fs::write(&entry, entry_module(project.kind))?;
    run(Command::new(qjs)
        .arg("--sync")
        .arg("--wit")
        .arg(&wit)
        .args(["--world", WORLD])
        .arg("--js")
        .arg(&entry)
        .arg("--module-root")
        .arg(&stage)
        .arg("-o")
        .arg(out))
}
