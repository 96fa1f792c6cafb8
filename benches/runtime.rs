//! Criterion benchmarks of the Rust embedding API on GuessTheNumber: a warm step, a reset,
//! a random action, and the creation of a new env instance.
//!
//! Run with `cargo bench -p geode-benches --bench runtime`.

use criterion::{Criterion, criterion_group, criterion_main};
use geode_runtime::Env;
use serde_json::json;
use std::hint::black_box;

const HARD: &str = "game:GuessTheNumber-v0-hard";

fn bench(c: &mut Criterion) {
    let registry = geode_benches::registry();

    // A step that never ends the episode (an out-of-range guess with an unreachable turn
    // limit), so the loop measures steps only.
    let mut env = registry.make(HARD, json!({"max_turns": i64::MAX})).unwrap();
    env.reset(Some(0)).unwrap();
    c.bench_function("step (warm, single env)", |b| {
        b.iter(|| black_box(env.step("\\boxed{51}").unwrap()))
    });

    let mut env = registry.make(HARD, json!({})).unwrap();
    let mut seed = 0;
    c.bench_function("reset (seeded)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(env.reset(Some(seed)).unwrap())
        })
    });
    c.bench_function("sample_random_action", |b| {
        b.iter(|| black_box(env.sample_random_action().unwrap()))
    });

    c.bench_function("new env instance (make)", |b| {
        b.iter(|| black_box(registry.make(HARD, json!({})).unwrap()))
    });
    c.bench_function("new env instance + first reset", |b| {
        b.iter(|| {
            let mut env = registry.make(HARD, json!({})).unwrap();
            black_box(env.reset(Some(1)).unwrap())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
