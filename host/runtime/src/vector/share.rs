//! [`Shared`]: one batch of items split into home ranges, one per participant thread. Each
//! participant takes items from the front of its own range; once that is empty it takes items
//! one at a time from the back of the others'. So a slot is stepped by the same thread batch
//! after batch (its store and guest memory stay in that core's cache), and only the few slots
//! needed to even out a batch move.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, Ordering};

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
}

// SAFETY: a cell is touched only by the one participant whose atomic claim returned its index
// (each index is handed out exactly once). `into_results` takes `self` by value, after every
// participant finished (the caller of `work` must guarantee that).
unsafe impl<T: Send, R: Send> Sync for Shared<T, R> {}

impl<T, R> Shared<T, R> {
    /// `items` split into `participants` contiguous home ranges of near-equal size.
    pub fn new(items: Vec<T>, participants: usize) -> Self {
        assert!(
            items.len() < u32::MAX as usize,
            "a batch holds fewer than 2^32 items"
        );
        let n = items.len();
        let participants = participants.max(1);
        Shared {
            cells: items
                .into_iter()
                .map(|item| UnsafeCell::new(Cell::Todo(item)))
                .collect(),
            ranges: (0..participants)
                .map(|p| Range::new(p * n / participants, (p + 1) * n / participants))
                .collect(),
        }
    }

    /// Participant `me`'s part: its own items first, then whatever the others have left, until
    /// no item is left unclaimed. Any participant number works (it is taken modulo the count).
    pub fn work(&self, me: usize, f: &(dyn Fn(T) -> R + Sync)) {
        let count = self.ranges.len();
        let me = me % count;
        while let Some(index) = self.ranges[me].take_front() {
            self.process(index, f);
        }
        for other in (1..count).map(|k| (me + k) % count) {
            while let Some(index) = self.ranges[other].take_back() {
                self.process(index, f);
            }
        }
    }

    fn process(&self, index: usize, f: &(dyn Fn(T) -> R + Sync)) {
        // SAFETY: `index` was claimed by this call alone (see the `Sync` impl).
        let cell = unsafe { &mut *self.cells[index].get() };
        if let Cell::Todo(item) = std::mem::replace(cell, Cell::Taken) {
            *cell = Cell::Done(f(item));
        }
    }

    /// The results in item order. Call only after every participant's `work` returned.
    pub fn into_results(self) -> Vec<R> {
        self.cells
            .into_iter()
            .map(|cell| match cell.into_inner() {
                Cell::Done(result) => result,
                Cell::Todo(_) | Cell::Taken => {
                    unreachable!("every item is processed before the batch ends")
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
}
