//! The recall set of the code envs (`tests/data/code_recall`, written by its `answers.py`):
//! correct answers in the styles LLMs write (json, dataclasses, enum, lru_cache, typing,
//! collections, heapq, itertools, datetime, hashlib, threads, numpy...) must get reward 1.0, and
//! wrong, slow or hostile ones (loops, memory bombs, exit tricks, files, sockets, processes, the
//! environment, numpy's file and native-library functions...) 0.0, or -0.1 without a code block, each judged within its answer's budget.

use geode_runtime::Env;
use geode_tests::{registry, step_alone, timed_section};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant};

const SAMPLE: &str = include_str!("../../host/builtins/src/gem/data/code_sample.jsonl");
const CORRECT: &str = include_str!("../data/code_recall/correct.jsonl");
const WRONG: &str = include_str!("../data/code_recall/wrong.jsonl");

fn rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A code env and, for each problem id of the sample, a reset seed that picks it.
fn env_and_seeds(timeout: f64) -> (Box<dyn Env>, HashMap<String, u64>) {
    let mut env = registry()
        .make("code:CodeContest", json!({"timeout": timeout}))
        .expect("make code env");
    let ids: HashMap<String, String> = rows(SAMPLE)
        .iter()
        .map(|row| {
            (
                row["problem"].as_str().unwrap().to_owned(),
                row["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let mut seeds = HashMap::new();
    for seed in 0..1_000 {
        let statement = env.reset(Some(seed)).unwrap().observation;
        seeds.entry(ids[&statement].clone()).or_insert(seed);
        if seeds.len() == ids.len() {
            return (env, seeds);
        }
    }
    panic!("seeds below 1000 do not reach every problem");
}

/// Grades every answer of `file`; returns a line per answer whose reward is not `expected`
/// (or the answer's own `reward`), or that took longer than `bound`.
fn grade_all(file: &str, timeout: f64, bound: Duration) -> (usize, Vec<String>) {
    geode_tests::numpy_ready();
    let _timed = timed_section();
    let (mut env, seeds) = env_and_seeds(timeout);
    let answers = rows(file);
    let mut misses = Vec::new();
    for row in &answers {
        let problem = row["problem"].as_str().unwrap();
        let label = row
            .get("style")
            .or_else(|| row.get("kind"))
            .and_then(Value::as_str)
            .unwrap();
        let expected = row.get("reward").and_then(Value::as_f64).unwrap_or(1.0);
        env.reset(Some(seeds[problem])).unwrap();
        let started = Instant::now();
        let step = step_alone(env.as_mut(), row["answer"].as_str().unwrap());
        let elapsed = started.elapsed();
        if step.reward != expected || elapsed > bound {
            misses.push(format!(
                "{problem} / {label}: reward {} (expected {expected}) in {elapsed:?}; {:?}",
                step.reward,
                step.info.get("first_failure")
            ));
        }
    }
    (answers.len(), misses)
}

#[test]
fn every_correct_answer_gets_full_reward() {
    let (count, misses) = grade_all(CORRECT, 10.0, Duration::from_secs(11));
    assert!(count >= 40, "{count} correct answers");
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn every_wrong_or_hostile_answer_gets_nothing_within_one_timeout() {
    // One answer, however many tests and however it misbehaves, costs at most its budget (the
    // per-test timeout) plus instantiation and teardown.
    let timeout = 2.0;
    let (count, misses) = grade_all(WRONG, timeout, Duration::from_secs_f64(timeout * 1.25));
    assert!(count >= 40, "{count} wrong answers");
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
