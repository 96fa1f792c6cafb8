//! [`Episodes`]: the state of a native env that poses one dataset row per episode (the code and
//! math envs): the walk over its rows and the row of the current episode, with the snapshot
//! `get_state` / `set_state` exchange and the fresh copy `spawn(same_state: false)` makes.

use crate::gem::TERMINAL_STATE;
use crate::walk::Walk;
use geode_order::Position;
use geode_runtime::{Error, Info, Result, StepOutput};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The walk over a dataset and the current episode's row (of type `T`).
#[derive(Debug, Clone)]
pub(crate) struct Episodes<T> {
    /// The snapshot key the current row is stored under (`problem`, `question`).
    key: &'static str,
    rows: usize,
    seed: u64,
    eval: bool,
    walk: Walk,
    current: Option<T>,
}

impl<T: Clone + Serialize + DeserializeOwned> Episodes<T> {
    /// No episode yet, at the start of the walk over `rows` rows for `seed` (see [`Walk`]).
    pub(crate) fn new(key: &'static str, rows: usize, seed: u64, eval: bool) -> Self {
        Episodes {
            key,
            rows,
            seed,
            eval,
            walk: Walk::new(rows, seed, eval),
            current: None,
        }
    }

    /// How many rows the walk goes over.
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The row index of the next episode (drawn from `seed` when given).
    pub(crate) fn next(&mut self, seed: Option<u64>) -> usize {
        self.walk.next(seed)
    }

    /// Makes the next unseeded episode number `number` of the walk (`Env::seek_episode`).
    pub(crate) fn seek(&mut self, number: u64) {
        self.walk.seek(number);
    }

    /// Makes `row` the current episode's.
    pub(crate) fn start(&mut self, row: T) {
        self.current = Some(row);
    }

    /// The row an `action` of env `env` answers: the current one, after checking that the
    /// action fits in `max_action_bytes` and that the episode was reset.
    pub(crate) fn answered(&self, env: &str, action: &str, max_action_bytes: usize) -> Result<&T> {
        if action.len() > max_action_bytes {
            return Err(Error::InputTooLarge {
                env: env.to_owned(),
                what: "action",
                len: action.len(),
                limit: max_action_bytes,
            });
        }
        self.current.as_ref().ok_or_else(|| Error::InvalidState {
            env: env.to_owned(),
            message: "step called before reset".to_owned(),
        })
    }

    /// The same walk from its start, with no episode (what `spawn(false)` gives).
    pub(crate) fn restarted(&self) -> Self {
        Self::new(self.key, self.rows, self.seed, self.eval)
    }

    /// The snapshot `get_state` returns: `{<key>: row or null, <position fields>}`.
    pub(crate) fn snapshot(&self) -> Result<Vec<u8>> {
        let internal = |e: serde_json::Error| Error::Internal(e.to_string());
        let Value::Object(mut snapshot) =
            serde_json::to_value(self.walk.position()).map_err(internal)?
        else {
            return Err(Error::Internal("a walk position is a JSON object".into()));
        };
        let current = serde_json::to_value(&self.current).map_err(internal)?;
        snapshot.insert(self.key.to_owned(), current);
        serde_json::to_vec(&snapshot).map_err(internal)
    }

    /// Goes back to a [`snapshot`](Self::snapshot); `env` and `what` ("code env") name the
    /// env in the error for bytes that are not one.
    pub(crate) fn restore(&mut self, env: &str, what: &str, state: &[u8]) -> Result<()> {
        let invalid = |e: serde_json::Error| Error::InvalidState {
            env: env.to_owned(),
            message: format!("not a {what} state: {e}"),
        };
        let mut snapshot: Map<String, Value> = serde_json::from_slice(state).map_err(invalid)?;
        let current = snapshot.remove(self.key).unwrap_or(Value::Null);
        let current: Option<T> = serde_json::from_value(current).map_err(invalid)?;
        let position: Position =
            serde_json::from_value(Value::Object(snapshot)).map_err(invalid)?;
        self.walk = Walk::restore(self.rows, self.seed, self.eval, position);
        self.current = current;
        Ok(())
    }
}

/// The step that ends a one-step episode, as GEM's dataset envs end it: `TERMINAL_STATE`,
/// terminated and truncated both set.
pub(crate) fn last_step(reward: f64, info: &Map<String, Value>) -> StepOutput {
    StepOutput {
        observation: TERMINAL_STATE.to_owned(),
        reward,
        terminated: true,
        truncated: true,
        info: Info::from_map(info),
    }
}

#[cfg(test)]
mod tests {
    use super::Episodes;

    #[test]
    fn a_snapshot_restores_the_walk_and_the_row() {
        let mut episodes: Episodes<String> = Episodes::new("row", 5, 7, false);
        let first = episodes.next(None);
        episodes.start(format!("row {first}"));
        let state = episodes.snapshot().unwrap();
        let text = String::from_utf8(state.clone()).unwrap();
        assert!(text.contains(&format!("\"row\":\"row {first}\"")), "{text}");
        let after: Vec<usize> = (0..4).map(|_| episodes.next(None)).collect();
        let mut again = episodes.restarted();
        assert!(again.answered("t", "a", 10).is_err());
        again.restore("t", "test env", &state).unwrap();
        assert_eq!(
            again.answered("t", "a", 10).unwrap(),
            &format!("row {first}")
        );
        assert!(again.answered("t", "too long", 3).is_err());
        let replayed: Vec<usize> = (0..4).map(|_| again.next(None)).collect();
        assert_eq!(after, replayed);
        assert!(again.restore("t", "test env", b"[]").is_err());
    }
}
