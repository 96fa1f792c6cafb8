//! The code envs and the Python tool on the sandbox: GEM's reward rules (no code block −0.1,
//! 1.0 only when every selected test passes), per-test verdicts, configurable dataset files,
//! and `tool:python` with a timeout that really applies.

use geode_builtins::gem::{TERMINAL_STATE, Verdict};
use geode_runtime::wrappers::ToolRewards;
use geode_runtime::{Env, Limits, MakeOptions, StepOutput, WrapperSpec};
use geode_tests::{registry, step_alone, timed_section};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A code env whose runs are short enough for tests.
fn code_env(id: &str, overrides: Value) -> Box<dyn Env> {
    let mut config = json!({"timeout": 2});
    config
        .as_object_mut()
        .unwrap()
        .extend(overrides.as_object().cloned().unwrap_or_default());
    registry().make(id, &config).expect("make code env")
}

/// Resets `env` until its problem statement starts with `title`.
fn reset_to(env: &mut Box<dyn Env>, title: &str) {
    for seed in 0..200 {
        if env
            .reset(Some(seed))
            .unwrap()
            .observation
            .starts_with(title)
        {
            return;
        }
    }
    panic!("no seed below 200 picks `{title}`");
}

fn answer(code: &str) -> String {
    format!("Here is my solution.\n```python\n{code}\n```\n")
}

fn verdicts(step: &StepOutput) -> Vec<String> {
    step.info
        .get("tests")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["verdict"].as_str().unwrap().to_owned())
        .collect()
}

const MAX_SUBARRAY: &str = "import sys
data = sys.stdin.read().split()
n = int(data[0]); best = cur = None
for x in map(int, data[1:1 + n]):
    cur = x if cur is None or cur < 0 else cur + x
    best = cur if best is None else max(best, cur)
print(best)";

#[test]
fn a_correct_solution_passes_every_selected_test() {
    let mut env = code_env("code:CodeContest", json!({}));
    reset_to(&mut env, "Maximum subarray");
    let step = env.step(&answer(MAX_SUBARRAY)).unwrap();
    assert_eq!(step.reward, 1.0, "{:?}", step.info);
    assert_eq!(step.observation, TERMINAL_STATE);
    assert!(step.terminated && step.truncated);
    // 15 tests in the row, at most 12 run.
    assert_eq!(step.info.get("total"), Some(json!(12)));
    assert_eq!(step.info.get("passed"), Some(json!(12)));
    assert!(verdicts(&step).iter().all(|v| v == "passed"));
}

#[test]
fn every_shipped_problem_is_solvable() {
    let solutions = [
        (
            "Sum of two",
            "a, b = map(int, input().split())\nprint(a + b)",
        ),
        (
            "Reverse the words",
            "print(' '.join(input().split()[::-1]))",
        ),
        (
            "GCD and LCM",
            "import math\na, b = map(int, input().split())\ng = math.gcd(a, b)\nprint(g, a // g * b)",
        ),
        (
            "Grid paths",
            "m, n = map(int, input().split())\nrow = [1] * n\nfor _ in range(1, m):\n    for j in range(1, n):\n        row[j] = (row[j] + row[j - 1]) % (10**9 + 7)\nprint(row[-1])",
        ),
    ];
    let mut env = code_env("eval:CodeContest", json!({"timeout": 10}));
    for (title, code) in solutions {
        reset_to(&mut env, title);
        let step = env.step(&answer(code)).unwrap();
        assert_eq!(step.reward, 1.0, "{title}: {:?}", step.info);
    }
}

#[test]
fn a_wrong_answer_scores_zero_with_its_verdicts() {
    // Without early exit every test runs to the end.
    let mut env = code_env("code:Taco8k", json!({"early_exit": false}));
    reset_to(&mut env, "Sum of two");
    let step = env
        .step(&answer("a, b = map(int, input().split())\nprint(a - b)"))
        .unwrap();
    assert_eq!(step.reward, 0.0);
    let verdicts = verdicts(&step);
    assert_eq!(verdicts.len(), 5);
    // Of the five tests only "0 0" gives the same answer for a - b.
    assert_eq!(verdicts.iter().filter(|v| *v == "passed").count(), 1);
    assert!(verdicts.iter().any(|v| v == Verdict::WrongAnswer.as_str()));
}

#[test]
fn a_slow_solution_times_out_within_the_configured_limit() {
    let _timed = timed_section();
    let mut env = code_env("code:PrimeIntellect15k", json!({"timeout": 1}));
    reset_to(&mut env, "Sum of two");
    let started = Instant::now();
    let step = step_alone(&mut env, &answer("while True:\n    pass"));
    let elapsed = started.elapsed();
    assert_eq!(step.reward, 0.0);
    let verdicts = verdicts(&step);
    for verdict in &verdicts {
        assert!(
            ["out_of_fuel", "deadline", "skipped"].contains(&verdict.as_str()),
            "{verdict}"
        );
    }
    assert!(verdicts.iter().any(|v| v != "skipped"), "{verdicts:?}");
    // The five tests share one budget of 1 s: the answer is judged in one timeout.
    assert!(elapsed < Duration::from_millis(1_100), "{elapsed:?}");
}

#[test]
fn a_looping_answer_is_judged_within_one_timeout_plus_ten_percent() {
    let _timed = timed_section();
    // max-subarray runs 12 tests; the first failure stops the others and the answer's budget
    // (the per-test timeout) bounds them all.
    let timeout = Duration::from_secs(2);
    let mut env = code_env("code:CodeContest", json!({"timeout": 2}));
    reset_to(&mut env, "Maximum subarray");
    for code in [
        "while True:\n    pass",
        "import sys\nsys.stdin.read()\nwhile True:\n    pass",
        "import time\nwhile True:\n    time.sleep(0.001)",
    ] {
        let started = Instant::now();
        let step = step_alone(&mut env, &answer(code));
        let elapsed = started.elapsed();
        assert_eq!(step.reward, 0.0);
        assert!(elapsed <= timeout.mul_f64(1.1), "{code:?}: {elapsed:?}");
        let failure = step
            .info
            .get("first_failure")
            .expect("a failure is reported");
        assert!(
            ["deadline", "out_of_fuel"].contains(&failure["verdict"].as_str().unwrap()),
            "{failure}"
        );
        assert!(failure["test"].as_u64().is_some(), "{failure}");
    }
}

#[test]
fn the_first_failure_stops_the_other_tests() {
    let _timed = timed_section();
    // The tests with the longest inputs (the first ones) fail at once; the others would loop
    // until the 5 s timeout, and are stopped (or never start) instead.
    let mut env = code_env("code:CodeContest", json!({"timeout": 5}));
    reset_to(&mut env, "Maximum subarray");
    let code = "import sys\ndata = sys.stdin.read().split()\nif int(data[0]) >= 1000:\n    raise SystemExit(3)\nwhile True:\n    pass";
    let started = Instant::now();
    let step = step_alone(&mut env, &answer(code));
    assert_eq!(step.reward, 0.0);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let seen = verdicts(&step);
    assert!(seen.iter().any(|v| v == "skipped"), "{seen:?}");
    let failure = step.info.get("first_failure").unwrap();
    assert_eq!(failure["verdict"], "runtime_error", "{failure}");
    // Without early exit, a budget shorter than the tests take together still bounds them.
    let mut env = code_env(
        "code:CodeContest",
        json!({"timeout": 5, "answer_timeout": 0.5, "early_exit": false}),
    );
    reset_to(&mut env, "Maximum subarray");
    let started = Instant::now();
    let step = step_alone(
        &mut env,
        &answer("s = 0\nfor i in range(10**9):\n    s += i\nprint(s)"),
    );
    assert_eq!(step.reward, 0.0);
    assert!(
        started.elapsed() < Duration::from_millis(700),
        "{:?}",
        started.elapsed()
    );
    assert!(
        verdicts(&step).iter().any(|v| v == "deadline"),
        "{:?}",
        verdicts(&step)
    );
}

#[test]
fn time_spent_waiting_for_a_core_is_not_charged_to_the_answer() {
    let _timed = timed_section();
    // Every thread of the pool the tests run on is busy for a second when the answer comes
    // in; its budget is half a second. A right answer still gets 1.0: the budget runs down
    // only while its tests run.
    let mut env = code_env("code:CodeContest", json!({"answer_timeout": 0.5}));
    reset_to(&mut env, "Maximum subarray");
    let (busy, done) = std::sync::mpsc::channel();
    for _ in 0..rayon::current_num_threads() {
        let busy = busy.clone();
        rayon::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            busy.send(()).unwrap();
        });
    }
    std::thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    let step = env.step(&answer(MAX_SUBARRAY)).unwrap(); // on the busy global pool
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "the pool was busy"
    );
    assert_eq!(step.reward, 1.0, "{:?}", step.info);
    for _ in 0..rayon::current_num_threads() {
        done.recv().unwrap();
    }
}

#[test]
fn a_crashing_solution_is_a_runtime_error_with_its_traceback() {
    let mut env = code_env("code:CodeContest", json!({}));
    reset_to(&mut env, "Sum of two");
    let step = env
        .step(&answer("a, b = map(int, input().split())\nprint(a // 0)"))
        .unwrap();
    assert_eq!(step.reward, 0.0);
    assert!(
        verdicts(&step)
            .iter()
            .all(|v| v == "runtime_error" || v == "skipped")
    );
    let failure = step.info.get("first_failure").unwrap();
    assert_eq!(failure["verdict"], "runtime_error");
    assert!(
        failure["stderr"]
            .as_str()
            .unwrap()
            .contains("ZeroDivisionError"),
        "{failure}"
    );
}

#[test]
fn exiting_before_printing_the_answer_fails() {
    let mut env = code_env("code:CodeContest", json!({}));
    reset_to(&mut env, "Sum of two");
    let step = env
        .step(&answer(
            "import sys\na, b = map(int, input().split())\nsys.exit(0)\nprint(a + b)",
        ))
        .unwrap();
    assert_eq!(step.reward, 0.0);
    assert!(
        verdicts(&step)
            .iter()
            .all(|v| v == "wrong_answer" || v == "skipped")
    );
    let step = env.step(&answer("exit(0)\nprint(0)")).unwrap();
    assert_eq!(step.reward, 0.0);
}

#[test]
fn an_answer_without_code_is_a_format_error() {
    let mut env = code_env("code:CodeContest", json!({}));
    env.reset(Some(0)).unwrap();
    let step = env.step("print(1) but not in a code block").unwrap();
    assert_eq!(step.reward, -0.1);
    assert_eq!(step.observation, TERMINAL_STATE);
    assert!(step.terminated);
    assert_eq!(step.info.get("format_error"), Some(json!(true)));
}

#[test]
fn undefined_names_get_gems_base_imports() {
    // GEM reruns a program failing with "is not defined" with its BASE_IMPORTS prepended;
    // they include `import numpy as np`.
    geode_tests::numpy_ready();
    let mut env = code_env("code:CodeContest", json!({}));
    for gcd in ["gcd(a, b)", "int(np.gcd(a, b))"] {
        reset_to(&mut env, "GCD and LCM");
        let step = env
            .step(&answer(&format!(
                "a, b = map(int, input().split())\ng = {gcd}\nprint(g, a // g * b)"
            )))
            .unwrap();
        assert_eq!(step.reward, 1.0, "{gcd}: {:?}", step.info);
    }
}

#[test]
fn seeded_resets_replay_and_unseeded_ones_walk_the_dataset() {
    let mut a = code_env("code:CodeContest", json!({}));
    let mut b = code_env("code:CodeContest", json!({}));
    assert_eq!(a.reset(Some(7)).unwrap(), b.reset(Some(7)).unwrap());
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..13 {
        seen.insert(a.reset(None).unwrap().observation);
    }
    assert_eq!(
        seen.len(),
        13,
        "one epoch visits all thirteen shipped problems"
    );
    let state = a.get_state().unwrap();
    let mut copy = a.spawn(true).unwrap();
    assert_eq!(copy.get_state().unwrap(), state);
}

#[test]
fn the_dataset_file_is_configurable() {
    let dir = std::env::temp_dir().join(format!("geode-code-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let row = json!({"question": "Echo", "cases": {"inputs": ["hi\n"], "outputs": ["hi\n"]}});
    std::fs::write(dir.join("mine.jsonl"), format!("{row}\n")).unwrap();
    registry().runtime().datasets().add_root(&dir).unwrap();
    let mut env = code_env(
        "code:CodeContest",
        json!({"dataset": "mine.jsonl", "question_key": "question", "test_key": "cases"}),
    );
    assert_eq!(env.reset(Some(3)).unwrap().observation, "Echo");
    assert_eq!(env.step(&answer("print(input())")).unwrap().reward, 1.0);
    // An absolute path in the user's configuration needs no data directory.
    let elsewhere = std::env::temp_dir().join(format!("geode-code-abs-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).unwrap();
    let absolute = elsewhere.join("mine.jsonl");
    std::fs::write(&absolute, format!("{row}\n")).unwrap();
    let mut env = code_env(
        "code:CodeContest",
        json!({"dataset": absolute.display().to_string(), "question_key": "question", "test_key": "cases"}),
    );
    assert_eq!(env.reset(Some(0)).unwrap().observation, "Echo");
    std::fs::remove_dir_all(&elsewhere).ok();
    let missing = registry().make("code:CodeContest", json!({"dataset": "nope.jsonl"}));
    assert!(missing.is_err());
    let unknown = registry().make("code:CodeContest", json!({"datset": "x"}));
    let error = unknown.expect_err("an unknown key is refused");
    assert!(error.to_string().contains("datset"), "{error}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_python_tool_runs_code_blocks_like_gem() {
    let limits = Limits::default();
    let mut tool = registry()
        .make_tool("tool:python", &json!({}), &limits)
        .unwrap();
    assert!(tool.instructions().unwrap().contains("<python>"));
    let out = tool
        .execute("Let me compute. <python>print(6 * 7)</python> done")
        .unwrap()
        .unwrap();
    assert_eq!(out.observation, "Code execution result: 42\n\n");
    assert_eq!(
        out.parsed_action,
        "Let me compute. <python>print(6 * 7)</python>"
    );
    assert!(!out.has_error);
    assert!(tool.execute("no code here").unwrap().is_none());
    let out = tool
        .execute("```python\nprint(1)\n1/0\n```")
        .unwrap()
        .unwrap();
    assert!(out.has_error);
    assert!(
        out.observation
            .starts_with("Code execution result: 1\n\nTraceback"),
        "{}",
        out.observation
    );
    let mut last_line = registry()
        .make_tool(
            "tool:python",
            &json!({"keep_error_last_line": true}),
            &limits,
        )
        .unwrap();
    let out = last_line.execute("<python>1/0</python>").unwrap().unwrap();
    assert_eq!(
        out.observation,
        "Code execution result: ZeroDivisionError: division by zero\n"
    );
}

#[test]
fn the_python_tool_timeout_really_applies() {
    let _timed = timed_section();
    let limits = Limits::default();
    let mut tool = registry()
        .make_tool("tool:python", &json!({"timeout": 0.5}), &limits)
        .unwrap();
    let started = Instant::now();
    let out = tool
        .execute("<python>while True:\n    pass</python>")
        .unwrap()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(550 + 100),
        "{:?}",
        started.elapsed()
    );
    assert!(out.has_error);
    assert!(
        out.observation
            .contains("Execution timed out after 0.5 seconds."),
        "{}",
        out.observation
    );
}

#[test]
fn the_python_tool_wraps_an_env() {
    let tools = WrapperSpec::Tools {
        tools: vec![("tool:python".to_owned(), json!({}))],
        rewards: ToolRewards::default(),
    };
    let mut env = registry()
        .make(
            "code:CodeContest",
            MakeOptions::from(&json!({"timeout": 2})).with_wrappers(vec![tools]),
        )
        .unwrap();
    let first = env.reset(Some(1)).unwrap();
    assert!(first.observation.contains("<python>...</python>"));
    let step = env.step("<python>print(sum(range(10)))</python>").unwrap();
    assert_eq!(step.observation, "Code execution result: 45\n\n");
    assert_eq!(step.info.get("use_tool"), Some(json!(true)));
    // GEM's name for the kind of tool, not the tool's id.
    assert_eq!(step.info.get("tool_type"), Some(json!("python_code")));
    let step = env.step("no code").unwrap();
    assert_eq!(step.reward, -0.1);
}

#[test]
fn a_thousand_code_envs_share_one_dataset() {
    use geode_builtins::gem::CodeEnv;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("geode-code-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let row = json!({"problem": "Echo", "tests": {"inputs": ["hi\n"], "outputs": ["hi\n"]}});
    std::fs::write(dir.join("shared.jsonl"), format!("{row}\n{row}\n")).unwrap();
    let registry = registry();
    let runtime = registry.runtime();
    runtime.datasets().add_root(&dir).unwrap();
    let config = json!({"dataset": "shared.jsonl"});
    // Through the registry, as trainers make them: every env holds the runtime's one copy.
    let envs: Vec<Box<dyn Env>> = (0..1024)
        .map(|_| registry.make("code:CodeContest", &config).unwrap())
        .collect();
    let shared = runtime.datasets().get("shared.jsonl").expect("loaded once");
    // The runtime's table, `shared`, and the 1,024 envs.
    assert_eq!(Arc::strong_count(&shared), 1024 + 2);
    drop(envs);
    assert_eq!(Arc::strong_count(&shared), 2);
    // And the envs' own handles are the same allocation.
    let sandbox = runtime.sandbox().unwrap();
    let direct: Vec<CodeEnv> = (0..1024)
        .map(|_| {
            CodeEnv::new(
                "code:Taco8k",
                sandbox.clone(),
                runtime.datasets(),
                &config,
                &Limits::default(),
            )
            .unwrap()
        })
        .collect();
    assert!(direct.iter().all(|env| Arc::ptr_eq(env.dataset(), &shared)));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_registry_makes_native_and_plugin_ids_alike() {
    let registry = registry();
    let mut code = registry.make("code:CodeContest", json!({})).unwrap();
    let problem = code.reset(Some(0)).unwrap().observation;
    assert!(problem.len() > 100, "{problem}");
    let mut game = registry
        .make("game:GuessTheNumber-v0-hard", json!({}))
        .unwrap();
    assert!(!game.reset(Some(0)).unwrap().observation.is_empty());

    let code_entry = registry.lookup("code:CodeContest").unwrap();
    assert_eq!(code_entry.kind, geode_runtime::PluginKind::Env);
    assert!(code_entry.provider.plugin().is_none());
    let tool = registry.lookup("tool:python").unwrap();
    assert_eq!(tool.kind, geode_runtime::PluginKind::Tool);
    assert!(
        registry
            .ids_of(geode_runtime::PluginKind::Env)
            .any(|id| id == "code:Taco8k")
    );

    let as_env = registry.make("tool:python", json!({})).unwrap_err();
    assert!(
        as_env.to_string().contains("is a tool, not an env"),
        "{as_env}"
    );
    match registry.make("code:CodeContst", json!({})).unwrap_err() {
        geode_runtime::Error::UnknownEnv { suggestions, .. } => {
            assert_eq!(
                suggestions.first().map(String::as_str),
                Some("code:CodeContest")
            );
        }
        other => panic!("expected UnknownEnv, got {other}"),
    }
}
