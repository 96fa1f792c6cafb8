//! [`Walk`]: the order a dataset env (code, math) visits its rows in. Training ids follow the QA
//! envs' [`EpisodeOrder`]; evaluation ids take the rows in dataset order for their first epoch
//! (GEM does not shuffle an eval dataset until it wraps around, then reshuffles per epoch).

use geode_order::{EpisodeOrder, Position};

/// A walk over a dataset.
#[derive(Debug, Clone)]
pub struct Walk {
    order: EpisodeOrder,
    eval: bool,
}

impl Walk {
    /// The walk over `len` rows (at least one) for `seed`.
    pub fn new(len: usize, seed: u64, eval: bool) -> Self {
        Walk {
            order: EpisodeOrder::new(len, seed),
            eval,
        }
    }

    /// The walk at `position`.
    pub fn restore(len: usize, seed: u64, eval: bool, position: Position) -> Self {
        Walk {
            order: EpisodeOrder::restore(len, seed, position),
            eval,
        }
    }

    /// Where the walk is.
    pub fn position(&self) -> Position {
        self.order.position()
    }

    /// Moves the walk so that the next unseeded episode is number `number` from its start.
    pub fn seek(&mut self, number: u64) {
        self.order.seek(number);
    }

    /// The row of the next episode (drawn from `seed` when given).
    pub fn next(&mut self, seed: Option<u64>) -> usize {
        let row = self.order.next(seed);
        let position = self.order.position();
        if seed.is_none() && self.eval && position.epoch == 0 {
            return position.cursor - 1;
        }
        row
    }
}
