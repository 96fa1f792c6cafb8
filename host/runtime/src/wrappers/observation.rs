//! Observation history: each observation becomes the episode so far, optionally with actions.

use super::state;
use crate::Result;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How past turns are folded into the observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObservationMode {
    /// All observations of the episode, one after another (GEM's `concat`).
    Concat,
    /// Observations interleaved with the actions taken (GEM's `concat_with_action`).
    ConcatWithAction,
}

/// Rewrites observations into the history of the episode. `info["prefix"]` and
/// `info["suffix"]`, when present, are put before and after the history.
pub struct ObservationHistory {
    inner: Box<dyn Env>,
    mode: ObservationMode,
    max_history: Option<usize>,
    history: History,
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct History {
    observations: VecDeque<String>,
    actions: VecDeque<String>,
}

fn push_line(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

impl ObservationHistory {
    /// Wraps `inner`; `max_history` keeps only the last N turns (plus the current observation).
    pub fn new(inner: Box<dyn Env>, mode: ObservationMode, max_history: Option<usize>) -> Self {
        ObservationHistory {
            inner,
            mode,
            max_history: max_history.filter(|&n| n > 0),
            history: History::default(),
        }
    }

    fn remember(&mut self, observation: String, action: Option<String>) {
        let h = &mut self.history;
        h.observations.push_back(observation);
        if let Some(action) = action {
            h.actions.push_back(action);
        }
        if let Some(n) = self.max_history {
            while h.observations.len() > n + 1 {
                h.observations.pop_front();
            }
            while h.actions.len() > n {
                h.actions.pop_front();
            }
        }
    }

    fn render(&self, info: &Info) -> String {
        let h = &self.history;
        let mut out = String::new();
        match self.mode {
            ObservationMode::Concat => h.observations.iter().for_each(|o| push_line(&mut out, o)),
            ObservationMode::ConcatWithAction => {
                let past = h.observations.len().saturating_sub(1);
                for (o, a) in h.observations.iter().take(past).zip(&h.actions) {
                    push_line(&mut out, o);
                    push_line(&mut out, a);
                }
                if let Some(last) = h.observations.back() {
                    push_line(&mut out, last);
                }
            }
        }
        let map = info.to_map();
        if let Some(prefix) = map.get("prefix").and_then(|v| v.as_str()) {
            out.insert_str(0, prefix);
        }
        if let Some(suffix) = map.get("suffix").and_then(|v| v.as_str()) {
            out.push_str(suffix);
        }
        out
    }
}

impl Env for ObservationHistory {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let out = self.inner.reset(seed)?;
        self.history = History::default();
        self.remember(out.observation, None);
        Ok(ResetOutput {
            observation: self.render(&out.info),
            info: out.info,
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let mut out = self.inner.step(action)?;
        let taken = match out.info.get("parsed_action") {
            Some(serde_json::Value::String(parsed)) => parsed,
            _ => action.to_owned(),
        };
        self.remember(std::mem::take(&mut out.observation), Some(taken));
        out.observation = self.render(&out.info);
        Ok(out)
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.inner.sample_random_action()
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        state::get(&self.history, &mut *self.inner)
    }

    fn set_state(&mut self, bytes: &[u8]) -> Result<()> {
        state::set(&mut self.history, &mut *self.inner, bytes)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let history = if same_state {
            self.history.clone()
        } else {
            History::default()
        };
        let inner = self.inner.spawn(same_state)?;
        Ok(Box::new(ObservationHistory {
            inner,
            mode: self.mode,
            max_history: self.max_history,
            history,
        }))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.inner.seek_episode(number)
    }

    fn episode_count(&self) -> Option<u64> {
        self.inner.episode_count()
    }
}
