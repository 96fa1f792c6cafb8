//! Python plugins: `plugin.py` (its `Env` subclasses), the modules beside it, the packages of
//! `requirements.txt` (pure Python, installed with pip at build time) and `sdk/python`, frozen
//! with CPython into a component by componentize-py.

use super::toolchains::{Toolchains, copy_tree, pip_install, run};
use super::{Kind, Project, sources};
use anyhow::Result;
use std::path::Path;
use std::process::Command;

/// The module componentize-py starts from: loads the plugin, then exports the SDK's glue for
/// the project's kind (a class named after each of the world's exports).
fn entry(kind: Kind) -> &'static str {
    match kind {
        Kind::Env => {
            "import plugin  # noqa: F401  (defines the Env subclasses)\n\
             from geode_sdk.contract import Env  # noqa: F401  (the `env` export)\n\
             from geode_sdk.batch import Batch  # noqa: F401  (the `batch` export)\n"
        }
        Kind::MultiAgent => {
            "import plugin  # noqa: F401  (defines the MultiAgentEnv subclasses)\n\
             from geode_sdk.multiagent_contract import Multiagent  # noqa: F401  (the export)\n"
        }
    }
}

/// Builds `project` into the component `out`.
pub fn build(project: &Project, tools: &Toolchains, out: &Path) -> Result<()> {
    let venv = tools.componentize_py()?;
    let stage = project.stage("python")?;
    std::fs::write(stage.join("geode_entry.py"), entry(project.kind))?;
    // A copy without build outputs: componentize-py embeds whole path directories.
    let source = stage.join("src");
    copy_tree(&project.dir, &source)?;
    let deps = stage.join("deps");
    std::fs::create_dir_all(&deps)?;
    let requirements = project.dir.join("requirements.txt");
    if has_requirements(&requirements) {
        run(pip_install(&venv)
            .args(["--no-compile", "--target"])
            .arg(&deps)
            .arg("-r")
            .arg(&requirements)
            .current_dir(&project.dir))?;
    }
    run(Command::new(venv.join("bin/componentize-py"))
        .env_remove("VIRTUAL_ENV")
        // The plugin's Python traceback, not componentize-py's native backtrace, ends the log.
        .env("RUST_BACKTRACE", "0")
        .arg("--quiet")
        .arg("-d")
        .arg(sources::wit()?)
        .arg("-w")
        .arg(project.kind.world())
        .args(["componentize", "geode_entry"])
        .arg("-p")
        .arg(&stage)
        .arg("-p")
        .arg(&source)
        .arg("-p")
        .arg(sources::sdk("python")?)
        .arg("-p")
        .arg(&deps)
        .arg("-o")
        .arg(out))
}

/// True when the requirements file names at least one package.
fn has_requirements(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .any(|l| !l.is_empty())
    })
}
