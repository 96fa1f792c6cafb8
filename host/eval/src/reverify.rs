//! `geode reverify DIR`: replays every stored episode's actions against its env, started again
//! from the stored seed or row, and re-grades it. Made for grader upgrades and for auditing
//! another run's numbers: what changed is printed and written to `reverify.json`.

use crate::envs::Recipe;
use crate::log::TRAJECTORIES;
use crate::plan;
use crate::record::{EpisodeKey, EpisodeRecord, Start};
use crate::runner::RUN_FILE;
use crate::seat::{OPPONENT_ACTIONS, Opponent};
use crate::settings::RunSettings;
use anyhow::Context;
use geode_runtime::{Env, Limits, Registry};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The file `reverify` writes into the run's directory.
pub const REVERIFY_FILE: &str = "reverify.json";

/// One episode whose grade changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Changed {
    /// Which episode.
    #[serde(flatten)]
    pub key: EpisodeKey,
    /// The stored total reward.
    pub stored_reward: f64,
    /// The total reward of the replay.
    pub replayed_reward: f64,
    /// The stored success.
    pub stored_success: bool,
    /// The replay's success.
    pub replayed_success: bool,
    /// The first turn whose reward or end differs (or the env error of the replay).
    pub detail: String,
}

/// What a reverification found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdicts {
    /// Episodes replayed.
    pub episodes: usize,
    /// Episodes whose reward, success or ending changed.
    pub changed: Vec<Changed>,
    /// Successes stored, and in the replay.
    pub stored_successes: usize,
    /// Successes in the replay.
    pub replayed_successes: usize,
}

/// Replays the run in `dir` (its `run.json` and `trajectories.jsonl`) under `limits` and writes
/// `reverify.json`.
pub fn reverify(registry: &Registry, dir: &Path, limits: &Limits) -> anyhow::Result<Verdicts> {
    let settings: RunSettings =
        serde_json::from_slice(&std::fs::read(dir.join(RUN_FILE)).with_context(|| {
            format!(
                "{} has no {RUN_FILE}: not a geode eval directory",
                dir.display()
            )
        })?)?;
    let text = std::fs::read_to_string(dir.join(TRAJECTORIES))
        .with_context(|| format!("reading {}", dir.join(TRAJECTORIES).display()))?;
    let records: Vec<EpisodeRecord> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{TRAJECTORIES} line {}: not an episode record", n + 1))
        })
        .collect::<anyhow::Result<_>>()?;
    // A model opponent is not asked again: its recorded actions are replayed.
    let replays_opponent = settings.user_model.is_some();
    let recipes = plan::recipes(registry, &settings, limits, None)?;
    let threshold = settings.success_threshold;
    let outcomes: Vec<(bool, Option<Changed>)> = records
        .par_iter()
        .map(|record| {
            let recipe = recipes
                .get(&record.key.env)
                .map(|recipe| match replays_opponent {
                    true => recipe.with_opponent(recorded_opponent(record)),
                    false => recipe.clone(),
                });
            let replayed = replay(registry, recipe.as_ref(), record);
            judge(record, replayed, threshold)
        })
        .collect();
    let verdicts = Verdicts {
        episodes: records.len(),
        stored_successes: records.iter().filter(|r| r.success).count(),
        replayed_successes: outcomes.iter().filter(|(success, _)| *success).count(),
        changed: outcomes
            .into_iter()
            .filter_map(|(_, changed)| changed)
            .collect(),
    };
    std::fs::write(
        dir.join(REVERIFY_FILE),
        serde_json::to_vec_pretty(&verdicts)?,
    )?;
    Ok(verdicts)
}

/// The other agents' actions a model took in `record` (its reset's and turns' infos), in order.
fn recorded_opponent(record: &EpisodeRecord) -> Opponent {
    let infos = std::iter::once(&record.reset_info).chain(record.turns.iter().map(|t| &t.info));
    let actions: VecDeque<String> = infos
        .filter_map(|info| info.get(OPPONENT_ACTIONS)?.as_array().cloned())
        .flatten()
        .filter_map(|pair| pair.get(1)?.as_str().map(str::to_owned))
        .collect();
    Opponent::Replay(Arc::new(Mutex::new(actions)))
}

/// The replay's per-turn (reward, terminated, truncated), or the error that stopped it.
type Replay = Result<Vec<(f64, bool, bool)>, String>;

fn replay(registry: &Registry, recipe: Option<&Recipe>, record: &EpisodeRecord) -> Replay {
    let recipe = recipe.ok_or_else(|| format!("{} is not an env of this run", record.key.env))?;
    let mut env: Box<dyn Env> = recipe
        .make(registry, &record.key.env)
        .map_err(|e| e.to_string())?;
    match record.start {
        Start::Seed(seed) => env.reset(Some(seed)),
        Start::Row(row) => env.seek_episode(row).and_then(|()| env.reset(None)),
    }
    .map_err(|e| format!("reset: {e}"))?;
    record
        .turns
        .iter()
        .map(|turn| {
            env.step(&turn.action)
                .map(|s| (s.reward, s.terminated, s.truncated))
                .map_err(|e| format!("step: {e}"))
        })
        .collect()
}

fn judge(record: &EpisodeRecord, replayed: Replay, threshold: f64) -> (bool, Option<Changed>) {
    let changed = |reward: f64, success: bool, detail: String| Changed {
        key: record.key.clone(),
        stored_reward: record.reward,
        replayed_reward: reward,
        stored_success: record.success,
        replayed_success: success,
        detail,
    };
    let steps = match replayed {
        Ok(steps) => steps,
        Err(error) => return (false, Some(changed(0.0, false, error))),
    };
    let reward: f64 = steps.iter().map(|(r, _, _)| r).sum();
    let success = reward >= threshold;
    let first_difference = record
        .turns
        .iter()
        .zip(&steps)
        .enumerate()
        .find(|(_, (turn, step))| (turn.reward, turn.terminated, turn.truncated) != **step);
    match first_difference {
        None => (success, None),
        Some((n, (turn, step))) => {
            let detail = format!(
                "turn {n}: stored reward {} terminated {} truncated {}, replayed {} {} {}",
                turn.reward, turn.terminated, turn.truncated, step.0, step.1, step.2
            );
            (success, Some(changed(reward, success, detail)))
        }
    }
}
