//! The domain's database: tables of records, each a JSON object keyed by id (TAU-bench's
//! schemas: `users`, `orders`, `products` for retail; `users`, `flights`, `reservations` for the
//! airline), and its canonical hash, which the reward compares.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// One episode's private copy of the records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Db {
    /// Each table's records by id.
    pub tables: BTreeMap<String, Map<String, Value>>,
}

/// What a table the domain does not have reads as.
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

impl Db {
    /// The records of `table` (none when the domain has no such table).
    pub fn table(&self, table: &str) -> &Map<String, Value> {
        self.tables.get(table).unwrap_or(&EMPTY)
    }

    /// The records of `table`, to change.
    pub fn table_mut(&mut self, table: &str) -> &mut Map<String, Value> {
        self.tables.entry(table.to_owned()).or_default()
    }

    /// The SHA-256 of the canonical JSON text of the tables (an object of the tables by name;
    /// keys sorted at every level, numbers as serde_json writes them): equal records give equal
    /// hashes on any machine.
    pub fn hash(&self) -> String {
        let mut text = String::with_capacity(1 << 16);
        text.push('{');
        for (i, (name, records)) in self.tables.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&serde_json::to_string(name).unwrap_or_default());
            text.push(':');
            canonical_map(records, &mut text);
        }
        text.push('}');
        let digest = Sha256::digest(text.as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Appends the canonical JSON text of `value` to `out`: object keys in byte order, no spaces.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => canonical_map(map, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn canonical_map(map: &Map<String, Value>, out: &mut String) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key).unwrap_or_default());
        out.push(':');
        canonical(value, out);
    }
    out.push('}');
}

/// `x` rounded to cents the way Python's `round(x, 2)` does (on the exact binary value, ties to
/// even), so amounts match TAU-bench's to the cent.
pub fn round2(x: f64) -> f64 {
    format!("{x:.2}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn db(users: Value) -> Db {
        let mut db = Db::default();
        *db.table_mut("users") = users.as_object().unwrap().clone();
        db
    }

    #[test]
    fn the_hash_ignores_key_order_and_sees_every_value() {
        let a = db(json!({"u": {"a": 1, "b": [1.5, "x"]}}));
        let b = db(serde_json::from_str(r#"{"u": {"b": [1.5, "x"], "a": 1}}"#).unwrap());
        assert_eq!(a.hash(), b.hash());
        assert_ne!(a.hash(), db(json!({"u": {"a": 1, "b": [1.5, "y"]}})).hash());
        assert_ne!(
            a.hash(),
            db(json!({"u": {"a": 1.0, "b": [1.5, "x"]}})).hash()
        );
        assert_eq!(a.hash().len(), 64);
    }

    #[test]
    fn cents_round_like_python() {
        assert_eq!(round2(2.675), 2.67); // 2.67499999... in binary
        assert_eq!(round2(0.125), 0.12); // an exact tie goes to even
        assert_eq!(round2(10.0 - 9.99), 0.01);
        assert_eq!(round2(-19.994), -19.99);
    }
}
