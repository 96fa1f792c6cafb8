//! The Rust SDK's `sandbox` wrapper end to end: `tests/plugins/python-judge` runs each action
//! as Python through `geode_sdk::sandbox::run` (the `sandbox` host import) and rewards 1.0 when
//! stdout is the expected answer; every way a run ends reaches the plugin typed.

use geode_runtime::{Env, PluginSource, Registry};
use geode_tests::runtime;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const JUDGE: &str = "test:PythonJudge-v0";

/// The judge plugin, alone in a registry on the shared test runtime.
fn judge(config: Value) -> Box<dyn Env> {
    let path = PathBuf::from(env!("GEODE_TEST_PLUGIN_PYTHON_JUDGE"));
    let wasm = std::fs::read(&path).expect("python-judge plugin was built");
    let mut registry = Registry::empty(runtime());
    registry
        .add_bytes(PluginSource::File(path), &wasm)
        .expect("python-judge loads");
    let mut env = registry.make(JUDGE, &config).expect("make the judge");
    env.reset(Some(0)).expect("reset");
    env
}

fn text(value: Option<Value>) -> String {
    value
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[test]
fn a_correct_program_is_rewarded() {
    let mut env = judge(json!({}));
    let step = env.step("print(sum(map(int, input().split())))").unwrap();
    assert_eq!(step.reward, 1.0, "{:?}", step.info);
    assert_eq!(step.observation, "5\n");
    assert!(step.terminated);
    assert_eq!(text(step.info.get("status")), "ok");
    assert!(step.info.get("fuel_used").unwrap().as_u64().unwrap() > 0);
}

#[test]
fn a_wrong_answer_runs_fine_and_scores_zero() {
    let mut env = judge(json!({"stdin": "10 20\n", "expected": "30"}));
    let step = env
        .step("a, b = map(int, input().split())\nprint(a * b)")
        .unwrap();
    assert_eq!(step.reward, 0.0);
    assert_eq!(step.observation, "200\n");
    assert_eq!(text(step.info.get("status")), "ok");
}

#[test]
fn a_crash_comes_back_as_a_runtime_error_with_its_traceback() {
    let mut env = judge(json!({}));
    let step = env.step("print(1 // 0)").unwrap();
    assert_eq!(step.reward, 0.0);
    assert_eq!(text(step.info.get("status")), "runtime_error");
    assert!(
        text(step.info.get("stderr")).contains("ZeroDivisionError"),
        "{:?}",
        step.info
    );
}

#[test]
fn an_exit_code_is_not_a_success() {
    let mut env = judge(json!({}));
    let step = env.step("print(5)\nraise SystemExit(3)").unwrap();
    assert_eq!(step.reward, 0.0, "right output, but exit code 3");
    assert_eq!(text(step.info.get("status")), "ok");
    assert_eq!(step.info.get("exit_code"), Some(json!(3)));
}

#[test]
fn the_plugins_limits_apply() {
    let mut env = judge(json!({"fuel": 50_000_000}));
    let started = Instant::now();
    let step = env.step("while True:\n    pass").unwrap();
    assert_eq!(text(step.info.get("status")), "out_of_fuel");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let mut env = judge(json!({"timeout_ms": 300}));
    let started = Instant::now();
    let step = env.step("import time\ntime.sleep(30)\nprint(5)").unwrap();
    assert_eq!(text(step.info.get("status")), "deadline");
    assert_eq!(step.reward, 0.0);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn nothing_survives_a_run() {
    let mut env = judge(json!({"expected": "fresh"}));
    let first = env.step("import math\nmath.leak = 1\nprint('x')").unwrap();
    assert_eq!(text(first.info.get("status")), "ok", "{:?}", first.info);
    env.reset(None).unwrap();
    let step = env
        .step("import math\nprint('fresh' if not hasattr(math, 'leak') else 'leaked')")
        .unwrap();
    assert_eq!(step.reward, 1.0, "{:?}", step.info);
}
