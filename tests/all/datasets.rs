//! Datasets: loaded once from JSONL or Parquet, served to guests through the `dataset` import,
//! shared by every instance, and opened only inside the configured data directories.

use geode_runtime::{Error, PluginSource, Registry, Runtime};
use geode_tests::hostile_wasm;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("geode-datasets-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    dir
}

/// A runtime of its own (datasets belong to a runtime), with the hostile plugin loaded.
fn registry_with_data(root: &Path) -> Registry {
    let runtime = Runtime::new().unwrap();
    runtime.datasets().add_root(&root.join("data")).unwrap();
    let mut registry = Registry::empty(runtime);
    let wasm = std::fs::read(hostile_wasm()).unwrap();
    registry
        .add_bytes(PluginSource::File(hostile_wasm()), &wasm)
        .unwrap();
    registry
}

fn ask(registry: &Registry, question: &str) -> String {
    let mut env = registry.make("hostile:dataset-reader", json!({})).unwrap();
    env.reset(None).unwrap();
    env.step(question).unwrap().observation
}

fn write_parquet(path: &Path) {
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    let schema = Arc::new(
        parse_message_type("message rows { REQUIRED INT64 id; REQUIRED BYTE_ARRAY text (UTF8); }")
            .unwrap(),
    );
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, Default::default()).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    column
        .typed::<Int64Type>()
        .write_batch(&[7, 8, 9], None, None)
        .unwrap();
    column.close().unwrap();
    let mut column = group.next_column().unwrap().unwrap();
    let texts: Vec<ByteArray> = ["seven", "eight", "nine"]
        .iter()
        .map(|s| ByteArray::from(*s))
        .collect();
    column
        .typed::<ByteArrayType>()
        .write_batch(&texts, None, None)
        .unwrap();
    column.close().unwrap();
    group.close().unwrap();
    writer.close().unwrap();
}

#[test]
fn guests_read_jsonl_and_parquet_rows() {
    let root = temp_dir("read");
    std::fs::write(
        root.join("data/rows.jsonl"),
        "{\"q\": \"one\"}\n\n{\"q\": \"two\"}\n",
    )
    .unwrap();
    write_parquet(&root.join("data/rows.parquet"));
    let registry = registry_with_data(&root);
    let datasets = registry.runtime().datasets();
    assert_eq!(
        datasets.load("qa", Path::new("rows.jsonl")).unwrap().len(),
        2
    );
    assert_eq!(
        datasets
            .load("numbers", Path::new("./rows.parquet"))
            .unwrap()
            .len(),
        3
    );
    assert_eq!(ask(&registry, "qa"), "2");
    assert_eq!(ask(&registry, "qa 1"), "{\"q\":\"two\"}");
    assert_eq!(ask(&registry, "numbers 2"), "{\"id\":9,\"text\":\"nine\"}");
    assert_eq!(
        ask(&registry, "qa 5"),
        "error: invalid state: dataset `qa` has 2 rows; row 5 does not exist"
    );
    assert_eq!(
        ask(&registry, "missing"),
        "error: invalid state: dataset `missing` is not loaded on this host"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn paths_cannot_escape_the_data_directories() {
    let root = temp_dir("escape");
    std::fs::write(root.join("outside.jsonl"), "{\"secret\": 1}\n").unwrap();
    std::os::unix::fs::symlink(root.join("outside.jsonl"), root.join("data/link.jsonl")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", root.join("data/passwd.jsonl")).unwrap();
    let registry = registry_with_data(&root);
    let datasets = registry.runtime().datasets();
    let error = datasets
        .load("up", Path::new("../outside.jsonl"))
        .unwrap_err();
    assert!(
        error.to_string().contains("may not contain `..`"),
        "{error}"
    );
    let error = datasets
        .load("abs", &root.join("outside.jsonl"))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("must be relative to a data directory"),
        "{error}"
    );
    for link in ["link.jsonl", "passwd.jsonl"] {
        let error = datasets.load("link", Path::new(link)).unwrap_err();
        assert!(matches!(error, Error::Io { .. }), "{link}: {error}");
        assert!(
            error
                .to_string()
                .contains(&format!("cannot open {link} inside data directory")),
            "{error}"
        );
    }
    let error = Runtime::new()
        .unwrap()
        .datasets()
        .load("none", Path::new("rows.jsonl"))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("no data directory is configured"),
        "{error}"
    );
    std::fs::write(root.join("data/bad.jsonl"), "{\"ok\": 1}\n[1, 2]\n").unwrap();
    let error = datasets.load("bad", Path::new("bad.jsonl")).unwrap_err();
    assert!(
        error.to_string().contains("line 2: not a JSON object"),
        "{error}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_thousand_instances_share_one_copy() {
    let root = temp_dir("share");
    let rows: String = (0..2_000)
        .map(|i| format!("{{\"id\": {i}, \"text\": \"{}\"}}\n", "x".repeat(200)))
        .collect();
    std::fs::write(root.join("data/big.jsonl"), rows).unwrap();
    let registry = registry_with_data(&root);
    let dataset = registry
        .runtime()
        .datasets()
        .load("big", Path::new("big.jsonl"))
        .unwrap();
    let envs: Vec<_> = (0..1_024)
        .map(|i| {
            let mut env = registry.make("hostile:dataset-reader", json!({})).unwrap();
            env.reset(None).unwrap();
            let row = env.step(&format!("big {}", i % 2_000)).unwrap().observation;
            assert!(row.starts_with(&format!("{{\"id\":{}", i % 2_000)), "{row}");
            env
        })
        .collect();
    // One copy, held by the registry's datasets; no instance holds another.
    let again = registry.runtime().datasets().get("big").unwrap();
    assert!(Arc::ptr_eq(&dataset, &again));
    assert_eq!(
        Arc::strong_count(&dataset),
        3,
        "the store, and the two handles in this test"
    );
    drop(envs);
    std::fs::remove_dir_all(&root).unwrap();
}
