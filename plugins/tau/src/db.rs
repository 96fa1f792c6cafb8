//! The domain's database: users, orders and products, each a JSON object keyed by id (TAU-bench's
//! retail schema), and its canonical hash, which the reward compares.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// One episode's private copy of the records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Db {
    /// Users by user id.
    pub users: Map<String, Value>,
    /// Orders by order id.
    pub orders: Map<String, Value>,
    /// Products by product id.
    pub products: Map<String, Value>,
}

impl Db {
    /// The SHA-256 of the canonical JSON text of the records (keys sorted at every level,
    /// numbers as serde_json writes them): equal records give equal hashes on any machine.
    pub fn hash(&self) -> String {
        let mut text = String::with_capacity(1 << 16);
        text.push_str("{\"orders\":");
        canonical_map(&self.orders, &mut text);
        text.push_str(",\"products\":");
        canonical_map(&self.products, &mut text);
        text.push_str(",\"users\":");
        canonical_map(&self.users, &mut text);
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
        Db {
            users: users.as_object().unwrap().clone(),
            orders: Map::new(),
            products: Map::new(),
        }
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
