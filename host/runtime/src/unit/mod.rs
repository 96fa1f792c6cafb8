//! The unit of stepping: a [`Unit`] steps or resets a batch of its members with one call into
//! the guest. A vector env's slots are cut into units (see `Registry::make_vec`); a lone env is
//! a unit of one. Every env API above this (the [`Env`] trait, vector envs, the async pool) goes
//! through a unit, so stepping, output checks and fault recovery exist once.
//!
//! - [`ComponentUnit`]: envs of one component plugin in one instance; one guest call per batch
//!   through the plugin's `batch` export. A fault inside the call is recovered so that only the
//!   member that caused it sees an error (see `component/`).
//! - [`BoxedUnit`]: any other [`Env`] (native envs, wrapped envs), a unit of one. Wrapped envs
//!   of a plugin that exports `batch` still share instances: each wraps a [`SharedMember`].

mod columns;
mod component;
mod record;
mod results;
mod shared;

pub use component::ComponentUnit;
pub(crate) use results::{PackedEntry, PackedRun, TextStep};
pub(crate) use shared::SharedMember;

use crate::Result;
use crate::env::{Env, ResetOutput, StepOutput};

/// Step results, and for each the reset done in the same call if any (see
/// [`Unit::step_each_then_reset`]).
pub(crate) type StepsAndResets = (Vec<Result<TextStep>>, Vec<Option<Result<TextStep>>>);

/// Members of a batch stepped or reset together. Results come back per member, in batch order:
/// a member's error never fails its siblings.
pub(crate) trait Unit: Send {
    /// Number of members.
    fn len(&self) -> usize;

    /// The env id of `member`.
    fn id(&self, member: usize) -> &str;

    /// Steps each `(member, action)` (distinct members); strings are appended to `text`.
    fn step_each(&mut self, steps: &[(usize, &str)], text: &mut String) -> Vec<Result<TextStep>>;

    /// Resets each `(member, seed)` (distinct members); strings are appended to `text`. Only
    /// the first observation and info of a reset's result are read.
    fn reset_each(
        &mut self,
        resets: &[(usize, Option<u64>)],
        text: &mut String,
    ) -> Vec<Result<TextStep>>;

    /// [`Unit::step_each`] for SameStep autoreset: also, where the unit can do it in the same
    /// guest call, the unseeded reset (`reset_each` with no seed) of each member whose step
    /// ended its episode. Entry `k` of the second list is that reset's result, or `None` when
    /// the member was not reset here (the caller resets it as usual).
    fn step_each_then_reset(
        &mut self,
        steps: &[(usize, &str)],
        text: &mut String,
    ) -> StepsAndResets {
        without_resets(self.step_each(steps, text))
    }

    /// A random action valid in `member`'s current state.
    fn sample_random_action(&mut self, member: usize) -> Result<String>;

    /// A snapshot of `member`'s state.
    fn get_state(&mut self, member: usize) -> Result<Vec<u8>>;

    /// Restores `member` from a snapshot; its episode then runs on from there.
    fn set_state(&mut self, member: usize, state: &[u8]) -> Result<()>;

    /// A new lone env of `member`'s id and configuration; with `same_state`, in its state.
    fn spawn(&mut self, member: usize, same_state: bool) -> Result<Box<dyn Env>>;

    /// See [`Env::seek_episode`].
    fn seek_episode(&mut self, member: usize, number: u64) -> Result<()>;
}

/// Any [`Env`] as a unit of one.
pub(crate) struct BoxedUnit(pub Box<dyn Env>);

impl Unit for BoxedUnit {
    fn len(&self) -> usize {
        1
    }

    fn id(&self, _member: usize) -> &str {
        self.0.id()
    }

    fn step_each(&mut self, steps: &[(usize, &str)], text: &mut String) -> Vec<Result<TextStep>> {
        steps
            .iter()
            .map(|&(_, action)| {
                let out = self.0.step(action)?;
                Ok(TextStep {
                    observation: append(text, &out.observation),
                    info: append(text, out.info.as_json()),
                    reward: out.reward,
                    terminated: out.terminated,
                    truncated: out.truncated,
                })
            })
            .collect()
    }

    fn reset_each(
        &mut self,
        resets: &[(usize, Option<u64>)],
        text: &mut String,
    ) -> Vec<Result<TextStep>> {
        resets
            .iter()
            .map(|&(_, seed)| {
                let out = self.0.reset(seed)?;
                let observation = append(text, &out.observation);
                Ok(TextStep::first(
                    observation,
                    append(text, out.info.as_json()),
                ))
            })
            .collect()
    }

    fn sample_random_action(&mut self, _member: usize) -> Result<String> {
        self.0.sample_random_action()
    }

    fn get_state(&mut self, _member: usize) -> Result<Vec<u8>> {
        self.0.get_state()
    }

    fn set_state(&mut self, _member: usize, state: &[u8]) -> Result<()> {
        self.0.set_state(state)
    }

    fn spawn(&mut self, _member: usize, same_state: bool) -> Result<Box<dyn Env>> {
        self.0.spawn(same_state)
    }

    fn seek_episode(&mut self, _member: usize, number: u64) -> Result<()> {
        self.0.seek_episode(number)
    }
}

/// Step outputs with no member reset in the same call (see [`Unit::step_each_then_reset`]).
pub(crate) fn without_resets(outputs: Vec<Result<TextStep>>) -> StepsAndResets {
    let resets = outputs.iter().map(|_| None).collect();
    (outputs, resets)
}

/// Appends `piece` to `text`; where it lies there.
pub(crate) fn append(text: &mut String, piece: &str) -> std::ops::Range<usize> {
    let start = text.len();
    text.push_str(piece);
    start..text.len()
}

/// One member of a unit, seen as an [`Env`] (GEM's `vec.envs[i]`, a lone env).
pub struct MemberEnv<'a> {
    unit: &'a mut dyn Unit,
    member: usize,
}

impl<'a> MemberEnv<'a> {
    /// Member `member` of `unit`.
    pub(crate) fn new(unit: &'a mut dyn Unit, member: usize) -> Self {
        MemberEnv { unit, member }
    }
}

impl Env for MemberEnv<'_> {
    fn id(&self) -> &str {
        self.unit.id(self.member)
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let mut text = String::new();
        let out = self.unit.reset_each(&[(self.member, seed)], &mut text);
        let first = out.into_iter().next().expect("one result per member")?;
        Ok(first.to_reset(&text))
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let mut text = String::new();
        let out = self.unit.step_each(&[(self.member, action)], &mut text);
        let step = out.into_iter().next().expect("one result per member")?;
        Ok(step.to_owned(&text))
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.unit.sample_random_action(self.member)
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.unit.get_state(self.member)
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.unit.set_state(self.member, state)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        self.unit.spawn(self.member, same_state)
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.unit.seek_episode(self.member, number)
    }
}
