//! The build cache: a component is rebuilt only when a hash of its inputs changed.

use super::{Language, Project, sources, toolchains};
use anyhow::Result;
use sha2::{Digest, Sha256};
use std::path::Path;

/// Directories never hashed: build outputs and dependency trees.
const SKIPPED: &[&str] = &["build", "target", "node_modules", ".git", "__pycache__"];

/// How components are built (flags, staging, glue): a change rebuilds every project.
const RECIPE: &[&str] = &[
    include_str!("c.rs"),
    include_str!("componentize.rs"),
    include_str!("js.rs"),
    include_str!("python.rs"),
    include_str!("rust.rs"),
];

/// A hash of everything the project's component depends on.
pub fn fingerprint(project: &Project) -> Result<String> {
    let mut hasher = Sha256::new();
    hasher.update(format!("{:?}\n", project.language));
    hasher.update(toolchains::versions());
    for source in RECIPE {
        hasher.update(source);
    }
    hash_tree(&mut hasher, &project.dir, &project.dir)?;
    let sdk = match project.language {
        Language::Rust => "rust",
        Language::Python => "python",
        Language::Js => "js",
        Language::C => "c",
    };
    let sdk = sources::sdk(sdk)?;
    hash_tree(&mut hasher, &sdk, &sdk)?;
    let wit = sources::wit()?;
    hash_tree(&mut hasher, &wit, &wit)?;
    Ok(hex::encode(hasher.finalize()))
}

fn hash_tree(hasher: &mut Sha256, root: &Path, dir: &Path) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        if SKIPPED.iter().any(|s| name == *s) {
            continue;
        }
        if path.is_dir() {
            hash_tree(hasher, root, &path)?;
        } else if path.is_file() {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            hasher.update(relative.to_string_lossy().as_bytes());
            hasher.update([0]);
            hasher.update(std::fs::read(&path)?);
            hasher.update([0]);
        }
    }
    Ok(())
}

fn stamp_path(out: &Path) -> std::path::PathBuf {
    out.with_extension("stamp")
}

/// True when `out` exists and was built from inputs with this fingerprint.
pub fn fresh(out: &Path, fingerprint: &str) -> bool {
    out.is_file() && std::fs::read_to_string(stamp_path(out)).is_ok_and(|s| s.trim() == fingerprint)
}

/// Records that `out` was built from inputs with this fingerprint.
pub fn write(out: &Path, fingerprint: &str) -> Result<()> {
    std::fs::write(stamp_path(out), fingerprint)?;
    Ok(())
}
