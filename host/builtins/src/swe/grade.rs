//! The reward of a coding episode, computed where the agent cannot reach it. The agent's final
//! tree is copied; every test file, `conftest.py`, test configuration (`pytest.ini`,
//! `tox.ini`, `setup.cfg`, `pyproject.toml`) and compiled `.pyc` is put back as the task has it
//! (or removed if the task has none); the task's hidden tests are laid over it. Then a fresh
//! instance runs pytest on exactly the task's FAIL_TO_PASS and PASS_TO_PASS tests, with pytest
//! loaded from the runner's snapshot (never from the tree), and the harness writes each test's
//! outcome to a report outside the workspace, tagged with a nonce the host gave it on stdin
//! before any of the repository was imported. The reward is 1.0 only if the report is there,
//! carries the nonce, saw no tampering with pytest, unittest or builtins, and every listed
//! test passed.

use super::task::SweTask;
use geode_runtime::sandbox::{RunRequest, RunStatus, Sandbox};
use geode_runtime::workspace::{Mount, Quota, ROOT, Tree};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Where the harness writes its report (a tree of its own, not the workspace).
const REPORT_DIR: &str = "/geode-report";

/// Whether `path` is a test file or test configuration the grader restores from the task.
pub fn is_protected(task: &SweTask, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let config = matches!(
        name,
        "conftest.py" | "pytest.ini" | ".pytest.ini" | "tox.ini" | "setup.cfg" | "pyproject.toml"
    );
    let compiled = name.ends_with(".pyc") || path.split('/').any(|p| p == "__pycache__");
    let under = |dir: &String| {
        let dir = dir.trim_matches('/');
        path == dir || path.starts_with(&format!("{dir}/"))
    };
    let test = if task.test_paths.is_empty() {
        let stem = name.strip_suffix(".py");
        stem.is_some_and(|s| s.starts_with("test_") || s.ends_with("_test"))
            || path.split('/').any(|p| p == "tests" || p == "test")
    } else {
        task.test_paths.iter().any(under)
    };
    config || compiled || test
}

/// The tree the tests run on: `final_tree` with the task's tests and test configuration put
/// back and its hidden tests added.
pub fn grading_tree(task: &SweTask, final_tree: &Tree) -> Result<Tree, String> {
    let mut tree = final_tree.clone().with_quota(Quota {
        bytes: u64::MAX / 2,
        nodes: u64::MAX / 2,
    });
    for (path, _) in final_tree.files() {
        if is_protected(task, &path) {
            tree.unlink(ROOT, &path)
                .map_err(|e| format!("cannot clear `{path}`: {e:?}"))?;
        }
    }
    for (path, data) in task.start.files() {
        if is_protected(task, &path) {
            tree.put(&path, data)
                .map_err(|e| format!("cannot restore `{path}`: {e:?}"))?;
        }
    }
    for (path, data) in &task.test_files {
        tree.put(path, data.clone())
            .map_err(|e| format!("cannot add `{path}`: {e:?}"))?;
    }
    if let Some(test_patch) = &task.test_patch {
        super::patch::apply(&mut tree, test_patch, false)
            .map_err(|e| format!("the task's test patch: {e}"))?;
    }
    Ok(tree)
}

/// How grading went: the reward and what the info shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// 1.0 when every listed test passed in an untampered run, else 0.0.
    pub reward: f64,
    /// Each listed test's outcome (`passed`, `failed`, `error`, `skipped`, `missing`...).
    pub tests: Map<String, Value>,
    /// Why the run's report cannot be trusted or is missing, if so.
    pub problem: Option<String>,
    /// The harness run's end (`ok`, `deadline`, `out_of_fuel`, `memory`...).
    pub status: String,
}

impl Verdict {
    /// The verdict as info fields.
    pub fn info(&self, task: &SweTask) -> Map<String, Value> {
        let outcomes = |ids: &[String]| -> Value {
            ids.iter()
                .map(|id| {
                    (
                        id.clone(),
                        self.tests.get(id).cloned().unwrap_or(json!("missing")),
                    )
                })
                .collect::<Map<_, _>>()
                .into()
        };
        Map::from_iter([
            ("resolved".to_owned(), json!(self.reward == 1.0)),
            ("task_id".to_owned(), json!(task.id)),
            ("FAIL_TO_PASS".to_owned(), outcomes(&task.fail_to_pass)),
            ("PASS_TO_PASS".to_owned(), outcomes(&task.pass_to_pass)),
            ("grading_status".to_owned(), json!(self.status)),
            ("grading_problem".to_owned(), json!(self.problem)),
        ])
    }
}

/// Grades `final_tree` for `task` in `sandbox` under `limits` (the request's code and stdin
/// are filled in here).
pub fn grade(sandbox: &Sandbox, task: &SweTask, final_tree: &Tree, limits: RunRequest) -> Verdict {
    let failed = |problem: String, status: &str| Verdict {
        reward: 0.0,
        tests: Map::new(),
        problem: Some(problem),
        status: status.to_owned(),
    };
    let tree = match grading_tree(task, final_tree) {
        Ok(tree) => tree,
        Err(problem) => return failed(problem, "not_run"),
    };
    let ids: Vec<&String> = task.tests().collect();
    let nonce = nonce();
    let report = Arc::new(Mutex::new(Tree::new(Quota {
        bytes: 16 << 20,
        nodes: 4,
    })));
    let code = format!(
        "import os, sys\nif os.path.isdir('/deps'): sys.path.append('/deps')\nimport geode_workspace\ngeode_workspace.grade({}, {:?})\n",
        serde_json::to_string(&ids).unwrap_or_default(),
        format!("{REPORT_DIR}/report.json"),
    );
    let mut request = limits;
    request.code = code;
    request.stdin = format!("{nonce}\n");
    request.mounts = super::env::mounts(Arc::new(Mutex::new(tree)), task);
    request.mounts.push(Mount::new(REPORT_DIR, report.clone()));
    let outcome = sandbox.run(&request);
    let status = outcome.status.as_str().to_owned();
    if outcome.exited {
        return failed(
            "the test run ended the process (os._exit) before the harness returned: no verdict"
                .into(),
            &status,
        );
    }
    let text = {
        let report = geode_runtime::workspace::lock(&report);
        report
            .lookup(ROOT, "report.json")
            .ok()
            .and_then(|ino| report.file(ino).ok().cloned())
    };
    let Some(text) = text else {
        let why = match outcome.status {
            RunStatus::Ok => {
                "the test run ended without the harness's report (the process exited early)"
                    .to_owned()
            }
            _ => format!(
                "the test run ended early ({status}): {}",
                tail(&outcome.stderr)
            ),
        };
        return failed(why, &status);
    };
    let report: Value = match serde_json::from_slice(&text) {
        Ok(report) => report,
        Err(e) => return failed(format!("the report is not JSON: {e}"), &status),
    };
    if report["nonce"].as_str() != Some(nonce.as_str()) {
        return failed(
            "the report does not carry the grader's nonce: it was forged".into(),
            &status,
        );
    }
    let tests = report["outcomes"].as_object().cloned().unwrap_or_default();
    if let Some(tampered) = report["tampered"].as_str() {
        return Verdict {
            reward: 0.0,
            tests,
            problem: Some(format!("tampering detected: {tampered}")),
            status,
        };
    }
    let all_passed = ids
        .iter()
        .all(|id| tests.get(*id).and_then(Value::as_str) == Some("passed"));
    Verdict {
        reward: if all_passed && !ids.is_empty() {
            1.0
        } else {
            0.0
        },
        tests,
        problem: None,
        status,
    }
}

/// The last lines of `text`.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}

/// A fresh unguessable token.
fn nonce() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
