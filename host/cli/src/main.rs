//! `geode`: list, run, play and inspect environment plugins.

/// Results are allocated on the threads that step the envs and freed wherever the caller drops
/// them; mimalloc handles that cross-thread traffic far better than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod check;
mod eval;
mod inspect;
mod list;
mod play;
mod precompile;
mod run;
mod serve;
mod tau_import;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use geode_cli::{episodes, guest_build, new};
use geode_runtime::{CompileCache, EngineSettings, Registry, Runtime, default_cache_dir};
use std::path::PathBuf;

/// geode — reinforcement-learning environments as sandboxed WebAssembly components.
#[derive(Parser)]
#[command(name = "geode", version, about)]
struct Cli {
    #[command(flatten)]
    sources: Sources,
    #[command(subcommand)]
    command: Command,
}

/// Where plugins and datasets come from, beside the built-in ones.
#[derive(Args)]
pub struct Sources {
    /// Extra plugin files or directories to load (also read from GEODE_PLUGIN_PATH).
    #[arg(long = "plugin", global = true, value_name = "PATH")]
    plugins: Vec<PathBuf>,
    /// Data directories: an env's `dataset` key names a file inside one (also read from
    /// GEODE_DATA_PATH).
    #[arg(long = "data-dir", global = true, value_name = "DIR")]
    data_dirs: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// List every env id with its plugin and description.
    List,
    /// Run episodes with a random policy and print their statistics.
    Run(run::RunArgs),
    /// Serve an env over OpenEnv's HTTP and WebSocket protocol, one isolated env per session.
    Serve(serve::ServeArgs),
    /// Play an env interactively: type actions, read observations.
    Play(play::PlayArgs),
    /// Show what a plugin file provides (contract version, ids, default configs), or one id.
    Inspect {
        /// A plugin component (`.wasm`), or an env or tool id such as code:CodeContest.
        #[arg(value_name = "PLUGIN.wasm | ID")]
        target: String,
    },
    /// Run the conformance suite on plugin files or env ids; exits 1 if any check fails.
    Check(check::CheckArgs),
    /// Create a plugin project in Rust, Python, JavaScript or C.
    New(new::NewArgs),
    /// Build a plugin project into a component (installs the language's toolchain once).
    Build(guest_build::BuildArgs),
    /// Build a plugin project and play the scripted episodes of its tests/*.json.
    Test(episodes::TestArgs),
    /// Run a model on envs through an OpenAI-compatible API: trajectories, summary, report.
    Eval(Box<eval::EvalArgs>),
    /// Replay a `geode eval` directory's episodes against their envs and re-grade them.
    Reverify(eval::ReverifyArgs),
    /// Compile every built-in component ahead of time, so no first use waits for a compile.
    Precompile(precompile::PrecompileArgs),
    /// Convert TAU-bench's own retail or airline data and tasks (a copy you have) into a domain
    /// file for the `tau:*` envs.
    TauImport(tau_import::TauImportArgs),
}

/// The built-in plugins, GEODE_PLUGIN_PATH and every `--plugin`, reading datasets from
/// GEODE_DATA_PATH and every `--data-dir`.
fn registry(sources: &Sources) -> Result<Registry> {
    registry_with(sources, &EngineSettings::default())
}

/// [`registry`] on an engine with `settings` (`geode serve` sizes its instance pool to its
/// sessions).
fn registry_with(sources: &Sources, settings: &EngineSettings) -> Result<Registry> {
    let cache = CompileCache::new(default_cache_dir());
    let runtime = Runtime::with_settings(settings, cache).context("starting the wasm runtime")?;
    for dir in &sources.data_dirs {
        runtime.datasets().add_root(dir)?;
    }
    let mut registry = geode_builtins::standard(runtime)?;
    for path in &sources.plugins {
        if path.is_dir() {
            registry.add_dir(path)?;
        } else {
            registry.add_file(path)?;
        }
    }
    Ok(registry)
}

/// Parses `--config` (a JSON object) into overrides.
fn parse_overrides(config: Option<&str>) -> Result<serde_json::Value> {
    match config {
        None => Ok(serde_json::Value::Null),
        Some(text) => serde_json::from_str(text)
            .with_context(|| format!("--config is not valid JSON: {text}")),
    }
}

fn main() {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::List => registry(&cli.sources).and_then(|r| list::print(&r)),
        Command::Run(args) => registry(&cli.sources).and_then(|r| run::run(&r, args)),
        Command::Serve(args) => registry_with(&cli.sources, &serve::engine_settings(args))
            .and_then(|r| serve::serve(r, args)),
        Command::Play(args) => registry(&cli.sources).and_then(|r| play::play(&r, args)),
        Command::Inspect { target } => inspect::inspect(&cli.sources, target),
        Command::Check(args) => check::check(&cli.sources, args),
        Command::New(args) => new::run(args),
        Command::Build(args) => guest_build::run(args),
        Command::Test(args) => episodes::run(args),
        Command::Eval(args) => registry(&cli.sources).and_then(|r| eval::eval(r, args)),
        Command::Reverify(args) => registry(&cli.sources).and_then(|r| eval::reverify(r, args)),
        Command::Precompile(args) => precompile::precompile(args),
        Command::TauImport(args) => tau_import::run(args),
    };
    if let Err(error) = outcome {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
