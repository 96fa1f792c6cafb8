//! [`SweEnv`]: an agentic coding env. Each episode is one task: the agent gets the problem
//! statement and the tools' instructions, works on a private copy of the task's repository
//! through tool calls (one per step), and ends with `submit` (or at `max_turns`), when the
//! hidden tests decide the reward ([`grade`](super::grade)).

use super::config::SweConfig;
use super::editor::History;
use super::grade::{Verdict, grade};
use super::search::search;
use super::task::SweTask;
use super::tools::{self, arguments, clip, strings, text};
use crate::walk::Walk;
use geode_runtime::sandbox::Sandbox;
use geode_runtime::tool_call::parse_tool_call;
use geode_runtime::workspace::{Mount, Quota, SharedTree, Tree, lock};
use geode_runtime::{Env, Error, Info, ResetOutput, Result, StepOutput};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// The trees a run of `task` sees: `tree` at `/workspace`, a fresh `/tmp`, and the task's
/// dependencies read-only at `/deps`.
pub fn mounts(tree: SharedTree, task: &SweTask) -> Vec<Mount> {
    let mut mounts = vec![
        Mount::new("/workspace", tree),
        Mount::new("/tmp", Arc::new(Mutex::new(Tree::new(Quota::WORKSPACE)))),
    ];
    if let Some(deps) = &task.dependencies {
        mounts.push(Mount::new("/deps", Arc::new(Mutex::new((**deps).clone()))).read_only());
    }
    mounts
}

/// An action calling `tool` with `arguments` in GEM's format.
fn tool_call(tool: &str, arguments: Value) -> String {
    format!(
        "<tool_call><tool_name>{tool}</tool_name><arguments>{arguments}</arguments></tool_call>"
    )
}

/// The prompt of `task`, in GEM's style: the problem, then how to work.
pub fn prompt(task: &SweTask) -> String {
    format!(
        "You are working in a Python repository at /workspace. Fix the issue below so that the \
         repository's tests pass, including tests you cannot see. Do not change the tests.\n\n\
         <issue>\n{}\n</issue>\n\n{}\nWhen you are done, call `submit`.",
        task.problem_statement.trim(),
        tools::instructions()
    )
}

/// One episode's state.
struct Episode {
    task: usize,
    tree: SharedTree,
    history: History,
    turn: u32,
    done: bool,
    /// The episode's random stream (random actions, programs' `random`), from its seed.
    rng: u64,
}

/// The next draw of a SplitMix64 stream at `state`.
fn draw(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An agentic coding env over a set of tasks.
pub struct SweEnv {
    id: String,
    sandbox: Sandbox,
    tasks: Arc<Vec<SweTask>>,
    config: SweConfig,
    walk: Walk,
    episode: Option<Episode>,
    /// Seeds of unseeded episodes.
    unseeded: u64,
}

impl std::fmt::Debug for SweEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SweEnv")
            .field("id", &self.id)
            .field("tasks", &self.tasks.len())
            .finish_non_exhaustive()
    }
}

/// What `get_state` saves.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    position: geode_order::Position,
    task: Option<usize>,
    files: Vec<(String, Vec<u8>)>,
    history: History,
    turn: u32,
    done: bool,
    rng: u64,
}

impl SweEnv {
    /// An env `id` over `tasks` (at least one) with `config`.
    pub fn new(id: &str, sandbox: Sandbox, tasks: Arc<Vec<SweTask>>, config: SweConfig) -> Self {
        SweEnv {
            id: id.to_owned(),
            sandbox,
            walk: Walk::new(tasks.len(), config.seed, false),
            tasks,
            config,
            episode: None,
            unseeded: 0,
        }
    }

    /// The tasks this env draws from.
    pub fn tasks(&self) -> &Arc<Vec<SweTask>> {
        &self.tasks
    }

    /// The current episode's workspace (for tests and tools outside the env's own).
    pub fn workspace(&self) -> Option<SharedTree> {
        self.episode.as_ref().map(|e| e.tree.clone())
    }

    /// Grades the current workspace now, as `submit` would (without ending the episode).
    pub fn grade_now(&self) -> Result<Verdict> {
        let episode = self.current()?;
        let task = &self.tasks[episode.task];
        let tree = lock(&episode.tree).clone();
        Ok(grade(
            &self.sandbox,
            task,
            &tree,
            self.config.grade_request(),
        ))
    }

    fn current(&self) -> Result<&Episode> {
        self.episode.as_ref().ok_or_else(|| Error::InvalidState {
            env: self.id.clone(),
            message: "step called before reset".to_owned(),
        })
    }

    fn start(&mut self, task: usize, tree: Tree, seed: u64) -> ResetOutput {
        let tree = tree.with_quota(self.config.quota);
        self.episode = Some(Episode {
            task,
            tree: Arc::new(Mutex::new(tree)),
            history: History::default(),
            turn: 0,
            done: false,
            rng: seed,
        });
        let task = &self.tasks[task];
        ResetOutput {
            observation: prompt(task),
            info: Info::from_map(&Map::from_iter([
                ("task_id".to_owned(), json!(task.id)),
                ("tools".to_owned(), Value::Array(tools::function_specs())),
            ])),
        }
    }

    /// Runs `code` (a call into the runner's `geode_workspace` module) on the workspace.
    fn run(&self, episode: &Episode, code: String, stdin: &str) -> String {
        let task = &self.tasks[episode.task];
        let mut request = self.config.tool_request();
        request.code = format!(
            "import os, sys\nif os.path.isdir('/deps'): sys.path.append('/deps')\nimport geode_workspace\n{code}"
        );
        request.stdin = stdin.to_owned();
        request.seed = episode.rng ^ u64::from(episode.turn);
        request.mounts = mounts(episode.tree.clone(), task);
        let outcome = self.sandbox.run(&request);
        let mut out = format!("exit status: {}", outcome.exit_code);
        if outcome.status.as_str() != "ok" {
            out.push_str(&format!(" ({})", outcome.status.as_str()));
        }
        if !outcome.stdout.is_empty() {
            out.push_str(&format!("\n[stdout]\n{}", outcome.stdout));
        }
        if !outcome.stderr.is_empty() {
            out.push_str(&format!("\n[stderr]\n{}", outcome.stderr));
        }
        out
    }

    /// Carries out one tool call; `Ok(None)` for `submit`.
    fn call(&mut self, name: &str, args: &Value) -> std::result::Result<Option<String>, String> {
        let args = arguments(args)?;
        let episode = self.episode.as_mut().expect("an episode is running");
        let list = |key: &str| -> std::result::Result<String, String> {
            serde_json::to_string(&strings(args, key)?).map_err(|e| e.to_string())
        };
        match name {
            "str_replace_editor" => {
                let path = text(args, "path")?.ok_or("`path` is required")?;
                let mut tree = lock(&episode.tree);
                let history = &mut episode.history;
                let needed = |key: &str| -> std::result::Result<&str, String> {
                    text(args, key)?.ok_or_else(|| format!("`{key}` is required"))
                };
                let result = match text(args, "command")?.unwrap_or_default() {
                    "view" => {
                        let range = match args.get("view_range") {
                            None | Some(Value::Null) => None,
                            Some(Value::Array(r)) if r.len() == 2 => Some((
                                r[0].as_i64().ok_or("`view_range` holds integers")?,
                                r[1].as_i64().ok_or("`view_range` holds integers")?,
                            )),
                            Some(_) => return Err("`view_range` is [first, last]".into()),
                        };
                        history.view(&tree, path, range)
                    }
                    "create" => history.create(&mut tree, path, needed("file_text")?),
                    "str_replace" => history.str_replace(
                        &mut tree,
                        path,
                        needed("old_str")?,
                        text(args, "new_str")?.unwrap_or_default(),
                    ),
                    "insert" => {
                        let line = args
                            .get("insert_line")
                            .and_then(Value::as_i64)
                            .ok_or("`insert_line` (an integer) is required")?;
                        history.insert(&mut tree, path, line, needed("new_str")?)
                    }
                    "undo_edit" => history.undo(&mut tree, path),
                    other => Err(format!(
                        "unknown command `{other}`: use view, create, str_replace, insert or undo_edit"
                    )),
                };
                result.map(Some)
            }
            "search" => {
                let tree = lock(&episode.tree);
                search(
                    &tree,
                    text(args, "pattern")?,
                    text(args, "glob")?,
                    text(args, "path")?,
                )
                .map(Some)
            }
            "python" => {
                let stdin = text(args, "stdin")?.unwrap_or_default().to_owned();
                let code = match (text(args, "path")?, text(args, "code")?) {
                    (Some(path), None) => format!(
                        "geode_workspace.run_file({}, {})",
                        serde_json::to_string(path).map_err(|e| e.to_string())?,
                        list("args")?
                    ),
                    (None, Some(code)) => format!(
                        "geode_workspace.run_code({}, {})",
                        serde_json::to_string(code).map_err(|e| e.to_string())?,
                        list("args")?
                    ),
                    _ => return Err("give exactly one of `path` and `code`".into()),
                };
                let episode = self.episode.as_ref().expect("an episode is running");
                Ok(Some(self.run(episode, code, &stdin)))
            }
            "pytest" => {
                let code = format!("geode_workspace.run_pytest({})", list("args")?);
                let episode = self.episode.as_ref().expect("an episode is running");
                Ok(Some(self.run(episode, code, "")))
            }
            "submit" => Ok(None),
            other => Err(format!(
                "unknown tool `{other}`: use str_replace_editor, python, pytest, search or submit"
            )),
        }
    }

    fn finish(&mut self, truncated: bool) -> StepOutput {
        let episode = self.episode.as_mut().expect("an episode is running");
        episode.done = true;
        let task = &self.tasks[episode.task];
        let tree = lock(&episode.tree).clone();
        let verdict = grade(&self.sandbox, task, &tree, self.config.grade_request());
        let mut info = verdict.info(task);
        info.insert("turns".into(), json!(episode.turn));
        StepOutput {
            observation: format!(
                "Submitted. {} of {} tests passed.",
                verdict
                    .tests
                    .values()
                    .filter(|v| v.as_str() == Some("passed"))
                    .count(),
                task.fail_to_pass.len() + task.pass_to_pass.len()
            ),
            reward: verdict.reward,
            terminated: !truncated,
            truncated,
            info: Info::from_map(&info),
        }
    }
}

impl Env for SweEnv {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let task = self.walk.next(seed);
        let tree = (*self.tasks[task].start).clone();
        let seed = seed.unwrap_or_else(|| {
            self.unseeded += 1;
            draw(&mut self.unseeded.clone())
        });
        Ok(self.start(task, tree, seed))
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let episode = self.current()?;
        if episode.done {
            return Err(Error::InvalidState {
                env: self.id.clone(),
                message: "the episode is over; reset first".to_owned(),
            });
        }
        if action.len() > self.config.max_action_bytes {
            return Err(Error::InputTooLarge {
                env: self.id.clone(),
                what: "action",
                len: action.len(),
                limit: self.config.max_action_bytes,
            });
        }
        let turn = {
            let episode = self.episode.as_mut().expect("checked above");
            episode.turn += 1;
            episode.turn
        };
        let (observation, info) = match parse_tool_call(action) {
            None => (
                "No tool call found. Call a tool as <tool_call><tool_name>NAME</tool_name><arguments>{...}</arguments></tool_call>.".to_owned(),
                Map::from_iter([("tool_error".to_owned(), json!("no tool call"))]),
            ),
            Some(call) => match self.call(&call.name, &call.arguments) {
                Ok(None) => return Ok(self.finish(false)),
                Ok(Some(output)) => (
                    clip(&output, self.config.max_output_chars),
                    Map::from_iter([("tool".to_owned(), json!(call.name))]),
                ),
                Err(error) => (
                    format!("Error: {error}"),
                    Map::from_iter([
                        ("tool".to_owned(), json!(call.name)),
                        ("tool_error".to_owned(), json!(error)),
                    ]),
                ),
            },
        };
        if turn >= self.config.max_turns {
            let mut last = self.finish(true);
            last.observation = format!(
                "{observation}\n\nThe turn limit is reached. {}",
                last.observation
            );
            return Ok(last);
        }
        Ok(StepOutput {
            observation,
            reward: 0.0,
            terminated: false,
            truncated: false,
            info: Info::from_map(&info),
        })
    }

    fn sample_random_action(&mut self) -> Result<String> {
        let Some(episode) = self.episode.as_mut() else {
            return Ok(tool_call(
                "str_replace_editor",
                json!({"command": "view", "path": "/workspace"}),
            ));
        };
        let files = lock(&episode.tree).files();
        let pick = draw(&mut episode.rng);
        let file = files
            .get((pick >> 8) as usize % files.len().max(1))
            .map_or_else(
                || "/workspace".to_owned(),
                |(path, _)| format!("/workspace/{path}"),
            );
        Ok(match pick % 3 {
            0 => tool_call(
                "str_replace_editor",
                json!({"command": "view", "path": "/workspace"}),
            ),
            1 => tool_call(
                "str_replace_editor",
                json!({"command": "view", "path": file}),
            ),
            _ => tool_call(
                "search",
                json!({"pattern": "def |class ", "path": "/workspace"}),
            ),
        })
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        let episode = self.episode.as_ref();
        let snapshot = Snapshot {
            position: self.walk.position(),
            task: episode.map(|e| e.task),
            files: episode
                .map(|e| {
                    lock(&e.tree)
                        .files()
                        .into_iter()
                        .map(|(p, d)| (p, d.to_vec()))
                        .collect()
                })
                .unwrap_or_default(),
            history: episode.map(|e| e.history.clone()).unwrap_or_default(),
            turn: episode.map_or(0, |e| e.turn),
            done: episode.is_some_and(|e| e.done),
            rng: episode.map_or(0, |e| e.rng),
        };
        serde_json::to_vec(&snapshot).map_err(|e| Error::Internal(e.to_string()))
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        let invalid = |message: String| Error::InvalidState {
            env: self.id.clone(),
            message,
        };
        let snapshot: Snapshot = serde_json::from_slice(state)
            .map_err(|e| invalid(format!("not a coding env state: {e}")))?;
        self.walk = Walk::restore(self.tasks.len(), self.config.seed, false, snapshot.position);
        self.episode = match snapshot.task {
            None => None,
            Some(task) if task < self.tasks.len() => {
                let mut tree = Tree::new(self.config.quota);
                for (path, data) in snapshot.files {
                    tree.put(&path, Arc::new(data))
                        .map_err(|e| invalid(format!("file `{path}`: {e:?}")))?;
                }
                Some(Episode {
                    task,
                    tree: Arc::new(Mutex::new(tree)),
                    history: snapshot.history,
                    turn: snapshot.turn,
                    done: snapshot.done,
                    rng: snapshot.rng,
                })
            }
            Some(task) => return Err(invalid(format!("no task {task} in this env"))),
        };
        Ok(())
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let mut env = SweEnv::new(
            &self.id,
            self.sandbox.clone(),
            self.tasks.clone(),
            self.config.clone(),
        );
        if same_state {
            env.walk = self.walk.clone();
            env.episode = self.episode.as_ref().map(|e| Episode {
                task: e.task,
                tree: Arc::new(Mutex::new(lock(&e.tree).clone())),
                history: e.history.clone(),
                turn: e.turn,
                done: e.done,
                rng: e.rng,
            });
            env.unseeded = self.unseeded;
        }
        Ok(Box::new(env))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.walk.seek(number);
        Ok(())
    }

    fn episode_count(&self) -> Option<u64> {
        Some(self.tasks.len() as u64)
    }
}
