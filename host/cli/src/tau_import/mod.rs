//! `geode tau-import`: TAU-bench's own domain data and tasks, read from a copy the user has, as
//! one domain file for the `tau:*` envs (`--config '{"dataset": "PATH"}'`). The repository is not
//! vendored: the user points at its `tau_bench/envs/<domain>` directory.

mod py_literal;

use anyhow::{Context, bail};
use clap::Args;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `geode tau-import`.
#[derive(Args)]
pub struct TauImportArgs {
    /// TAU-bench's domain directory, such as `tau-bench/tau_bench/envs/retail`.
    dir: PathBuf,
    /// The domain file to write (JSON lines).
    #[arg(long)]
    out: PathBuf,
    /// Which tasks: `test`, `train` or `dev` (the file `tasks_<split>.py`).
    #[arg(long, default_value = "test")]
    split: String,
}

/// The domains geode implements: name, and the record tables with their files (the domain is
/// told apart by its files).
const DOMAINS: [(&str, [(&str, &str); 3]); 2] = [
    (
        "retail",
        [
            ("users", "users.json"),
            ("orders", "orders.json"),
            ("products", "products.json"),
        ],
    ),
    (
        "airline",
        [
            ("users", "users.json"),
            ("flights", "flights.json"),
            ("reservations", "reservations.json"),
        ],
    ),
];

/// Runs `geode tau-import`.
pub fn run(args: &TauImportArgs) -> anyhow::Result<()> {
    let rows = import(&args.dir, &args.split)?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out)
            .with_context(|| format!("creating {}", args.out.display()))?,
    );
    for row in &rows {
        writeln!(out, "{row}")?;
    }
    out.flush()?;
    let tasks = rows.iter().filter(|r| r["table"] == "tasks").count();
    println!(
        "wrote {} ({} records, {tasks} tasks); play it with --config '{{\"dataset\": \"{}\"}}'",
        args.out.display(),
        rows.len() - tasks - 2,
        args.out.display()
    );
    Ok(())
}

/// The rows of the domain file for TAU-bench's domain in `dir`.
pub fn import(dir: &Path, split: &str) -> anyhow::Result<Vec<Value>> {
    let data = dir.join("data");
    let Some((domain, tables)) = DOMAINS
        .iter()
        .find(|(_, tables)| tables.iter().all(|(_, file)| data.join(file).exists()))
    else {
        bail!(
            "{}: not a TAU-bench domain geode knows: data/ must hold users.json, orders.json and \
             products.json (retail) or users.json, flights.json and reservations.json (airline)",
            dir.display()
        );
    };
    let policy = std::fs::read_to_string(dir.join("wiki.md"))
        .with_context(|| format!("{}: no wiki.md (the policy)", dir.display()))?;
    let mut rows = vec![
        json!({"table": "domain", "value": domain}),
        json!({"table": "policy", "value": policy}),
    ];
    for (table, file) in tables {
        let path = data.join(file);
        let records: serde_json::Map<String, Value> = serde_json::from_slice(
            &std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
        )
        .with_context(|| format!("{}: not a JSON object of records", path.display()))?;
        for (id, value) in records {
            rows.push(json!({"table": table, "id": id, "value": value}));
        }
    }
    let tasks_file = dir.join(format!("tasks_{split}.py"));
    let source = std::fs::read_to_string(&tasks_file).with_context(|| {
        format!(
            "reading {} (--split test, train or dev)",
            tasks_file.display()
        )
    })?;
    // Retail names the list after its split, the airline calls it `TASKS`.
    let name = format!("TASKS_{}", split.to_uppercase());
    let tasks = py_literal::assigned_list(&source, &name)
        .or_else(|_| py_literal::assigned_list(&source, "TASKS"))
        .with_context(|| format!("reading {} ({name} or TASKS)", tasks_file.display()))?;
    for (index, mut task) in tasks
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        let Some(fields) = task.as_object_mut() else {
            bail!("{}: task {index} is not a Task(...)", tasks_file.display());
        };
        fields.insert("task_id".into(), json!(format!("{split}-{index}")));
        rows.push(json!({"table": "tasks", "value": task}));
    }
    Ok(rows)
}
