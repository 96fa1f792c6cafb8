//! Episode tracking: step count and return of the current and the previous episode, in info.

use super::state;
use crate::Result;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Adds `step_counter` and `cumulative_rewards` to every info, and on reset also
/// `prev_ep_step_counter` and `prev_ep_cumulative_rewards`. Meant as the outermost wrapper.
pub struct EpisodeTracking {
    inner: Box<dyn Env>,
    counters: Counters,
}

#[derive(Clone, Copy, Default, Serialize, Deserialize)]
struct Counters {
    step_counter: u64,
    cumulative_rewards: f64,
}

impl EpisodeTracking {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn Env>) -> Self {
        EpisodeTracking {
            inner,
            counters: Counters::default(),
        }
    }
}

impl Env for EpisodeTracking {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let previous = self.counters;
        let mut out = self.inner.reset(seed)?;
        self.counters = Counters::default();
        let mut info = out.info.to_map();
        info.insert("step_counter".into(), json!(0));
        info.insert("prev_ep_step_counter".into(), json!(previous.step_counter));
        info.insert("cumulative_rewards".into(), json!(0.0));
        info.insert(
            "prev_ep_cumulative_rewards".into(),
            json!(previous.cumulative_rewards),
        );
        out.info = Info::from_map(&info);
        Ok(out)
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let mut out = self.inner.step(action)?;
        self.counters.step_counter += 1;
        self.counters.cumulative_rewards += out.reward;
        let mut info = out.info.to_map();
        info.insert("step_counter".into(), json!(self.counters.step_counter));
        info.insert(
            "cumulative_rewards".into(),
            json!(self.counters.cumulative_rewards),
        );
        out.info = Info::from_map(&info);
        Ok(out)
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
        let counters = if same_state {
            self.counters
        } else {
            Counters::default()
        };
        Ok(Box::new(EpisodeTracking {
            inner: self.inner.spawn(same_state)?,
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
