//! C plugins: `plugin.c` and every other `.c` file of the project, compiled with `sdk/c` (its
//! shared sources and the glue of the project's kind, `src/glue/<export>.c`, plus `batch.c` for
//! env plugins) and the contract's generated bindings by `zig cc` (clang with wasi-libc) for
//! `wasm32-wasi`, then adapted to a component.

use super::toolchains::{Toolchains, run};
use super::{Kind, Project, componentize, sources};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Builds `project` into the component `out`.
pub fn build(project: &Project, tools: &Toolchains, out: &Path) -> Result<()> {
    let mut zig = tools.zig()?;
    let stage = project.stage("c")?;
    componentize::c_bindings(&stage, project.kind)?;
    let sdk = sources::sdk("c")?;
    let module = stage.join("module.wasm");
    let mut sources = c_files(&project.dir)?;
    sources.extend(c_files(&sdk.join("src"))?);
    let glue = sdk.join("src/glue");
    sources.push(glue.join(format!("{}.c", project.kind.export())));
    if project.kind == Kind::Env {
        sources.push(glue.join("batch.c"));
    }
    sources.push(stage.join(format!("{}.c", componentize::c_stem(project.kind))));
    run(zig
        .args([
            "cc",
            "-target",
            "wasm32-wasi",
            "-mexec-model=reactor",
            "-O2",
            "-s", // no debug sections: a smaller component
        ])
        .args([
            "-std=gnu11",
            "-Wall",
            "-Werror=implicit-function-declaration",
        ])
        .arg("-I")
        .arg(sdk.join("include"))
        .arg("-I")
        .arg(&stage)
        .args(&sources)
        .arg("-o")
        .arg(&module))?;
    let module = std::fs::read(&module).context("reading the compiled module")?;
    std::fs::write(out, componentize::component(&module, project.kind)?)?;
    Ok(())
}

/// The `.c` files directly in `dir`, sorted.
fn c_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    Ok(files)
}
