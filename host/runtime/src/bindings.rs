//! Host-side bindings of the `geode:env@0.1.0` worlds, generated from `wit/v0.1.0`. The tool
//! and wrapper worlds reuse the env world's shared types and host interfaces.

/// The env world: what an env plugin exports and the host imports it may call.
pub mod env_world {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "env-plugin",
    });
}

/// The tool world.
pub mod tool_world {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "tool-plugin",
        with: {
            "geode:env/types": super::env_world::geode::env::types,
            "geode:env/log": super::env_world::geode::env::log,
            "geode:env/dataset": super::env_world::geode::env::dataset,
            "geode:env/sandbox": super::env_world::geode::env::sandbox,
        },
    });
}

/// The wrapper world: exports the wrapper, imports the wrapped env as `inner`.
pub mod wrapper_world {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "wrapper-plugin",
        with: {
            "geode:env/types": super::env_world::geode::env::types,
            "geode:env/log": super::env_world::geode::env::log,
            "geode:env/sandbox": super::env_world::geode::env::sandbox,
        },
    });
}

/// The multi-agent world: exports the `multiagent` interface.
pub mod multiagent_world {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "multiagent-plugin",
        with: {
            "geode:env/types": super::env_world::geode::env::types,
            "geode:env/log": super::env_world::geode::env::log,
            "geode:env/dataset": super::env_world::geode::env::dataset,
            "geode:env/sandbox": super::env_world::geode::env::sandbox,
        },
    });
}

/// The contract version this host speaks.
pub const CONTRACT_VERSION: &str = "0.1.0";
/// The export an env plugin provides.
pub const ENV_EXPORT: &str = "geode:env/env@0.1.0";
/// The export a tool plugin provides.
pub const TOOL_EXPORT: &str = "geode:env/tool@0.1.0";
/// The export a multi-agent env plugin provides.
pub const MULTIAGENT_EXPORT: &str = "geode:env/multiagent@0.1.0";
/// The export a wrapper plugin provides.
pub const WRAPPER_EXPORT: &str = "geode:env/wrapper@0.1.0";
