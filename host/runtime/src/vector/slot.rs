//! One slot of a vector env: an env plus the bookkeeping autoreset needs.

use crate::env::{Env, Info, StepOutput};
use crate::{Error, Result};

/// What a vector env does when an episode in one of its slots ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoresetMode {
    /// GEM's default: the step that ends an episode also resets the env; it returns the final
    /// reward and flags with the *new* episode's first observation and info (the final
    /// observation and info are kept in [`SlotStep::final_observation`] / `final_info`).
    #[default]
    SameStep,
    /// Gymnasium's default: the step that ends an episode returns its final observation; the
    /// next step of that slot ignores its action and resets, returning reward 0 and no flags.
    NextStep,
    /// No autoreset: a finished slot must be reset by the caller; stepping it is an error.
    Disabled,
}

impl std::str::FromStr for AutoresetMode {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text.to_ascii_lowercase().replace(['_', '-'], "").as_str() {
            "samestep" => Ok(AutoresetMode::SameStep),
            "nextstep" => Ok(AutoresetMode::NextStep),
            "disabled" => Ok(AutoresetMode::Disabled),
            _ => Err(Error::BadConfig {
                id: "vector env".into(),
                key: "autoreset_mode".into(),
                message: format!("unknown mode `{text}`; expected SameStep, NextStep or Disabled"),
            }),
        }
    }
}

/// The result of stepping one slot.
#[derive(Debug)]
pub struct SlotStep {
    /// The observation to act on next (after SameStep autoreset: the new episode's first one).
    pub observation: String,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// The info that goes with `observation`.
    pub info: Info,
    /// Under SameStep, when this step ended an episode: its last observation.
    pub final_observation: Option<String>,
    /// Under SameStep, when this step ended an episode: its last info.
    pub final_info: Option<Info>,
    /// The slot's env failed (trapped, hit a limit, refused). It was reset to a fresh instance;
    /// the step counts as truncated with reward 0.
    pub error: Option<Error>,
}

/// An env with its autoreset state.
pub struct Slot {
    pub(crate) env: Box<dyn Env>,
    /// The last step ended the episode (NextStep resets on the next step; Disabled refuses).
    pub(crate) episode_over: bool,
    /// No reset happened yet.
    pub(crate) fresh: bool,
}

impl Slot {
    /// Wraps an env that has not been reset yet.
    pub fn new(env: Box<dyn Env>) -> Self {
        Slot {
            env,
            episode_over: false,
            fresh: true,
        }
    }

    /// Resets the slot's env.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(String, Info)> {
        let out = self.env.reset(seed)?;
        self.episode_over = false;
        self.fresh = false;
        Ok((out.observation, out.info))
    }

    /// Applies one action to the env itself, without autoreset (GEM's `vec.envs[i].step`). The
    /// slot remembers whether the episode ended, so the vector's next step treats it right.
    pub fn step_direct(&mut self, action: &str) -> Result<crate::env::StepOutput> {
        let out = self.env.step(action)?;
        self.episode_over = out.done();
        Ok(out)
    }

    /// Restores a snapshot from [`Env::get_state`]; the slot then counts as mid-episode.
    pub fn restore(&mut self, state: &[u8]) -> Result<()> {
        self.env.set_state(state)?;
        self.fresh = false;
        self.episode_over = false;
        Ok(())
    }

    /// The slot's env, for calls that do not change where the episode is (sampling, state).
    pub fn env_mut(&mut self) -> &mut dyn Env {
        &mut *self.env
    }

    /// Applies one action under `mode`. Never fails: an env error is reported in the result and
    /// the slot restarts from a fresh instance.
    pub fn advance(&mut self, action: &str, mode: AutoresetMode) -> SlotStep {
        match self.plan(mode) {
            Plan::Refuse(error) => SlotStep::refused(error),
            Plan::ResetOnly => match self.reset(None) {
                Ok((observation, info)) => SlotStep::reset(observation, info),
                Err(error) => self.recover(error),
            },
            Plan::Step => match self.env.step(action) {
                Ok(out) => match self.after_step(out, mode) {
                    Ok(step) => step,
                    Err(out) => match self.reset(None) {
                        Ok((observation, info)) => SlotStep::ended(out, observation, info),
                        Err(error) => self.recover(error),
                    },
                },
                Err(error) => self.recover(error),
            },
        }
    }

    /// What this slot's next step has to do under `mode`.
    pub(crate) fn plan(&self, mode: AutoresetMode) -> Plan {
        if self.fresh {
            return Plan::Refuse(Error::InvalidState {
                env: self.env.id().to_owned(),
                message: "step called before reset".into(),
            });
        }
        if !self.episode_over {
            return Plan::Step;
        }
        match mode {
            AutoresetMode::NextStep => Plan::ResetOnly,
            AutoresetMode::Disabled => Plan::Refuse(Error::InvalidState {
                env: self.env.id().to_owned(),
                message: "the episode is over and autoreset is disabled; reset this slot".into(),
            }),
            AutoresetMode::SameStep => Plan::Step,
        }
    }

    /// Books a step's outcome: the slot's result, or (`Err`) the step that ended an episode
    /// under SameStep, which still needs the reset that goes with it.
    pub(crate) fn after_step(
        &mut self,
        out: StepOutput,
        mode: AutoresetMode,
    ) -> std::result::Result<SlotStep, StepOutput> {
        if self.book_step(out.done(), mode) {
            return Err(out);
        }
        Ok(SlotStep::plain(
            out.observation,
            out.reward,
            out.terminated,
            out.truncated,
            out.info,
        ))
    }

    /// Books a step that ended the episode or not; true when the reset that goes with it is
    /// due now (SameStep).
    pub(crate) fn book_step(&mut self, done: bool, mode: AutoresetMode) -> bool {
        self.episode_over = done;
        done && mode == AutoresetMode::SameStep
    }

    /// Books a reset done on the slot's behalf (by its env group).
    pub(crate) fn mark_reset(&mut self) {
        self.episode_over = false;
        self.fresh = false;
    }

    /// After an env error: restart the slot from a fresh episode and report the error (an
    /// action over its size limit never reached the env, which goes on as it was).
    pub(crate) fn recover(&mut self, error: Error) -> SlotStep {
        if matches!(error, Error::InputTooLarge { .. }) {
            return SlotStep::refused(error);
        }
        let (observation, info) = self
            .reset(None)
            .unwrap_or_else(|_| (String::new(), Info::empty()));
        SlotStep::failed(error, observation, info)
    }
}

/// What a slot's next step has to do.
pub(crate) enum Plan {
    /// Step the env with the action.
    Step,
    /// NextStep autoreset: reset instead, ignoring the action.
    ResetOnly,
    /// Refuse without touching the env.
    Refuse(Error),
}

impl SlotStep {
    /// A step refused before it reached the env: no observation, nothing changed.
    pub(crate) fn refused(error: Error) -> Self {
        SlotStep {
            error: Some(error),
            ..SlotStep::plain(String::new(), 0.0, false, false, Info::empty())
        }
    }

    /// The env failed and the slot restarted: the new episode's first observation, truncated.
    pub(crate) fn failed(error: Error, observation: String, info: Info) -> Self {
        SlotStep {
            error: Some(error),
            ..SlotStep::plain(observation, 0.0, false, true, info)
        }
    }

    /// SameStep: the step `out` ended its episode, and the next one began with `observation`.
    pub(crate) fn ended(out: StepOutput, observation: String, info: Info) -> Self {
        SlotStep {
            observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
            info,
            final_observation: Some(out.observation),
            final_info: Some(out.info),
            error: None,
        }
    }

    /// The result of a reset: the first observation, reward 0, no flags.
    pub fn reset(observation: String, info: Info) -> Self {
        SlotStep::plain(observation, 0.0, false, false, info)
    }

    fn plain(
        observation: String,
        reward: f64,
        terminated: bool,
        truncated: bool,
        info: Info,
    ) -> Self {
        SlotStep {
            observation,
            reward,
            terminated,
            truncated,
            info,
            final_observation: None,
            final_info: None,
            error: None,
        }
    }
}
