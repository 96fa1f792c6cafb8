//! Read-only access to datasets the host loaded once and shares with every instance.

use crate::Error;
use crate::bindings::geode::env::dataset as host;
/// The order in which an env visits a dataset's rows (GEM's epochs and seeded picks).
pub use geode_order::{EpisodeOrder, Position};
use serde_json::{Map, Value};

/// The number of rows of dataset `name`.
pub fn len(name: &str) -> Result<u64, Error> {
    host::len(name).map_err(Error::InvalidState)
}

/// Row `index` of dataset `name`, as a JSON object.
pub fn row(name: &str, index: u64) -> Result<Map<String, Value>, Error> {
    let text = host::row(name, index).map_err(Error::InvalidState)?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(Error::Internal(format!(
            "row {index} of dataset `{name}` is not a JSON object"
        ))),
    }
}
