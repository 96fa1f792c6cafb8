//! OpenEnv's task API, for dataset envs (`math:*`, `code:*`, `swe:*`...): a trainer lists the
//! served env, its one split and its tasks, then resets with `{"split", "index"}` to start a
//! chosen row. A task is episode `index` of the env's walk (GEM's `reset(idx=)`), described by
//! its id, index, split, prompt and info (the first observation and info of that episode, as
//! served, wrappers included). An env without a task list (a game: its episodes come from seeds) has no split.
//!
//! Routes: `GET /list_environments`, `GET /{env}/splits`, `POST /{env}/tasks`,
//! `POST /{env}/num_tasks`, `POST /{env}/task`, `POST /{env}/task_range`.

use crate::http::object;
use crate::sessions::Sessions;
use crate::wire::{Code, Failure};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use geode_runtime::{Env, ResetOutput};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Tasks `/tasks` lists at most (a preview; `/num_tasks` gives the true count).
pub const TASKS_PREVIEW: u64 = 100;
/// Tasks one `/task_range` call returns at most.
pub const MAX_RANGE: u64 = 1000;

/// The one split of `env_id`'s tasks: `test` for the evaluation sets (`eval:*`), else `train`.
pub fn split_of(env_id: &str) -> &'static str {
    if env_id.starts_with("eval:") {
        "test"
    } else {
        "train"
    }
}

/// Checks a reset's `split` names the served env's split.
pub fn check_split(env_id: &str, split: &str) -> Result<(), Failure> {
    if split == split_of(env_id) {
        return Ok(());
    }
    Err(Failure::new(
        Code::ValidationError,
        format!(
            "unknown split {split:?}: {env_id}'s tasks are in split {:?}",
            split_of(env_id)
        ),
    ))
}

/// Starts task `index` of `env` (its episode `index`), or says why it cannot.
pub fn start(env: &mut dyn Env, index: u64) -> Result<ResetOutput, Failure> {
    let Some(count) = env.episode_count() else {
        return Err(Failure::new(
            Code::ValidationError,
            format!(
                "{} has no task list (its episodes are drawn by seed): reset with `seed`, not `index`",
                env.id()
            ),
        ));
    };
    if index >= count {
        return Err(Failure::new(
            Code::ValidationError,
            format!(
                "task index {index} out of range: {} has {count} tasks",
                env.id()
            ),
        ));
    }
    env.seek_episode(index)
        .and_then(|()| env.reset(None))
        .map_err(|e| Failure::env(&e))
}

/// The env the task routes read tasks from, made on first use and kept (one at a time).
#[derive(Default)]
pub struct Catalog {
    env: Mutex<Option<Box<dyn Env>>>,
}

/// A task API refusal: an HTTP status and FastAPI's `{"detail": ...}` body.
pub struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"detail": self.1}))).into_response()
    }
}

impl From<Failure> for Refusal {
    fn from(failure: Failure) -> Self {
        let status = match failure.code {
            Code::InvalidJson => StatusCode::BAD_REQUEST,
            Code::ValidationError => StatusCode::UNPROCESSABLE_ENTITY,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Refusal(status, failure.message)
    }
}

/// `GET /list_environments`: the served env id.
pub async fn list_environments(State(server): State<Arc<Sessions>>) -> Json<Value> {
    Json(json!([server.config().env_id]))
}

/// `GET /{env}/splits`: `[{"name", "type", "num_tasks"}]`, or `[]` for an env without tasks.
pub async fn splits(
    State(server): State<Arc<Sessions>>,
    Path(env): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let id = served(&server, &env)?;
    let count = with_catalog(&server, |env| Ok(env.episode_count())).await?;
    let split = split_of(&id);
    Ok(Json(match count {
        Some(n) => json!([{"name": split, "type": split, "num_tasks": n}]),
        None => json!([]),
    }))
}

/// `POST /{env}/num_tasks` `{"split"}`: `{"num_tasks": n}`.
pub async fn num_tasks(
    State(server): State<Arc<Sessions>>,
    Path(env): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request = Request::read(&server, &env, &body, &[])?;
    let count = request.count(&server).await?;
    Ok(Json(json!({"num_tasks": count})))
}

/// `POST /{env}/tasks` `{"split"}`: the first [`TASKS_PREVIEW`] tasks and the env's name.
pub async fn tasks(
    State(server): State<Arc<Sessions>>,
    Path(env): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request = Request::read(&server, &env, &body, &[])?;
    let count = request.count(&server).await?;
    let tasks = request
        .describe(&server, 0..count.min(TASKS_PREVIEW))
        .await?;
    Ok(Json(
        json!({"tasks": tasks, "env_name": server.config().env_id}),
    ))
}

/// `POST /{env}/task` `{"split", "index"}`: `{"task": ...}`; an index out of range is a 400.
pub async fn task(
    State(server): State<Arc<Sessions>>,
    Path(env): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request = Request::read(&server, &env, &body, &["index"])?;
    let count = request.count(&server).await?;
    let index = request.fields.get("index").unwrap_or(&Value::Null);
    let index = index.as_u64().filter(|&i| i < count).ok_or_else(|| {
        Refusal(
            StatusCode::BAD_REQUEST,
            format!(
                "Invalid task index {index}: split {:?} has {count} tasks",
                request.split
            ),
        )
    })?;
    let mut tasks = request.describe(&server, index..index + 1).await?;
    Ok(Json(json!({"task": tasks.pop().unwrap_or_default()})))
}

/// `POST /{env}/task_range` `{"split", "start", "stop"}`: the tasks of a Python-style slice
/// (negative bounds count from the end), at most [`MAX_RANGE`] of them.
pub async fn task_range(
    State(server): State<Arc<Sessions>>,
    Path(env): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request = Request::read(&server, &env, &body, &["start", "stop"])?;
    let count = request.count(&server).await?;
    let start = bound(&request.fields, "start", count, 0);
    let stop = bound(&request.fields, "stop", count, count).max(start);
    if stop - start > MAX_RANGE {
        return Err(invalid(format!(
            "a range of {} tasks: ask for at most {MAX_RANGE} per call",
            stop - start
        )));
    }
    let tasks = request.describe(&server, start..stop).await?;
    Ok(Json(json!({"tasks": tasks})))
}

/// A task request's body, checked: the env in the path is the served one, `split` is a string
/// and no field is unknown (OpenEnv's request models forbid extra fields).
struct Request {
    split: String,
    fields: Map<String, Value>,
}

impl Request {
    fn read(server: &Sessions, env: &str, body: &Bytes, more: &[&str]) -> Result<Self, Refusal> {
        served(server, env)?;
        let fields = object(body)?;
        if let Some(key) = fields
            .keys()
            .find(|key| *key != "split" && !more.contains(&key.as_str()))
        {
            return Err(invalid(format!("unknown field `{key}`")));
        }
        let split = match fields.get("split") {
            Some(Value::String(split)) => split.clone(),
            _ => return Err(invalid("`split` must be a string (the split's name)")),
        };
        for key in more {
            let value = fields.get(*key).unwrap_or(&Value::Null);
            let optional = *key != "index";
            if !(value.is_i64() || value.is_u64() || (optional && value.is_null())) {
                return Err(invalid(format!(
                    "`{key}` must be an integer{}, got {value}",
                    if optional { " or null" } else { "" }
                )));
            }
        }
        Ok(Request { split, fields })
    }

    /// The number of tasks of the split; a split the env does not have is a 404.
    async fn count(&self, server: &Arc<Sessions>) -> Result<u64, Refusal> {
        let id = &server.config().env_id;
        let count = with_catalog(server, |env| Ok(env.episode_count())).await?;
        match count {
            Some(n) if self.split == split_of(id) => Ok(n),
            Some(_) => Err(Refusal(
                StatusCode::NOT_FOUND,
                format!(
                    "unknown split {:?}: {id}'s tasks are in split {:?}",
                    self.split,
                    split_of(id)
                ),
            )),
            None => Err(Refusal(
                StatusCode::NOT_FOUND,
                format!(
                    "{id} has no task list (its episodes are drawn by seed), so no split {:?}",
                    self.split
                ),
            )),
        }
    }

    /// The tasks of `indexes`: id, index, split, prompt and the first info (where dataset envs
    /// name their row: `task_id`, `problem_index`...).
    async fn describe(
        &self,
        server: &Arc<Sessions>,
        indexes: std::ops::Range<u64>,
    ) -> Result<Vec<Value>, Refusal> {
        let split = self.split.clone();
        with_catalog(server, move |env| {
            indexes
                .map(|index| {
                    let first = start(env, index)?;
                    Ok(json!({
                        "id": format!("{split}-{index}"),
                        "index": index,
                        "split": split,
                        "prompt": first.observation,
                        "info": Value::Object(first.info.to_map()),
                    }))
                })
                .collect()
        })
        .await
    }
}

/// The served env id when `env` names it (case aside), else a 404.
fn served(server: &Sessions, env: &str) -> Result<String, Refusal> {
    let id = &server.config().env_id;
    if env.eq_ignore_ascii_case(id) {
        Ok(id.clone())
    } else {
        Err(Refusal(
            StatusCode::NOT_FOUND,
            format!("unknown environment {env:?}: this server serves {id:?}"),
        ))
    }
}

/// Field `key` (an integer or null, checked by [`Request::read`]) as a slice bound over
/// `count` tasks: null is `default`; negative counts from the end; clamped to `0..=count`.
fn bound(fields: &Map<String, Value>, key: &str, count: u64, default: u64) -> u64 {
    match fields.get(key) {
        None | Some(Value::Null) => default,
        Some(at) => {
            let count = i128::from(count);
            let at = at.as_i64().map_or(i128::MAX, i128::from);
            let at = if at < 0 { count + at } else { at };
            u64::try_from(at.clamp(0, count)).unwrap_or_default()
        }
    }
}

fn invalid(message: impl Into<String>) -> Refusal {
    Refusal(StatusCode::UNPROCESSABLE_ENTITY, message.into())
}

/// Runs `call` on the catalog env on a worker thread, making the env first if needed.
async fn with_catalog<T: Send + 'static>(
    server: &Arc<Sessions>,
    call: impl FnOnce(&mut dyn Env) -> Result<T, Failure> + Send + 'static,
) -> Result<T, Refusal> {
    let this = server.clone();
    let out = server
        .run(move || {
            let mut slot = crate::sessions::lock_any(&this.catalog().env);
            if slot.is_none() {
                let env = this
                    .registry()
                    .make(&this.config().env_id, this.config().make_options())
                    .map_err(|e| Failure::env(&e))?;
                *slot = Some(env);
            }
            match slot.as_mut() {
                Some(env) => call(&mut **env),
                None => Err(Failure::new(Code::FactoryError, "no catalog env")),
            }
        })
        .await;
    out.and_then(|inner| inner).map_err(Refusal::from)
}
