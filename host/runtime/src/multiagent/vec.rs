//! [`MultiAgentVec`]: many multi-agent episodes stepped together, for self-play (one policy
//! acting for every agent of every env). Envs step in parallel on rayon's pool; each env's
//! result is its own, so a bad action or a trap in one env leaves the others untouched. It
//! follows the single-agent vectors' autoreset rules ([`AutoresetMode`], the slots' own
//! state): under SameStep an episode that ends (no live agents left) starts over in the same
//! step, under NextStep on the next one, and under Disabled the caller resets it. An env that
//! faults starts over in the same step whatever the mode.

use super::{AgentOutput, MultiAgentEnv};
use crate::vector::{AutoresetMode, Plan, SlotState};
use crate::{Error, Result};
use rayon::prelude::*;

/// One env's part of a vector step.
#[derive(Debug)]
pub struct VecEnvStep {
    /// The step's outputs, or why this env's step failed or was refused. Under NextStep, the
    /// step after an episode ended ignores its actions: these are the new episode's first
    /// outputs (reward 0).
    pub outputs: Result<Vec<AgentOutput>>,
    /// When the episode ended under SameStep, or the env faulted: the first outputs of the
    /// next one.
    pub reset: Option<Result<Vec<AgentOutput>>>,
}

/// A vector of multi-agent envs with autoreset.
pub struct MultiAgentVec {
    envs: Vec<Box<dyn MultiAgentEnv>>,
    states: Vec<SlotState>,
    mode: AutoresetMode,
}

impl MultiAgentVec {
    /// `count` envs: `first` and spawns of it, under SameStep autoreset.
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
        Ok(MultiAgentVec {
            states: vec![SlotState::default(); count],
            envs,
            mode: AutoresetMode::SameStep,
        })
    }

    /// The same vector under autoreset `mode`.
    pub fn with_mode(mut self, mode: AutoresetMode) -> Self {
        self.mode = mode;
        self
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
            .zip(self.states.par_iter_mut())
            .enumerate()
            .map(|(i, (env, state))| {
                let outputs = env.reset(seed.map(|s| s.wrapping_add(i as u64)))?;
                state.started();
                Ok(outputs)
            })
            .collect()
    }

    /// Resets env `index` alone (what Disabled autoreset leaves to the caller).
    pub fn reset_one(&mut self, index: usize, seed: Option<u64>) -> Result<Vec<AgentOutput>> {
        let env = self.envs.get_mut(index).ok_or_else(|| {
            Error::InvalidArgument(format!("env {index} of a vector of {}", self.states.len()))
        })?;
        let outputs = env.reset(seed)?;
        self.states[index].started();
        Ok(outputs)
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
        let mode = self.mode;
        Ok(self
            .envs
            .par_iter_mut()
            .zip(self.states.par_iter_mut())
            .zip(actions.par_iter())
            .map(|((env, state), actions)| advance(env.as_mut(), state, actions, mode))
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

/// One env's step under the autoreset rules.
fn advance(
    env: &mut dyn MultiAgentEnv,
    state: &mut SlotState,
    actions: &[(String, String)],
    mode: AutoresetMode,
) -> VecEnvStep {
    let restart = |env: &mut dyn MultiAgentEnv, state: &mut SlotState| {
        let first = env.reset(None);
        state.episode_over = first.is_err();
        first
    };
    match state.plan(mode, || env.id().to_owned()) {
        Plan::Refuse(error) => VecEnvStep {
            outputs: Err(error),
            reset: None,
        },
        Plan::ResetOnly => VecEnvStep {
            outputs: restart(env, state),
            reset: None,
        },
        Plan::Step => {
            let outputs = env.step(actions);
            let faulted = outputs.as_ref().is_err_and(Error::is_trap);
            state.episode_over = faulted || (outputs.is_ok() && env.agents().is_empty());
            let reset = (faulted || (state.episode_over && mode == AutoresetMode::SameStep))
                .then(|| restart(env, state));
            VecEnvStep { outputs, reset }
        }
    }
}
