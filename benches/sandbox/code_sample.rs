//! End-to-end reward time of the shipped code sample: every problem of `code:CodeContest`'s
//! sample answered with a correct program (reset, then the graded step), as a trainer sees it.

use geode_builtins::gem::CodeEnv;
use geode_runtime::sandbox::Sandbox;
use geode_runtime::{Env, Limits, Runtime};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Timed rounds over the whole sample; the median is reported.
pub const ROUNDS: usize = 5;

/// What one measurement found.
pub struct SampleTime {
    /// Median wall time of one round (every problem reset and graded once).
    pub median: Duration,
    /// Problems in the sample.
    pub problems: usize,
    /// Tests run per round.
    pub tests: u64,
    /// Median time of each problem (reset and graded step), by the row's `id`, in row order.
    pub per_problem: Vec<(String, Duration)>,
}

/// The median of `times` (sorted in place).
fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The seed whose reset picks each row, by row index.
fn seeds_by_row(env: &mut CodeEnv, rows: usize) -> BTreeMap<u64, u64> {
    let mut seeds = BTreeMap::new();
    for seed in 0..10_000 {
        let reset = env.reset(Some(seed)).expect("reset");
        let row = reset
            .info
            .get("problem_index")
            .and_then(|v| v.as_u64())
            .expect("problem_index");
        seeds.entry(row).or_insert(seed);
        if seeds.len() == rows {
            return seeds;
        }
    }
    panic!("no seeds below 10000 reach all {rows} problems");
}

/// The `id` field of sample row `row`.
fn row_id(env: &CodeEnv, row: u64) -> String {
    let text = env.dataset().row(row as usize).expect("row exists");
    let value: serde_json::Value = serde_json::from_str(text).expect("a JSON row");
    value["id"].as_str().unwrap_or("?").to_owned()
}

/// Answers every problem with its solution from `solutions` (a JSON list of programs in row
/// order) and times full rounds; panics if any answer is not rewarded 1.0.
pub fn reward_time(runtime: &Runtime, sandbox: &Sandbox, solutions: &Path) -> SampleTime {
    let text = std::fs::read_to_string(solutions).expect("read the solutions file");
    let programs: Vec<String> = serde_json::from_str(&text).expect("a JSON list of programs");
    let mut env = CodeEnv::new(
        "code:CodeContest",
        sandbox.clone(),
        runtime.datasets(),
        &json!({}),
        &Limits::default(),
    )
    .expect("code env over the shipped sample");
    assert_eq!(
        env.dataset().len(),
        programs.len(),
        "one program per sample row"
    );
    let seeds = seeds_by_row(&mut env, programs.len());
    let mut tests = 0;
    // rounds[r][row]: one warm-up round, then ROUNDS timed ones.
    let mut rounds: Vec<Vec<Duration>> = (0..=ROUNDS)
        .map(|_| {
            tests = 0;
            seeds
                .iter()
                .map(|(row, seed)| {
                    let started = Instant::now();
                    env.reset(Some(*seed)).expect("reset");
                    let answer = format!("```python\n{}\n```", programs[*row as usize]);
                    let step = env.step(&answer).expect("step");
                    let elapsed = started.elapsed();
                    assert_eq!(step.reward, 1.0, "row {row}: {:?}", step.info);
                    tests += step.info.get("total").and_then(|v| v.as_u64()).unwrap_or(0);
                    elapsed
                })
                .collect()
        })
        .collect();
    rounds.remove(0); // warm-up
    let mut totals: Vec<Duration> = rounds.iter().map(|r| r.iter().sum()).collect();
    let per_problem = seeds
        .keys()
        .enumerate()
        .map(|(k, row)| {
            let mut times: Vec<Duration> = rounds.iter().map(|r| r[k]).collect();
            (row_id(&env, *row), median(&mut times))
        })
        .collect();
    SampleTime {
        median: median(&mut totals),
        problems: programs.len(),
        tests,
        per_problem,
    }
}

/// The statement prefix of the sample problem with the most tests (12 of 15 run).
const LOOP_PROBLEM: &str = "Maximum subarray";

/// Wall time to judge an answer that loops forever, on the sample problem with the most tests,
/// with a per-test `timeout` of `timeout_s` seconds (median of `rounds`).
pub fn loop_judge_time(
    runtime: &Runtime,
    sandbox: &Sandbox,
    timeout_s: f64,
    rounds: usize,
) -> Duration {
    let mut env = CodeEnv::new(
        "code:CodeContest",
        sandbox.clone(),
        runtime.datasets(),
        &json!({ "timeout": timeout_s }),
        &Limits::default(),
    )
    .expect("code env over the shipped sample");
    let seed = (0..10_000)
        .find(|seed| {
            env.reset(Some(*seed))
                .expect("reset")
                .observation
                .starts_with(LOOP_PROBLEM)
        })
        .expect("a seed picks the problem");
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            env.reset(Some(seed)).expect("reset");
            let started = Instant::now();
            let step = env
                .step("```python\nwhile True:\n    pass\n```")
                .expect("step");
            assert_eq!(step.reward, 0.0);
            started.elapsed()
        })
        .collect();
    median(&mut times)
}
