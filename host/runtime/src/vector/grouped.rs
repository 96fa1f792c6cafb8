//! Stepping slots of one env group with (at most) two calls into the guest: one steps every
//! member that steps, one resets every member whose episode ended or failed. The outcome of
//! each slot is the one [`Slot::advance`] gives, autoreset included. The sync vector env steps
//! whole groups this way; the async pool steps whichever members have actions waiting.

use super::slot::{AutoresetMode, Plan, Slot, SlotStep};
use crate::env::{Info, StepOutput};
use crate::group::{EnvGroup, lock};
use crate::{Error, Result};
use std::sync::Mutex;

/// Where a member stands between the step call and the reset call.
enum Pending {
    /// Its result is known.
    Done(SlotStep),
    /// NextStep: it resets instead of stepping.
    ResetOnly,
    /// SameStep: its episode ended with this step; the reset follows.
    Ended(StepOutput),
    /// Its env failed; it restarts.
    Failed(Error),
}

/// Advances `slots` with one action each. `members[k]` is the member index of `slots[k]` in
/// `group` (distinct members, in any order).
pub(crate) fn advance_group(
    group: &Mutex<EnvGroup>,
    members: &[usize],
    slots: &mut [&mut Slot],
    actions: &[&str],
    mode: AutoresetMode,
) -> Vec<SlotStep> {
    debug_assert!(members.len() == slots.len() && slots.len() == actions.len());
    let mut group = lock(group);
    let mut pending: Vec<Option<Pending>> = Vec::with_capacity(slots.len());
    // Positions in `slots` and (member, action) pairs of the members that step.
    let mut stepping: Vec<usize> = Vec::with_capacity(slots.len());
    let mut to_step: Vec<(usize, &str)> = Vec::with_capacity(slots.len());
    for (i, (slot, &action)) in slots.iter().zip(actions).enumerate() {
        pending.push(match slot.plan(mode) {
            Plan::Refuse(error) => Some(Pending::Done(SlotStep::refused(error))),
            Plan::ResetOnly => Some(Pending::ResetOnly),
            Plan::Step => {
                stepping.push(i);
                to_step.push((members[i], action));
                None
            }
        });
    }
    if !to_step.is_empty() {
        match group.step_each(&to_step) {
            Ok(outputs) => {
                for (&i, output) in stepping.iter().zip(outputs) {
                    pending[i] = Some(match output {
                        Ok(out) => match slots[i].after_step(out, mode) {
                            Ok(step) => Pending::Done(step),
                            Err(ended) => Pending::Ended(ended),
                        },
                        Err(error @ Error::InputTooLarge { .. }) => {
                            Pending::Done(SlotStep::refused(error))
                        }
                        Err(error) => Pending::Failed(error),
                    });
                }
            }
            Err(error) => {
                let shared = SharedFailure(error);
                for &i in &stepping {
                    pending[i] = Some(Pending::Failed(shared.for_member()));
                }
            }
        }
    }
    let resetting: Vec<usize> = (0..pending.len())
        .filter(|&i| !matches!(pending[i], Some(Pending::Done(_))))
        .collect();
    let mut fresh: Vec<Option<Result<(String, Info)>>> = (0..slots.len()).map(|_| None).collect();
    if !resetting.is_empty() {
        let resets: Vec<(usize, Option<u64>)> =
            resetting.iter().map(|&i| (members[i], None)).collect();
        match group.reset_each(&resets) {
            Ok(outputs) => {
                for (&i, output) in resetting.iter().zip(outputs) {
                    fresh[i] = Some(output.map(|out| (out.observation, out.info)));
                }
            }
            Err(error) => {
                let shared = SharedFailure(error);
                for &i in &resetting {
                    fresh[i] = Some(Err(shared.for_member()));
                }
            }
        }
    }
    pending
        .into_iter()
        .zip(fresh)
        .zip(slots.iter_mut())
        .map(|((pending, fresh), slot)| {
            let pending = pending.expect("every member has a plan");
            let Pending::Done(step) = pending else {
                let (observation, info) = match fresh.expect("reset requested") {
                    Ok(first) => {
                        slot.mark_reset();
                        first
                    }
                    Err(error) => {
                        let error = match pending {
                            Pending::Failed(first) => first,
                            _ => error,
                        };
                        return SlotStep::failed(error, String::new(), Info::empty());
                    }
                };
                return match pending {
                    Pending::ResetOnly => SlotStep::reset(observation, info),
                    Pending::Ended(out) => SlotStep::ended(out, observation, info),
                    Pending::Failed(error) => SlotStep::failed(error, observation, info),
                    Pending::Done(_) => unreachable!("handled above"),
                };
            };
            step
        })
        .collect()
}

/// An error of a whole group call, reported by each member it ended.
struct SharedFailure(Error);

impl SharedFailure {
    /// The error as this member reports it: the same kind, marked as the group's.
    fn for_member(&self) -> Error {
        match &self.0 {
            Error::OutOfFuel { env, call, budget } => Error::OutOfFuel {
                env: env.clone(),
                call,
                budget: *budget,
            },
            Error::Deadline { env, call, limit } => Error::Deadline {
                env: env.clone(),
                call,
                limit: *limit,
            },
            Error::MemoryLimit {
                env,
                call,
                limit_bytes,
            } => Error::MemoryLimit {
                env: env.clone(),
                call,
                limit_bytes: *limit_bytes,
            },
            Error::StackOverflow { env, call } => Error::StackOverflow {
                env: env.clone(),
                call,
            },
            Error::GuestTrap { env, call, message } => Error::GuestTrap {
                env: env.clone(),
                call,
                message: format!("{message} (in the env group this slot shares an instance with)"),
            },
            Error::Contract { env, call, message } => Error::Contract {
                env: env.clone(),
                call,
                message: format!("{message} (in the env group this slot shares an instance with)"),
            },
            other => Error::Internal(format!(
                "the env group this slot shares an instance with failed: {other}"
            )),
        }
    }
}
