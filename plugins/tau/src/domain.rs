//! A domain as a host dataset holds it: one row per record, task and policy, each
//! `{"table": T, "value": V}` with `T` one of the domain's record tables (records in
//! TAU-bench's schema, keyed by the row's `id` or else by their own id field: see [`Kind`]),
//! `tasks` ([`Task`]), `policy` (the text) and `domain` (`retail` or `airline`: which tools
//! and tables; retail when no such row). Read once per instance; every episode starts from a
//! copy of the records.

use crate::db::Db;
use geode_sdk::Error;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

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

/// Which business a domain is: it decides the record tables and the tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An online shop: users, orders, products (TAU-bench's retail).
    Retail,
    /// An airline: users, flights, reservations (TAU-bench's airline).
    Airline,
}

impl Kind {
    /// The kind named `name` in a `domain` row.
    pub fn named(name: &str) -> Option<Kind> {
        match name {
            "retail" => Some(Kind::Retail),
            "airline" => Some(Kind::Airline),
            _ => None,
        }
    }

    /// The record tables, each with the field its records are keyed by.
    pub fn tables(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Kind::Retail => &[
                ("users", "user_id"),
                ("orders", "order_id"),
                ("products", "product_id"),
            ],
            Kind::Airline => &[
                ("users", "user_id"),
                ("flights", "flight_number"),
                ("reservations", "reservation_id"),
            ],
        }
    }

    /// Whose customer service it is, for the customer's prompt.
    pub fn business(self) -> &'static str {
        match self {
            Kind::Retail => "an online shop",
            Kind::Airline => "an airline",
        }
    }
}

/// A loaded domain.
pub struct Domain {
    /// Which business: tables and tools.
    pub kind: Kind,
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
/// compiles it in; a name ending in `.jsonl` is a file's path, as the host reads it.
#[cfg(not(target_arch = "wasm32"))]
fn rows(name: &str) -> Result<Vec<Map<String, Value>>, Error> {
    let path = if name.ends_with(".jsonl") {
        name.to_owned()
    } else {
        let stem = name.strip_prefix("tau/").unwrap_or(name);
        format!("{}/data/{stem}.jsonl", env!("CARGO_MANIFEST_DIR"))
    };
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
        let rows = rows(name)?;
        let kind = match rows
            .iter()
            .find(|r| r.get("table") == Some(&json!("domain")))
        {
            None => Kind::Retail,
            Some(row) => row
                .get("value")
                .and_then(Value::as_str)
                .and_then(Kind::named)
                .ok_or_else(|| {
                    Error::BadConfig(format!(
                        "dataset `{name}`: the domain row must be \"retail\" or \"airline\""
                    ))
                })?,
        };
        let mut db = Db::default();
        for (table, _) in kind.tables() {
            db.ensure_table(table);
        }
        let mut tasks = Vec::new();
        let mut policy = None;
        for (i, mut row) in rows.into_iter().enumerate() {
            let table = row
                .get("table")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let value = row.remove("value").unwrap_or(Value::Null);
            match table.as_str() {
                "domain" => continue,
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
                _ => {}
            }
            let Some(&(_, key)) = kind.tables().iter().find(|(t, _)| *t == table) else {
                let names: Vec<&str> = kind.tables().iter().map(|(t, _)| *t).collect();
                return Err(bad(
                    name,
                    i,
                    format!(
                        "unknown table `{table}` (tables: {}, tasks, policy, domain)",
                        names.join(", ")
                    ),
                ));
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
            db.insert(&table, id, value);
        }
        if tasks.is_empty() {
            return Err(Error::BadConfig(format!("dataset `{name}` has no tasks")));
        }
        let policy = policy
            .ok_or_else(|| Error::BadConfig(format!("dataset `{name}` has no policy row")))?;
        Ok(Domain {
            kind,
            db,
            tasks,
            policy,
        })
    }
}
