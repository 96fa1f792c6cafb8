//! The optional `batch` export: many instances of one component stepped or reset in one call,
//! each exactly as its own `step`/`reset` would, with the results packed column by column.
//!
//! Instances are named by number in batch calls: [`enrol`] numbers one. Any plugin can serve
//! the export with [`step_each`] and [`reset_each`] once its instances implement [`Member`].
//! The host gives a call of several members no more fuel, time or memory growth than one member
//! may use, and runs each member alone under its own limits when a call fails, so a fault is
//! blamed on the member that causes it alone.
//! A member's results must depend only on its configuration, its
//! [`EpisodeStart`](crate::EpisodeStart) and the calls made on it: the host replays members'
//! episodes in a fresh instance after a fault.

use crate::Environment;
use crate::bindings::exports::geode::env::batch::{
    BatchResults, EnvError, EpisodeStart as ContractStart, Guest, InstanceBorrow,
};
use crate::bindings::exports::geode::env::env::{ResetResult, StepResult};
use crate::members::members;
pub use crate::members::{Member, enrol};
use crate::plugin::{Plugin, Slot};
use std::rc::Rc;

fn unknown(number: u32) -> EnvError {
    EnvError::InvalidState(format!("no live instance is enrolled as number {number}"))
}

/// Serves `step-each`: each member steps with its action.
pub fn step_each(numbers: Vec<u32>, actions: String, action_ends: Vec<u32>) -> BatchResults {
    step_members(&members(&numbers), &numbers, &actions, &action_ends).finish()
}

/// Each of `live` (enrolled as `numbers`) stepped with its action, as columns.
fn step_members(
    live: &[Option<Rc<dyn Member>>],
    numbers: &[u32],
    actions: &str,
    action_ends: &[u32],
) -> Columns {
    let mut out = Columns::with_capacity(numbers.len());
    let mut start = 0usize;
    for (k, member) in live.iter().enumerate() {
        let end = action_ends.get(k).map_or(usize::MAX, |&e| e as usize);
        out.push_step(match (member, actions.get(start..end)) {
            (Some(member), Some(action)) => member.step(action),
            (None, _) => Err(unknown(numbers[k])),
            (_, None) => Err(EnvError::Internal(format!(
                "entry {k}: action bounds {start}..{end} do not fit the actions text"
            ))),
        });
        start = end.max(start);
    }
    out
}

/// Serves `reset-each`: each member starts an episode as its entry of `starts` says.
pub fn reset_each(numbers: Vec<u32>, starts: Vec<ContractStart>) -> BatchResults {
    let mut out = Columns::with_capacity(numbers.len());
    let mut starts = starts.into_iter();
    for (k, member) in members(&numbers).into_iter().enumerate() {
        out.push_reset(reset_member(member, starts.next(), numbers[k], k));
    }
    out.finish()
}

/// Serves `step-each-then-reset`: `step-each`, then each member whose step ended its episode
/// starts the next one as its entry of `starts` says; the resets' entries follow the steps'.
pub fn step_each_then_reset(
    numbers: Vec<u32>,
    actions: String,
    action_ends: Vec<u32>,
    starts: Vec<ContractStart>,
) -> BatchResults {
    let live = members(&numbers);
    let mut out = step_members(&live, &numbers, &actions, &action_ends);
    for (k, member) in live.into_iter().enumerate() {
        if out.0.flags[k] & REFUSED == 0 && out.0.flags[k] & (TERMINATED | TRUNCATED) != 0 {
            out.push_reset(reset_member(member, starts.get(k).cloned(), numbers[k], k));
        }
    }
    out.finish()
}

/// What member `number` (entry `k`) returns for a reset that starts as `start`.
fn reset_member(
    member: Option<Rc<dyn Member>>,
    start: Option<ContractStart>,
    number: u32,
    k: usize,
) -> Result<ResetResult, EnvError> {
    match (member, start) {
        (Some(member), Some(start)) => member.reset(start.into()),
        (None, _) => Err(unknown(number)),
        (_, None) => Err(EnvError::Internal(format!(
            "entry {k} has no episode start"
        ))),
    }
}

/// [`BatchResults`] under construction, one entry at a time.
struct Columns(BatchResults);

const TERMINATED: u8 = 1;
const TRUNCATED: u8 = 2;
const REFUSED: u8 = 4;

/// Room reserved per member for its observation and its info: enough for a typical game turn,
/// so that a batch's text buffers are allocated once instead of grown by doubling.
const OBSERVATION_ROOM: usize = 128;
const INFO_ROOM: usize = 64;

impl Columns {
    fn with_capacity(n: usize) -> Self {
        Columns(BatchResults {
            observations: String::with_capacity(n * OBSERVATION_ROOM),
            observation_ends: Vec::with_capacity(n),
            infos: String::with_capacity(n * INFO_ROOM),
            info_ends: Vec::with_capacity(n),
            rewards: Vec::with_capacity(n),
            flags: Vec::with_capacity(n),
            errors: Vec::new(),
        })
    }

    fn push(&mut self, observation: &str, info: &str, reward: f64, flags: u8) {
        let out = &mut self.0;
        crate::text::append(&mut out.observations, observation);
        out.observation_ends.push(out.observations.len() as u32);
        crate::text::append(&mut out.infos, info);
        out.info_ends.push(out.infos.len() as u32);
        out.rewards.push(reward);
        out.flags.push(flags);
    }

    fn refuse(&mut self, error: EnvError) {
        let entry = self.0.flags.len() as u32;
        self.push("", "", 0.0, REFUSED);
        self.0.errors.push((entry, error));
    }

    fn push_step(&mut self, result: Result<StepResult, EnvError>) {
        match result {
            Ok(step) => {
                let flags = (if step.terminated { TERMINATED } else { 0 })
                    | (if step.truncated { TRUNCATED } else { 0 });
                self.push(&step.observation, &step.info, step.reward, flags);
            }
            Err(error) => self.refuse(error),
        }
    }

    fn push_reset(&mut self, result: Result<ResetResult, EnvError>) {
        match result {
            Ok(reset) => self.push(&reset.observation, &reset.info, 0.0, 0),
            Err(error) => self.refuse(error),
        }
    }

    fn finish(self) -> BatchResults {
        self.0
    }
}

impl<E: Environment> Guest for Plugin<E> {
    fn enrol(member: InstanceBorrow<'_>) -> u32 {
        enrol(&member.get::<Slot<E>>().member())
    }

    fn step_each(members: Vec<u32>, actions: String, action_ends: Vec<u32>) -> BatchResults {
        step_each(members, actions, action_ends)
    }

    fn reset_each(members: Vec<u32>, starts: Vec<ContractStart>) -> BatchResults {
        reset_each(members, starts)
    }

    fn step_each_then_reset(
        members: Vec<u32>,
        actions: String,
        action_ends: Vec<u32>,
        starts: Vec<ContractStart>,
    ) -> BatchResults {
        step_each_then_reset(members, actions, action_ends, starts)
    }
}
