//! Stepping a unit's members and resetting those whose episode ended in one guest call
//! (`batch.step-each-then-reset`), with the step and reset calls as the fallback.

use super::calls::StepThenResetArgs;
use super::{ComponentUnit, Request};
use crate::Result;
use crate::guest::Budget;
use crate::unit::columns::{BatchResults, EpisodeStart};
use crate::unit::{StepsAndResets, TextStep, Unit};
use wasmtime::component::TypedFunc;

/// What came of trying a step-and-reset call (`ComponentUnit::try_step_then_reset`).
enum Combined {
    Done(StepsAndResets),
    /// Not made: the batch goes to the usual calls.
    NotTried,
    /// Made, and it failed; its instance is gone.
    Failed,
}

impl ComponentUnit {
    /// Steps `steps` and resets each member whose step ended its episode under SameStep
    /// autoreset: in one call when [`ComponentUnit::try_step_then_reset`] can make it, else
    /// with a step call (the caller resets the rest).
    pub(super) fn step_then_reset(
        &mut self,
        steps: &[(usize, &str)],
        text: &mut String,
    ) -> StepsAndResets {
        match self.try_step_then_reset(steps, text) {
            Combined::Done(both) => both,
            Combined::NotTried => crate::unit::without_resets(self.step_each(steps, text)),
            Combined::Failed => {
                let faults = self.faults;
                let outputs = self.step_each(steps, text);
                // No member faulted in the step call: the combined call needed more than the
                // batch's shared budget, and such calls pause for a while.
                if self.faults == faults {
                    self.splitting[2].missed();
                }
                crate::unit::without_resets(outputs)
            }
        }
    }

    /// Steps `steps` and resets each member whose step ended its episode in one guest call
    /// (`step-each-then-reset`), when that can be done: a live instance with that export, two
    /// or more members, each with an episode to step and an action within limits, and steps
    /// not running member by member. Otherwise the whole batch is left to the usual step and
    /// reset calls, and so it is after a failed call: its instance is dropped, and the step call
    /// that follows rebuilds it and recovers as after any fault.
    fn try_step_then_reset(&mut self, steps: &[(usize, &str)], text: &mut String) -> Combined {
        let Some(both) = self.guest.live().and_then(|live| live.api.step_then_reset) else {
            return Combined::NotTried;
        };
        if steps.len() < 2 || self.splitting[0].active() || self.splitting[2].next_call_alone() {
            return Combined::NotTried;
        }
        let ready = steps.iter().all(|&(m, action)| {
            let member = &self.members[m];
            member.running && member.lost.is_none() && self.check_action(m, action).is_ok()
        });
        if !ready {
            return Combined::NotTried;
        }
        let starts: Vec<EpisodeStart> = steps
            .iter()
            .map(|&(m, _)| self.members[m].record.peek_unseeded())
            .collect();
        let live = self
            .guest
            .enter(Budget::Batch(steps.len()))
            .expect("a live instance");
        let api = &mut live.api;
        let args = &mut api.args;
        args.numbers.clear();
        args.numbers
            .extend(steps.iter().map(|&(m, _)| api.numbers[m]));
        args.set_actions(steps.iter().map(|&(_, action)| action));
        // SAFETY: the signature was checked when the instance was built.
        let func: TypedFunc<StepThenResetArgs<'_>, (BatchResults,)> =
            unsafe { TypedFunc::new_unchecked(both) };
        let call = (
            args.numbers.as_slice(),
            args.actions.as_str(),
            args.ends.as_slice(),
            starts.as_slice(),
        );
        let returned = func.call(&mut live.store, call);
        let mut returned = match returned {
            Ok((returned,)) if !live.store.data().limiter.memory_denied => returned,
            _ => return self.failed_step_then_reset(),
        };
        let ended = returned.ended(steps.len());
        let Ok(entries) = returned.entries(steps.len() + ended.len()) else {
            return self.failed_step_then_reset();
        };
        let mut entries = entries.into_iter();
        let outputs: Vec<Result<TextStep>> = steps
            .iter()
            .zip(entries.by_ref())
            .map(|(&(m, action), entry)| {
                let output = self.check(m, "step", entry, text);
                self.book((m, Request::Step(action)), output)
            })
            .collect();
        let mut resets: Vec<Option<Result<TextStep>>> = steps.iter().map(|_| None).collect();
        for (k, entry) in ended.into_iter().zip(entries) {
            // A step that broke the contract failed its member: that reset is not taken.
            if !outputs[k].as_ref().is_ok_and(TextStep::done) {
                continue;
            }
            let m = steps[k].0;
            let start = self.members[m].record.next_start(None);
            debug_assert_eq!(start, starts[k]);
            let output = self.check(m, "reset", entry, text);
            resets[k] = Some(self.book((m, Request::Reset(start)), output));
        }
        Combined::Done((outputs, resets))
    }

    /// A `step-each-then-reset` call failed: its instance goes (the usual calls that follow
    /// rebuild it).
    fn failed_step_then_reset(&mut self) -> Combined {
        self.guest.discard();
        Combined::Failed
    }
}
