//! Autoreset, once: a batch of a unit's slots advances with (at most) two calls into the unit,
//! one that steps every member that steps and one that resets every member whose episode ended
//! (SameStep), failed, or waits for its NextStep reset. Under SameStep, a unit that can reset
//! the members whose step ended their episode in the step's own call does so (see
//! [`Unit::step_each_then_reset`]), and the second call is left for the rest. Every vector env
//! and pool step goes through [`advance`]; the results come packed (see [`PackedRun`]), entry
//! `k` for `batch[k]`.

use super::slot::{AutoresetMode, Plan, SlotState};
use crate::Error;
use crate::unit::{PackedEntry, PackedRun, TextStep, Unit};

/// Why a member needs a reset after the step call.
enum AwaitingReset {
    /// NextStep: it resets instead of stepping.
    ResetOnly,
    /// SameStep: its episode ended with this step; the reset follows.
    Ended(TextStep),
    /// Its env failed; it restarts.
    Failed(Error),
}

/// Room reserved per member in a run's text (observation and info; more grows the buffer).
const TEXT_PER_MEMBER: usize = 256;

/// Advances `batch`'s `(member, action)` pairs of `unit` (distinct members; `states` holds
/// every member's autoreset state) under `mode`. Never fails: a member's error is reported in
/// its entry, and the member restarts.
pub(crate) fn advance(
    unit: &mut dyn Unit,
    states: &mut [SlotState],
    batch: &[(usize, &str)],
    mode: AutoresetMode,
) -> PackedRun {
    // Every entry is written once, in place: members that still need a reset hold a
    // placeholder until the reset call, and wait in `awaiting` meanwhile.
    let mut run = PackedRun {
        text: String::with_capacity(batch.len() * TEXT_PER_MEMBER),
        entries: vec![PackedEntry::default(); batch.len()],
        errors: Vec::new(),
    };
    let mut awaiting: Vec<(usize, AwaitingReset)> = Vec::new();
    let mut stepping: Vec<usize> = Vec::with_capacity(batch.len());
    let mut to_step: Vec<(usize, &str)> = Vec::with_capacity(batch.len());
    for (k, &(member, action)) in batch.iter().enumerate() {
        match states[member].plan(mode, || unit.id(member).to_owned()) {
            Plan::Refuse(error) => run.entries[k] = run.refused(k, error),
            Plan::ResetOnly => awaiting.push((k, AwaitingReset::ResetOnly)),
            Plan::Step => {
                stepping.push(k);
                to_step.push((member, action));
            }
        }
    }
    if !to_step.is_empty() {
        let (outputs, resets) = match mode {
            AutoresetMode::SameStep => unit.step_each_then_reset(&to_step, &mut run.text),
            _ => crate::unit::without_resets(unit.step_each(&to_step, &mut run.text)),
        };
        for ((&k, output), reset) in stepping.iter().zip(outputs).zip(resets) {
            match output {
                Ok(step) => {
                    let state = &mut states[batch[k].0];
                    state.episode_over = step.done();
                    if step.done() && mode == AutoresetMode::SameStep {
                        match reset {
                            // Reset in the step's own call.
                            Some(Ok(first)) => {
                                state.episode_over = false;
                                run.entries[k] = PackedEntry::ended(step, first);
                            }
                            Some(Err(error)) => run.entries[k] = run.failed(k, error, None),
                            None => awaiting.push((k, AwaitingReset::Ended(step))),
                        }
                    } else {
                        run.entries[k] = PackedEntry {
                            reward: step.reward,
                            terminated: step.terminated,
                            truncated: step.truncated,
                            ..PackedEntry::plain(step.observation, step.info)
                        };
                    }
                }
                // An action over its size limit never reached the env, which goes on as it was.
                Err(error @ Error::InputTooLarge { .. }) => run.entries[k] = run.refused(k, error),
                Err(error) => awaiting.push((k, AwaitingReset::Failed(error))),
            }
        }
    }
    if awaiting.is_empty() {
        return run;
    }
    awaiting.sort_unstable_by_key(|(k, _)| *k);
    let resets: Vec<(usize, Option<u64>)> =
        awaiting.iter().map(|&(k, _)| (batch[k].0, None)).collect();
    let fresh = unit.reset_each(&resets, &mut run.text);
    for ((k, why), fresh) in awaiting.into_iter().zip(fresh) {
        let state = &mut states[batch[k].0];
        run.entries[k] = match (why, fresh) {
            (why, Ok(first)) => {
                state.episode_over = false;
                match why {
                    AwaitingReset::ResetOnly => PackedEntry::plain(first.observation, first.info),
                    AwaitingReset::Ended(last) => PackedEntry::ended(last, first),
                    AwaitingReset::Failed(error) => run.failed(k, error, Some(first)),
                }
            }
            // The first failure is the one to report; the slot waits for a reset of its own.
            (AwaitingReset::Failed(error), Err(_)) | (_, Err(error)) => {
                state.episode_over = true;
                run.failed(k, error, None)
            }
        };
    }
    run
}
