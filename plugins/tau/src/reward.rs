//! The reward of a finished episode, as TAU-bench computes it: 1.0 only when the final records
//! equal the records the task's gold actions leave (compared by their canonical hash) and every
//! required output appears in the assistant's messages to the customer (ignoring case and
//! commas). The verdict names the check that failed.

use crate::db::Db;
use crate::domain::{Kind, Task};
use crate::tools;
use serde::Serialize;
use std::collections::BTreeMap;

/// How an episode was judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// 1.0 or 0.0.
    pub reward: f64,
    /// The final records equal the gold records.
    pub database_matches: bool,
    /// The final records' hash.
    pub database_hash: String,
    /// The gold records' hash.
    pub gold_database_hash: String,
    /// Each required output, and whether a message to the customer held it.
    pub outputs: BTreeMap<String, bool>,
    /// `database`, `outputs`, or none when the reward is 1.0.
    pub failed: Option<&'static str>,
}

/// The records `task`'s gold actions leave when run on `initial` (a failing gold call changes
/// nothing, as in TAU-bench).
pub fn gold_database(kind: Kind, initial: &Db, task: &Task) -> Db {
    let mut db = initial.clone();
    for action in &task.actions {
        if action.name != "respond" && action.name != tools::TRANSFER {
            let _ = tools::run(kind, &mut db, &action.name, &action.kwargs);
        }
    }
    db
}

/// Judges an episode that ended with `db`, whose assistant said `messages` to the customer;
/// `gold_database_hash` is the hash of [`gold_database`]'s records.
pub fn judge(db: &Db, gold_database_hash: &str, task: &Task, messages: &[String]) -> Verdict {
    let database_hash = db.hash();
    let gold_database_hash = gold_database_hash.to_owned();
    let database_matches = database_hash == gold_database_hash;
    let said: Vec<String> = messages
        .iter()
        .map(|m| m.to_lowercase().replace(',', ""))
        .collect();
    let outputs: BTreeMap<String, bool> = task
        .outputs
        .iter()
        .map(|out| {
            let wanted = out.to_lowercase();
            (out.clone(), said.iter().any(|m| m.contains(&wanted)))
        })
        .collect();
    let failed = if !database_matches {
        Some("database")
    } else if outputs.values().any(|found| !found) {
        Some("outputs")
    } else {
        None
    };
    Verdict {
        reward: if failed.is_none() { 1.0 } else { 0.0 },
        database_matches,
        database_hash,
        gold_database_hash,
        outputs,
        failed,
    }
}
