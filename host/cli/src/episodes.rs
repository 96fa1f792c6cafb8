//! `geode test DIR`: builds a plugin project and plays the scripted episodes of its
//! `tests/*.json` files against the built component.
//!
//! An episode file is a JSON list of episodes; each names the env `id`, optional `config`
//! overrides and `seed`, what the reset must show (`reset`), then the `steps`: an `action` and
//! what must follow. Every expectation is optional:
//!
//! ```json
//! [{"name": "a right call scores", "id": "demo:Coin-v0", "seed": 3,
//!   "reset": {"observation_contains": "heads or tails"},
//!   "steps": [{"action": "heads", "reward": 1.0, "terminated": true,
//!              "observation_contains": "flipped", "info": {"round": 1}}]}]
//! ```
//!
//! Seeds make episodes exact, so a script can pin every rule and reward of an env. A project
//! whose `geode.json` says `{"kind": "multiagent"}` scripts multi-agent episodes instead
//! ([`crate::multiagent_episodes`]).

use crate::expect::Expect;
use crate::guest_build::manifest::{self, Kind};
use crate::multiagent_episodes::MultiAgentEpisode;
use anyhow::{Context, Result, bail};
use clap::Args;
use geode_runtime::{ComponentEnv, Env, Limits, Registry, Runtime};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Arguments of `geode test`.
#[derive(Args)]
pub struct TestArgs {
    /// The plugin project directory.
    #[arg(value_name = "DIR", default_value = ".")]
    dir: PathBuf,
}

/// One scripted episode.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Episode {
    /// What the episode shows, for the report.
    pub name: String,
    /// The env id.
    pub id: String,
    /// Configuration overrides.
    #[serde(default)]
    pub config: Map<String, Value>,
    /// The reset's seed (none: unseeded).
    #[serde(default)]
    pub seed: Option<u64>,
    /// What the reset must return.
    #[serde(default)]
    pub reset: Expect,
    /// The actions, each with what it must return.
    #[serde(default)]
    pub steps: Vec<ScriptedStep>,
}

/// One action and its expected outcome.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedStep {
    /// The action sent.
    pub action: String,
    /// What the step must return.
    #[serde(flatten)]
    pub expect: Expect,
}

/// A scripted episode of either kind of env.
pub enum Script {
    /// A single-agent episode.
    Env(Episode),
    /// A multi-agent episode.
    MultiAgent(MultiAgentEpisode),
}

impl Script {
    /// What the episode shows, for the report.
    pub fn name(&self) -> &str {
        match self {
            Script::Env(e) => &e.name,
            Script::MultiAgent(e) => &e.name,
        }
    }
}

/// Plays `script` on an env made from `registry`; `Err` says which call differed and how.
pub fn play(registry: &Registry, script: &Script) -> Result<(), String> {
    match script {
        Script::Env(episode) => play_env(registry, episode),
        Script::MultiAgent(episode) => crate::multiagent_episodes::play(registry, episode),
    }
}

fn play_env(registry: &Registry, episode: &Episode) -> Result<(), String> {
    let overrides = Value::Object(episode.config.clone());
    let made = ComponentEnv::make(registry, &episode.id, &overrides, &Limits::default());
    let mut env = match (made, &episode.reset.error) {
        // A configuration the env refuses: the script expects the refusal at creation.
        (Err(e), Some(want)) if e.to_string().contains(want.as_str()) => return Ok(()),
        (made, _) => made.map_err(|e| format!("make: {e}"))?,
    };
    let reset = env.reset(episode.seed);
    episode
        .reset
        .check(reset, |r| {
            episode.reset.check_text(&r.observation, &r.info.to_map())
        })
        .map_err(|e| format!("reset: {e}"))?;
    for (n, step) in episode.steps.iter().enumerate() {
        let expect = &step.expect;
        let outcome = env.step(&step.action);
        expect
            .check(outcome, |s| {
                expect.check_outcome(
                    &s.observation,
                    s.reward,
                    s.terminated,
                    s.truncated,
                    &s.info.to_map(),
                )
            })
            .map_err(|e| format!("step {} ({:?}): {e}", n + 1, step.action))?;
    }
    Ok(())
}

/// The episodes of every `tests/*.json` file of a project, with the file each came from: of
/// the kind the project's `geode.json` declares.
pub fn scripted(dir: &Path) -> Result<Vec<(PathBuf, Script)>> {
    let kind = manifest::kind(dir)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("tests"))
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let mut episodes = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        let read = || format!("reading {}", file.display());
        let list: Vec<Script> = match kind {
            Kind::Env => serde_json::from_str::<Vec<Episode>>(&text)
                .with_context(read)?
                .into_iter()
                .map(Script::Env)
                .collect(),
            Kind::MultiAgent => serde_json::from_str::<Vec<MultiAgentEpisode>>(&text)
                .with_context(read)?
                .into_iter()
                .map(Script::MultiAgent)
                .collect(),
        };
        episodes.extend(list.into_iter().map(|e| (file.clone(), e)));
    }
    Ok(episodes)
}

/// `geode test`: build, then play every scripted episode; fails if any differs.
pub fn run(args: &TestArgs) -> Result<()> {
    let component = crate::guest_build::build(&args.dir, false)?;
    let mut registry = Registry::empty(Runtime::new()?);
    registry.add_file(&component)?;
    let episodes = scripted(&args.dir)?;
    if episodes.is_empty() {
        bail!(
            "{} has no scripted episodes (tests/*.json)",
            args.dir.display()
        );
    }
    let mut failed = 0;
    for (file, episode) in &episodes {
        match play(&registry, episode) {
            Ok(()) => println!("ok    {}", episode.name()),
            Err(why) => {
                failed += 1;
                println!("FAIL  {} ({}): {why}", episode.name(), file.display());
            }
        }
    }
    println!("{} passed, {failed} failed", episodes.len() - failed);
    if failed > 0 {
        bail!("{failed} scripted episodes failed");
    }
    Ok(())
}
