//! Stepping slots of one env group with (at most) two calls into the guest: one steps every
//! member that steps, one resets every member whose episode ended or failed. The outcome of
//! each slot is the one [`Slot::advance`] gives, autoreset included, packed with the others'
//! (see [`PackedRun`]). The sync vector env steps
//! whole groups this way; the async pool steps whichever members have actions waiting.

use super::packed::{PackedEntry, PackedRun, TextReset, TextStep};
use super::slot::{AutoresetMode, Plan, Slot};
use crate::group::{EnvGroup, lock};
use crate::{Error, Result};
use std::sync::Mutex;

/// Why a member needs a reset after the step call.
enum AwaitingReset {
    /// NextStep: it resets instead of stepping.
    ResetOnly,
    /// SameStep: its episode ended with this step; the reset follows.
    Ended(TextStep),
    /// Its env failed; it restarts.
    Failed(Error),
}

/// Advances `slots` with one action each. `members[k]` is the member index of `slots[k]` in
/// `group` (distinct members, in any order). The results come packed, entry `k` for `slots[k]`.
pub(crate) fn advance_group(
    group: &Mutex<EnvGroup>,
    members: &[usize],
    slots: &mut [&mut Slot],
    actions: &[&str],
    mode: AutoresetMode,
) -> PackedRun {
    debug_assert!(members.len() == slots.len() && slots.len() == actions.len());
    let mut group = lock(group);
    // Every entry is written once, in place: members that still need a reset hold a
    // placeholder until the reset call, and wait in `awaiting` meanwhile.
    let mut run = PackedRun {
        text: String::with_capacity(slots.len() * TEXT_PER_MEMBER),
        entries: vec![PackedEntry::default(); slots.len()],
        errors: Vec::new(),
    };
    let mut awaiting: Vec<(usize, AwaitingReset)> = Vec::new();
    // Positions in `slots` and (member, action) pairs of the members that step.
    let mut stepping: Vec<usize> = Vec::with_capacity(slots.len());
    let mut to_step: Vec<(usize, &str)> = Vec::with_capacity(slots.len());
    for (i, (slot, &action)) in slots.iter().zip(actions).enumerate() {
        match slot.plan(mode) {
            Plan::Refuse(error) => run.entries[i] = run.refused(i, error),
            Plan::ResetOnly => awaiting.push((i, AwaitingReset::ResetOnly)),
            Plan::Step => {
                stepping.push(i);
                to_step.push((members[i], action));
            }
        }
    }
    if !to_step.is_empty() {
        match group.step_each_into(&to_step, &mut run.text) {
            Ok(outputs) => {
                for (&i, output) in stepping.iter().zip(outputs) {
                    match output {
                        Ok(step) => {
                            if slots[i].book_step(step.done(), mode) {
                                awaiting.push((i, AwaitingReset::Ended(step)));
                            } else {
                                run.entries[i] = PackedEntry {
                                    reward: step.reward,
                                    terminated: step.terminated,
                                    truncated: step.truncated,
                                    ..PackedEntry::plain(step.observation, step.info)
                                };
                            }
                        }
                        Err(error @ Error::InputTooLarge { .. }) => {
                            run.entries[i] = run.refused(i, error)
                        }
                        Err(error) => awaiting.push((i, AwaitingReset::Failed(error))),
                    }
                }
            }
            Err(error) => {
                let shared = SharedFailure(error);
                for &i in &stepping {
                    awaiting.push((i, AwaitingReset::Failed(shared.for_member())));
                }
            }
        }
    }
    if awaiting.is_empty() {
        return run;
    }
    awaiting.sort_unstable_by_key(|(i, _)| *i);
    let resets: Vec<(usize, Option<u64>)> =
        awaiting.iter().map(|&(i, _)| (members[i], None)).collect();
    let fresh: Vec<Result<TextReset>> = match group.reset_each_into(&resets, &mut run.text) {
        Ok(outputs) => outputs,
        Err(error) => {
            let shared = SharedFailure(error);
            awaiting.iter().map(|_| Err(shared.for_member())).collect()
        }
    };
    for ((i, why), fresh) in awaiting.into_iter().zip(fresh) {
        run.entries[i] = match (why, fresh) {
            (why, Ok(first)) => {
                slots[i].mark_reset();
                match why {
                    AwaitingReset::ResetOnly => PackedEntry::plain(first.observation, first.info),
                    AwaitingReset::Ended(last) => PackedEntry::ended(last, first),
                    AwaitingReset::Failed(error) => run.failed(i, error, Some(first)),
                }
            }
            // The first failure is the one to report.
            (AwaitingReset::Failed(error), Err(_)) | (_, Err(error)) => run.failed(i, error, None),
        };
    }
    run
}

/// Room reserved per member in a run's text (observation and info; more grows the buffer).
const TEXT_PER_MEMBER: usize = 256;

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
