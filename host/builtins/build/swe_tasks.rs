//! Build step for the shipped coding tasks: packs every `src/swe/tasks/<name>/` (`task.json`,
//! `repo/`, `hidden/`, `gold.patch`) into `$OUT_DIR/swe_tasks.jsonl`, one row of geode's task
//! format per task, which `geode-builtins` embeds.

use serde_json::{Map, Value, json};
use std::path::Path;

/// Packs the tasks under `tasks` into `out`.
pub fn pack(tasks: &Path, out: &Path) {
    println!("cargo:rerun-if-changed={}", tasks.display());
    let mut names: Vec<_> = std::fs::read_dir(tasks)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.path().join("task.json").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut jsonl = String::new();
    for name in names {
        let dir = tasks.join(&name);
        let text = std::fs::read_to_string(dir.join("task.json")).expect("read task.json");
        let mut row: Map<String, Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}/task.json: {e}", dir.display()));
        row.insert("instance_id".into(), json!(name));
        row.insert("files".into(), files(&dir.join("repo")));
        row.insert("test_files".into(), files(&dir.join("hidden")));
        if let Ok(gold) = std::fs::read_to_string(dir.join("gold.patch")) {
            row.insert("gold_patch".into(), json!(gold));
        }
        jsonl.push_str(&serde_json::to_string(&row).expect("a row serializes"));
        jsonl.push('\n');
    }
    std::fs::write(out, jsonl).expect("write swe_tasks.jsonl");
}

/// Every file under `root` as `{relative path: text}`.
fn files(root: &Path) -> Value {
    fn walk(dir: &Path, prefix: &str, out: &mut Map<String, Value>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "__pycache__" || name.ends_with(".pyc") {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.path().is_dir() {
                walk(&entry.path(), &format!("{path}/"), out);
            } else {
                let text = std::fs::read_to_string(entry.path())
                    .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
                out.insert(path, json!(text));
            }
        }
    }
    let mut out = Map::new();
    walk(root, "", &mut out);
    Value::Object(out)
}
