//! Rust plugins: a cdylib crate depending on `geode-sdk`, compiled by cargo for
//! `wasm32-wasip2` (a component already) into the shared toolchain target directory.
//!
//! In that directory a cdylib's file is named after its crate alone, so two projects with
//! crates of one name (every `geode new NAME` of the same NAME) write the same file, and cargo,
//! finding its own records of the second project up to date, would leave the first one's
//! component there. So each build first removes the crate's own artifacts (`cargo clean -p`):
//! the crate is compiled again, its dependencies are not.

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
    let (package, artifact) = artifact(&project.dir, &target_dir)?;
    let cargo = |args: &[&str]| {
        let mut command = Command::new("cargo");
        command
            .args(args)
            .args(["--release", "--target", TARGET, "--manifest-path"])
            .arg(project.dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target_dir)
            .env_remove("RUSTFLAGS");
        run(&mut command)
    };
    if target_dir.exists() {
        cargo(&["clean", "-p", &package])?;
    }
    cargo(&["build"])?;
    std::fs::copy(&artifact, out).with_context(|| format!("copying {}", artifact.display()))?;
    Ok(())
}

/// The crate's package name, and where cargo puts its component.
fn artifact(dir: &Path, target_dir: &Path) -> Result<(String, PathBuf)> {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml"))?;
    let Some(name) = manifest.lines().find_map(|line| {
        let value = line
            .trim()
            .strip_prefix("name")?
            .trim_start()
            .strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_owned())
    }) else {
        bail!("Cargo.toml names no package");
    };
    let file = format!("{}.wasm", name.replace('-', "_"));
    Ok((name, target_dir.join(TARGET).join("release").join(file)))
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
