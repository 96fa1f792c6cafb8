//! [`VectorStep`]: the batched result of a vector step, one entry per stepped slot. Numbers
//! are plain columns; strings are ranges of a few shared text blocks (one per slot, or one per
//! run of slots stepped together), so a batch moves between threads in a few allocations.

use super::slot::SlotStep;
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
    /// An empty batch with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        VectorStep {
            indices: Vec::with_capacity(n),
            rewards: Vec::with_capacity(n),
            terminated: Vec::with_capacity(n),
            truncated: Vec::with_capacity(n),
            errors: Vec::with_capacity(n),
            blocks: Vec::with_capacity(n),
            observations: Vec::with_capacity(n),
            infos: Vec::with_capacity(n),
            final_observations: Vec::with_capacity(n),
            final_infos: Vec::with_capacity(n),
        }
    }

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

    /// The entries of `steps`, for slots `indices` (one each, in order).
    pub(crate) fn from_slots(
        indices: impl IntoIterator<Item = usize>,
        steps: Vec<SlotStep>,
    ) -> Self {
        let mut out = VectorStep::with_capacity(steps.len());
        for (index, step) in indices.into_iter().zip(steps) {
            out.push(index, step);
        }
        out
    }

    /// Appends slot `index`'s result as the next entry (its strings become blocks of their
    /// own, without a copy).
    pub fn push(&mut self, index: usize, step: SlotStep) {
        self.indices.push(index);
        self.rewards.push(step.reward);
        self.terminated.push(step.terminated);
        self.truncated.push(step.truncated);
        self.errors.push(step.error);
        let observation = self.add_block(step.observation);
        self.observations.push(observation);
        let info = self.add_block(step.info.into_json());
        self.infos.push(info);
        let final_observation = step.final_observation.map(|o| self.add_block(o));
        self.final_observations.push(final_observation);
        let final_info = step.final_info.map(|i| self.add_block(i.into_json()));
        self.final_infos.push(final_info);
    }

    /// A batch of one entry per slot `0..n`, each to be filled in once by
    /// [`VectorStep::place_run`], in any order.
    pub(crate) fn for_slots(n: usize) -> Self {
        VectorStep {
            indices: (0..n).collect(),
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            errors: (0..n).map(|_| None).collect(),
            blocks: Vec::new(),
            observations: vec![Span::UNSET; n],
            infos: vec![Span::UNSET; n],
            final_observations: vec![None; n],
            final_infos: vec![None; n],
        }
    }

    /// Appends the entries of one unit's results (as a streamed step hands them over).
    pub fn push_unit(&mut self, unit: UnitStep) {
        let (first, run) = unit.into_parts();
        self.push_run(first, run);
    }

    /// Appends a run's entries, for slots `first..` (its text becomes one block).
    fn push_run(&mut self, first: usize, run: PackedRun) {
        let at = self.len();
        let n = run.entries.len();
        self.indices.extend(first..first + n);
        self.rewards.resize(at + n, 0.0);
        self.terminated.resize(at + n, false);
        self.truncated.resize(at + n, false);
        self.errors.resize_with(at + n, || None);
        self.observations.resize(at + n, Span::UNSET);
        self.infos.resize(at + n, Span::UNSET);
        self.final_observations.resize(at + n, None);
        self.final_infos.resize(at + n, None);
        self.place_at(at, run);
    }

    /// Fills in the entries of slots `first..` with a run's results (a batch made by
    /// [`VectorStep::for_slots`]).
    pub(crate) fn place_run(&mut self, first: usize, run: PackedRun) {
        self.place_at(first, run);
    }

    /// Writes a run's entries at entries `at..`; its text becomes one block.
    fn place_at(&mut self, at: usize, run: PackedRun) {
        let block = self.blocks.len();
        self.blocks.push(run.text);
        let span = |range: Range<usize>| Span { block, range };
        for (k, entry) in run.entries.into_iter().enumerate() {
            let e = at + k;
            self.rewards[e] = entry.reward;
            self.terminated[e] = entry.terminated;
            self.truncated[e] = entry.truncated;
            self.observations[e] = span(entry.observation);
            self.infos[e] = span(entry.info);
            self.final_observations[e] = entry.final_observation.map(span);
            self.final_infos[e] = entry.final_info.map(span);
        }
        for (k, error) in run.errors {
            self.errors[at + k] = Some(error);
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

    fn add_block(&mut self, text: String) -> Span {
        let span = Span {
            block: self.blocks.len(),
            range: 0..text.len(),
        };
        self.blocks.push(text);
        span
    }

    fn text(&self, span: &Span) -> &str {
        &self.blocks[span.block][span.range.clone()]
    }
}
