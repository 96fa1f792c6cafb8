//! The search tool's local backend at scale: index build time and query latency (p50/p99) over
//! generated corpora of 10k and 100k passages, and the memory of 256 envs whose search tools
//! share one index.
//!
//!     cargo bench -p geode-benches --bench search [-- --sizes 10000,100000 --queries 2000 --envs 256]
//!
//! Passages are about 100 words (the length of a wiki-18 passage in GEM's corpus), drawn from a
//! 50,000-word vocabulary with a Zipf-like frequency, so common words have long posting lists
//! as in real text; queries are 6 words from the same distribution.

use geode_benches::rss_kib;
use geode_runtime::wrappers::ToolRewards;
use geode_runtime::{Env, MakeOptions, WrapperSpec};
use geode_search::store::{Corpus, load, shared_index};
use serde_json::json;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*), so every run indexes the same corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A word index in 0..50_000, log-uniform: word k is about as frequent as 1/k.
    fn word(&mut self) -> usize {
        (50_000f64.powf(self.unit()) as usize).saturating_sub(1)
    }
}

fn word(index: usize) -> String {
    let mut n = index + 1;
    let mut text = String::new();
    while n > 0 {
        text.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    text
}

fn write_corpus(path: &Path, passages: usize) -> std::io::Result<()> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ passages as u64);
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    for id in 0..passages {
        let title: Vec<String> = (0..3).map(|_| word(rng.word())).collect();
        let body: Vec<String> = (0..100).map(|_| word(rng.word())).collect();
        let contents = format!("{}\n{}", title.join(" "), body.join(" "));
        writeln!(
            out,
            "{}",
            json!({"id": id.to_string(), "contents": contents})
        )?;
    }
    out.flush()
}

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_owned())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn main() {
    let sizes: Vec<usize> = arg("--sizes", "10000,100000")
        .split(',')
        .map(|s| s.parse().expect("--sizes takes numbers"))
        .collect();
    let queries: usize = arg("--queries", "2000").parse().expect("--queries");
    let envs: usize = arg("--envs", "256").parse().expect("--envs");
    let dir = std::env::temp_dir().join(format!("search-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");

    println!(
        "| passages | corpus MB | build (cold) | open (cached) | index MB | query p50 | query p99 |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    let mut largest = None;
    for &size in &sizes {
        let path = dir.join(format!("corpus-{size}.jsonl"));
        write_corpus(&path, size).expect("write the corpus");
        let corpus_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
        let corpus = Corpus::File(path.clone());
        let started = Instant::now();
        drop(load(&corpus).expect("build"));
        let build = started.elapsed();
        let started = Instant::now();
        let index = load(&corpus).expect("open");
        let open = started.elapsed();
        let index_bytes: u64 = walk_bytes(&dir.join(format!("corpus-{size}.jsonl.geode-index")));

        let mut rng = Rng(7);
        let texts: Vec<String> = (0..queries)
            .map(|_| {
                (0..6)
                    .map(|_| word(rng.word()))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        for text in texts.iter().take(100) {
            index.search(text, 3).unwrap(); // warm the page cache
        }
        let mut times: Vec<Duration> = texts
            .iter()
            .map(|text| {
                let started = Instant::now();
                let hits = index.search(text, 3).unwrap();
                let took = started.elapsed();
                assert!(!hits.is_empty());
                took
            })
            .collect();
        times.sort();
        println!(
            "| {size} | {corpus_mb:.1} | {:.2} s | {:.1} ms | {:.1} | {:.0} µs | {:.0} µs |",
            build.as_secs_f64(),
            open.as_secs_f64() * 1e3,
            index_bytes as f64 / 1e6,
            percentile(&times, 0.5).as_secs_f64() * 1e6,
            percentile(&times, 0.99).as_secs_f64() * 1e6,
        );
        largest = Some((size, path));
    }

    let Some((size, path)) = largest else { return };
    let registry = geode_benches::registry();
    let options = MakeOptions::default().with_wrappers(vec![WrapperSpec::Tools {
        tools: vec![(
            "tool:search".into(),
            json!({"corpus": path.display().to_string()}),
        )],
        rewards: ToolRewards::default(),
    }]);
    // One env first, so the index and the QA plugin are loaded before the baseline.
    let mut first = registry
        .make("eval:HotpotQA", options.clone())
        .expect("an env");
    first.reset(Some(0)).unwrap();
    first.step("<search>abc bcd</search>").unwrap();
    let before = rss_kib();
    let mut all: Vec<Box<dyn Env>> = (0..envs)
        .map(|_| {
            registry
                .make("eval:HotpotQA", options.clone())
                .expect("an env")
        })
        .collect();
    let mut rng = Rng(11);
    for (i, env) in all.iter_mut().enumerate() {
        env.reset(Some(i as u64)).unwrap();
        let query: Vec<String> = (0..6).map(|_| word(rng.word())).collect();
        let out = env
            .step(&format!("<search>{}</search>", query.join(" ")))
            .unwrap();
        assert!(out.observation.contains("Doc 1(Title: "));
    }
    let after = rss_kib();
    let shared = shared_index(&Corpus::File(path)).unwrap();
    println!(
        "\n{envs} eval:HotpotQA envs with a search tool over one {size}-passage index ({} Arc holders): \
         RSS {:.1} MiB before, {:.1} MiB after one search each: {:.1} MiB in all, {:.1} KiB per env",
        Arc::strong_count(&shared) - 1,
        mib(before),
        mib(after),
        mib(after.saturating_sub(before)),
        after.saturating_sub(before) as f64 / envs as f64,
    );
    drop(all);
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let meta = e.metadata().unwrap();
                    if meta.is_dir() {
                        walk_bytes(&e.path())
                    } else {
                        meta.len()
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}
