//! Where the SDKs and the WIT contract are read from: the geode checkout this binary was built
//! from, or `GEODE_SOURCE_DIR`.

use anyhow::{Result, bail};
use std::path::PathBuf;

/// The contract version plugins are built against.
pub const CONTRACT_DIR: &str = "wit/v0.1.0";

/// The root of the geode sources (holds `sdk/` and `wit/`).
pub fn root() -> Result<PathBuf> {
    let root = match std::env::var_os("GEODE_SOURCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")),
    };
    let Ok(root) = root.canonicalize() else {
        bail!(
            "the geode sources ({}) are gone; set GEODE_SOURCE_DIR to a geode checkout",
            root.display()
        );
    };
    if !root.join(CONTRACT_DIR).is_dir() {
        bail!(
            "{} is not a geode checkout (no {CONTRACT_DIR}); set GEODE_SOURCE_DIR",
            root.display()
        );
    }
    Ok(root)
}

/// The WIT contract directory.
pub fn wit() -> Result<PathBuf> {
    Ok(root()?.join(CONTRACT_DIR))
}

/// The SDK of one language (`sdk/python`, `sdk/js`, `sdk/c`, `sdk/rust`).
pub fn sdk(language: &str) -> Result<PathBuf> {
    Ok(root()?.join("sdk").join(language))
}
