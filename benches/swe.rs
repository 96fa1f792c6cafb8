//! The coding envs (`swe:*`) against what a user would run without containers: copy the task
//! to a temporary directory and run `python -m pytest` in a subprocess. One run prints:
//!
//! - reset: a fresh workspace from a task's tree (p50, largest shipped task and a 50-file one);
//! - test run: the task's FAIL_TO_PASS + PASS_TO_PASS tests on every shipped task (p50 over
//!   tasks), geode's grader beside copy + subprocess pytest (skipped when `--python` has no
//!   pytest);
//! - episodes/s: 64 envs in one vector, each agent scripted (view, search, python, submit);
//! - memory: 1,000 live workspaces in one process, bytes each above the env itself.
//!
//!     cargo bench -p geode-benches --bench swe [-- --python python3 --runs 5]

use geode_benches::rss_kib;
use geode_builtins::swe::{SweConfig, SweEnv, SweTask, shipped_tasks};
use geode_runtime::sandbox::Sandbox;
use geode_runtime::{Actions, Env, Limits, VecSpec};
use serde_json::json;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_owned())
}

fn p50(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn env_for(sandbox: &Sandbox, task: &SweTask) -> SweEnv {
    let id = format!("swe:{}", task.id);
    let config = SweConfig::new(&id, &json!({}), &Limits::default()).expect("config");
    SweEnv::new(&id, sandbox.clone(), Arc::new(vec![task.clone()]), config)
}

/// A task of `files` files (for the reset figure at the 50-file size).
fn synthetic(files: usize) -> SweTask {
    let mut map = serde_json::Map::new();
    for i in 0..files {
        map.insert(
            format!("pkg/mod_{i}.py"),
            json!(format!("def f{i}(x):\n    return x + {i}\n").repeat(20)),
        );
    }
    let row = json!({"instance_id": "synthetic", "problem_statement": "none", "files": map,
        "FAIL_TO_PASS": ["tests/test_a.py::test_a"]});
    SweTask::from_row(&row, 0, &Default::default()).expect("a task")
}

/// Copies `task` (after its hidden tests) to a temp dir and runs pytest on its tests there.
fn subprocess_run(python: &str, task: &SweTask) -> Duration {
    let tree = geode_builtins::swe::grading_tree(task, &task.start).expect("grading tree");
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!(
        "geode-swe-bench-{}-{}",
        std::process::id(),
        task.id
    ));
    for (path, data) in tree.files() {
        let target = dir.join(&path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, data.as_slice()).unwrap();
    }
    Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .args(task.tests())
        .current_dir(&dir)
        .output()
        .expect("run pytest");
    let elapsed = started.elapsed();
    std::fs::remove_dir_all(&dir).ok();
    elapsed
}

fn has_pytest(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import pytest"])
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    let python = arg("--python", "python3");
    let runs: usize = arg("--runs", "5").parse().expect("a number");
    let tasks = shipped_tasks().expect("the shipped tasks");
    let largest = tasks
        .iter()
        .max_by_key(|t| t.start.files().len())
        .expect("a task")
        .clone();
    let fifty = synthetic(50);
    let registry = geode_benches::registry();
    let sandbox = registry.runtime().sandbox().expect("the code sandbox");

    println!("| measure | geode | copy + subprocess pytest |");
    println!("|---|---|---|");
    for (label, task) in [
        (
            format!("{} files ({})", largest.start.files().len(), largest.id),
            &largest,
        ),
        ("50 files (synthetic)".to_owned(), &fifty),
    ] {
        let mut env = env_for(&sandbox, task);
        env.reset(Some(0)).unwrap();
        let geode: Vec<Duration> = (0..1000)
            .map(|_| {
                let started = Instant::now();
                env.reset(Some(0)).unwrap();
                started.elapsed()
            })
            .collect();
        let copy: Vec<Duration> = (0..50)
            .map(|i| {
                let dir =
                    std::env::temp_dir().join(format!("geode-swe-copy-{}-{i}", std::process::id()));
                let started = Instant::now();
                for (path, data) in task.start.files() {
                    let target = dir.join(&path);
                    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                    std::fs::write(target, data.as_slice()).unwrap();
                }
                let elapsed = started.elapsed();
                std::fs::remove_dir_all(&dir).ok();
                elapsed
            })
            .collect();
        println!(
            "| reset p50, {label} | {:.3} ms | {:.3} ms (copy to a temp dir) |",
            ms(p50(geode)),
            ms(p50(copy))
        );
    }

    let native = has_pytest(&python);
    let mut geode_times = Vec::new();
    let mut tool_times = Vec::new();
    let mut native_times = Vec::new();
    for task in tasks.iter() {
        let mut env = env_for(&sandbox, task);
        env.reset(Some(0)).unwrap();
        env.grade_now().unwrap();
        let mut times: Vec<Duration> = (0..runs)
            .map(|_| {
                let started = Instant::now();
                env.grade_now().unwrap();
                started.elapsed()
            })
            .collect();
        geode_times.push(p50(std::mem::take(&mut times)));
        let ids: Vec<&String> = task.tests().collect();
        let action = format!(
            "<tool_call><tool_name>pytest</tool_name><arguments>{}</arguments></tool_call>",
            json!({"args": ids})
        );
        let times: Vec<Duration> = (0..runs)
            .map(|_| {
                let started = Instant::now();
                env.step(&action).unwrap();
                started.elapsed()
            })
            .collect();
        tool_times.push(p50(times));
        if native {
            let times: Vec<Duration> = (0..runs).map(|_| subprocess_run(&python, task)).collect();
            native_times.push(p50(times));
        }
    }
    let native_text = if native {
        format!("{:.1} ms", ms(p50(native_times)))
    } else {
        format!("skipped ({python} has no pytest)")
    };
    println!(
        "| test run p50 over {} tasks: grading (restore, guard, report) | {:.1} ms | {native_text} |",
        tasks.len(),
        ms(p50(geode_times))
    );
    println!(
        "| the same tests through the `pytest` tool (no guard) | {:.1} ms | {native_text} |",
        ms(p50(tool_times))
    );

    let spec = VecSpec::uniform("swe:all", 64, 0);
    let mut vector = registry.make_vec(&spec).expect("64 coding envs");
    vector.reset(Some(0)).unwrap();
    let script = [
        json!({"n": "str_replace_editor", "a": {"command": "view", "path": "/workspace"}}),
        json!({"n": "search", "a": {"pattern": "def "}}),
        json!({"n": "python", "a": {"code": "print(sum(range(10)))"}}),
        json!({"n": "submit", "a": {}}),
    ];
    let started = Instant::now();
    let rounds = 2;
    for _ in 0..rounds {
        for step in &script {
            let action = format!(
                "<tool_call><tool_name>{}</tool_name><arguments>{}</arguments></tool_call>",
                step["n"].as_str().unwrap(),
                step["a"]
            );
            vector.step(Actions::All(&vec![action; 64])).unwrap();
        }
    }
    let episodes = 64 * rounds;
    println!(
        "| episodes/s, 64 envs, scripted (view, search, python, submit) | {:.1} | - |",
        episodes as f64 / started.elapsed().as_secs_f64()
    );

    let before = rss_kib();
    let mut envs: Vec<SweEnv> = (0..1000).map(|_| env_for(&sandbox, &largest)).collect();
    let made = rss_kib();
    for env in &mut envs {
        env.reset(Some(0)).unwrap();
        let tree = env.workspace().unwrap();
        let mut tree = geode_runtime::workspace::lock(&tree);
        let ino = tree
            .create_file(geode_runtime::workspace::ROOT, "scratch.txt")
            .unwrap();
        tree.write(ino, None, &[b'x'; 4096]).unwrap();
    }
    let live = rss_kib();
    println!(
        "| memory per live workspace ({} files, one 4 KiB file written), 1,000 live | {:.1} KiB (env alone {:.1} KiB) | {:.1} KiB on disk |",
        largest.start.files().len(),
        live.saturating_sub(made) as f64 / 1000.0,
        made.saturating_sub(before) as f64 / 1000.0,
        largest
            .start
            .files()
            .iter()
            .map(|(_, d)| d.len())
            .sum::<usize>() as f64
            / 1024.0
            + 4.0,
    );
}
