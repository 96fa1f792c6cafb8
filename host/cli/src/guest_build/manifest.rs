//! `geode.json`: what a plugin project declares about itself beyond its sources. Today one
//! field, `kind`: `"env"` (the default, also when the file is absent) or `"multiagent"`. The
//! kind picks the WIT world a project is built against and the SDK glue that exports it;
//! `geode new --kind multiagent` writes the file.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::Path;

/// The manifest's file name, in the project directory.
pub const FILE: &str = "geode.json";

/// What a plugin provides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Single-agent environments (the `batched-env-plugin` world: the `env` export, and `batch`,
    /// which steps several envs of one instance per call).
    #[default]
    Env,
    /// Multi-agent environments (the `multiagent-plugin` world).
    #[value(name = "multiagent")]
    #[serde(rename = "multiagent")]
    MultiAgent,
}

impl Kind {
    /// The WIT world a plugin of this kind implements.
    pub fn world(self) -> &'static str {
        match self {
            Kind::Env => "batched-env-plugin",
            Kind::MultiAgent => "multiagent-plugin",
        }
    }

    /// The interface the world exports (`env`, `multiagent`).
    pub fn export(self) -> &'static str {
        match self {
            Kind::Env => "env",
            Kind::MultiAgent => "multiagent",
        }
    }

    /// The manifest text `geode new` writes for this kind.
    pub fn manifest(self) -> String {
        format!("{{\n  \"kind\": \"{}\"\n}}\n", self.export())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    #[serde(default)]
    kind: Kind,
}

/// The kind the project in `dir` declares (`Kind::Env` without a manifest).
pub fn kind(dir: &Path) -> Result<Kind> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Kind::Env),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let manifest: Manifest = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: expected {{\"kind\": \"env\"}} or {{\"kind\": \"multiagent\"}}",
            path.display()
        )
    })?;
    Ok(manifest.kind)
}

/// Checks that `component` exports the interface of `kind`: a project whose code and
/// `geode.json` disagree (a Rust crate calling `export_env!` in a multi-agent project, say)
/// fails its build instead of loading as the other kind.
pub fn check_component(kind: Kind, component: &[u8]) -> Result<()> {
    let exports = exports(component)?;
    let want = format!("geode:env/{}@", kind.export());
    if exports.iter().any(|e| e.starts_with(&want)) {
        return Ok(());
    }
    bail!(
        "{FILE} says the kind is `{}`, but the component exports {} and not {want}..: make the \
         code and {FILE} agree",
        kind.export(),
        exports.join(", ")
    )
}

/// The names of the interfaces `component` exports (`geode:env/env@0.1.0`, ...).
pub fn exports(component: &[u8]) -> Result<Vec<String>> {
    use wit_parser::decoding::{DecodedWasm, decode};
    let DecodedWasm::Component(resolve, world) =
        decode(component).context("reading the component's interface")?
    else {
        bail!("a WIT package, not a component");
    };
    Ok(resolve.worlds[world]
        .exports
        .keys()
        .map(|key| resolve.name_world_key(key))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_names_the_kind_and_defaults_to_env() {
        let dir = std::env::temp_dir().join(format!("geode-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(kind(&dir).unwrap(), Kind::Env);
        std::fs::write(dir.join(FILE), Kind::MultiAgent.manifest()).unwrap();
        assert_eq!(kind(&dir).unwrap(), Kind::MultiAgent);
        std::fs::write(dir.join(FILE), "{\"kind\": \"robot\"}").unwrap();
        let error = format!("{:#}", kind(&dir).unwrap_err());
        assert!(error.contains("expected"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
