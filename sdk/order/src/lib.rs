//! The order in which geode's dataset envs (code, QA, math...) visit the rows of a dataset, on
//! the host and inside plugins alike:
//! - an unseeded `reset` takes the next row of the epoch's shuffled order; when the epoch is
//!   used up, the next one is shuffled again with `seed + epoch`;
//! - a seeded `reset` picks a row drawn from that seed alone (the same seed, the same row);
//! - an unseeded episode the host numbered takes row [`EpisodeOrder::row_at`]`(number)`: the row
//!   the `number`-th unseeded `reset` of a fresh walk would take, computed without walking, so
//!   the episode can be replayed from its number alone.
//!
//! These are GEM's rules for its dataset envs; the shuffle is geode's own ([`Permutation`]), so
//! the orders are not GEM's. Nothing is stored per row.

#![deny(missing_docs)]

mod permutation;

pub use permutation::{Permutation, splitmix};
use serde::{Deserialize, Serialize};

/// Where an env is in its walk over a dataset of `len` rows. Serializes to its position only
/// (cursor and epoch), for `get_state`; rebuild it with [`EpisodeOrder::restore`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpisodeOrder {
    seed: u64,
    order: Permutation,
    cursor: usize,
    epoch: u64,
}

/// The part of an [`EpisodeOrder`] a snapshot keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Rows of the current epoch already handed out.
    pub cursor: usize,
    /// Completed passes over the dataset.
    pub epoch: u64,
}

impl EpisodeOrder {
    /// The walk over `len` rows (at least one) for `seed`, at its start.
    pub fn new(len: usize, seed: u64) -> Self {
        assert!(len > 0, "an episode order needs at least one row");
        EpisodeOrder {
            seed,
            order: Permutation::new(len, seed),
            cursor: 0,
            epoch: 0,
        }
    }

    /// The walk over `len` rows for `seed`, at `position` (from [`EpisodeOrder::position`]).
    /// A cursor past the end (the dataset shrank) starts the next epoch at the next call.
    pub fn restore(len: usize, seed: u64, position: Position) -> Self {
        let mut order = EpisodeOrder::new(len, seed);
        order.epoch = position.epoch;
        order.order = Permutation::new(len, seed.wrapping_add(position.epoch));
        order.cursor = position.cursor.min(len);
        order
    }

    /// The position to snapshot.
    pub fn position(&self) -> Position {
        Position {
            cursor: self.cursor,
            epoch: self.epoch,
        }
    }

    /// The row of unseeded episode `number` (counted from 0) of a walk from its start: position
    /// `number % len` of epoch `number / len`'s shuffle. Walking `row_at(0)`, `row_at(1)`, ...
    /// visits exactly the rows successive `next(None)` calls on a fresh walk return. Pure: the
    /// walk does not move (see [`EpisodeOrder::seek`]).
    pub fn row_at(&self, number: u64) -> usize {
        let len = self.order.len() as u64;
        let (epoch, index) = (number / len, (number % len) as usize);
        if epoch == self.epoch {
            self.order.at(index)
        } else {
            Permutation::new(self.order.len(), self.seed.wrapping_add(epoch)).at(index)
        }
    }

    /// Moves the walk to just after unseeded episode `number - 1`: the next `next(None)`
    /// returns `row_at(number)`, and [`EpisodeOrder::position`] is where `number` calls of
    /// `next(None)` on a fresh walk would leave it.
    pub fn seek(&mut self, number: u64) {
        let len = self.order.len() as u64;
        let (epoch, cursor) = match number.checked_sub(1) {
            None => (0, 0),
            Some(last) => (last / len, (last % len) as usize + 1),
        };
        if epoch != self.epoch {
            self.epoch = epoch;
            self.order = Permutation::new(self.order.len(), self.seed.wrapping_add(epoch));
        }
        self.cursor = cursor;
    }

    /// The row of the next episode: drawn from `seed` when given, else the next of the epoch.
    pub fn next(&mut self, seed: Option<u64>) -> usize {
        let len = self.order.len();
        if let Some(seed) = seed {
            let mut state = seed;
            return (splitmix(&mut state) % len as u64) as usize;
        }
        if self.cursor == len {
            self.epoch += 1;
            self.order = Permutation::new(len, self.seed.wrapping_add(self.epoch));
            self.cursor = 0;
        }
        self.cursor += 1;
        self.order.at(self.cursor - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn each_epoch_visits_every_row_once_and_reshuffles() {
        let mut order = EpisodeOrder::new(50, 9);
        let first: Vec<usize> = (0..50).map(|_| order.next(None)).collect();
        let second: Vec<usize> = (0..50).map(|_| order.next(None)).collect();
        assert_eq!(first.iter().copied().collect::<BTreeSet<_>>().len(), 50);
        assert_eq!(second.iter().copied().collect::<BTreeSet<_>>().len(), 50);
        assert_ne!(first, second, "the second epoch is shuffled anew");
        assert_eq!(
            order.position(),
            Position {
                cursor: 50,
                epoch: 1
            }
        );
    }

    #[test]
    fn seeded_picks_depend_on_the_seed_only() {
        let mut a = EpisodeOrder::new(1000, 1);
        let mut b = EpisodeOrder::new(1000, 2);
        b.next(None);
        assert_eq!(a.next(Some(77)), b.next(Some(77)));
        assert_eq!(
            a.position().cursor,
            0,
            "a seeded pick does not advance the walk"
        );
    }

    #[test]
    fn numbered_rows_are_the_walk() {
        for (len, seed) in [(1, 0), (7, 3), (50, 9), (64, u64::MAX - 1)] {
            let mut walk = EpisodeOrder::new(len, seed);
            let walked: Vec<usize> = (0..3 * len).map(|_| walk.next(None)).collect();
            // From a fresh walk, from one moved elsewhere, and from one in a later epoch.
            let fresh = EpisodeOrder::new(len, seed);
            let mut moved = EpisodeOrder::new(len, seed);
            moved.next(None);
            let late = EpisodeOrder::restore(
                len,
                seed,
                Position {
                    cursor: 1,
                    epoch: 2,
                },
            );
            for order in [&fresh, &moved, &late, &walk] {
                let numbered: Vec<usize> = (0..3 * len as u64).map(|n| order.row_at(n)).collect();
                assert_eq!(numbered, walked, "len {len}, seed {seed}");
            }
        }
    }

    #[test]
    fn seeking_puts_the_walk_where_walking_would() {
        for number in 0..30u64 {
            let mut walk = EpisodeOrder::new(7, 5);
            for _ in 0..number {
                walk.next(None);
            }
            let mut sought = EpisodeOrder::new(7, 5);
            sought.next(None);
            sought.next(None);
            sought.seek(number);
            assert_eq!(sought.position(), walk.position(), "number {number}");
            assert_eq!(sought.next(None), walk.next(None), "number {number}");
            assert_eq!(sought.position(), walk.position(), "number {number}");
        }
        let mut order = EpisodeOrder::new(7, 5);
        order.seek(12);
        assert_eq!(order.next(None), EpisodeOrder::new(7, 5).row_at(12));
    }

    #[test]
    fn a_restored_walk_continues_where_it_was() {
        let mut order = EpisodeOrder::new(7, 3);
        for _ in 0..12 {
            order.next(None);
        }
        let text = serde_json::to_string(&order.position()).unwrap();
        let mut copy = EpisodeOrder::restore(7, 3, serde_json::from_str(&text).unwrap());
        let rest: Vec<usize> = (0..9).map(|_| order.next(None)).collect();
        let replay: Vec<usize> = (0..9).map(|_| copy.next(None)).collect();
        assert_eq!(rest, replay);
    }
}
