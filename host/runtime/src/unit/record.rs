//! [`Record`]: what the host remembers of one member's episode so that it can rebuild the episode
//! in a fresh instance after a fault of its unit: how the episode started, and the calls made on
//! it since, each with a digest of what it returned (a replay that returns something else names
//! the plugin as non-deterministic).
//!
//! Every episode start is known to the host: a user's seed, or a `continued` start derived from
//! the member's seed stream (the stream of its last user seed, and the count of unseeded episodes
//! it started), or a state blob given to `set_state`. Only units of two or more members keep a
//! log: a lone member has no sibling to protect, and its fault just ends its episode.

use super::columns::{Continuation, EpisodeStart};
use std::hash::Hasher;
use std::sync::Arc;

/// How the current episode began.
#[derive(Debug, Clone)]
pub(crate) enum Start {
    /// A reset with this start.
    Reset(EpisodeStart),
    /// `set_state` with this blob.
    State(Arc<[u8]>),
}

/// A call replayed after the start, with the digest of its output.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Call {
    /// A step whose action ends at this byte of [`Record::actions`].
    Step { end: u32 },
    /// A `sample_random_action` (it draws from the member's randomness).
    Sample,
}

/// One member's seed stream and episode log.
#[derive(Debug)]
pub(crate) struct Record {
    stream: u64,
    unseeded: u64,
    start: Option<Start>,
    /// The start's own digest (its first observation and info).
    start_digest: u64,
    actions: String,
    calls: Vec<(Call, u64)>,
    /// Whether calls are logged (only in units of several members).
    logging: bool,
}

impl Record {
    /// A record whose stream starts at `stream` (until a user seed replaces it).
    pub fn new(stream: u64, logging: bool) -> Self {
        Record {
            stream,
            unseeded: 0,
            start: None,
            start_digest: 0,
            actions: String::new(),
            calls: Vec::new(),
            logging,
        }
    }

    /// The start of the next episode for a reset with `seed`; a user seed restarts the stream.
    pub fn next_start(&mut self, seed: Option<u64>) -> EpisodeStart {
        match seed {
            Some(seed) => {
                self.stream = seed;
                EpisodeStart::Seeded(seed)
            }
            None => {
                let number = self.unseeded;
                self.unseeded += 1;
                EpisodeStart::Continued(Continuation {
                    stream: self.stream,
                    number,
                })
            }
        }
    }

    /// The start `next_start(None)` would give, without taking it.
    pub fn peek_unseeded(&self) -> EpisodeStart {
        EpisodeStart::Continued(Continuation {
            stream: self.stream,
            number: self.unseeded,
        })
    }

    /// The seed stream's position, for a state snapshot: the stream and the unseeded count.
    pub fn stream(&self) -> (u64, u64) {
        (self.stream, self.unseeded)
    }

    /// Continues the seed stream of a snapshot (see [`Record::stream`]).
    pub fn set_stream(&mut self, (stream, unseeded): (u64, u64)) {
        self.stream = stream;
        self.unseeded = unseeded;
    }

    /// A new episode began with `start`, whose output had `digest`.
    pub fn begin(&mut self, start: Start, digest: u64) {
        self.start = self.logging.then_some(start);
        self.start_digest = digest;
        self.actions.clear();
        self.calls.clear();
    }

    /// The episode is gone (its member failed or was never started).
    pub fn end(&mut self) {
        self.start = None;
        self.actions.clear();
        self.calls.clear();
    }

    /// Logs a step with `action` that returned output with `digest`.
    pub fn step(&mut self, action: &str, digest: u64) {
        if self.start.is_some() {
            self.actions.push_str(action);
            let end = u32::try_from(self.actions.len()).unwrap_or(u32::MAX);
            self.calls.push((Call::Step { end }, digest));
        }
    }

    /// Logs a `sample_random_action` that returned an action with `digest`.
    pub fn sample(&mut self, digest: u64) {
        if self.start.is_some() {
            self.calls.push((Call::Sample, digest));
        }
    }

    /// How the logged episode began and its digest (`None`: nothing to replay).
    pub fn start(&self) -> Option<(&Start, u64)> {
        self.start.as_ref().map(|s| (s, self.start_digest))
    }

    /// The logged calls, each with its action (empty for samples) and digest, in order.
    pub fn calls(&self) -> impl Iterator<Item = (Call, &str, u64)> + '_ {
        let mut from = 0usize;
        self.calls.iter().map(move |&(call, digest)| match call {
            Call::Step { end } => {
                let action = &self.actions[from..end as usize];
                from = end as usize;
                (call, action, digest)
            }
            Call::Sample => (call, "", digest),
        })
    }
}

/// Marks a binary state snapshot that carries its member's seed stream ahead of the guest's own
/// state.
const SNAPSHOT_TAG: &[u8; 8] = b"geode\x00s1";

/// The key a JSON state snapshot carries its member's seed stream under.
const STREAM_KEY: &str = "{\"geode_stream\":[";

/// A state snapshot: the guest's state plus the seed stream, so that a restored env's unseeded
/// episodes go on as the original's would. A JSON object state stays a JSON object (the stream
/// becomes its first key); any other state gets a binary header.
pub(crate) fn wrap_state((stream, unseeded): (u64, u64), guest: &[u8]) -> Vec<u8> {
    if let Some(rest) = guest.strip_prefix(b"{") {
        let comma = if rest.trim_ascii_start().starts_with(b"}") {
            ""
        } else {
            ","
        };
        let head = format!("{STREAM_KEY}{stream},{unseeded}]{comma}");
        return [head.as_bytes(), rest].concat();
    }
    let mut out = Vec::with_capacity(24 + guest.len());
    out.extend_from_slice(SNAPSHOT_TAG);
    out.extend_from_slice(&stream.to_le_bytes());
    out.extend_from_slice(&unseeded.to_le_bytes());
    out.extend_from_slice(guest);
    out
}

/// The seed stream and the guest's state of a snapshot (a bare guest state has no stream).
pub(crate) fn unwrap_state(state: &[u8]) -> (Option<(u64, u64)>, std::borrow::Cow<'_, [u8]>) {
    if let Some(rest) = state.strip_prefix(STREAM_KEY.as_bytes())
        && let Some(end) = rest.iter().position(|&b| b == b']')
        && let Ok(numbers) = std::str::from_utf8(&rest[..end])
        && let Some((a, b)) = numbers.split_once(',')
        && let (Ok(stream), Ok(unseeded)) = (a.trim().parse(), b.trim().parse())
    {
        let rest = &rest[end + 1..];
        let rest = rest.strip_prefix(b",").unwrap_or(rest);
        return (
            Some((stream, unseeded)),
            [b"{".as_slice(), rest].concat().into(),
        );
    }
    match state.strip_prefix(SNAPSHOT_TAG.as_slice()) {
        Some(rest) if rest.len() >= 16 => {
            let word =
                |at: usize| u64::from_le_bytes(rest[at..at + 8].try_into().expect("8 bytes"));
            (Some((word(0), word(8))), rest[16..].into())
        }
        _ => (None, state.into()),
    }
}

/// The digest of an output: its texts and numbers.
pub(crate) fn digest(observation: &str, info: &str, reward: f64, flags: u8) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(observation.as_bytes());
    hasher.write_u8(0xff);
    hasher.write(info.as_bytes());
    hasher.write_u64(reward.to_bits());
    hasher.write_u8(flags);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_seeds_restart_the_stream_and_unseeded_starts_count_on() {
        let mut record = Record::new(7, true);
        let continued = |stream, number| EpisodeStart::Continued(Continuation { stream, number });
        assert_eq!(record.next_start(None), continued(7, 0));
        assert_eq!(record.next_start(Some(42)), EpisodeStart::Seeded(42));
        assert_eq!(record.next_start(None), continued(42, 1));
        assert_eq!(record.next_start(None), continued(42, 2));
    }

    #[test]
    fn snapshots_carry_the_seed_stream() {
        for guest in [b"guest".as_slice(), b"{\"a\":1}", b"{}", b"{ }"] {
            let wrapped = wrap_state((5, 9), guest);
            let (stream, back) = unwrap_state(&wrapped);
            assert_eq!((stream, &*back), (Some((5, 9)), guest));
        }
        let json = wrap_state((5, 9), b"{\"a\":1}");
        assert_eq!(json, b"{\"geode_stream\":[5,9],\"a\":1}");
        assert_eq!(&*unwrap_state(b"bare").1, b"bare");
    }

    #[test]
    fn the_log_replays_the_episode_in_order() {
        let mut record = Record::new(0, true);
        record.step("ignored: no episode", 1);
        record.begin(Start::Reset(EpisodeStart::Seeded(3)), 9);
        record.step("a", 1);
        record.sample(2);
        record.step("bcd", 3);
        let calls: Vec<(&str, u64)> = record.calls().map(|(_, a, d)| (a, d)).collect();
        assert_eq!(calls, [("a", 1), ("", 2), ("bcd", 3)]);
        assert_eq!(record.start().map(|(_, d)| d), Some(9));
        let mut quiet = Record::new(0, false);
        quiet.begin(Start::Reset(EpisodeStart::Seeded(3)), 9);
        quiet.step("a", 1);
        assert!(quiet.start().is_none() && quiet.calls().count() == 0);
    }
}
