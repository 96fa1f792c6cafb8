//! [`VectorStep`]: the batched result of a vector step, one entry per stepped slot. Numbers
//! are plain columns; strings are ranges of a few shared text blocks (one per unit's run of
//! slots stepped together), so a batch moves between threads in a few allocations.

use super::unit_step::UnitStep;
use crate::Error;
use crate::env::InfoStr;
use crate::unit::PackedRun;
use std::ops::Range;

/// Where an entry's observation and info lie: two ranges of one of the step's text blocks.
#[derive(Debug, Clone)]
struct Texts {
    block: usize,
    observation: Range<usize>,
    info: Range<usize>,
}

impl Texts {
    /// Stands for an entry not filled in yet.
    const UNSET: Texts = Texts {
        block: usize::MAX,
        observation: 0..0,
        info: 0..0,
    };
}

/// The batched result of one vector step, in the order the actions were given. Entry `k` is
/// slot `indices[k]`'s result; its strings are read with [`VectorStep::observation`] and the
/// other accessors. What few entries have (an ended episode's last observation and info under
/// SameStep, an error) is kept apart from the columns, so a step's result stays small.
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
    /// The entries' text.
    blocks: Vec<String>,
    texts: Vec<Texts>,
    /// `(entry, texts)` of the entries with a final observation and info.
    finals: Vec<(usize, Texts)>,
    /// `(entry, error)` of the entries whose env failed.
    errors: Vec<(usize, Error)>,
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
        let texts = &self.texts[k];
        self.text(texts.block, &texts.observation)
    }

    /// Every entry's observation, in entry order.
    pub fn observations(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|k| self.observation(k))
    }

    /// The info that goes with entry `k`'s observation.
    pub fn info(&self, k: usize) -> &InfoStr {
        let texts = &self.texts[k];
        InfoStr::new(self.text(texts.block, &texts.info))
    }

    /// Every entry's info, in entry order.
    pub fn infos(&self) -> impl ExactSizeIterator<Item = &InfoStr> + '_ {
        (0..self.len()).map(|k| self.info(k))
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last observation.
    pub fn final_observation(&self, k: usize) -> Option<&str> {
        let texts = self.final_texts(k)?;
        Some(self.text(texts.block, &texts.observation))
    }

    /// Under SameStep, when entry `k`'s step ended an episode: that episode's last info.
    pub fn final_info(&self, k: usize) -> Option<&InfoStr> {
        let texts = self.final_texts(k)?;
        Some(InfoStr::new(self.text(texts.block, &texts.info)))
    }

    /// True when some entry has a final observation (some episode ended under SameStep).
    pub fn any_final(&self) -> bool {
        !self.finals.is_empty()
    }

    /// Entry `k`'s error, if its env failed (its slot restarted) or refused the step.
    pub fn error(&self, k: usize) -> Option<&Error> {
        self.errors
            .iter()
            .find(|(e, _)| *e == k)
            .map(|(_, error)| error)
    }

    /// `(entry, error)` for each entry whose env failed or refused the step, in no particular
    /// order.
    pub fn errors(&self) -> impl ExactSizeIterator<Item = (usize, &Error)> + '_ {
        self.errors.iter().map(|(k, error)| (*k, error))
    }

    /// A batch of one entry per slot of `indices`, in that order, each to be filled in once
    /// (see [`VectorStep::place`] and [`VectorStep::split`]), in any order.
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
        self.texts.resize(n, Texts::UNSET);
    }

    /// Writes a run's entries, entry `k` at entry `at[k]`; its text becomes one block.
    pub(crate) fn place(&mut self, at: impl Iterator<Item = usize> + Clone, run: PackedRun) {
        self.blocks.push(String::new());
        let block = self.blocks.len() - 1;
        let rare = Filling {
            first: 0,
            block,
            text: &mut self.blocks[block],
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            texts: &mut self.texts,
        }
        .fill(at, run);
        self.add(rare);
    }

    /// Cuts the unset entries into consecutive parts of `lengths` entries (in all, every
    /// entry), each with a text block of its own, to be filled on different threads at once.
    /// What they leave ([`Rare`]) goes back with [`VectorStep::add`].
    pub(crate) fn split(&mut self, lengths: &[usize]) -> Vec<Filling<'_>> {
        debug_assert_eq!(lengths.iter().sum::<usize>(), self.len());
        let first_block = self.blocks.len();
        self.blocks
            .resize_with(first_block + lengths.len(), String::new);
        let mut blocks = self.blocks[first_block..].iter_mut();
        let (mut rewards, mut terminated) = (&mut self.rewards[..], &mut self.terminated[..]);
        let (mut truncated, mut texts) = (&mut self.truncated[..], &mut self.texts[..]);
        let mut first = 0;
        let mut parts = Vec::with_capacity(lengths.len());
        for (i, &n) in lengths.iter().enumerate() {
            parts.push(Filling {
                first,
                block: first_block + i,
                text: blocks.next().expect("a block per part"),
                rewards: cut(&mut rewards, n),
                terminated: cut(&mut terminated, n),
                truncated: cut(&mut truncated, n),
                texts: cut(&mut texts, n),
            });
            first += n;
        }
        parts
    }

    /// Takes in what a [`Filling`] left.
    pub(crate) fn add(&mut self, rare: Rare) {
        self.finals.extend(rare.finals);
        self.errors.extend(rare.errors);
    }

    fn final_texts(&self, k: usize) -> Option<&Texts> {
        self.finals.iter().find(|(e, _)| *e == k).map(|(_, t)| t)
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
        permute(&mut self.texts, &order);
        let mut new_place = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_place[old] = new;
        }
        for (e, _) in &mut self.finals {
            *e = new_place[*e];
        }
        for (e, _) in &mut self.errors {
            *e = new_place[*e];
        }
    }

    /// Removes every entry, keeping the allocated room.
    pub fn clear(&mut self) {
        self.indices.clear();
        self.rewards.clear();
        self.terminated.clear();
        self.truncated.clear();
        self.blocks.clear();
        self.texts.clear();
        self.finals.clear();
        self.errors.clear();
    }

    fn text(&self, block: usize, range: &Range<usize>) -> &str {
        &self.blocks[block][range.clone()]
    }
}

/// The first `n` items of `rest`; `rest` keeps the others.
fn cut<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (part, others) = std::mem::take(rest).split_at_mut(n);
    *rest = others;
    part
}

/// Entries of a [`VectorStep`] being filled with one run's results (a unit's, on the thread
/// that stepped it): their columns and the run's text block.
pub(crate) struct Filling<'a> {
    /// The step's entry number of this part's first entry.
    first: usize,
    block: usize,
    text: &'a mut String,
    rewards: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    texts: &'a mut [Texts],
}

/// What few entries have, left by a [`Filling`] for its [`VectorStep`] (empty vectors do not
/// allocate).
#[derive(Default)]
pub(crate) struct Rare {
    finals: Vec<(usize, Texts)>,
    errors: Vec<(usize, Error)>,
}

impl Filling<'_> {
    /// Writes `run`'s entries, entry `k` at this part's entry `at[k]`.
    pub fn fill(self, at: impl Iterator<Item = usize> + Clone, run: PackedRun) -> Rare {
        let block = self.block;
        *self.text = run.text;
        let mut rare = Rare::default();
        for (e, entry) in at.clone().zip(run.entries) {
            self.rewards[e] = entry.reward;
            self.terminated[e] = entry.terminated;
            self.truncated[e] = entry.truncated;
            self.texts[e] = Texts {
                block,
                observation: entry.observation,
                info: entry.info,
            };
            if let Some((observation, info)) = entry.finals {
                let texts = Texts {
                    block,
                    observation,
                    info,
                };
                rare.finals.push((self.first + e, texts));
            }
        }
        for (k, error) in run.errors {
            let e = at.clone().nth(k).expect("an error of an entry of the run");
            rare.errors.push((self.first + e, error));
        }
        rare
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::Info;
    use crate::vector::SlotStep;

    /// Slot `index`'s result as a one-entry unit: an ended episode for even slots, an error
    /// for slot 1.
    fn part(index: usize) -> UnitStep {
        let mut step = SlotStep::reset(format!("first {index}"), Info::empty());
        if index.is_multiple_of(2) {
            step.final_observation = Some(format!("last {index}"));
            step.final_info = Some(Info::empty());
        }
        if index == 1 {
            step.error = Some(Error::Internal(format!("slot {index}")));
        }
        UnitStep::from_slot(index, step)
    }

    #[test]
    fn sorting_by_index_moves_finals_and_errors_with_their_entries() {
        let mut out = VectorStep::default();
        for index in [3, 1, 2, 0] {
            out.push_unit(part(index));
        }
        out.sort_by_index();
        assert_eq!(out.indices, vec![0, 1, 2, 3]);
        for k in 0..4 {
            assert_eq!(out.observation(k), format!("first {k}"));
            let last = k.is_multiple_of(2).then(|| format!("last {k}"));
            assert_eq!(out.final_observation(k).map(str::to_owned), last);
            assert_eq!(out.final_info(k).is_some(), k.is_multiple_of(2));
            assert_eq!(out.error(k).is_some(), k == 1, "entry {k}");
        }
        assert!(out.any_final());
        assert_eq!(out.errors().map(|(k, _)| k).collect::<Vec<_>>(), vec![1]);
        out.clear();
        assert!(out.is_empty() && !out.any_final() && out.errors().len() == 0);
    }
}
