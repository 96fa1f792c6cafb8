//! Which episodes a run plays: every `(env, task, sample)`, how each starts and the seed its
//! requests carry, in one fixed order that a resumed run shares.

use crate::envs::Recipe;
use crate::record::{EpisodeKey, Start};
use crate::seat::{ModelPlayer, Opponent};
use crate::settings::{EnvSettings, RunSettings};
use geode_runtime::{
    DATASET_KEY, Limits, MakeOptions, PluginKind, Provider, Registry, WrapperSpec,
};
use std::collections::HashMap;
use std::sync::Arc;

/// One planned episode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// Which episode.
    pub key: EpisodeKey,
    /// Its place in the run's order (the request seed is `sampling.seed + index`).
    pub index: u64,
    /// How it starts.
    pub start: Start,
}

/// Every episode of `settings`, in order: env by env, task by task, sample by sample.
pub fn episodes(settings: &RunSettings, dataset_envs: &[bool]) -> Vec<Planned> {
    let mut planned = Vec::new();
    for (env, is_dataset) in settings.envs.iter().zip(dataset_envs) {
        for task in 0..env.tasks {
            let start = if *is_dataset {
                Start::Row(task)
            } else {
                Start::Seed(settings.env_seed + task)
            };
            for sample in 0..settings.samples {
                planned.push(Planned {
                    key: EpisodeKey {
                        env: env.id.clone(),
                        task,
                        sample,
                    },
                    index: planned.len() as u64,
                    start,
                });
            }
        }
    }
    planned
}

/// Whether env `id` walks a dataset (its default configuration has a `dataset` key): its tasks
/// are rows, started with GEM's `reset(idx=row)`, not seeds.
pub fn is_dataset_env(registry: &Registry, id: &str) -> anyhow::Result<bool> {
    let entry = registry.lookup(id)?;
    // A multi-agent env picks its task from the reset's seed (the contract has no seek).
    Ok(entry.kind != PluginKind::MultiAgent && entry.spec.default_config.contains_key(DATASET_KEY))
}

/// How many rows dataset env `id` walks (made with `options`): what the env says, or the length
/// of the host dataset its configuration names.
pub fn count_rows(registry: &Registry, id: &str, options: &MakeOptions) -> anyhow::Result<u64> {
    let env = registry.make(id, options.clone())?;
    if let Some(rows) = env.episode_count() {
        return Ok(rows);
    }
    let entry = registry.lookup(id)?;
    let named = options
        .overrides
        .get(DATASET_KEY)
        .or_else(|| entry.spec.default_config.get(DATASET_KEY))
        .and_then(|v| v.as_str())
        .unwrap_or_default();
    match registry.runtime().datasets().get(named) {
        Some(dataset) => Ok(dataset.len() as u64),
        None => anyhow::bail!("{id} does not say how many rows it has: pass --episodes N"),
    }
}

/// The sha256 of the component that provides `id` (none for envs the host provides).
pub fn component_sha256(registry: &Registry, id: &str) -> anyhow::Result<Option<String>> {
    Ok(match &registry.lookup(id)?.provider {
        Provider::Plugin(plugin) => Some(plugin.sha256().to_owned()),
        Provider::Native(_) => None,
    })
}

/// How to make each env of `settings` under `limits`; `player`, when given, plays the other
/// agents of multi-agent envs instead of `settings.opponent`.
pub fn recipes(
    registry: &Registry,
    settings: &RunSettings,
    limits: &Limits,
    player: Option<Arc<ModelPlayer>>,
) -> anyhow::Result<HashMap<String, Recipe>> {
    let opponent = match player {
        Some(player) => Opponent::Model(player),
        None => Opponent::by_name(&settings.opponent)?,
    };
    let mut recipes = HashMap::new();
    for env in &settings.envs {
        let options = MakeOptions::overrides(env.config.clone())
            .with_wrappers(wrappers(env)?)
            .with_limits(limits.clone());
        let recipe = Recipe::of(
            registry,
            &env.id,
            options,
            settings.seat.as_deref(),
            &opponent,
        )?;
        recipes.insert(env.id.clone(), recipe);
    }
    Ok(recipes)
}

/// The wrapper layers named by GEM's names, checked.
pub fn wrappers(env: &EnvSettings) -> anyhow::Result<Vec<WrapperSpec>> {
    env.wrappers
        .iter()
        .map(|name| {
            WrapperSpec::from_name(name, serde_json::Value::Null).map_err(anyhow::Error::from)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Sampling;
    use serde_json::Value;

    fn env(id: &str, tasks: u64) -> EnvSettings {
        EnvSettings {
            id: id.into(),
            tasks,
            config: Value::Null,
            wrappers: vec![],
            component_sha256: None,
        }
    }

    #[test]
    fn episodes_are_numbered_env_by_env_task_by_task() {
        let settings = RunSettings {
            geode_version: "0".into(),
            base_url: "http://x/v1".into(),
            model: "m".into(),
            sampling: Sampling::default(),
            system: None,
            max_turns: 3,
            samples: 2,
            concurrency: 4,
            success_threshold: 1.0,
            env_seed: 100,
            seat: None,
            opponent: "random".into(),
            user_model: None,
            envs: vec![env("game:A", 2), env("qa:B", 1)],
        };
        let plan = episodes(&settings, &[false, true]);
        assert_eq!(plan.len(), 6);
        assert_eq!(plan[3].key.task, 1);
        assert_eq!(plan[3].key.sample, 1);
        assert_eq!(plan[3].start, Start::Seed(101));
        assert_eq!(plan[5].start, Start::Row(0));
        assert_eq!(plan[5].index, 5);
    }
}
