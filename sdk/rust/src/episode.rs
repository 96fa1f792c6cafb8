//! [`EpisodeStart`]: how the host starts an episode, and so how the SDK prepares the env's
//! [`Rng`](crate::Rng) before [`Environment::reset`](crate::Environment::reset).

use crate::bindings::exports::geode::env::batch as contract;

/// How an episode starts. [`Environment::before_reset`](crate::Environment::before_reset) sees
/// it; the SDK has already prepared the generator passed to `reset` accordingly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EpisodeStart {
    /// The user gave this seed. The generator is CPython's `random` after `random.seed(seed)`,
    /// so the episode is GEM's episode for that seed.
    Seeded(u64),
    /// The user gave no seed and the host numbered the episode: it is unseeded episode
    /// `number` of the member's `stream`. Everything random in the episode must be derived from
    /// these two numbers alone (the generator is [`Rng::continued`](crate::Rng::continued)),
    /// so the host can replay the episode in a fresh instance; dataset envs take row `number`
    /// of their walk ([`EpisodeOrder::row_at`](crate::dataset::EpisodeOrder::row_at)).
    Continued {
        /// The member's stream: from its last user seed, or from host entropy.
        stream: u64,
        /// How many unseeded episodes the member started before this one.
        number: u64,
    },
    /// The user gave no seed and the host did not number the episode (a plain `reset(none)`):
    /// the generator goes on from where it was (seeded from entropy at first use), and dataset
    /// envs take the next row of their walk.
    Unseeded,
}

impl EpisodeStart {
    /// The user's seed, if the episode has one.
    pub fn seed(&self) -> Option<u64> {
        match *self {
            EpisodeStart::Seeded(seed) => Some(seed),
            _ => None,
        }
    }
}

/// A batch call's `episode-start`.
impl From<contract::EpisodeStart> for EpisodeStart {
    fn from(start: contract::EpisodeStart) -> Self {
        match start {
            contract::EpisodeStart::Seeded(seed) => EpisodeStart::Seeded(seed),
            contract::EpisodeStart::Continued(contract::Continuation { stream, number }) => {
                EpisodeStart::Continued { stream, number }
            }
        }
    }
}

/// The plain `reset`'s seed: `Some(seed)` is [`EpisodeStart::Seeded`], `None`
/// [`EpisodeStart::Unseeded`].
impl From<Option<u64>> for EpisodeStart {
    fn from(seed: Option<u64>) -> Self {
        seed.map_or(EpisodeStart::Unseeded, EpisodeStart::Seeded)
    }
}
