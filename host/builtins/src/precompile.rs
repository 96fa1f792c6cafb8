//! [`precompile`]: compiles every shipped component ahead of time into a directory that
//! runtimes search before their cache, so that no env, tool or grader waits for a compile on
//! first use (the Python runner with numpy takes about a minute to compile on two cores).

use crate::components::shipped_components;
use geode_runtime::{CompileCache, Error, Precompiled, Result, Runtime};
use std::path::Path;
use std::time::{Duration, Instant};

/// One component's line of a [`precompile`] report.
#[derive(Debug, Clone)]
pub struct PrecompileEntry {
    /// The component's name (a plugin's file stem, `python-runner`, `math-grader`...).
    pub name: String,
    /// Where its machine code is and whether this call compiled it.
    pub file: Precompiled,
    /// How long the compile (or the check of the file already there) took.
    pub elapsed: Duration,
}

/// Compiles every shipped component for `runtime`'s engine into `dir`, skipping those already
/// there, and removes what an earlier build left in `dir`. `on_entry` hears of each component
/// as it is done.
pub fn precompile(
    runtime: &Runtime,
    dir: &Path,
    mut on_entry: impl FnMut(&PrecompileEntry),
) -> Result<Vec<PrecompileEntry>> {
    let mut entries = Vec::new();
    for (name, wasm) in shipped_components() {
        let started = Instant::now();
        let file = CompileCache::precompile_into(runtime.engine(), wasm, dir).map_err(|e| {
            Error::Internal(format!("compiling {name} into {}: {e:#}", dir.display()))
        })?;
        let entry = PrecompileEntry {
            name,
            file,
            elapsed: started.elapsed(),
        };
        on_entry(&entry);
        entries.push(entry);
    }
    let keep: Vec<_> = entries.iter().map(|e| e.file.path.clone()).collect();
    CompileCache::prune_precompiled(dir, &keep);
    Ok(entries)
}
