//! [`VectorEnv`]: N env slots stepped together, every step the [`Engine`]'s whole-batch step
//! (one call into each unit, the units in parallel), results in slot order.

use super::engine::Engine;
use super::pool::AsyncPool;
use super::slot::{AutoresetMode, Slot};
use super::step::VectorStep;
use super::unit_step::UnitStep;
use super::units::Units;
use crate::Result;
use crate::env::Info;

/// Actions for a step: one per slot, or a subset by slot index (GEM's partial steps). Actions
/// are any string type: owned `String`s, or `&str`s borrowed from the caller's own buffers.
#[derive(Debug, Clone)]
pub enum Actions<'a, S: AsRef<str> = String> {
    /// One action per slot, in slot order.
    All(&'a [S]),
    /// `(slot index, action)` pairs; results come back in this order.
    Some(&'a [(usize, S)]),
}

/// A synchronous vector env.
pub struct VectorEnv {
    engine: Engine,
    mode: AutoresetMode,
}

impl VectorEnv {
    /// A vector env over `units` (whose slots carry the seeds of their first resets, see
    /// [`Registry::make_vec`](crate::Registry::make_vec)).
    pub fn new(units: Units, mode: AutoresetMode) -> Self {
        VectorEnv {
            engine: Engine::new(units),
            mode,
        }
    }

    /// The same slots, in their current state, as an [`AsyncPool`] with `threads` workers (0:
    /// one per core), which start only when a job is first sent: stepped only through its
    /// whole-batch calls, the pool is this vector env with `&self` methods.
    pub fn into_pool(self, threads: usize) -> AsyncPool {
        AsyncPool::over(self.engine, self.mode, threads)
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.engine.num_envs()
    }

    /// Number of units the slots are stepped in.
    pub fn num_units(&self) -> usize {
        self.engine.num_units()
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
        self.engine.with_slot(index, f)
    }

    /// The ids of the slots' envs.
    pub fn ids(&self) -> Vec<String> {
        self.engine.ids()
    }

    /// Resets every slot: env i with `seed + i`; without a seed, each slot with its own seed
    /// from the [`VecSpec`](crate::VecSpec) on its first reset, then unseeded (it goes on with
    /// its own seed stream).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(Vec<String>, Vec<Info>)> {
        let n = self.num_envs();
        let seeds: Vec<Option<u64>> = (0..n)
            .map(|i| seed.map(|s| s.wrapping_add(i as u64)))
            .collect();
        let indices: Vec<usize> = (0..n).collect();
        self.reset_some(&indices, &seeds)
    }

    /// Resets the given slots with the given seeds (same length), one call per unit; a slot
    /// given no seed takes its first seed on its first reset.
    pub fn reset_some(
        &mut self,
        indices: &[usize],
        seeds: &[Option<u64>],
    ) -> Result<(Vec<String>, Vec<Info>)> {
        self.engine.reset_some(indices, seeds)
    }

    /// Steps the slots named by `actions`, one call per unit, the units in parallel. An env
    /// failure does not fail the batch: it is reported in [`VectorStep::error`] for that slot
    /// only, and the slot restarts.
    pub fn step<S: AsRef<str> + Sync>(&mut self, actions: Actions<'_, S>) -> Result<VectorStep> {
        let pairs = match actions {
            Actions::All(all) => return self.step_all(all),
            Actions::Some(pairs) => pairs,
        };
        let parts = self
            .engine
            .step_some(pairs, self.mode, |slots, run| (slots, run))?;
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
        self.engine.check_action_count(actions.len())?;
        let mut out = VectorStep::for_indices((0..actions.len()).collect());
        let lengths: Vec<usize> = (0..self.num_units())
            .map(|u| self.engine.lock(u).len())
            .collect();
        let parts = out.split(&lengths);
        let rare = self
            .engine
            .step_all(actions, self.mode, parts, |part, _, run| {
                part.fill(0.., run)
            });
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
                self.engine.check_action_count(all.len())?;
                let sinks = vec![(); self.num_units()];
                self.engine
                    .step_all(all, self.mode, sinks, |(), slots, run| then(slots, run));
            }
            Actions::Some(pairs) => {
                self.engine.step_some(pairs, self.mode, then)?;
            }
        }
        Ok(())
    }
}
