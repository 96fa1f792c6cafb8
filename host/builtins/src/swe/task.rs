//! [`SweTask`]: one agentic coding task, read from a row of geode's task format or of a
//! SWE-bench / SWE-Gym / SWE-smith dataset (see `docs/src/coding-envs.md`):
//!
//! | field | meaning |
//! |---|---|
//! | `instance_id` (or `id`) | the task's name |
//! | `problem_statement` | what the agent is told |
//! | `files` / `tarball` / `repo_dir` | the repository: inline `{path: text}`, a `.tar`/`.tar.gz`, or a directory (paths relative to the dataset file) |
//! | `FAIL_TO_PASS`, `PASS_TO_PASS` | pytest node ids (a list, or a JSON string of one) |
//! | `test_files` | `{path: text}` written over the final tree before grading, unseen by the agent |
//! | `test_patch` | a diff applied before grading, unseen by the agent (SWE-bench) |
//! | `test_paths` | the test directories restored from the task before grading |
//! | `gold_patch` (or `patch`) | the reference fix |
//! | `dependencies` | `{path: text}` of pure-Python packages, read-only at `/deps` |
//!
//! A row without `files`, `tarball` or `repo_dir` names its repository by `repo`
//! (`owner/name`), found under the env's `repos` directory as `owner__name/` or
//! `owner__name.tar.gz`. A row with `image_name` and no `test_patch` is SWE-smith's: its `patch`
//! introduces the bug, so the start tree is the repository with it applied and the gold patch
//! is its reverse.

use super::patch;
use geode_runtime::workspace::{Quota, Tree};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files as (relative path, contents).
pub type Files = Vec<(String, Arc<Vec<u8>>)>;

/// Bytes and files a task's repository may hold.
const REPO_QUOTA: Quota = Quota {
    bytes: 256 << 20,
    nodes: 100_000,
};

/// One coding task. Its trees are shared by every episode of it in the process.
#[derive(Debug, Clone)]
pub struct SweTask {
    /// Its name.
    pub id: String,
    /// What the agent is asked to fix.
    pub problem_statement: String,
    /// The tree the agent starts in.
    pub start: Arc<Tree>,
    /// Files written over the final tree before grading.
    pub test_files: Files,
    /// A diff applied to the final tree before grading.
    pub test_patch: Option<String>,
    /// Directories whose files are restored from the task before grading (empty: every test
    /// file by name, `test_*.py`, `*_test.py` and files under `tests/` or `test/`).
    pub test_paths: Vec<String>,
    /// Tests the fix must make pass.
    pub fail_to_pass: Vec<String>,
    /// Tests that must keep passing.
    pub pass_to_pass: Vec<String>,
    /// The reference fix.
    pub gold_patch: Option<String>,
    /// Pure-Python packages the tests import, mounted read-only at `/deps`.
    pub dependencies: Option<Arc<Tree>>,
}

/// Where a row's relative paths and named repositories are looked up.
#[derive(Debug, Clone, Default)]
pub struct RowContext {
    /// The directory of the dataset file.
    pub base: PathBuf,
    /// The directory of repositories that rows name by `repo`.
    pub repos: Option<PathBuf>,
}

impl SweTask {
    /// Reads task `index` of a dataset from `row`.
    pub fn from_row(row: &Value, index: usize, context: &RowContext) -> Result<Self, String> {
        let text = |key: &str| row.get(key).and_then(Value::as_str).map(str::to_owned);
        let id = text("instance_id")
            .or_else(|| text("id"))
            .unwrap_or_else(|| format!("task-{index}"));
        let problem_statement = text("problem_statement")
            .filter(|s| !s.trim().is_empty())
            .ok_or("no `problem_statement`")?;
        let smith = row.get("image_name").is_some() && row.get("test_patch").is_none();
        let mut start = repository(row, context)?;
        let mut gold_patch = text("gold_patch");
        if smith {
            let bug = text("patch").ok_or("a SWE-smith row without its bug `patch`")?;
            patch::apply(&mut start, &bug, false).map_err(|e| format!("bug patch: {e}"))?;
            gold_patch = gold_patch.or_else(|| Some(format!("{REVERSED}{bug}")));
        } else {
            gold_patch = gold_patch.or_else(|| text("patch"));
        }
        let test_paths = match row.get("test_paths") {
            None | Some(Value::Null) => Vec::new(),
            Some(value) => names(value, "test_paths")?,
        };
        Ok(SweTask {
            problem_statement,
            start: Arc::new(start.with_quota(Quota::WORKSPACE)),
            test_files: file_map(row.get("test_files"), "test_files")?,
            test_patch: text("test_patch").filter(|p| !p.trim().is_empty()),
            test_paths,
            fail_to_pass: names(
                row.get("FAIL_TO_PASS").unwrap_or(&Value::Null),
                "FAIL_TO_PASS",
            )?,
            pass_to_pass: names(
                row.get("PASS_TO_PASS").unwrap_or(&Value::Null),
                "PASS_TO_PASS",
            )?,
            gold_patch,
            dependencies: match file_map(row.get("dependencies"), "dependencies")? {
                files if files.is_empty() => None,
                files => Some(Arc::new(tree_of(files)?)),
            },
            id,
        })
    }

    /// Every test the reward needs to pass.
    pub fn tests(&self) -> impl Iterator<Item = &String> {
        self.fail_to_pass.iter().chain(&self.pass_to_pass)
    }
}

/// Prefix of a gold patch that is the patch after it applied in reverse (a SWE-smith fix).
pub const REVERSED: &str = "geode: reverse of\n";

/// Applies a gold patch (possibly the reverse of a bug patch, as SWE-smith rows give it) to `tree`.
pub fn apply_gold(tree: &mut Tree, gold: &str) -> Result<(), String> {
    match gold.strip_prefix(REVERSED) {
        Some(bug) => patch::apply(tree, bug, true),
        None => patch::apply(tree, gold, false),
    }
}

/// A list of names: a JSON list of strings, or a string holding one (SWE-Gym's style).
fn names(value: &Value, key: &str) -> Result<Vec<String>, String> {
    let parsed;
    let value = match value {
        Value::Null => return Ok(Vec::new()),
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text)
                .map_err(|e| format!("`{key}` is a string but not a JSON list: {e}"))?;
            &parsed
        }
        other => other,
    };
    let list = value
        .as_array()
        .ok_or_else(|| format!("`{key}` is not a list"))?;
    list.iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("`{key}` holds a non-string: {v}"))
        })
        .collect()
}

/// `{path: text}` as (path, bytes).
fn file_map(value: Option<&Value>, key: &str) -> Result<Files, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let map = value
        .as_object()
        .ok_or_else(|| format!("`{key}` is not an object of path to text"))?;
    map.iter()
        .map(|(path, text)| {
            let text = text
                .as_str()
                .ok_or_else(|| format!("`{key}.{path}` is not text"))?;
            Ok((clean_path(path)?, Arc::new(text.as_bytes().to_vec())))
        })
        .collect()
}

/// A relative path inside a repository, refused if it would leave it.
fn clean_path(path: &str) -> Result<String, String> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if path.starts_with('/') || parts.contains(&"..") || parts.is_empty() {
        return Err(format!(
            "`{path}` is not a relative path inside the repository"
        ));
    }
    Ok(parts.join("/"))
}

fn tree_of(files: Files) -> Result<Tree, String> {
    let mut tree = Tree::new(REPO_QUOTA);
    for (path, data) in files {
        tree.put(&path, data)
            .map_err(|e| format!("cannot lay down `{path}`: {e:?}"))?;
    }
    Ok(tree)
}

/// The repository a row starts from.
fn repository(row: &Value, context: &RowContext) -> Result<Tree, String> {
    if let Some(files) = row.get("files").filter(|v| !v.is_null()) {
        return tree_of(file_map(Some(files), "files")?);
    }
    let relative = |key: &str| {
        row.get(key)
            .and_then(Value::as_str)
            .map(|p| context.base.join(p))
    };
    if let Some(path) = relative("tarball") {
        return tarball(&path);
    }
    if let Some(path) = relative("repo_dir") {
        return directory(&path);
    }
    let repo = row
        .get("repo")
        .and_then(Value::as_str)
        .ok_or("no `files`, `tarball`, `repo_dir` or `repo`")?;
    let repos = context.repos.as_ref().ok_or_else(|| {
        format!(
            "the row names repository `{repo}`; set the env's `repos` to a directory holding it"
        )
    })?;
    let stem = repo.replace('/', "__");
    for candidate in [
        stem.clone(),
        format!("{stem}.tar.gz"),
        format!("{stem}.tar"),
    ] {
        let path = repos.join(&candidate);
        if path.is_dir() {
            return directory(&path);
        }
        if path.is_file() {
            return tarball(&path);
        }
    }
    Err(format!(
        "repository `{repo}` is not in {} (as `{stem}/` or `{stem}.tar.gz`)",
        repos.display()
    ))
}

/// A directory's files (hidden directories such as `.git` left out).
fn directory(root: &Path) -> Result<Tree, String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Files) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry.file_type().map_err(|e| format!("{name}: {e}"))?;
            if kind.is_dir() && name.starts_with('.') {
                continue;
            }
            let path = format!("{prefix}{name}");
            if kind.is_dir() {
                walk(&entry.path(), &format!("{path}/"), out)?;
            } else if kind.is_file() {
                let data = std::fs::read(entry.path()).map_err(|e| format!("{path}: {e}"))?;
                out.push((path, Arc::new(data)));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(root, "", &mut files)?;
    tree_of(files)
}

/// A `.tar` or `.tar.gz` archive's files, without a top directory all of them share.
fn tarball(path: &Path) -> Result<Tree, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.to_string_lossy();
    let reader: Box<dyn Read> = if name.ends_with(".gz") || name.ends_with(".tgz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut archive = tar::Archive::new(reader);
    let mut files = Vec::new();
    let entries = archive
        .entries()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let inner = entry
            .path()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .to_string_lossy()
            .into_owned();
        let mut data = Vec::new();
        entry
            .read_to_end(&mut data)
            .map_err(|e| format!("{inner}: {e}"))?;
        files.push((clean_path(&inner)?, Arc::new(data)));
    }
    let top = files
        .first()
        .and_then(|(p, _)| p.split_once('/'))
        .map(|(t, _)| t.to_owned());
    if let Some(top) = top
        && files.iter().all(|(p, _)| p.starts_with(&format!("{top}/")))
    {
        for (p, _) in &mut files {
            *p = p[top.len() + 1..].to_owned();
        }
    }
    tree_of(files)
}
