//! The tool wrapper: lets the agent call tools mid-episode. A turn whose action a tool takes
//! does not step the env; other turns step it as usual.

use super::state;
use crate::Result;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::tool::{Tool, ToolOutput};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Rewards and limits of the tool wrapper (GEM's `ToolEnvWrapper` parameters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolRewards {
    /// Added for every tool call.
    pub tool_reward: f64,
    /// Added when the call succeeded.
    pub tool_success_reward: f64,
    /// Added when the call failed.
    pub tool_execute_error_reward: f64,
    /// Most tool calls per episode; `None` for no limit.
    pub max_tool_uses: Option<u64>,
}

impl Default for ToolRewards {
    fn default() -> Self {
        ToolRewards {
            tool_reward: 0.0,
            tool_success_reward: 0.0,
            tool_execute_error_reward: 0.0,
            max_tool_uses: Some(10),
        }
    }
}

/// The message appended when the agent has used its last tool call.
pub const MAX_TOOL_USE_MESSAGE: &str =
    "Reached the maximum number of tool use. Please output final answer directly.";

#[derive(Clone, Copy, Default, Serialize, Deserialize)]
struct Counters {
    uses: u64,
    successes: u64,
}

/// Tools tried in order on every action, in front of an env.
pub struct ToolEnv {
    inner: Box<dyn Env>,
    tools: Vec<Box<dyn Tool>>,
    rewards: ToolRewards,
    counters: Counters,
}

impl ToolEnv {
    /// Wraps `inner` with `tools`.
    pub fn new(inner: Box<dyn Env>, tools: Vec<Box<dyn Tool>>, rewards: ToolRewards) -> Self {
        ToolEnv {
            inner,
            tools,
            rewards,
            counters: Counters::default(),
        }
    }

    fn may_use_tools(&self) -> bool {
        self.rewards
            .max_tool_uses
            .is_none_or(|max| self.counters.uses < max)
    }

    /// The first tool that takes the action and succeeds; else the first that took it and failed.
    fn run_tools(&mut self, action: &str) -> Result<Option<(ToolOutput, String)>> {
        let mut failed = None;
        for tool in &mut self.tools {
            if let Some(out) = tool.execute(action)? {
                if !out.has_error {
                    return Ok(Some((out, tool.tool_type().to_owned())));
                }
                failed.get_or_insert((out, tool.tool_type().to_owned()));
            }
        }
        Ok(failed)
    }

    fn counters_into(&self, info: &mut serde_json::Map<String, serde_json::Value>) {
        info.insert("tool_use_counter".into(), json!(self.counters.uses));
        info.insert(
            "tool_success_counter".into(),
            json!(self.counters.successes),
        );
    }
}

impl Env for ToolEnv {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let previous = self.counters;
        self.counters = Counters::default();
        let out = self.inner.reset(seed)?;
        let instructions = self
            .tools
            .iter_mut()
            .map(|t| t.instructions())
            .collect::<Result<Vec<_>>>()?
            .join("\n");
        let instructions = if self.tools.len() > 1 {
            format!("Available tools:\n{instructions}")
        } else {
            instructions
        };
        let mut info = out.info.to_map();
        self.counters_into(&mut info);
        info.insert("prev_ep_tool_use_counter".into(), json!(previous.uses));
        info.insert(
            "prev_ep_tool_success_counter".into(),
            json!(previous.successes),
        );
        info.insert("use_tool".into(), json!(false));
        Ok(ResetOutput {
            observation: format!("{}\n{instructions}", out.observation),
            info: Info::from_map(&info),
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let ran = if self.may_use_tools() {
            self.run_tools(action)?
        } else {
            None
        };
        let Some((out, tool_type)) = ran else {
            let mut step = self.inner.step(action)?;
            let mut info = step.info.to_map();
            self.counters_into(&mut info);
            info.insert("use_tool".into(), json!(false));
            step.info = Info::from_map(&info);
            return Ok(step);
        };
        self.counters.uses += 1;
        let mut reward = self.rewards.tool_reward;
        if out.has_error {
            reward += self.rewards.tool_execute_error_reward;
        } else {
            self.counters.successes += 1;
            reward += self.rewards.tool_success_reward;
        }
        let mut observation = out.observation;
        if self.rewards.max_tool_uses == Some(self.counters.uses) {
            observation = format!("{observation}\n\n{MAX_TOOL_USE_MESSAGE}");
        }
        let mut info = serde_json::Map::new();
        info.insert("parsed_action".into(), json!(out.parsed_action));
        info.insert("tool_type".into(), json!(tool_type));
        self.counters_into(&mut info);
        info.insert("use_tool".into(), json!(true));
        Ok(StepOutput {
            observation,
            reward,
            terminated: false,
            truncated: false,
            info: Info::from_map(&info),
        })
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.inner.sample_random_action()
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        state::get(&self.counters, &mut *self.inner)
    }

    fn set_state(&mut self, bytes: &[u8]) -> Result<()> {
        state::set(&mut self.counters, &mut *self.inner, bytes)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let tools = self
            .tools
            .iter()
            .map(|t| t.spawn())
            .collect::<Result<Vec<_>>>()?;
        let counters = if same_state {
            self.counters
        } else {
            Counters::default()
        };
        let inner = self.inner.spawn(same_state)?;
        Ok(Box::new(ToolEnv {
            inner,
            tools,
            rewards: self.rewards.clone(),
            counters,
        }))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.inner.seek_episode(number)
    }

    fn episode_count(&self) -> Option<u64> {
        self.inner.episode_count()
    }
}
