//! The domain's database: tables of records, each a JSON object keyed by id (TAU-bench's
//! schemas: `users`, `orders`, `products` for retail; `users`, `flights`, `reservations` for the
//! airline), and its canonical hash, which the reward compares.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A table's records by id. Records are shared between the domain and its episodes until one
/// is written (copy on write): an episode of a domain of megabytes costs only what it changes.
pub type Table = BTreeMap<String, Arc<Value>>;

/// One episode's private copy of the records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Db {
    tables: BTreeMap<String, Table>,
}

/// What a table the domain does not have reads as.
static EMPTY: Table = BTreeMap::new();

impl Db {
    /// The records of `table` (none when the domain has no such table).
    pub fn table(&self, table: &str) -> &Table {
        self.tables.get(table).unwrap_or(&EMPTY)
    }

    /// Record `id` of `table`, to change (copied first if another copy of the records shares
    /// it).
    pub fn record_mut(&mut self, table: &str, id: &str) -> Option<&mut Value> {
        self.tables.get_mut(table)?.get_mut(id).map(Arc::make_mut)
    }

    /// Adds (or replaces) record `id` of `table`, making the table if needed.
    pub fn insert(&mut self, table: &str, id: String, record: Value) {
        self.tables
            .entry(table.to_owned())
            .or_default()
            .insert(id, Arc::new(record));
    }

    /// Makes `table` (empty) if the records have none of that name.
    pub fn ensure_table(&mut self, table: &str) {
        self.tables.entry(table.to_owned()).or_default();
    }

    /// How many records in all.
    #[cfg(test)]
    pub fn records(&self) -> usize {
        self.tables.values().map(BTreeMap::len).sum()
    }

    /// The SHA-256 of the canonical JSON text of the tables (an object of the tables by name;
    /// keys sorted at every level, numbers as serde_json writes them): equal records give equal
    /// hashes on any machine. The text is hashed as it is written, never held whole.
    pub fn hash(&self) -> String {
        let mut out = Sha256::new();
        object(self.tables.iter(), &mut out, |records, out| {
            object(records.iter(), out, |record, out| canonical(record, out));
        });
        out.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl Serialize for Db {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.tables.iter().map(|(name, records)| {
            let records: BTreeMap<&String, &Value> =
                records.iter().map(|(id, r)| (id, &**r)).collect();
            (name, records)
        }))
    }
}

impl<'de> Deserialize<'de> for Db {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let tables = BTreeMap::<String, BTreeMap<String, Value>>::deserialize(deserializer)?;
        Ok(Db {
            tables: tables
                .into_iter()
                .map(|(name, records)| {
                    let records = records.into_iter().map(|(id, r)| (id, Arc::new(r)));
                    (name, records.collect())
                })
                .collect(),
        })
    }
}

/// Where canonical JSON text goes: a hasher, fed as the text is written.
trait Sink {
    fn push_str(&mut self, text: &str);
    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
}

impl Sink for Sha256 {
    fn push_str(&mut self, text: &str) {
        self.update(text.as_bytes());
    }
}

/// Appends the canonical JSON text of `value` to `out`: object keys in byte order, no spaces.
fn canonical<S: Sink>(value: &Value, out: &mut S) {
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

fn canonical_map<S: Sink>(map: &Map<String, Value>, out: &mut S) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    object(entries.into_iter(), out, |value, out| canonical(value, out));
}

/// Appends a JSON object of `entries` (already in key order), each value written by `value`.
fn object<'a, T, S: Sink>(
    entries: impl Iterator<Item = (&'a String, T)>,
    out: &mut S,
    mut value: impl FnMut(T, &mut S),
) {
    out.push('{');
    for (i, (key, item)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key).unwrap_or_default());
        out.push(':');
        value(item, out);
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
        for (id, user) in users.as_object().unwrap() {
            db.insert("users", id.clone(), user.clone());
        }
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
    fn a_copy_shares_records_until_one_is_written() {
        let base = db(json!({"u": {"a": 1}, "v": {"a": 2}}));
        let mut episode = base.clone();
        assert!(Arc::ptr_eq(
            &base.table("users")["u"],
            &episode.table("users")["u"]
        ));
        episode.record_mut("users", "u").unwrap()["a"] = json!(5);
        assert_eq!(base.table("users")["u"]["a"], 1);
        assert_eq!(episode.table("users")["u"]["a"], 5);
        assert!(Arc::ptr_eq(
            &base.table("users")["v"],
            &episode.table("users")["v"]
        ));
        assert_ne!(base.hash(), episode.hash());
        let round_trip: Db =
            serde_json::from_value(serde_json::to_value(&episode).unwrap()).unwrap();
        assert_eq!(round_trip, episode);
    }

    #[test]
    fn cents_round_like_python() {
        assert_eq!(round2(2.675), 2.67); // 2.67499999... in binary
        assert_eq!(round2(0.125), 0.12); // an exact tie goes to even
        assert_eq!(round2(10.0 - 9.99), 0.01);
        assert_eq!(round2(-19.994), -19.99);
    }
}
