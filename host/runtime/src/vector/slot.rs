//! A vector env's slots: the autoreset modes, a slot's result, and one slot driven on its own.

use crate::env::{Env, Info, StepOutput};
use crate::unit::{MemberEnv, Unit};
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
    /// The reward of this step.
    pub reward: f64,
    /// The episode ended by its own rules.
    pub terminated: bool,
    /// The episode was cut short (a turn limit).
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

/// A slot's autoreset state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SlotState {
    /// The last step ended the episode (NextStep resets on the next step; Disabled refuses).
    pub episode_over: bool,
    /// No reset happened yet.
    pub fresh: bool,
    /// The seed the slot's next vector reset uses when it is given none: the vector's seed for
    /// this slot until its first reset (GEM's `make_vec` seeds), then none (its randomness goes
    /// on).
    pub first_seed: Option<u64>,
}

impl Default for SlotState {
    fn default() -> Self {
        SlotState {
            episode_over: false,
            fresh: true,
            first_seed: None,
        }
    }
}

/// What a slot's next step has to do: the autoreset rules every vector (single- and
/// multi-agent) follows.
pub(crate) enum Plan {
    /// Step the env with the action.
    Step,
    /// NextStep after an episode ended: ignore the action and reset.
    ResetOnly,
    /// Refuse the step: no reset yet, or the episode is over and autoreset is disabled.
    Refuse(Error),
}

impl SlotState {
    /// What the next step has to do under `mode`; `id` names the env in a refusal.
    pub(crate) fn plan(&self, mode: AutoresetMode, id: impl Fn() -> String) -> Plan {
        if self.fresh {
            return Plan::Refuse(Error::InvalidState {
                env: id(),
                message: "step called before reset".into(),
            });
        }
        match (self.episode_over, mode) {
            (false, _) | (true, AutoresetMode::SameStep) => Plan::Step,
            (true, AutoresetMode::NextStep) => Plan::ResetOnly,
            (true, AutoresetMode::Disabled) => Plan::Refuse(Error::InvalidState {
                env: id(),
                message: "the episode is over and autoreset is disabled; reset this slot".into(),
            }),
        }
    }

    /// Records a reset: the episode is under way.
    pub(crate) fn started(&mut self) {
        self.episode_over = false;
        self.fresh = false;
    }
}

/// One slot of a vector env, driven on its own (GEM's `vec.envs[i]`): its env (a member of a
/// unit) and its autoreset state.
pub struct Slot<'a> {
    pub(crate) unit: &'a mut dyn Unit,
    pub(crate) member: usize,
    pub(crate) state: &'a mut SlotState,
}

impl Slot<'_> {
    /// Resets the slot's env.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(String, Info)> {
        let out = self.env_mut().reset(seed)?;
        self.state.started();
        Ok((out.observation, out.info))
    }

    /// Makes the slot's next reset without a seed pose episode `number` of its env's walk (see
    /// [`Env::seek_episode`]); that reset then takes no first seed either.
    pub fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.env_mut().seek_episode(number)?;
        self.state.first_seed = None;
        Ok(())
    }

    /// Applies one action to the env itself, without autoreset (GEM's `vec.envs[i].step`). The
    /// slot remembers whether the episode ended, so the vector's next step treats it right.
    pub fn step_direct(&mut self, action: &str) -> Result<StepOutput> {
        let out = self.env_mut().step(action)?;
        self.state.episode_over = out.done();
        Ok(out)
    }

    /// Restores a snapshot from [`Env::get_state`]; the slot then counts as mid-episode.
    pub fn restore(&mut self, state: &[u8]) -> Result<()> {
        self.env_mut().set_state(state)?;
        self.state.started();
        Ok(())
    }

    /// The slot's env, for calls that do not change where the episode is (sampling, state).
    pub fn env_mut(&mut self) -> MemberEnv<'_> {
        MemberEnv::new(&mut *self.unit, self.member)
    }
}

impl SlotStep {
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
