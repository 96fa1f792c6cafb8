//! Compiles geode guest crates (plugins, test plugins) to `wasm32-wasip2` components from a
//! build script, so a plain `cargo build`, `cargo run` or `cargo test` of the host builds them too.
//!
//! It installs the `wasm32-wasip2` target when it is missing (rustup does not add targets listed
//! in a toolchain file to an existing toolchain), runs a nested `cargo build` into its own target
//! directory (`target/plugins`, so it never waits on the outer build's lock) and tells cargo to
//! rerun when the guest sources, the SDK or the WIT contract change. Cargo's own incremental
//! build is the cache: unchanged plugins are not recompiled.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The guest target every plugin is compiled for.
pub const GUEST_TARGET: &str = "wasm32-wasip2";
/// The cargo profile guest crates are compiled with (defined in the workspace `Cargo.toml`).
pub const GUEST_PROFILE: &str = "plugin";

/// A guest crate to compile: its package name and its directory.
#[derive(Debug, Clone)]
pub struct GuestCrate {
    /// The cargo package name.
    pub package: String,
    /// The crate's directory (watched for changes).
    pub dir: PathBuf,
}

impl GuestCrate {
    /// The component file the build produces for this crate.
    pub fn artifact(&self, root: &Path) -> PathBuf {
        let file = format!("{}.wasm", self.package.replace('-', "_"));
        root.join("target/plugins")
            .join(GUEST_TARGET)
            .join(GUEST_PROFILE)
            .join(file)
    }
}

/// The workspace root: the nearest ancestor of `start` whose `Cargo.toml` has `[workspace]`.
pub fn workspace_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .is_ok_and(|text| text.contains("[workspace]"))
        })
        .unwrap_or_else(|| panic!("no workspace Cargo.toml above {}", start.display()))
        .to_path_buf()
}

/// Every crate directly under `dir` (each subdirectory with a `Cargo.toml`), sorted by name.
pub fn crates_in(dir: &Path) -> Vec<GuestCrate> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let manifest = entry.path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        if let Some(package) = package_name(&text) {
            found.push(GuestCrate {
                package,
                dir: entry.path(),
            });
        }
    }
    found.sort_by(|a, b| a.package.cmp(&b.package));
    found
}

fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package && let Some(value) = line.strip_prefix("name") {
            let value = value.trim_start().strip_prefix('=')?.trim();
            return Some(value.trim_matches('"').to_owned());
        }
    }
    None
}

/// Compiles `crates` to components and returns `(package, component path)` pairs.
///
/// Call from a build script. Panics with the nested build's output when it fails, which is how a
/// build script reports an error.
pub fn build_guests(root: &Path, crates: &[GuestCrate]) -> Vec<(String, PathBuf)> {
    for watched in [
        root.join("wit"),
        root.join("sdk/rust"),
        root.join("sdk/games"),
        root.join("sdk/order"),
        root.join("Cargo.lock"),
    ] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    for krate in crates {
        println!("cargo:rerun-if-changed={}", krate.dir.display());
    }
    if crates.is_empty() {
        return Vec::new();
    }
    ensure_guest_target();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args([
            "build",
            "--profile",
            GUEST_PROFILE,
            "--target",
            GUEST_TARGET,
        ])
        .arg("--target-dir")
        .arg(root.join("target/plugins"));
    for krate in crates {
        cmd.args(["-p", &krate.package]);
    }
    scrub_outer_build_env(&mut cmd);
    let output = cmd
        .output()
        .expect("failed to start the nested cargo build of guest plugins");
    if !output.status.success() {
        panic!(
            "building guest plugins failed:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    crates
        .iter()
        .map(|k| (k.package.clone(), k.artifact(root)))
        .collect()
}

/// Removes the variables cargo sets for the outer build script so they do not leak into the
/// nested build (wrong target, clippy as a wrapper, the outer jobserver, host-only flags).
fn scrub_outer_build_env(cmd: &mut Command) {
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        let outer = key.starts_with("CARGO_CFG_")
            || key.starts_with("CARGO_FEATURE_")
            || key.starts_with("CARGO_PKG_")
            || key.starts_with("DEP_")
            || matches!(
                key,
                "CARGO_TARGET_DIR"
                    | "CARGO_BUILD_TARGET"
                    | "CARGO_BUILD_TARGET_DIR"
                    | "CARGO_ENCODED_RUSTFLAGS"
                    | "CARGO_BUILD_RUSTFLAGS"
                    | "RUSTFLAGS"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "RUSTC_WRAPPER"
                    | "CARGO_MAKEFLAGS"
                    | "MAKEFLAGS"
                    | "MFLAGS"
                    | "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_PRIMARY_PACKAGE"
                    | "CARGO_CRATE_NAME"
                    | "OUT_DIR"
                    | "TARGET"
                    | "HOST"
                    | "PROFILE"
                    | "OPT_LEVEL"
                    | "DEBUG"
                    | "NUM_JOBS"
                    | "RUSTC_LINKER"
                    | "RUSTDOC"
            );
        if outer {
            cmd.env_remove(key);
        }
    }
}

/// Adds the guest target to the active toolchain when it is not installed (idempotent).
fn ensure_guest_target() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if let Some(sysroot) = &sysroot
        && sysroot.join("lib/rustlib").join(GUEST_TARGET).exists()
    {
        return;
    }
    let status = Command::new("rustup")
        .args(["target", "add", GUEST_TARGET])
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => panic!(
            "the {GUEST_TARGET} target is missing and `rustup target add {GUEST_TARGET}` failed ({other:?}); \
             install it by hand and build again"
        ),
    }
}
