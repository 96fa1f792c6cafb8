//! One episode as a chat: the reset's observation is the first user message, each reply of the
//! model is the action, each step's observation the next user message, until the env ends the
//! episode, `max_turns` replies were played, the prompt outgrows the model's context or a
//! request fails for good.

use crate::client::{ChatClient, ChatOptions, Failure};
use crate::envs::EnvWorkers;
use crate::plan::Planned;
use crate::record::{Ending, EpisodeError, EpisodeRecord, Start, Turn, Usage};
use geode_runtime::Env;
use serde_json::{Map, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// What every episode of a run shares.
pub struct EpisodeContext {
    /// The model's client.
    pub client: ChatClient,
    /// Model name and sampling.
    pub options: ChatOptions,
    /// The system message, if any.
    pub system: Option<String>,
    /// Most replies per episode.
    pub max_turns: u32,
    /// Total reward that counts as a success.
    pub success_threshold: f64,
    /// The base of the request seeds (`None`: no seed sent).
    pub seed: Option<u64>,
}

/// How an episode came out: a record, or a failure that must stop the whole run.
pub enum Outcome {
    /// The episode finished (possibly with an error it records).
    Finished(Box<EpisodeRecord>),
    /// The server refused in a way no retry mends: the run stops with this message.
    Fatal(String),
}

/// Plays `planned` on an env leased from `workers`.
pub async fn play(ctx: &EpisodeContext, workers: &Arc<EnvWorkers>, planned: &Planned) -> Outcome {
    let started = Instant::now();
    let mut record = EpisodeRecord {
        key: planned.key.clone(),
        start: planned.start,
        messages: Vec::new(),
        first_observation: String::new(),
        reset_info: Map::new(),
        turns: Vec::new(),
        reward: 0.0,
        success: false,
        ending: Ending::MaxTurns,
        error: None,
        retries: BTreeMap::new(),
        usage: Usage::default(),
        latency_ms: 0.0,
    };
    let start = planned.start;
    let reset = workers
        .call(&planned.key.env, move |env: &mut dyn Env| match start {
            Start::Seed(seed) => env.reset(Some(seed)),
            Start::Row(row) => env.seek_episode(row).and_then(|()| env.reset(None)),
        })
        .await;
    let (mut lease, first) = match reset {
        Ok(done) => done,
        Err(error) => return finished(ctx, record, env_error(error), started),
    };
    record.first_observation = first.observation.clone();
    record.reset_info = first.info.to_map();
    if let Some(system) = &ctx.system {
        record
            .messages
            .push(json!({"role": "system", "content": system}));
    }
    record
        .messages
        .push(json!({"role": "user", "content": first.observation}));
    let seed = ctx.seed.map(|base| base.wrapping_add(planned.index));
    for _ in 0..ctx.max_turns {
        let exchange = ctx.client.chat(&record.messages, &ctx.options, seed).await;
        for (kind, count) in exchange.retries {
            *record.retries.entry(kind).or_insert(0) += count;
        }
        let reply = match exchange.result {
            Ok(reply) => reply,
            Err(Failure::Fatal(message)) => return Outcome::Fatal(message),
            Err(Failure::ContextLength(message)) => {
                record.ending = Ending::ContextLength;
                record.error = Some(EpisodeError {
                    kind: "context_length".into(),
                    message,
                });
                lease.give_back();
                return finished(ctx, record, None, started);
            }
            Err(Failure::GaveUp { kind, message }) => {
                let error = EpisodeError {
                    kind: kind.into(),
                    message,
                };
                lease.give_back();
                return finished(ctx, record, Some(error), started);
            }
        };
        record.usage.add(reply.usage);
        let action = reply.content.clone();
        let step = match lease.call(move |env| env.step(&action)).await {
            Ok(step) => step,
            Err(error) => return finished(ctx, record, env_error(error), started),
        };
        record
            .messages
            .push(json!({"role": "assistant", "content": reply.content}));
        record.reward += step.reward;
        let done = step.terminated || step.truncated;
        if !done {
            record
                .messages
                .push(json!({"role": "user", "content": step.observation}));
        }
        record.turns.push(Turn {
            action: reply.content,
            observation: step.observation,
            reward: step.reward,
            terminated: step.terminated,
            truncated: step.truncated,
            info: step.info.to_map(),
            latency_ms: exchange.latency.as_secs_f64() * 1e3,
            usage: reply.usage,
            finish_reason: reply.finish_reason,
            token_ids: reply.token_ids,
            logprobs: reply.logprobs,
        });
        if done {
            record.ending = if step.terminated {
                Ending::Terminated
            } else {
                Ending::Truncated
            };
            break;
        }
    }
    lease.give_back();
    finished(ctx, record, None, started)
}

fn env_error(message: String) -> Option<EpisodeError> {
    Some(EpisodeError {
        kind: "env".into(),
        message,
    })
}

fn finished(
    ctx: &EpisodeContext,
    mut record: EpisodeRecord,
    error: Option<EpisodeError>,
    started: Instant,
) -> Outcome {
    if let Some(error) = error {
        record.ending = Ending::Error;
        record.error = Some(error);
    }
    record.success = record.reward >= ctx.success_threshold;
    record.latency_ms = started.elapsed().as_secs_f64() * 1e3;
    Outcome::Finished(Box::new(record))
}
