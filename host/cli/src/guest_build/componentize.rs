//! For languages whose compilers emit WASI preview-1 core modules (C): the contract's C
//! bindings, and the step that turns the linked module into a component (the world's type
//! embedded, preview-1 calls adapted to WASI 0.2 by the adapter wasmtime ships).

use super::{Kind, sources};
use anyhow::{Context, Result};
use std::path::Path;
use wasi_preview1_component_adapter_provider::{
    WASI_SNAPSHOT_PREVIEW1_ADAPTER_NAME, WASI_SNAPSHOT_PREVIEW1_REACTOR_ADAPTER,
};
use wit_component::{ComponentEncoder, StringEncoding};
use wit_parser::{Resolve, WorldId};

/// The contract, parsed, with the world of plugins of `kind`.
fn contract(kind: Kind) -> Result<(Resolve, WorldId)> {
    let mut resolve = Resolve::default();
    let (package, _) = resolve.push_dir(sources::wit()?)?;
    let world = resolve.select_world(&[package], Some(kind.world()))?;
    Ok((resolve, world))
}

/// The stem of the C bindings' files for `kind` (`batched_env_plugin`, `multiagent_plugin`).
pub fn c_stem(kind: Kind) -> String {
    kind.world().replace('-', "_")
}

/// Writes wit-bindgen's C bindings of the world of `kind` (`<stem>.h`, `<stem>.c`, see
/// [`c_stem`]) into `dir`.
pub fn c_bindings(dir: &Path, kind: Kind) -> Result<()> {
    let (mut resolve, world) = contract(kind)?;
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

/// The component of a linked preview-1 reactor module that implements the world of `kind`.
pub fn component(module: &[u8], kind: Kind) -> Result<Vec<u8>> {
    let (resolve, world) = contract(kind)?;
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
