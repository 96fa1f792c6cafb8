//! [`Engine`]: the one stepping engine behind [`VectorEnv`](super::VectorEnv) and
//! [`AsyncPool`](super::AsyncPool). It holds the slots unit by unit and does the batch
//! operations both share: step every slot (each unit's results handed over on the thread that
//! stepped it, while other units still step), step some slots, reset some slots. Always one
//! call per unit, the units in parallel (see [`super::parallel`]), every step through the one
//! autoreset machine (`advance`). A synchronous step is this engine's whole-batch step; the pool
//! adds queues and workers around the same units for `send`/`recv`.

use super::parallel;
use super::slot::{AutoresetMode, Slot};
use super::unit_step::Slots;
use super::units::{Layout, UnitSlots, Units};
use crate::env::Info;
use crate::unit::PackedRun;
use crate::{Error, Result};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Slots below this count step on the calling thread; handing work to other threads would cost
/// more than it saves.
const PARALLEL_THRESHOLD: usize = 4;

/// The slots of a vector env or pool, unit by unit, and the batch operations on them.
pub(crate) struct Engine {
    units: Vec<Mutex<UnitSlots>>,
    pub layout: Layout,
}

impl Engine {
    /// An engine over `units`.
    pub fn new(units: Units) -> Self {
        Engine {
            layout: Layout::new(&units),
            units: units.units.into_iter().map(Mutex::new).collect(),
        }
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.layout.num_envs()
    }

    /// Number of units.
    pub fn num_units(&self) -> usize {
        self.units.len()
    }

    /// Locks unit `n`; a panic while it was held leaves it usable (units check their instance).
    pub fn lock(&self, n: usize) -> MutexGuard<'_, UnitSlots> {
        self.units[n].lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on slot `index`.
    pub fn with_slot<R>(
        &self,
        index: usize,
        f: impl FnOnce(&mut Slot<'_>) -> Result<R>,
    ) -> Result<R> {
        let (unit, member) = self.layout.locate(index)?;
        f(&mut self.lock(unit).slot(member))
    }

    /// The ids of the slots' envs.
    pub fn ids(&self) -> Vec<String> {
        (0..self.units.len())
            .flat_map(|u| {
                let unit = self.lock(u);
                (0..unit.len())
                    .map(|m| unit.unit.id(m).to_owned())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Checks that there is one action per slot.
    pub fn check_action_count(&self, actions: usize) -> Result<()> {
        if actions != self.num_envs() {
            return Err(Error::InvalidArgument(format!(
                "{actions} actions for {} envs; pass one per env or a subset by index",
                self.num_envs()
            )));
        }
        Ok(())
    }

    /// Steps every unit with its slots' actions (one per slot, checked by the caller), the
    /// units in parallel, and returns `then(sink, slots, results)` of each unit, in unit order,
    /// where `sink` is the unit's own entry of `sinks`; `then` runs on the thread that stepped
    /// it.
    pub fn step_all<S: AsRef<str> + Sync, V: Send, R: Send>(
        &self,
        actions: &[S],
        mode: AutoresetMode,
        sinks: Vec<V>,
        then: impl Fn(V, Slots, PackedRun) -> R + Sync + Send,
    ) -> Vec<R> {
        let starts = &self.layout.starts;
        let mut items: Vec<(usize, Option<V>)> = sinks.into_iter().map(Some).enumerate().collect();
        let per_unit: Vec<&[S]> = (0..self.units.len())
            .map(|u| {
                let end = starts.get(u + 1).copied().unwrap_or(actions.len());
                &actions[starts[u]..end]
            })
            .collect();
        let step = |(u, sink): &mut (usize, Option<V>), actions: &&[S]| {
            let sink = sink.take().expect("each unit is stepped once");
            let run = self.lock(*u).advance_all(actions, mode);
            then(sink, Slots::From(starts[*u]), run)
        };
        if items.len() == 1 || actions.len() < PARALLEL_THRESHOLD {
            let units = items.iter_mut().zip(&per_unit);
            return units.map(|(item, actions)| step(item, actions)).collect();
        }
        parallel::map_zip(&mut items, &per_unit, step)
    }

    /// Steps the slots named by `pairs` (distinct, checked), one call per unit, the units in
    /// parallel, and returns `then(slots, results)` of each unit, in unit order; `then` runs on
    /// the thread that stepped it.
    pub fn step_some<S: AsRef<str> + Sync, R: Send>(
        &self,
        pairs: &[(usize, S)],
        mode: AutoresetMode,
        then: impl Fn(Slots, PackedRun) -> R + Sync + Send,
    ) -> Result<Vec<R>> {
        let mut groups = self.layout.by_unit(pairs.iter().map(|(i, _)| *i))?;
        let step = |(u, group): &mut (usize, Vec<(usize, usize)>), (): &()| {
            let batch: Vec<(usize, &str)> = group
                .iter()
                .map(|&(p, member)| (member, pairs[p].1.as_ref()))
                .collect();
            let slots = group.iter().map(|&(p, _)| pairs[p].0).collect();
            then(Slots::Listed(slots), self.lock(*u).advance(&batch, mode))
        };
        let units = vec![(); groups.len()];
        Ok(parallel::map_zip(&mut groups, &units, step))
    }

    /// Resets the given slots with the given seeds (same length), one call per unit, the units
    /// in parallel: each slot's first observation and info, in the order given.
    pub fn reset_some(
        &self,
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
        let mut groups = self.layout.by_unit(indices.iter().copied())?;
        let units = vec![(); groups.len()];
        let outputs = parallel::map_zip(&mut groups, &units, |(u, group), ()| {
            let resets: Vec<(usize, Option<u64>)> = group
                .iter()
                .map(|&(p, member)| (member, seeds[p]))
                .collect();
            self.lock(*u).reset(&resets)
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
}
