//! [`Shared`]: one batch of items split into home ranges, one per participant thread. Each
//! participant takes items from the front of its own range; once that is empty it takes items
//! one at a time from the back of the others'. So a slot is stepped by the same thread batch
//! after batch (its store and guest memory stay in that core's cache), and only the few slots
//! needed to even out a batch move.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Items per word of a [`Shared`]'s finished and handed-out bit sets.
const WORD: usize = 64;

/// A participant's remaining home items `front..back`, packed in one atomic word (front in the
/// high half) and alone on its cache line.
#[repr(align(128))]
struct Range(AtomicU64);

impl Range {
    fn new(front: usize, back: usize) -> Self {
        Range(AtomicU64::new(pack(front, back)))
    }

    /// Claims the first remaining item (the owner's end).
    fn take_front(&self) -> Option<usize> {
        self.claim(|front, back| (front, pack(front + 1, back)))
    }

    /// Claims the last remaining item (a helper's end).
    fn take_back(&self) -> Option<usize> {
        self.claim(|front, back| (back - 1, pack(front, back - 1)))
    }

    fn claim(&self, next: impl Fn(usize, usize) -> (usize, u64)) -> Option<usize> {
        let mut word = self.0.load(Ordering::Acquire);
        loop {
            let (front, back) = unpack(word);
            if front >= back {
                return None;
            }
            let (item, new) = next(front, back);
            match self
                .0
                .compare_exchange_weak(word, new, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(item),
                Err(now) => word = now,
            }
        }
    }
}

fn pack(front: usize, back: usize) -> u64 {
    ((front as u64) << 32) | back as u64
}

fn unpack(word: u64) -> (usize, usize) {
    ((word >> 32) as usize, (word & u64::from(u32::MAX)) as usize)
}

/// How far each participant's share of the items follows the last batch (see [`Balance`]).
const SMOOTHING: f64 = 0.25;

/// The shares of a recurring batch its participants processed lately, smoothed over batches,
/// from which the next batch's home ranges are cut ([`Shared::weighted`]). A participant that
/// spends part of each batch on other work (the caller converting results) then keeps a smaller
/// range, instead of the others taking the same items off its range batch after batch and
/// moving them between cores.
#[derive(Debug, Clone, Default)]
pub struct Balance {
    shares: Vec<f64>,
}

impl Balance {
    /// Home range weights for a batch with `participants` participants.
    pub fn weights(&self, participants: usize) -> Vec<f64> {
        if self.shares.len() == participants {
            self.shares.clone()
        } else {
            vec![1.0; participants]
        }
    }

    /// Folds in how many items each participant processed in a batch.
    pub fn record(&mut self, processed: &[usize]) {
        let total: usize = processed.iter().sum();
        if total == 0 {
            return;
        }
        if self.shares.len() != processed.len() {
            self.shares = vec![1.0 / processed.len() as f64; processed.len()];
        }
        for (share, &count) in self.shares.iter_mut().zip(processed) {
            *share += SMOOTHING * (count as f64 / total as f64 - *share);
        }
    }
}

/// An item before it is processed, its result after.
enum Cell<T, R> {
    Todo(T),
    Taken,
    Done(R),
}

/// A batch shared out among `participants` threads (see the module documentation).
pub struct Shared<T, R> {
    cells: Vec<UnsafeCell<Cell<T, R>>>,
    ranges: Vec<Range>,
    /// Items processed by each participant.
    processed: Vec<AtomicUsize>,
    /// A bit per item, set once its result is in its cell.
    finished: Vec<AtomicU64>,
    /// A bit per item, set once [`Shared::take_finished`] took its result out.
    handed_out: Vec<AtomicU64>,
}

// SAFETY: a cell is touched by the one participant whose atomic claim returned its index (each
// index is handed out exactly once) until that participant sets the item's `finished` bit
// (release); after that only by the one caller of `take_finished` whose `handed_out` fetch_or
// set the bit (acquire). `into_results` takes `self` by value, after every participant finished
// (the caller of `work` must guarantee that).
unsafe impl<T: Send, R: Send> Sync for Shared<T, R> {}

impl<T, R> Shared<T, R> {
    /// `items` split into `participants` contiguous home ranges of near-equal size.
    pub fn new(items: Vec<T>, participants: usize) -> Self {
        Self::weighted(items, &vec![1.0; participants.max(1)])
    }

    /// `items` split into one contiguous home range per weight, sized in proportion to it.
    pub fn weighted(items: Vec<T>, weights: &[f64]) -> Self {
        assert!(
            items.len() < u32::MAX as usize,
            "a batch holds fewer than 2^32 items"
        );
        let n = items.len();
        let participants = weights.len().max(1);
        let total: f64 = weights.iter().sum();
        let mut bounds = vec![0; participants + 1];
        let mut sum = 0.0;
        for (p, weight) in weights.iter().enumerate() {
            sum += weight;
            bounds[p + 1] = if total > 0.0 {
                ((sum / total * n as f64).round() as usize).clamp(bounds[p], n)
            } else {
                (p + 1) * n / participants
            };
        }
        bounds[participants] = n;
        let words = || (0..n.div_ceil(WORD)).map(|_| AtomicU64::new(0)).collect();
        Shared {
            cells: items
                .into_iter()
                .map(|item| UnsafeCell::new(Cell::Todo(item)))
                .collect(),
            ranges: (0..participants)
                .map(|p| Range::new(bounds[p], bounds[p + 1]))
                .collect(),
            processed: (0..participants).map(|_| AtomicUsize::new(0)).collect(),
            finished: words(),
            handed_out: words(),
        }
    }

    /// How many items each participant processed (complete once every participant is done).
    pub fn processed(&self) -> Vec<usize> {
        self.processed
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .collect()
    }

    /// Participant `me`'s part: its own items first, then whatever the others have left, until
    /// no item is left unclaimed. Any participant number works (it is taken modulo the count).
    pub fn work(&self, me: usize, f: &(dyn Fn(T) -> R + Sync)) {
        self.work_between(me, f, &mut || {});
    }

    /// [`Shared::work`], calling `between` after each item this participant processed (the
    /// caller's chance to take finished results while the others still work).
    pub fn work_between(&self, me: usize, f: &(dyn Fn(T) -> R + Sync), between: &mut dyn FnMut()) {
        let count = self.ranges.len();
        let me = me % count;
        let mut processed = 0;
        while let Some(index) = self.ranges[me].take_front() {
            self.process(index, f);
            processed += 1;
            between();
        }
        for other in (1..count).map(|k| (me + k) % count) {
            while let Some(index) = self.ranges[other].take_back() {
                self.process(index, f);
                processed += 1;
                between();
            }
        }
        self.processed[me].fetch_add(processed, Ordering::Relaxed);
    }

    fn process(&self, index: usize, f: &(dyn Fn(T) -> R + Sync)) {
        // Marks the item finished also when `f` panics (its cell then holds no result), so
        // that a caller waiting for every result sees the batch end and the panic propagates.
        struct Finish<'a>(&'a AtomicU64, u64);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                self.0.fetch_or(self.1, Ordering::Release);
            }
        }
        let _finish = Finish(&self.finished[index / WORD], 1 << (index % WORD));
        // SAFETY: `index` was claimed by this call alone (see the `Sync` impl).
        let cell = unsafe { &mut *self.cells[index].get() };
        if let Cell::Todo(item) = std::mem::replace(cell, Cell::Taken) {
            *cell = Cell::Done(f(item));
        }
    }

    /// Number of items finished but not yet taken out.
    pub fn waiting(&self) -> usize {
        self.finished
            .iter()
            .zip(&self.handed_out)
            .map(|(done, out)| {
                (done.load(Ordering::Acquire) & !out.load(Ordering::Relaxed)).count_ones() as usize
            })
            .sum()
    }

    /// Whether every item's result was taken out with [`Shared::take_finished`].
    pub fn all_taken(&self) -> bool {
        let n = self.cells.len();
        self.handed_out.iter().enumerate().all(|(word, out)| {
            let items = (n - word * WORD).min(WORD);
            let full = if items == WORD {
                u64::MAX
            } else {
                (1 << items) - 1
            };
            out.load(Ordering::Relaxed) == full
        })
    }

    /// Takes out the results finished so far and not taken before, appending `(item index,
    /// result)` to `into` in item order. Any thread may call it at any time, also while
    /// participants work; each result is taken exactly once.
    pub fn take_finished(&self, into: &mut Vec<(usize, R)>) {
        for (word, (done, out)) in self.finished.iter().zip(&self.handed_out).enumerate() {
            let done = done.load(Ordering::Acquire);
            let mut mine = done & !out.fetch_or(done, Ordering::AcqRel);
            while mine != 0 {
                let index = word * WORD + mine.trailing_zeros() as usize;
                mine &= mine - 1;
                // SAFETY: the item's result is in its cell (its `finished` bit is set) and this
                // call alone set its `handed_out` bit (see the `Sync` impl).
                let cell = unsafe { &mut *self.cells[index].get() };
                if let Cell::Done(result) = std::mem::replace(cell, Cell::Taken) {
                    into.push((index, result));
                }
            }
        }
    }

    /// The results in item order. Call only after every participant's `work` returned, on a
    /// batch none of whose results was taken out with [`Shared::take_finished`].
    pub fn into_results(self) -> Vec<R> {
        self.cells
            .into_iter()
            .map(|cell| match cell.into_inner() {
                Cell::Done(result) => result,
                Cell::Todo(_) | Cell::Taken => {
                    unreachable!(
                        "every item is processed before the batch ends, and none taken out"
                    )
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_participant_processes_everything_in_order() {
        let shared = Shared::new((0..10).collect(), 1);
        shared.work(0, &|i: usize| i * 3);
        assert_eq!(
            shared.into_results(),
            (0..10).map(|i| i * 3).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_lone_participant_also_takes_the_others_ranges() {
        let shared = Shared::new((0..7).collect(), 3);
        shared.work(1, &|i: usize| i + 1);
        assert_eq!(shared.into_results(), (1..8).collect::<Vec<_>>());
    }

    #[test]
    fn home_ranges_go_to_their_owners() {
        let shared = Shared::new((0..8).collect(), 2);
        let owner = |me: usize| move |_: usize| me;
        shared.work(0, &owner(0));
        shared.work(1, &owner(1));
        // Participant 0 ran first and emptied both ranges, its own from the front.
        assert_eq!(shared.into_results(), vec![0; 8]);
        let shared = Shared::new((0..8).collect(), 2);
        std::thread::scope(|s| {
            s.spawn(|| shared.work(1, &owner(1)));
        });
        shared.work(0, &owner(0));
        assert_eq!(shared.into_results(), vec![1; 8]);
    }

    #[test]
    fn concurrent_participants_claim_each_item_once() {
        for participants in [2, 3, 5] {
            let shared = Shared::new((0..1000).collect(), participants);
            std::thread::scope(|s| {
                for me in 0..participants {
                    let shared = &shared;
                    s.spawn(move || shared.work(me, &|i: usize| i * 2));
                }
            });
            assert_eq!(
                shared.into_results(),
                (0..1000).map(|i| i * 2).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn empty_batches_and_more_participants_than_items() {
        let shared: Shared<usize, usize> = Shared::new(Vec::new(), 4);
        shared.work(3, &|i| i);
        assert!(shared.into_results().is_empty());
        let shared = Shared::new(vec![5, 6], 8);
        shared.work(7, &|i: usize| i);
        assert_eq!(shared.into_results(), vec![5, 6]);
    }

    #[test]
    fn finished_results_are_taken_once_while_participants_work() {
        for participants in [1, 2, 3] {
            let shared = Shared::new((0..500).collect(), participants);
            let mut taken = Vec::new();
            std::thread::scope(|s| {
                for me in 1..participants {
                    let shared = &shared;
                    s.spawn(move || shared.work(me, &|i: usize| i * 2));
                }
                let mut ready = Vec::new();
                shared.work_between(0, &|i: usize| i * 2, &mut || {
                    shared.take_finished(&mut ready);
                    taken.append(&mut ready);
                });
                while !shared.all_taken() {
                    shared.take_finished(&mut ready);
                    taken.append(&mut ready);
                }
            });
            assert_eq!(shared.waiting(), 0);
            taken.sort_unstable();
            assert_eq!(taken, (0..500).map(|i| (i, i * 2)).collect::<Vec<_>>());
            assert_eq!(shared.processed().iter().sum::<usize>(), 500);
        }
    }

    #[test]
    fn take_finished_hands_out_only_finished_items() {
        let shared = Shared::new((0..70).collect(), 2);
        let mut ready = Vec::new();
        shared.take_finished(&mut ready);
        assert!(ready.is_empty() && !shared.all_taken());
        shared.work(1, &|i: usize| i); // participant 1 alone: every item, in both ranges
        assert_eq!(shared.waiting(), 70);
        shared.take_finished(&mut ready);
        assert_eq!(ready.len(), 70);
        assert!(shared.all_taken());
        shared.take_finished(&mut ready);
        assert_eq!(ready.len(), 70, "nothing is handed out twice");
    }

    #[test]
    fn weights_size_the_home_ranges() {
        let shared = Shared::weighted((0..8).collect(), &[0.25, 0.75]);
        let owner = |me: usize| move |_: usize| me;
        std::thread::scope(|s| {
            s.spawn(|| shared.work(1, &owner(1)));
        });
        shared.work(0, &owner(0));
        assert_eq!(shared.into_results(), vec![1; 8]);
        let shared = Shared::weighted((0..8).collect(), &[0.25, 0.75]);
        shared.work(0, &owner(0)); // its own two first, then the others' from the back
        assert_eq!(shared.processed(), vec![8, 0]);
        let shared = Shared::weighted((0..3).collect(), &[0.0, 0.0]);
        shared.work(0, &owner(0));
        assert_eq!(shared.into_results(), vec![0; 3]);
    }

    #[test]
    fn a_panicking_item_still_counts_as_finished() {
        let shared = Shared::new((0..4).collect(), 1);
        let hit = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared.work(0, &|i: usize| if i == 2 { panic!("boom") } else { i })
        }));
        assert!(hit.is_err());
        shared.work(0, &|i: usize| i); // the rest of the batch
        let mut ready = Vec::new();
        shared.take_finished(&mut ready);
        assert_eq!(ready, vec![(0, 0), (1, 1), (3, 3)]);
        assert!(shared.all_taken(), "a waiting caller sees the batch end");
    }

    #[test]
    fn balance_follows_what_participants_processed() {
        let mut balance = Balance::default();
        assert_eq!(balance.weights(2), vec![1.0, 1.0]);
        for _ in 0..50 {
            balance.record(&[2, 6]);
        }
        let weights = balance.weights(2);
        assert!((weights[0] - 0.25).abs() < 0.01, "{weights:?}");
        assert_eq!(
            balance.weights(3),
            vec![1.0; 3],
            "another gang size starts even"
        );
        balance.record(&[0, 0]);
        assert_eq!(
            balance.weights(2),
            weights,
            "an empty batch changes nothing"
        );
    }
}
