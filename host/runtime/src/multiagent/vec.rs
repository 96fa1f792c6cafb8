//! [`MultiAgentVec`]: many multi-agent episodes stepped together, for self-play (one policy
//! acting for every agent of every env). Envs step in parallel on rayon's pool; each env's
//! result is its own, so a bad action or a trap in one env leaves the others untouched. An
//! episode that ends (no live agents left) or faults starts over in the same step.

use super::{AgentOutput, MultiAgentEnv};
use crate::{Error, Result};
use rayon::prelude::*;

/// One env's part of a vector step.
#[derive(Debug)]
pub struct VecEnvStep {
    /// The step's outputs, or why this env's step failed.
    pub outputs: Result<Vec<AgentOutput>>,
    /// When the episode ended (or faulted) at this step: the first outputs of the next one.
    pub reset: Option<Result<Vec<AgentOutput>>>,
}

/// A vector of multi-agent envs with autoreset.
pub struct MultiAgentVec {
    envs: Vec<Box<dyn MultiAgentEnv>>,
}

impl MultiAgentVec {
    /// `count` envs: `first` and spawns of it.
    pub fn new(first: Box<dyn MultiAgentEnv>, count: usize) -> Result<Self> {
        if count == 0 {
            return Err(Error::InvalidArgument(
                "a vector needs at least one env".into(),
            ));
        }
        let mut envs = Vec::with_capacity(count);
        for _ in 1..count {
            envs.push(first.spawn()?);
        }
        envs.insert(0, first);
        Ok(MultiAgentVec { envs })
    }

    /// The number of envs.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Always false: a vector has at least one env.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// Env `index`.
    pub fn env(&self, index: usize) -> &dyn MultiAgentEnv {
        self.envs[index].as_ref()
    }

    /// Env `index`, to observe it, message its agents or sample actions.
    pub fn env_mut(&mut self, index: usize) -> &mut dyn MultiAgentEnv {
        self.envs[index].as_mut()
    }

    /// Resets every env; env `i` gets `seed + i` (all unseeded for `None`). Fails on the first
    /// env that cannot start.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<Vec<Vec<AgentOutput>>> {
        self.envs
            .par_iter_mut()
            .enumerate()
            .map(|(i, env)| env.reset(seed.map(|s| s.wrapping_add(i as u64))))
            .collect()
    }

    /// Steps env `i` with `actions[i]` (its active agents' actions), all envs in parallel.
    pub fn step(&mut self, actions: &[Vec<(String, String)>]) -> Result<Vec<VecEnvStep>> {
        if actions.len() != self.envs.len() {
            return Err(Error::InvalidArgument(format!(
                "{} action lists for {} envs",
                actions.len(),
                self.envs.len()
            )));
        }
        Ok(self
            .envs
            .par_iter_mut()
            .zip(actions.par_iter())
            .map(|(env, actions)| {
                let outputs = env.step(actions);
                let over = match &outputs {
                    Ok(_) => env.agents().is_empty(),
                    Err(error) => error.is_trap(),
                };
                let reset = over.then(|| env.reset(None));
                VecEnvStep { outputs, reset }
            })
            .collect())
    }

    /// Each env's active agents with a random legal action for each.
    pub fn sample_random_actions(&mut self) -> Result<Vec<Vec<(String, String)>>> {
        self.envs
            .par_iter_mut()
            .map(|env| {
                let active = env.active_agents().to_vec();
                active
                    .into_iter()
                    .map(|agent| {
                        let action = env.sample_random_action(&agent)?;
                        Ok((agent, action))
                    })
                    .collect()
            })
            .collect()
    }
}
