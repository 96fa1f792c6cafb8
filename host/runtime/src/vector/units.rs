//! [`Units`]: a vector's slots, laid out as consecutive runs of one [`Unit`]'s members, each with
//! its autoreset state. Vector envs and pools step a unit's slots with one call ([`advance`]).

use super::advance::advance;
use super::slot::{AutoresetMode, Slot, SlotState};
use crate::env::{Env, Info};
use crate::unit::{BoxedUnit, PackedRun, Unit};
use crate::{Error, Result};

/// One unit and the autoreset state of each of its members (slots `first..first + len`).
pub(crate) struct UnitSlots {
    pub unit: Box<dyn Unit>,
    pub states: Vec<SlotState>,
}

impl UnitSlots {
    fn new(unit: Box<dyn Unit>) -> Self {
        let states = vec![SlotState::default(); unit.len()];
        UnitSlots { unit, states }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Member `member` driven on its own.
    pub fn slot(&mut self, member: usize) -> Slot<'_> {
        Slot {
            unit: &mut *self.unit,
            member,
            state: &mut self.states[member],
        }
    }

    /// Advances `(member, action)` pairs (distinct members) under `mode`.
    pub fn advance(&mut self, batch: &[(usize, &str)], mode: AutoresetMode) -> PackedRun {
        advance(&mut *self.unit, &mut self.states, batch, mode)
    }

    /// Advances every member with its action (`actions[m]` for member `m`).
    pub fn advance_all<S: AsRef<str>>(&mut self, actions: &[S], mode: AutoresetMode) -> PackedRun {
        let batch: Vec<(usize, &str)> = actions.iter().map(AsRef::as_ref).enumerate().collect();
        self.advance(&batch, mode)
    }

    /// Resets `(member, seed)` pairs (distinct members) with one call; a member given no seed
    /// takes its first seed on its first reset (see [`SlotState::first_seed`]).
    pub fn reset(&mut self, resets: &[(usize, Option<u64>)]) -> Vec<Result<(String, Info)>> {
        let resets: Vec<(usize, Option<u64>)> = resets
            .iter()
            .map(|&(member, seed)| (member, seed.or(self.states[member].first_seed.take())))
            .collect();
        let mut text = String::new();
        let outputs = self.unit.reset_each(&resets, &mut text);
        resets
            .iter()
            .zip(outputs)
            .map(|(&(member, _), out)| {
                let first = out?.to_reset(&text);
                let state = &mut self.states[member];
                state.started();
                Ok((first.observation, first.info))
            })
            .collect()
    }
}

/// The slots of a vector env or pool, unit by unit (see `Registry::make_vec`).
#[derive(Default)]
pub struct Units {
    pub(crate) units: Vec<UnitSlots>,
}

impl Units {
    /// Every env alone in a unit of its own.
    pub fn from_envs(envs: Vec<Box<dyn Env>>) -> Self {
        let units = envs
            .into_iter()
            .map(|env| Box::new(BoxedUnit(env)) as Box<dyn Unit>);
        Self::from_units(units.collect())
    }

    pub(crate) fn from_units(units: Vec<Box<dyn Unit>>) -> Self {
        Units {
            units: units.into_iter().map(UnitSlots::new).collect(),
        }
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.units.iter().map(UnitSlots::len).sum()
    }

    /// Gives slot i the seed `seeds[i]` for its first reset when that reset names none.
    pub(crate) fn with_first_seeds(mut self, seeds: &[Option<u64>]) -> Self {
        let states = self
            .units
            .iter_mut()
            .flat_map(|unit| unit.states.iter_mut());
        for (state, &seed) in states.zip(seeds) {
            state.first_seed = seed;
        }
        self
    }

    /// Number of units (component instances, for component envs).
    pub fn num_units(&self) -> usize {
        self.units.len()
    }

    /// The ids of the slots' envs, in slot order.
    pub fn ids(&self) -> Vec<String> {
        let ids = self
            .units
            .iter()
            .flat_map(|u| (0..u.len()).map(|m| u.unit.id(m)));
        ids.map(str::to_owned).collect()
    }

    /// The first slot of each unit.
    pub(crate) fn starts(&self) -> Vec<usize> {
        self.units
            .iter()
            .scan(0, |next, unit| {
                let start = *next;
                *next += unit.len();
                Some(start)
            })
            .collect()
    }
}

/// A unit and the `(position, member)` pairs of a step's slots that live in it.
pub(crate) type UnitBatch = (usize, Vec<(usize, usize)>);

/// Where each slot lives: its unit and its member there.
pub(crate) struct Layout {
    /// The first slot of each unit.
    pub starts: Vec<usize>,
    num_envs: usize,
}

impl Layout {
    pub fn new(units: &Units) -> Self {
        Layout {
            starts: units.starts(),
            num_envs: units.num_envs(),
        }
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Slot `index`'s unit and member.
    pub fn locate(&self, index: usize) -> Result<(usize, usize)> {
        if index >= self.num_envs {
            return Err(Error::InvalidArgument(format!(
                "env index {index} is out of range (num_envs = {})",
                self.num_envs
            )));
        }
        let unit = self.starts.partition_point(|&start| start <= index) - 1;
        Ok((unit, index - self.starts[unit]))
    }

    /// Groups `items` (each with a distinct slot index, checked) by unit: per unit, `(position
    /// in items, member)`, in item order.
    pub fn by_unit(&self, indices: impl Iterator<Item = usize>) -> Result<Vec<UnitBatch>> {
        let mut seen = vec![false; self.num_envs];
        let mut groups: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.starts.len()];
        for (position, index) in indices.enumerate() {
            let (unit, member) = self.locate(index)?;
            if std::mem::replace(&mut seen[index], true) {
                return Err(Error::InvalidArgument(format!(
                    "env index {index} is given twice in one step"
                )));
            }
            groups[unit].push((position, member));
        }
        Ok(groups
            .into_iter()
            .enumerate()
            .filter(|(_, g)| !g.is_empty())
            .collect())
    }
}
