//! [`VectorEnv`]: N env slots stepped together, in parallel (see [`super::parallel`]), results
//! in index order.

use super::grouped;
use super::parallel;
use super::share::Balance;
use super::slot::{AutoresetMode, Slot, SlotStep};
use crate::env::{Env, Info};
use crate::group::EnvGroup;
use crate::{Error, Result};
use std::sync::{Arc, Mutex};

/// Results of [`VectorEnv::step_streamed`] as they finish: `(slot index, result)`.
pub type FinishedSlots<'a> = dyn Iterator<Item = (usize, SlotStep)> + 'a;

/// A run's slots and, for a group's members, their group.
type Unit<'s> = (&'s mut [Slot], Option<&'s Mutex<EnvGroup>>);

/// Consecutive slots stepped as one unit.
struct Run {
    len: usize,
    /// The env group whose members 0..len these slots are.
    group: Option<Arc<Mutex<EnvGroup>>>,
}

impl Run {
    /// The runs of `envs`: each stretch of one group's members in member order from 0 (as
    /// `Registry::make_vec` lays groups out), and every other env alone.
    fn find(envs: &[Box<dyn Env>]) -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for env in envs {
            let member = env.group_member();
            if let (Some(run), Some((group, index))) = (runs.last_mut(), member)
                && run.group.as_ref().is_some_and(|g| Arc::ptr_eq(g, group))
                && index == run.len
            {
                run.len += 1;
                continue;
            }
            runs.push(Run {
                len: 1,
                group: member
                    .filter(|(_, index)| *index == 0)
                    .map(|(group, _)| group.clone()),
            });
        }
        runs
    }
}

/// Actions for a step: one per slot, or a subset by slot index (GEM's partial steps). Actions
/// are any string type: owned `String`s, or `&str`s borrowed from the caller's own buffers.
#[derive(Debug, Clone)]
pub enum Actions<'a, S: AsRef<str> = String> {
    /// One action per slot, in slot order.
    All(&'a [S]),
    /// `(slot index, action)` pairs; results come back in this order.
    Some(&'a [(usize, S)]),
}

/// The batched result of one vector step, in the order the actions were given.
#[derive(Debug, Default)]
pub struct VectorStep {
    /// The slot index of each entry.
    pub indices: Vec<usize>,
    pub observations: Vec<String>,
    pub rewards: Vec<f64>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub infos: Vec<Info>,
    /// Per entry: the ended episode's last observation (SameStep only).
    pub final_observations: Vec<Option<String>>,
    /// Per entry: the ended episode's last info (SameStep only).
    pub final_infos: Vec<Option<Info>>,
    /// Per entry: the slot's error, if its env failed (the slot was restarted).
    pub errors: Vec<Option<Error>>,
}

impl VectorStep {
    /// An empty batch with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        VectorStep {
            indices: Vec::with_capacity(n),
            observations: Vec::with_capacity(n),
            rewards: Vec::with_capacity(n),
            terminated: Vec::with_capacity(n),
            truncated: Vec::with_capacity(n),
            infos: Vec::with_capacity(n),
            final_observations: Vec::with_capacity(n),
            final_infos: Vec::with_capacity(n),
            errors: Vec::with_capacity(n),
        }
    }

    /// Appends slot `index`'s result as the next entry.
    pub fn push(&mut self, index: usize, mut step: SlotStep) {
        self.indices.push(index);
        self.take_fields(&mut step);
    }

    /// Appends the fields of `s`, taken out in place (a result is large; moving it whole costs
    /// a copy per slot). The caller pushes the index.
    fn take_fields(&mut self, s: &mut SlotStep) {
        self.observations.push(std::mem::take(&mut s.observation));
        self.rewards.push(s.reward);
        self.terminated.push(s.terminated);
        self.truncated.push(s.truncated);
        self.infos
            .push(std::mem::replace(&mut s.info, Info::placeholder()));
        self.final_observations.push(s.final_observation.take());
        self.final_infos.push(s.final_info.take());
        self.errors.push(s.error.take());
    }

    /// The columns of `runs`' results, in order, for slots `indices`.
    fn collect(indices: Vec<usize>, runs: impl IntoIterator<Item = Vec<SlotStep>>) -> Self {
        let mut out = VectorStep::with_capacity(indices.len());
        out.indices = indices;
        for mut run in runs {
            for s in &mut run {
                out.take_fields(s);
            }
        }
        out
    }
}

/// Slots below this count step on the calling thread; rayon's overhead would dominate.
const PARALLEL_THRESHOLD: usize = 4;

/// A synchronous vector env.
pub struct VectorEnv {
    slots: Vec<Slot>,
    /// The slots in runs stepped as one unit: a run of an env group's members (in member
    /// order) steps with one call into the guest; any other slot is a run of its own.
    runs: Vec<Run>,
    mode: AutoresetMode,
    base_seed: Option<u64>,
    seeded_once: bool,
    /// How streamed steps were shared out among threads lately.
    balance: Balance,
}

impl VectorEnv {
    /// Slots over `envs`. The first `reset(None)` seeds env i with `seed + i` (GEM's rule).
    pub fn new(envs: Vec<Box<dyn Env>>, mode: AutoresetMode, seed: Option<u64>) -> Self {
        VectorEnv {
            runs: Run::find(&envs),
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
                let indices = (0..all.len()).collect();
                if self.runs.len() < self.slots.len() {
                    let per_run = self.step_runs(all, mode);
                    return Ok(VectorStep::collect(indices, per_run));
                }
                let steps: Vec<SlotStep> = if all.len() < PARALLEL_THRESHOLD {
                    self.slots
                        .iter_mut()
                        .zip(all)
                        .map(|(slot, a)| slot.advance(a.as_ref(), mode))
                        .collect()
                } else {
                    parallel::map_zip(&mut self.slots, all, |slot, a| {
                        slot.advance(a.as_ref(), mode)
                    })
                };
                Ok(VectorStep::collect(indices, [steps]))
            }
            Actions::Some(pairs) => {
                let indices: Vec<usize> = pairs.iter().map(|(i, _)| *i).collect();
                self.check_indices(indices.iter().copied())?;
                let mut targets = self.select(&indices);
                let steps = parallel::map_zip(&mut targets, pairs, |slot, (_, action)| {
                    slot.advance(action.as_ref(), mode)
                });
                Ok(VectorStep::collect(indices, [steps]))
            }
        }
    }

    /// Steps every slot with one action each, like `step(Actions::All(actions))`, but hands
    /// the results to `take` on the calling thread as they finish, as `(slot index, result)`
    /// in any order (each slot exactly once), while other threads still step. `take` is called
    /// a few times per step, so that work done on each result (converting it for Python, say)
    /// overlaps the stepping.
    pub fn step_streamed<S: AsRef<str> + Sync>(
        &mut self,
        actions: &[S],
        take: &mut dyn FnMut(&mut FinishedSlots<'_>),
    ) -> Result<()> {
        self.check_action_count(actions.len())?;
        let mode = self.mode;
        if actions.len() < PARALLEL_THRESHOLD {
            let steps: Vec<SlotStep> = (self.slots.iter_mut().zip(actions))
                .map(|(slot, a)| slot.advance(a.as_ref(), mode))
                .collect();
            take(&mut steps.into_iter().enumerate());
            return Ok(());
        }
        // About eight takes per step: each costs the taker a fixed amount (a lock, say).
        let chunk = |units: usize| units.div_ceil(8);
        if self.runs.len() == self.slots.len() {
            let chunk = chunk(self.slots.len());
            let advance = |slot: &mut Slot, a: &S| slot.advance(a.as_ref(), mode);
            let balance = &mut self.balance;
            let take_slots =
                &mut |ready: &mut parallel::Finished<SlotStep>| take(&mut ready.drain(..));
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
        let starts: Vec<usize> = self
            .runs
            .iter()
            .scan(0, |next, run| {
                let start = *next;
                *next += run.len;
                Some(start)
            })
            .collect();
        let mut balance = std::mem::take(&mut self.balance);
        let (mut units, actions) = self.units(actions);
        let chunk = chunk(units.len());
        let step = |unit: &mut Unit<'_>, actions: &&[S]| Self::step_unit(unit, actions, mode);
        parallel::map_zip_streamed(
            &mut units,
            &actions,
            step,
            chunk,
            &mut balance,
            &mut |ready| {
                let mut flat = ready.drain(..).flat_map(|(unit, steps)| {
                    let start = starts[unit];
                    steps
                        .into_iter()
                        .enumerate()
                        .map(move |(k, step)| (start + k, step))
                });
                take(&mut flat)
            },
        );
        self.balance = balance;
        Ok(())
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
    fn units<'s, 'a, S>(&'s mut self, all: &'a [S]) -> (Vec<Unit<'s>>, Vec<&'a [S]>) {
        let mut units: Vec<Unit<'s>> = Vec::with_capacity(self.runs.len());
        let mut actions: Vec<&[S]> = Vec::with_capacity(self.runs.len());
        let (mut slots, mut rest) = (&mut self.slots[..], all);
        for run in &self.runs {
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
    ) -> Vec<SlotStep> {
        let actions: Vec<&str> = actions.iter().map(AsRef::as_ref).collect();
        match group {
            Some(group) => {
                let members: Vec<usize> = (0..slots.len()).collect();
                let mut slots: Vec<&mut Slot> = slots.iter_mut().collect();
                grouped::advance_group(group, &members, &mut slots, &actions, mode)
            }
            None => slots
                .iter_mut()
                .zip(actions)
                .map(|(slot, action)| slot.advance(action, mode))
                .collect(),
        }
    }

    /// Steps every slot, run by run (see [`VectorEnv::runs`](Self)), the runs in parallel; the
    /// results of each run in slot order.
    fn step_runs<S: AsRef<str> + Sync>(
        &mut self,
        all: &[S],
        mode: AutoresetMode,
    ) -> Vec<Vec<SlotStep>> {
        let (mut units, actions) = self.units(all);
        parallel::map_zip(&mut units, &actions, |unit, actions| {
            Self::step_unit(unit, actions, mode)
        })
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
