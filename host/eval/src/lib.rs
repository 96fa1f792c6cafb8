//! `geode eval`: run a model on geode envs through an OpenAI-compatible Chat Completions API.
//!
//! Each episode is a chat: the env's observations are the user's messages and the model's
//! replies are the actions, until the env ends the episode or `max_turns` replies were played.
//! A run writes an output directory: `run.json` (its settings), `trajectories.jsonl` (one
//! [`record::EpisodeRecord`] per finished episode, appended as they finish, so a stopped run
//! resumes where it stopped), `summary.json` ([`summary::Summary`]) and `report.html`.

pub mod client;
pub mod envs;
pub mod episode;
pub mod log;
pub mod options;
pub mod plan;
pub mod record;
pub mod report;
pub mod reverify;
pub mod runner;
pub mod seat;
pub mod settings;
pub mod stats;
pub mod summary;

pub use options::EvalOptions;
pub use runner::{EvalRun, Stopped, run};
