//! `geode precompile`: compiles every shipped component ahead of time, so that no env, tool or
//! grader waits for a compile on first use.

use anyhow::{Context, Result};
use clap::Args;
use geode_runtime::Runtime;
use std::path::PathBuf;

/// Arguments of `geode precompile`.
#[derive(Args)]
pub struct PrecompileArgs {
    /// Where to write the machine code (default: `geode-precompiled` next to the `geode`
    /// binary, which every runtime of this build searches first; elsewhere, point
    /// GEODE_PRECOMPILED_DIR at it).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Compiles the built-in plugins, the Python runners and the math grader into the directory,
/// printing one line per component.
pub fn precompile(args: &PrecompileArgs) -> Result<()> {
    let dir = match &args.dir {
        Some(dir) => dir.clone(),
        None => geode_runtime::shipped_precompiled_dir()
            .context("cannot tell where the geode binary is; pass --dir")?,
    };
    let runtime = Runtime::new().context("starting the wasm runtime")?;
    let started = std::time::Instant::now();
    let entries = geode_builtins::precompile(&runtime, &dir, |entry| {
        let action = if entry.file.compiled {
            "compiled"
        } else {
            "up to date"
        };
        println!(
            "{:<24} {action:<10} {:>8.1} MB {:>7.2} s",
            entry.name,
            entry.file.bytes as f64 / 1e6,
            entry.elapsed.as_secs_f64()
        );
    })?;
    let total: u64 = entries.iter().map(|e| e.file.bytes).sum();
    println!(
        "{} components in {} ({:.0} MB) in {:.1} s",
        entries.len(),
        dir.display(),
        total as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
