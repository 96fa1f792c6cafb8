//! [`AsyncPool::step_all_now`]: a synchronous step of every slot of a pool, run the way a
//! [`VectorEnv`](crate::VectorEnv) runs one. When the caller waits for the whole batch anyway,
//! queueing a job per slot and waking the workers only adds hand-offs: the calling thread and
//! the process's helper threads step the runs themselves, and the results reach the caller as
//! they finish.

use super::AsyncPool;
use crate::vector::grouped;
use crate::vector::parallel;
use crate::vector::slot::Slot;
use crate::vector::step::{UnitSteps, VectorStep};
use crate::{Error, Result};
use std::sync::atomic::Ordering;
use std::sync::{MutexGuard, PoisonError};

/// Releases claimed slots when dropped, also while unwinding.
struct Claimed<'a>(&'a AsyncPool, usize);

impl Drop for Claimed<'_> {
    fn drop(&mut self) {
        for flag in &self.0.shared.in_flight[..self.1] {
            flag.store(false, Ordering::Release);
        }
    }
}

impl AsyncPool {
    /// Steps every slot once, with one action each, and hands the results to `take` on the
    /// calling thread as they finish, a few slots at a time in any order (as
    /// [`VectorEnv::step_streamed`](crate::VectorEnv::step_streamed) does). The steps run on
    /// the calling thread and the process's helper threads, not on the pool's workers. Fails
    /// without stepping anything when the action count is wrong or any slot has a job in
    /// flight; while it runs, jobs sent to any slot are refused as in flight.
    pub fn step_all_now<S: AsRef<str> + Sync>(
        &self,
        actions: &[S],
        take: &mut dyn FnMut(&mut VectorStep),
    ) -> Result<()> {
        let n = self.num_envs();
        if actions.len() != n {
            return Err(Error::InvalidArgument(format!(
                "{} actions for {n} envs; pass one per env or a subset by index",
                actions.len()
            )));
        }
        let mut claimed = Claimed(self, 0);
        for index in 0..n {
            self.claim(index)?;
            claimed.1 = index + 1;
        }
        let shared = &*self.shared;
        let mode = shared.mode();
        let step = |run: &mut usize, actions: &&[S]| {
            let (start, run) = (shared.starts[*run], &shared.runs[*run]);
            let mut guards: Vec<MutexGuard<'_, Slot>> = shared.slots[start..start + run.len]
                .iter()
                .map(|slot| slot.lock().unwrap_or_else(PoisonError::into_inner))
                .collect();
            match &run.group {
                Some(group) => {
                    let members: Vec<usize> = (0..run.len).collect();
                    let mut slots: Vec<&mut Slot> = guards.iter_mut().map(|g| &mut **g).collect();
                    let actions: Vec<&str> = actions.iter().map(AsRef::as_ref).collect();
                    UnitSteps::Run(grouped::advance_group(
                        group, &members, &mut slots, &actions, mode,
                    ))
                }
                None => UnitSteps::Lone(guards[0].advance(actions[0].as_ref(), mode)),
            }
        };
        let mut runs: Vec<usize> = (0..shared.runs.len()).collect();
        let run_actions: Vec<&[S]> = (shared.starts.iter().zip(&shared.runs))
            .map(|(&start, run)| &actions[start..start + run.len])
            .collect();
        let mut batch = VectorStep::with_capacity(n);
        let mut balance = self.balance.lock().unwrap_or_else(PoisonError::into_inner);
        // About eight takes per step, as `VectorEnv::step_streamed` makes.
        let chunk = runs.len().div_ceil(8);
        parallel::map_zip_streamed(
            &mut runs,
            &run_actions,
            step,
            chunk,
            &mut balance,
            &mut |ready| {
                batch.clear();
                for (run, steps) in ready.drain(..) {
                    batch.push_unit(shared.starts[run], steps);
                }
                take(&mut batch);
            },
        );
        Ok(())
    }
}
