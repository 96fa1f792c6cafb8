//! `geode check`: the conformance suite on plugin files or env ids.

use anyhow::{Result, bail};
use clap::Args;
use geode_runtime::conformance::{CheckOptions, check_env};
use geode_runtime::{PluginKind, Registry, Runtime};
use std::path::Path;

/// Arguments of `geode check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Plugin files (`.wasm`, loaded alone: every env id they provide) or env ids.
    #[arg(required_unless_present = "all", value_name = "PLUGIN.wasm | ID")]
    targets: Vec<String>,
    /// Check every env id: the built-ins (the code envs too), plus --plugin and GEODE_PLUGIN_PATH.
    #[arg(long)]
    all: bool,
    /// How many seeds (0, 1, ...) each check plays [default: 4].
    #[arg(long)]
    seeds: Option<u64>,
    /// Steps a random-action episode may take before it must have ended [default: 1000].
    #[arg(long)]
    max_steps: Option<usize>,
    /// Configuration overrides for every env checked, a JSON object.
    #[arg(long)]
    config: Option<String>,
}

/// Checks every target, prints one report per env id and a summary; fails if any check failed.
pub fn check(sources: &crate::Sources, args: &CheckArgs) -> Result<()> {
    let options = options(args)?;
    let mut failed = Vec::new();
    let mut checked = 0;
    for (registry, ids) in targets(sources, args)? {
        for id in ids {
            let report = check_env(&registry, &id, &options);
            println!("{id}");
            print!("{report}");
            println!();
            checked += 1;
            if !report.passed() {
                failed.push(id);
            }
        }
    }
    println!(
        "checked {checked} env ids: {} passed, {} failed",
        checked - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        bail!("conformance checks failed for {}", failed.join(", "));
    }
    Ok(())
}

/// The suite's options from the command line.
fn options(args: &CheckArgs) -> Result<CheckOptions> {
    let mut options = CheckOptions {
        overrides: crate::parse_overrides(args.config.as_deref())?,
        ..CheckOptions::default()
    };
    if let Some(seeds) = args.seeds {
        options.seeds = (0..seeds).collect();
    }
    if let Some(max_steps) = args.max_steps {
        options.max_steps = max_steps;
    }
    Ok(options)
}

/// The env ids to check, each with the registry to make it from, in command-line order.
fn targets(sources: &crate::Sources, args: &CheckArgs) -> Result<Vec<(Registry, Vec<String>)>> {
    let mut standard: Option<Registry> = None;
    let mut targets = Vec::new();
    for target in &args.targets {
        if is_plugin_file(target) {
            targets.push(plugin_file(Path::new(target))?);
            continue;
        }
        if standard.is_none() {
            standard = Some(crate::registry(sources)?);
        }
        let registry = standard.clone().expect("built above");
        targets.push((registry, vec![target.clone()]));
    }
    if args.all {
        let registry = match standard {
            Some(registry) => registry,
            None => crate::registry(sources)?,
        };
        let ids = registry
            .ids_of(PluginKind::Env)
            .map(str::to_owned)
            .collect();
        targets.push((registry, ids));
    }
    Ok(targets)
}

/// True for a target naming a plugin file rather than an env id.
fn is_plugin_file(target: &str) -> bool {
    target.ends_with(".wasm") || Path::new(target).is_file()
}

/// `file` loaded alone (with geode's Python runner for its `sandbox` import), with every env
/// id it provides.
fn plugin_file(file: &Path) -> Result<(Registry, Vec<String>)> {
    let runtime = Runtime::new()?;
    geode_builtins::install(&runtime);
    let mut registry = Registry::empty(runtime);
    registry.add_file(file)?;
    let ids: Vec<String> = registry
        .ids_of(PluginKind::Env)
        .map(str::to_owned)
        .collect();
    if ids.is_empty() {
        println!(
            "{}: provides no env ids (a tool or wrapper plugin)",
            file.display()
        );
    }
    Ok((registry, ids))
}
