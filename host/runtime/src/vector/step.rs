//! [`VectorStep`]: the batched result of a vector step, one entry per stepped slot. Numbers
//! are plain columns; strings are ranges of a few shared text blocks (one per unit's run of
//! slots stepped together), so a batch moves between threads in a few allocations.

use super::unit_step::UnitStep;
use crate::Error;
use crate::env::InfoStr;
use crate::unit::PackedRun;
use std::ops::Range;

/// Where a string of a [`VectorStep`] lies: a range of one of its text blocks.
#[derive(Debug, Clone)]
struct Span {
    block: usize,
    range: Range<usize>,
}

impl Span {
    /// Stands for an entry not filled in yet.
    const UNSET: Span = Span {
        block: usize::MAX,
        range: 0..0,
    };
}

/// The batched result of one vector step, in the order the actions were given. Entry `k` is
/// slot `indices[k]`'s result; its strings are read with [`VectorStep::observation`] and the
/// other accessors.
#[derive(Debug, Default)]
pub struct VectorStep {
    /// The slot index of each entry.
    pub indices: Vec<usize>,
    /// Per entry: the reward.
    pub rewards: Vec<f64>,
    /// Per entry: the episode ended by its own rules.
    pub terminated: Vec<bool>,
    /// Per entry: the episode was cut short.
    pub truncated: Vec<bool>,
    /// Per entry: the slot's error, if its env failed (the slot was restarted).
    pub errors: Vec<Option<Error>>,
    /// The entries' text.
    blocks: Vec<String>,
    observations: Vec<Span>,
    infos: Vec<Span>,
    final_observations: Vec<Option<Span>>,
    final_infos: Vec<Option<Span>>,
}

impl VectorStep {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// True when the batch has no entry.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Entry `k`'s observation: the one to act on next (after SameStep autoreset, the new
    /// episode's first). Panics when `k` is out of range, as indexing does.
    pub fn observation(&self, k: usize) -> &str {
        self.text(&self.observations[k])
    }

    /// Every entry's observation, in entry order.
    pub fn observations(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.observations.iter().map(|span| self.text(span))
    }

    /// The info that goes with entry `k`'s observation.
    pub fn info(&self, k: usize) -> &InfoStr {
        InfoStr::new(self.text(&self.infos[k]))
    }

    /// Every entry's info, in entry order.
    pub fn infos(&self) -> impl ExactSizeIterator<Item = &InfoStr> + '_ {
        self.infos.iter().map(|span| InfoStr::new(self.text(span)))
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last observation.
    pub fn final_observation(&self, k: usize) -> Option<&str> {
        self.final_observations[k].as_ref().map(|s| self.text(s))
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last info.
    pub fn final_info(&self, k: usize) -> Option<&InfoStr> {
        self.final_infos[k]
            .as_ref()
            .map(|s| InfoStr::new(self.text(s)))
    }

    /// True when some entry has a final observation (some episode ended under SameStep).
    pub fn any_final(&self) -> bool {
        self.final_observations.iter().any(Option::is_some)
    }

    /// A batch of one entry per slot of `indices`, in that order, each to be filled in once by
    /// [`VectorStep::place`], in any order.
    pub(crate) fn for_indices(indices: Vec<usize>) -> Self {
        let mut out = VectorStep::default();
        out.grow(indices);
        out
    }

    /// Appends the entries of one unit's results (as a streamed step hands them over).
    pub fn push_unit(&mut self, unit: UnitStep) {
        let (slots, run) = unit.into_parts();
        let at = self.len();
        self.grow((0..run.entries.len()).map(|k| slots.get(k)).collect());
        self.place(at.., run);
    }

    /// Appends unset entries for slots `indices`.
    fn grow(&mut self, indices: Vec<usize>) {
        let n = self.len() + indices.len();
        self.indices.extend(indices);
        self.rewards.resize(n, 0.0);
        self.terminated.resize(n, false);
        self.truncated.resize(n, false);
        self.errors.resize_with(n, || None);
        self.observations.resize(n, Span::UNSET);
        self.infos.resize(n, Span::UNSET);
        self.final_observations.resize(n, None);
        self.final_infos.resize(n, None);
    }

    /// Writes a run's entries, entry `k` at entry `at[k]`; its text becomes one block.
    pub(crate) fn place(&mut self, at: impl Iterator<Item = usize> + Clone, run: PackedRun) {
        let block = self.blocks.len();
        self.blocks.push(run.text);
        let span = |range: Range<usize>| Span { block, range };
        for (e, entry) in at.clone().zip(run.entries) {
            self.rewards[e] = entry.reward;
            self.terminated[e] = entry.terminated;
            self.truncated[e] = entry.truncated;
            self.observations[e] = span(entry.observation);
            self.infos[e] = span(entry.info);
            self.final_observations[e] = entry.final_observation.map(span);
            self.final_infos[e] = entry.final_info.map(span);
        }
        for (k, error) in run.errors {
            let e = at.clone().nth(k).expect("an error of an entry of the run");
            self.errors[e] = Some(error);
        }
    }

    /// Puts the entries in slot index order (a streamed step hands them over in any order).
    pub fn sort_by_index(&mut self) {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&k| self.indices[k]);
        fn permute<T>(column: &mut Vec<T>, order: &[usize]) {
            let mut taken: Vec<Option<T>> = column.drain(..).map(Some).collect();
            column.extend(
                order
                    .iter()
                    .map(|&k| taken[k].take().expect("a permutation")),
            );
        }
        permute(&mut self.indices, &order);
        permute(&mut self.rewards, &order);
        permute(&mut self.terminated, &order);
        permute(&mut self.truncated, &order);
        permute(&mut self.errors, &order);
        permute(&mut self.observations, &order);
        permute(&mut self.infos, &order);
        permute(&mut self.final_observations, &order);
        permute(&mut self.final_infos, &order);
    }

    /// Removes every entry, keeping the allocated room.
    pub fn clear(&mut self) {
        self.indices.clear();
        self.rewards.clear();
        self.terminated.clear();
        self.truncated.clear();
        self.errors.clear();
        self.blocks.clear();
        self.observations.clear();
        self.infos.clear();
        self.final_observations.clear();
        self.final_infos.clear();
    }

    fn text(&self, span: &Span) -> &str {
        &self.blocks[span.block][span.range.clone()]
    }
}
