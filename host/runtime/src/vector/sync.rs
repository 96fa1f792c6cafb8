//! [`VectorEnv`]: N env slots stepped together, in parallel (see [`super::parallel`]), results
//! in index order.

use super::grouped;
use super::parallel;
use super::runs::Run;
use super::share::Balance;
use super::slot::{AutoresetMode, Slot, SlotStep};
use super::step::{FinishedRuns, UnitSteps, VectorStep};
use crate::env::{Env, Info};
use crate::group::EnvGroup;
use crate::{Error, Result};
use std::sync::Mutex;

/// A run's slots and, for a group's members, their group.
type Unit<'s> = (&'s mut [Slot], Option<&'s Mutex<EnvGroup>>);

/// Actions for a step: one per slot, or a subset by slot index (GEM's partial steps). Actions
/// are any string type: owned `String`s, or `&str`s borrowed from the caller's own buffers.
#[derive(Debug, Clone)]
pub enum Actions<'a, S: AsRef<str> = String> {
    /// One action per slot, in slot order.
    All(&'a [S]),
    /// `(slot index, action)` pairs; results come back in this order.
    Some(&'a [(usize, S)]),
}

/// Slots below this count step on the calling thread; rayon's overhead would dominate.
const PARALLEL_THRESHOLD: usize = 4;

/// A synchronous vector env.
pub struct VectorEnv {
    slots: Vec<Slot>,
    /// The slots in runs stepped as one unit: a run of an env group's members (in member
    /// order) steps with one call into the guest; any other slot is a run of its own.
    runs: Vec<Run>,
    /// The first slot of each run.
    starts: Vec<usize>,
    mode: AutoresetMode,
    base_seed: Option<u64>,
    seeded_once: bool,
    /// How steps were shared out among threads lately.
    balance: Balance,
}

impl VectorEnv {
    /// Slots over `envs`. The first `reset(None)` seeds env i with `seed + i` (GEM's rule).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, seed: Option<u64>) -> Self {
        let runs = Run::find(&envs);
        let starts = Run::starts(&runs);
        VectorEnv {
            runs,
            starts,
            slots: envs.into_iter().map(Slot::new).collect(),
            mode,
            base_seed: seed,
            seeded_once: false,
            balance: Balance::default(),
        }
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The autoreset mode.
    pub fn autoreset_mode(&self) -> AutoresetMode {
        self.mode
    }

    /// Sets the autoreset mode of the steps that follow; slots keep their episodes.
    pub fn set_autoreset_mode(&mut self, mode: AutoresetMode) {
        self.mode = mode;
    }

    /// Runs `f` on slot `index` (GEM's `vec.envs[index]`): reset it, step it without autoreset,
    /// or reach its env.
    pub fn with_slot<R>(
        &mut self,
        index: usize,
        f: impl FnOnce(&mut Slot) -> Result<R>,
    ) -> Result<R> {
        let n = self.slots.len();
        let slot = self.slots.get_mut(index).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "env index {index} is out of range (num_envs = {n})"
            ))
        })?;
        f(slot)
    }

    /// The ids of the slots' envs.
    pub fn ids(&self) -> Vec<&str> {
        self.slots.iter().map(|s| s.env.id()).collect()
    }

    /// Mutable access to one slot's env (for inspection; stepping it directly bypasses autoreset).
    pub fn env_mut(&mut self, index: usize) -> Option<&mut dyn Env> {
        self.slots
            .get_mut(index)
            .map(|s| &mut *s.env as &mut dyn Env)
    }

    /// Resets every slot: env i with `seed + i`, or with the vector's own seed the first time,
    /// or unseeded (continuing its randomness).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(Vec<String>, Vec<Info>)> {
        let base = seed.or(if self.seeded_once {
            None
        } else {
            self.base_seed
        });
        self.seeded_once = true;
        let seeds: Vec<Option<u64>> = (0..self.slots.len())
            .map(|i| base.map(|s| s.wrapping_add(i as u64)))
            .collect();
        let indices: Vec<usize> = (0..self.slots.len()).collect();
        self.reset_some(&indices, &seeds)
    }

    /// Resets the given slots with the given seeds (same length).
    pub fn reset_some(
        &mut self,
        indices: &[usize],
        seeds: &[Option<u64>],
    ) -> Result<(Vec<String>, Vec<Info>)> {
        if indices.len() != seeds.len() {
            return Err(Error::InvalidArgument(format!(
                "{} indices but {} seeds",
                indices.len(),
                seeds.len()
            )));
        }
        self.check_indices(indices.iter().copied())?;
        let mut targets = self.select(indices);
        let results: Vec<Result<(String, Info)>> =
            parallel::map_zip(&mut targets, seeds, |slot, seed| slot.reset(*seed));
        let mut observations = Vec::with_capacity(results.len());
        let mut infos = Vec::with_capacity(results.len());
        for result in results {
            let (observation, info) = result?;
            observations.push(observation);
            infos.push(info);
        }
        Ok((observations, infos))
    }

    /// Steps the slots named by `actions`, in parallel. An env failure does not fail the batch:
    /// it is reported in [`VectorStep::errors`] for that slot only, and the slot restarts.
    pub fn step<S: AsRef<str> + Sync>(&mut self, actions: Actions<'_, S>) -> Result<VectorStep> {
        let mode = self.mode;
        match actions {
            Actions::All(all) => {
                self.check_action_count(all.len())?;
                if self.runs.len() < self.slots.len() {
                    // The calling thread files each run's results as they finish, while the
                    // other threads step the last runs.
                    let mut out = VectorStep::for_slots(all.len());
                    self.stream_runs(all, 1, &mut |ready| {
                        for (first, steps) in ready {
                            out.place_unit(first, steps);
                        }
                    });
                    return Ok(out);
                }
                if all.len() < PARALLEL_THRESHOLD {
                    let steps: Vec<SlotStep> = (self.slots.iter_mut().zip(all))
                        .map(|(slot, a)| slot.advance(a.as_ref(), mode))
                        .collect();
                    return Ok(VectorStep::from_slots(0.., steps));
                }
                // As for runs: the calling thread files results while the others still step.
                let mut out = VectorStep::for_slots(all.len());
                parallel::map_zip_streamed(
                    &mut self.slots,
                    all,
                    |slot, a| slot.advance(a.as_ref(), mode),
                    all.len().div_ceil(8),
                    &mut self.balance,
                    &mut |ready| {
                        for (index, step) in ready.drain(..) {
                            out.place_slot(index, step);
                        }
                    },
                );
                Ok(out)
            }
            Actions::Some(pairs) => {
                let indices: Vec<usize> = pairs.iter().map(|(i, _)| *i).collect();
                self.check_indices(indices.iter().copied())?;
                let mut targets = self.select(&indices);
                let steps = parallel::map_zip(&mut targets, pairs, |slot, (_, action)| {
                    slot.advance(action.as_ref(), mode)
                });
                Ok(VectorStep::from_slots(indices, steps))
            }
        }
    }

    /// Steps every slot with one action each, like `step(Actions::All(actions))`, but hands
    /// the results to `take` on the calling thread as they finish, a few slots at a time in
    /// any order (each slot exactly once; `VectorStep::indices` says which), while other
    /// threads still step. `take` is called a few times per step, so that work done on each
    /// result (converting it for Python, say) overlaps the stepping. The batch passed to
    /// `take` is reused: what `take` leaves in it is dropped.
    pub fn step_streamed<S: AsRef<str> + Sync>(
        &mut self,
        actions: &[S],
        take: &mut dyn FnMut(&mut VectorStep),
    ) -> Result<()> {
        self.check_action_count(actions.len())?;
        let mode = self.mode;
        if actions.len() < PARALLEL_THRESHOLD {
            let steps: Vec<SlotStep> = (self.slots.iter_mut().zip(actions))
                .map(|(slot, a)| slot.advance(a.as_ref(), mode))
                .collect();
            take(&mut VectorStep::from_slots(0.., steps));
            return Ok(());
        }
        // About eight takes per step: each costs the taker a fixed amount (a lock, say).
        let chunk = |units: usize| units.div_ceil(8);
        let mut batch = VectorStep::with_capacity(actions.len());
        if self.runs.len() == self.slots.len() {
            let chunk = chunk(self.slots.len());
            let advance = |slot: &mut Slot, a: &S| slot.advance(a.as_ref(), mode);
            let balance = &mut self.balance;
            let take_slots = &mut |ready: &mut parallel::Finished<SlotStep>| {
                batch.clear();
                for (index, step) in ready.drain(..) {
                    batch.push(index, step);
                }
                take(&mut batch);
            };
            parallel::map_zip_streamed(
                &mut self.slots,
                actions,
                advance,
                chunk,
                balance,
                take_slots,
            );
            return Ok(());
        }
        self.stream_runs(actions, chunk(self.runs.len()), &mut |ready| {
            batch.clear();
            for (first, steps) in ready {
                batch.push_unit(first, steps);
            }
            take(&mut batch);
        });
        Ok(())
    }

    /// Steps every slot run by run, the runs in parallel (see [`VectorEnv::runs`](Self)), and
    /// hands each run's results to `take` on the calling thread as `(first slot, results)`,
    /// in any order, while the other threads still step; `take` waits for at least `chunk`
    /// runs at a time until the last ones.
    fn stream_runs<S: AsRef<str> + Sync>(
        &mut self,
        actions: &[S],
        chunk: usize,
        take: &mut dyn FnMut(&mut FinishedRuns<'_>),
    ) {
        let mode = self.mode;
        let starts = &self.starts;
        let serial = self.runs.len() == 1 || actions.len() < PARALLEL_THRESHOLD;
        let (mut units, actions) = Self::units(&mut self.slots, &self.runs, actions);
        let step = |unit: &mut Unit<'_>, actions: &&[S]| Self::step_unit(unit, actions, mode);
        if serial {
            let runs = (units.iter_mut().zip(&actions)).map(|(unit, actions)| step(unit, actions));
            take(&mut starts.iter().copied().zip(runs));
            return;
        }
        parallel::map_zip_streamed(
            &mut units,
            &actions,
            step,
            chunk,
            &mut self.balance,
            &mut |ready| take(&mut ready.drain(..).map(|(unit, run)| (starts[unit], run))),
        );
    }

    fn check_action_count(&self, actions: usize) -> Result<()> {
        if actions != self.slots.len() {
            return Err(Error::InvalidArgument(format!(
                "{actions} actions for {} envs; pass one per env or a subset by index",
                self.slots.len()
            )));
        }
        Ok(())
    }

    /// The slots cut into [`VectorEnv::runs`](Self), each with its actions.
    fn units<'s, 'a, S>(
        slots: &'s mut [Slot],
        runs: &'s [Run],
        all: &'a [S],
    ) -> (Vec<Unit<'s>>, Vec<&'a [S]>) {
        let mut units: Vec<Unit<'s>> = Vec::with_capacity(runs.len());
        let mut actions: Vec<&[S]> = Vec::with_capacity(runs.len());
        let (mut slots, mut rest) = (slots, all);
        for run in runs {
            let (head, tail) = slots.split_at_mut(run.len);
            let (these, others) = rest.split_at(run.len);
            units.push((head, run.group.as_deref()));
            actions.push(these);
            (slots, rest) = (tail, others);
        }
        (units, actions)
    }

    /// Steps one run: a group's members with one call into the guest, or a lone slot.
    fn step_unit<S: AsRef<str>>(
        (slots, group): &mut Unit<'_>,
        actions: &[S],
        mode: AutoresetMode,
    ) -> UnitSteps {
        match group {
            Some(group) => {
                let actions: Vec<&str> = actions.iter().map(AsRef::as_ref).collect();
                let members: Vec<usize> = (0..slots.len()).collect();
                let mut slots: Vec<&mut Slot> = slots.iter_mut().collect();
                UnitSteps::Run(grouped::advance_group(
                    group, &members, &mut slots, &actions, mode,
                ))
            }
            None => UnitSteps::Lone(slots[0].advance(actions[0].as_ref(), mode)),
        }
    }

    fn check_indices(&self, indices: impl Iterator<Item = usize>) -> Result<()> {
        let mut seen = vec![false; self.slots.len()];
        for i in indices {
            match seen.get_mut(i) {
                None => {
                    return Err(Error::InvalidArgument(format!(
                        "env index {i} is out of range (num_envs = {})",
                        self.slots.len()
                    )));
                }
                Some(true) => {
                    return Err(Error::InvalidArgument(format!(
                        "env index {i} is given twice in one step"
                    )));
                }
                Some(flag) => *flag = true,
            }
        }
        Ok(())
    }

    /// Mutable references to the slots at `indices` (checked unique), in that order.
    fn select(&mut self, indices: &[usize]) -> Vec<&mut Slot> {
        let mut by_index: Vec<Option<&mut Slot>> = self.slots.iter_mut().map(Some).collect();
        indices
            .iter()
            .map(|&i| by_index[i].take().expect("indices are unique and in range"))
            .collect()
    }
}
