//! [`VectorEnv`]: N env slots stepped together, unit by unit (one call into each unit per
//! step), the units in parallel (see [`super::parallel`]), results in slot order.

use super::parallel;
use super::slot::{AutoresetMode, Slot};
use super::step::VectorStep;
use super::unit_step::{Slots, UnitStep};
use super::units::{Layout, UnitBatch, UnitSlots, Units};
use crate::env::Info;
use crate::unit::PackedRun;
use crate::{Error, Result};

/// Actions for a step: one per slot, or a subset by slot index (GEM's partial steps). Actions
/// are any string type: owned `String`s, or `&str`s borrowed from the caller's own buffers.
#[derive(Debug, Clone)]
pub enum Actions<'a, S: AsRef<str> = String> {
    /// One action per slot, in slot order.
    All(&'a [S]),
    /// `(slot index, action)` pairs; results come back in this order.
    Some(&'a [(usize, S)]),
}

/// Slots below this count step on the calling thread; handing work to other threads would cost
/// more than it saves.
const PARALLEL_THRESHOLD: usize = 4;

/// A synchronous vector env.
pub struct VectorEnv {
    units: Vec<UnitSlots>,
    layout: Layout,
    mode: AutoresetMode,
    base_seed: Option<u64>,
    seeded_once: bool,
}

impl VectorEnv {
    /// A vector env over `units`. The first `reset(None)` seeds env i with `seed + i` (GEM's
    /// rule).
    pub fn new(units: Units, mode: AutoresetMode, seed: Option<u64>) -> Self {
        VectorEnv {
            layout: Layout::new(&units),
            units: units.units,
            mode,
            base_seed: seed,
            seeded_once: false,
        }
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.layout.num_envs()
    }

    /// Number of units the slots are stepped in.
    pub fn num_units(&self) -> usize {
        self.units.len()
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
        f: impl FnOnce(&mut Slot<'_>) -> Result<R>,
    ) -> Result<R> {
        let (unit, member) = self.layout.locate(index)?;
        f(&mut self.units[unit].slot(member))
    }

    /// The ids of the slots' envs.
    pub fn ids(&self) -> Vec<&str> {
        let ids = self
            .units
            .iter()
            .flat_map(|u| (0..u.len()).map(|m| u.unit.id(m)));
        ids.collect()
    }

    /// Resets every slot: env i with `seed + i`, or with the vector's own seed the first time,
    /// or unseeded (each slot goes on with its own seed stream).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(Vec<String>, Vec<Info>)> {
        let base = seed.or(if self.seeded_once {
            None
        } else {
            self.base_seed
        });
        self.seeded_once = true;
        let n = self.num_envs();
        let seeds: Vec<Option<u64>> = (0..n)
            .map(|i| base.map(|s| s.wrapping_add(i as u64)))
            .collect();
        let indices: Vec<usize> = (0..n).collect();
        self.reset_some(&indices, &seeds)
    }

    /// Resets the given slots with the given seeds (same length), one call per unit.
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
        let groups = self.layout.by_unit(indices.iter().copied())?;
        let mut targets = select(&mut self.units, &groups);
        let outputs = parallel::map_zip(&mut targets, &groups, |unit, (_, group)| {
            let resets: Vec<(usize, Option<u64>)> = group
                .iter()
                .map(|&(p, member)| (member, seeds[p]))
                .collect();
            unit.reset(&resets)
        });
        let mut firsts: Vec<Option<Result<(String, Info)>>> =
            indices.iter().map(|_| None).collect();
        for ((_, group), results) in groups.iter().zip(outputs) {
            for (&(p, _), result) in group.iter().zip(results) {
                firsts[p] = Some(result);
            }
        }
        let mut observations = Vec::with_capacity(indices.len());
        let mut infos = Vec::with_capacity(indices.len());
        for first in firsts {
            let (observation, info) = first.expect("every slot was reset")?;
            observations.push(observation);
            infos.push(info);
        }
        Ok((observations, infos))
    }

    /// Steps the slots named by `actions`, one call per unit, the units in parallel. An env
    /// failure does not fail the batch: it is reported in [`VectorStep::error`] for that slot
    /// only, and the slot restarts.
    pub fn step<S: AsRef<str> + Sync>(&mut self, actions: Actions<'_, S>) -> Result<VectorStep> {
        let pairs = match actions {
            Actions::All(all) => return self.step_all(all),
            Actions::Some(pairs) => pairs,
        };
        let parts = self.step_some_units(pairs, |slots, run| (slots, run))?;
        let indices: Vec<usize> = pairs.iter().map(|(i, _)| *i).collect();
        let mut entry_of = vec![0; self.num_envs()];
        for (entry, &index) in indices.iter().enumerate() {
            entry_of[index] = entry;
        }
        let mut out = VectorStep::for_indices(indices);
        for (slots, run) in parts {
            let entries = (0..run.entries.len()).map(|k| entry_of[slots.get(k)]);
            out.place(entries, run);
        }
        Ok(out)
    }

    /// [`VectorEnv::step`] of every slot: each unit's results are written into the step's
    /// columns on the thread that stepped it.
    fn step_all<S: AsRef<str> + Sync>(&mut self, actions: &[S]) -> Result<VectorStep> {
        self.check_action_count(actions.len())?;
        let mut out = VectorStep::for_indices((0..actions.len()).collect());
        let lengths: Vec<usize> = self.units.iter().map(UnitSlots::len).collect();
        let parts = out.split(&lengths);
        let rare = self.step_all_units(actions, parts, |part, _, run| part.fill(0.., run));
        for rare in rare {
            out.add(rare);
        }
        Ok(out)
    }

    /// Steps the slots named by `actions` like [`VectorEnv::step`], but hands each unit's
    /// results to `take` as soon as they are ready, on the thread that stepped the unit (each
    /// slot exactly once; [`UnitStep::index`] says which), while other threads still step. So
    /// work done on each result (converting it for Python, say) runs beside the stepping.
    /// `take` may be called from several threads at once.
    pub fn step_streamed<S: AsRef<str> + Sync>(
        &mut self,
        actions: Actions<'_, S>,
        take: &(dyn Fn(UnitStep) + Sync),
    ) -> Result<()> {
        let then = |slots, run| take(UnitStep::new(slots, run));
        match actions {
            Actions::All(all) => {
                self.check_action_count(all.len())?;
                let sinks = vec![(); self.units.len()];
                self.step_all_units(all, sinks, |(), slots, run| then(slots, run));
            }
            Actions::Some(pairs) => {
                self.step_some_units(pairs, then)?;
            }
        }
        Ok(())
    }

    /// Steps every unit named by `pairs` with its slots' actions, the units in parallel, and
    /// returns `then(slots, results)` of each unit, in unit order; `then` runs on the thread
    /// that stepped it.
    fn step_some_units<S: AsRef<str> + Sync, R: Send>(
        &mut self,
        pairs: &[(usize, S)],
        then: impl Fn(Slots, PackedRun) -> R + Sync + Send,
    ) -> Result<Vec<R>> {
        let mode = self.mode;
        let groups = self.layout.by_unit(pairs.iter().map(|(i, _)| *i))?;
        let mut targets = select(&mut self.units, &groups);
        let step = |unit: &mut &mut UnitSlots, (_, group): &UnitBatch| {
            let batch: Vec<(usize, &str)> = group
                .iter()
                .map(|&(p, member)| (member, pairs[p].1.as_ref()))
                .collect();
            let slots = group.iter().map(|&(p, _)| pairs[p].0).collect();
            then(Slots::Listed(slots), unit.advance(&batch, mode))
        };
        Ok(parallel::map_zip(&mut targets, &groups, step))
    }

    /// Steps every unit with its slots' actions (one per slot, checked), the units in
    /// parallel, and returns `then(sink, slots, results)` of each unit, in unit order, where
    /// `sink` is the unit's own entry of `sinks`; `then` runs on the thread that stepped it.
    fn step_all_units<S: AsRef<str> + Sync, V: Send, R: Send>(
        &mut self,
        actions: &[S],
        sinks: Vec<V>,
        then: impl Fn(V, Slots, PackedRun) -> R + Sync + Send,
    ) -> Vec<R> {
        let mode = self.mode;
        let starts = &self.layout.starts;
        let mut items: Vec<(&mut UnitSlots, Option<V>)> = self
            .units
            .iter_mut()
            .zip(sinks.into_iter().map(Some))
            .collect();
        let per_unit: Vec<(usize, &[S])> = (starts.iter().zip(&items))
            .map(|(&start, (unit, _))| (start, &actions[start..start + unit.len()]))
            .collect();
        let step = |(unit, sink): &mut (&mut UnitSlots, Option<V>),
                    &(start, actions): &(usize, &[S])| {
            let sink = sink.take().expect("each unit is stepped once");
            then(sink, Slots::From(start), unit.advance_all(actions, mode))
        };
        if items.len() == 1 || actions.len() < PARALLEL_THRESHOLD {
            let units = items.iter_mut().zip(&per_unit);
            return units.map(|(item, actions)| step(item, actions)).collect();
        }
        parallel::map_zip(&mut items, &per_unit, step)
    }

    fn check_action_count(&self, actions: usize) -> Result<()> {
        if actions != self.num_envs() {
            return Err(Error::InvalidArgument(format!(
                "{actions} actions for {} envs; pass one per env or a subset by index",
                self.num_envs()
            )));
        }
        Ok(())
    }
}

/// Mutable references to the units named by `groups` (distinct, in that order).
fn select<'u, T>(units: &'u mut [UnitSlots], groups: &[(usize, T)]) -> Vec<&'u mut UnitSlots> {
    let mut by_index: Vec<Option<&mut UnitSlots>> = units.iter_mut().map(Some).collect();
    groups
        .iter()
        .map(|(u, _)| by_index[*u].take().expect("units are distinct"))
        .collect()
}
