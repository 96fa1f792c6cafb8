//! Host-side bindings of the `geode:env@0.1.0` worlds, generated from `wit/v0.1.0`.

/// The env world: what an env plugin exports and the host imports it may call.
pub mod env_world {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "env-plugin",
    });
}

/// The contract version this host speaks.
pub const CONTRACT_VERSION: &str = "0.1.0";
/// The export an env plugin must provide.
pub const ENV_EXPORT: &str = "geode:env/env@0.1.0";
