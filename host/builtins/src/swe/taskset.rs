//! The task sets coding envs draw from, each read once per process and shared by every env
//! and episode: the tasks shipped with geode (`swe/tasks/`, packed by the build script into
//! one JSONL file of geode's task format), or a user's JSONL/Parquet file.

use super::task::{RowContext, SweTask};
use geode_runtime::{Datasets, Error, Result};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

/// The shipped tasks, in geode's task format (one JSON object per line). A function, not a
/// constant: rustc copies a constant's value into the crate's metadata too.
#[inline(never)]
pub fn shipped_jsonl() -> &'static str {
    include_str!(concat!(env!("OUT_DIR"), "/swe_tasks.jsonl"))
}

/// A task set's key: its dataset and repos directory.
type SetKey = (String, Option<String>);

/// The task sets read so far.
static LOADED: LazyLock<Mutex<HashMap<SetKey, Arc<Vec<SweTask>>>>> = LazyLock::new(Mutex::default);

/// The shipped tasks.
pub fn shipped() -> Result<Arc<Vec<SweTask>>> {
    load(None, "", None)
}

/// The tasks of `dataset` (empty: the shipped ones), rows naming repositories found under
/// `repos`; `datasets` reads the file (JSONL or Parquet).
pub fn load(
    datasets: Option<&Datasets>,
    dataset: &str,
    repos: Option<&str>,
) -> Result<Arc<Vec<SweTask>>> {
    let key = (dataset.to_owned(), repos.map(str::to_owned));
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(tasks) = loaded.get(&key) {
        return Ok(tasks.clone());
    }
    let bad = |message: String| Error::InvalidArgument(message);
    let (rows, context, source): (Vec<String>, RowContext, String) = if dataset.is_empty() {
        let rows = shipped_jsonl()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned);
        (
            rows.collect(),
            RowContext::default(),
            "geode's shipped coding tasks".to_owned(),
        )
    } else {
        let datasets = datasets.ok_or_else(|| bad("no dataset reader".to_owned()))?;
        let table = datasets.load_user_path(dataset, dataset)?;
        let rows = (0..table.len()).filter_map(|i| table.row(i).map(str::to_owned));
        let expanded = match dataset.strip_prefix("~/") {
            Some(rest) => std::env::var_os("HOME")
                .map_or_else(|| PathBuf::from(dataset), |h| PathBuf::from(h).join(rest)),
            None => PathBuf::from(dataset),
        };
        let context = RowContext {
            base: expanded.parent().map(PathBuf::from).unwrap_or_default(),
            repos: repos.map(PathBuf::from),
        };
        (rows.collect(), context, table.source.clone())
    };
    let tasks = rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            let value: serde_json::Value = serde_json::from_str(row)
                .map_err(|e| bad(format!("{source}, row {index}: not JSON: {e}")))?;
            SweTask::from_row(&value, index, &context)
                .map_err(|e| bad(format!("{source}, row {index}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    if tasks.is_empty() {
        return Err(bad(format!("{source} has no tasks")));
    }
    let tasks = Arc::new(tasks);
    loaded.insert(key, tasks.clone());
    Ok(tasks)
}
