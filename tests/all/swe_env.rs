//! The agentic coding envs (`swe:*`): every shipped task's gold patch scores 1.0 and its
//! untouched tree 0.0; the tools work on a private workspace; and hostile agents (editing or
//! deleting tests, forcing conftests, patching pytest at import, exiting early, faking
//! summaries, loops, memory and file bombs, escapes) end at reward 0 or a typed error, each
//! within a time bound and without touching a sibling env of the same vector.

use geode_builtins::swe::{SweConfig, SweEnv, SweTask, apply_gold, shipped_tasks};
use geode_runtime::workspace::{ROOT, lock};
use geode_runtime::{Actions, AutoresetMode, Env, Limits, VecSpec};
use geode_tests::{registry, runtime};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits short enough for tests.
fn config() -> Value {
    json!({"tool_timeout": 10, "grade_timeout": 60})
}

fn env_for(task: &SweTask, overrides: Value) -> SweEnv {
    let id = format!("swe:{}", task.id);
    let config = SweConfig::new(&id, &overrides, &Limits::default()).unwrap();
    let sandbox = runtime().sandbox().unwrap();
    SweEnv::new(&id, sandbox, Arc::new(vec![task.clone()]), config)
}

fn call(tool: &str, arguments: Value) -> String {
    format!(
        "<tool_call><tool_name>{tool}</tool_name><arguments>{arguments}</arguments></tool_call>"
    )
}

fn submit() -> String {
    call("submit", json!({}))
}

fn first_task() -> SweTask {
    shipped_tasks().unwrap()[0].clone()
}

#[test]
fn at_least_24_tasks_ship_and_each_has_an_id() {
    let tasks = shipped_tasks().unwrap();
    assert!(tasks.len() >= 24, "{} tasks", tasks.len());
    let listed: Vec<String> = registry().ids().map(str::to_owned).collect();
    for task in tasks.iter() {
        assert!(listed.contains(&format!("swe:{}", task.id)), "{}", task.id);
        assert!(task.gold_patch.is_some(), "{} has a gold patch", task.id);
        assert!(!task.fail_to_pass.is_empty(), "{}", task.id);
    }
    assert!(listed.contains(&"swe:all".to_owned()));
}

#[test]
fn every_gold_patch_scores_one_and_every_untouched_tree_zero() {
    let tasks = shipped_tasks().unwrap();
    let failures: Vec<String> = tasks
        .par_iter()
        .flat_map(|task| {
            let mut problems = Vec::new();
            let mut env = env_for(task, config());
            env.reset(Some(0)).unwrap();
            let untouched = env.grade_now().unwrap();
            if untouched.reward != 0.0 {
                problems.push(format!(
                    "{}: untouched tree scored {}",
                    task.id, untouched.reward
                ));
            }
            for id in &task.fail_to_pass {
                if untouched.tests.get(id).and_then(Value::as_str) == Some("passed") {
                    problems.push(format!("{}: {id} passes before the fix", task.id));
                }
            }
            let tree = env.workspace().unwrap();
            apply_gold(&mut lock(&tree), task.gold_patch.as_deref().unwrap()).unwrap();
            let step = env.step(&submit()).unwrap();
            if step.reward != 1.0 {
                problems.push(format!(
                    "{}: gold patch scored {}: {:?}",
                    task.id, step.reward, step.info
                ));
            }
            problems
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_tools_edit_run_and_search_a_private_workspace() {
    let task = first_task();
    let mut env = env_for(&task, config());
    let reset = env.reset(Some(0)).unwrap();
    assert!(reset.observation.contains(task.problem_statement.trim()));
    assert!(reset.observation.contains("<tool_call>"));
    let tools = reset.info.get("tools").unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 5);
    let view = env
        .step(&call(
            "str_replace_editor",
            json!({"command": "view", "path": "/workspace"}),
        ))
        .unwrap();
    assert!(
        view.observation.contains("/workspace/tests"),
        "{}",
        view.observation
    );
    let created = env
        .step(&call(
            "str_replace_editor",
            json!({"command": "create", "path": "probe.py", "file_text": "import sys\nprint('args', sys.argv[1:], input())\n"}),
        ))
        .unwrap();
    assert!(
        created.observation.contains("File created"),
        "{}",
        created.observation
    );
    let ran = env
        .step(&call(
            "python",
            json!({"path": "probe.py", "args": ["a", "b"], "stdin": "hi\n"}),
        ))
        .unwrap();
    assert!(
        ran.observation.contains("args ['a', 'b'] hi"),
        "{}",
        ran.observation
    );
    assert!(
        ran.observation.starts_with("exit status: 0"),
        "{}",
        ran.observation
    );
    let code = env
        .step(&call(
            "python",
            json!({"code": "import os; print(sorted(os.listdir('.')))"}),
        ))
        .unwrap();
    assert!(
        code.observation.contains("'probe.py'"),
        "{}",
        code.observation
    );
    let tests = env
        .step(&call("pytest", json!({"args": ["-q", "tests"]})))
        .unwrap();
    assert!(
        tests.observation.contains("passed"),
        "{}",
        tests.observation
    );
    let found = env
        .step(&call("search", json!({"glob": "probe.py"})))
        .unwrap();
    assert_eq!(found.observation, "/workspace/probe.py");
    let bad = env.step(&call("nope", json!({}))).unwrap();
    assert!(
        bad.observation.starts_with("Error: unknown tool"),
        "{}",
        bad.observation
    );
    let none = env.step("I will just think.").unwrap();
    assert!(none.observation.contains("No tool call"));
    // A new episode starts from the task's tree again.
    env.reset(Some(0)).unwrap();
    let tree = env.workspace().unwrap();
    assert!(lock(&tree).lookup(ROOT, "probe.py").is_err());
}

#[test]
fn long_outputs_are_cut_and_the_turn_limit_grades() {
    let task = first_task();
    let mut env = env_for(
        &task,
        json!({"max_turns": 2, "max_output_chars": 100, "tool_timeout": 10, "grade_timeout": 60}),
    );
    env.reset(Some(0)).unwrap();
    let long = env
        .step(&call("python", json!({"code": "print('x' * 5000)"})))
        .unwrap();
    assert!(
        long.observation.contains("<response clipped"),
        "{}",
        long.observation
    );
    let last = env
        .step(&call("search", json!({"pattern": "def"})))
        .unwrap();
    assert!(last.truncated && !last.terminated);
    assert_eq!(last.reward, 0.0);
    assert!(last.info.get("FAIL_TO_PASS").is_some());
}

/// What a hostile agent does, as a list of actions, before it submits.
struct Attack {
    name: &'static str,
    actions: Vec<String>,
    /// What the grading status or problem names, where the grader itself must catch it (`a|b`:
    /// either).
    reason: Option<&'static str>,
}

fn write(path: &str, text: &str) -> String {
    call(
        "python",
        json!({"code": format!("import os\nos.makedirs(os.path.dirname({path:?}) or '.', exist_ok=True)\nopen({path:?}, 'w').write({text:?})\n")}),
    )
}

/// The package's `__init__.py` of `task` (the first one in its tree).
fn package_init(task: &SweTask) -> String {
    task.start
        .files()
        .into_iter()
        .map(|(path, _)| path)
        .find(|p| p.ends_with("__init__.py") && !p.starts_with("tests"))
        .expect("a package")
}

/// Repository code that walks the stack to the grading harness, reads its nonce and test ids,
/// writes a report that passes them all, and ends the process before the harness can write
/// the real one.
const FORGE_WITH_NONCE: &str = "import sys, json, os
f = sys._getframe()
while f is not None and 'nonce' not in f.f_locals:
    f = f.f_back
if f is not None:
    ids = list(f.f_locals.get('node_ids', []))
    report = {'nonce': f.f_locals['nonce'], 'outcomes': {i: 'passed' for i in ids}, 'tampered': None, 'exit_code': 0, 'collected': len(ids)}
    open('/geode-report/report.json', 'w').write(json.dumps(report))
    os._exit(0)";

fn attacks(task: &SweTask) -> Vec<Attack> {
    let init = package_init(task);
    let prepend = |code: &str| {
        call(
            "python",
            json!({"code": format!("p = {init:?}\nold = open(p).read()\nopen(p, 'w').write({code:?} + '\\n' + old)\n")}),
        )
    };
    let a = |name, actions| Attack {
        name,
        actions,
        reason: None,
    };
    let caught = |name, actions, reason| Attack {
        name,
        actions,
        reason: Some(reason),
    };
    vec![
        a(
            "edit the tests",
            vec![call(
                "python",
                json!({"code": "import glob\nfor p in glob.glob('tests/**/*.py', recursive=True):\n    open(p, 'w').write('def test_ok():\\n    assert True\\n')\n"}),
            )],
        ),
        a(
            "delete the tests",
            vec![call(
                "python",
                json!({"code": "import shutil\nshutil.rmtree('tests')\n"}),
            )],
        ),
        a(
            "a conftest that forces passes",
            vec![
                write(
                    "conftest.py",
                    "import pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    r = outcome.get_result()\n    r.outcome = 'passed'\n    r.longrepr = None\n",
                ),
                write(
                    "tests/conftest.py",
                    "import pytest\n@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_call(item):\n    return True\ndef pytest_collection_modifyitems(items):\n    for i in items:\n        i.runtest = lambda: None\n",
                ),
            ],
        ),
        a(
            "a pytest.ini that deselects everything",
            vec![write(
                "pytest.ini",
                "[pytest]\naddopts = -k nothing_matches -p no:python\n",
            )],
        ),
        caught(
            "patch pytest at import",
            vec![prepend(
                "import _pytest.runner, _pytest.reports\n_pytest.reports.TestReport.passed = property(lambda self: True)\n_pytest.reports.TestReport.failed = property(lambda self: False)",
            )],
            "tampering detected: _pytest",
        ),
        caught(
            "patch builtins at import",
            vec![prepend(
                "import builtins\nbuiltins.AssertionError = type('Quiet', (Exception,), {})",
            )],
            "tampering detected: builtins.AssertionError",
        ),
        caught(
            "patch unittest at import",
            vec![prepend(
                "import unittest\nunittest.TestCase.run = lambda self, result=None: None",
            )],
            "TestCase.run replaced",
        ),
        a(
            "sys.exit(0) at import",
            vec![prepend("import sys\nsys.exit(0)")],
        ),
        caught(
            "os._exit(0) at import",
            vec![prepend("import os\nos._exit(0)")],
            "os._exit",
        ),
        caught(
            "find the harness's nonce, forge a passing report, os._exit(0)",
            vec![prepend(FORGE_WITH_NONCE)],
            "os._exit",
        ),
        a(
            "fake pytest summary",
            vec![prepend(
                "print('==== 99 passed in 0.01s ====')\nimport sys\nsys.stdout.flush()\nraise SystemExit(0)",
            )],
        ),
        a(
            "forge the report",
            vec![prepend(
                "import json, os\nfor d in ('/geode-report', '/workspace'):\n    try:\n        open(d + '/report.json', 'w').write(json.dumps({'nonce': 'x', 'outcomes': {}, 'tampered': None}))\n    except OSError:\n        pass",
            )],
        ),
        caught(
            "an infinite loop at import",
            vec![prepend("while True:\n    pass")],
            // Fuel runs out first, unless a loaded machine reaches the wall-clock bound first.
            "out_of_fuel|deadline",
        ),
        a(
            "a memory bomb",
            vec![
                call("python", json!({"code": "x = bytearray(8 << 30)"})),
                prepend("x = [bytearray(1 << 20) for _ in range(100000)]"),
            ],
        ),
        a(
            "a million small files",
            vec![call(
                "python",
                json!({"code": "import os\nos.makedirs('junk', exist_ok=True)\nfor i in range(1_000_000):\n    open(f'junk/{i}', 'w').close()\n"}),
            )],
        ),
        a(
            "one huge file",
            vec![call(
                "python",
                json!({"code": "with open('huge.bin', 'wb') as f:\n    for _ in range(2048):\n        f.write(b'x' * (1 << 20))\n"}),
            )],
        ),
        a(
            "escapes",
            vec![
                call(
                    "python",
                    json!({"code": "import os\nfor p in ['/etc/passwd', '../../etc/passwd', '/workspace/../etc/passwd', '/proc/self/environ']:\n    try:\n        print('READ', open(p).read()[:50])\n    except OSError as e:\n        print('refused', p, e)\nos.symlink('/etc/passwd', 'link')\n"}),
                ),
                call(
                    "str_replace_editor",
                    json!({"command": "view", "path": "/etc/passwd"}),
                ),
                call(
                    "str_replace_editor",
                    json!({"command": "create", "path": "../outside.py", "file_text": "x"}),
                ),
            ],
        ),
    ]
}

#[test]
fn hostile_agents_never_score_and_never_touch_a_sibling() {
    let task = first_task();
    let overrides =
        json!({"tool_timeout": 10, "grade_timeout": 20, "grade_fuel": 30_000_000_000u64});
    let spec = VecSpec {
        configs: vec![overrides; 2],
        autoreset: AutoresetMode::Disabled,
        ..VecSpec::uniform(&format!("swe:{}", task.id), 2, 0)
    };
    let mut vector = registry().make_vec(&spec).expect("a vector of coding envs");
    let look = call(
        "str_replace_editor",
        json!({"command": "view", "path": "/workspace"}),
    );
    vector.reset(Some(0)).unwrap();
    let start_listing = vector
        .step(Actions::All(&[look.clone(), look.clone()]))
        .unwrap()
        .observation(1)
        .to_owned();
    for attack in attacks(&task) {
        let started = Instant::now();
        vector.reset(Some(0)).unwrap();
        let mut last = None;
        for action in attack.actions.iter().chain(std::iter::once(&submit())) {
            let out = vector
                .step(Actions::All(&[action.clone(), look.clone()]))
                .unwrap();
            assert!(
                !out.observation(0).contains("READ root:"),
                "{}: read a host file: {}",
                attack.name,
                out.observation(0)
            );
            assert_eq!(
                out.observation(1),
                start_listing,
                "{}: the sibling's workspace changed",
                attack.name
            );
            last = Some(out);
        }
        let out = last.unwrap();
        if let Some(expected) = attack.reason {
            let info = out.info(0);
            let why = format!(
                "{} {}",
                info.get("grading_status").unwrap_or_default(),
                info.get("grading_problem").unwrap_or_default()
            );
            assert!(
                expected.split('|').any(|reason| why.contains(reason)),
                "{}: {why}",
                attack.name
            );
        }
        assert!(
            out.terminated[0] || out.truncated[0],
            "{}: submit ends the episode",
            attack.name
        );
        assert_eq!(
            out.rewards[0],
            0.0,
            "{}: scored {}: {:?}",
            attack.name,
            out.rewards[0],
            out.info(0)
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{}: took {:?}",
            attack.name,
            started.elapsed()
        );
    }
}

#[test]
fn quotas_give_a_typed_error_and_the_episode_goes_on() {
    let task = first_task();
    let mut env = env_for(
        &task,
        json!({"workspace_files": 200, "workspace_bytes": 1_000_000, "tool_timeout": 10, "grade_timeout": 60}),
    );
    env.reset(Some(0)).unwrap();
    let files = env
        .step(&call("python", json!({"code": "import os\nn = 0\ntry:\n    for i in range(1_000_000):\n        open(f'f{i}', 'w').close()\n        n += 1\nexcept OSError as e:\n    print('stopped after', n, e.errno)\n"})))
        .unwrap();
    assert!(
        files.observation.contains("stopped after"),
        "{}",
        files.observation
    );
    assert!(
        files.observation.contains("workspace quota exceeded"),
        "{}",
        files.observation
    );
    let big = env
        .step(&call(
            "python",
            json!({"code": "open('big', 'wb').write(b'x' * 2_000_000)"}),
        ))
        .unwrap();
    assert!(
        big.observation.contains("workspace quota exceeded"),
        "{}",
        big.observation
    );
    assert!(!big.done());
    let still = env
        .step(&call("python", json!({"code": "print('alive')"})))
        .unwrap();
    assert!(still.observation.contains("alive"), "{}", still.observation);
}

#[test]
fn a_dataset_file_in_the_task_format_loads_with_its_own_tests() {
    let dir = std::env::temp_dir().join(format!("geode-swe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let row = json!({
        "instance_id": "tiny",
        "problem_statement": "add() subtracts",
        "files": {"calc/__init__.py": "def add(a, b):\n    return a - b\n", "tests/test_calc.py": "from calc import add\n\ndef test_zero():\n    assert add(0, 0) == 0\n"},
        "test_files": {"tests/test_hidden.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n"},
        "FAIL_TO_PASS": "[\"tests/test_hidden.py::test_add\"]",
        "PASS_TO_PASS": ["tests/test_calc.py::test_zero"],
        "gold_patch": "--- a/calc/__init__.py\n+++ b/calc/__init__.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
    });
    let path = dir.join("tasks.jsonl");
    std::fs::write(&path, format!("{row}\n")).unwrap();
    let mut env = registry()
        .make(
            "swe:all",
            json!({"dataset": path.to_str().unwrap(), "tool_timeout": 10, "grade_timeout": 60}),
        )
        .unwrap();
    let reset = env.reset(Some(0)).unwrap();
    assert!(reset.observation.contains("add() subtracts"));
    let hidden = env
        .step(&call("search", json!({"glob": "test_hidden.py"})))
        .unwrap();
    assert_eq!(hidden.observation, "No matches found.");
    env.step(&call("str_replace_editor", json!({"command": "str_replace", "path": "calc/__init__.py", "old_str": "a - b", "new_str": "a + b"}))).unwrap();
    let done = env.step(&submit()).unwrap();
    assert_eq!(done.reward, 1.0, "{:?}", done.info);
    let broken = registry().make(
        "swe:all",
        json!({"dataset": dir.join("missing.jsonl").to_str().unwrap()}),
    );
    assert!(broken.is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn swe_gym_and_swe_smith_rows_load_from_a_repos_directory() {
    let dir = std::env::temp_dir().join(format!("geode-swe-rows-{}", std::process::id()));
    let repo = dir.join("repos/acme__calc");
    std::fs::create_dir_all(repo.join("calc")).unwrap();
    std::fs::create_dir_all(repo.join("tests")).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(
        repo.join("calc/__init__.py"),
        "def add(a, b):\n    return a - b\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("tests/test_calc.py"),
        "from calc import add\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
    )
    .unwrap();
    // The same repository as a tarball with a top directory, for `tarball` rows.
    let status = std::process::Command::new("tar")
        .args([
            "czf",
            "../acme__calc.tar.gz",
            "--exclude=.git",
            "-C",
            "..",
            "acme__calc",
        ])
        .current_dir(&repo)
        .status()
        .unwrap();
    assert!(status.success());
    let fix = "--- a/calc/__init__.py\n+++ b/calc/__init__.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n";
    let bug = "--- a/calc/__init__.py\n+++ b/calc/__init__.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a * b\n";
    let test_patch = "--- /dev/null\n+++ b/tests/test_add.py\n@@ -0,0 +1,4 @@\n+from calc import add\n+\n+def test_add():\n+    assert add(2, 3) == 5\n";
    let gym = json!({"instance_id": "acme__calc-1", "repo": "acme/calc", "base_commit": "abc",
        "problem_statement": "add subtracts", "patch": fix, "test_patch": test_patch,
        "FAIL_TO_PASS": "[\"tests/test_add.py::test_add\"]", "PASS_TO_PASS": "[\"tests/test_calc.py::test_zero\"]"});
    let tarball = json!({"instance_id": "tarball", "tarball": "repos/acme__calc.tar.gz",
        "problem_statement": "add subtracts", "gold_patch": fix, "test_patch": test_patch,
        "FAIL_TO_PASS": ["tests/test_add.py::test_add"], "PASS_TO_PASS": []});
    let smith = json!({"instance_id": "acme__calc.abc.func_pm__1", "repo": "acme/calc",
        "image_name": "swesmith.x86_64.acme__calc.abc", "problem_statement": "add multiplies",
        "FAIL_TO_PASS": ["tests/test_add.py::test_add"], "PASS_TO_PASS": []});
    let path = dir.join("rows.jsonl");
    std::fs::write(&path, format!("{gym}\n{tarball}\n")).unwrap();
    // SWE-smith's repository snapshots are the fixed code; its patch puts the bug in.
    std::fs::write(
        repo.join("calc/__init__.py"),
        "def add(a, b):\n    return a - b\n",
    )
    .unwrap();
    let tasks = geode_builtins::swe::load_tasks(
        Some(runtime().datasets()),
        path.to_str().unwrap(),
        Some(dir.join("repos").to_str().unwrap()),
    )
    .unwrap();
    assert_eq!(tasks.len(), 2);
    for task in tasks.iter() {
        assert!(
            task.start.lookup(ROOT, ".git/HEAD").is_err(),
            "hidden directories are left out"
        );
        let mut env = env_for(task, config());
        env.reset(Some(0)).unwrap();
        assert_eq!(env.grade_now().unwrap().reward, 0.0, "{}", task.id);
        apply_gold(
            &mut lock(&env.workspace().unwrap()),
            task.gold_patch.as_deref().unwrap(),
        )
        .unwrap();
        assert_eq!(env.grade_now().unwrap().reward, 1.0, "{}", task.id);
    }
    // A SWE-smith row: the start tree has the bug applied, and the gold patch reverses it.
    std::fs::write(
        repo.join("calc/__init__.py"),
        "def add(a, b):\n    return a + b\n",
    )
    .unwrap();
    let smith_row = json!({"patch": bug, "test_files": {"tests/test_add.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n"}});
    let mut smith = smith.as_object().unwrap().clone();
    smith.extend(smith_row.as_object().unwrap().clone());
    let context = geode_builtins::swe::RowContext {
        base: dir.clone(),
        repos: Some(dir.join("repos")),
    };
    let task = SweTask::from_row(&Value::Object(smith), 0, &context).unwrap();
    let mut env = env_for(&task, config());
    env.reset(Some(0)).unwrap();
    let workspace = env.workspace().unwrap();
    let start = {
        let tree = lock(&workspace);
        tree.file(tree.lookup(ROOT, "calc/__init__.py").unwrap())
            .unwrap()
            .clone()
    };
    assert_eq!(
        std::str::from_utf8(&start).unwrap(),
        "def add(a, b):\n    return a * b\n"
    );
    assert_eq!(env.grade_now().unwrap().reward, 0.0);
    apply_gold(
        &mut lock(&env.workspace().unwrap()),
        task.gold_patch.as_deref().unwrap(),
    )
    .unwrap();
    assert_eq!(env.grade_now().unwrap().reward, 1.0);
    let missing =
        geode_builtins::swe::load_tasks(Some(runtime().datasets()), path.to_str().unwrap(), None);
    assert!(missing.unwrap_err().to_string().contains("repos"));
    std::fs::remove_dir_all(&dir).ok();
}
