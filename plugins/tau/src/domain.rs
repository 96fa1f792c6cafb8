//! A domain as a host dataset holds it: one row per record, task and policy, each
//! `{"table": T, "value": V}` with `T` one of `users`, `orders`, `products` (records in
//! TAU-bench's schema, keyed by the row's `id` or else their `user_id`, `order_id`,
//! `product_id`), `tasks` ([`Task`])
//! and `policy` (the text). Read once per instance; every episode starts from a copy of the
//! records.

use crate::db::Db;
use geode_sdk::Error;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One gold action of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// The tool's name (or `respond`).
    pub name: String,
    /// Its arguments.
    #[serde(default)]
    pub kwargs: Value,
}

/// One task: who the customer is, what they want, and what a right episode does and says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// The task's name (its row index when the data has none).
    #[serde(default)]
    pub task_id: String,
    /// The customer.
    pub user_id: String,
    /// What the customer wants, written to the customer.
    pub instruction: String,
    /// What the customer knows and gives when asked.
    #[serde(default)]
    pub facts: Map<String, Value>,
    /// The gold actions: the database they leave is the one a right episode must leave.
    pub actions: Vec<Action>,
    /// Texts a right episode's messages to the customer must contain.
    #[serde(default)]
    pub outputs: Vec<String>,
}

/// A loaded domain.
pub struct Domain {
    /// The records every episode starts from.
    pub db: Db,
    /// The tasks, by index.
    pub tasks: Vec<Task>,
    /// The policy text.
    pub policy: String,
}

/// Every row of host dataset `name`.
#[cfg(target_arch = "wasm32")]
fn rows(name: &str) -> Result<Vec<Map<String, Value>>, Error> {
    let count = geode_sdk::dataset::len(name)?;
    (0..count)
        .map(|i| geode_sdk::dataset::row(name, i))
        .collect()
}

/// Native unit tests: dataset `tau/STEM` is this plugin's `data/STEM.jsonl`, as the host
/// compiles it in.
#[cfg(not(target_arch = "wasm32"))]
fn rows(name: &str) -> Result<Vec<Map<String, Value>>, Error> {
    let stem = name.strip_prefix("tau/").unwrap_or(name);
    let path = format!("{}/data/{stem}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::InvalidState(format!("dataset `{name}` ({path}): {e}")))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| Error::Internal(format!("{path}: {e}"))))
        .collect()
}

fn bad(name: &str, index: usize, why: impl std::fmt::Display) -> Error {
    Error::BadConfig(format!("row {index} of dataset `{name}`: {why}"))
}

impl Domain {
    /// Reads the domain in dataset `name`.
    pub fn load(name: &str) -> Result<Self, Error> {
        let mut db = Db {
            users: Map::new(),
            orders: Map::new(),
            products: Map::new(),
        };
        let mut tasks = Vec::new();
        let mut policy = None;
        for (i, mut row) in rows(name)?.into_iter().enumerate() {
            let table = row
                .get("table")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let value = row.remove("value").unwrap_or(Value::Null);
            let (records, key) = match table.as_str() {
                "users" => (&mut db.users, "user_id"),
                "orders" => (&mut db.orders, "order_id"),
                "products" => (&mut db.products, "product_id"),
                "tasks" => {
                    let mut task: Task =
                        serde_json::from_value(value).map_err(|e| bad(name, i, e))?;
                    if task.task_id.is_empty() {
                        task.task_id = tasks.len().to_string();
                    }
                    tasks.push(task);
                    continue;
                }
                "policy" => {
                    let text = value
                        .as_str()
                        .ok_or_else(|| bad(name, i, "the policy is not text"))?;
                    policy = Some(text.to_owned());
                    continue;
                }
                other => {
                    return Err(bad(
                        name,
                        i,
                        format!(
                            "unknown table `{other}` (tables: users, orders, products, tasks, policy)"
                        ),
                    ));
                }
            };
            // TAU-bench keys its users by id outside the record: a row may carry the id.
            let id = row.get("id").or_else(|| value.get(key));
            let Some(id) = id.and_then(Value::as_str).map(str::to_owned) else {
                return Err(bad(
                    name,
                    i,
                    format!("a record of `{table}` needs a string `{key}`"),
                ));
            };
            records.insert(id, value);
        }
        if tasks.is_empty() {
            return Err(Error::BadConfig(format!("dataset `{name}` has no tasks")));
        }
        let policy = policy
            .ok_or_else(|| Error::BadConfig(format!("dataset `{name}` has no policy row")))?;
        Ok(Domain { db, tasks, policy })
    }
}
