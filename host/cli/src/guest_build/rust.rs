//! Rust plugins: a cdylib crate depending on `geode-sdk`, compiled by cargo for
//! `wasm32-wasip2` (a component already) into the shared toolchain target directory.

use super::Project;
use super::toolchains::{Toolchains, run};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The guest target.
const TARGET: &str = "wasm32-wasip2";

/// Builds `project` into the component `out`.
pub fn build(project: &Project, tools: &Toolchains, out: &Path) -> Result<()> {
    ensure_target()?;
    let target_dir = tools.rust_target();
    run(Command::new("cargo")
        .args(["build", "--release", "--target", TARGET, "--manifest-path"])
        .arg(project.dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target_dir)
        .env_remove("RUSTFLAGS"))?;
    let artifact = artifact(&project.dir, &target_dir)?;
    std::fs::copy(&artifact, out).with_context(|| format!("copying {}", artifact.display()))?;
    Ok(())
}

/// Where cargo put the crate's component.
fn artifact(dir: &Path, target_dir: &Path) -> Result<PathBuf> {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml"))?;
    let Some(name) = manifest.lines().find_map(|line| {
        let value = line
            .trim()
            .strip_prefix("name")?
            .trim_start()
            .strip_prefix('=')?;
        Some(value.trim().trim_matches('"').replace('-', "_"))
    }) else {
        bail!("Cargo.toml names no package");
    };
    Ok(target_dir
        .join(TARGET)
        .join("release")
        .join(format!("{name}.wasm")))
}

/// Adds the guest target to the toolchain when it is missing (idempotent).
fn ensure_target() -> Result<()> {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib").join(TARGET).exists() {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", TARGET]))
}
