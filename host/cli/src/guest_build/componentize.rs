//! For languages whose compilers emit WASI preview-1 core modules (C): the contract's C
//! bindings, and the step that turns the linked module into a component (the world's type
//! embedded, preview-1 calls adapted to WASI 0.2 by the adapter wasmtime ships).

use super::sources;
use anyhow::{Context, Result};
use std::path::Path;
use wasi_preview1_component_adapter_provider::{
    WASI_SNAPSHOT_PREVIEW1_ADAPTER_NAME, WASI_SNAPSHOT_PREVIEW1_REACTOR_ADAPTER,
};
use wit_component::{ComponentEncoder, StringEncoding};
use wit_parser::{Resolve, WorldId};

/// The world an env plugin in these languages targets (`env` alone, no `batch`).
pub const WORLD: &str = "env-plugin";

/// The contract, parsed, with the env plugin world.
fn contract() -> Result<(Resolve, WorldId)> {
    let mut resolve = Resolve::default();
    let (package, _) = resolve.push_dir(sources::wit()?)?;
    let world = resolve.select_world(&[package], Some(WORLD))?;
    Ok((resolve, world))
}

/// Writes wit-bindgen's C bindings of the env plugin world (`env_plugin.h`, `env_plugin.c`)
/// into `dir`.
pub fn c_bindings(dir: &Path) -> Result<()> {
    let (mut resolve, world) = contract()?;
    let options = wit_bindgen_c::Opts {
        // The world's type is embedded by `component` below, not by a linked object file.
        no_object_file: true,
        ..Default::default()
    };
    let mut files = wit_bindgen_core::Files::default();
    options
        .build()
        .generate(&mut resolve, world, &mut files)
        .context("generating the C bindings")?;
    for (name, bytes) in files.iter() {
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(())
}

/// The component of a linked preview-1 reactor module that implements the env plugin world.
pub fn component(module: &[u8]) -> Result<Vec<u8>> {
    let (resolve, world) = contract()?;
    let mut module = module.to_vec();
    wit_component::embed_component_metadata(&mut module, &resolve, world, StringEncoding::UTF8)?;
    ComponentEncoder::default()
        .module(&module)?
        .adapter(
            WASI_SNAPSHOT_PREVIEW1_ADAPTER_NAME,
            WASI_SNAPSHOT_PREVIEW1_REACTOR_ADAPTER,
        )?
        .validate(true)
        .encode()
        .context("adapting the module to a component")
}
