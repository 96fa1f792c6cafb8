//! [`UnitStep`]: one unit's results from a whole-batch step, read where the unit left them.
//! A streamed step hands each unit's results over as they are: copying them into columns on
//! the thread that stepped the unit, only for another thread to read and free them, costs more
//! than the reading itself (every line of those columns then moves between the cores twice).

use super::slot::SlotStep;
use crate::Error;
use crate::env::InfoStr;
use crate::unit::{PackedEntry, PackedRun};

/// The results of one unit's slots from one step: all of them in slot order (a whole step),
/// or those a partial step named, in its order. Entry `k` is slot `index(k)`'s result.
#[derive(Debug)]
pub struct UnitStep {
    slots: Slots,
    run: PackedRun,
}

/// The slots of a [`UnitStep`]'s entries.
#[derive(Debug)]
pub(crate) enum Slots {
    /// Consecutive slots from this one on.
    From(usize),
    /// These slots, one per entry.
    Listed(Vec<usize>),
}

impl Slots {
    /// The slot of entry `k`.
    #[inline]
    pub fn get(&self, k: usize) -> usize {
        match self {
            Slots::From(first) => first + k,
            Slots::Listed(slots) => slots[k],
        }
    }
}

impl UnitStep {
    pub(crate) fn new(slots: Slots, run: PackedRun) -> Self {
        UnitStep { slots, run }
    }

    /// Slot `index`'s result on its own (a pool's completion, say), as a one-entry part.
    pub fn from_slot(index: usize, step: SlotStep) -> Self {
        let mut run = PackedRun::default();
        let observation = run.append(&step.observation);
        let info = run.append(step.info.as_json());
        let mut entry = PackedEntry {
            reward: step.reward,
            terminated: step.terminated,
            truncated: step.truncated,
            ..PackedEntry::plain(observation, info)
        };
        entry.finals = (step.final_observation.zip(step.final_info))
            .map(|(o, i)| (run.append(&o), run.append(i.as_json())));
        run.entries.push(entry);
        run.errors.extend(step.error.map(|e| (0, e)));
        UnitStep::new(Slots::From(index), run)
    }

    pub(crate) fn into_parts(self) -> (Slots, PackedRun) {
        (self.slots, self.run)
    }

    #[inline]
    fn entry(&self, k: usize) -> &PackedEntry {
        &self.run.entries[k]
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.run.entries.len()
    }

    /// True when the unit had no slot in the step.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.run.entries.is_empty()
    }

    /// The slot of entry `k`.
    #[inline]
    pub fn index(&self, k: usize) -> usize {
        self.slots.get(k)
    }

    /// Entry `k`'s observation (after SameStep autoreset, the new episode's first one).
    #[inline]
    pub fn observation(&self, k: usize) -> &str {
        self.run.text(&self.entry(k).observation)
    }

    /// The info that goes with entry `k`'s observation.
    #[inline]
    pub fn info(&self, k: usize) -> &InfoStr {
        InfoStr::new(self.run.text(&self.entry(k).info))
    }

    /// Entry `k`'s reward.
    #[inline]
    pub fn reward(&self, k: usize) -> f64 {
        self.entry(k).reward
    }

    /// Entry `k`'s episode ended by its own rules.
    #[inline]
    pub fn terminated(&self, k: usize) -> bool {
        self.entry(k).terminated
    }

    /// Entry `k`'s episode was cut short.
    #[inline]
    pub fn truncated(&self, k: usize) -> bool {
        self.entry(k).truncated
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last observation.
    #[inline]
    pub fn final_observation(&self, k: usize) -> Option<&str> {
        let (observation, _) = self.entry(k).finals.as_ref()?;
        Some(self.run.text(observation))
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last info.
    #[inline]
    pub fn final_info(&self, k: usize) -> Option<&InfoStr> {
        let (_, info) = self.entry(k).finals.as_ref()?;
        Some(InfoStr::new(self.run.text(info)))
    }

    /// Entry `k`'s error, if its env failed (its slot restarted) or refused the step.
    #[inline]
    pub fn error(&self, k: usize) -> Option<&Error> {
        self.errors().find(|&(entry, _)| entry == k).map(|(_, e)| e)
    }

    /// `(entry, error)` for each entry whose env failed (its slot restarted) or refused the
    /// step, in no particular order.
    pub fn errors(&self) -> impl Iterator<Item = (usize, &Error)> + '_ {
        self.run.errors.iter().map(|(k, e)| (*k, e))
    }
}
