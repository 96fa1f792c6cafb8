//! Memory of code envs over one dataset: 1,024 `code:CodeContest` envs over a generated
//! dataset (64 MB by default) must hold one shared copy of it, so resident memory grows by
//! about the dataset's size once, not once per env.
//!
//!     cargo bench -p geode-benches --bench code_env_memory [-- --rows 16384 --envs 1024]

use geode_benches::rss_kib;
use geode_runtime::{Env, Registry, Runtime};
use serde_json::json;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The dataset file's name inside the data directory (also the dataset's name: code envs name
/// a dataset by its path).
const FILE: &str = "problems.jsonl";

/// Writes `rows` problems of about 4 KB each (a statement and ten stdin/stdout tests).
fn write_dataset(path: &Path, rows: usize) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let filler = "Read the integers and print their sum, one answer per line. ".repeat(16);
    for row in 0..rows {
        let inputs: Vec<String> = (0..10)
            .map(|t| {
                format!(
                    "{}\n",
                    (0..40)
                        .map(|k| (row * 7 + t * 13 + k).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            })
            .collect();
        let outputs: Vec<String> = inputs
            .iter()
            .map(|i| {
                format!(
                    "{}\n",
                    i.split_whitespace()
                        .map(|x| x.parse::<u64>().unwrap())
                        .sum::<u64>()
                )
            })
            .collect();
        let problem = json!({
            "problem": format!("Problem {row}\n\n{filler}"),
            "tests": {"inputs": inputs, "outputs": outputs},
        });
        writeln!(out, "{problem}")?;
    }
    out.flush()
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("a number"))
        .unwrap_or(default)
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn main() {
    let rows = arg("--rows", 16_384);
    let envs = arg("--envs", 1_024);
    let dir = std::env::temp_dir().join(format!("geode-code-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    write_dataset(&dir.join(FILE), rows).expect("write the dataset");
    let file_bytes = std::fs::metadata(dir.join(FILE))
        .expect("dataset file")
        .len();

    let runtime = Runtime::new().expect("runtime");
    let mut registry = Registry::empty(runtime.clone());
    registry
        .add_native(std::sync::Arc::new(geode_builtins::gem::GemProvider))
        .expect("the code envs register");
    geode_builtins::install(&runtime);
    runtime.sandbox().expect("the code sandbox loads");
    runtime.datasets().add_root(&dir).expect("data directory");
    let before_load = rss_kib();

    let started = Instant::now();
    let dataset = runtime
        .datasets()
        .load(FILE, Path::new(FILE))
        .expect("load the dataset");
    let load_time = started.elapsed();
    let after_load = rss_kib();

    let config = json!({"dataset": FILE});
    let started = Instant::now();
    let mut made: Vec<Box<dyn Env>> = (0..envs)
        .map(|_| {
            registry
                .make("code:CodeContest", &config)
                .expect("make a code env")
        })
        .collect();
    let make_time = started.elapsed();
    let after_make = rss_kib();
    for (i, env) in made.iter_mut().enumerate() {
        env.reset(Some(i as u64)).expect("reset");
    }
    let after_reset = rss_kib();
    // The registry's table of loaded datasets, `dataset` here, and one per env.
    let holders = Arc::strong_count(&dataset);
    assert_eq!(holders, envs + 2, "every env holds the one shared copy");

    let dataset_kib = dataset.bytes() as u64 / 1024;
    let per_env = |after: u64| (after.saturating_sub(after_load)) as f64 * 1024.0 / envs as f64;
    println!(
        "dataset            {rows} rows, file {:.1} MiB, in memory {:.1} MiB (loaded in {:.2} s)",
        file_bytes as f64 / 1048576.0,
        mib(dataset_kib),
        load_time.as_secs_f64()
    );
    println!("RSS before load    {:>8.1} MiB", mib(before_load));
    println!(
        "RSS after load     {:>8.1} MiB  (+{:.1} MiB)",
        mib(after_load),
        mib(after_load.saturating_sub(before_load))
    );
    println!(
        "RSS after {envs} envs {:>7.1} MiB  (+{:.1} MiB; {:.0} bytes per env; made in {:.0} ms)",
        mib(after_make),
        mib(after_make.saturating_sub(after_load)),
        per_env(after_make),
        make_time.as_secs_f64() * 1e3
    );
    println!(
        "RSS after resets   {:>8.1} MiB  (+{:.1} MiB; {:.0} bytes per env, each holding its problem)",
        mib(after_reset),
        mib(after_reset.saturating_sub(after_load)),
        per_env(after_reset)
    );
    println!(
        "holders of the one Arc<Dataset>: {holders} ({envs} envs + the runtime's table + this bench)"
    );
    println!(
        "growth per env / dataset size: {:.5}%",
        per_env(after_reset) / dataset.bytes() as f64 * 100.0
    );
    drop(made);
    std::fs::remove_dir_all(&dir).ok();
}
